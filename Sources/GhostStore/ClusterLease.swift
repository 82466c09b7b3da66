#if canImport(Glibc)
import Glibc
#endif

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
/// A takeover cannot update the row while any transaction holds
/// it so, and each one begun after the takeover committed fails: a node
/// paused past its lease (SIGSTOP, a stalled VM) that wakes up can commit
/// nothing, and the new leader reads every change the old one committed.
///
/// The table and the function are the cluster's, not the state's: made here
/// (`CREATE … IF NOT EXISTS`, under an advisory lock so that nodes starting
/// together do not race), never copied by `copy-store`. SQLite has no lease:
/// its data folder's lock lets one daemon at a time use it.
///
/// **Who is alive.** Every node, standbys too, records a heartbeat in
/// `ghostd_nodes` (one row per data folder, `seen_at` by PostgreSQL's clock)
/// at most once a second (`heartbeat`): a standby as it polls (`take`), the
/// leader from its renewal thread, which also counts the rows seen within
/// two leases (`liveNodes`: STATS `nodes`) and deletes those of nodes gone
/// for a day.
public final class ClusterLease {
    /// Who holds the lease, as the row says.
    public struct Holder: Equatable, Sendable {
        public let node: String
        public let address: String
        public let epoch: Int
        /// Where the holder takes relayed connections ("" until it listens),
        /// and the secret a relay names itself with.
        public let relay: String
        public let secret: String
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
    /// When this node last recorded its heartbeat (monotonic seconds).
    private var lastBeat: Double?

    /// Connects and makes the table and the fence if they are missing.
    /// `node`: the name shown to operators (`--node-name`); `folder`: the
    /// data folder's id (`Leadership.folderID`); `address`: where this
    /// node serves, for the others' logs; `seconds`: how long a renewal holds.
    public init(conninfo: String, node: String, folder: String, address: String, seconds: Double) throws {
        self.conninfo = conninfo
        self.node = node
        self.folder = folder
        self.address = address
        self.seconds = seconds
        let db = try PostgresDatabase(conninfo)
        self.db = db
        // Made already (the usual case): nothing to do, and no lock taken that
        // could wait for a leader frozen with the row in a transaction.
        let made = try db.query("""
            SELECT to_regclass('ghostd_lease') IS NOT NULL AND to_regprocedure('ghostd_fence(bigint)') IS NOT NULL
                AND to_regclass('ghostd_nodes') IS NOT NULL
            """)
        if made.text(0, 0) == "t" { return }
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
            expires_at  timestamptz NOT NULL,
            -- The leader's relay port (host:port, '' until it listens), and the
            -- secret a standby's relay names itself with there: made once with
            -- the row, from PostgreSQL's random UUIDs (244 random bits).
            relay       text NOT NULL DEFAULT '',
            secret      text NOT NULL DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
        );
        CREATE OR REPLACE FUNCTION ghostd_fence(held bigint) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM 1 FROM ghostd_lease WHERE id = 1 AND epoch = held FOR SHARE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'this ghostd node no longer holds the lease (epoch %): another node took over', held
                    USING ERRCODE = 'GH001';
            END IF;
        END $$;
        -- Every node's heartbeat (the leader's and the standbys'): one row per
        -- data folder, seen_at by PostgreSQL's clock.
        CREATE TABLE IF NOT EXISTS ghostd_nodes (
            folder   text PRIMARY KEY,
            node     text NOT NULL,
            role     text NOT NULL,
            seen_at  timestamptz NOT NULL
        );
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

    /// The `application_name` of a leader's store connection
    /// (`Store.fence`): how a takeover finds a frozen holder's session.
    public static func storeApplicationName(folder: String) -> String { "ghostd store \(folder)" }

    /// Takes the lease if it is free, lapsed or this folder's own: the new
    /// epoch, else nil (someone else holds it: `holder()` says who).
    ///
    /// A lease that is not takeable is seen without waiting for any lock (a
    /// standby's tries never queue behind the leader's turns). A lapsed one
    /// whose holder still has a transaction open on the row (frozen mid-turn:
    /// it holds the row for share) is not waited for (`FOR UPDATE NOWAIT`,
    /// which needs no timer): that holder's store session is ended
    /// (`pg_terminate_backend`, its transaction undone, nothing of it
    /// committed) and nil returned; the next try takes the lease.
    ///
    /// A standby records its heartbeat here too, at most once a second.
    public func take() throws -> Int? {
        let taken = try takeOnce()
        try? heartbeat()
        return taken
    }

    private func takeOnce() throws -> Int? {
        let db = try live()
        let seen = try db.query("SELECT expires_at < clock_timestamp() OR folder = $1, folder FROM ghostd_lease WHERE id = 1", [.text(folder)])
        if seen.count == 1, seen.text(0, 0) != "t" { return nil }
        let oldFolder = seen.count == 1 ? seen.text(0, 1) : nil
        try db.execute("BEGIN")
        do {
            // The row at once or not at all (no timer: a lapsed holder with a
            // transaction open on it is frozen, or late and deposed anyway).
            _ = try db.query("SELECT epoch FROM ghostd_lease WHERE id = 1 FOR UPDATE NOWAIT")
            let rows = try db.query("""
                INSERT INTO ghostd_lease(id, node, folder, address, epoch, expires_at)
                VALUES (1, $1, $2, $3, 1, clock_timestamp() + $4 * interval '1 millisecond')
                ON CONFLICT (id) DO UPDATE SET node = EXCLUDED.node, folder = EXCLUDED.folder,
                    address = EXCLUDED.address, relay = '', epoch = ghostd_lease.epoch + 1, expires_at = EXCLUDED.expires_at
                WHERE ghostd_lease.expires_at < clock_timestamp() OR ghostd_lease.folder = EXCLUDED.folder
                RETURNING epoch
                """, [.text(node), .text(folder), .text(address), .of(Int(seconds * 1000))])
            try db.execute("COMMIT")
            guard rows.count == 1, let taken = rows.int(0, 0) else { return nil }
            epoch = taken
            return taken
        } catch let failure as PostgresDatabase.Failure where failure.sqlState == "55P03" {
            try? db.execute("ROLLBACK")
            if let oldFolder, oldFolder != folder {
                _ = try db.query("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE application_name = $1 AND datname = current_database()
                    """, [.text(ClusterLease.storeApplicationName(folder: oldFolder))])
            }
            return nil
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
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

    /// Lets the lease lapse now (a clean stop), if this node still holds it;
    /// its heartbeat's row goes too (it is no longer alive).
    public func release() {
        guard let epoch else { return leave() }
        leave()
        _ = try? live().query("UPDATE ghostd_lease SET expires_at = clock_timestamp() - interval '1 second' WHERE id = 1 AND epoch = $1",
                              [.of(epoch)])
        self.epoch = nil
    }

    /// This node stops (a standby's clean stop, or the leader's in
    /// `release`): its heartbeat's row goes, so `nodes` counts it no more.
    public func leave() {
        _ = try? live().query("DELETE FROM ghostd_nodes WHERE folder = $1", [.text(folder)])
    }

    /// Who holds the lease now; nil if no node ever took it.
    public func holder() throws -> Holder? {
        try ClusterLease.holder(live())
    }

    private static func holder(_ db: PostgresDatabase) throws -> Holder? {
        let rows = try db.query("""
            SELECT node, address, epoch, extract(epoch FROM expires_at - clock_timestamp()), relay, secret FROM ghostd_lease WHERE id = 1
            """)
        guard rows.count == 1, let node = rows.text(0, 0), let address = rows.text(0, 1), let epoch = rows.int(0, 2),
              let relay = rows.text(0, 4), let secret = rows.text(0, 5) else { return nil }
        return Holder(node: node, address: address, epoch: epoch, relay: relay, secret: secret, remaining: rows.double(0, 3) ?? 0)
    }

    /// The holder says where it takes relayed connections (once its relay
    /// port listens): false if it no longer holds the lease.
    public func advertise(relay: String) throws -> Bool {
        guard let epoch else { return false }
        return try live().query("UPDATE ghostd_lease SET relay = $2 WHERE id = 1 AND epoch = $1", [.of(epoch), .text(relay)]).changed == 1
    }

    // MARK: Heartbeats

    /// Seconds between two heartbeats of a node, at least.
    public static let heartbeatSeconds = 1.0
    /// A node not seen for this long (seconds) is forgotten: its row is deleted by the leader.
    public static let forgetSeconds = 86_400
    /// Rows of forgotten nodes deleted at one heartbeat of the leader, at most.
    static let forgetBatch = 16

    /// Records that this node is alive, as the leader once it holds the
    /// lease, else as a standby; at most once a second (true if it wrote).
    @discardableResult
    public func heartbeat() throws -> Bool {
        try heartbeat(at: ClusterLease.monotonic())
    }

    /// `heartbeat` at monotonic time `now` (a test gives its own).
    func heartbeat(at now: Double) throws -> Bool {
        if let lastBeat, now - lastBeat < ClusterLease.heartbeatSeconds { return false }
        lastBeat = now
        _ = try live().query("""
            INSERT INTO ghostd_nodes(folder, node, role, seen_at) VALUES ($1, $2, $3, clock_timestamp())
            ON CONFLICT (folder) DO UPDATE SET node = EXCLUDED.node, role = EXCLUDED.role, seen_at = EXCLUDED.seen_at
            """, [.text(folder), .text(node), .text(epoch == nil ? "standby" : "leader")])
        return true
    }

    /// The nodes alive now (seen within two leases, by PostgreSQL's clock),
    /// this one included once it recorded a heartbeat; and, for the leader,
    /// the rows of nodes gone for `forgetSeconds` deleted, a few at a time.
    public func liveNodes() throws -> Int {
        let db = try live()
        if epoch != nil {
            _ = try db.query("""
                DELETE FROM ghostd_nodes WHERE folder IN (SELECT folder FROM ghostd_nodes
                    WHERE seen_at < clock_timestamp() - $1 * interval '1 second' LIMIT $2)
                """, [.of(ClusterLease.forgetSeconds), .of(ClusterLease.forgetBatch)])
        }
        let rows = try db.query("SELECT count(*) FROM ghostd_nodes WHERE seen_at >= clock_timestamp() - $1 * interval '1 millisecond'",
                                [.of(Int(seconds * 2000))])
        return rows.int(0, 0) ?? 0
    }

    /// Who holds the lease of the cluster on `conninfo`, read without making
    /// anything (`ghostd accounts`, OperatorRelay.swift): nil if no node
    /// ever took it.
    public static func peek(conninfo: String) throws -> Holder? {
        let db = try PostgresDatabase(conninfo)
        defer { db.close() }
        let made = try db.query("SELECT to_regclass('ghostd_lease') IS NOT NULL")
        guard made.text(0, 0) == "t" else { return nil }
        return try holder(db)
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func close() {
        db?.close()
        db = nil
    }
}

extension Store {
    /// From now on every transaction checks that this node still holds the
    /// lease at `epoch` (`ClusterLease`), and the store's connection is named
    /// after `folder` (`ClusterLease.storeApplicationName`), so that a
    /// takeover can end it if this node freezes mid-turn. SQLite has no fence.
    public func fence(epoch: Int, folder: String) throws {
        try db.postgres?.fence(epoch: epoch, applicationName: ClusterLease.storeApplicationName(folder: folder))
    }

    /// Whether a write failed because another node took the lease over: this
    /// node must stop serving (nothing it does can be stored any more).
    public var isFenced: Bool { db.postgres?.fenced ?? false }
}
