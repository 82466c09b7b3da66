import GhostProtocol

public enum Screen: Equatable, Sendable {
    case language, tutorial, name, main, computer, join, waiting, resuming, game, over, scores
    /// Hangman's screens (Games/Hangman).
    case hangman(HangmanScreen)
    /// The games in progress one may watch (Watch/).
    case watchList
    /// A registered name's password: logging in, registering, changing it (Account/).
    case account(AccountScreen)
    /// A player's record: history, replay and review, profile, leaders (Record/).
    case record(RecordScreen)
    /// Friends, the names you block, and your privacy settings (Social/).
    case social(SocialScreen)
}
