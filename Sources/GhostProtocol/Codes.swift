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
