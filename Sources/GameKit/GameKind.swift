/// Which game a line is about (`game=` on the wire): a game kind's name.
/// Open, and knowing no kind: each kind's wire module names its own
/// (`GameKind.ghost` in GhostWire, `GameKind.hangman` in HangmanWire), and a
/// later server may host games a client does not know.
public struct GameKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
