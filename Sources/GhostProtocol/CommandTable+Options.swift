import GameKit

/// A line's `key=value` options, keys and values folded to lowercase, in
/// the order given, each key once. A command takes a handful: a list
/// searched in order answers faster than a dictionary hashes one key.
struct OptionList: Sendable, Equatable {
    struct Option: Sendable, Equatable {
        let key: String
        let value: String
    }

    private(set) var all: [Option] = []

    init(capacity: Int = 0) {
        all.reserveCapacity(capacity)
    }

    var count: Int { all.count }

    /// The value given for `key`, nil if none.
    subscript(key: String) -> String? {
        for option in all where option.key == key { return option.value }
        return nil
    }

    mutating func append(key: String, value: String) {
        all.append(Option(key: key, value: value))
    }
}

extension CommandTable {
    /// Splits words into positional ones and `key=value` options, in any
    /// order. Keys and values are folded to lowercase (both are
    /// case-insensitive: every option's value is one of a few words); a key
    /// outside `keys`, or the same key twice, is refused.
    static func options(_ args: [Substring], keys: [String]) -> Result<(words: [Substring], options: OptionList), ArgumentError> {
        options(args, keys: keys, kindKeys: false).map { ($0.words, $0.options) }
    }

    /// As `options`; with `kindKeys`, a key outside `keys` that is a word
    /// (a game kind's own option) is taken too, and listed in `kindKeys`.
    /// An ASCII word is split on its bytes (`asciiWord`), any other by
    /// `Character`s; `general` splits every word by `Character`s, as before
    /// the byte path (for the tests, which hold the two to the same results).
    static func options(_ args: [Substring], keys: [String], kindKeys: Bool, general: Bool = false) -> Result<(words: [Substring], options: OptionList, kindKeys: [String]), ArgumentError> {
        var words: [Substring] = []
        var options = OptionList(capacity: args.count)
        var others: [String] = []
        for arg in args {
            let key: String, value: String
            if !general, let word = asciiWord(arg) {
                guard case let .option(k, v) = word else {
                    words.append(arg)
                    continue
                }
                (key, value) = (k, v)
            } else {
                // The first `=` that is its own `Character` (not `=́`).
                guard let eq = arg.firstIndex(of: "=") else {
                    words.append(arg)
                    continue
                }
                let utf8 = arg.utf8
                (key, value) = (ASCII.lowercased(utf8[..<eq]), ASCII.lowercased(utf8[utf8.index(after: eq)...]))
            }
            if !keys.contains(key) {
                guard kindKeys, GameOptionsArguments.isWord(key) else { return .failure(.usage) }
                others.append(key)
            }
            guard options[key] == nil else { return .failure(.duplicate(key)) }
            options.append(key: key, value: value)
        }
        return .success((words, options, others.sorted()))
    }

    /// An ASCII word as `options` takes it: a positional word, or a key
    /// and value (split at the first `=`, folded to lowercase). Nil for a
    /// word that is not all ASCII (or not stored contiguously): `options`
    /// then takes the `Character` path. One pass over the bytes, and each
    /// string made from them at once (a short one is stored inline).
    enum ASCIIWord: Equatable {
        case word
        case option(key: String, value: String)
    }

    static func asciiWord(_ arg: Substring) -> ASCIIWord? {
        arg.utf8.withContiguousStorageIfAvailable { bytes -> ASCIIWord? in
            var eq: Int?
            var upper = false
            for (i, b) in bytes.enumerated() {
                guard b < 0x80 else { return nil }
                if b == 0x3D, eq == nil { eq = i }
                if (0x41...0x5A).contains(b) { upper = true }
            }
            guard let eq else { return .word }
            return .option(key: folded(bytes.prefix(eq), upper), value: folded(bytes.dropFirst(eq + 1), upper))
        } ?? nil
    }

    /// ASCII bytes as a string, folded to lowercase when `fold`.
    private static func folded(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ fold: Bool) -> String {
        guard fold else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            buffer.initialize(from: bytes.lazy.map(ASCII.lowercased)).1
        }
    }

    /// Whether a word of SEEK or NEW is `game=<kind>` (any case) naming a
    /// kind other than `defaultKind` (any kind when that is nil). An ASCII
    /// word is split as `options` splits it (`game=` is its start exactly
    /// when its key is `game`) and, for an ASCII kind, its value compared
    /// with the kind's name (two ASCII strings are equal exactly when their
    /// bytes are); `general` folds the whole word and compares strings always.
    static func namesKind(_ arg: Substring, otherThan defaultKind: GameKind?, general: Bool = false) -> Bool {
        if !general, defaultKind?.rawValue.utf8.allSatisfy({ $0 < 0x80 }) ?? true, let word = asciiWord(arg) {
            guard case let .option(key, value) = word, key == "game" else { return false }
            return defaultKind.map { value != $0.rawValue } ?? true
        }
        let a = ASCII.lowercased(arg)
        return a.hasPrefix("game=") && defaultKind.map { a != "game=" + $0.rawValue } ?? true
    }
}
