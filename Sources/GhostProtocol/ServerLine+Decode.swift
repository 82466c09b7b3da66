import GameKit

extension ServerLine {
    /// Reads one line from the server (without its line end), as a client
    /// does. Returns nil for a line this version does not know — a later
    /// protocol's event, which a client ignores — and for a line that lacks a
    /// field its keyword needs. Unknown fields are ignored; on game lines,
    /// every field that is not part of the generic header is a game field.
    /// Control characters are dropped and long values cut short
    /// (`Decode.maxValue`, `Decode.maxText` scalars), so nothing decoded can
    /// move a terminal's cursor or flood a screen line. Never traps.
    public init?(decoding line: some StringProtocol) {
        let clean = Sanitize.strippingControls(line)
        var words = clean.split(separator: " ")[...]
        guard let keyword = words.popFirst() else { return nil }
        switch keyword {
        case "INFO":
            self = .info(Decode.text(words))
            return
        case "HELP":
            // `HELP <usage> - <text>`: the usage never holds " - ".
            let text = Decode.text(words)
            guard let dash = text.firstRange(of: " - ") else { return nil }
            self = .helpEntry(usage: String(text[..<dash.lowerBound]), text: String(text[dash.upperBound...]))
            return
        case "ERR", "BYE":
            guard let code = words.popFirst().map({ Decode.value($0) }) else { return nil }
            if keyword == "ERR" {
                self = .error(ErrorCode(rawValue: code), Decode.text(words))
            } else {
                guard let bye = ByeCode(rawValue: code) else { return nil }
                self = .bye(bye, Decode.text(words))
            }
            return
        case "HELLO":
            guard let word = words.popFirst(), word.hasPrefix("ghostd/") else { return nil }
            let f = Decode.fields(words)
            guard let version = Decode.int(f["protocol"]) else { return nil }
            let languages = (f["languages"] ?? "").split(separator: ",").map(String.init)
            self = .hello(version: Decode.value(word.dropFirst(7)), protocolVersion: version, languages: languages)
            return
        case "ROW", "CAN":
            guard let data = ViewData(keyword: keyword, line: clean) else { return nil }
            self = .view(data)
            return
        case "DECLINED" where clean.contains(" code="), _ where SocialLine.keywords.contains(keyword):
            guard let line = SocialLine(keyword: keyword, line: clean) else { return nil }
            self = .social(line)
            return
        case "OK":
            guard let verb = words.popFirst() else { return nil }
            self = .ok(Reply(verb: Decode.value(verb), fields: Decode.fields(words)))
            return
        default:
            break
        }
        let f = Decode.fields(words)
        func int(_ key: String) -> Int? { Decode.int(f[key]) }
        switch keyword {
        case "GAME":
            guard let id = int("id"), let lang = f["lang"], let players = f["players"], let round = int("round") else { return nil }
            var bot: BotLevel?
            if let b = f["bot"] {
                guard let level = BotLevel(rawValue: b) else { return nil }
                bot = level
            }
            // A protocol-1 server sends no game= (kind nil): its games are the client's default kind.
            self = .game(id: id, kind: f["game"].map(GameKind.init(rawValue:)), lang: lang,
                         players: players.isEmpty ? [] : players.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
                         token: f["token"], round: round, bot: bot, fields: Decode.gameFields(f, header: Decode.gameHeader),
                         record: f["record"].flatMap(HeadToHead.init), clock: int("clock"),
                         audience: Audience.of(open: f["watch"] != "no", watchers: int("watchers") ?? 0, watching: f["watching"] == "yes"),
                         ratings: SeatRatings(ratings: f["ratings"], changes: nil))
        case "LIVE":
            guard let id = int("id"), let kind = f["game"], let players = f["players"], let lang = f["lang"],
                  let moves = int("moves"), let watchers = int("watchers") else { return nil }
            self = .live(id: id, kind: GameKind(rawValue: kind), players: players.isEmpty ? [] : players.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
                         lang: lang, moves: moves, watchers: watchers, fields: Decode.gameFields(f, header: Decode.liveHeader))
        case "WATCHERS":
            guard let id = int("id"), let count = int("count") else { return nil }
            self = .watchers(id: id, count: count)
        case "TURN":
            guard let id = int("id"), let player = f["player"] else { return nil }
            self = .turn(id: id, player: player, fields: Decode.gameFields(f, header: Decode.turnHeader), clock: int("clock"),
                         deadline: TurnDeadline(abortIn: int(TurnDeadline.abortKey), claimIn: int(TurnDeadline.claimKey)))
        case "MOVE":
            guard let id = int("id"), let player = f["player"] else { return nil }
            self = .move(id: id, player: player, fields: Decode.gameFields(f, header: Decode.playerHeader))
        case "OVER":
            if let id = int("id"), let draw = f["draw"], let reason = f["reason"] {
                self = .drawn(id: id, players: draw.split(separator: ",").map(String.init), reason: OverReason(rawValue: reason),
                              fields: Decode.gameFields(f, header: Decode.drawnHeader),
                              ratings: SeatRatings(ratings: f["ratings"], changes: f["changes"]))
                return
            }
            guard let id = int("id"), let winner = f["winner"], let loser = f["loser"], let reason = f["reason"] else { return nil }
            self = .over(id: id, winner: winner, loser: loser, reason: OverReason(rawValue: reason),
                         fields: Decode.gameFields(f, header: Decode.overRatedHeader),
                         ratings: SeatRatings(ratings: f["ratings"], changes: f["changes"]))
        case "ABORTED":
            guard let id = int("id"), let reason = f["reason"] else { return nil }
            self = .aborted(id: id, reason: AbortReason(rawValue: reason), ended: int("ended"))
        case "MATCH":
            guard let id = int("id"), let winner = f["winner"], let loser = f["loser"] else { return nil }
            self = .match(id: id, winner: winner, loser: loser, fields: Decode.gameFields(f, header: Decode.overHeader))
        case "ADJOURNED":
            guard let id = int("id"), let player = f["player"], let grace = int("grace") else { return nil }
            self = .adjourned(id: id, player: player, grace: grace)
        case "RETURNED", "CLAIMABLE", "REMATCH":
            guard let id = int("id"), let player = f["player"] else { return nil }
            switch keyword {
            case "RETURNED": self = .returned(id: id, player: player)
            case "CLAIMABLE": self = .claimable(id: id, player: player)
            default: self = .rematch(id: id, player: player)
            }
        case "OFFER", "ACCEPTED", "DECLINED":
            guard let id = int("id"), let player = f["player"], let kind = f["kind"].flatMap(OfferKind.init(rawValue:)) else {
                return nil
            }
            switch keyword {
            case "OFFER": self = .offer(id: id, player: player, kind: kind, lang: f["lang"])
            case "ACCEPTED": self = .accepted(id: id, player: player, kind: kind)
            default: self = .declined(id: id, player: player, kind: kind)
            }
        case "CANCELLED":
            guard let id = int("id"), let player = f["player"], let kind = f["kind"].flatMap(Withdrawn.init(rawValue:)) else {
                return nil
            }
            self = .cancelled(id: id, player: player, kind: kind)
        case "WAITING":
            guard let game = f["game"], let lang = f["lang"], let count = int("count"),
                  let rounds = Rounds(rawValue: f["rounds"] ?? "one") else { return nil }
            self = .waiting(game: game, lang: lang, rounds: rounds, count: count, clock: int("clock"), variant: f["variant"])
        case "RANK":
            // A wins board's RANK has name= and wins=; a best-games list's has
            // neither, and names its board.
            guard let rank = int("rank") else { return nil }
            if f["name"] == nil && f["wins"] == nil, let board = f["board"] {
                self = .bestRank(board: board, rank: rank, fields: Decode.gameFields(f, header: Decode.bestRankHeader))
                return
            }
            guard let name = f["name"], let wins = int("wins") else { return nil }
            self = .rank(name: name, rank: rank, wins: wins)
        case "SETTING":
            guard let key = f["key"], let value = f["value"], let defaultValue = f["default"] else { return nil }
            self = .setting(key: key, value: value, defaultValue: defaultValue)
        case "STAT":
            guard let name = f["name"], let value = f["value"] else { return nil }
            self = .stat(name: name, value: value)
        case "NAME":
            guard let name = f["name"] else { return nil }
            self = .nameEntry(name)
        case "SCORE":
            guard let rank = int("rank"), let name = f["name"] else { return nil }
            let registered = f["registered"] == "yes"
            // A wins board's line has wins= and played=; a best-games list's has neither.
            guard f["wins"] != nil || f["played"] != nil else {
                self = .bestScore(rank: rank, name: name, fields: Decode.gameFields(f, header: Decode.bestScoreHeader),
                                  registered: registered)
                return
            }
            guard let wins = int("wins"), let played = int("played") else { return nil }
            self = .score(rank: rank, name: name, wins: wins, played: played, registered: registered)
        case "PLAYED":
            guard let n = int("n"), let round = int("round"), let player = f["player"], let play = f["play"] else { return nil }
            self = .played(n: n, round: round, player: player, play: play)
        case "PLY":
            guard let n = int("n"), let player = f["player"] else { return nil }
            self = .ply(n: n, round: int("round"), player: player, fields: Decode.gameFields(f, header: Decode.plyHeader))
        case "LEADER", "RATING", "VERSUS", "RESULT":
            guard let data = RatingData(keyword: keyword, f) else { return nil }
            self = .ratingData(data)
        default:
            return nil  // a later protocol's line
        }
    }

    /// `ServerLine(decoding:)`.
    public static func decode(_ line: some StringProtocol) -> ServerLine? { ServerLine(decoding: line) }
}

/// The pieces a line is read from.
enum Decode {
    /// Values and free text are cut to this many Unicode scalars.
    static let maxValue = 200
    static let maxText = 500

    /// GAME's header, with `record=` and `clock=`, which come after the kind's
    /// fields (`clock=`, a game on a clock, is the lobby's, never a kind's field).
    static let gameHeader: Set<String> = ["id", "game", "lang", "players", "token", "round", "bot", "record", "clock",
                                          "watch", "watchers", "watching", "ratings"]
    static let liveHeader: Set<String> = ["id", "game", "players", "lang", "moves", "watchers"]
    static let playerHeader: Set<String> = ["id", "player"]
    static let turnHeader: Set<String> = ["id", "player", "clock", TurnDeadline.abortKey, TurnDeadline.claimKey]
    static let overHeader: Set<String> = ["id", "winner", "loser", "reason"]
    /// OVER's, with a rated game's `ratings=` and `changes=` (after the kind's fields).
    static let overRatedHeader: Set<String> = overHeader.union(["ratings", "changes"])
    /// A drawn OVER's own keys.
    static let drawnHeader: Set<String> = ["id", "draw", "reason", "ratings", "changes"]
    static let bestScoreHeader: Set<String> = ["rank", "name", "registered"]
    static let bestRankHeader: Set<String> = ["board", "rank"]
    static let plyHeader: Set<String> = ["n", "round", "player"]

    static func value(_ s: Substring) -> String {
        s.unicodeScalars.count <= maxValue ? String(s) : String(String.UnicodeScalarView(s.unicodeScalars.prefix(maxValue)))
    }

    /// The words as free text, single-spaced.
    static func text(_ words: ArraySlice<Substring>) -> String {
        let text = words.joined(separator: " ")
        return text.unicodeScalars.count <= maxText ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxText)))
    }

    /// Every `key=value` word, in order; other words are skipped.
    static func fields(_ words: ArraySlice<Substring>) -> [Field] {
        words.compactMap { w in
            guard let eq = w.firstIndex(of: "="), eq != w.startIndex else { return nil }
            return Field(value(w[..<eq]), value(w[w.index(after: eq)...]))
        }
    }

    /// The fields that are not the line's generic header: the game kind's.
    static func gameFields(_ fields: [Field], header: Set<String>) -> [Field] {
        fields.filter { !header.contains($0.key) }
    }

    /// A number on the wire: decimal, not negative, of sane size.
    static func int(_ s: String?) -> Int? {
        guard let s, (1...18).contains(s.utf8.count), s.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(s)
    }
}
