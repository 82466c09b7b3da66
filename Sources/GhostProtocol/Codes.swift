/// Stable error codes: the second word of an `ERR` line. Open, so a client
/// can read an error code a later server adds; `allCases` are the known ones.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The line was longer than 512 bytes; it was discarded.
    public static let lineTooLong = ErrorCode(rawValue: "line-too-long")
    /// The line was not valid UTF-8.
    public static let badEncoding = ErrorCode(rawValue: "bad-encoding")
    /// The line held a control character (NUL, ESC, DEL, C1 controls...).
    public static let badCharacter = ErrorCode(rawValue: "bad-character")
    /// The first word is not a command.
    public static let unknownCommand = ErrorCode(rawValue: "unknown-command")
    /// The command's arguments are missing or too many.
    public static let badArguments = ErrorCode(rawValue: "bad-arguments")
    /// A setting's value is out of range (SET), or a saved one no longer fits (NEW).
    public static let badValue = ErrorCode(rawValue: "bad-value")
    /// A move was not exactly one letter a-z.
    public static let notALetter = ErrorCode(rawValue: "not-a-letter")
    /// The name does not follow the name rules.
    public static let badName = ErrorCode(rawValue: "bad-name")
    /// Another connection holds that name.
    public static let nameTaken = ErrorCode(rawValue: "name-taken")
    /// The command needs a NAME first.
    public static let noName = ErrorCode(rawValue: "no-name")
    /// No word list for that language code.
    public static let unknownLanguage = ErrorCode(rawValue: "unknown-language")
    /// The command needs a game in progress.
    public static let notInGame = ErrorCode(rawValue: "not-in-game")
    /// It is the other player's turn.
    public static let notYourTurn = ErrorCode(rawValue: "not-your-turn")
    /// The command cannot be used during a game (or while seeking or hosting).
    public static let busy = ErrorCode(rawValue: "busy")
    /// No open private game has that code; WATCH: no game in progress has that id.
    public static let noSuchGame = ErrorCode(rawValue: "no-such-game")
    /// You cannot join your own private game.
    public static let ownGame = ErrorCode(rawValue: "own-game")
    /// No game in progress has that resume token.
    public static let badToken = ErrorCode(rawValue: "bad-token")
    /// CLAIM while the opponent is present, not to move, or within the grace period.
    public static let notClaimable = ErrorCode(rawValue: "not-claimable")
    /// ACCEPT or DECLINE with no offer from the opponent pending.
    public static let noOffer = ErrorCode(rawValue: "no-offer")
    /// An offer is already pending.
    public static let offerPending = ErrorCode(rawValue: "offer-pending")
    /// You made an offer since the last letter; play on first.
    public static let offerSpent = ErrorCode(rawValue: "offer-spent")
    /// REMATCH with no finished game against a still-connected opponent.
    public static let noRematch = ErrorCode(rawValue: "no-rematch")
    /// The server could not store the change; nothing was done.
    public static let storeFailed = ErrorCode(rawValue: "store-failed")
    /// HINT outside a game against the Easy computer.
    public static let noHints = ErrorCode(rawValue: "no-hints")
    /// Too many commands too fast; the server closes the connection.
    public static let flood = ErrorCode(rawValue: "flood")
    /// A time limit ran out (no NAME, or no command at all); the server closes the connection.
    public static let timeout = ErrorCode(rawValue: "timeout")
    /// NAME of a name never used before, past the address's limit on new names.
    public static let tooManyNames = ErrorCode(rawValue: "too-many-names")
    /// JOIN from an address that has used up its allowance of failed JOINs (wrong codes).
    public static let tooManyJoins = ErrorCode(rawValue: "too-many-joins")
    /// Hangman: a letter, or a whole answer, already guessed; nothing is counted.
    public static let alreadyGuessed = ErrorCode(rawValue: "already-guessed")
    /// Hangman duel: WORD with a word not in the game's dictionary or not of its length.
    public static let notAWord = ErrorCode(rawValue: "not-a-word")
    /// Hangman: `mode=phrase` in a language without a phrase list.
    public static let noPhrases = ErrorCode(rawValue: "no-phrases")
    /// `CHALLENGE`, `CONCEDE` (or a `WORD` answer) in a game that is not `variant=challenge`.
    public static let wrongVariant = ErrorCode(rawValue: "wrong-variant")
    /// `variant=challenge`: `CHALLENGE` before any letter.
    public static let emptyFragment = ErrorCode(rawValue: "empty-fragment")
    /// `variant=challenge`: a letter or `CHALLENGE` from the challenged player, who must answer.
    public static let challengePending = ErrorCode(rawValue: "challenge-pending")
    /// `variant=challenge`: `WORD` or `CONCEDE` from a player nobody challenged.
    public static let noChallenge = ErrorCode(rawValue: "no-challenge")
    /// `variant=challenge`: a `WORD` answer that does not start with the fragment or is not longer.
    public static let badWord = ErrorCode(rawValue: "bad-word")
    /// `variant=challenge`: a letter past the longest fragment (64 letters).
    public static let fragmentTooLong = ErrorCode(rawValue: "fragment-too-long")

    /// WATCH of a game its players made private (`NEW watch=no`).
    public static let privateGame = ErrorCode(rawValue: "private-game")
    /// UNWATCH while watching no game.
    public static let notWatching = ErrorCode(rawValue: "not-watching")

    /// NEW, SEEK, JOIN or REMATCH past the cap on games in progress (adjourned
    /// ones included) per name or per network.
    public static let tooManyGames = ErrorCode(rawValue: "too-many-games")

    /// `NAME` of a registered name without its password.
    public static let passwordRequired = ErrorCode(rawValue: "password-required")
    /// `NAME <name> <password>` with the wrong password.
    public static let badPassword = ErrorCode(rawValue: "bad-password")
    /// A password that is not 8 to 200 characters (or holds a tab).
    public static let badPasswordForm = ErrorCode(rawValue: "bad-password-form")
    /// `REGISTER` of a name someone registered already.
    public static let nameRegistered = ErrorCode(rawValue: "name-registered")
    /// A password for a name nobody registered; `PASSWORD` when not logged in to a registered name.
    public static let notRegistered = ErrorCode(rawValue: "not-registered")
    /// A password tried too soon after failed ones (per name and per network); nothing was checked.
    public static let tooManyAttempts = ErrorCode(rawValue: "too-many-attempts")
    /// The queue of passwords to check is full; nothing was done: try again.
    public static let serverBusy = ErrorCode(rawValue: "server-busy")

    /// `rated=yes` (or `range=`) where the game cannot be rated:
    /// a guest's name (log in to a registered name), a game that is never
    /// rated (Hangman against the computer setter), or, at JOIN, a guest
    /// joining a game its host made `rated=yes`.
    public static let cannotRate = ErrorCode(rawValue: "cannot-rate")
    /// `PROFILE` or `HISTORY` of a name this server has never seen.
    public static let noSuchName = ErrorCode(rawValue: "no-such-name")
    /// `REVIEW` of a game still in progress.
    public static let notOver = ErrorCode(rawValue: "not-over")
    /// `REVIEW` of a game its kind does not review (a Hangman phrase).
    public static let noReview = ErrorCode(rawValue: "no-review")
    /// `REVIEW` still being worked out off the server's thread (a Superghost position being solved, a long Hangman review): ask again in a few seconds.
    public static let notReady = ErrorCode(rawValue: "not-ready")

    /// `INVITE` of a name that cannot be invited now: offline (or blocking
    /// you, which reads the same), in a game, or taking no invitations from you.
    public static let unavailable = ErrorCode(rawValue: "unavailable")
    /// `INVITE` past the invitee's or your network's open invitations.
    public static let tooManyInvites = ErrorCode(rawValue: "too-many-invites")
    /// `FOLLOW` past `--max-follows`.
    public static let tooManyFollows = ErrorCode(rawValue: "too-many-follows")
    /// `BLOCK` past `--max-blocks`.
    public static let tooManyBlocks = ErrorCode(rawValue: "too-many-blocks")
    /// `REPORT` past `--max-reports-per-day`.
    public static let tooManyReports = ErrorCode(rawValue: "too-many-reports")
    /// `SAY` from a name the operator muted.
    public static let muted = ErrorCode(rawValue: "muted")
    /// `NAME` of a name the operator banned.
    public static let banned = ErrorCode(rawValue: "banned")

    /// The codes this version knows.
    public static let allCases: [ErrorCode] = [
        .lineTooLong, .badEncoding, .badCharacter, .unknownCommand, .badArguments, .badValue, .notALetter, .badName, .nameTaken,
        .noName, .unknownLanguage, .notInGame, .notYourTurn, .busy, .noSuchGame, .ownGame, .badToken, .notClaimable,
        .noOffer, .offerPending, .offerSpent, .noRematch, .storeFailed, .noHints, .flood, .timeout, .tooManyNames, .tooManyJoins,
        .alreadyGuessed, .notAWord, .noPhrases, .privateGame, .notWatching,
        .wrongVariant, .emptyFragment, .challengePending, .noChallenge, .badWord, .fragmentTooLong,
        .tooManyGames,
        .passwordRequired, .badPassword, .badPasswordForm, .nameRegistered, .notRegistered, .tooManyAttempts, .serverBusy,
        .notOver, .noReview, .notReady,
        .cannotRate, .noSuchName,
        .unavailable, .tooManyInvites, .tooManyFollows, .tooManyBlocks, .tooManyReports, .muted, .banned,
    ]
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
    /// The operator banned the connection's name or network.
    case banned = "banned"
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
