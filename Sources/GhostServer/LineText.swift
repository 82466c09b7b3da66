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

    mutating func add(_ n: Int) { add(String(n)) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `game <id> started: <lang> <a> vs <b>[ (<kind> <variant>)][ (a match of <n> rounds)]`;
    /// `kind` nil for the server's default kind, `rounds` nil for a single game.
    static func started(_ id: Int, lang: String, names: [String], kind: (name: String, variant: String)?, rounds: Int?) -> String {
        var line = LineText()
        line.add("game "); line.add(id); line.add(" started: "); line.add(lang); line.add(" ")
        for (i, name) in names.enumerated() {
            if i > 0 { line.add(" vs ") }
            line.add(name)
        }
        if let kind { line.add(" ("); line.add(kind.name); line.add(" "); line.add(kind.variant); line.add(")") }
        if let rounds { line.add(" (a match of "); line.add(rounds); line.add(" rounds)") }
        return line.text
    }

    /// NEW's INFO to the host of a private game.
    static func giveTheCode(_ code: String) -> String {
        var line = LineText(capacity: 80)
        line.add("Give the code "); line.add(code); line.add(" to your opponent: they send JOIN "); line.add(code); line.add(".")
        return line.text
    }

    /// `game <id> over: <winner> beat <loser> (<reason>, <key> "<value>", …)`.
    static func over(_ id: Int, winner: String, loser: String, reason: String, fields: [Field]) -> String {
        var line = LineText()
        line.add("game "); line.add(id); line.add(" over: "); line.add(winner); line.add(" beat "); line.add(loser)
        line.add(" ("); line.add(reason)
        for f in fields { line.add(", "); line.add(f.key); line.add(" \""); line.add(f.value); line.add("\"") }
        line.add(")")
        return line.text
    }
}
