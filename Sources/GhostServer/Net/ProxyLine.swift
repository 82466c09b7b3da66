/// HAProxy's PROXY protocol, version 1 (its text form): the line a proxy in
/// front of ghostd sends first on each connection it carries, naming the
/// client (`PROXY TCP4 <client> <proxy> <client port> <proxy port>`, or
/// `PROXY UNKNOWN …` for a connection it cannot describe). The plain port
/// takes it as the first line of a connection from a `--trusted-proxy`
/// (HAProxy's `send-proxy`), so that the client counts by its own network;
/// from anyone else it is an ordinary line (`ERR unknown-command`).
enum ProxyLine: Equatable {
    /// The connection carries this client (its address).
    case client(String)
    /// `PROXY UNKNOWN`: the proxy does not say; the proxy's address stays.
    case unknown

    /// At most 107 bytes with its CRLF (the specification's bound).
    static let maxBytes = 107

    /// The line's meaning if it is a PROXY line (its line ending taken off
    /// by the framer), else nil.
    static func parse(_ bytes: some Collection<UInt8>) -> ProxyLine? {
        guard bytes.count <= maxBytes, bytes.starts(with: Array("PROXY ".utf8)) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 2 else { return nil }
        if fields[1] == "UNKNOWN" { return .unknown }
        guard fields.count == 6, fields[1] == "TCP4" || fields[1] == "TCP6",
              Int(fields[4]).map({ (0...65535).contains($0) }) == true,
              Int(fields[5]).map({ (0...65535).contains($0) }) == true else { return nil }
        let client = String(fields[2])
        guard NetworkKey.isAddress(client), NetworkKey.isAddress(String(fields[3])),
              client.contains(":") == (fields[1] == "TCP6") else { return nil }
        return .client(client)
    }
}
