/// An error code a game kind answers with (`ERR <code> <text>`): a refused
/// move (`MoveError.refused`), a refused setup or setting (`SetupError`), a
/// move its games do not take (`GameDefinition.wrongMoveCode`). Written
/// only as a literal in the kind's own code (`"chain-broken"`, or the
/// protocol's codes below), never made from text that came in: the protocol
/// turns it into its `ErrorCode` as it is (GhostProtocol's
/// `ErrorCode.init(_:)`), and a kind documents its own in `errorCodes`.
public struct KindErrorCode: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as the wire spells it: lowercase words joined by `-`.
    public let rawValue: String

    public init(stringLiteral value: StaticString) {
        rawValue = value.description
    }

    public var description: String { rawValue }

    /// The protocol's codes that kinds answer with (Protocol.md §6).
    public static let badValue: KindErrorCode = "bad-value"
    public static let badArguments: KindErrorCode = "bad-arguments"
    public static let notALetter: KindErrorCode = "not-a-letter"
}
