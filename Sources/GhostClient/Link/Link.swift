import GhostProtocol

/// The state of the link to the server.
public enum Link: Equatable, Sendable {
    /// Connecting for the first time.
    case connecting
    /// TCP is up; waiting for HELLO.
    case connected
    /// HELLO received: commands can be sent.
    case online
    /// Down; a reconnection is scheduled.
    case offline
    /// Down for good: the connection cannot be made safely (TLS: the server's
    /// certificate did not verify). Not retried; the text says why.
    case refused(String)
}

/// How the client connects: TLS or not, and the certificates it trusts
/// (`--tls`, `--tls-ca`; or as saved with the server).
public struct ConnectionTLS: Equatable, Sendable {
    public var tls: Bool
    public var caFile: String?
    public init(tls: Bool, caFile: String? = nil) {
        self.tls = tls
        self.caFile = tls ? caFile : nil
    }
}
