import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The database's file as the store opens it (the startup checks): made
/// whole where there is none, and an existing one checked before anything
/// is written to it, refused (`Store.Refusal`) when it is empty, damaged,
/// or newer than this build; the data folder made first; and the file's
/// pages: their size, and the cap on their number (`--max-db-pages`).
enum DatabaseFile {
    /// Opens the database at `path` after checking it, or makes a new one
    /// if there is no file. An existing file is refused (see `Store.Refusal`)
    /// before anything is written to it: it must not be empty, its schema
    /// must be one this build knows, and `PRAGMA quick_check` must pass.
    static func openChecked(path: String) throws -> SQLiteDatabase {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { return try SQLiteDatabase(path: path, create: false) }   // its own error
            try createDatabase(at: path)
        } else if info.st_mode & S_IFMT != S_IFREG {
            throw Store.Refusal.notAFile(path: path)
        } else if info.st_size == 0 {
            throw Store.Refusal.emptyFile(path: path)
        }
        let db = try SQLiteDatabase(path: path, create: false)
        do {
            let version = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
            if version > Store.schemaVersion {
                throw Store.Refusal.newerSchema(path: path, found: version, known: Store.schemaVersion)
            }
            let problems = try db.query("PRAGMA quick_check(3)") { $0.text(0) }
            if problems != ["ok"] {
                throw Store.Refusal.damaged(path: path, detail: "quick_check: " + oneLine(problems.joined(separator: "; ")))
            }
        } catch let failure as SQLiteDatabase.Failure where failure.isCorruption {
            db.close()
            throw Store.Refusal.damaged(path: path, detail: oneLine(failure.message))
        } catch {
            db.close()
            throw error
        }
        return db
    }

    /// The page size of a new database, in bytes (an existing one keeps its
    /// own: 4,096 before this). Every commit writes each page it changed to
    /// the WAL as a frame, checksummed whole: a letter changes one page of
    /// `moves`, a game's start and end about ten (the game row and the
    /// indexes it is in), so the frames' checksums and copies were the
    /// largest single cost of a letter (BENCHMARKS.md, "Instructions per
    /// letter"). 1 KiB pages make them a quarter; a b-tree of a million
    /// names is one level deeper (a look-up reads 4 pages instead of 3).
    static let newPageSize = 1024

    /// `--max-db-pages` counts pages of this many bytes, whatever the
    /// database's own page size (see `Store.init`'s `maxPageCount`).
    static let limitPageSize = 4096

    /// Caps the database at `maxPageCount` pages of `limitPageSize` bytes
    /// (`PRAGMA max_page_count` in its own pages, never below its current
    /// size): a write that needs more fails, as on a full disk.
    static func limit(_ db: SQLiteDatabase, maxPageCount: Int) throws {
        let bytes = maxPageCount * limitPageSize
        try db.execute("PRAGMA max_page_count = \(min((bytes + pageSize(db) - 1) / pageSize(db), 4_294_967_294))")
    }

    /// The database's page size in bytes (1,024 for a database made by
    /// this version, 4,096 for an older one: `newPageSize`).
    static func pageSize(_ db: SQLiteDatabase) -> Int {
        let size = (try? db.query("PRAGMA page_size") { $0.int(0) }.first) ?? nil
        return max(512, size ?? limitPageSize)
    }

    /// The database's size, and the most it may have (`PRAGMA page_count`,
    /// `max_page_count`), both in pages of `limitPageSize` bytes (the unit
    /// of `maxPageCount` and `--max-db-pages`), rounded up.
    static func pageCounts(_ db: SQLiteDatabase) throws -> (pages: Int, max: Int) {
        let pages = try db.query("PRAGMA page_count") { $0.int(0) }.first ?? 0
        let max = try db.query("PRAGMA max_page_count") { $0.int(0) }.first ?? 0
        let size = pageSize(db), unit = limitPageSize
        return ((pages * size + unit - 1) / unit, (max * size + unit - 1) / unit)
    }

    /// Makes a new database (in WAL mode, schema 0) at `path`, whole or not
    /// at all: it is made under another name, synced, and renamed into
    /// place, so a crash never leaves a file there that is empty or half made.
    private static func createDatabase(at path: String) throws {
        let temporary = path + ".new"
        for leftover in [temporary, temporary + "-wal", temporary + "-shm", temporary + "-journal"] { unlink(leftover) }
        do {
            let db = try SQLiteDatabase(path: temporary)
            defer { db.close() }
            try db.execute("PRAGMA synchronous=FULL")
            // Before the first page is written: it is fixed from then on.
            try db.execute("PRAGMA page_size=\(newPageSize)")
            try db.execute("PRAGMA journal_mode=WAL")   // writes the first page: the file is a database
        }
        guard rename(temporary, path) == 0 else {
            throw SQLiteDatabase.Failure(code: SQLITE_CANTOPEN, message: "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        // The new name is durable once the folder is.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            Glibc.close(fd)
        }
    }

    /// `mkdir -p`: creates `directory` and any missing parents (mode 0755).
    static func makeDirectories(_ directory: String) throws {
        var path = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw Store.Failure.cannotCreateDirectory(path, reason: String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(directory.isEmpty ? "." : directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Store.Failure.cannotCreateDirectory(directory, reason: "not a folder")
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(300))
    }
}

extension Store {
    /// Why a database is not opened. Nothing is written to a refused file.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// `PRAGMA user_version` is past the schemas this build knows: a
        /// newer ghostd wrote it, and this one cannot know what it means.
        case newerSchema(path: String, found: Int, known: Int)
        /// SQLite finds the file damaged (`PRAGMA quick_check`, or any read).
        case damaged(path: String, detail: String)
        /// The file is there but empty: a damaged database, not a new one
        /// (a new database is made only where there is no file).
        case emptyFile(path: String)
        /// The path is a folder (or another kind of file), not a database.
        case notAFile(path: String)
        /// The move journal beside it would lose acknowledged moves or
        /// games' starts (`JournalProblem`): it is left as it is.
        case journal(path: String, problem: String)

        public var description: String {
            switch self {
            case let .newerSchema(path, found, known):
                return "the database \(path) has schema \(found), written by a newer ghostd; this ghostd knows schemas up to \(known): run a newer ghostd on it"
            case let .damaged(path, detail):
                return "the database \(path) is damaged (\(detail)); restore it from a backup"
            case let .journal(path, problem):
                return "the move journal \(path) cannot be trusted: \(problem); ghostd has not touched it. See what it holds with `ghostd journal check`, and take in every intact line with `ghostd journal salvage` (docs/durability.md)"
            case let .notAFile(path):
                return "the database path \(path) is not a file (a folder is there): move it away, or give --data another folder"
            case let .emptyFile(path):
                return "the database \(path) is an empty file: a damaged database, not a new one; restore it from a backup, or remove it to start afresh"
            }
        }
    }
}
