#if canImport(Glibc)
import Glibc
#endif

/// ghostd's durable state in one SQLite database (WAL journal), and the
/// moves not yet in it in the move journal beside it (MoveJournal.swift).
///
/// Writes open a transaction lazily; the server calls `commit()` once per
/// event-loop turn, before it sends that turn's replies, so a reply never
/// confirms a change that is not on disk. A turn of moves alone commits by
/// appending them to the move journal. Within a turn, each command's writes
/// can be made one unit (`beginCommand()`, `endCommand()`,
/// `rollbackCommand()`): Transactions.swift.
///
/// `Store` is the facade the server talks to: it owns the connection and
/// answers for a type per concern, each over that connection (the
/// sub-stores, `Transactions`, `JournalRecovery`; `DatabaseFile` and
/// `Migrations` at open).
public final class Store {
    public static let fileName = "ghostd.sqlite3"

    /// How hard commits wait for the disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// fsync on every commit: survives power loss (the default).
        case full
        /// WAL with synchronous=NORMAL: survives a process crash; the last
        /// commits may be lost on power loss.
        case normal
    }

    /// The database: SQLite's file, or PostgreSQL's connection string without its password.
    public let path: String
    /// Whether a commit is durable only once the caller has synced `walPath`.
    public var callerSyncs: Bool { transactions.callerSyncs }
    /// The write-ahead log beside the database.
    public var walPath: String { path + "-wal" }
    /// The log of the moves not yet in the database, beside it (MoveJournal.swift).
    public var journalPath: String { path + "-moves" }
    /// The data folder: SQLite's file and its journal, or (PostgreSQL) the pidfile lock alone.
    public let directory: String
    /// Whether the state is in PostgreSQL (`init(postgres:directory:)`).
    public var isPostgres: Bool { db.isPostgres }
    let db: StoreDB
    /// The boards of wins, head-to-head records and best-games lists, with
    /// their statements and caches (ScoresStore.swift): the server calls it
    /// directly, but for a game's end (`finishGame`).
    public let scoreStore: ScoresStore
    /// Ratings and HISTORY, with their statements (RatingsStore.swift): the
    /// server calls it directly.
    public let ratingStore: RatingsStore
    /// Names, preferences and accounts, with their statements (NamesStore.swift).
    let nameStore: NamesStore
    /// Games and their moves, with their statements and the caps' counts (GamesStore.swift).
    let gameStore: GamesStore
    /// The daemon's running time and outages, left out of `--abandon-after`
    /// (DowntimeStore.swift): the server calls it directly.
    public let downtime: DowntimeStore
    /// Follows, blocks, reports and the operator's sanctions (SocialStore.swift):
    /// the server calls it directly.
    public let socialStore: SocialStore
    /// The moves not yet in the database (the game store's).
    var journal: MoveJournal { gameStore.journal }
    /// The turn's transaction and its commands' savepoints (Transactions.swift).
    let transactions: Transactions
    /// The move journal's file at open and close (JournalRecovery.swift); SQLite's alone.
    let journalRecovery: JournalRecovery?

    /// Failures that are not SQLite's own.
    public enum Failure: Error, CustomStringConvertible {
        /// SQLite rolled back the whole transaction after a failed statement:
        /// writes of earlier commands this turn are gone too. Writes are
        /// refused until `commit()` or `rollback()` ends the turn.
        case transactionLost
        /// The data folder (or one of its parents) could not be created.
        case cannotCreateDirectory(String, reason: String)
        public var description: String {
            switch self {
            case .transactionLost: return "the transaction was rolled back after a failed write"
            case .cannotCreateDirectory(let path, let reason): return "cannot create the folder \(path): \(reason)"
            }
        }
    }

    /// What opening the store took from a damaged journal (`salvageJournal`), if anything.
    public private(set) var salvaged: JournalSalvage?
    /// Set when the open transaction was lost (see `Failure.transactionLost`).
    public var transactionLost: Bool { transactions.transactionLost }

    /// Opens (creating if there is no file) the database in `directory`,
    /// checks it (throwing `Refusal` for an empty, damaged or newer file,
    /// untouched, or a move journal that is damaged, missing or another's:
    /// JournalRecovery.swift), and migrates it. `salvageJournal`: a damaged
    /// journal's intact lines are taken in and the file is kept aside
    /// (`ghostd journal salvage`).
    /// `maxPageCount` > 0 caps the database at that many pages of 4 KiB
    /// (`DatabaseFile.limitPageSize`, whatever the file's own page size;
    /// `PRAGMA max_page_count`, never below its current size): a write that
    /// needs more fails, as on a full disk.
    ///
    /// `syncedByCaller`: with `.full`, COMMIT does not wait for the disk
    /// (SQLite's synchronous=NORMAL); the caller promises to fdatasync the
    /// file at `walPath` before it treats a commit as done. Checkpoints still
    /// sync the WAL before copying it and the database after, so a WAL frame
    /// is only ever overwritten once its page is on disk in the database.
    ///
    /// `cacheKiB` > 0: SQLite's page cache holds up to that many KiB
    /// (`PRAGMA cache_size`) instead of its own 2 MiB. A bulk load wants it
    /// (`ghost-bench fixture`: its inserts into the indexes touch pages all
    /// over the file, each read again from the kernel with 2 MiB: 200,000
    /// names and games took 22 s instead of 29–38 s in a debug build with
    /// 64 MiB); a server, whose every command reads a bounded number of
    /// pages, does not.
    public init(directory: String, durability: Durability = .full, maxPageCount: Int = 0,
                syncedByCaller: Bool = false, salvageJournal: Bool = false, cacheKiB: Int = 0) throws {
        let callerSyncs = durability == .full && syncedByCaller
        try DatabaseFile.makeDirectories(directory)
        self.directory = directory.isEmpty ? "." : (directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory)
        path = directory.hasSuffix("/") ? directory + Store.fileName : directory + "/" + Store.fileName
        let file = try DatabaseFile.openChecked(path: path)   // refuses a damaged or newer database
        db = StoreDB(sqlite: file)
        scoreStore = ScoresStore(db: db)
        gameStore = GamesStore(db: db, journal: try MoveJournal(path: path + "-moves", folder: directory))
        nameStore = NamesStore(db: db)
        ratingStore = RatingsStore(db: db)
        downtime = DowntimeStore(db: db)
        socialStore = SocialStore(db: db)
        transactions = Transactions(db: db, scoreStore: scoreStore, gameStore: gameStore,
                                    durability: durability, callerSyncs: callerSyncs, walPath: path + "-wal")
        let recovery = JournalRecovery(db: file, gameStore: gameStore, transactions: transactions)
        journalRecovery = recovery
        try file.execute("PRAGMA journal_mode=WAL")
        try file.execute("PRAGMA synchronous=\(durability == .full && !callerSyncs ? "FULL" : "NORMAL")")
        if cacheKiB > 0 { try file.execute("PRAGMA cache_size=-\(cacheKiB)") }
        try file.execute("PRAGMA foreign_keys=ON")
        try Migrations.migrate(file)   // Store+Schema.swift
        if maxPageCount > 0 { try DatabaseFile.limit(file, maxPageCount: maxPageCount) }
        salvaged = try recovery.open(salvage: salvageJournal)
        try finishOpening()
    }

    /// Opens the state in PostgreSQL at `conninfo` (a libpq URL or
    /// `key=value` list; issue #48): made there if the database holds none,
    /// refused if it is from a newer ghostd (`PostgresSchema`). `directory`
    /// holds the pidfile lock alone. Every commit waits for PostgreSQL's
    /// (`synchronous_commit` on); moves wait in memory until their turn's
    /// commit, which inserts them in the same pipelined transaction.
    public init(postgres conninfo: String, directory: String) throws {
        try DatabaseFile.makeDirectories(directory)
        self.directory = directory.isEmpty ? "." : directory
        path = PostgresDatabase.redacted(conninfo)
        let session = try PostgresSession(conninfo)
        try PostgresSchema.prepare(try session.live())
        db = StoreDB(postgres: session)
        scoreStore = ScoresStore(db: db)
        gameStore = GamesStore(db: db, journal: MoveJournal(memoryOnly: ()))
        nameStore = NamesStore(db: db)
        ratingStore = RatingsStore(db: db)
        downtime = DowntimeStore(db: db)
        socialStore = SocialStore(db: db)
        transactions = Transactions(db: db, scoreStore: scoreStore, gameStore: gameStore,
                                    durability: .full, callerSyncs: false, walPath: "")
        journalRecovery = nil
        try finishOpening()
    }

    /// What both backends do last at open: the caches read, the sub-stores wired to the transactions.
    private func finishOpening() throws {
        try scoreStore.loadWinCounts()
        try gameStore.loadActiveSeats()
        let write = { [unowned transactions] in try transactions.write() }
        scoreStore.willWrite = write
        gameStore.willWrite = write
        nameStore.willWrite = write
        ratingStore.willWrite = write
        downtime.willWrite = write
        socialStore.willWrite = write
        nameStore.nameStored = { [unowned self] key in self.scoreStore.forget(key) }
    }

    /// The database's page size in bytes (`DatabaseFile.pageSize`).
    public var pageSize: Int { db.sqlite.map { DatabaseFile.pageSize($0) } ?? DatabaseFile.limitPageSize }

    /// The database's size, and the most it may have, in pages of 4 KiB
    /// (`--max-db-pages`' unit), rounded up (`DatabaseFile.pageCounts`).
    /// (0, 0) on PostgreSQL, whose size is its own to watch.
    public func pageCounts() throws -> (pages: Int, max: Int) {
        guard let file = db.sqlite else { return (0, 0) }
        return try DatabaseFile.pageCounts(file)
    }

    /// Closes the database, with every game and move in it: the journal's
    /// waiting starts and moves are folded in and its file emptied (also when
    /// all it held was folded already), so that a stopped daemon leaves one
    /// complete file (backups, the sqlite3 CLI).
    public func close() {
        if db.isPostgres {
            rollback()   // any half-made turn: on PostgreSQL every commit took its moves in
            db.close()
            return
        }
        if journal.waiting > 0 && !db.isInTransaction {
            rollback()   // any half-made turn; the journal's file keeps its moves whatever happens next
            if (try? transactions.foldAlone()) == nil { journal.rollbackTurn() }
        } else if journal.size > journal.headerBytes && !db.isInTransaction && (try? transactions.syncWAL()) != nil {
            journal.folded(emptying: .always)   // lines folded already: every one is in the database, on disk
        }
        journalRecovery?.markClean()
        transactions.closeWAL()
        db.close()
    }

    /// On PostgreSQL, after a lost connection: tries to connect again (each
    /// tenth of a second) until a statement is answered or `seconds` have
    /// passed; true once it is back. SQLite's store is always there.
    public func reconnect(within seconds: Double) -> Bool {
        guard let session = db.postgres else { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
        while true {
            if session.ping() { return true }
            clock_gettime(CLOCK_MONOTONIC, &now)
            if Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 >= deadline { return false }
            usleep(100_000)
        }
    }

    /// What the journal in `directory` holds, against the database there,
    /// without changing either (`ghostd journal check`). Best run while
    /// ghostd is stopped: a running one appends to it.
    public static func checkJournal(directory: String) throws -> JournalReport {
        try JournalRecovery.check(directory: directory)
    }

    // MARK: Schema (the migrations: Migrations, in Store+Schema.swift)

    public var userVersion: Int {
        if let session = db.postgres { return (try? session.live()).flatMap { try? PostgresSchema.version($0) } ?? 0 }
        return (try? db.query("PRAGMA user_version") { $0.int(0) }.first) ?? 0
    }

    // MARK: Transactions (Transactions.swift)

    /// What the last `commit()` wrote: the WAL (a transaction) or the move
    /// journal (moves alone), for the caller that syncs them (`callerSyncs`).
    public enum CommitWrote: Sendable { case nothing, database, journal }
    public var lastCommitWrote: CommitWrote { transactions.lastCommitWrote }

    /// Whether writes are waiting for `commit()`.
    public var hasPendingWrites: Bool { transactions.hasPendingWrites }

    /// Commits the turn's writes: to the database, or, for moves alone, to
    /// the move journal. If that fails, every one of them is rolled back and
    /// the error is thrown (`Transactions.commit`).
    public func commit() throws { try transactions.commit() }

    /// Rolls back every write since the last commit.
    public func rollback() { transactions.rollback() }

    /// Starts a command: its writes, if any, can be undone alone
    /// (`Transactions.beginCommand`).
    public func beginCommand(savepoint: Bool = true) { transactions.beginCommand(savepoint: savepoint) }

    /// Keeps the command's writes; returns whether it wrote anything.
    @discardableResult
    public func endCommand() throws -> Bool { try transactions.endCommand() }

    /// Undoes the command's writes and ends it; false if the whole turn was
    /// lost with them (`transactionLost`: `Transactions.rollbackCommand`).
    @discardableResult
    public func rollbackCommand() -> Bool { transactions.rollbackCommand() }
}
