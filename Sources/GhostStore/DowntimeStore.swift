/// The time the daemon was down (schema 15), so that an outage,
/// an upgrade or a restored backup never counts toward `--abandon-after`:
/// a game is untouched only for as long as a daemon ran without anyone
/// touching it.
///
/// The store keeps the last moment the daemon was known to run
/// (`running.alive_at`: its start, each sweep of untouched games, its clean
/// stop) and, for each start after a gap, an outage row: when it `resumed`
/// and the seconds it had been `down` in all by then. The daemon's running
/// time at a wall time t is `t - down(t)`; it stands still during an outage.
/// `runningCutoff` turns "ran N seconds since" back into a wall time, so the
/// sweep keeps its one index range over `games.last_active`. Every call is
/// one or two primary-key look-ups, or a walk back over the outages of the
/// last N seconds of running (one a restart). The server reaches it as
/// `Store.downtime`; it writes only inside `Store`'s transaction (`willWrite`).
public final class DowntimeStore {
    let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}

    init(db: StoreDB) {
        self.db = db
    }

    private static let aliveAt = SQL("SELECT alive_at FROM running WHERE id = 1")
    private static let markAlive = SQL("""
        INSERT INTO running(id, alive_at) VALUES (1, ?)
        ON CONFLICT(id) DO UPDATE SET alive_at = max(coalesce(alive_at, excluded.alive_at), excluded.alive_at)
        """, postgres: """
        INSERT INTO running(id, alive_at) VALUES (1, $1)
        ON CONFLICT(id) DO UPDATE SET alive_at = greatest(coalesce(running.alive_at, excluded.alive_at), excluded.alive_at)
        """)
    private static let newestDown = SQL("SELECT down FROM outages ORDER BY resumed DESC LIMIT 1")
    /// `INSERT OR REPLACE`: a start in the same second as a start whose
    /// outage row a failed turn kept, or a clock set back, keeps one row.
    private static let recordOutage = SQL("INSERT OR REPLACE INTO outages(resumed, down) VALUES (?, ?)", postgres: """
        INSERT INTO outages(resumed, down) VALUES ($1, $2) ON CONFLICT(resumed) DO UPDATE SET down = excluded.down
        """)
    /// The newest outage that ended at or before the running time given
    /// (`resumed - down` grows with `resumed`): a walk back from the newest.
    private static let downBefore = SQL("SELECT down FROM outages WHERE resumed - down <= ? ORDER BY resumed DESC LIMIT 1")

    /// The daemon starts at `now` (wall seconds): the time since it was last
    /// known to run is recorded as an outage, which `runningCutoff` leaves
    /// out. Returns that outage's seconds (0: none, a new database, or a
    /// clock set back). Written in the turn's transaction.
    @discardableResult
    public func recordStart(at now: Int) throws -> Int {
        let alive = try db.first(DowntimeStore.aliveAt) { $0.optionalInt(0) } ?? nil
        try willWrite()
        var gap = 0
        if let alive, now > alive {
            gap = now - alive
            let down = (try db.first(DowntimeStore.newestDown) { $0.int(0) }) ?? 0
            try db.run(DowntimeStore.recordOutage, now, down + gap)
        }
        try db.run(DowntimeStore.markAlive, now)
        return gap
    }

    /// The daemon is running at `now` (never moves the mark back): at most
    /// a minute apart (the sweep of untouched games), and at a clean stop. A
    /// crash loses at most the running time since the last mark, which then
    /// counts as down.
    public func markAlive(at now: Int) throws {
        try willWrite()
        try db.run(DowntimeStore.markAlive, now)
    }

    /// The wall time after which the daemon has run `seconds` by `now`
    /// (without its outages): `now - seconds` when it has run that long
    /// since its start, earlier after an outage. A game last touched before
    /// it has been untouched for at least `seconds` of the daemon's running time.
    public func runningCutoff(now: Int, seconds: Int) throws -> Int {
        let down = (try db.first(DowntimeStore.newestDown) { $0.int(0) }) ?? 0
        let target = now - down - seconds   // running time `seconds` ago
        let before = (try db.first(DowntimeStore.downBefore, target) { $0.int(0) }) ?? 0
        return target + before
    }

    /// The last moment the daemon was known to run; nil before its first start.
    public func aliveAt() throws -> Int? {
        (try db.first(DowntimeStore.aliveAt) { $0.optionalInt(0) }) ?? nil
    }
}
