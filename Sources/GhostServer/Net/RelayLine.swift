import COpenSSL

/// The first line a standby's relay sends on the leader's relay port
/// (`--relay-port`, docs/cluster.md): `RELAY <secret> <client address>`.
/// The secret is the cluster's (`ClusterLease.Holder.secret`, in
/// PostgreSQL, which every node reads), compared in constant time; the
/// connection then counts by its client's network, as a player connected
/// to the leader would.
enum RelayLine {
    static let verb = "RELAY"

    /// The line a relay sends (its line ending added by the caller).
    static func line(secret: String, client: String) -> String { "\(verb) \(secret) \(client)" }

    /// The client's address if `bytes` is a RELAY line with `secret`, else nil.
    static func client(_ bytes: some Collection<UInt8>, secret: String) -> String? {
        guard !secret.isEmpty, bytes.count <= 200 else { return nil }
        let fields = Array(bytes).split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count == 3, Array(fields[0]) == Array(verb.utf8) else { return nil }
        let given = Array(fields[1]), wanted = Array(secret.utf8)
        guard given.count == wanted.count,
              given.withUnsafeBytes({ g in wanted.withUnsafeBytes { w in CRYPTO_memcmp(g.baseAddress, w.baseAddress, g.count) == 0 } })
        else { return nil }
        let client = String(decoding: fields[2], as: UTF8.self)
        return NetworkKey.isAddress(client) ? client : nil
    }
}
