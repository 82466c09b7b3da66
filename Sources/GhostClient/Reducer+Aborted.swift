import GhostProtocol

/// `ABORTED id=<id> reason=<reason>`: a game of this player's
/// ended with no winner and no score (no first move, untouched for days, or
/// left before the first move). The token is spent; the player is back on the
/// main screen with a line saying why. A watched game's end is the watch
/// code's (it stops with the game).
extension ClientState {
    mutating func aborted(id: Int, reason: AbortReason, _ fx: inout [ClientEffect]) {
        if let g = game, g.id != id || g.watching { return }
        guard game != nil || screen == .resuming || screen == .game else { return }
        game = nil
        setToken(nil, &fx)
        goToMain()
        show(.aborted(reason))
    }
}

extension Strings {
    /// Why a game of this player's was aborted.
    public func aborted(_ reason: AbortReason) -> String {
        let nl = code == "nl"
        switch reason {
        case .noFirstMove:
            return nl ? "Het spel is afgebroken: de eerste zet kwam niet op tijd. Niemand wint."
                : "The game was aborted: the first move did not come in time. Nobody wins."
        case .untouched:
            return nl ? "Het spel is afgebroken: het lag te lang stil. Niemand wint."
                : "The game was aborted: nobody played it for too long. Nobody wins."
        case .left:
            return nl ? "Het spel is afgebroken: er werd vertrokken voor de eerste zet. Niemand wint."
                : "The game was aborted: a player left before the first move. Nobody wins."
        default:
            return nl ? "Het spel is afgebroken. Niemand wint." : "The game was aborted. Nobody wins."
        }
    }
}
