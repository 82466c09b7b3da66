import GhostWire
import GhostProtocol
import GameKit

/// Where the player is waiting before a game.
public enum LobbyWait: Equatable, Sendable {
    /// `game`: the kind the seek asked for.
    case seeking(lang: String, match: Bool, game: GameKind = .ghost)
    /// `game`: the kind of the private game opened.
    case hosting(code: String, lang: String, match: Bool, game: GameKind = .ghost)
}

/// Players waiting in another seek queue (WAITING), whom this seek will not meet.
public struct OtherSeekers: Equatable, Sendable {
    public var lang: String
    public var match: Bool
    public var count: Int
    /// The queue's game kind.
    public var game: GameKind = .ghost
    /// Their clock (seconds per move), nil for none.
    public var clock: Int? = nil
    /// Their Ghost variant (`super`: Superghost), nil for Ghost.
    public var variant: String? = nil
}
