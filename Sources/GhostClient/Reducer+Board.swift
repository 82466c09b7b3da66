import GhostProtocol
import GameKit

/// A line about a board, handed to the kind's reducer with its fields unread:
/// the kind reads them with its own reader (`GhostLines`, `HangmanLines`).
enum BoardLine: Equatable {
    case turn([Field])
    case move(by: String, [Field])
}

/// What a kind's reducer tells the table around its board (TCA's delegate
/// actions): the table's fields are the parent's to change.
struct BoardOutcome: Equatable {
    /// TURN: the board changed by moves this client missed; the last move shown is stale.
    var missedMoves = false
    /// TURN: which alerts about the turn stop holding.
    var turnNotices: TurnNotices = .kept
    /// TURN: the last move as a full state names it (Ghost's `last=`), shown
    /// if its player sits at this table.
    var lastMove: LastMove?
    /// MOVE: a move was played (not a challenge, not a line that could not be read).
    var played: Played?

    enum TurnNotices: Equatable {
        /// The turn's alerts stay (Hangman's).
        case kept
        /// They go if another player is now to move.
        case staleIfTheTurnPassed
        /// They go: the position changed.
        case stale
    }

    /// A move played: what the last-move caption says, and the key to flash (if one).
    struct Played: Equatable {
        var label: String
        var key: Character?
    }
}

/// A kind's board, reduced by the kind itself: pure, over its own state only.
protocol GameBoard {
    mutating func reduce(_ line: BoardLine) -> BoardOutcome
}

extension Game {
    /// Scopes a line into the board: the one place the generic core looks at which kind it is.
    mutating func reduce(_ line: BoardLine) -> BoardOutcome {
        switch self {
        case .ghost(var board):
            let out = board.reduce(line)
            self = .ghost(board)
            return out
        case .hangman(var board):
            let out = board.reduce(line)
            self = .hangman(board)
            return out
        case .generic(var board):
            let out = board.reduce(line)
            self = .generic(board)
            return out
        }
    }
}
