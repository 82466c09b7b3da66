#if canImport(Glibc)
import Glibc
#endif

/// ghostd's durable state in one SQLite database (WAL journal), and the
/// moves not yet in it in the move journal beside it (MoveJournal.swift).
///
/// Writes open a transaction lazily; the server calls `commit()` once per
/// event-loop turn, before it sends that turn's replies, so a reply never
/// confirms a change that is not on disk. A turn of moves alone commits by
/// appending them to the move journal.
///
/// Within a turn, each command's writes can be made one unit: between
/// `beginCommand()` and `endCommand()`, the first write takes a SAVEPOINT, so
/// `rollbackCommand()` undoes that command's writes and nothing else. A
/// command that writes nothing costs no SQL. A command begun without a
/// savepoint (a letter: it costs about as much as the letter's insert) is
/// still undone alone if its first write fails, as SQLite undoes a failed
/// statement; if a later one fails, the whole transaction is rolled back.
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

    public let path: String
    /// Whether a commit is durable only once the caller has synced `walPath`.
    public let callerSyncs: Bool
    /// The write-ahead log beside the database.
    public var walPath: String { path + "-wal" }
    /// The log of the moves not yet in the database, beside it (MoveJournal.swift).
    public var journalPath: String { path + "-moves" }
    /// The folder that holds both.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
    let db: SQLiteDatabase
    /// The boards of wins, head-to-head records and best-games lists, with
    /// their statements and caches (ScoresStore.swift).
    let scoreStore: ScoresStore
    /// Where the current command's entries start in the score store's journal.
    private var commandJournalStart = 0
    /// Ratings, rated games and HISTORY, with their statements (RatingsStore.swift).
    let ratingStore: RatingsStore
    /// Names, preferences and accounts, with their statements (NamesStore.swift).
    let nameStore: NamesStore
    /// Games and their moves, with their statements and the caps' counts (GamesStore.swift).
    let gameStore: GamesStore
    /// The daemon's outages, left out of `--abandon-after` (DowntimeStore.swift).
    let downtime: DowntimeStore
    /// The seats of every game in progress (the game store's; for tests).
    /// Changed only as `gameStore.activeSeats`, in place: through a computed
    /// property, each change copied the struct and its journal (at every commit).
    var activeSeats: ActiveSeats { gameStore.activeSeats }
    /// Where the current command's changes start in `activeSeats`' journal.
    private var commandSeatsStart = 0
    /// Where the current command's moves and starts begin in the move journal.
    private var commandMovesStart = MoveJournal.Mark(moves: 0, starts: 0)
    /// Where the current command's inserts of waiting starts begin.
    private var commandInsertedStart = 0
    /// The moves not yet in the database (the game store's).
    var journal: MoveJournal { gameStore.journal }
    /// How the open transaction's COMMIT reaches the disk: `full` without
    /// `callerSyncs` waits for it.
    private let durability: Durability
    /// The WAL, opened when a fold must sync it itself (`commit()`).
    private var walFD: Int32 = -1

    /// Between beginCommand() and endCommand()/rollbackCommand().
    private var inCommand = false
    /// The current command takes a savepoint at its first write.
    private var commandUsesSavepoint = true
    /// The current command has written (called `write()`).
    private var commandWrote = false
    /// The current command has taken its savepoint.
    private var commandSavepoint = false
    /// `totalChanges` before the current command's first write.
    private var changesBeforeCommand = 0
    /// A command that wrote has ended (kept) in the open transaction.
    private var keptCommands = false

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
    public private(set) var transactionLost = false

    /// Opens (creating if there is no file) the database in `directory`,
    /// checks it (throwing `Refusal` for an empty, damaged or newer file,
    /// untouched, or a move journal that is damaged, missing or another's:
    /// Store+Journal.swift), and migrates it. `salvageJournal`: a damaged
    /// journal's intact lines are taken in and the file is kept aside
    /// (`ghostd journal salvage`).
    /// `maxPageCount` > 0 caps the database at that many pages of 4 KiB
    /// (`Store.limitPageSize`, whatever the file's own page size; `PRAGMA
    /// max_page_count`, never below its current size): a write that needs
    /// more fails, as on a full disk.
    ///
    /// `syncedByCaller`: with `.full`, COMMIT does not wait for the disk
    /// (SQLite's synchronous=NORMAL); the caller promises to fdatasync the
    /// file at `walPath` before it treats a commit as done. Checkpoints still
    /// sync the WAL before copying it and the database after, so a WAL frame
    /// is only ever overwritten once its page is on disk in the database.
    public init(directory: String, durability: Durability = .full, maxPageCount: Int = 0,
                syncedByCaller: Bool = false, salvageJournal: Bool = false) throws {
        callerSyncs = durability == .full && syncedByCaller
        self.durability = durability
        try DatabaseFile.makeDirectories(directory)
        path = directory.hasSuffix("/") ? directory + Store.fileName : directory + "/" + Store.fileName
        db = try DatabaseFile.openChecked(path: path)   // refuses a damaged or newer database
        scoreStore = ScoresStore(db: db)
        gameStore = GamesStore(db: db, journal: try MoveJournal(path: path + "-moves", folder: directory))
        nameStore = NamesStore(db: db)
        ratingStore = RatingsStore(db: db)
        downtime = DowntimeStore(db: db)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=\(durability == .full && !callerSyncs ? "FULL" : "NORMAL")")
        try db.execute("PRAGMA foreign_keys=ON")
        try Migrations.migrate(db)   // Store+Schema.swift
        if maxPageCount > 0 {
            let bytes = maxPageCount * Store.limitPageSize
            try db.execute("PRAGMA max_page_count = \(min((bytes + pageSize - 1) / pageSize, 4_294_967_294))")
        }
        salvaged = try openJournal(salvage: salvageJournal)   // Store+Journal.swift
        try scoreStore.loadWinCounts()
        try gameStore.loadActiveSeats()
        scoreStore.willWrite = { [unowned self] in try self.write() }
        gameStore.willWrite = { [unowned self] in try self.write() }
        nameStore.willWrite = { [unowned self] in try self.write() }
        ratingStore.willWrite = { [unowned self] in try self.write() }
        downtime.willWrite = { [unowned self] in try self.write() }
        nameStore.nameStored = { [unowned self] key in self.scoreStore.forget(key) }
    }

    /// The database's page size in bytes (1,024 for a database made by
    /// this version, 4,096 for an older one: `DatabaseFile.newPageSize`).
    public var pageSize: Int {
        let size = (try? db.query("PRAGMA page_size") { $0.int(0) }.first) ?? nil
        return max(512, size ?? Store.limitPageSize)
    }

    /// The database's size, and the most it may have (`PRAGMA page_count`,
    /// `max_page_count`), both in pages of 4 KiB (`Store.limitPageSize`,
    /// the unit of `maxPageCount` and `--max-db-pages`), rounded up.
    public func pageCounts() throws -> (pages: Int, max: Int) {
        let pages = try db.query("PRAGMA page_count") { $0.int(0) }.first ?? 0
        let max = try db.query("PRAGMA max_page_count") { $0.int(0) }.first ?? 0
        let size = pageSize, unit = Store.limitPageSize
        return ((pages * size + unit - 1) / unit, (max * size + unit - 1) / unit)
    }

    /// Closes the database, with every game and move in it: the journal's
    /// waiting starts and moves are folded in and its file emptied (also when
    /// all it held was folded already), so that a stopped daemon leaves one
    /// complete file (backups, the sqlite3 CLI).
    public func close() {
        if journal.waiting > 0 && !db.isInTransaction {
            rollback()   // any half-made turn; the journal's file keeps its moves whatever happens next
            if (try? foldAlone()) == nil { journal.rollbackTurn() }
        } else if journal.size > journal.headerBytes && !db.isInTransaction && (try? syncWAL()) != nil {
            journal.folded(emptying: .always)   // lines folded already: every one is in the database, on disk
        }
        markJournalClean()   // Store+Journal.swift
        if walFD >= 0 { Glibc.close(walFD); walFD = -1 }
        db.close()
    }

    /// Inserts moves (by default the journal's waiting ones) in a
    /// transaction of their own, and empties the journal's file once that
    /// is on disk.
    func foldAlone(_ insert: (() throws -> Void)? = nil) throws {
        try db.run(SQLs.begin)
        do {
            if let insert { try insert() } else { try gameStore.fold() }
            try db.run(SQLs.commit)
        } catch {
            try? db.run("ROLLBACK")
            gameStore.undoInserted(to: 0)
            throw error
        }
        gameStore.undoInserted(to: 0)
        try syncWAL()
        journal.folded(emptying: .always)
    }

    /// Makes every commit so far durable, where a COMMIT does not wait for
    /// the disk by itself (`normal`, or the caller's syncer): the journal's
    /// file may be emptied only then.
    func syncWAL() throws {
        guard durability == .full && callerSyncs else { return }
        if walFD < 0 {
            walFD = open(walPath, O_RDWR | O_CLOEXEC)
            guard walFD >= 0 else { throw MoveJournal.Failure.io("open", path: walPath, errno: errno) }
        }
        guard fdatasync(walFD) == 0 else { throw MoveJournal.Failure.io("sync", path: walPath, errno: errno) }
    }

    // MARK: Schema (the migrations: Migrations, in Store+Schema.swift)

    public var userVersion: Int {
        (try? db.query("PRAGMA user_version") { $0.int(0) }.first) ?? 0
    }

    // MARK: Transactions

    func write() throws {
        if transactionLost { throw Failure.transactionLost }
        if !db.isInTransaction { try db.run(SQLs.begin) }   // prepared once, not parsed every turn
        if !inCommand {
            keptCommands = true
        } else if !commandWrote {
            commandWrote = true
            changesBeforeCommand = db.totalChanges
            if commandUsesSavepoint {
                try db.run(SQLs.savepoint)   // prepared once too
                commandSavepoint = true
            }
        }
    }

    /// What the last `commit()` wrote: the WAL (a transaction) or the move
    /// journal (moves alone), for the caller that syncs them (`callerSyncs`).
    public enum CommitWrote: Sendable { case nothing, database, journal }
    public private(set) var lastCommitWrote = CommitWrote.nothing

    /// Whether writes are waiting for `commit()`.
    public var hasPendingWrites: Bool { db.isInTransaction || journal.hasTurnWrites }

    /// Commits the writes made since the last commit, if any. If that fails,
    /// every one of them is rolled back (nothing of the turn is stored) and
    /// the error is thrown; the store is then ready for the next turn.
    ///
    /// A turn that only made moves appends them to the journal's file; one
    /// with a transaction (or after which too many moves would wait) inserts
    /// every waiting move in it (MoveJournal.swift). With `callerSyncs`, the
    /// caller's sync of the WAL and the journal's file makes either durable.
    public func commit() throws {
        inCommand = false
        commandSavepoint = false
        keptCommands = false
        lastCommitWrote = .nothing
        if transactionLost {
            rollback()
            throw Failure.transactionLost
        }
        if !db.isInTransaction {
            guard journal.hasTurnWrites else { return }
            if journal.waiting <= MoveJournal.foldLimit {
                do { try journal.writeTurn() } catch { rollback(); throw error }
                lastCommitWrote = .journal
                committedCaches()
                return
            }
            do { try db.run(SQLs.begin) } catch { rollback(); throw error }
        }
        do {
            try gameStore.fold()
            try db.run(SQLs.commit)
        } catch {
            rollback()
            throw error
        }
        // The file may be emptied once this commit is on disk: at once
        // where COMMIT waited for it, else after a sync of the WAL here
        // (`syncWAL`; rare: once the file passes `truncateAt`).
        if journal.wouldTruncate && (try? syncWAL()) == nil {
            journal.folded(emptying: .never)   // kept whole: it is emptied at a later fold or at open
        } else {
            journal.folded()
        }
        gameStore.undoInserted(to: 0)   // every start is in the table now
        lastCommitWrote = .database
        committedCaches()
    }

    /// Rolls back every write since the last commit.
    public func rollback() {
        if db.isInTransaction { try? db.run("ROLLBACK") }
        inCommand = false
        commandSavepoint = false
        keptCommands = false
        transactionLost = false
        scoreStore.undo(from: 0)
        gameStore.activeSeats.undo(from: 0)
        gameStore.forgetNextID()
        gameStore.undoInserted(to: 0)
        journal.rollbackTurn()
        committedCaches()
    }

    /// Nothing written so far can be rolled back any more.
    private func committedCaches() {
        scoreStore.committed()
        commandJournalStart = 0
        gameStore.activeSeats.committed()
        commandSeatsStart = 0
        commandMovesStart = journal.mark
        commandInsertedStart = 0
    }

    // MARK: Commands

    /// Starts a command: its writes, if any, can be undone alone. Costs no
    /// SQL. Without `savepoint`, only a failure of its first write statement
    /// is undone alone (see `rollbackCommand()`).
    public func beginCommand(savepoint: Bool = true) {
        inCommand = true
        commandUsesSavepoint = savepoint
        commandWrote = false
        commandSavepoint = false
        commandJournalStart = scoreStore.journalMark
        commandSeatsStart = gameStore.activeSeats.journalMark
        commandMovesStart = journal.mark
        commandInsertedStart = gameStore.insertedMark
    }

    /// Keeps the command's writes (in the turn's transaction, for `commit()`).
    /// Returns whether the command wrote anything.
    @discardableResult
    public func endCommand() throws -> Bool {
        if commandSavepoint {
            try db.run(SQLs.release)   // on failure the command is still open, for rollbackCommand()
            commandSavepoint = false
        }
        inCommand = false
        let moved = journal.mark != commandMovesStart
        guard commandWrote else { return moved }
        commandWrote = false
        keptCommands = true
        return true
    }

    /// Undoes the command's writes and ends it. Returns false if that was not
    /// possible without losing the writes of earlier commands of this turn
    /// (SQLite rolled the whole transaction back): `transactionLost` is then
    /// set, writes are refused, and the turn must end with `commit()` (which
    /// throws) or `rollback()`.
    @discardableResult
    public func rollbackCommand() -> Bool {
        inCommand = false
        // Whatever happens below, this command's writes are undone (alone, or
        // with the whole turn: then rollback() undoes the rest).
        scoreStore.undo(from: commandJournalStart)
        gameStore.activeSeats.undo(from: commandSeatsStart)
        gameStore.forgetNextID()
        journal.undo(to: commandMovesStart)
        guard commandWrote else { return !transactionLost }
        commandWrote = false
        let savepoint = commandSavepoint
        commandSavepoint = false
        guard db.isInTransaction else {
            // The failed statement took the whole transaction with it: that
            // is this command alone unless an earlier one wrote in it.
            gameStore.undoInserted(to: 0)
            if keptCommands { transactionLost = true }
            return !transactionLost
        }
        if savepoint {
            do {
                try db.run("ROLLBACK TO command")
                try db.run("RELEASE command")
                gameStore.undoInserted(to: commandInsertedStart)
                return true
            } catch {}
        } else if db.totalChanges == changesBeforeCommand {
            // SQLite undid the failed statement, and nothing before it changed.
            return true
        }
        // This command's earlier writes cannot be undone alone.
        try? db.run("ROLLBACK")
        gameStore.undoInserted(to: 0)
        if keptCommands { transactionLost = true }
        return !transactionLost
    }
}
