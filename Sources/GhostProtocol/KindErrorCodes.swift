import GameKit
extension ErrorCode {
    /// A game kind's error code (GameKit's `KindErrorCode`, which a kind
    /// writes only as a literal of its own) as the protocol's.
    public init(_ code: KindErrorCode) {
        self.init(rawValue: code.rawValue)
    }
}
