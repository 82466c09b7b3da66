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
        var out = Message.token(keyword)
        for w in words { out += " " + Message.token(w) }
        for f in fields { out += " " + Message.token(f.key) + "=" + Message.token(f.value) }
        if let text, !text.isEmpty { out += " " + Message.clean(text) }
        return out
    }

    /// The line as sent, with CRLF, as bytes.
    public var wireBytes: [UInt8] { Array((rendered + "\r\n").utf8) }

    /// A value made safe for the wire: no spaces, no control characters.
    static func token(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map {
            $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) ? "_" : $0
        }))
    }

    /// Free text made safe for a terminal: control characters become spaces.
    static func clean(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0
        }))
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
        case "ERR":
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
    case game(id: Int, lang: String, players: [String], token: String?, round: Int, bot: String? = nil, ghost: [Int]? = nil)
    case turn(id: Int, player: String, fragment: String, ghost: [Int]? = nil)
    case move(id: Int, player: String, letter: String, fragment: String)
    case over(id: Int, winner: String, loser: String, reason: String, fragment: String, ghost: [Int]? = nil)
    /// The end of a G-H-O-S-T match.
    case match(id: Int, winner: String, loser: String, ghost: [Int])
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
        case let .game(id, lang, players, token, round, bot, ghost):
            var fields = [("id", String(id)), ("lang", lang), ("players", players.joined(separator: ","))]
            if let token { fields.append(("token", token)) }
            fields.append(("round", String(round)))
            if let bot { fields.append(("bot", bot)) }
            if let ghost { fields += [("rounds", "ghost"), ("ghost", ServerLine.ghostLetters(ghost))] }
            return Message("GAME", fields: fields)
        case let .turn(id, player, fragment, ghost):
            var fields = [("id", String(id)), ("player", player), ("fragment", fragment)]
            if let ghost { fields.append(("ghost", ServerLine.ghostLetters(ghost))) }
            return Message("TURN", fields: fields)
        case let .move(id, player, letter, fragment):
            return Message("MOVE", fields: [("id", String(id)), ("player", player), ("letter", letter), ("fragment", fragment)])
        case let .over(id, winner, loser, reason, fragment, ghost):
            var fields = [("id", String(id)), ("winner", winner), ("loser", loser), ("reason", reason), ("fragment", fragment)]
            if let ghost { fields.append(("ghost", ServerLine.ghostLetters(ghost))) }
            return Message("OVER", fields: fields)
        case let .match(id, winner, loser, ghost):
            return Message("MATCH", fields: [("id", String(id)), ("winner", winner), ("loser", loser),
                                             ("ghost", ServerLine.ghostLetters(ghost))])
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
        }
    }

    public var rendered: String { message.rendered }

    /// Each seat's letters of G-H-O-S-T, seat order, comma-separated; `-` for none: `GH,-`.
    public static func ghostLetters(_ counts: [Int]) -> String {
        counts.map { $0 <= 0 ? "-" : String("GHOST".prefix(min($0, 5))) }.joined(separator: ",")
    }
}
