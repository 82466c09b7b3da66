/// The store's one connection, to SQLite or to PostgreSQL (issue #48): what
/// every part of the store runs its statements through. Each part keeps one
/// text per statement, in SQLite's dialect; PostgreSQL's is made from it
/// (`PostgresDialect`), and a statement whose form differs says so where it
/// is written (`isPostgres`).
///
/// A concrete class over the two, so that SQLite's calls stay as
/// specialized and inlined as they were: one branch more each.
public final class StoreDB {
    enum Backend {
        case sqlite(SQLiteDatabase)
        case postgres(PostgresSession)
    }

    let backend: Backend

    init(sqlite: SQLiteDatabase) { backend = .sqlite(sqlite) }

    init(postgres: PostgresSession) { backend = .postgres(postgres) }

    /// Whether this is PostgreSQL's.
    var isPostgres: Bool {
        if case .postgres = backend { return true }
        return false
    }

    /// SQLite's connection, for what only SQLite has (its file, its pragmas,
    /// the move journal's checks); nil on PostgreSQL.
    var sqlite: SQLiteDatabase? {
        if case .sqlite(let db) = backend { return db }
        return nil
    }

    var postgres: PostgresSession? {
        if case .postgres(let session) = backend { return session }
        return nil
    }

    func close() {
        switch backend {
        case .sqlite(let db): db.close()
        case .postgres(let session): session.close()
        }
    }

    // MARK: Statements

    /// Runs an `SQL` constant with its values bound in order, returning nothing.
    @inline(__always)
    func run<each V: SQLBindable>(_ sql: SQL, _ values: repeat each V) throws {
        switch backend {
        case .sqlite(let db): try db.run(sql, repeat each values)
        case .postgres(let session): try session.send(sql, StoreDB.values(repeat each values))
        }
    }

    /// Runs an `SQL` constant whose parameters `bindAll` binds (a statement of many rows).
    func run(_ sql: SQL, binding bindAll: (inout Parameters) throws -> Void) throws {
        switch backend {
        case .sqlite(let db):
            try db.run(sql) { statement in
                var parameters = Parameters(statement: statement)
                try bindAll(&parameters)
            }
        case .postgres(let session):
            var parameters = Parameters(statement: nil)
            try bindAll(&parameters)
            try session.send(sql, parameters.values)
        }
    }

    /// Runs an `SQL` constant and maps its first row, if any.
    @inline(__always)
    func first<T, each V: SQLBindable>(_ sql: SQL, _ values: repeat each V, row: (Row) throws -> T) throws -> T? {
        switch backend {
        case .sqlite(let db): return try db.first(sql, repeat each values) { try row(Row(statement: $0)) }
        case .postgres(let session):
            let rows = try session.fetch(sql, StoreDB.values(repeat each values))
            return rows.count > 0 ? try row(Row(rows: rows, index: 0)) : nil
        }
    }

    /// Runs a statement given as text, with arguments, returning nothing.
    func run(_ sql: String, _ args: SQLValue...) throws {
        try run(sql, arguments: args)
    }

    func run(_ sql: String, arguments args: [SQLValue]) throws {
        switch backend {
        case .sqlite(let db): try db.run(sql, arguments: args)
        case .postgres(let session): try session.send(sql, args)
        }
    }

    /// Runs a query given as text and maps each row.
    func query<T>(_ sql: String, _ args: SQLValue..., row: (Row) throws -> T) throws -> [T] {
        try query(sql, arguments: args, row: row)
    }

    func query<T>(_ sql: String, arguments args: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        switch backend {
        case .sqlite(let db): return try db.query(sql, arguments: args) { try row(Row(statement: $0)) }
        case .postgres(let session):
            let rows = try session.fetch(sql, args)
            return try (0..<rows.count).map { try row(Row(rows: rows, index: $0)) }
        }
    }

    /// Runs statements without parameters, returning nothing.
    func execute(_ sql: String) throws {
        switch backend {
        case .sqlite(let db): try db.execute(sql)
        case .postgres(let session): try session.execute(sql)
        }
    }

    // MARK: Transactions

    /// Opens a transaction (on PostgreSQL: pipeline mode, BEGIN sent).
    func begin() throws {
        switch backend {
        case .sqlite(let db): try db.run(SQLs.begin)   // prepared once, not parsed every turn
        case .postgres(let session): try session.begin()
        }
    }

    /// Commits it (on PostgreSQL: COMMIT sent with the batch, every answer waited for).
    func commit() throws {
        switch backend {
        case .sqlite(let db): try db.run(SQLs.commit)
        case .postgres(let session): try session.commit()
        }
    }

    /// Rolls it back, if one is open; never throws.
    func rollback() {
        switch backend {
        case .sqlite(let db): if db.isInTransaction { try? db.run("ROLLBACK") }
        case .postgres(let session): session.rollback()
        }
    }

    var isInTransaction: Bool {
        switch backend {
        case .sqlite(let db): return db.isInTransaction
        case .postgres(let session): return session.isInTransaction
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed (on PostgreSQL, its
    /// answer is waited for).
    var changes: Int {
        get throws {
            switch backend {
            case .sqlite(let db): return db.changes
            case .postgres(let session): return try session.changes
            }
        }
    }

    /// Rows changed since the connection opened (SQLite's count; 0 on
    /// PostgreSQL, where every command that writes takes a savepoint).
    var totalChanges: Int {
        if case .sqlite(let db) = backend { return db.totalChanges }
        return 0
    }

    /// For tests: every statement run, as its text in SQLite's dialect.
    var statementLog: [String]? {
        get {
            switch backend {
            case .sqlite(let db): return db.statementLog
            case .postgres(let session): return session.statementLog
            }
        }
        set {
            switch backend {
            case .sqlite(let db): db.statementLog = newValue
            case .postgres(let session): session.statementLog = newValue
            }
        }
    }

    /// For tests: SQLite's count of statements prepared again (0 on PostgreSQL).
    var reprepareCount: Int { sqlite?.reprepareCount ?? 0 }

    @inline(__always)
    private static func values<each V: SQLBindable>(_ values: repeat each V) -> [SQLValue] {
        var out: [SQLValue] = []
        for v in repeat each values { out.append(v.sqlValue) }
        return out
    }
}

/// A statement's parameters as a part binds them one by one (a statement of
/// many rows): into SQLite's statement, or collected for PostgreSQL's.
struct Parameters {
    fileprivate let statement: Statement?
    fileprivate(set) var values: [SQLValue] = []

    fileprivate init(statement: Statement?) { self.statement = statement }

    /// Binds `value` at `index` (from 1, in order).
    @inline(__always)
    mutating func bind<V: SQLBindable>(_ value: V, at index: Int32) throws {
        if let statement {
            try value.bind(to: statement, at: index)
        } else {
            values.append(value.sqlValue)
        }
    }
}

/// A row of a statement's answer, from either backend.
public struct Row {
    private let statement: Statement?
    private let rows: PostgresRows?
    private let index: Int

    init(statement: Statement) {
        self.statement = statement
        rows = nil
        index = 0
    }

    init(rows: PostgresRows, index: Int) {
        statement = nil
        self.rows = rows
        self.index = index
    }

    public var columnCount: Int32 { statement?.columnCount ?? Int32(rows?.columnCount ?? 0) }

    public func int(_ column: Int32) -> Int {
        if let statement { return statement.int(column) }
        return rows?.int(index, Int(column)) ?? rows?.double(index, Int(column)).map { Int($0) } ?? 0
    }

    public func optionalInt(_ column: Int32) -> Int? {
        if let statement { return statement.optionalInt(column) }
        return rows?.isNull(index, Int(column)) == false ? int(column) : nil
    }

    public func double(_ column: Int32) -> Double {
        if let statement { return statement.double(column) }
        return rows?.double(index, Int(column)) ?? 0
    }

    public func text(_ column: Int32) -> String {
        if let statement { return statement.text(column) }
        return rows?.text(index, Int(column)) ?? ""
    }

    public func optionalText(_ column: Int32) -> String? {
        if let statement { return statement.optionalText(column) }
        return rows?.text(index, Int(column))
    }

    public func value(_ column: Int32) -> SQLValue {
        if let statement { return statement.value(column) }
        return rows?.value(index, Int(column)) ?? .null
    }
}
