import GameKit

/// The verbs a client can send, in the order HELP lists them. Verbs are
/// case-insensitive on the wire; this is their canonical spelling.
///
/// `kindMove` stands for every verb a game kind declares (its spelling is
/// the command's): it is not in `allCases`, HELP lists the kinds' verbs
/// from the kinds, and its raw value, lowercase, is never a verb a client
/// can spell (`Verb(spelled:)` folds to uppercase).
public enum Verb: String, Sendable, CaseIterable {
    case name = "NAME"
    case register = "REGISTER"
    case password = "PASSWORD"
    case names = "NAMES"
    case lang = "LANG"
    case set = "SET"
    case settings = "SETTINGS"
    case seek = "SEEK"
    case new = "NEW"
    case join = "JOIN"
    case leave = "LEAVE"
    case restart = "RESTART"
    case accept = "ACCEPT"
    case decline = "DECLINE"
    case resume = "RESUME"
    case claim = "CLAIM"
    case rematch = "REMATCH"
    case games = "GAMES"
    case watch = "WATCH"
    case unwatch = "UNWATCH"
    case moves = "MOVES"
    case review = "REVIEW"
    case view = "VIEW"
    case scores = "SCORES"
    case top = "TOP"
    case profile = "PROFILE"
    case history = "HISTORY"
    case hint = "HINT"
    case stats = "STATS"
    case help = "HELP"
    case ping = "PING"
    case quit = "QUIT"
    case follow = "FOLLOW"
    case unfollow = "UNFOLLOW"
    case following = "FOLLOWING"
    case invite = "INVITE"
    case say = "SAY"
    case block = "BLOCK"
    case unblock = "UNBLOCK"
    case blocks = "BLOCKS"
    case report = "REPORT"
    /// A game kind's own move verb (`Command.kindMove`).
    case kindMove = "kind-move"

    /// The protocol's verbs, in HELP order: every case but `kindMove`.
    public static let allCases: [Verb] = [
        .name, .register, .password, .names, .lang, .set, .settings, .seek, .new, .join, .leave, .restart, .accept, .decline, .resume, .claim, .rematch, .games, .watch,
        .unwatch, .moves, .review, .view, .scores, .top, .profile, .history, .hint, .stats, .help, .ping, .quit,
        .follow, .unfollow, .following, .invite, .say, .block, .unblock, .blocks, .report,
    ]

    /// The verb's place in `allCases` (HELP order; `kindMove` after them),
    /// read from the case itself: a case without a payload is stored as its
    /// place in the declaration above, which is `allCases`' order (a test
    /// checks every verb). A look-up by it hashes nothing.
    @inline(__always) public var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// The verb a client wrote, in any case (ASCII case folding only).
    public init?(spelled word: some StringProtocol) {
        self.init(rawValue: ASCII.uppercased(word))
    }
}

/// One command, described once: its verb, its arguments, what it does, how
/// its arguments become a `Command`, and how a `Command` becomes arguments again.
public struct CommandSpec: Sendable {
    public let verb: Verb
    /// What one such line costs the sender's budget, in units (Protocol.md
    /// §7, "What commands cost"): 1 for the cheapest (PING, a letter), more
    /// for a command that reads the database. The server charges the time a
    /// command took instead when that is more (one unit per millisecond by
    /// default), so an expensive move weighs what it costs.
    public let cost: Int
    /// The arguments after the verb, as HELP shows them (`<name>`, `[n] [mode=game|match]`); empty for none.
    public let usage: String
    /// What the command does, in one line.
    public let help: String
    /// The words after the verb → the command.
    let parse: @Sendable (_ args: [Substring]) -> Result<Command, ArgumentError>
    /// The command's words after the verb; nil for a command of another verb.
    let arguments: @Sendable (_ command: Command) -> [String]?
    /// For a verb whose last argument is the rest of the line (a password,
    /// which may hold spaces): parses the text after the verb, from the
    /// character that follows it, instead of `parse`.
    var parseRest: (@Sendable (_ rest: Substring) -> Result<Command, ArgumentError>)? = nil
    /// For a verb that takes `game=<kind>`: parses its words knowing the
    /// server's default kind (nil: none, every `game=` as given), instead of `parse`.
    var parseKinds: (@Sendable (_ args: [Substring], _ defaultKind: GameKind?) -> Result<Command, ArgumentError>)? = nil

    /// `VERB usage`, as HELP shows it.
    public var synopsis: String { usage.isEmpty ? verb.rawValue : verb.rawValue + " " + usage }

    /// Parses the words after the verb.
    public func parse(arguments args: [Substring]) -> Result<Command, CommandError> {
        parse(arguments: args, defaultKind: nil)
    }

    /// Parses the words after the verb, `game=<defaultKind>` read as no `game=`.
    public func parse(arguments args: [Substring], defaultKind: GameKind?) -> Result<Command, CommandError> {
        if let parseKinds { return parseKinds(args, defaultKind).mapError(error) }
        return parse(args).mapError(error)
    }

    /// Parses the text after the verb (from the character after it): for a
    /// verb with a `parseRest`, that; otherwise its words.
    public func parse(rest: Substring, defaultKind: GameKind? = nil) -> Result<Command, CommandError> {
        guard let parseRest else {
            return parse(arguments: rest.split(whereSeparator: { $0 == " " || $0 == "\t" }), defaultKind: defaultKind)
        }
        return parseRest(rest).mapError(error)
    }

    private func error(_ e: ArgumentError) -> CommandError {
        switch e {
        case .usage: CommandError(.badArguments, "usage: \(synopsis)")
        case .duplicate(let key): CommandError(.badArguments, "\(key)= is given twice")
        case .other(let error): error
        }
    }

    /// The words after the verb for `command` (empty if it is another verb's command).
    public func render(_ command: Command) -> [String] { arguments(command) ?? [] }

    /// Whether `command` belongs to this verb.
    public func covers(_ command: Command) -> Bool { arguments(command) != nil }
}

/// How the arguments of one line are wrong.
enum ArgumentError: Error, Sendable {
    /// Missing, extra or unknown arguments: `ERR bad-arguments usage: <synopsis>`.
    case usage
    /// The same key twice.
    case duplicate(String)
    case other(CommandError)
}

/// Every command the server understands. HELP, `Command.verb`'s spelling,
/// parsing (`CommandParser`) and rendering (`Command.rendered`) all come from here.
public enum CommandTable {
    /// The commands in HELP order (the order of `Verb.allCases`).
    public static let specs: [CommandSpec] = Verb.allCases.map(spec)

    /// The description of one verb.
    public static func spec(_ verb: Verb) -> CommandSpec {
        switch verb {
        case .name:
            var spec = CommandSpec(verb: verb, cost: 4, usage: "<name> [<password>]",
                                   help: "identify yourself: 1-16 letters, digits, - or _; a registered name needs its password, the rest of the line after one space",
                                   parse: { args in
                                       one(args).flatMap { name in
                                           CommandParser.isValidName(name)
                                               ? .success(.name(String(name)))
                                               : .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
                                       }
                                   },
                                   arguments: {
                                       switch $0 {
                                       case .name(let n): [n]
                                       case let .login(n, password): [n, password.text]
                                       default: nil
                                       }
                                   })
            spec.parseRest = nameAndPassword
            return spec
        case .register:
            var spec = CommandSpec(verb: verb, cost: passwordCost, usage: "<password>",
                                   help: "register the name you use (nobody's yet) with a password: the rest of the line after one space, 8-200 characters, spaces allowed",
                                   parse: { _ in .failure(.usage) },
                                   arguments: { if case .register(let p) = $0 { [p.text] } else { nil } })
            spec.parseRest = { rest in password(rest).map { .register($0) } }
            return spec
        case .password:
            var spec = CommandSpec(verb: verb, cost: passwordCost, usage: "<new password>",
                                   help: "logged in to a registered name: change its password to the rest of the line after one space",
                                   parse: { _ in .failure(.usage) },
                                   arguments: { if case .password(let p) = $0 { [p.text] } else { nil } })
            spec.parseRest = { rest in password(rest).map { .password($0) } }
            return spec
        case .names:
            return CommandSpec(verb: verb, cost: 4, usage: "[prefix=<p>] [n]",
                               help: "names used on this server, most recent first: n of them (1-\(CommandParser.maxNames), default \(CommandParser.defaultNames)), those starting with p only if given",
                               parse: names,
                               arguments: { c in
                                   guard case let .names(prefix, limit) = c else { return nil }
                                   return (prefix.map { ["prefix=\($0)"] } ?? []) + (limit == CommandParser.defaultNames ? [] : [String(limit)])
                               })
        case .lang:
            return CommandSpec(verb: verb, cost: 2, usage: "<code>",
                               help: "choose the dictionary (see languages= in HELLO); in a game, change it and restart",
                               parse: { args in one(args).map { .lang(ASCII.lowercased($0)) } },
                               arguments: { if case .lang(let code) = $0 { [code] } else { nil } })
        case .set:
            return CommandSpec(verb: verb, cost: 2, usage: "<key> <value>",
                               help: "save a setting for your next games (keys and values: SETTINGS); lang is LANG",
                               parse: setting,
                               arguments: { if case let .set(key, value) = $0 { [key, value] } else { nil } })
        case .settings:
            return plain(verb, cost: 2, .settings, "list your settings: SETTING key=<k> value=<v> default=<d> lines")
        case .seek:
            return CommandSpec(verb: verb, cost: 2, usage: "[game=<kind>] [<the kind's options>] [clock=<seconds>] [rated=yes|no] [range=<low>-<high>]",
                               help: "play the next player who seeks the same game (the same kind and options; each kind's are on its HELP NEW line) in your language, on the same clock; rated between registered names unless rated=no; range= pairs only with ratings in it",
                               parse: { args in GameOptionsArguments.parse(args, allowBot: false, defaultKind: nil).map { .seek($0) } },
                               arguments: { if case .seek(let o) = $0 { GameOptionsArguments.words(o) } else { nil } },
                               parseKinds: { args, kind in GameOptionsArguments.parse(args, allowBot: false, defaultKind: kind).map { .seek($0) } })
        case .new:
            return CommandSpec(verb: verb, cost: 4, usage: "[game=<kind>] [<the kind's options>] [bot=<level> [first=bot|me]] [clock=<seconds>] [watch=no] [rated=yes|no]",
                               help: "open a private game (the reply carries its join code), or play the computer at once (bot=, or a kind that always plays it); each kind's options and levels are on its HELP NEW line; clock= gives each move that many seconds; watch=no keeps watchers out; rated between registered names unless rated=no, never against the computer",
                               parse: { args in GameOptionsArguments.parse(args, allowBot: true, defaultKind: nil).map { .new($0) } },
                               arguments: { if case .new(let o) = $0 { GameOptionsArguments.words(o) } else { nil } },
                               parseKinds: { args, kind in GameOptionsArguments.parse(args, allowBot: true, defaultKind: kind).map { .new($0) } })
        case .join:
            return CommandSpec(verb: verb, cost: 4, usage: "<code>", help: "join the private game with that code",
                               parse: { args in one(args).map { .join(ASCII.uppercased($0)) } },
                               arguments: { if case .join(let code) = $0 { [code] } else { nil } })
        case .leave:
            return plain(verb, cost: 2, .leave, "leave your game (you lose it), or stop seeking or hosting")
        case .restart:
            return plain(verb, cost: 2, .restart, "restart the round (the opponent must ACCEPT once a letter is played)")
        case .accept:
            return plain(verb, cost: 2, .accept, "accept your opponent's offer to restart or change the language")
        case .decline:
            return declineSpec
        case .resume:
            return CommandSpec(verb: verb, cost: 4, usage: "<token>", help: "take your seat again in an adjourned game (token= from GAME)",
                               parse: { args in one(args).map { .resume(String($0)) } },
                               arguments: { if case .resume(let token) = $0 { [token] } else { nil } })
        case .claim:
            return plain(verb, cost: 2, .claim, "claim the win when your opponent has been away past the grace period")
        case .rematch:
            return plain(verb, cost: 2, .rematch, "after a game, play the same opponent again (both must ask)")
        case .games:
            return CommandSpec(verb: verb, cost: 4, usage: "[n]",
                               help: "games in progress you may watch, most recent first: n of them (1-\(CommandParser.maxGames), default \(CommandParser.defaultGames)), one LIVE line each",
                               parse: { args in
                                   options(args, keys: []).flatMap { split in
                                       listLength(split.words, standard: CommandParser.defaultGames, max: CommandParser.maxGames).map { .games(limit: $0) }
                                   }
                               },
                               arguments: { c in
                                   guard case .games(let n) = c else { return nil }
                                   return n == CommandParser.defaultGames ? [] : [String(n)]
                               })
        case .watch:
            return CommandSpec(verb: verb, cost: 2, usage: "<id>",
                               help: "watch a game in progress (id= from GAMES): its full state at once, then every move; watchers cannot play",
                               parse: { args in
                                   one(args).flatMap { word in
                                       guard (1...18).contains(word.utf8.count), word.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                                             let id = Int(word) else {
                                           return .failure(.other(CommandError(.badArguments, "WATCH takes a game's id, a number (see GAMES)")))
                                       }
                                       return .success(.watch(id))
                                   }
                               },
                               arguments: { if case .watch(let id) = $0 { [String(id)] } else { nil } })
        case .unwatch:
            return plain(verb, cost: 1, .unwatch, "stop watching the game you watch")
        case .moves:
            return CommandSpec(verb: verb, cost: 6, usage: "<id>",
                               help: "a game's moves as they were played, one PLAYED line each (the last \(Replay.maxMoves)): a finished game, or one in progress you may watch; a secret move stays hidden until the end",
                               parse: { args in gameID(args, verb).map { .moves($0) } },
                               arguments: { if case .moves(let id) = $0 { [String(id)] } else { nil } })
        case .review:
            return CommandSpec(verb: verb, cost: 8, usage: "<id>",
                               help: "a finished game reviewed move by move, one PLY line each: what the kind's solver says of each move (the outcome under perfect play, the first mistake, the best letter)",
                               parse: { args in gameID(args, verb).map { .review($0) } },
                               arguments: { if case .review(let id) = $0 { [String(id)] } else { nil } })
        case .view:
            return CommandSpec(verb: verb, cost: 2, usage: "<id>",
                               help: "a game in progress as any client can draw it: one ROW line per row of its board, one CAN line per move you may send now; your own secrets only",
                               parse: { args in gameID(args, verb).map { .view($0) } },
                               arguments: { if case .view(let id) = $0 { [String(id)] } else { nil } })
        case .scores:
            return CommandSpec(verb: verb, cost: 4, usage: "[game=<kind>] [mode=<list>] [bot=<level>] [n]",
                               help: "a high-score list, top n (1-\(CommandParser.maxScores), default \(CommandParser.defaultScores)): a kind that ranks players by wins, by wins (mode=game|match, bot=<level>), another its best games (mode=<its list>)",
                               parse: { scores($0, defaultKind: nil) },
                               arguments: { c in
                                   switch c {
                                   case let .scores(n, board):
                                       var words = [String(n)]
                                       if board.mode == .match { words.append("mode=match") }
                                       if let bot = board.bot { words.append("bot=\(bot.rawValue)") }
                                       return words
                                   case let .bestGames(n, game, mode):
                                       return [String(n), "game=\(game.rawValue)"] + (mode.map { ["mode=\($0)"] } ?? [])
                                   default:
                                       return nil
                                   }
                               },
                               parseKinds: scores)
        case .top, .profile, .history:
            return ratingsSpec(verb)
        case .follow, .unfollow, .following, .invite, .say, .block, .unblock, .blocks, .report:
            return socialSpec(verb)
        case .kindMove:
            // Never parsed through here (no client spells it): the kinds'
            // verbs are parsed by `CommandParser.parse(_:kindVerbs:)`.
            return CommandSpec(verb: verb, cost: moveCost, usage: "<arguments>",
                               help: "a move: a game kind's verb (HELP lists each kind's)",
                               parse: { _ in .failure(.usage) },
                               arguments: { if case .kindMove(_, let arguments) = $0 { arguments } else { nil } })
        case .hint:
            return plain(verb, cost: 2, .hint, "against the Easy computer only: is your position winning, and a good letter")
        case .stats:
            return plain(verb, cost: 4, .stats, "the server's figures, one STAT name=<n> value=<v> line each (Protocol.md lists them)")
        case .help:
            return plain(verb, cost: 2, .help, "list the commands")
        case .ping:
            return plain(verb, cost: 1, .ping, "check the connection; replies OK PING")
        case .quit:
            return plain(verb, cost: 1, .quit, "close the connection (a game in progress is adjourned: RESUME it later)")
        }
    }

    // MARK: Passwords

    /// What `REGISTER`, `PASSWORD` and `NAME <name> <password>` cost: a
    /// password is hashed (yescrypt, tens of milliseconds of a hashing
    /// thread's time, off the event loop), so a line that asks for one
    /// weighs about what the hash costs.
    public static let passwordCost = 50

    /// The password after the verb: the rest of the line after the one space
    /// (or tab) that follows the verb; nothing there is a usage error.
    private static func password(_ rest: Substring) -> Result<Password, ArgumentError> {
        guard let first = rest.first, first == " " || first == "\t" else { return .failure(.usage) }
        let text = rest.dropFirst()
        guard !text.isEmpty else { return .failure(.usage) }
        if let e = Password.formError(text) { return .failure(.other(e)) }
        return .success(Password(String(text)))
    }

    /// `NAME <name> [<password>]`: the name is the first word; the password,
    /// if any, the rest of the line after the one space (or tab) that follows
    /// the name. A line that ends there (`NAME ann `) has no password.
    private static func nameAndPassword(_ rest: Substring) -> Result<Command, ArgumentError> {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = rest.drop(while: isSpace)
        let name = start.prefix(while: { !isSpace($0) })
        guard !name.isEmpty else { return .failure(.usage) }
        guard CommandParser.isValidName(name) else {
            return .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
        }
        let after = start[name.endIndex...]
        guard after.count > 1 else { return .success(.name(String(name))) }
        return password(after).map { .login(name: String(name), password: $0) }
    }

    // MARK: Argument shapes

    /// A verb without arguments.
    static func plain(_ verb: Verb, cost: Int, _ command: Command, _ help: String) -> CommandSpec {
        CommandSpec(verb: verb, cost: cost, usage: "", help: help,
                    parse: { args in args.isEmpty ? .success(command) : .failure(.usage) },
                    arguments: { $0 == command ? [] : nil })
    }

    /// Exactly one word.
    static func one(_ args: [Substring]) -> Result<Substring, ArgumentError> {
        args.count == 1 ? .success(args[0]) : .failure(.usage)
    }

    /// The longest key and value SET takes, in bytes.
    static let maxSettingKey = 32
    static let maxSettingValue = 32

    /// `SET <key> <value>`: a key of `a-z 0-9 -` (which keys exist, the
    /// server says), and a value of at most `maxSettingValue` bytes, both
    /// folded to lowercase; the server checks the value (`bad-value`).
    private static func setting(_ args: [Substring]) -> Result<Command, ArgumentError> {
        options(args, keys: []).flatMap { split in
            guard split.words.count == 2 else { return .failure(.usage) }
            let key = ASCII.lowercased(split.words[0]), value = ASCII.lowercased(split.words[1])
            guard key.utf8.count <= maxSettingKey,
                  key.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
                return .failure(.other(CommandError(.badArguments, "a setting's key is letters, digits and -: see SETTINGS")))
            }
            guard value.utf8.count <= maxSettingValue else {
                return .failure(.other(CommandError(.badValue, "a value is at most \(maxSettingValue) bytes")))
            }
            return .success(.set(key: key, value: value))
        }
    }

    /// The one optional number of a list command (`NAMES`, `SCORES`): 1 to
    /// `max`, `standard` when there is none.
    static func listLength(_ words: [Substring], standard: Int, max: Int) -> Result<Int, ArgumentError> {
        guard words.count <= 1 else { return .failure(.usage) }
        guard let word = words.first else { return .success(standard) }
        guard word.utf8.count <= 4, let v = Int(word), (1...max).contains(v) else { return .failure(.usage) }
        return .success(v)
    }

    /// `NAMES [prefix=<p>] [n]`: a prefix is the start of a name (its characters).
    private static func names(_ args: [Substring]) -> Result<Command, ArgumentError> {
        options(args, keys: ["prefix"]).flatMap { split in
            listLength(split.words, standard: CommandParser.defaultNames, max: CommandParser.maxNames).flatMap { n in
                if let p = split.options["prefix"], !CommandParser.isValidName(p) {
                    return .failure(.other(CommandError(.badArguments, "a prefix is 1-16 letters, digits, - or _")))
                }
                return .success(.names(prefix: split.options["prefix"], limit: n))
            }
        }
    }

    /// `SCORES [n] [mode=game|match] [bot=level]`, or `SCORES game=<kind>
    /// [mode=<word>] [n]` for another kind's best-games list; the number
    /// anywhere among the options. `game=<defaultKind>` is the default
    /// kind's boards, as without it.
    static func scores(_ args: [Substring], defaultKind: GameKind?) -> Result<Command, ArgumentError> {
        options(args, keys: ["mode", "bot", "game"]).flatMap { split in
            let n: Int
            switch listLength(split.words, standard: CommandParser.defaultScores, max: CommandParser.maxScores) {
            case .success(let v): n = v
            case .failure(let e): return .failure(e)
            }
            if let g = split.options["game"], g != defaultKind?.rawValue {
                guard GameOptionsArguments.isWord(g) else { return .failure(.usage) }
                guard split.options["bot"] == nil else {
                    return .failure(.other(CommandError(.badArguments, "bot= is for boards of wins; game=\(g) takes mode=")))
                }
                let mode = split.options["mode"]
                if let mode, !GameOptionsArguments.isWord(mode) { return .failure(.usage) }
                return .success(.bestGames(n, game: GameKind(rawValue: g), mode: mode))
            }
            var board = Board()
            if let m = split.options["mode"] {
                guard let mode = ScoreMode(rawValue: m) else { return .failure(.usage) }
                board.mode = mode
            }
            if let b = split.options["bot"] {
                guard let level = BotLevel(rawValue: b) else { return .failure(.usage) }
                board.bot = level
            }
            return .success(.scores(n, board: board))
        }
    }
}

/// ASCII-only case folding: verbs, keys and enumerated values are
/// case-insensitive, but only for A-Z, so no other character can fold into
/// a verb (`ﬆ` does not become `ST`).
enum ASCII {
    /// Read in place where the bytes are contiguous (a `String`'s or a
    /// `Substring`'s: always here) and written straight into the new string,
    /// a short one inline, with no array in between (JOIN's code went
    /// through one: an allocation and a copy more).
    static func uppercased(_ s: some StringProtocol) -> String {
        let bytes = s.utf8
        return bytes.withContiguousStorageIfAvailable { raw in
            String(unsafeUninitializedCapacity: raw.count) { out in
                for i in 0..<min(raw.count, out.count) { out[i] = uppercased(raw[i]) }
                return min(raw.count, out.count)
            }
        } ?? String(decoding: bytes.map(uppercased), as: UTF8.self)
    }

    static func uppercased(_ b: UInt8) -> UInt8 {
        (0x61...0x7A).contains(b) ? b - 0x20 : b
    }

    static func lowercased(_ s: some StringProtocol) -> String {
        folded(s.utf8)
    }

    /// A `Substring`'s bytes, folded.
    static func lowercased(_ bytes: Substring.UTF8View) -> String {
        // Mostly already lowercase: then a copy (a short one stored inline).
        guard bytes.contains(where: { (0x41...0x5A).contains($0) }) else { return String(Substring(bytes)) }
        return folded(bytes)
    }

    /// The bytes of a string (a `String`'s or `Substring`'s UTF-8, so valid),
    /// folded, written straight into the new string (no array between:
    /// a short one is stored inline, with no allocation at all).
    private static func folded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            buffer.initialize(from: bytes.lazy.map(lowercased)).1
        }
    }

    static func lowercased(_ b: UInt8) -> UInt8 {
        (0x41...0x5A).contains(b) ? b + 0x20 : b
    }
}
