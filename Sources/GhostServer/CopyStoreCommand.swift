import GhostStore
import OptionKit
#if canImport(Glibc)
import Glibc
#endif

/// `ghostd copy-store --from LOCATION --to LOCATION`, `ghostd copy-store
/// --check LOCATION`: a whole state copied between a data folder (SQLite)
/// and a PostgreSQL database, either way, while no ghostd runs on it, then
/// checked: every table's count and digest read back from both sides
/// (`StoreCopy`). A folder's lock is held throughout, so a running ghostd
/// (or another copy) refuses it.
public enum CopyStoreCommand {
    public struct Settings: Equatable, Sendable {
        public var from: String?
        public var to: String?
        public var check: String?
        public init() {}
    }

    // MARK: The command line

    static var table: OptionTable<Settings> { OptionTable([
        .value("--from", "LOCATION", "the state to copy: a data folder, or a PostgreSQL URL (postgresql://user@host:port/db)",
               .text("a folder or URL"), \.from, defaultText: nil),
        .value("--to", "LOCATION", "where to copy it: a data folder without a database, or a PostgreSQL database without ghostd's tables",
               .text("a folder or URL"), \.to, defaultText: nil),
        .value("--check", "LOCATION", "print every table's row count and digest, copying nothing (compare two states, or a restored backup)",
               .text("a folder or URL"), \.check, defaultText: nil),
        .help,
    ]) }

    static let usageLine = "ghostd copy-store --from LOCATION --to LOCATION | --check LOCATION"

    public static var usage: String {
        table.help(usage: usageLine, about: [
            "Copy a whole state between a data folder (SQLite) and PostgreSQL, either",
            "way, while no ghostd runs on it, then check the copy: each table's rows",
            "are counted and summed up (a SHA-256 per row) on both sides. The target",
            "must hold no state. A folder's move journal is folded into its database",
            "first, as a stopped ghostd leaves it. A PostgreSQL password comes from",
            "PGPASSFILE or the service file, never from the command line.",
        ], sections: [], footer: [
            "Exit status: 0 copied and checked (or --check printed); 1 refused or failed,",
            "the target left as it was; 2 bad usage.",
        ], defaults: Settings())
    }

    public static func parse(_ arguments: [String]) -> Result<Settings?, OptionError> {
        switch table.parse(arguments, into: Settings()) {
        case .failure(let e): return .failure(e)
        case .success(.help), .success(.version): return .success(nil)
        case .success(.run(let s)):
            let copying = s.from != nil || s.to != nil
            if copying && s.check != nil {
                return .failure(OptionError(.unexpectedArgument, subject: "--check", allowed: "--check goes alone, without --from and --to"))
            }
            if !copying && s.check == nil {
                return .failure(OptionError(.missingArgument, subject: "--from and --to", allowed: "--from and --to, or --check"))
            }
            if copying && (s.from == nil || s.to == nil) {
                return .failure(OptionError(.missingArgument, subject: s.from == nil ? "--from" : "--to", allowed: "a copy needs both --from and --to"))
            }
            return .success(s)
        }
    }

    // MARK: Running

    /// `ghostd copy-store …` on stdout and stderr: returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        main(arguments, out: { print($0) }, err: { writeToStderr(Array(($0 + "\n").utf8)) })
    }

    static func main(_ arguments: [String], out: (String) -> Void, err: (String) -> Void) -> Int32 {
        CommandLineFrame.main("copy-store", parse(arguments), usage: usage, out: out, err: err) { try run($0, out: out) }
    }

    static func run(_ settings: Settings, out: (String) -> Void) throws -> Int32 {
        if let check = settings.check {
            let location = StoreLocation(check)
            let lock = try location.folderLock(existing: true)
            defer { lock?.unlock() }
            let digests = try StoreCopy.digests(of: location)
            for d in digests { out("\(d.table) rows=\(d.rows) digest=\(d.hex)") }
            out("\(location): \(digests.count) tables, \(digests.reduce(0) { $0 + $1.rows }) rows")
            return 0
        }
        guard let fromText = settings.from, let toText = settings.to else { return 2 }
        let from = StoreLocation(fromText), to = StoreLocation(toText)
        let fromLock = try from.folderLock(existing: true)
        defer { fromLock?.unlock() }
        let toLock = try to.folderLock(existing: false)
        defer { toLock?.unlock() }
        let report = try StoreCopy.copy(from: from, to: to)
        for d in report.tables { out("\(d.table) rows=\(d.rows) digest=\(d.hex)") }
        out("copied \(from) to \(to): \(report.tables.count) tables, \(report.rows) rows, checked on both sides")
        return 0
    }
}

extension StoreLocation {
    /// A folder's lock (`DataFolderLock`), taken for as long as the command
    /// runs; nil for PostgreSQL. `existing`: the folder must hold a database
    /// (a mistyped source must not make a new, empty one).
    func folderLock(existing: Bool) throws -> DataFolderLock? {
        guard case .folder(let path) = self else { return nil }
        if existing { _ = try CommandLineFrame.existingFolder(path) }
        return try DataFolderLock(directory: path)
    }
}
