import GameKit

/// How many rounds a new game has: one, or a G-H-O-S-T match (`rounds=ghost`).
public enum Rounds: String, Sendable, CaseIterable {
    /// A single game (`rounds=one`, also spelled `rounds=1`; the default, never sent).
    case one
    /// A G-H-O-S-T match.
    case ghost
}

/// How a new game is played: one round or a G-H-O-S-T match, against a
/// person or the computer.
public struct GameOptions: Sendable, Equatable {
    public var rounds: Rounds = .one
    /// Play the computer at this level (`bot=`); NEW only.
    public var bot: BotLevel?
    /// The computer moves first (`first=bot`; `first=me` is the default).
    public var botFirst = false

    /// The game kind (`game=`); nil is the server's default kind, Ghost.
    public var game: GameKind?
    /// The kind's own options, lowercase `key=value` (`mode`, `length`,
    /// `misses`, and `bot` for a kind whose computer is not a Ghost level):
    /// the protocol checks their shape, the game kind their values.
    public var settings: [String: String] = [:]
    /// Seconds per move (`clock=`), nil for no clock. The protocol checks
    /// the shape (a number), the server the range.
    public var clock: Int?
    /// Whether others may watch the game (`watch=no` at NEW keeps them out).
    public var watch = true
    /// `rated=yes|no`: nil is the default, rated where the game
    /// can be (two registered names, or one against the computer).
    public var rated: Bool?
    /// SEEK's `range=<low>-<high>`: pair only with a seeker whose rating on
    /// the board is in it (and whose range, if any, holds the seeker's).
    public var range: ClosedRange<Int>?
    /// The widest `range=` takes: ratings are within 0...4000 (Ratings' `Rating.Limits`).
    public static let ratingRange: ClosedRange<Int> = 0...4000

    /// The clocks a server takes by default: NEW any in `clockRange`, SEEK
    /// only `seekClocks` (each is a seek queue). A client that offers a clock
    /// for both offers one of `seekClocks`.
    public static let clockRange: ClosedRange<Int> = 5...3600
    public static let seekClocks: [Int] = [15, 30, 60, 120, 300, 600]

    public init(rounds: Rounds = .one, bot: BotLevel? = nil, botFirst: Bool = false,
                game: GameKind? = nil, settings: [String: String] = [:], clock: Int? = nil, watch: Bool = true) {
        self.rounds = rounds
        self.bot = bot
        self.botFirst = botFirst
        self.game = game
        self.settings = settings
        self.clock = clock
        self.watch = watch
    }

    /// The keys a game kind may take as its own options.
    public static let settingKeys: [String] = ["mode", "length", "misses"]
    /// Ghost's own option: `variant=super` is Superghost, `variant=challenge`
    /// bluff and challenge.
    public static let variantKey = "variant"

    /// Ghost's variant (`variant=super`, `variant=challenge`), nil for Ghost itself.
    public var variant: String? {
        get { settings[GameOptions.variantKey] }
        set { settings[GameOptions.variantKey] = newValue }
    }

    public init(match: Bool, bot: BotLevel? = nil, botFirst: Bool = false, game: GameKind? = nil, clock: Int? = nil) {
        self.init(rounds: match ? .ghost : .one, bot: bot, botFirst: botFirst, game: game, clock: clock)
    }

    /// A G-H-O-S-T match rather than a single game.
    public var match: Bool {
        get { rounds == .ghost }
        set { rounds = newValue ? .ghost : .one }
    }

    public static let single = GameOptions()
}

/// Which games a high-score board counts (`mode=` of SCORES).
public enum ScoreMode: String, Sendable, CaseIterable {
    case game
    case match
}

/// A high-score board is GameKit's `Board`: single games or matches,
/// between people or against the computer at one level, of a game kind. Its
/// name (`board=` in `OK SCORES`) is `game`, `match`, `<level>` or
/// `<level>-match` for Ghost, the first kind.
extension Board {
    public init(mode: ScoreMode, bot: BotLevel? = nil) {
        self.init(computer: bot, match: mode == .match)
    }

    public init(bot: BotLevel?) {
        self.init(computer: bot)
    }

    /// Single games or matches.
    public var mode: ScoreMode {
        get { isMatch ? .match : .game }
        set { isMatch = newValue == .match }
    }

    /// The computer's level, for a board of games against the computer.
    public var bot: BotLevel? {
        get { computer }
        set { computer = newValue }
    }

    public static let game = Board()
    public static let match = Board(mode: .match)

    /// Every board, in the order a client shows them: people first, then the computer's levels.
    public static let all: [Board] = [.game, .match]
        + BotLevel.allCases.map { Board(bot: $0) } + BotLevel.allCases.map { Board(mode: .match, bot: $0) }

    /// The board with that name, if there is one.
    public init?(name: some StringProtocol) {
        guard let board = Board.all.first(where: { $0.name == name }) else { return nil }
        self = board
    }
}

/// A command a client sends, parsed and checked for shape (not for state).
/// `CommandTable` describes each verb once: its arguments, help, parsing
/// and rendering.
public enum Command: Sendable, Equatable {
    case name(String)
    /// `NAME <name> <password>`: log in to a registered name. (A `Password`
    /// prints as `<password>`: a command can be logged.)
    case login(name: String, password: Password)
    /// `REGISTER <password>`: claim the connection's name, which nobody has registered.
    case register(Password)
    /// `PASSWORD <new password>`: change the password of the name logged in to.
    case password(Password)
    case lang(String)
    /// Save a setting for the next games (`SET hangman-mode fair`): key and
    /// value in lowercase; the server knows the keys and checks the value.
    case set(key: String, value: String)
    /// List the settings with their values and defaults.
    case settings
    case seek(GameOptions = .single)
    case new(GameOptions = .single)
    case join(String)
    case leave
    case help
    case ping
    case quit
    /// The most recently used names, newest first: at most `limit`, and only
    /// those starting with `prefix` (case-insensitively) when it is given.
    case names(prefix: String?, limit: Int)
    case resume(String)
    case claim
    /// The top n of a high-score board that ranks people by wins (the default kind's).
    case scores(Int, board: Board = .game)
    /// The top n of a best-games list of a kind other than the default one
    /// (`SCORES game=<kind> mode=<list>`): its best finished games. `mode` is
    /// the kind's word for the list (nil: its default list); the server
    /// checks that the list exists.
    case bestGames(Int, game: GameKind, mode: String?)
    /// `TOP [game=<kind>] [variant=<v>] [n]`: a rated board's leaders;
    /// `game` nil is the server's default kind.
    case top(Int, game: GameKind?, variant: String?)
    /// `PROFILE <name>`: a name's ratings, and the asker's record against it.
    case profile(String)
    /// `HISTORY [name] [n]`: finished games, newest first (nil: the asker's own).
    case history(name: String?, limit: Int)
    case hint
    /// The server's figures (like Redis's INFO).
    case stats
    case restart
    case accept
    case decline
    case rematch
    /// Games in progress that may be watched, most recent first: at most `limit`.
    case games(limit: Int)
    /// Watch the game with that id.
    case watch(Int)
    /// Stop watching.
    case unwatch
    /// A game's moves as they were played.
    case moves(Int)
    /// A finished game reviewed move by move.
    case review(Int)
    /// A game in progress as any client can draw it: its rows and the moves
    /// the asker may send now (`ROW` and `CAN` lines).
    case view(Int)
    /// A move: a verb of a game kind's (GameKit's `MoveVerb`: `LETTER p`,
    /// `SOLVE a/b`, `CHALLENGE`, `CHAIN word`), `verb` as the kind spells
    /// it, the arguments as its shape allows them (lowercase). The parser
    /// gives it for a line of one letter (`LETTER <c>`), `LETTER <c>`
    /// itself, and a verb one of the server's kinds declares
    /// (`CommandParser.parse(_:kindVerbs:)`).
    case kindMove(verb: String, arguments: [String])
    /// `FOLLOW <name>`, `UNFOLLOW <name>`, `FOLLOWING`: the names whose
    /// presence you see (CommandTable+Social.swift).
    case follow(String)
    case unfollow(String)
    case following
    /// `INVITE <name> [NEW's options]`: a private game whose code goes to that name only.
    case invite(name: String, options: GameOptions)
    /// `DECLINE <code>`: say no to an invitation (`DECLINE` alone is `.decline`, an offer's).
    case declineInvite(String)
    /// `SAY <text>`: a word to your opponent (or, watching, to the other watchers).
    case say(String)
    case block(String)
    case unblock(String)
    case blocks
    /// `REPORT <name> <reason>`: a report for the operator.
    case report(name: String, reason: String)

    /// The move `verb arguments…` (`.move("LETTER", "p", "front")`).
    public static func move(_ verb: String, _ arguments: String...) -> Command {
        .kindMove(verb: verb, arguments: arguments)
    }

    /// The spelling of the move a line of one letter stands for, `LETTER <c>`:
    /// the protocol's one word of a kind's (Protocol.md §3).
    public static let letterVerb = "LETTER"

    /// `LETTER <c>`, what a line holding just the letter means.
    public static func letter(_ letter: Letter) -> Command {
        .kindMove(verb: letterVerb, arguments: letterArguments[Int(letter.index)])
    }

    /// Each letter's arguments, made once: the line a server reads most
    /// builds no array.
    private static let letterArguments: [[String]] = Letter.all.map { [$0.description] }

    /// `NAMES`: the most recent names, as many as the server gives by default
    /// (a client's name picker).
    public static var recentNames: Command { .names(prefix: nil, limit: CommandParser.defaultNames) }

    /// The command's verb, which is also the verb of its `OK <VERB>` reply.
    /// (The one place that says which case belongs to which verb; the
    /// compiler checks it covers every case.)
    public var verb: Verb {
        switch self {
        case .name, .login: .name
        case .register: .register
        case .password: .password
        case .lang: .lang
        case .set: .set
        case .settings: .settings
        case .seek: .seek
        case .new: .new
        case .join: .join
        case .leave: .leave
        case .help: .help
        case .ping: .ping
        case .quit: .quit
        case .names: .names
        case .resume: .resume
        case .claim: .claim
        case .scores, .bestGames: .scores
        case .top: .top
        case .profile: .profile
        case .history: .history
        case .restart: .restart
        case .accept: .accept
        case .decline, .declineInvite: .decline
        case .follow: .follow
        case .unfollow: .unfollow
        case .following: .following
        case .invite: .invite
        case .say: .say
        case .block: .block
        case .unblock: .unblock
        case .blocks: .blocks
        case .report: .report
        case .rematch: .rematch
        case .games: .games
        case .watch: .watch
        case .unwatch: .unwatch
        case .moves: .moves
        case .review: .review
        case .view: .view
        case .kindMove: .kindMove
        case .hint: .hint
        case .stats: .stats
        }
    }

    /// The command as a line (without its line end), in the canonical
    /// spelling: `CommandParser.parse` reads it back as the same command.
    public var rendered: String {
        if case let .kindMove(verb, arguments) = self { return ([verb] + arguments).joined(separator: " ") }
        let args = CommandTable.spec(verb).render(self)
        return args.isEmpty ? verb.rawValue : verb.rawValue + " " + args.joined(separator: " ")
    }

    /// Every verb with its arguments and a one-line description, for HELP and docs.
    public static var helpLines: [(usage: String, text: String)] {
        CommandTable.specs.map { ($0.synopsis, $0.help) }
    }
}
