#if canImport(Glibc)
import Glibc
#endif

/// The store's transactions (the store split by concern): one a turn,
/// opened lazily by the turn's first write and ended by `commit()` or
/// `rollback()`, and within it each command's writes made one unit.
///
/// Within a turn, each command's writes can be made one unit: between
/// `beginCommand()` and `endCommand()`, the first write takes a SAVEPOINT, so
/// `rollbackCommand()` undoes that command's writes and nothing else. A
/// command that writes nothing costs no SQL. A command begun without a
/// savepoint (a letter: it costs about as much as the letter's insert) is
/// still undone alone if its first write fails, as SQLite undoes a failed
/// statement; if a later one fails, the whole transaction is rolled back.
///
/// A turn of moves alone commits by appending them to the move journal
/// (MoveJournal.swift). The caches of the sub-stores (the score store's
/// counts, the seats of the games in progress, the game store's inserted
/// starts) are undone with the writes they follow. `Store` owns one over its
/// connection and answers for it; every sub-store's `willWrite` is `write()`.
final class Transactions {
    let db: StoreDB
    /// The boards' counts, undone with a command or a turn.
    private let scoreStore: ScoresStore
    /// Games and their moves: the seats of the games in progress, the starts
    /// inserted, and the move journal, undone with a command or a turn.
    private let gameStore: GamesStore
    /// The moves not yet in the database (the game store's).
    private var journal: MoveJournal { gameStore.journal }
    /// How the open transaction's COMMIT reaches the disk: `full` without
    /// `callerSyncs` waits for it.
    private let durability: Store.Durability
    /// Whether a commit is durable only once the caller has synced `walPath`.
    let callerSyncs: Bool
    /// The write-ahead log beside the database.
    private let walPath: String
    /// The WAL, opened when a fold must sync it itself (`commit()`).
    private var walFD: Int32 = -1

    /// Where the current command's entries start in the score store's journal.
    private var commandJournalStart = 0
    /// Where the current command's changes start in `activeSeats`' journal.
    private var commandSeatsStart = 0
    /// Where the current command's moves and starts begin in the move journal.
    private var commandMovesStart = MoveJournal.Mark(moves: 0, starts: 0)
    /// Where the current command's inserts of waiting starts begin.
    private var commandInsertedStart = 0
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

    /// Set when the open transaction was lost (see `Store.Failure.transactionLost`).
    private(set) var transactionLost = false
    /// What the last `commit()` wrote: the WAL (a transaction) or the move
    /// journal (moves alone), for the caller that syncs them (`callerSyncs`).
    private(set) var lastCommitWrote = Store.CommitWrote.nothing

    init(db: StoreDB, scoreStore: ScoresStore, gameStore: GamesStore,
         durability: Store.Durability, callerSyncs: Bool, walPath: String) {
        self.db = db
        self.scoreStore = scoreStore
        self.gameStore = gameStore
        self.durability = durability
        self.callerSyncs = callerSyncs
        self.walPath = walPath
    }

    /// Whether writes are waiting for `commit()`.
    var hasPendingWrites: Bool { db.isInTransaction || journal.hasTurnWrites }

    /// Opens the turn's transaction if none is open, and the command's
    /// savepoint at its first write: every write of every sub-store calls
    /// it first (their `willWrite`).
    func write() throws {
        if transactionLost { throw Store.Failure.transactionLost }
        if !db.isInTransaction { try db.begin() }
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

    /// Inserts moves (by default the journal's waiting ones) in a
    /// transaction of their own, and empties the journal's file once that
    /// is on disk.
    func foldAlone(_ insert: (() throws -> Void)? = nil) throws {
        try db.begin()
        do {
            if let insert { try insert() } else { try gameStore.fold() }
            try db.commit()
        } catch {
            db.rollback()
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

    /// Closes the WAL's file if `syncWAL` opened it (the store is closing).
    func closeWAL() {
        if walFD >= 0 { Glibc.close(walFD); walFD = -1 }
    }

    /// Commits the writes made since the last commit, if any. If that fails,
    /// every one of them is rolled back (nothing of the turn is stored) and
    /// the error is thrown; the store is then ready for the next turn.
    ///
    /// A turn that only made moves appends them to the journal's file; one
    /// with a transaction (or after which too many moves would wait) inserts
    /// every waiting move in it (MoveJournal.swift). With `callerSyncs`, the
    /// caller's sync of the WAL and the journal's file makes either durable.
    func commit() throws {
        inCommand = false
        commandSavepoint = false
        keptCommands = false
        lastCommitWrote = .nothing
        if transactionLost {
            rollback()
            throw Store.Failure.transactionLost
        }
        if !db.isInTransaction {
            guard journal.hasTurnWrites else { return }
            // On PostgreSQL the moves go into the database in one pipelined
            // transaction (one round trip): there is no journal's file.
            if journal.waiting <= MoveJournal.foldLimit && !db.isPostgres {
                do { try journal.writeTurn() } catch { rollback(); throw error }
                lastCommitWrote = .journal
                committedCaches()
                return
            }
            do { try db.begin() } catch { rollback(); throw error }
        }
        do {
            try gameStore.fold()
            try db.commit()
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
    func rollback() {
        db.rollback()
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
    func beginCommand(savepoint: Bool = true) {
        inCommand = true
        // On PostgreSQL a failed statement aborts the transaction: only a
        // savepoint undoes a command alone.
        commandUsesSavepoint = savepoint || db.isPostgres
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
    func endCommand() throws -> Bool {
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
    func rollbackCommand() -> Bool {
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
        db.rollback()
        gameStore.undoInserted(to: 0)
        if keptCommands { transactionLost = true }
        return !transactionLost
    }
}
