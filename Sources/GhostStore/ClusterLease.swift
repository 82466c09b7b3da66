/// The lease that makes one of several ghostd nodes on the same PostgreSQL
/// state the one that serves (issue #49): the leader. One row in
/// `ghostd_lease`, on a connection of its own (never the store's, so that
/// renewing it does not wait for a turn, nor a turn for it):
///
/// - `take` makes this node the holder when the row is free, lapsed (its
///   `expires_at` past, by PostgreSQL's clock: the nodes' clocks are never
///   compared), or held by this node's own data folder (a node restarted on
///   its folder, whose lock proves the old process gone), with the epoch one
///   higher than the last;
/// - `renew` moves the expiry on while the epoch is still this node's;
/// - `release` lets it lapse at once (a clean stop: a standby takes over
///   without waiting out the rest).
///
/// **Fencing.** Every write transaction of the store begins with
/// `SELECT ghostd_fence(epoch)` (`Store.fence`), which takes the row `FOR
/// SHARE` and raises SQLSTATE `GH001` unless the epoch is still the one held.
/// A takeover's `UPDATE` of the row waits for every transaction that holds
/// it so, and each one begun after the takeover committed fails: a node
/// paused past its lease (SIGSTOP, a stalled VM) that wakes up can commit
/// nothing, and the new leader reads every change the old one committed.
///
/// The table and the function are the cluster's, not the state's: made here
/// (`CREATE … IF NOT EXISTS`, under an advisory lock so that nodes starting
/// together do not race), never copied by `copy-store`. SQLite has no lease:
/// its data folder's lock lets one daemon at a time use it.
public final class ClusterLease {
    /// Who holds the lease, as the row says.
    public struct Holder: Equatable, Sendable {
        public let node: String
        public let address: String
        public let epoch: Int
        /// Seconds until it lapses (negative: lapsed that long ago), by PostgreSQL's clock.
        public let remaining: Double
    }

    /// The SQLSTATE `ghostd_fence` raises.
    public static let fencedState = "GH001"

    public let node: String
    public let folder: String
    public let address: String
    public let seconds: Double
    private let conninfo: String
    private var db: PostgresDatabase?
    /// The epoch this node holds, once `take` succeeded.
    public private(set) var epoch: Int?

    /// Connects and makes the table and the fence if they are missing.
    /// `node`: the name shown to operators (`--node-name`); `folder`: the
    /// data folder's id (`DataFolderLock.nodeID`); `address`: where this
    /// node serves, for the others' logs; `seconds`: how long a renewal holds.
    public init(conninfo: String, node: String, folder: String, address: String, seconds: Double) throws {
        self.conninfo = conninfo
        self.node = node
        self.folder = folder
        self.address = address
        self.seconds = seconds
        let db = try PostgresDatabase(conninfo)
        self.db = db
        try db.execute("BEGIN")
        do {
            try db.execute("SELECT pg_advisory_xact_lock(\(ClusterLease.setupLock))")
            try db.execute(ClusterLease.schema)
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The advisory lock nodes starting together make the table under.
    static let setupLock = 0x6768_6f73_7464   // "ghostd"

    static let schema = """
        CREATE TABLE IF NOT EXISTS ghostd_lease (
            id          integer PRIMARY KEY CHECK (id = 1),
            node        text NOT NULL,
            folder      text NOT NULL,
            address     text NOT NULL,
            epoch       bigint NOT NULL,
            expires_at  timestamptz NOT NULL
        );
        CREATE OR REPLACE FUNCTION ghostd_fence(held bigint) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM 1 FROM ghostd_lease WHERE id = 1 AND epoch = held FOR SHARE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'this ghostd node no longer holds the lease (epoch %): another node took over', held
                    USING ERRCODE = 'GH001';
            END IF;
        END $$;
        """

    /// The open connection, opened again if it was lost.
    private func live() throws -> PostgresDatabase {
        if let db, db.isConnected { return db }
        db?.close()
        db = nil
        let fresh = try PostgresDatabase(conninfo)
        db = fresh
        return fresh
    }

    /// Takes the lease if it is free, lapsed or this folder's own: the new
    /// epoch, else nil (someone else holds it: `holder()` says who).
    public func take() throws -> Int? {
        let rows = try live().query("""
            INSERT INTO ghostd_lease(id, node, folder, address, epoch, expires_at)
            VALUES (1, $1, $2, $3, 1, clock_timestamp() + $4 * interval '1 millisecond')
            ON CONFLICT (id) DO UPDATE SET node = EXCLUDED.node, folder = EXCLUDED.folder,
                address = EXCLUDED.address, epoch = ghostd_lease.epoch + 1, expires_at = EXCLUDED.expires_at
            WHERE ghostd_lease.expires_at < clock_timestamp() OR ghostd_lease.folder = EXCLUDED.folder
            RETURNING epoch
            """, [.text(node), .text(folder), .text(address), .of(Int(seconds * 1000))])
        guard rows.count == 1, let taken = rows.int(0, 0) else { return nil }
        epoch = taken
        return taken
    }

    /// Moves the expiry on: true while this node holds the lease, false once
    /// another took it (this node must stop: its writes fail already).
    /// Throws when PostgreSQL does not answer (the lease may still be ours).
    public func renew() throws -> Bool {
        guard let epoch else { return false }
        let rows = try live().query("""
            UPDATE ghostd_lease SET expires_at = clock_timestamp() + $2 * interval '1 millisecond'
            WHERE id = 1 AND epoch = $1
            """, [.of(epoch), .of(Int(seconds * 1000))])
        return rows.changed == 1
    }

    /// Lets the lease lapse now (a clean stop), if this node still holds it.
    public func release() {
        guard let epoch else { return }
        _ = try? live().query("UPDATE ghostd_lease SET expires_at = clock_timestamp() - interval '1 second' WHERE id = 1 AND epoch = $1",
                              [.of(epoch)])
        self.epoch = nil
    }

    /// Who holds the lease now; nil if no node ever took it.
    public func holder() throws -> Holder? {
        let rows = try live().query("""
            SELECT node, address, epoch, extract(epoch FROM expires_at - clock_timestamp()) FROM ghostd_lease WHERE id = 1
            """)
        guard rows.count == 1, let node = rows.text(0, 0), let address = rows.text(0, 1), let epoch = rows.int(0, 2) else { return nil }
        return Holder(node: node, address: address, epoch: epoch, remaining: rows.double(0, 3) ?? 0)
    }

    public func close() {
        db?.close()
        db = nil
    }
}

extension Store {
    /// From now on every transaction checks that this node still holds the
    /// lease at `epoch` (`ClusterLease`); a store on SQLite has no fence.
    public func fence(epoch: Int) {
        db.postgres?.fence = epoch
    }

    /// Whether a write failed because another node took the lease over: this
    /// node must stop serving (nothing it does can be stored any more).
    public var isFenced: Bool { db.postgres?.fenced ?? false }
}
