import GhostProtocol
import GameKit

/// The computer's levels, and the screen's last entry: who starts.
public enum ComputerMenuItem: Equatable, Sendable {
    case level(BotLevel)
    case starter
    case back

    public static let all: [ComputerMenuItem] = BotLevel.allCases.map { .level($0) } + [.starter, .back]
}

public enum OverMenuItem: CaseIterable, Equatable, Sendable {
    case rematch, newGame, changeName, main, scores
    /// The game just finished, replayed with its review.
    case review
}

public enum GameMenuItem: Equatable, Sendable {
    case accept, decline, claim, hint, restart, language(String), leave, close
}
