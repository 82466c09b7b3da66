/// What a line costs its sender's budget, read from its first word before
/// it is parsed (Protocol.md §7, "What commands cost"); the server's
/// command table maps the same `head(ofLine:)` to its rows' costs.
extension CommandTable {
    /// Each verb's cost, in `Verb.allCases` order (looked up once per line).
    static let costs: [Int] = specs.map(\.cost)
    /// What a move costs: a one-letter line, the line the loop meters most,
    /// and any kind's move verb (`LETTER p front`, `SOLVE`, `CHAIN`), which
    /// `head(ofLine:)` cannot tell from a line that is no command and costs
    /// what that costs, `unknownCost`.
    public static let moveCost = 1
    static let letterCost = moveCost

    /// What a blank line (nothing, spaces, tabs) costs: it is not a command,
    /// but reading it is work, so it counts like a PING.
    public static let blankCost = 1
    /// What a line that is not one of the protocol's commands costs: a
    /// kind's move verb, or a line that gets an `ERR` (as a move: `moveCost`).
    public static let unknownCost = moveCost
    /// What an over-long line costs (`ERR line-too-long`).
    public static let tooLongCost = 2
    /// The rest of an over-long line, read and thrown away, costs one unit
    /// more per this many bytes (a 1 MB line: 64), so that an endless line
    /// is slowed like any other flood.
    public static let discardedBytesPerUnit = 16 * 1024

    /// What a line's first word says of it, read without parsing the line
    /// (what a line costs is read from it before the line is served).
    public enum LineHead: Equatable, Sendable {
        /// Nothing, spaces or tabs.
        case blank
        /// A one-character line: a letter's.
        case letter
        /// `NAME` with a password after the name (a login, which is hashed).
        case login
        /// A known verb.
        case verb(Verb)
        /// Anything else.
        case unknown
    }

    /// The first word of one framed line (ASCII, case-insensitive).
    public static func head(ofLine line: [UInt8]) -> LineHead {
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard start < line.count else { return .blank }
        var end = start
        while end < line.count, line[end] != 0x20, line[end] != 0x09 { end += 1 }
        if end - start == 1 { return .letter }
        guard end - start <= 9 else { return .unknown }
        // The word, folded to uppercase, packed 7 bits a byte (a verb is at
        // most 9 ASCII letters: 63 bits), and looked up among the verbs'
        // keys: no String is built and matched by name for a line (this
        // runs on every line read, PING's too).
        var key: UInt64 = 0
        for i in start..<end {
            let b = line[i]
            // NUL would pack as nothing, and no verb has a byte past ASCII.
            guard b != 0, b < 0x80 else { return .unknown }
            key = key << 7 | UInt64((0x61...0x7A).contains(b) ? b - 0x20 : b)
        }
        guard let verb = verb(packed: key) else { return .unknown }
        if verb == .name {
            var i = end
            while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
            while i < line.count, line[i] != 0x20, line[i] != 0x09 { i += 1 }
            // The separator, then at least one character of password.
            if line.count - i > 1 { return .login }
        }
        return .verb(verb)
    }

    /// Every verb a client can spell (`Verb.allCases`), by its spelling
    /// packed as `head(ofLine:)` packs a line's first word, in key order.
    static let packedVerbs: [(key: UInt64, verb: Verb)] = Verb.allCases.map { verb in
        (verb.rawValue.utf8.reduce(UInt64(0)) { $0 << 7 | UInt64($1) }, verb)
    }.sorted { $0.key < $1.key }

    /// The verb whose packed spelling is `key` (a binary search), or nil.
    static func verb(packed key: UInt64) -> Verb? {
        var low = 0, high = packedVerbs.count
        while low < high {
            let mid = (low + high) / 2
            let k = packedVerbs[mid].key
            if k == key { return packedVerbs[mid].verb }
            if k < key { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// The cost of one framed line, from its first word, without parsing it:
    /// a verb's `cost`, a one-character line a letter's, a login
    /// `passwordCost`, a blank line `blankCost`, anything else `unknownCost`.
    public static func cost(ofLine line: [UInt8]) -> Int {
        switch head(ofLine: line) {
        case .blank: blankCost
        case .letter: letterCost
        case .login: passwordCost
        case .unknown: unknownCost
        case .verb(let verb): Verb.allCases.firstIndex(of: verb).map { costs[$0] } ?? unknownCost
        }
    }
}
