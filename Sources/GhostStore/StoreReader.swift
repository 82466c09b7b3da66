import CSQLite

/// A read-only view of the database in a data folder that a running ghostd
/// holds, for the operator's lists (`ghostd accounts list`, `ghostd
/// reports`). The database is in WAL mode, so a reader beside the daemon
/// (its only writer) sees the last commit and neither waits for it nor
/// makes it wait; opened read-only, it cannot write anything: no migration,
/// no journal folding, none of `Store`'s start-up work, which belongs to
/// the daemon that holds the folder.
public final class StoreReader {
    /// Why the database cannot be read here.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Its schema is not this build's (a daemon of another version runs on it).
        case otherSchema(path: String, found: Int, known: Int)

        public var description: String {
            switch self {
            case let .otherSchema(path, found, known):
                return "the database \(path) has schema \(found), this ghostd's is \(known): use the ghostd that serves it"
            }
        }
    }

    public let path: String
    private let db: StoreDB
    private let names: NamesStore
    private let social: SocialStore

    public init(directory: String) throws {
        let folder = directory.isEmpty ? "." : directory
        path = folder.hasSuffix("/") ? folder + Store.fileName : folder + "/" + Store.fileName
        let file = try SQLiteDatabase(path: path, create: false, readOnly: true)
        db = StoreDB(sqlite: file)
        names = NamesStore(db: db)
        social = SocialStore(db: db)
        let refuse: () throws -> Void = { [path] in throw SQLiteDatabase.Failure(code: SQLITE_READONLY, message: "\(path) is open read-only") }
        names.willWrite = refuse
        social.willWrite = refuse
        let version = try file.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard version == Store.schemaVersion else {
            file.close()
            throw Failure.otherSchema(path: path, found: version, known: Store.schemaVersion)
        }
    }

    /// The same beside a daemon whose state is in PostgreSQL at `conninfo`:
    /// a connection of its own, whose reads write nothing.
    public init(postgres conninfo: String) throws {
        path = PostgresDatabase.redacted(conninfo)
        let session = try PostgresSession(conninfo)
        db = StoreDB(postgres: session)
        names = NamesStore(db: db)
        social = SocialStore(db: db)
        let refuse: () throws -> Void = { [path] in throw PostgresDatabase.Failure(sqlState: "25006", message: "\(path) is open to read") }
        names.willWrite = refuse
        social.willWrite = refuse
        let version = try PostgresSchema.version(try session.live()) ?? 0
        guard version == Store.schemaVersion else {
            session.close()
            throw Failure.otherSchema(path: path, found: version, known: Store.schemaVersion)
        }
    }

    public func close() { db.close() }

    /// Runs `body` in one read transaction: every page (or row) it reads is of the same commit.
    public func snapshot<T>(_ body: (StoreReader) throws -> T) throws -> T {
        let begin = db.isPostgres ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"
        try db.execute(begin)
        defer { try? db.execute("COMMIT") }
        return try body(self)
    }

    /// As `Store.accounts`: registrations by name, at most `limit` after `after`.
    public func accounts(after: String? = nil, limit: Int) throws -> [Store.Account] {
        try names.accounts(after: after, limit: limit)
    }

    /// As `SocialStore.sanctions`.
    public func sanctions(_ kind: SocialStore.SanctionKind? = nil, now: Int, after: String? = nil, limit: Int) throws -> [SocialStore.Sanction] {
        try social.sanctions(kind, now: now, after: after, limit: limit)
    }

    /// As `SocialStore.reports`.
    public func reports(limit: Int, before: Int? = nil) throws -> [SocialStore.Report] {
        try social.reports(limit: limit, before: before)
    }
}
