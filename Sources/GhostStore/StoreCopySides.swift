#if canImport(Glibc)
import Glibc
#endif

/// A data folder's side of a copy (`StoreCopy`).
final class SQLiteCopySide: StoreCopySide {
    private let folder: String
    private let path: String
    private let creating: Bool
    private var db: SQLiteDatabase?

    init(folder: String, creating: Bool) throws {
        self.folder = folder
        path = (folder.hasSuffix("/") ? folder : folder + "/") + Store.fileName
        self.creating = creating
        let exists = access(path, F_OK) == 0
        if creating {
            guard !exists else { throw StoreCopy.Failure.targetHoldsState(path) }
        } else {
            guard exists else { throw StoreCopy.Failure.sourceHoldsNoState("no \(path)") }
            // As a ghostd's start and stop leave it: migrated, and every
            // move of the journal folded into the database file.
            try Store(directory: folder).close()
            db = try SQLiteDatabase(path: path, create: false, readOnly: true)
        }
    }

    private func live() throws -> SQLiteDatabase {
        guard let db else { throw StoreCopy.Failure.sourceHoldsNoState("\(path) is not open") }
        return db
    }

    func columns(_ table: String) throws -> [String] {
        try live().query("SELECT name FROM pragma_table_info(?) ORDER BY cid", .text(table)) { $0.text(0) }
    }

    func rows(_ table: String, columns: [String], each: ([SQLValue]) throws -> Void) throws {
        let count = Int32(columns.count)
        _ = try live().query("SELECT \(Self.quoted(columns)) FROM \(table)", arguments: []) { row in
            try each((0..<count).map { row.value($0) })
        }
    }

    func makeEmptyState() throws -> Bool {
        try Store(directory: folder).close()   // a new database at this ghostd's schema, and its journal
        db = try SQLiteDatabase(path: path, create: false)
        return true
    }

    func begin() throws { try live().execute("BEGIN IMMEDIATE") }

    func clear(_ table: String) throws { try live().execute("DELETE FROM \(table)") }

    func insert(_ table: String, columns: [String], rows: (_ emit: ([SQLValue]) throws -> Void) throws -> Void) throws {
        let db = try live()
        let sql = "INSERT INTO \(table)(\(Self.quoted(columns))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try rows { values in try db.run(sql, arguments: values) }
    }

    func finishCopy() throws {}

    func commit() throws { try live().execute("COMMIT") }

    func abandon(removeMade: Bool) {
        try? db?.execute("ROLLBACK")
        db?.close()
        db = nil
        if removeMade {
            for suffix in ["", "-wal", "-shm", "-moves"] { unlink(path + suffix) }
        }
    }

    func close() {
        db?.close()
        db = nil
    }
}

/// A PostgreSQL database's side of a copy (`StoreCopy`).
final class PostgresCopySide: StoreCopySide {
    private let db: PostgresDatabase
    private var needsSchema = false
    /// Rows read from a table at a time (a cursor's FETCH).
    static let batch = 5000

    init(conninfo: String, creating: Bool) throws {
        db = try PostgresDatabase(conninfo)
        if !creating {
            guard let version = try PostgresSchema.version(db) else {
                throw StoreCopy.Failure.sourceHoldsNoState("\(db.target) has no ghostd_schema table")
            }
            guard version == PostgresSchema.currentVersion else {
                throw StoreCopy.Failure.versionMismatch(db.target, found: version, expected: PostgresSchema.currentVersion)
            }
        }
    }

    func columns(_ table: String) throws -> [String] {
        let rows = try db.query("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """, [.text(table)])
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }

    func rows(_ table: String, columns: [String], each: ([SQLValue]) throws -> Void) throws {
        let own = !db.isInTransaction
        if own { try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") }
        do {
            try db.execute("DECLARE copy_rows NO SCROLL CURSOR FOR SELECT \(Self.quoted(columns)) FROM \(table)")
            while true {
                let rows = try db.query("FETCH \(Self.batch) FROM copy_rows")
                for r in 0..<rows.count {
                    try each((0..<rows.columnCount).map { rows.value(r, $0) })
                }
                if rows.count < Self.batch { break }
            }
            try db.execute("CLOSE copy_rows")
            if own { try db.execute("COMMIT") }
        } catch {
            if own { try? db.execute("ROLLBACK") }
            throw error
        }
    }

    func makeEmptyState() throws -> Bool {
        let found = try PostgresSchema.holdsAnyTable(db)
        guard found.isEmpty else {
            throw StoreCopy.Failure.targetHoldsState("\(db.target) has the table(s) \(found.joined(separator: ", "))")
        }
        needsSchema = true
        return false
    }

    func begin() throws {
        try db.execute("BEGIN")
        if needsSchema { try PostgresSchema.create(db) }
    }

    func clear(_ table: String) throws { try db.execute("DELETE FROM \(table)") }

    func insert(_ table: String, columns: [String], rows: (_ emit: ([SQLValue]) throws -> Void) throws -> Void) throws {
        try db.copy(into: table, columns: columns.map { "\"\($0)\"" }, rows: rows)
    }

    func finishCopy() throws {
        try db.execute("SELECT setval(pg_get_serial_sequence('reports', 'id'), coalesce((SELECT max(id) FROM reports), 0) + 1, false)")
    }

    func commit() throws {
        try db.execute("COMMIT")
        // Statistics and the visibility map for the planner at once, not at
        // autovacuum's leisure: without them NAMES prefix= sorted its whole
        // range (PostgresQueryPlanTests).
        try db.execute("VACUUM ANALYZE")
    }

    func abandon(removeMade: Bool) {
        if db.isInTransaction { try? db.execute("ROLLBACK") }
    }

    func close() { db.close() }
}
