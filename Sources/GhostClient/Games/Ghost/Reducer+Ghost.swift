import GhostProtocol

/// Ghost's reducer for a game in play: TURN and MOVE change only the Ghost
/// state of the game shown (`Game.ghost`) and the table around it, as
/// Hangman's reducer changes only its board. The generic core calls in here
/// at one point (`ghostLine`), after watching and Hangman.
extension ClientState {
    /// Takes TURN and MOVE of a Ghost game shown; returns false for other lines.
    mutating func ghostLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .turn(id, player, fields, clock):
            guard var g = currentGame(id), var gs = g.ghost else { return false }
            g.clockDue = clock.map { now + Double($0) }
            let position = GhostLines.turn(fields)
            // A fragment this client did not see being built (moves missed
            // across a daemon restart): the caption says nothing stale, and
            // the state sent on RESUME names who played its last letter (`last=`).
            if let f = position.fragment, f != gs.fragment { g.lastMove = nil }
            if g.toMove != player || position.fragment != gs.fragment, alert?.notice.isAboutTheTurn == true { alert = nil }
            g.toMove = player
            gs.fragment = position.fragment ?? gs.fragment
            if let last = position.last, let letter = gs.fragment.last, g.players.contains(last) {
                g.lastMove = LastMove(last, String(letter))
            }
            if let letters = position.ghost { gs.letters = letters }
            // Bluff and challenge: a new challenge starts an empty answer.
            if position.challenged != gs.challenged { gs.answer = "" }
            gs.challenged = position.challenged
            if !gs.challenged { gs.challenger = nil }
            g.ghost = gs
            game = g
            return true
        case let .move(id, player, fields):
            guard var g = currentGame(id), var gs = g.ghost else { return false }
            defer { game = g }
            if GhostLines.challenge(fields) != nil {
                gs.challenger = player
                g.ghost = gs
                return true
            }
            guard let move = GhostLines.move(fields) else { return true }
            // Superghost: the letter went at the front when the new fragment starts with it before the old one.
            let before = gs.fragment
            gs.fragment = move.fragment ?? (gs.fragment + move.letter.description)
            gs.lastAtFront = gs.superghost && !before.isEmpty
                && gs.fragment.lowercased() == (move.letter.description + before).lowercased()
                && gs.fragment.lowercased() != (before + move.letter.description).lowercased()
            g.ghost = gs
            g.lastMove = LastMove(player, move.letter.description)
            g.flash = move.letter.character
            g.flashUntil = now + ClientState.flashSeconds
            // A letter cancels a pending offer.
            g.offer = nil
            return true
        default:
            return false
        }
    }
}
