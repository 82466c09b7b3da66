import GhostStore
import OptionKit
#if canImport(Glibc)
import Glibc
#endif

/// `ghostd journal check|salvage [--data DIR]`: the move journal
/// offline. ghostd refuses to start on a journal that would lose
/// acknowledged moves or games' starts (damaged in the middle, missing or
/// emptied after a crash, another database's: `JournalProblem`), and leaves
/// it as it is; `check` says what it holds, `salvage` takes in every intact
/// line and keeps the damaged file aside, so that ghostd starts again.
/// Both refuse while a ghostd holds the folder (its lock, `DataFolderLock`).
public enum JournalCommand {
    public enum Action: String, CaseIterable, Equatable, Sendable {
        case check
        case salvage
    }

    public struct Settings: Equatable, Sendable {
        public var data = ServerConfig.defaultDataDirectory()
        public var action: Action = .check
        public init() {}
    }

    public enum Invocation: Equatable, Sendable {
        case help
        case run(Settings)
    }

    // MARK: The command line

    static var table: OptionTable<Settings> { OptionTable([
        .value("--data", "DIR", "the data folder of the ghostd whose move journal this is", .text("a folder"), \.data),
        .help,
    ], positionals: [
        .value("COMMAND", "check or salvage (see Commands)", Value<Action>.choice, required: true) { $0.action = $1 },
    ]) }

    public static var usage: String {
        table.help(usage: "ghostd journal check|salvage [--data DIR]", about: [
            "Look at, or take in, the move journal (DIR/\(Store.fileName)-moves) offline,",
            "when ghostd refuses to start because of it. Refused (exit status 1)",
            "while a ghostd holds the data folder.",
        ], sections: [(title: "Commands:", lines: commands.flatMap { HelpText.entry($0.head, $0.text) })],
        footer: [
            "Exit status: 0 ghostd will start (check) or the journal was taken in (salvage);",
            "1 ghostd would refuse (check) or nothing was done; 2 bad usage.",
        ], defaults: Settings())
    }

    /// The commands, for help and the manual page.
    static var commands: [(head: String, text: String)] { [
        ("check", "say what the journal holds (its header, the intact games' starts and moves, the damaged lines) and whether ghostd would start on it, changing nothing"),
        ("salvage", "take every intact line into the database, keep the journal as it was beside it (`…-moves.damaged-<unix seconds>`, then `-2` … within one second), and leave a new, empty journal: ghostd starts again. What a damaged line held is lost, with the later moves of its game's round (they cannot be played without it); everything else acknowledged is kept. Nothing is taken from another database's journal"),
    ] }

    public static func parse(_ arguments: [String]) -> Result<Invocation, OptionError> {
        switch table.parse(arguments, into: Settings()) {
        case .failure(let e): return .failure(e)
        case .success(.help), .success(.version): return .success(.help)
        case .success(.run(let s)): return .success(.run(s))
        }
    }

    // MARK: Running

    /// `ghostd journal …` on stdout and stderr: returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        main(arguments, out: { print($0) }, err: { writeToStderr(Array(($0 + "\n").utf8)) })
    }

    /// The same, its lines given to `out` and `err`.
    static func main(_ arguments: [String], out: (String) -> Void, err: (String) -> Void) -> Int32 {
        let parsed = parse(arguments).map { invocation -> Settings? in
            if case .run(let s) = invocation { return s }
            return nil
        }
        return CommandLineFrame.main("journal", parsed, usage: usage, out: out, err: err) { try run($0, out: out) }
    }

    /// Does what `settings` ask, holding the data folder's lock throughout.
    static func run(_ settings: Settings, out: (String) -> Void) throws -> Int32 {
        let folder = try CommandLineFrame.existingFolder(settings.data)
        let lock = try DataFolderLock(directory: folder)
        defer { lock.unlock() }
        let report = try Store.checkJournal(directory: folder)
        switch settings.action {
        case .check:
            for line in describe(report) { out(line) }
            return report.problem == nil ? 0 : 1
        case .salvage:
            guard report.problem != nil else {
                out("\(report.path): nothing to salvage: ghostd will start on it as it is")
                return 0
            }
            let store = try Store(directory: folder, salvageJournal: true)
            let salvage = store.salvaged
            store.close()
            out("\(report.path): \(report.problem.map { "\($0)" } ?? "")")
            out("took in \(salvage?.starts ?? 0) game start(s) and \(salvage?.moves ?? 0) move(s); "
                + "lost the damaged line(s) \(lines(salvage?.badLines ?? []))"
                + ((salvage?.orphanMoves ?? 0) > 0 ? ", and \(salvage?.orphanMoves ?? 0) move(s) of games whose start was in one" : "")
                + ((salvage?.movesAfterALoss ?? 0) > 0 ? ", and \(salvage?.movesAfterALoss ?? 0) move(s) played after a lost one (they cannot be played without it)" : "")
                + ((salvage?.notOurs ?? 0) > 0 ? "; took no line of the \(salvage?.notOurs ?? 0) of another database's journal" : ""))
            if let kept = salvage?.keptAs { out("the journal as it was is kept as \(kept)") }
            out("a new, empty journal is in place: ghostd will start")
            return 0
        }
    }

    /// `check`'s lines.
    static func describe(_ r: JournalReport) -> [String] {
        var out: [String] = []
        let expected = r.expected.map { "journal \($0)" } ?? "no journal yet (a database from before schema 15)"
        if !r.exists {
            out.append("\(r.path): missing; the database expects \(expected)\(r.clean ? ", and ghostd stopped cleanly" : "")")
        } else {
            out.append("\(r.path): \(r.ident.map { "journal \($0)" } ?? "no header"); the database expects \(expected)"
                       + (r.clean ? "; ghostd stopped cleanly" : ""))
            out.append("intact: \(r.starts) game start(s), \(r.moves) move(s)")
            if !r.badLines.isEmpty {
                out.append("damaged: line(s) \(lines(r.badLines))" + (r.tornTail ? " (a torn tail, the end of the last write: ghostd drops it)" : ""))
            }
        }
        if let problem = r.problem {
            out.append("ghostd refuses to start: \(problem); `ghostd journal salvage` takes in every intact line")
        } else {
            out.append("ghostd will start on it")
        }
        return out
    }

    /// "3, 7, 9" (the first 20, then how many more).
    static func lines(_ numbers: [Int]) -> String {
        let shown = numbers.prefix(20).map(String.init).joined(separator: ", ")
        return numbers.count > 20 ? shown + " and \(numbers.count - 20) more" : (shown.isEmpty ? "none" : shown)
    }
}
