import GhostStore
import OptionKit
#if canImport(Glibc)
import Glibc
#endif

/// `ghostd reports [--limit N] [--data DIR]`: the players' reports (REPORT),
/// newest first, with the reported name's last chat lines each keeps, for
/// the operator. Works with or without a ghostd serving the folder
/// (OperatorLists.swift); changes nothing.
public enum ReportsCommand {
    public struct Settings: Equatable, Sendable {
        public var data = ServerConfig.defaultDataDirectory()
        /// The daemon's `--store`: its state in PostgreSQL, not in `data`.
        public var store: String?
        public var limit = 50
        public init() {}
    }

    public enum Invocation: Equatable, Sendable {
        case help
        case run(Settings)
    }

    // MARK: The command line

    static var table: OptionTable<Settings> { OptionTable([
        .value("--data", "DIR", "the data folder of the ghostd whose reports these are", .text("a folder"), \.data),
        .value("--store", "URL", "that ghostd's --store: its state in PostgreSQL", .text("a PostgreSQL URL"), \.store, defaultText: "SQLite in --data"),
        .value("--limit", "N", "show the newest N reports", .integer(1...100_000), \.limit),
        .help,
    ]) }

    static let usageLine = "ghostd reports [--limit N] [--data DIR]"

    public static var usage: String {
        table.help(usage: usageLine, about: [
            "The players' reports (REPORT), newest first, one block each: `report ID",
            "at=… reporter=… reported=… game=…`, the reason, then the reported name's",
            "last lines to the reporter, indented. Also while a ghostd serves the folder.",
        ], footer: [
            "Exit status: 0 listed, 1 failed, 2 bad usage.",
        ], defaults: Settings())
    }

    public static func parse(_ arguments: [String]) -> Result<Invocation, OptionError> {
        switch table.parse(arguments, into: Settings()) {
        case .failure(let e): return .failure(e)
        case .success(.help), .success(.version): return .success(.help)
        case .success(.run(let s)): return .success(.run(s))
        }
    }

    // MARK: Running

    /// `ghostd reports …` on stdout and stderr: returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        main(arguments, out: { print($0) }, err: { writeToStderr(Array(($0 + "\n").utf8)) })
    }

    /// The same, its lines given to `out` and `err`.
    static func main(_ arguments: [String], out: (String) -> Void, err: (String) -> Void) -> Int32 {
        let parsed = parse(arguments).map { invocation -> Settings? in
            if case .run(let s) = invocation { return s }
            return nil
        }
        return CommandLineFrame.main("reports", parsed, usage: usage, out: out, err: err) { settings in
            let folder = settings.store == nil ? try CommandLineFrame.existingFolder(settings.data) : (settings.data.isEmpty ? "." : settings.data)
            try OperatorLists.withLists(folder: folder, store: settings.store) { try $0.listReports(limit: settings.limit, out: out) }
            return 0
        }
    }
}
