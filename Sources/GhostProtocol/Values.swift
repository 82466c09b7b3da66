import GhostCore

/// One `key=value` field of a server line, as a game kind supplies them:
/// the game-specific part of GAME, TURN, MOVE, OVER and MATCH.
public struct Field: Sendable, Hashable, CustomStringConvertible {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }

    public var description: String { "\(key)=\(value)" }
}

extension Array where Element == Field {
    /// The value of the first field with that key.
    public subscript(key: String) -> String? {
        first(where: { $0.key == key })?.value
    }
}

/// Which game a GAME line is about (`game=`). Open: a later server may host
/// games this client does not know, and says so here.
public struct GameKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Ghost: add letters to a fragment without completing a word.
    public static let ghost = GameKind(rawValue: "ghost")

    public var description: String { rawValue }
}

/// Why a game or round ended (`reason=` of OVER). Open: each game kind adds
/// its own reasons; these are Ghost's and the lobby's.
public struct OverReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The loser made a word longer than 3 letters.
    public static let word = OverReason(rawValue: "word")
    /// The loser made a fragment that no word extends.
    public static let dead = OverReason(rawValue: "dead")
    /// The loser resigned with LEAVE.
    public static let left = OverReason(rawValue: "left")
    /// The loser stayed away past the grace period and the opponent claimed the game.
    public static let abandoned = OverReason(rawValue: "abandoned")

    public init(_ reason: EndReason) { self.init(rawValue: reason.rawValue) }

    public var description: String { rawValue }
}

/// What an OFFER proposes (`kind=`).
public enum OfferKind: String, Sendable, CaseIterable {
    /// Restart the round.
    case restart
    /// Switch to another dictionary (`lang=`) and restart the round.
    case lang
}

/// Whether RESTART or LANG in a game took effect or became an offer (`status=`).
public enum OfferStatus: String, Sendable, CaseIterable {
    case done
    case offered
}

/// Whether REMATCH waits for the opponent or started the game (`status=`).
public enum RematchStatus: String, Sendable, CaseIterable {
    case asked
    case started
}
