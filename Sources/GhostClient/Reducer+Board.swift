import GhostProtocol

/// TURN and MOVE of the game on screen, as TCA's `Scope`: the table's fields
/// that every kind has (who is to move, the clock, the last move, the key
/// flash, an offer a move cancels, the alerts about the turn) are changed
/// here, once; the board is changed by the kind's own reducer
/// (`GameBoard.reduce`, in Games/<Kind>/), which sees only its board and the
/// line's fields, and returns what the table must know (`BoardOutcome`).
extension ClientState {
    /// TURN: who is to move now, and the position.
    mutating func turn(id: Int, player: String, fields: [Field], clock: Int?, deadline: TurnDeadline? = nil) {
        guard var g = currentGame(id) else { return }
        g.clockDue = clock.map { now + Double($0) }
        g.deadline = deadline
        g.deadlineDue = deadline.map { now + Double($0.seconds) }
        let out = g.board.reduce(.turn(fields))
        // Moves this client did not see changed the board (across a daemon
        // restart): the caption says nothing stale.
        if out.missedMoves {
            g.lastMove = nil
            g.personMoved = true
        }
        // A Hangman position with guesses in it, or a person's word set, was moved in.
        if let b = g.hangman, !b.missed.isEmpty || !b.wrongWords.isEmpty || !b.found.isEmpty
            || (b.isDuel && !b.pattern.isEmpty && g.players.first.map { !$0.hasPrefix("bot-") } == true) {
            g.personMoved = true
        }
        let stale = switch out.turnNotices {
        case .kept: false
        case .staleIfTheTurnPassed: g.toMove != player
        case .stale: true
        }
        if stale, alert?.notice.isAboutTheTurn == true { alert = nil }
        g.toMove = player
        // The state sent on RESUME names who played the last move (a seat of this table only).
        if let last = out.lastMove, g.players.contains(last.player) { g.lastMove = last }
        game = g
    }

    /// MOVE: a move played by `player`.
    mutating func move(id: Int, player: String, fields: [Field]) {
        guard var g = currentGame(id) else { return }
        let out = g.board.reduce(.move(by: player, fields))
        if !player.hasPrefix("bot-") { g.personMoved = true }
        if let played = out.played {
            g.lastMove = LastMove(player, played.label)
            if let key = played.key {
                g.flash = key
                g.flashUntil = now + ClientState.flashSeconds
            }
            // A move cancels a pending offer.
            g.offer = nil
        }
        game = g
    }
}

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
