/// The store's connection to PostgreSQL (issue #48), as `StoreDB` drives
/// it: the store's statements (SQLite's dialect) translated once
/// (`PostgresDialect`) and prepared once per connection; a turn's
/// transaction pipelined.
///
/// How statements run:
/// - Outside a transaction, each one runs and is answered at once.
/// - In a transaction (from `BEGIN` to `COMMIT` or `ROLLBACK`), the
///   connection is in pipeline mode: a write is sent without waiting (an
///   `SQL` constant prepared once, a text parsed by the server each time);
///   a read, and `changes` (a caller that wants a write's count of rows),
///   end the batch with a sync and wait for every answer in it. A
///   failure anywhere in the batch is thrown there: PostgreSQL has then
///   aborted the transaction, as far as its last savepoint can undo.
///   `COMMIT` is sent with the batch it ends: a turn of moves alone is one
///   round trip.
/// - A lost connection is opened again at the next statement outside a
///   transaction; in one, the transaction is gone with it and every
///   statement fails until `ROLLBACK` ends it.
final class PostgresSession {
    let conninfo: String
    private var connection: PostgresDatabase?
    /// Each `SQL` constant's text in PostgreSQL's dialect, by its slot, and
    /// whether it is transaction control (sent as text, never prepared).
    private var translatedSlots: [Int: (text: String, control: Bool)] = [:]
    /// The statements prepared on the open connection, by their text in
    /// PostgreSQL's dialect: their names.
    private var names: [String: String] = [:]
    /// A transaction is open (BEGIN sent, and neither COMMIT nor ROLLBACK).
    private(set) var isInTransaction = false
    /// The rows the last statement answered changed (after a sync).
    private var lastChanges = 0
    /// The last statement sent in the batch waits for its answer.
    private var lastUnanswered = false
    /// For tests: every statement run, in SQLite's dialect, as `SQLiteDatabase.statementLog`.
    var statementLog: [String]?
    /// The cluster lease's epoch this node holds (`ClusterLease`): every
    /// transaction begins with `SELECT ghostd_fence(epoch)`. Nil: no fence.
    private(set) var fence: Int?
    /// Set on every connection once fenced: how a takeover finds it.
    private var applicationName: String?
    /// A statement failed because another node holds the lease now (`GH001`).
    private(set) var fenced = false

    init(_ conninfo: String) throws {
        self.conninfo = conninfo
        connection = try PostgresDatabase(conninfo)
    }

    var target: String { PostgresDatabase.redacted(conninfo) }

    /// The open connection, opened again if it was lost (outside a
    /// transaction: one lost with its connection fails until ROLLBACK).
    func live() throws -> PostgresDatabase {
        if let connection, connection.isConnected { return connection }
        if isInTransaction {
            throw PostgresDatabase.Failure(sqlState: "08006", message: "the connection to \(target) was lost with the transaction")
        }
        connection?.close()
        connection = nil
        names.removeAll()
        let fresh = try PostgresDatabase(conninfo)
        connection = fresh
        if let applicationName { try fresh.run("SELECT set_config('application_name', $1, false)", [.text(applicationName)]) }
        return fresh
    }

    /// Fences every transaction from now on with the lease's `epoch`, and
    /// names the connection (this one and every one opened again).
    func fence(epoch: Int, applicationName: String) throws {
        fence = epoch
        self.applicationName = applicationName
        try live().run("SELECT set_config('application_name', $1, false)", [.text(applicationName)])
    }

    /// Whether the server answers (connecting again if the connection was
    /// lost); ends a transaction the lost connection left behind.
    func ping() -> Bool {
        if isInTransaction, connection?.isConnected != true { isInTransaction = false }
        guard !isInTransaction, let db = try? live() else { return false }
        if (try? db.query("SELECT 1")) != nil { return true }
        db.close()
        return false
    }

    func close() {
        connection?.close()
        connection = nil
        names.removeAll()
        isInTransaction = false
    }

    /// `sql`'s text in PostgreSQL's dialect (translated once per constant),
    /// and whether it is transaction control.
    private func text(_ sql: SQL) throws -> (text: String, control: Bool) {
        if let done = translatedSlots[sql.slot] { return done }
        let text = try sql.postgresText ?? PostgresDialect.translate(sql.text)
        let done = (text, PostgresSession.isControl(text))
        translatedSlots[sql.slot] = done
        return done
    }

    /// Transaction control (BEGIN, SAVEPOINT, RELEASE, COMMIT, ROLLBACK):
    /// PostgreSQL prepares none of them, so they are sent as text.
    private static func isControl(_ text: String) -> Bool {
        let head = text.prefix(while: { !$0.isWhitespace }).uppercased()
        return ["BEGIN", "SAVEPOINT", "RELEASE", "COMMIT", "ROLLBACK", "END"].contains(head)
    }

    /// The name `text` is prepared under on `db`, preparing it the first time.
    private func prepared(_ text: String, on db: PostgresDatabase) throws -> String {
        if let name = names[text], db.isPrepared(name) { return name }
        // A name the connection forgot (its PREPARE was skipped) is used again:
        // a new one could be the next text's.
        let name = names[text] ?? "s\(names.count)"
        try db.prepare(name, text)
        names[text] = name
        return name
    }

    // MARK: Statements

    /// A hot write: in a transaction, sent without waiting.
    func send(_ sql: SQL, _ values: [SQLValue]) throws {
        statementLog?.append(sql.text)
        let db = try live()
        let (text, control) = try text(sql)
        if isInTransaction {
            if control {
                try db.send(text, values)
            } else {
                try db.send(prepared: try prepared(text, on: db), values)
            }
            lastUnanswered = true
        } else {
            lastChanges = try db.query(text, values).changed
        }
    }

    /// A statement whose rows (or count of changed rows) are wanted now.
    func fetch(_ sql: SQL, _ values: [SQLValue]) throws -> PostgresRows {
        statementLog?.append(sql.text)
        let (text, control) = try text(sql)
        return try fetch(text: text, values, prepare: !control)
    }

    /// The same for a statement given as text.
    func fetch(_ sqliteText: String, _ values: [SQLValue]) throws -> PostgresRows {
        statementLog?.append(sqliteText)
        return try fetch(text: try translated(sqliteText), values, prepare: false)
    }

    /// A write given as text: in a transaction, sent without waiting (as
    /// `send`; `changes` waits for its answer if a caller wants it), else run.
    func send(_ sqliteText: String, _ values: [SQLValue]) throws {
        statementLog?.append(sqliteText)
        let text = try translated(sqliteText)
        let db = try live()
        if isInTransaction {
            try db.send(text, values)
            lastUnanswered = true
        } else {
            lastChanges = try db.query(text, values).changed
        }
    }

    /// The texts given as text, translated: most are constants, so each is
    /// translated once; a bounded cache, as a few are made with values in them.
    private var translatedTexts: [String: String] = [:]
    static let translatedTextsLimit = 512

    private func translated(_ sqliteText: String) throws -> String {
        if let done = translatedTexts[sqliteText] { return done }
        let done = try PostgresDialect.translate(sqliteText)
        if translatedTexts.count >= PostgresSession.translatedTextsLimit { translatedTexts.removeAll(keepingCapacity: true) }
        translatedTexts[sqliteText] = done
        return done
    }

    private func fetch(text: String, _ values: [SQLValue], prepare: Bool) throws -> PostgresRows {
        let db = try live()
        guard isInTransaction else {
            let rows = try db.query(text, values)
            lastChanges = rows.changed
            return rows
        }
        if prepare {
            try db.send(prepared: try prepared(text, on: db), values)
        } else {
            try db.send(text, values)
        }
        let last = db.pendingCount - 1
        var answer: PostgresRows?
        try sync(db) { index, rows in if index == last { answer = rows } }
        lastChanges = answer?.changed ?? 0
        return answer ?? PostgresRows(nil)
    }

    /// Rows the last statement changed: waits for its answer if it has none yet.
    var changes: Int {
        get throws {
            if lastUnanswered, isInTransaction {
                let db = try live()
                let last = db.pendingCount - 1
                var changed = 0
                try sync(db) { index, rows in if index == last { changed = rows.changed } }
                lastChanges = changed
            }
            return lastChanges
        }
    }

    /// Ends the batch: every answer read; the first failure thrown.
    private func sync(_ db: PostgresDatabase, rows: ((Int, PostgresRows) -> Void)? = nil) throws {
        lastUnanswered = false
        do {
            try db.sync { index, result in
                rows?(index, result)
            }
        } catch let failure as PostgresDatabase.Failure where failure.isConnectionLost {
            isInTransaction = false   // gone with the connection
            connection?.close()
            throw failure
        } catch let failure as PostgresDatabase.Failure where failure.sqlState == ClusterLease.fencedState {
            fenced = true
            throw failure
        }
    }

    // MARK: Transactions

    /// Opens the turn's transaction: pipeline mode, and BEGIN sent.
    func begin() throws {
        let db = try live()
        guard !isInTransaction else { return }
        try db.beginPipeline()
        try db.send("BEGIN")
        isInTransaction = true
        lastUnanswered = true
        if let fence { try db.send("SELECT ghostd_fence($1)", [.of(fence)]) }
    }

    /// Sends COMMIT with the batch and waits for every answer: the turn is
    /// durable once this returns (`synchronous_commit` on).
    func commit() throws {
        guard isInTransaction else { return }
        let db = try live()
        try db.send("COMMIT")
        defer {
            isInTransaction = false
            try? db.endPipeline()
        }
        do {
            try sync(db)
        } catch {
            // A failed COMMIT (or statement before it) leaves the transaction
            // aborted: end it so the connection serves the next turn.
            if db.isConnected {
                try? db.send("ROLLBACK")
                try? db.sync()
            }
            throw error
        }
    }

    /// Ends the transaction, undoing it; nothing is thrown (a lost
    /// connection took it already).
    func rollback() {
        guard isInTransaction else { return }
        isInTransaction = false
        guard let db = connection, db.isConnected else { return }
        try? db.send("ROLLBACK")
        try? db.sync()
        try? db.endPipeline()
    }

    /// Runs statements given as text, at once (outside a transaction) or
    /// with the batch, waiting for the answers (in one).
    func execute(_ sqliteText: String) throws {
        statementLog?.append(sqliteText)
        let db = try live()
        if isInTransaction {
            try db.send(try PostgresDialect.translate(sqliteText))
            try sync(db)
        } else {
            try db.execute(try PostgresDialect.translate(sqliteText))
        }
    }
}
