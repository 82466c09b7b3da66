
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
    /// `general` finds each `=` by `Character`, as before the byte path
    /// (for the tests, which hold the two to the same results).
    static func options(_ args: [Substring], keys: [String], kindKeys: Bool, general: Bool = false) -> Result<(words: [Substring], options: OptionList, kindKeys: [String]), ArgumentError> {
        var words: [Substring] = []
        var options = OptionList(capacity: args.count)
        var others: [String] = []
        for arg in args {
            guard let eq = equalsSign(in: arg, general: general) else {
                words.append(arg)
                continue
            }
            let utf8 = arg.utf8
            let key = ASCII.lowercased(utf8[..<eq])
            if !keys.contains(key) {
                guard kindKeys, isWord(key) else { return .failure(.usage) }
                others.append(key)
            }
            guard options[key] == nil else { return .failure(.duplicate(key)) }
            options.append(key: key, value: ASCII.lowercased(utf8[utf8.index(after: eq)...]))
        }
        return .success((words, options, others.sorted()))
    }

    /// The first `=` of a word that is its own `Character` (not the start
    /// of `=́`), nil if none. On an ASCII word every byte is a `Character`
    /// (CR LF, the only pair that joins, is refused before parsing; and a
    /// CR is no `=` either way), so the bytes are searched, not the
    /// `Character`s (each found by the grapheme rules: about 600
    /// instructions a byte); `general` searches the `Character`s always.
    static func equalsSign(in arg: Substring, general: Bool = false) -> Substring.Index? {
        let utf8 = arg.utf8
        if !general, utf8.allSatisfy({ $0 < 0x80 }) { return utf8.firstIndex(of: 0x3D) }
        return arg.firstIndex(of: "=")
    }

    /// Whether a word of SEEK or NEW is `game=<kind>` (any case) naming a
    /// kind other than `defaultKind` (any kind when that is nil). On an
    /// ASCII word, the prefix is checked on the bytes before any string is
    /// made; `general` makes the string always.
    static func namesKind(_ arg: Substring, otherThan defaultKind: GameKind?, general: Bool = false) -> Bool {
        let utf8 = arg.utf8
        if !general, utf8.allSatisfy({ $0 < 0x80 }) {
            guard utf8.count >= 5, zip(utf8, "game=".utf8).allSatisfy({ ASCII.lowercased($0) == $1 }) else { return false }
            // ASCII both: equal as strings exactly when equal byte for byte.
            if let kind = defaultKind?.rawValue.utf8, kind.allSatisfy({ $0 < 0x80 }) {
                return !utf8.dropFirst(5).map(ASCII.lowercased).elementsEqual(kind)
            }
        }
        let a = ASCII.lowercased(arg)
        return a.hasPrefix("game=") && defaultKind.map { a != "game=" + $0.rawValue } ?? true
    }
}
