#if canImport(Glibc)
import Glibc
#endif

/// What is wrong with a move journal, such that starting would lose
/// acknowledged moves or games' starts (JournalScan.swift).
public enum JournalProblem: Equatable, Sendable, CustomStringConvertible {
    /// No file, or an empty one, though ghostd did not stop cleanly.
    case missing(expected: String)
    /// A file without a header, where the database expects journal `expected`.
    case noHeader(expected: String)
    /// Another journal's file.
    case replaced(found: String, expected: String)
    /// A damaged line that intact lines follow (line 1: the header).
    case damaged(line: Int, intactAfter: Int)

    public var description: String {
        switch self {
        case .missing(let expected):
            return "it is missing or empty, and ghostd did not stop cleanly (the database expects journal \(expected)): acknowledged moves and games' starts may have been in it"
        case .noHeader(let expected):
            return "it has no header: it is not journal \(expected), the one the database expects"
        case let .replaced(found, expected):
            return "it is journal \(found), not \(expected), the one the database expects"
        case let .damaged(line, after):
            return line == 1 ? "line 1, its header, is damaged"
                : "line \(line) is damaged, and \(after) intact line(s) follow it"
        }
    }

    /// The problem with `scan` (nil: the file is missing) for a database
    /// whose journal is `state` (its `ident` nil: none made yet, a database
    /// from before schema 15, whose journal has no header); nil if none. A
    /// torn tail is no problem, nor damage in what is in the tables already:
    /// a damaged line whose next intact line `isFolded` was folded with it.
    static func of(_ scan: JournalScan?, _ state: JournalState,
                   isFolded: (JournalScan.Key) throws -> Bool) throws -> JournalProblem? {
        guard let scan, scan.lineCount > 0 else {
            if let expected = state.ident, !state.clean { return .missing(expected: expected) }
            return nil
        }
        if scan.header == .damaged { return .damaged(line: 1, intactAfter: scan.intactLines) }
        if let expected = state.ident {
            switch scan.header {
            case .none: return .noHeader(expected: expected)
            case .ident(let found) where found != expected: return .replaced(found: found, expected: expected)
            default: break
            }
        }
        if let line = try scan.damage(isFolded: isFolded) {
            return .damaged(line: line, intactAfter: scan.intactLines(after: line))
        }
        return nil
    }
}

/// The move journal as the database knows it (schema 15).
public struct JournalState: Equatable, Sendable {
    /// The journal its file's header must name; nil: none made yet.
    public var ident: String?
    /// ghostd stopped with every line folded in.
    public var clean = false
}

/// What `ghostd journal salvage` took in from a damaged journal.
public struct JournalSalvage: Equatable, Sendable {
    public var problem: JournalProblem
    public var starts: Int
    public var moves: Int
    /// Intact moves of games whose start was lost (in a damaged line): left out.
    public var orphanMoves: Int
    /// Intact moves that came after a lost move of their game's round: left
    /// out, as they cannot be played without it (a game with them in its
    /// table would not replay, and could not be resumed at all).
    public var movesAfterALoss = 0
    /// Lines of another journal's file (`replaced`, `noHeader`): none is
    /// taken in, as they are not this database's.
    public var notOurs = 0
    public var badLines: [Int]
    /// Where the damaged file was kept (nil: there was none).
    public var keptAs: String?
}

/// What `ghostd journal check` found.
public struct JournalReport: Equatable, Sendable {
    public var path: String
    public var exists: Bool
    /// The journal its header names (nil: none).
    public var ident: String?
    /// The journal the database expects (nil: none made yet).
    public var expected: String?
    public var clean: Bool
    public var starts: Int
    public var moves: Int
    public var badLines: [Int]
    public var tornTail: Bool
    /// Why ghostd would refuse to start (nil: it would start).
    public var problem: JournalProblem?
}

/// The move journal at the database's open and close (the store split by
/// concern): its file checked against what the database expects
/// (`JournalProblem`), what it holds taken in, a damaged one refused or
/// salvaged, and a clean stop marked; and `ghostd journal check`. `Store`
/// makes one over its connection at open; its folds go through the store's
/// `Transactions`.
struct JournalRecovery {
    let db: SQLiteDatabase
    /// Games and their moves: the journal's starts and moves go in there.
    let gameStore: GamesStore
    /// Folds (`foldAlone`) and syncs of the WAL (`syncWAL`).
    let transactions: Transactions
    /// The moves not yet in the database (the game store's).
    private var journal: MoveJournal { gameStore.journal }

    /// The move journal as the database knows it (schema 15).
    static func state(_ db: SQLiteDatabase) throws -> JournalState {
        let rows = try db.query("SELECT ident, clean FROM move_journal WHERE id = 1") {
            JournalState(ident: $0.optionalText(0), clean: $0.int(1) != 0)
        }
        return rows.first ?? JournalState()
    }

    /// Whether a journal line's start or move is in the tables already (a
    /// primary-key look-up). A fold takes every line written before it, so
    /// a line found there means every line before it was folded too.
    static func isFolded(_ db: SQLiteDatabase) -> (JournalScan.Key) throws -> Bool {
        { key in
            switch key {
            case .start(let id):
                return try !db.query("SELECT 1 FROM games WHERE id = ?", .of(id)) { $0.int(0) }.isEmpty
            case .move(let game, let round, let ply):
                return try !db.query("SELECT 1 FROM moves WHERE game_id = ? AND round = ? AND ply = ?",
                                     .of(game), .of(round), .of(ply)) { $0.int(0) }.isEmpty
            }
        }
    }

    /// Checks the journal's file against the database, takes in what it
    /// holds, and leaves a file of the database's journal that holds only its
    /// header; then marks the journal in use (not stopped cleanly), on disk.
    /// A problem (`JournalProblem`) refuses the start with the file left as
    /// it is, unless `salvage`: then every intact line is taken in and the
    /// file is kept beside the new one as `<journal>.damaged-<unix seconds>`
    /// (`-2`, `-3` … after it when a salvage of the same second kept one).
    func open(salvage: Bool) throws -> JournalSalvage? {
        let state = try JournalRecovery.state(db)
        let scan = try journal.read()
        let problem = try JournalProblem.of(scan, state, isFolded: JournalRecovery.isFolded(db))
        if let problem, !salvage { throw Store.Refusal.journal(path: journal.path, problem: problem.description) }
        // Salvaging: the file as it was is kept first (a hard link), whatever happens to it next.
        var keptAs: String?
        if problem != nil, !journal.missing {
            let stem = journal.path + ".damaged-\(time(nil))"
            var copy = stem
            var n = 1
            while access(copy, F_OK) == 0, n < 1000 {
                n += 1
                copy = stem + "-\(n)"
            }
            try journal.keepCopy(as: copy)
            keptAs = copy
        }
        journal.adopt(headerBytes: scan?.headerBytes ?? 0)
        var starts = scan?.starts ?? []
        var moves = scan?.moves ?? []
        var notOurs = 0
        var afterALoss = 0
        switch problem {
        case .replaced, .noHeader:
            // Another database's lines: its games are not these, whatever their ids.
            notOurs = starts.count + moves.count
            starts = []
            moves = []
        case .damaged:
            // A move whose game's start was in a damaged line has no game to belong to.
            let started = Set(starts.map(\.id))
            moves = try moves.filter { try started.contains($0.game) || gameStore.hasRow(game: $0.game) }
            let playable = try JournalRecovery.playable(moves, storedPlies: gameStore.storedPlies(game:round:))
            afterALoss = moves.count - playable.count
            moves = playable
        case .missing, nil:
            break
        }
        if !starts.isEmpty || !moves.isEmpty {
            try transactions.foldAlone { try gameStore.insertRecovered(starts, moves) }   // then cut back to the header
        }
        let ident = state.ident ?? JournalScan.newIdent()
        try journal.reset(ident: ident, current: scan)
        try db.run("UPDATE move_journal SET ident = ?, clean = 0 WHERE id = 1", .text(ident))
        try transactions.syncWAL()
        return problem.map { JournalSalvage(problem: $0, starts: starts.count, moves: moves.count,
                                            orphanMoves: notOurs > 0 ? 0 : (scan?.moves.count ?? 0) - moves.count - afterALoss,
                                            movesAfterALoss: afterALoss, notOurs: notOurs,
                                            badLines: scan?.badLines ?? [], keptAs: keptAs) }
    }

    /// The moves of `moves` that can be played: in each game's round, those
    /// that follow on from the plies stored (`storedPlies`: how many) without
    /// a gap. A damaged line loses its move, and with it every later move of
    /// its round: each was played on the position it made.
    static func playable(_ moves: [JournalMove], storedPlies: (Int, Int) throws -> Int) throws -> [JournalMove] {
        struct Round: Hashable { var game: Int, round: Int }
        var next: [Round: Int] = [:]   // the ply each round needs next; 0: past a gap
        var keep: [JournalMove] = []
        for m in moves.sorted(by: { ($0.game, $0.round, $0.ply) < ($1.game, $1.round, $1.ply) }) {
            let key = Round(game: m.game, round: m.round)
            let expected = try next[key] ?? storedPlies(m.game, m.round) + 1
            if expected == 0 { continue }
            if m.ply < expected { keep.append(m); continue }   // stored already: INSERT OR IGNORE skips it
            guard m.ply == expected else { next[key] = 0; continue }
            keep.append(m)
            next[key] = expected + 1
        }
        return keep
    }

    /// At a clean stop, once every line is folded and on disk: a journal
    /// found missing or empty at the next start loses nothing.
    func markClean() {
        guard journal.waiting == 0, journal.size <= journal.headerBytes, !db.isInTransaction,
              (try? transactions.syncWAL()) != nil else { return }
        try? db.run("UPDATE move_journal SET clean = 1 WHERE id = 1")
    }

    /// What the journal in `directory` holds, against the database there,
    /// without changing either (`ghostd journal check`). Best run while
    /// ghostd is stopped: a running one appends to it.
    static func check(directory: String) throws -> JournalReport {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let path = base + Store.fileName
        guard access(path, F_OK) == 0 else { throw Store.Failure.cannotCreateDirectory(path, reason: "there is no database") }
        let db = try DatabaseFile.openChecked(path: path)
        defer { db.close() }
        let version = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
        let state = version >= 15 ? try JournalRecovery.state(db) : JournalState()
        let journal = try MoveJournal(path: path + "-moves", folder: directory)
        let scan = try journal.read()
        return JournalReport(path: journal.path, exists: scan != nil,
                             ident: scan.flatMap { if case .ident(let i) = $0.header { i } else { nil } },
                             expected: state.ident, clean: state.clean,
                             starts: scan?.starts.count ?? 0, moves: scan?.moves.count ?? 0,
                             badLines: scan?.badLines ?? [], tornTail: scan?.tornTail ?? false,
                             problem: try JournalProblem.of(scan, state, isFolded: isFolded(db)))
    }
}
