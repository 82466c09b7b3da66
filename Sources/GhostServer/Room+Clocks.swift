import GameKit

/// A room's clocks (moved here from what are now Away.swift and
/// Lifecycle.swift): when the absent or stalling person to move may be
/// claimed against, when a game on a clock is lost on time, and when a first
/// move that does not come aborts the game. Each needs only the room and the
/// settings; what is left in seconds (GAME, TURN, ADJOURNED) the lobby works
/// out from these and its clock.
extension Lobby.Room {
    /// When the opponent of the absent player to move may claim: the grace
    /// clock runs only while the absent player is the one to move.
    @inline(__always)   // the deadlines ask it for every touched room: only the fields it reads, no copy of the settings
    func claimDeadline(_ settings: Lobby.Settings) -> Double? {
        let mover = gameToMove
        // A person who is here but does not move (Lifecycle.swift).
        guard isAway(mover), seats[1 - mover] != nil, let away = awaySince[mover] else { return stallDeadline(settings) }
        return max(away, turnSince) + settings.graceSeconds
    }

    /// When the person to move loses on time, in a game on a clock: each
    /// move has the game's seconds from the moment it became that seat's turn
    /// (`turnSince`), whether the player is here or away. Nil without a
    /// clock, and while the computer is to move (its moves are not timed).
    func clockDeadline() -> Double? {
        guard let clock, !gameIsOver, bot(gameToMove) == nil else { return nil }
        let due = turnSince + Double(clock)
        guard let retry = timeRetry else { return due }
        return max(due, retry)
    }

    /// When a game without a clock is aborted because the person to move has
    /// not made their first move of it: `firstMoveTimeout` (times the
    /// kind's `firstMoveTimeFactor`) after their turn began. Not while they are away and their opponent is here (the grace
    /// period and CLAIM decide that case, as before); a game on a clock ends
    /// by its clock.
    @inline(__always)   // the deadlines ask it for every touched room: only the fields it reads, no copy of the settings
    func firstMoveDeadline(_ settings: Lobby.Settings) -> Double? {
        let mover = gameToMove
        guard settings.firstMoveTimeout > 0, clock == nil, !gameIsOver, (0...1).contains(mover),
              bot(mover) == nil, !moved[mover] else { return nil }
        if isAway(mover), bot(1 - mover) == nil, seats[1 - mover] != nil { return nil }
        let due = turnSince + settings.firstMoveTimeout * game.firstMoveTimeFactor(for: mover)
        return timeRetry.map { max(due, $0) } ?? due
    }

    /// When the opponent of a person who is here but does not move may CLAIM
    /// as if they were away: `moveTimeout` after the turn began, in a game
    /// without a clock between two people who are both here, once the mover
    /// has made a first move (before it, `firstMoveDeadline` aborts instead).
    @inline(__always)   // the deadlines ask it for every touched room: only the fields it reads, no copy of the settings
    func stallDeadline(_ settings: Lobby.Settings) -> Double? {
        let mover = gameToMove
        guard settings.moveTimeout > 0, clock == nil, !gameIsOver, (0...1).contains(mover),
              bot(0) == nil, bot(1) == nil, seats[mover] != nil, seats[1 - mover] != nil,
              moved[mover] else { return nil }
        return turnSince + settings.moveTimeout
    }
}
