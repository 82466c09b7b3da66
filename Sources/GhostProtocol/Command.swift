import GhostCore

/// How a new game is played: one round or a G-H-O-S-T match, against a
/// person or the computer.
public struct GameOptions: Sendable, Equatable {
    /// A G-H-O-S-T match (`rounds=ghost`) rather than a single game.
    public var match = false
    /// Play the computer at this level (`bot=`); NEW only.
    public var bot: BotLevel?
    /// The computer moves first (`first=bot`).
    public var botFirst = false

    public init(match: Bool = false, bot: BotLevel? = nil, botFirst: Bool = false) {
        self.match = match
        self.bot = bot
        self.botFirst = botFirst
    }

    public static let single = GameOptions()
}

/// A command a client sends, parsed and checked for shape (not for state).
public enum Command: Sendable, Equatable {
    case name(String)
    case lang(String)
    case seek(GameOptions = .single)
    case new(GameOptions = .single)
    case join(String)
    case letter(Letter)
    case leave
    case help
    case ping
    case quit
    case names
    case resume(String)
    case claim
    /// The top n of a high-score board: game, match, easy, hard-match ...
    case scores(Int, board: String = "game")
    case hint
    case restart
    case accept
    case decline
    case rematch

    /// The verb as it appears in `OK <VERB>` replies.
    public var verb: String {
        switch self {
        case .name: "NAME"
        case .lang: "LANG"
        case .seek: "SEEK"
        case .new: "NEW"
        case .join: "JOIN"
        case .letter: "LETTER"
        case .leave: "LEAVE"
        case .help: "HELP"
        case .ping: "PING"
        case .quit: "QUIT"
        case .names: "NAMES"
        case .resume: "RESUME"
        case .claim: "CLAIM"
        case .scores: "SCORES"
        case .restart: "RESTART"
        case .accept: "ACCEPT"
        case .decline: "DECLINE"
        case .rematch: "REMATCH"
        case .hint: "HINT"
        }
    }

    /// Every verb with its arguments and a one-line description, for HELP and docs.
    public static let helpLines: [(usage: String, text: String)] = [
        ("NAME <name>", "identify yourself: 1-16 letters, digits, - or _"),
        ("NAMES", "list every name used on this server"),
        ("LANG <code>", "choose the dictionary (see languages= in HELLO); in a game, change it and restart"),
        ("SEEK [rounds=ghost]", "play the next player who seeks a game (or a G-H-O-S-T match) in your language"),
        ("NEW [rounds=ghost] [bot=easy|medium|hard [first=bot]]", "open a private game (the reply carries its join code), or play the computer at once"),
        ("JOIN <code>", "join the private game with that code"),
        ("LETTER <c>", "play a letter; a line holding just one letter does the same"),
        ("LEAVE", "leave your game (you lose it), or stop seeking or hosting"),
        ("RESTART", "restart the round (the opponent must ACCEPT once a letter is played)"),
        ("ACCEPT", "accept your opponent's offer to restart or change the language"),
        ("DECLINE", "decline your opponent's offer"),
        ("RESUME <token>", "take your seat again in an adjourned game (token= from GAME)"),
        ("CLAIM", "claim the win when your opponent has been away past the grace period"),
        ("REMATCH", "after a game, play the same opponent again (both must ask)"),
        ("SCORES [n] [mode=game|match] [bot=easy|medium|hard]", "a high-score list, top n (default 10)"),
        ("HINT", "against the Easy computer only: is your position winning, and a good letter"),
        ("HELP", "list the commands"),
        ("PING", "check the connection; replies OK PING"),
        ("QUIT", "close the connection (a game in progress is adjourned: RESUME it later)"),
    ]
}

/// Stable error codes: the second word of an `ERR` line.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The line was longer than 512 bytes; it was discarded.
    case lineTooLong = "line-too-long"
    /// The line was not valid UTF-8.
    case badEncoding = "bad-encoding"
    /// The line held a control character (NUL, ESC, DEL, C1 controls...).
    case badCharacter = "bad-character"
    /// The first word is not a command.
    case unknownCommand = "unknown-command"
    /// The command's arguments are missing or too many.
    case badArguments = "bad-arguments"
    /// A move was not exactly one letter a-z.
    case notALetter = "not-a-letter"
    /// The name does not follow the name rules.
    case badName = "bad-name"
    /// Another connection holds that name.
    case nameTaken = "name-taken"
    /// The command needs a NAME first.
    case noName = "no-name"
    /// No word list for that language code.
    case unknownLanguage = "unknown-language"
    /// The command needs a game in progress.
    case notInGame = "not-in-game"
    /// It is the other player's turn.
    case notYourTurn = "not-your-turn"
    /// The command cannot be used during a game (or while seeking or hosting).
    case busy = "busy"
    /// No open private game has that code.
    case noSuchGame = "no-such-game"
    /// You cannot join your own private game.
    case ownGame = "own-game"
    /// No game in progress has that resume token.
    case badToken = "bad-token"
    /// CLAIM while the opponent is present, not to move, or within the grace period.
    case notClaimable = "not-claimable"
    /// ACCEPT or DECLINE with no offer from the opponent pending.
    case noOffer = "no-offer"
    /// An offer is already pending.
    case offerPending = "offer-pending"
    /// You made an offer since the last letter; play on first.
    case offerSpent = "offer-spent"
    /// REMATCH with no finished game against a still-connected opponent.
    case noRematch = "no-rematch"
    /// The server could not store the change; nothing was done.
    case storeFailed = "store-failed"
    /// HINT outside a game against the Easy computer.
    case noHints = "no-hints"
    /// Too many commands too fast; the server closes the connection.
    case flood = "flood"
    /// A time limit ran out (no NAME, or no command at all); the server closes the connection.
    case timeout = "timeout"
}

/// Why the server closes a connection: the code of the `BYE` line it sends
/// last. An `ERR` never closes anything; a `BYE` always does.
public enum ByeCode: String, Sendable, CaseIterable {
    /// The client sent QUIT.
    case quit = "quit"
    /// Too many commands too fast.
    case flood = "flood"
    /// No NAME or RESUME in time.
    case nameTimeout = "name-timeout"
    /// No command for too long.
    case idleTimeout = "idle-timeout"
    /// The server, or the client's address, has its maximum of connections.
    case full = "full"
    /// The client left more replies unread than the server keeps.
    case outputOverflow = "output-overflow"
    /// The server is shutting down.
    case shutdown = "shutdown"
    /// The seat this connection held was resumed from another connection.
    case replaced = "replaced"
}

/// Why a line could not be turned into a command.
public struct CommandError: Error, Sendable, Equatable {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

public enum CommandParser {
    /// Names: 1 to 16 of A-Z a-z 0-9 - _.
    public static let maxNameLength = 16
    /// SCORES without a number lists this many; at most `maxScores`.
    public static let defaultScores = 10
    public static let maxScores = 100

    public static func isValidName(_ name: some StringProtocol) -> Bool {
        let bytes = name.utf8
        guard (1...maxNameLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
        }
    }

    /// Parses one framed line (without its line end). Returns nil for a blank line.
    public static func parse(_ line: [UInt8]) -> Result<Command?, CommandError> {
        if let command = plainMove(line) { return .success(command) }
        return parseFully(line)
    }

    /// The parser proper, for every line.
    static func parseFully(_ line: [UInt8]) -> Result<Command?, CommandError> {
        // Control characters first: they are refused however the line is encoded.
        var ascii = true
        for b in line {
            if (b < 0x20 && b != 0x09) || b == 0x7F {
                return .failure(CommandError(.badCharacter, "control characters are not allowed"))
            }
            if b >= 0x80 { ascii = false }
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(CommandError(.badEncoding, "lines must be UTF-8"))
        }
        // C1 controls (U+0080–U+009F) can only hide in non-ASCII lines.
        if !ascii, text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) {
            return .failure(CommandError(.badCharacter, "control characters are not allowed"))
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return .success(nil) }
        let args = words.dropFirst().map(String.init)

        // A line holding just one character is a move.
        if words.count == 1 && first.count == 1 {
            return letter(String(first)).map { $0 }
        }

        func noArgs(_ c: Command) -> Result<Command?, CommandError> {
            args.isEmpty ? .success(c) : .failure(CommandError(.badArguments, "\(c.verb) takes no arguments"))
        }
        func oneArg(_ verb: String, _ what: String) -> Result<String, CommandError> {
            args.count == 1 ? .success(args[0]) : .failure(CommandError(.badArguments, "usage: \(verb) <\(what)>"))
        }

        switch first.uppercased() {
        case "NAME":
            return oneArg("NAME", "name").flatMap { name in
                isValidName(name)
                    ? .success(.name(name))
                    : .failure(CommandError(.badName, "a name is 1-16 letters, digits, - or _"))
            }
        case "LANG":
            return oneArg("LANG", "code").map { .lang($0.lowercased()) }
        case "SEEK":
            return options(args, allowBot: false).map { .seek($0) }
        case "NEW":
            return options(args, allowBot: true).map { .new($0) }
        case "HINT": return noArgs(.hint)
        case "JOIN":
            return oneArg("JOIN", "code").map { .join($0.uppercased()) }
        case "LETTER":
            guard args.count == 1 else {
                return .failure(CommandError(.notALetter, "play exactly one letter a-z, as LETTER <c>"))
            }
            return letter(args[0]).map { $0 }
        case "LEAVE": return noArgs(.leave)
        case "HELP": return noArgs(.help)
        case "PING": return noArgs(.ping)
        case "QUIT": return noArgs(.quit)
        case "NAMES": return noArgs(.names)
        case "RESUME": return oneArg("RESUME", "token").map { .resume($0) }
        case "CLAIM": return noArgs(.claim)
        case "RESTART": return noArgs(.restart)
        case "ACCEPT": return noArgs(.accept)
        case "DECLINE": return noArgs(.decline)
        case "REMATCH": return noArgs(.rematch)
        case "SCORES":
            return scores(args)
        default:
            return .failure(CommandError(.unknownCommand, "unknown command; play one letter per line, or send HELP for the commands"))
        }
    }

    /// `key=value` options of SEEK and NEW.
    private static func options(_ args: [String], allowBot: Bool) -> Result<GameOptions, CommandError> {
        var o = GameOptions()
        var first: String?
        for arg in args {
            let parts = arg.lowercased().split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                return .failure(CommandError(.badArguments, "options are key=value: rounds=ghost, bot=<level>, first=bot"))
            }
            switch (parts[0], parts[1]) {
            case ("rounds", "ghost"): o.match = true
            case ("rounds", "1"), ("rounds", "one"): o.match = false
            case ("bot", let level) where allowBot:
                guard let l = BotLevel(rawValue: level) else {
                    return .failure(CommandError(.badArguments, "bot= is easy, medium or hard"))
                }
                o.bot = l
            case ("first", let who) where allowBot && (who == "bot" || who == "me"):
                first = who
            default:
                return .failure(CommandError(.badArguments, allowBot
                    ? "NEW takes rounds=ghost, bot=easy|medium|hard and first=bot|me"
                    : "SEEK takes rounds=ghost"))
            }
        }
        if let first {
            guard o.bot != nil else { return .failure(CommandError(.badArguments, "first= needs bot=")) }
            o.botFirst = first == "bot"
        }
        return .success(o)
    }

    /// `SCORES [n] [mode=game|match] [bot=level]`.
    private static func scores(_ args: [String]) -> Result<Command?, CommandError> {
        var n = defaultScores
        var match = false
        var bot: BotLevel?
        let usage = CommandError(.badArguments, "usage: SCORES [1-\(maxScores)] [mode=game|match] [bot=easy|medium|hard]")
        for (i, arg) in args.enumerated() {
            let parts = arg.lowercased().split(separator: "=", maxSplits: 1).map(String.init)
            switch (parts.count, parts.first ?? "", parts.last ?? "") {
            case (1, _, _) where i == 0:
                guard let v = Int(arg), (1...maxScores).contains(v) else { return .failure(usage) }
                n = v
            case (2, "mode", "game"): match = false
            case (2, "mode", "match"): match = true
            case (2, "bot", let level):
                guard let l = BotLevel(rawValue: level) else { return .failure(usage) }
                bot = l
            default:
                return .failure(usage)
            }
        }
        let board = bot.map { match ? "\($0.rawValue)-match" : $0.rawValue } ?? (match ? "match" : "game")
        return .success(.scores(n, board: board))
    }

    /// The lines a busy server sees most, `PING`, `LETTER x` and `x`, in
    /// their plain spelling (any case, single spaces), recognised from the
    /// bytes without building strings. Anything else, nil: the full parser
    /// decides, and returns the same for these lines.
    private static let letterVerb = Array("letter".utf8)

    static func plainMove(_ line: [UInt8]) -> Command? {
        func folds(_ b: UInt8, to lower: UInt8) -> Bool { b | 0x20 == lower }
        switch line.count {
        case 1:
            return Letter(ascii: line[0]).map { .letter($0) }
        case 4:
            return folds(line[0], to: 0x70) && folds(line[1], to: 0x69) && folds(line[2], to: 0x6E)
                && folds(line[3], to: 0x67) ? .ping : nil
        case 8:
            for i in 0..<6 where !folds(line[i], to: letterVerb[i]) { return nil }
            guard line[6] == 0x20 else { return nil }
            return Letter(ascii: line[7]).map { .letter($0) }
        default:
            return nil
        }
    }

    private static func letter(_ text: String) -> Result<Command, CommandError> {
        if let l = Letter(text) { return .success(.letter(l)) }
        return .failure(CommandError(.notALetter, "play exactly one letter a-z"))
    }
}
