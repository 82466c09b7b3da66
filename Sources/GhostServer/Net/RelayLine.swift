import COpenSSL

/// The first line a standby's relay sends on the leader's relay port
/// (`--relay-port`, docs/cluster.md):
/// `RELAY <secret> <client address> <port> <node>`.
///
/// - The secret is the cluster's (`ClusterLease.Holder.secret`, in
///   PostgreSQL, which every node reads), compared in constant time.
/// - `<port>` says which of the standby's ports the client reached
///   (`Port`), so the leader serves it as that port's client would be.
/// - `<node>` is the standby's `--node-name`: the node the player came in
///   through (STATS).
///
/// The connection then counts by its client's network, as a player
/// connected to the leader would. The older form without port and node
/// (`RELAY <secret> <client>`) is a plain one from an unnamed node.
enum RelayLine {
    static let verb = "RELAY"
    /// The leader's answer to a valid RELAY line of any port but `plain`,
    /// before which the standby sends none of its client's bytes: they are
    /// then read as that port's (a TLS handshake, an HTTP request), not as lines.
    static let answer = Array("OK RELAY\r\n".utf8)

    /// The port of the standby a relayed client reached.
    enum Port: String, CaseIterable, Sendable {
        /// The line protocol in clear: its bytes follow the line at once.
        case plain
        /// The line protocol over TLS (`--tls-port`).
        case tls
        /// HTTP and WebSocket (`--web-port`).
        case web
        /// The same over TLS (`--web-tls-port`).
        case webTLS = "web-tls"
        /// Not a player: `ghostd accounts` asking the leader (OperatorRequests.swift).
        case `operator`
    }

    /// What a valid RELAY line says.
    struct Relayed: Equatable, Sendable {
        let client: String
        let port: Port
        /// The standby's node name; empty from the older form.
        let node: String
    }

    /// The line a relay sends (its line ending added by the caller).
    static func line(secret: String, client: String, port: Port, node: String) -> String {
        "\(verb) \(secret) \(client) \(port.rawValue) \(node)"
    }

    /// What `bytes` says if it is a RELAY line with `secret`, else nil.
    static func parse(_ bytes: some Collection<UInt8>, secret: String) -> Relayed? {
        guard !secret.isEmpty, bytes.count <= 200 else { return nil }
        let fields = Array(bytes).split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 5, Array(fields[0]) == Array(verb.utf8) else { return nil }
        let given = Array(fields[1]), wanted = Array(secret.utf8)
        guard given.count == wanted.count,
              given.withUnsafeBytes({ g in wanted.withUnsafeBytes { w in CRYPTO_memcmp(g.baseAddress, w.baseAddress, g.count) == 0 } })
        else { return nil }
        let client = String(decoding: fields[2], as: UTF8.self)
        guard NetworkKey.isAddress(client) else { return nil }
        guard fields.count == 5 else { return Relayed(client: client, port: .plain, node: "") }
        let node = String(decoding: fields[4], as: UTF8.self)
        guard let port = Port(rawValue: String(decoding: fields[3], as: UTF8.self)), isNodeName(node) else { return nil }
        return Relayed(client: client, port: port, node: node)
    }

    /// The client's address if `bytes` is a RELAY line with `secret`, else nil.
    static func client(_ bytes: some Collection<UInt8>, secret: String) -> String? {
        parse(bytes, secret: secret)?.client
    }

    /// A node name as `--node-name` takes it: 1–64 of `[A-Za-z0-9._:-]`.
    static func isNodeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x3A || byte == 0x2D
        }
    }
}
