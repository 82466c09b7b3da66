import GhostProtocol
import GameKit

/// The high-score screen's state: the board shown (Ghost's boards, or an
/// announced kind's), its table (SCORES, or BEST for an announced kind), and
/// the screen Esc goes back to.
public struct ScoresState: Equatable, Sendable {
    /// The table (nil while loading) and the one being received.
    public var scores: [ScoreEntry]?
    var incomingScores: [ScoreEntry] = []
    public var scoresOffset = 0
    /// The board shown on the high-score screen (←/→ visit `Board.all`).
    public var scoresBoard = Board.game
    /// The high scores of an announced kind (Games/Generic): the kind, and
    /// its board (`game`, or a computer level it plays); nil: Ghost's boards.
    public var scoresKind: GameKind?
    public var scoresKindMode = "game"
    public var scoresReturn: Screen = .main
}

public struct ScoreEntry: Equatable, Sendable {
    public var rank: Int
    public var name: String
    public var wins: Int
    public var played: Int
}
