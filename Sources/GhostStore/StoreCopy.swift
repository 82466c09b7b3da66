import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Where a whole state lives: a data folder (SQLite) or a PostgreSQL
/// database (a libpq URL or `key=value` connection string).
public enum StoreLocation: Equatable, Sendable, CustomStringConvertible {
    case folder(String)
    case postgres(String)

    /// `postgresql://…`, `postgres://…` or a `key=value` list is PostgreSQL; anything else a folder.
    public init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") || text.contains("=") {
            self = .postgres(text)
        } else {
            self = .folder(text.isEmpty ? "." : text)
        }
    }

    /// As it may be shown: a connection string without its password.
    public var description: String {
        switch self {
        case .folder(let path): return path
        case .postgres(let conninfo): return PostgresDatabase.redacted(conninfo)
        }
    }
}

/// A table's rows, summed up: how many, and a digest that does not depend
/// on their order (the sum, lane by lane modulo 2^64, of each row's SHA-256
/// over its values in a form both backends give alike: an integer in
/// decimal, a real by its bits, a text by its UTF-8 bytes, a NULL apart).
public struct TableDigest: Equatable, Sendable, CustomStringConvertible {
    public let table: String
    public var rows = 0
    public var lanes: [UInt64] = [0, 0, 0, 0]

    public init(table: String) { self.table = table }

    /// The digest in hex (64 digits).
    public var hex: String {
        lanes.map { lane in
            let digits = String(lane, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    public var description: String { "\(table): \(rows) row(s), digest \(hex.prefix(16))" }

    mutating func add(_ row: [SQLValue]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        for value in row {
            switch value {
            case .null: bytes.append(0x4E)   // N
            case .int(let v):
                bytes.append(0x49)           // I
                bytes += Array(String(v).utf8)
            case .real(let v):
                bytes.append(0x52)           // R
                bytes += Array(String(v.bitPattern, radix: 16).utf8)
            case .text(let v):
                bytes.append(0x54)           // T
                let utf8 = Array(v.utf8)
                bytes += Array(String(utf8.count).utf8)
                bytes.append(0x3A)
                bytes += utf8
            }
            bytes.append(0x1F)
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        for lane in 0..<4 {
            var word: UInt64 = 0
            for i in 0..<8 { word = word << 8 | UInt64(digest[lane * 8 + i]) }
            lanes[lane] &+= word
        }
        rows += 1
    }
}

/// `ghostd copy-store`: a whole state copied between backends while no
/// daemon runs, then checked (every shared table's count and digest on both
/// sides). The target must hold no state: nothing is ever copied over one.
/// The copy is one transaction on the target; a failure leaves it as it
/// was (a folder made for it is removed again).
public enum StoreCopy {
    public enum Failure: Error, CustomStringConvertible {
        case targetHoldsState(String)
        case sourceHoldsNoState(String)
        case versionMismatch(String, found: Int, expected: Int)
        case columnsDiffer(String, source: [String], target: [String])
        case differs([String])
        case sameLocation

        public var description: String {
            switch self {
            case .targetHoldsState(let what): return "the target already holds a state (\(what)): a copy is never made over one"
            case .sourceHoldsNoState(let what): return "the source holds no state: \(what)"
            case .versionMismatch(let what, let found, let expected):
                return "\(what) is at schema \(found), this ghostd's is \(expected)"
                    + (found < expected ? ": start this ghostd on it once (it migrates), then copy" : ": copy it with the newer ghostd")
            case .columnsDiffer(let table, let source, let target):
                return "table \(table) has columns \(source) in the source and \(target) in the target"
            case .differs(let tables): return "the copy differs from the source in \(tables.joined(separator: ", "))"
            case .sameLocation: return "the source and the target are the same"
            }
        }
    }

    /// The tables copied and their digests, checked equal on both sides.
    public struct Report: Sendable {
        public let tables: [TableDigest]
        public var rows: Int { tables.reduce(0) { $0 + $1.rows } }
    }

    /// Copies the state at `source` into `target` and checks it. The caller
    /// holds the lock of any data folder involved (`DataFolderLock`): a
    /// folder's move journal is folded into its database first, as a
    /// stopped ghostd leaves it.
    public static func copy(from source: StoreLocation, to target: StoreLocation,
                            progress: (String) -> Void = { _ in }) throws -> Report {
        guard source != target else { throw Failure.sameLocation }
        let reader = try open(source, creating: false)
        let writer = try open(target, creating: true)
        var made = false
        do {
            made = try writer.makeEmptyState()
            try writer.begin()
            for table in PostgresSchema.sharedTables {
                let columns = try reader.columns(table)
                let theirs = try writer.columns(table)
                guard Set(columns) == Set(theirs) else {
                    throw Failure.columnsDiffer(table, source: columns, target: theirs)
                }
                try writer.clear(table)
                try writer.insert(table, columns: columns) { emit in try reader.rows(table, columns: columns, each: emit) }
                progress("copied \(table)")
            }
            try writer.finishCopy()
            try writer.commit()
        } catch {
            writer.abandon(removeMade: made)
            throw error
        }
        // Checked afterwards, on what each side reads back.
        var tables: [TableDigest] = []
        var differing: [String] = []
        for table in PostgresSchema.sharedTables {
            let columns = try reader.columns(table)
            let theirs = try writer.digest(table, columns: columns)
            let ours = try reader.digest(table, columns: columns)
            if theirs != ours { differing.append("\(table) (\(ours.rows) row(s) read, \(theirs.rows) written)") }
            tables.append(ours)
        }
        reader.close()
        writer.close()
        guard differing.isEmpty else { throw Failure.differs(differing) }
        return Report(tables: tables)
    }

    /// The digests of the state at `location` (`ghostd copy-store --check`).
    public static func digests(of location: StoreLocation) throws -> [TableDigest] {
        let side = try open(location, creating: false)
        defer { side.close() }
        return try PostgresSchema.sharedTables.map { table in try side.digest(table, columns: try side.columns(table)) }
    }

    static func open(_ location: StoreLocation, creating: Bool) throws -> any StoreCopySide {
        switch location {
        case .folder(let path): return try SQLiteCopySide(folder: path, creating: creating)
        case .postgres(let conninfo): return try PostgresCopySide(conninfo: conninfo, creating: creating)
        }
    }
}

/// One side of a copy: reads a state's tables, or writes a new one.
protocol StoreCopySide: AnyObject {
    func columns(_ table: String) throws -> [String]
    func rows(_ table: String, columns: [String], each: ([SQLValue]) throws -> Void) throws
    /// Makes the schema where there is none, refusing a target that holds
    /// state; true when it made the place itself (a new folder's files).
    func makeEmptyState() throws -> Bool
    func begin() throws
    func clear(_ table: String) throws
    func insert(_ table: String, columns: [String], rows: (_ emit: ([SQLValue]) throws -> Void) throws -> Void) throws
    /// What a copy's end needs on this side (identity columns moved past the copied ids).
    func finishCopy() throws
    func commit() throws
    /// Undoes a failed copy: its transaction, and what `makeEmptyState` made.
    func abandon(removeMade: Bool)
    func close()
}

extension StoreCopySide {
    func digest(_ table: String, columns: [String]) throws -> TableDigest {
        var digest = TableDigest(table: table)
        try rows(table, columns: columns) { digest.add($0) }
        return digest
    }

    static func quoted(_ columns: [String]) -> String { columns.map { "\"\($0)\"" }.joined(separator: ", ") }
}
