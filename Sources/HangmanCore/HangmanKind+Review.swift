import GhostCore

/// What Hangman shows of a game afterwards (`MOVES`, `REVIEW`; issue #28).
extension HangmanKind {
    /// The setter's word (a duel's first move, the only move seat 0 makes)
    /// stays secret until the game is over. The computer's word is never a
    /// move: it is in the final state only, which only `OVER` shows.
    public func hidesMove(_ move: Move, by seat: Int) -> Bool { seat == 0 }
}
