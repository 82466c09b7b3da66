/// Why a game was aborted: it ended with no winner, no score and no place on
/// any list (`ABORTED id=<id> reason=<reason>`, Protocol.md §4 and §7).
public struct AbortReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A person's first move of the game did not come within
    /// `ghostd --first-move-timeout` seconds.
    public static let noFirstMove = AbortReason(rawValue: "no-first-move")
    /// Nobody touched the game (no move, no RESUME) for `ghostd --abandon-after` seconds.
    public static let untouched = AbortReason(rawValue: "untouched")
    /// A player left (LEAVE) before any person's move of the game: no game yet, no loss.
    public static let left = AbortReason(rawValue: "left")
}
