import GhostProtocol

/// An alert on the status line. The text is chosen when drawing, so it follows
/// the language.
public enum Notice: Equatable, Sendable {
    case notYourTurn
    case lettersOnly
    /// A paste of several letters in a game: none is played.
    case pastedSeveral
    case notConnected
    case typeAName
    case typeACode
    case offerSent
    case gameEnded
    case seekCancelled
    case seatTaken
    /// This connection's name was taken by a login in another window.
    case signedOut
    case returned(String)
    /// A game of this player's ended with no score (`ABORTED`).
    case aborted(AbortReason)
    /// A game menu entry that does not apply right now was chosen.
    case unavailable(GameMenuItem)
    case declined(String)
    case accepted(String)
    case configSaveFailed(String)
    /// `OK HINT`: whether a win can be forced, and the letter perfect play picks.
    case hint(winning: Bool, letter: String)
    /// `OK HINT challenge=yes` (bluff and challenge): no word starts with the fragment.
    case challengeHint
    /// `OK HINT word=<w>`: the word that answers the challenge; nil: none, concede.
    case wordHint(String?)
    /// Bluff and challenge: Enter before a letter of the answer was typed.
    case typeTheWord
    /// An `ERR` line: its code and the server's text.
    case serverError(code: ErrorCode, text: String)
    /// Hangman's own alerts.
    case hangman(HangmanNotice)
    /// WATCH refused: the game ended, is private, or this client is busy.
    case watchRefused(ErrorCode)
    /// About passwords and registered names (Account/).
    case account(AccountNotice)
    /// A kind's own move refused (`ERR <code> <text>`, Games/Generic): the
    /// client's words for a code it knows, else the server's.
    case kindRefusal(code: ErrorCode, text: String)
    /// The kind chosen (named) has no computer to play on this server.
    case noComputer(String)
    /// The rules of a kind the client has no code for (the main menu's `?`):
    /// none here; its moves are offered in the game.
    case kindRules(name: String)
    /// A kind's move that takes a word, sent with no word typed (Games/Generic).
    case typeAWord
    /// Friends, invitations, chat and blocking (Social/).
    case social(SocialNotice)

    /// Said about the move being made: no longer true once the turn changes.
    public var isAboutTheTurn: Bool {
        switch self {
        case .notYourTurn, .lettersOnly, .pastedSeveral, .hint, .offerSent, .challengeHint, .wordHint, .typeTheWord, .kindRefusal, .typeAWord: true
        case .serverError(let code, _): code == .notYourTurn || code == .notALetter
        default: false
        }
    }
}

public struct Alert: Equatable, Sendable {
    public var notice: Notice
    /// Until when it is shown (monotonic seconds).
    public var until: Double
}
