import GameKit

/// What follows `OK` on the final line of a command that worked: the verb,
/// then the reply's fields. One case per verb; `.other` holds a reply this
/// version cannot type (a later protocol's verb, or fields it does not
/// know), so a client still sees its command answered.
public enum Reply: Sendable, Hashable {
    case name(name: String, lang: String)
    /// `more`: names past the limit match too.
    case names(count: Int, more: Bool)
    /// `status` only in a game: whether the switch was done at once or offered.
    case lang(lang: String, status: OfferStatus?)
    /// The setting as saved (the value in its canonical spelling).
    case set(key: String, value: String)
    case settings
    case stats(count: Int)
    /// `clock`: the game's seconds per move, when it is on a clock (`clock=`, last).
    case seek(lang: String, rounds: Rounds, clock: Int? = nil)
    /// A private game has a join `code`; a game against the computer its `bot` level.
    case new(code: String?, bot: BotLevel?, lang: String, rounds: Rounds, clock: Int? = nil)
    case join(code: String, lang: String, rounds: Rounds, clock: Int? = nil)
    case leave
    case restart(status: OfferStatus)
    case accept
    case decline
    /// `over`: the token's game had already ended; its final OVER follows.
    /// `game`: that game's kind, when it is not the server's default one.
    case resume(id: Int, over: Bool = false, game: String? = nil)
    case claim
    case rematch(status: RematchStatus)
    case scores(count: Int, board: Board)
    /// The reply to SCORES for a best-games list: `board` is the list's name (`hangman-evil`).
    case bestGames(count: Int, board: String)
    /// The game kind's fields. Ghost: `winning=yes|no letter=<c>`.
    case hint(fields: [Field])
    /// `more`: more games may be watched than were listed.
    case games(count: Int, more: Bool)
    /// Watching game `id` from now on; its full state follows.
    case watch(id: Int)
    /// No longer watching game `id`.
    case unwatch(id: Int)
    case help
    case ping
    case quit
    case other(verb: String, fields: [Field])

    /// The verb, as in `OK <VERB>`.
    public var verbText: String {
        switch self {
        case .other(let verb, _): verb
        default: verb?.rawValue ?? ""
        }
    }

    /// The verb this replies to; nil for `.other` replies to verbs this version does not know.
    public var verb: Verb? {
        switch self {
        case .name: .name
        case .names: .names
        case .lang: .lang
        case .set: .set
        case .settings: .settings
        case .stats: .stats
        case .seek: .seek
        case .new: .new
        case .join: .join
        case .leave: .leave
        case .restart: .restart
        case .accept: .accept
        case .decline: .decline
        case .resume: .resume
        case .claim: .claim
        case .rematch: .rematch
        case .scores, .bestGames: .scores
        case .hint: .hint
        case .games: .games
        case .watch: .watch
        case .unwatch: .unwatch
        case .help: .help
        case .ping: .ping
        case .quit: .quit
        case .other(let verb, _): Verb(spelled: verb)
        }
    }

    /// `OK <VERB> …` and CRLF-less: the one place the fields' order is written.
    func write<S: WireSink>(to out: inout S) {
        W.keyword("OK ", &out)
        switch self {
        case let .name(name, lang):
            W.keyword("NAME", &out)
            W.field("name", name, &out)
            W.field("lang", lang, &out)
        case let .names(count, more):
            W.keyword("NAMES", &out)
            W.field("count", count, &out)
            W.field("more", more ? "yes" : "no", &out)
        case let .lang(lang, status):
            W.keyword("LANG", &out)
            W.field("lang", lang, &out)
            if let status { W.field("status", status.rawValue, &out) }
        case let .set(key, value):
            W.keyword("SET", &out)
            W.field("key", key, &out)
            W.field("value", value, &out)
        case .settings: W.keyword("SETTINGS", &out)
        case let .stats(count):
            W.keyword("STATS", &out)
            W.field("count", count, &out)
        case let .seek(lang, rounds, clock):
            W.keyword("SEEK", &out)
            W.field("lang", lang, &out)
            Reply.rounds(rounds, &out)
            Reply.clock(clock, &out)
        case let .new(code, bot, lang, rounds, clock):
            W.keyword("NEW", &out)
            if let code { W.field("code", code, &out) }
            if let bot { W.field("bot", bot.rawValue, &out) }
            W.field("lang", lang, &out)
            Reply.rounds(rounds, &out)
            Reply.clock(clock, &out)
        case let .join(code, lang, rounds, clock):
            W.keyword("JOIN", &out)
            W.field("code", code, &out)
            W.field("lang", lang, &out)
            Reply.rounds(rounds, &out)
            Reply.clock(clock, &out)
        case .leave: W.keyword("LEAVE", &out)
        case let .restart(status):
            W.keyword("RESTART", &out)
            W.field("status", status.rawValue, &out)
        case .accept: W.keyword("ACCEPT", &out)
        case .decline: W.keyword("DECLINE", &out)
        case let .resume(id, over, game):
            W.keyword("RESUME", &out)
            W.field("id", id, &out)
            if over { W.field("status", "over", &out) }
            if let game { W.field("game", game, &out) }
        case .claim: W.keyword("CLAIM", &out)
        case let .rematch(status):
            W.keyword("REMATCH", &out)
            W.field("status", status.rawValue, &out)
        case let .scores(count, board):
            W.keyword("SCORES", &out)
            W.field("count", count, &out)
            W.field("board", board.name, &out)
        case let .bestGames(count, board):
            W.keyword("SCORES", &out)
            W.field("count", count, &out)
            W.field("board", board, &out)
        case let .hint(fields):
            W.keyword("HINT", &out)
            W.fields(fields, &out)
        case let .games(count, more):
            W.keyword("GAMES", &out)
            W.field("count", count, &out)
            W.field("more", more ? "yes" : "no", &out)
        case let .watch(id):
            W.keyword("WATCH", &out)
            W.field("id", id, &out)
        case let .unwatch(id):
            W.keyword("UNWATCH", &out)
            W.field("id", id, &out)
        case .help: W.keyword("HELP", &out)
        case .ping: W.keyword("PING", &out)
        case .quit: W.keyword("QUIT", &out)
        case let .other(verb, fields):
            W.value(verb, &out)
            W.fields(fields, &out)
        }
    }

    /// ` rounds=ghost` for a match; nothing for a single game.
    private static func rounds<S: WireSink>(_ rounds: Rounds, _ out: inout S) {
        if rounds != .one { W.field("rounds", rounds.rawValue, &out) }
    }

    /// ` clock=<seconds>` for a game on a clock; nothing without one.
    private static func clock<S: WireSink>(_ clock: Int?, _ out: inout S) {
        if let clock { W.field("clock", clock, &out) }
    }

    /// The reply's fields, in wire order.
    public var fields: [Field] {
        var out: [UInt8] = []
        write(to: &out)
        let words = String(decoding: out, as: UTF8.self).split(separator: " ").dropFirst(2)
        return words.compactMap { w in
            guard let eq = w.firstIndex(of: "=") else { return nil }
            return Field(String(w[..<eq]), String(w[w.index(after: eq)...]))
        }
    }
}

// MARK: Reading

extension Reply {
    /// The typed reply for `OK <verb> <fields>`. Fields are looked up by key
    /// (unknown ones are ignored, as clients must); a known verb whose
    /// fields do not make sense is `.other`.
    public init(verb: String, fields: [Field]) {
        self = Reply.typed(verb: verb, fields) ?? .other(verb: verb, fields: fields)
    }

    /// The typed reply only if it writes exactly these fields; otherwise
    /// `.other`, which writes them as given.
    init(verb: String, exactly fields: [Field]) {
        if let typed = Reply.typed(verb: verb, fields), typed.verbText == verb, typed.fields == fields {
            self = typed
        } else {
            self = .other(verb: verb, fields: fields)
        }
    }

    private static func typed(verb text: String, _ f: [Field]) -> Reply? {
        guard let verb = Verb(spelled: text) else { return nil }
        func rounds() -> Rounds? { f["rounds"].map { Rounds(rawValue: $0) } ?? .one }
        // A clock that is not a number of seconds is no clock, as on TURN.
        let c = Decode.int(f["clock"])
        switch verb {
        case .name:
            guard let name = f["name"], let lang = f["lang"] else { return nil }
            return .name(name: name, lang: lang)
        case .names:
            // `more=` came with bounded NAMES; an older server sent every name.
            return Decode.int(f["count"]).map { .names(count: $0, more: f["more"] == "yes") }
        case .lang:
            guard let lang = f["lang"] else { return nil }
            guard let s = f["status"] else { return .lang(lang: lang, status: nil) }
            return OfferStatus(rawValue: s).map { .lang(lang: lang, status: $0) }
        case .set:
            guard let key = f["key"], let value = f["value"] else { return nil }
            return .set(key: key, value: value)
        case .settings: return .settings
        case .stats: return Decode.int(f["count"]).map { .stats(count: $0) }
        case .seek:
            guard let lang = f["lang"], let r = rounds() else { return nil }
            return .seek(lang: lang, rounds: r, clock: c)
        case .new:
            // Another kind's NEW carries that kind's fields: `.other`.
            guard f["game"] == nil, let lang = f["lang"], let r = rounds() else { return nil }
            var bot: BotLevel?
            if let b = f["bot"] {
                guard let level = BotLevel(rawValue: b) else { return nil }
                bot = level
            }
            return .new(code: f["code"], bot: bot, lang: lang, rounds: r, clock: c)
        case .join:
            guard let code = f["code"], let lang = f["lang"], let r = rounds() else { return nil }
            return .join(code: code, lang: lang, rounds: r, clock: c)
        case .kindMove: return nil   // a move's reply (`OK LETTER`), the kind's fields as they are: `.other`
        case .register, .password: return nil   // `Reply.registered`, `Reply.passwordChanged`: `.other`   // a move's fields, as the game gives them: `.other`
        case .leave: return .leave
        case .restart: return f["status"].flatMap(OfferStatus.init(rawValue:)).map { .restart(status: $0) }
        case .accept: return .accept
        case .decline: return f["code"] == nil ? .decline : nil   // `OK DECLINE code=`, an invitation's: `.other`
        case .resume: return Decode.int(f["id"]).map { .resume(id: $0, over: f["status"] == "over", game: f["game"]) }
        case .claim: return .claim
        case .rematch: return f["status"].flatMap(RematchStatus.init(rawValue:)).map { .rematch(status: $0) }
        case .scores:
            guard let count = Decode.int(f["count"]), let name = f["board"] else { return nil }
            // Ghost's boards by wins; any other board is a best-games list.
            guard let board = Board(name: name) else { return .bestGames(count: count, board: name) }
            return .scores(count: count, board: board)
        case .top, .profile, .history: return nil   // `OK TOP|PROFILE|HISTORY …`: `.other` (RatingDesk.swift)
        case .hint: return .hint(fields: f)
        case .games: return Decode.int(f["count"]).map { .games(count: $0, more: f["more"] == "yes") }
        case .watch: return Decode.int(f["id"]).map { .watch(id: $0) }
        case .unwatch: return Decode.int(f["id"]).map { .unwatch(id: $0) }
        case .moves, .review, .view: return nil   // `.other`: the kind's fields, VIEW's counts
        case .help: return .help
        case .ping: return .ping
        case .quit: return .quit
        // `OK FOLLOW name=`, `OK INVITE code= …`, …: `.other` (SocialDesk.swift)
        case .follow, .unfollow, .following, .invite, .say, .block, .unblock, .blocks, .report: return nil
        }
    }
}
