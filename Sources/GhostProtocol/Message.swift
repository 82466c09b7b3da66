import GameKit

/// One line the server sends, before its CRLF:
/// `KEYWORD [positional...] [key=value...] [free text]`.
///
/// Values and positional words never contain spaces or control characters;
/// free text (only on ERR and INFO lines) never contains control characters.
public struct Message: Sendable, Equatable, CustomStringConvertible {
    public var keyword: String
    public var words: [String]
    public var fields: [(key: String, value: String)]
    public var text: String?

    public init(_ keyword: String, _ words: [String] = [], fields: [(String, String)] = [], text: String? = nil) {
        self.keyword = keyword
        self.words = words
        self.fields = fields.map { (key: $0.0, value: $0.1) }
        self.text = text
    }

    public static func == (a: Message, b: Message) -> Bool {
        a.keyword == b.keyword && a.words == b.words && a.text == b.text
            && a.fields.map(\.key) == b.fields.map(\.key) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// The value of a field, if present.
    public subscript(field: String) -> String? {
        fields.first(where: { $0.key == field })?.value
    }

    /// The line as sent, without CRLF.
    public var description: String { rendered }

    public var rendered: String {
        var bytes: [UInt8] = []
        appendLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The line as sent, with CRLF, as bytes.
    public var wireBytes: [UInt8] {
        var bytes: [UInt8] = []
        appendWire(to: &bytes)
        return bytes
    }

    /// Appends the line and its CRLF to `out`, sanitizing as it goes: no
    /// intermediate strings, since every reply of the server passes here.
    public func appendWire(to out: inout [UInt8]) {
        appendLine(to: &out)
        out.append(0x0D)
        out.append(0x0A)
    }

    private func appendLine(to out: inout [UInt8]) {
        Message.append(token: keyword, to: &out)
        for w in words {
            out.append(0x20)
            Message.append(token: w, to: &out)
        }
        for f in fields {
            out.append(0x20)
            Message.append(token: f.key, to: &out)
            out.append(0x3D)
            Message.append(token: f.value, to: &out)
        }
        if let text, !text.isEmpty {
            out.append(0x20)
            Message.append(text: text, to: &out)
        }
    }

    /// A value made safe for the wire: spaces and control characters become `_`.
    static func append(token s: String, to out: inout [UInt8]) {
        append(s, to: &out, space: 0x5F, replacingSpace: true)
    }

    /// Free text made safe for a terminal: control characters become spaces.
    static func append(text s: String, to out: inout [UInt8]) {
        append(s, to: &out, space: 0x20, replacingSpace: false)
    }

    private static func append(_ s: String, to out: inout [UInt8], space: UInt8, replacingSpace: Bool) {
        var ascii = true
        for b in s.utf8 {
            if b >= 0x80 { ascii = false; break }
            out.append(b < 0x20 || b == 0x7F || (replacingSpace && b == 0x20) ? space : b)
        }
        guard !ascii else { return }
        // Slow path, rare: redo the string scalar by scalar to catch C1 controls.
        var count = 0
        for b in s.utf8 { if b >= 0x80 { break }; count += 1 }
        for scalar in s.unicodeScalars.dropFirst(count) {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || (replacingSpace && v == 0x20) {
                out.append(space)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// A value made safe for the wire (as a string, for tests and tools).
    static func token(_ s: String) -> String {
        var out: [UInt8] = []
        append(token: s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Free text made safe for a terminal (as a string).
    static func clean(_ s: String) -> String {
        var out: [UInt8] = []
        append(text: s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses a server line (without its line end), as a client would.
    /// Positional words run until the first `key=value`; for ERR and INFO,
    /// everything after the code (ERR) or keyword (INFO) is free text.
    public static func parse(_ line: String) -> Message? {
        var parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty else { return nil }
        let keyword = parts.removeFirst()
        switch keyword {
        case "INFO":
            return Message(keyword, text: parts.joined(separator: " "))
        case "ERR", "BYE":
            guard !parts.isEmpty else { return Message(keyword) }
            let code = parts.removeFirst()
            return Message(keyword, [code], text: parts.isEmpty ? nil : parts.joined(separator: " "))
        default:
            var words: [String] = []
            var fields: [(String, String)] = []
            for p in parts {
                if let eq = p.firstIndex(of: "="), eq != p.startIndex {
                    fields.append((String(p[..<eq]), String(p[p.index(after: eq)...])))
                } else if fields.isEmpty {
                    words.append(p)
                }
            }
            return Message(keyword, words, fields: fields)
        }
    }
}

/// The lines ghostd sends, typed.
public enum ServerLine: Sendable, Equatable {
    case hello(version: String, protocolVersion: Int, languages: [String])
    case ok(verb: String, fields: [(String, String)])
    case error(ErrorCode, String)
    case info(String)
    /// The full state header of a game; `token` goes only to its own player.
    /// Game lines carry their header typed, then the fields the game kind
    /// supplies (Ghost: `fragment=`, `letter=`, `ghost=` in a match), in order.
    case game(id: Int, lang: String, players: [String], token: String?, round: Int, bot: String? = nil, fields: [Field] = [])
    case turn(id: Int, player: String, fields: [Field])
    case move(id: Int, player: String, fields: [Field])
    case over(id: Int, winner: String, loser: String, reason: EndReason, fields: [Field])
    /// The end of a match.
    case match(id: Int, winner: String, loser: String, fields: [Field])
    case adjourned(id: Int, player: String, grace: Int)
    case returned(id: Int, player: String)
    case claimable(id: Int, player: String)
    case offer(id: Int, player: String, kind: String, lang: String?)
    case accepted(id: Int, player: String, kind: String)
    case declined(id: Int, player: String, kind: String)
    case rematch(id: Int, player: String)
    case rank(name: String, rank: Int, wins: Int)
    case nameEntry(String)
    case score(rank: Int, name: String, wins: Int, played: Int)
    /// The last line before the server closes the connection (protocol 2).
    case bye(ByeCode, String)

    public static func == (a: ServerLine, b: ServerLine) -> Bool { a.message == b.message }

    public static func ok(_ verb: String, _ fields: (String, String)...) -> ServerLine {
        .ok(verb: verb, fields: fields)
    }

    public var message: Message {
        switch self {
        case let .hello(version, protocolVersion, languages):
            return Message("HELLO", ["ghostd/\(version)"],
                           fields: [("protocol", String(protocolVersion)), ("languages", languages.joined(separator: ","))])
        case let .ok(verb, fields):
            return Message("OK", [verb], fields: fields)
        case let .error(code, text):
            return Message("ERR", [code.rawValue], text: text)
        case let .info(text):
            return Message("INFO", text: text)
        case let .game(id, lang, players, token, round, bot, game):
            var fields = [("id", String(id)), ("lang", lang), ("players", players.joined(separator: ","))]
            if let token { fields.append(("token", token)) }
            fields.append(("round", String(round)))
            if let bot { fields.append(("bot", bot)) }
            return Message("GAME", fields: fields + game.map { ($0.key, $0.value) })
        case let .turn(id, player, game):
            return Message("TURN", fields: [("id", String(id)), ("player", player)] + game.map { ($0.key, $0.value) })
        case let .move(id, player, game):
            return Message("MOVE", fields: [("id", String(id)), ("player", player)] + game.map { ($0.key, $0.value) })
        case let .over(id, winner, loser, reason, game):
            return Message("OVER", fields: [("id", String(id)), ("winner", winner), ("loser", loser), ("reason", reason.rawValue)]
                           + game.map { ($0.key, $0.value) })
        case let .match(id, winner, loser, game):
            return Message("MATCH", fields: [("id", String(id)), ("winner", winner), ("loser", loser)] + game.map { ($0.key, $0.value) })
        case let .adjourned(id, player, grace):
            return Message("ADJOURNED", fields: [("id", String(id)), ("player", player), ("grace", String(grace))])
        case let .returned(id, player):
            return Message("RETURNED", fields: [("id", String(id)), ("player", player)])
        case let .claimable(id, player):
            return Message("CLAIMABLE", fields: [("id", String(id)), ("player", player)])
        case let .offer(id, player, kind, lang):
            var fields = [("id", String(id)), ("player", player), ("kind", kind)]
            if let lang { fields.append(("lang", lang)) }
            return Message("OFFER", fields: fields)
        case let .accepted(id, player, kind):
            return Message("ACCEPTED", fields: [("id", String(id)), ("player", player), ("kind", kind)])
        case let .declined(id, player, kind):
            return Message("DECLINED", fields: [("id", String(id)), ("player", player), ("kind", kind)])
        case let .rematch(id, player):
            return Message("REMATCH", fields: [("id", String(id)), ("player", player)])
        case let .rank(name, rank, wins):
            return Message("RANK", fields: [("name", name), ("rank", String(rank)), ("wins", String(wins))])
        case let .nameEntry(name):
            return Message("NAME", fields: [("name", name)])
        case let .score(rank, name, wins, played):
            return Message("SCORE", fields: [("rank", String(rank)), ("name", name), ("wins", String(wins)), ("played", String(played))])
        case let .bye(code, text):
            return Message("BYE", [code.rawValue], text: text)
        }
    }

    public var rendered: String { message.rendered }

}

// MARK: Rendering straight to bytes

extension ServerLine {
    /// Appends the line and its CRLF to `out`: byte for byte what
    /// `message.appendWire` writes, but the lines of a game in play (OK, TURN,
    /// MOVE, OVER, GAME, INFO, ERR, RANK) are written field by field, without
    /// building a `Message` and its strings first. This runs for every reply.
    public func appendWire(to out: inout [UInt8]) {
        switch self {
        case let .ok(verb, fields):
            out.append(contentsOf: "OK ".utf8)
            Message.append(token: verb, to: &out)
            for (key, value) in fields { ServerLine.field(key, value, &out) }
        case let .turn(id, player, game):
            out.append(contentsOf: "TURN".utf8)
            ServerLine.field("id", id, &out)
            ServerLine.field("player", player, &out)
            for f in game { ServerLine.field(f.key, f.value, &out) }
        case let .move(id, player, game):
            out.append(contentsOf: "MOVE".utf8)
            ServerLine.field("id", id, &out)
            ServerLine.field("player", player, &out)
            for f in game { ServerLine.field(f.key, f.value, &out) }
        case let .over(id, winner, loser, reason, game):
            out.append(contentsOf: "OVER".utf8)
            ServerLine.field("id", id, &out)
            ServerLine.field("winner", winner, &out)
            ServerLine.field("loser", loser, &out)
            ServerLine.field("reason", reason.rawValue, &out)
            for f in game { ServerLine.field(f.key, f.value, &out) }
        case let .game(id, lang, players, token, round, bot, game):
            out.append(contentsOf: "GAME".utf8)
            ServerLine.field("id", id, &out)
            ServerLine.field("lang", lang, &out)
            out.append(contentsOf: " players=".utf8)
            for (i, p) in players.enumerated() {
                if i > 0 { out.append(0x2C) }
                Message.append(token: p, to: &out)
            }
            if let token { ServerLine.field("token", token, &out) }
            ServerLine.field("round", round, &out)
            if let bot { ServerLine.field("bot", bot, &out) }
            for f in game { ServerLine.field(f.key, f.value, &out) }
        case let .info(text):
            out.append(contentsOf: "INFO".utf8)
            if !text.isEmpty {
                out.append(0x20)
                Message.append(text: text, to: &out)
            }
        case let .error(code, text):
            out.append(contentsOf: "ERR ".utf8)
            out.append(contentsOf: code.rawValue.utf8)
            if !text.isEmpty {
                out.append(0x20)
                Message.append(text: text, to: &out)
            }
        case let .rank(name, rank, wins):
            out.append(contentsOf: "RANK".utf8)
            ServerLine.field("name", name, &out)
            ServerLine.field("rank", rank, &out)
            ServerLine.field("wins", wins, &out)
        default:
            message.appendWire(to: &out)
            return
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// ` key=value`, the value made safe for the wire.
    private static func field(_ key: String, _ value: String, _ out: inout [UInt8]) {
        out.append(0x20)
        Message.append(token: key, to: &out)
        out.append(0x3D)
        Message.append(token: value, to: &out)
    }

    /// ` key=123`, in decimal.
    private static func field(_ key: String, _ value: Int, _ out: inout [UInt8]) {
        out.append(0x20)
        Message.append(token: key, to: &out)
        out.append(0x3D)
        appendDecimal(value, to: &out)
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        let start = out.count
        var v = value.magnitude   // a UInt, so Int.min is fine
        repeat {
            out.append(UInt8(truncatingIfNeeded: v % 10) + 0x30)
            v /= 10
        } while v > 0
        out[start...].reverse()
    }
}
