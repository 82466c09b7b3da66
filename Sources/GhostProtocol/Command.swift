import GhostCore

/// A command a client sends, parsed and checked for shape (not for state).
public enum Command: Sendable, Equatable {
    case name(String)
    case lang(String)
    case seek
    case new
    case join(String)
    case letter(Letter)
    case leave
    case help
    case ping
    case quit
    case names
    case resume(String)
    case claim
    case scores(Int)
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
        }
    }

    /// Every verb with its arguments and a one-line description, for HELP and docs.
    public static let helpLines: [(usage: String, text: String)] = [
        ("NAME <name>", "identify yourself: 1-16 letters, digits, - or _"),
        ("NAMES", "list every name used on this server"),
        ("LANG <code>", "choose the dictionary (see languages= in HELLO); in a game, change it and restart"),
        ("SEEK", "play the next player who seeks a game in the same language"),
        ("NEW", "open a private game; the reply carries its join code"),
        ("JOIN <code>", "join the private game with that code"),
        ("LETTER <c>", "play a letter; a line holding just one letter does the same"),
        ("LEAVE", "leave your game (you lose it), or stop seeking or hosting"),
        ("RESTART", "restart the round (the opponent must ACCEPT once a letter is played)"),
        ("ACCEPT", "accept your opponent's offer to restart or change the language"),
        ("DECLINE", "decline your opponent's offer"),
        ("RESUME <token>", "take your seat again in an adjourned game (token= from GAME)"),
        ("CLAIM", "claim the win when your opponent has been away past the grace period"),
        ("REMATCH", "after a game, play the same opponent again (both must ask)"),
        ("SCORES [n]", "the high-score list, top n (default 10)"),
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
        // Control characters first: they are refused however the line is encoded.
        for b in line where (b < 0x20 && b != 0x09) || b == 0x7F {
            return .failure(CommandError(.badCharacter, "control characters are not allowed"))
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(CommandError(.badEncoding, "lines must be UTF-8"))
        }
        if text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) {
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
        case "SEEK": return noArgs(.seek)
        case "NEW": return noArgs(.new)
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
            guard args.count <= 1 else { return .failure(CommandError(.badArguments, "usage: SCORES [n]")) }
            guard let text = args.first else { return .success(.scores(defaultScores)) }
            guard let n = Int(text), (1...maxScores).contains(n) else {
                return .failure(CommandError(.badArguments, "SCORES takes a number from 1 to \(maxScores)"))
            }
            return .success(.scores(n))
        default:
            return .failure(CommandError(.unknownCommand, "unknown command; play one letter per line, or send HELP for the commands"))
        }
    }

    private static func letter(_ text: String) -> Result<Command, CommandError> {
        if let l = Letter(text) { return .success(.letter(l)) }
        return .failure(CommandError(.notALetter, "play exactly one letter a-z"))
    }
}
