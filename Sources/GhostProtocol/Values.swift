import GameKit

/// `Field` is GameKit's: one `key=value` of a game line, as a game kind supplies them.
extension Array where Element == Field {
    /// The value of the first field with that key.
    public subscript(key: String) -> String? {
        first(where: { $0.key == key })?.value
    }
}

/// Why a game or round ended (`reason=` of OVER): GameKit's `EndReason`.
/// Open: each game kind adds its own reasons (Ghost: `word`, `dead`); the
/// seats add `left` and `abandoned`.
public typealias OverReason = EndReason

/// What an OFFER proposes (`kind=`).
public enum OfferKind: String, Sendable, CaseIterable {
    /// Restart the round.
    case restart
    /// Switch to another dictionary (`lang=`) and restart the round.
    case lang
}

/// What a CANCELLED event withdraws (`kind=`).
public enum Withdrawn: String, Sendable, CaseIterable {
    /// An offer to restart the round, cancelled by a move.
    case restart
    /// An offer to switch the dictionary and restart, cancelled by a move.
    case lang
    /// A rematch request that lapsed: a player started something else or left.
    case rematch

    public init(_ offer: OfferKind) {
        switch offer {
        case .restart: self = .restart
        case .lang: self = .lang
        }
    }
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

/// Two people's record against each other, from one side: `record=<mine>-<theirs>`
/// on GAME, the finished games of its kind each has won (a match counts once).
public struct HeadToHead: Sendable, Hashable, CustomStringConvertible {
    public var mine: Int
    public var theirs: Int
    public init(mine: Int, theirs: Int) {
        self.mine = mine
        self.theirs = theirs
    }

    /// `3-1`.
    public var description: String { "\(mine)-\(theirs)" }

    /// `3-1` back; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let mine = Decode.int(String(parts[0])), let theirs = Decode.int(String(parts[1])) else { return nil }
        self.init(mine: mine, theirs: theirs)
    }
}
