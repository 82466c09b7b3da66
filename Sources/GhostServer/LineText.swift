import GameKit

/// A line of text built as bytes, for the lines the game path writes once
/// a game (the log's "started" and "over", NEW's INFO): String
/// interpolation, `joined` and `map` cost about three times as many
/// instructions for the same text (issue #29).
struct LineText {
    private var bytes: [UInt8] = []

    init(capacity: Int = 128) { bytes.reserveCapacity(capacity) }

    mutating func add(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: s.utf8)
        }
    }

    /// A literal piece: its bytes are in the binary, copied with no String made.
    mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A number's decimal digits, written without making a String.
    mutating func add(_ n: Int) {
        if n < 0 { bytes.append(0x2D) }   // "-"
        addDigits(n.magnitude)
    }

    private mutating func addDigits(_ n: UInt) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: UInt.max has 20 digits
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `game <id> started: <lang> <a> vs <b>[ (<kind> <variant>)][ (a match of <n> rounds)]`;
    /// `kind` nil for the server's default kind, `rounds` nil for a single game.
    static func started(_ id: Int, lang: String, names: [String], kind: (name: String, variant: String)?, rounds: Int?) -> String {
        var line = LineText()
        line.put("game "); line.add(id); line.put(" started: "); line.add(lang); line.put(" ")
        for (i, name) in names.enumerated() {
            if i > 0 { line.put(" vs ") }
            line.add(name)
        }
        if let kind { line.put(" ("); line.add(kind.name); line.put(" "); line.add(kind.variant); line.put(")") }
        if let rounds { line.put(" (a match of "); line.add(rounds); line.put(" rounds)") }
        return line.text
    }

    /// NEW's INFO to the host of a private game.
    static func giveTheCode(_ code: String) -> String {
        var line = LineText(capacity: 80)
        line.put("Give the code "); line.add(code); line.put(" to your opponent: they send JOIN "); line.add(code); line.put(".")
        return line.text
    }

    /// `game <id> over: <winner> beat <loser> (<reason>, <key> "<value>", …)`.
    static func over(_ id: Int, winner: String, loser: String, reason: String, fields: [Field]) -> String {
        var line = LineText()
        line.put("game "); line.add(id); line.put(" over: "); line.add(winner); line.put(" beat "); line.add(loser)
        line.put(" ("); line.add(reason)
        for f in fields { line.put(", "); line.add(f.key); line.put(" \""); line.add(f.value); line.put("\"") }
        line.put(")")
        return line.text
    }
}
