import GameKit

/// The data lines of `VIEW <id>`'s reply: a game in progress as a client
/// that does not know its kind can draw and play it (GameKit's `GameView`).
/// Each ends with free text for people, in the game's language, after ` - `.
public enum ViewData: Sendable, Hashable {
    /// `ROW key=<key> shape=text|cells|count value=<value> [max=<n>]
    /// [seat=<name>] - <label>`: one row of the board, top to bottom.
    /// `seat`: the row is that player's (a match's G-H-O-S-T letters).
    case row(key: String, shape: ViewRow.Shape, value: String, max: Int?, seat: String?, label: String)
    /// `CAN verb=<VERB> takes=none|letter|word [then=<word>] - <help>`: a
    /// move the asker may send now, as `VERB [<argument>] [<then>]`.
    case can(verb: String, takes: ViewMove.Takes, then: String?, help: String)

    /// A kind's row as the wire says it, its seat named.
    public init(_ row: ViewRow, names: [String]) {
        let seat = row.seat.flatMap { names.indices.contains($0) ? names[$0] : nil }
        self = .row(key: row.key, shape: row.shape, value: row.value, max: row.max, seat: seat, label: row.label)
    }

    /// A kind's move as the wire says it.
    public init(_ move: ViewMove) {
        self = .can(verb: move.verb, takes: move.takes, then: move.then, help: move.help)
    }

    func write<S: WireSink>(to out: inout S) {
        switch self {
        case let .row(key, shape, value, max, seat, label):
            W.keyword("ROW", &out)
            W.field("key", key, &out)
            W.field("shape", shape.rawValue, &out)
            W.field("value", value, &out)
            if let max { W.field("max", max, &out) }
            if let seat { W.field("seat", seat, &out) }
            W.text("- " + label, &out)
        case let .can(verb, takes, then, help):
            W.keyword("CAN", &out)
            W.field("verb", verb, &out)
            W.field("takes", takes.rawValue, &out)
            if let then { W.field("then", then, &out) }
            W.text("- " + help, &out)
        }
    }

    /// A `ROW` or `CAN` line back (`line` without its keyword's check): its
    /// fields before ` - `, its text after. A shape this version does not
    /// know is drawn as text; a move that takes what it does not know is
    /// left out (nil), as is a line without its fields.
    init?(keyword: Substring, line: String) {
        let parts = line.firstRange(of: " - ").map { (line[..<$0.lowerBound], String(line[$0.upperBound...])) } ?? (line[...], "")
        let f = Decode.fields(parts.0.split(separator: " ").dropFirst())
        let text = Decode.text(parts.1.split(separator: " ")[...])
        switch keyword {
        case "ROW":
            guard let key = f["key"], let value = f["value"] else { return nil }
            self = .row(key: key, shape: f["shape"].flatMap(ViewRow.Shape.init(rawValue:)) ?? .text, value: value,
                        max: Decode.int(f["max"]), seat: f["seat"], label: text)
        case "CAN":
            guard let verb = f["verb"], let takes = f["takes"].flatMap(ViewMove.Takes.init(rawValue:)) else { return nil }
            self = .can(verb: verb, takes: takes, then: f["then"], help: text)
        default:
            return nil
        }
    }
}
