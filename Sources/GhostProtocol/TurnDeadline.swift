/// What happens if the player to move does not move in time, in a game
/// without a clock, and in how many seconds: a `TURN` field, so
/// that every client can count it down (Protocol.md, section 4, `TURN`).
public enum TurnDeadline: Hashable, Sendable {
    /// `abort_in=<s>`: the player's first move of the game must come within
    /// `s` seconds, or the game is aborted with no score
    /// (`ghostd --first-move-timeout`).
    case abort(Int)
    /// `claim_in=<s>`: after `s` more seconds without a move the opponent may
    /// claim the game (`ghostd --move-timeout`).
    case claim(Int)

    public static let abortKey = "abort_in"
    public static let claimKey = "claim_in"

    public var key: StaticString {
        switch self {
        case .abort: "abort_in"
        case .claim: "claim_in"
        }
    }

    public var seconds: Int {
        switch self {
        case .abort(let s), .claim(let s): s
        }
    }

    /// From a TURN's fields: the first of the two that is there.
    public init?(abortIn: Int?, claimIn: Int?) {
        if let abortIn { self = .abort(abortIn) } else if let claimIn { self = .claim(claimIn) } else { return nil }
    }
}
