/// Whether the PostgreSQL server a store keeps its state in takes a
/// connection now. Made for a thread of its own while the store is out of
/// reach (the server's `StoreOutage`): opening a connection can wait as long
/// as the network lets it (a host that drops packets), and the event loop
/// must never wait with it. A value: it holds the address, not the store.
public struct StoreProbe: Sendable {
    let conninfo: String

    /// Opens a connection and closes it again: true if that worked.
    public func reachable() -> Bool {
        guard let db = try? PostgresDatabase(conninfo) else { return false }
        db.close()
        return true
    }
}

extension Store {
    /// A probe of this store's server; nil for SQLite's, which is a file.
    public var probe: StoreProbe? { db.postgres.map { StoreProbe(conninfo: $0.conninfo) } }
}
