import GhostProtocol

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
