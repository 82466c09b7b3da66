import CSQLite
import Synchronization

/// A small wrapper over the system libsqlite3: a connection, prepared
/// statements cached by their SQL, and typed binding and reading.
public final class SQLiteDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public let message: String
        public var description: String { "sqlite error \(code): \(message)" }
        /// SQLite found the file damaged, or not a database at all.
        public var isCorruption: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
    }

    private var handle: OpaquePointer?
    private var cache: [String: Statement] = [:]
    /// The statements named by an `SQL` constant, by its slot.
    private var slots: [Statement?] = []

    /// Where `run` and `first` copy the text they bind, for SQLite to read
    /// it in place (`SQLITE_STATIC`): without it, SQLite allocated a copy
    /// of each text at each binding and freed it at the next (a game's
    /// start binds ten). Filled from the start
    /// at each such call; its bytes stay as they are until the next one,
    /// which binds every parameter again. Allocated once, never moved or
    /// grown (so a statement's binding never points outside it), freed after
    /// the statements are finalized; a text that does not fit is copied by
    /// SQLite as before.
    private let arena = UnsafeMutablePointer<CChar>.allocate(capacity: SQLiteDatabase.arenaSize)
    static let arenaSize = 16 * 1024
    private var arenaUsed = 0
    private var arenaFreed = false

    /// Room for `count` bytes in the arena, or nil if it is full.
    @inline(__always)
    func arenaSpace(_ count: Int) -> UnsafeMutablePointer<CChar>? {
        guard count <= SQLiteDatabase.arenaSize - arenaUsed else { return nil }
        defer { arenaUsed += count }
        return arena + arenaUsed
    }

    /// Process-wide settings, made once before the first connection opens:
    /// no memory statistics. With them on, SQLite takes a global mutex at
    /// every allocation and free (about 70 a letter); nothing here reads them.
    private static let configured: Bool = ghost_sqlite3_config_memstatus(0) == SQLITE_OK

    /// For tests: the bytes SQLite counts as in use; 0 while it keeps no statistics.
    static var countedMemory: Int64 { sqlite3_memory_used() }

    /// Opens `path`; with `create`, makes an empty database there if there is
    /// no file; `readOnly`: a reader that can never write it (`StoreReader`).
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws {
        _ = SQLiteDatabase.configured
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close(db)
            throw Failure(code: rc, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
        // The query planner's stability guarantee: a plan never depends on
        // the values bound to it. Without it, a statement whose bound value
        // SQLite compared with a partial index's condition (`net0 <> ?`
        // against `net0 <> ''`) or a LIKE pattern is marked to be prepared
        // again at every new binding: `activeGameCount(network:)` was parsed
        // and planned anew at every NEW and JOIN, the bulk of their work.
        // The statements that use partial indexes say their conditions in
        // literals (QueryPlanTests checks the plans).
        ghost_sqlite3_db_config_int(db, SQLITE_DBCONFIG_ENABLE_QPSG, 1)
    }

    deinit { close() }

    public func close() {
        for s in cache.values { s.finalize() }
        cache.removeAll()
        for case let s? in slots { s.finalize() }
        slots.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
        if !arenaFreed {
            arena.deallocate()
            arenaFreed = true
        }
    }

    func failure(_ rc: Int32) -> Failure {
        Failure(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw Failure(code: rc, message: message)
        }
    }

    /// For tests: when set, every statement run through `statement(_:)`
    /// (so every `run` and `query`) is appended here, as its SQL text.
    var statementLog: [String]?

    /// A prepared statement for `sql`, reset and cleared, cached for reuse.
    public func statement(_ sql: String) throws -> Statement {
        statementLog?.append(sql)
        if let s = cache[sql] {
            s.reset()
            return s
        }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw failure(rc) }
        let s = Statement(raw, db: self)
        cache[sql] = s
        return s
    }

    /// The statement of an `SQL` constant: prepared at its first use on this
    /// connection, then found by its slot (an array index; its text is not
    /// hashed). It is reset after every use, and each use binds every one of
    /// its parameters, so it is neither reset nor cleared here.
    @inline(__always)
    func prepared(_ sql: SQL) throws -> Statement {
        if statementLog != nil { statementLog?.append(sql.text) }
        if sql.slot < slots.count, let s = slots[sql.slot] { return s }
        return try prepareSlot(sql)
    }

    private func prepareSlot(_ sql: SQL) throws -> Statement {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql.text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw failure(rc) }
        let s = Statement(raw, db: self)
        if sql.slot >= slots.count { slots += Array(repeating: nil, count: sql.slot + 1 - slots.count) }
        slots[sql.slot] = s
        return s
    }

    /// Runs an `SQL` constant with its values bound in order (each as its
    /// own type: no array of values is built), returning nothing.
    public func run<each V: SQLBindable>(_ sql: SQL, _ values: repeat each V) throws {
        let s = try prepared(sql)
        defer { sqlite3_reset(s.raw) }
        arenaUsed = 0
        try bind(s, repeat each values)
        while try s.step() {}
    }

    /// Runs an `SQL` constant whose parameters `bindAll` binds (a statement
    /// of many rows), returning nothing.
    func run(_ sql: SQL, binding bindAll: (Statement) throws -> Void) throws {
        let s = try prepared(sql)
        defer { sqlite3_reset(s.raw) }
        arenaUsed = 0
        try bindAll(s)
        while try s.step() {}
    }

    /// Binds `values` to `s`'s parameters 1, 2, … in order, each as its own type.
    private func bind<each V: SQLBindable>(_ s: Statement, _ values: repeat each V) throws {
        var i: Int32 = 0
        for v in repeat each values {
            i += 1
            try v.bind(to: s, at: i)
        }
    }

    /// Runs an `SQL` constant and maps its first row, if any.
    public func first<T, each V: SQLBindable>(_ sql: SQL, _ values: repeat each V, row: (Statement) throws -> T) throws -> T? {
        let s = try prepared(sql)
        defer { sqlite3_reset(s.raw) }
        arenaUsed = 0
        try bind(s, repeat each values)
        return try s.step() ? row(s) : nil
    }

    /// Runs a statement with arguments, returning nothing.
    public func run(_ sql: String, _ args: SQLValue...) throws {
        let s = try statement(sql)
        try s.bind(args)
        while try s.step() {}
        s.reset()
    }

    /// Runs a statement with its arguments as an array, returning nothing.
    public func run(_ sql: String, arguments args: [SQLValue]) throws {
        let s = try statement(sql)
        try s.bind(args)
        while try s.step() {}
        s.reset()
    }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ args: SQLValue..., row: (Statement) throws -> T) throws -> [T] {
        try query(sql, arguments: args, row: row)
    }

    /// The same, with the arguments as an array.
    public func query<T>(_ sql: String, arguments args: [SQLValue], row: (Statement) throws -> T) throws -> [T] {
        let s = try statement(sql)
        try s.bind(args)
        var out: [T] = []
        while try s.step() { out.append(try row(s)) }
        s.reset()
        return out
    }

    /// For tests: how many times SQLite has prepared the cached statements
    /// again since they were first prepared (a schema change, or a plan that
    /// depended on a bound value). The loop's statements must never be.
    var reprepareCount: Int {
        cache.values.reduce(0) { $0 + Int(sqlite3_stmt_status($1.raw, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by statements that completed, since the connection opened.
    public var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
    /// Rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }
}

public enum SQLValue: Equatable, Sendable {
    case int(Int64)
    case text(String)
    case null
    /// A REAL (ratings).
    case real(Double)
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public static func of(_ v: Int) -> SQLValue { .int(Int64(v)) }
    public static func of(_ v: String?) -> SQLValue { v.map { .text($0) } ?? .null }
    public static func of(_ v: Int?) -> SQLValue { v.map { .int(Int64($0)) } ?? .null }
}

/// A statement's text with an identity of its own, to be kept in a static
/// constant: each connection prepares it once and finds it by `slot`.
public struct SQL: Sendable {
    public let text: String
    /// Its text in PostgreSQL's dialect, where the part that runs it says
    /// it (what `PostgresDialect` cannot translate); nil: translated.
    public let postgresText: String?
    let slot: Int
    private static let nextSlot = Atomic<Int>(0)

    public init(_ text: String, postgres: String? = nil) {
        self.text = text
        postgresText = postgres
        slot = SQL.nextSlot.add(1, ordering: .relaxed).oldValue
    }
}

/// A value that binds itself to a statement's parameter.
public protocol SQLBindable {
    func bind(to statement: Statement, at index: Int32) throws
    /// The value as PostgreSQL's statements take it (`StoreDB`).
    var sqlValue: SQLValue { get }
}

extension Int: SQLBindable {
    @inline(__always)
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
    public var sqlValue: SQLValue { .int(Int64(self)) }
}

extension String: SQLBindable {
    @inline(__always)
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public var sqlValue: SQLValue { .text(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    @inline(__always)
    public func bind(to statement: Statement, at index: Int32) throws {
        if let self { try self.bind(to: statement, at: index) } else { try statement.bindNull(at: index) }
    }
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

public final class Statement {
    fileprivate let raw: OpaquePointer
    private unowned let db: SQLiteDatabase
    // SQLITE_TRANSIENT: sqlite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ raw: OpaquePointer, db: SQLiteDatabase) {
        self.raw = raw
        self.db = db
    }

    func finalize() { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ args: [SQLValue]) throws {
        for (i, a) in args.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch a {
            case .int(let v): rc = sqlite3_bind_int64(raw, index, v)
            case .text(let v): rc = sqlite3_bind_text(raw, index, v, -1, Statement.transient)
            case .null: rc = sqlite3_bind_null(raw, index)
            case .real(let v): rc = sqlite3_bind_double(raw, index, v)
            }
            guard rc == SQLITE_OK else { throw db.failure(rc) }
        }
    }

    func bind(_ v: Int64, at index: Int32) throws {
        let rc = sqlite3_bind_int64(raw, index, v)
        guard rc == SQLITE_OK else { throw db.failure(rc) }
    }

    /// Binds text for `run` and `first`: copied into the connection's
    /// arena, which SQLite reads in place (SQLITE_STATIC), or, when it is
    /// full, copied by SQLite.
    func bind(_ v: String, at index: Int32) throws {
        var v = v
        // The bytes with their length (no strlen); "" is not a NULL pointer, which would bind NULL.
        let rc = v.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                if let place = db.arenaSpace(text.count) {
                    if let from = text.baseAddress { place.update(from: from, count: text.count) }
                    return sqlite3_bind_text(raw, index, place, Int32(text.count), nil)   // nil: SQLITE_STATIC
                }
                return sqlite3_bind_text(raw, index, text.baseAddress ?? Statement.empty, Int32(text.count), Statement.transient)
            }
        }
        guard rc == SQLITE_OK else { throw db.failure(rc) }
    }

    func bindNull(at index: Int32) throws {
        let rc = sqlite3_bind_null(raw, index)
        guard rc == SQLITE_OK else { throw db.failure(rc) }
    }

    nonisolated(unsafe) private static let empty: UnsafePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// Advances; true when a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(raw)
            throw db.failure(rc)
        }
    }

    /// The row's number of columns.
    public var columnCount: Int32 { sqlite3_column_count(raw) }

    /// The column's value as SQLite holds it (a BLOB, which the schema never
    /// stores, reads as text).
    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(raw, column) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(raw, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(raw, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column))
        }
    }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(raw, column)) }
    public func optionalInt(_ column: Int32) -> Int? {
        sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : int(column)
    }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }
    public func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(raw, column) else { return "" }
        return String(cString: p)
    }
    public func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : text(column)
    }
}
