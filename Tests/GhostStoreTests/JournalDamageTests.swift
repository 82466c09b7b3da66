import Foundation
import Testing
@testable import GhostStore

/// A damaged move journal is never emptied silently
/// (JournalScan.swift, JournalRecovery.swift). A folder left by a crash with
/// starts and moves in the journal: one flipped byte or a junk line in the
/// middle lost every line after it, and a removed or emptied journal lost
/// every start, while ghostd started as if nothing had happened. Now a torn
/// tail is dropped, and anything else refuses the start with the file left
/// as it is, until `salvage` takes in every intact line.
@Suite("Store: a damaged, missing or replaced move journal")
struct JournalDamageTests {
    /// A folder as a crash leaves it: 3 games started and 4 moves each, all
    /// in the journal (none folded), the store never closed.
    private func crashedFolder() throws -> (dir: TempDir, games: [Int]) {
        let dir = try TempDir("ghostd-journal")
        var games: [Int] = []
        let store = try Store(directory: dir.path, durability: .normal)   // never closed: the process dies
        for _ in 0..<3 {
            // Tokens of the new form, as the server makes them: the start waits in the journal (JournalStart.swift).
            let id = try store.nextGameID()
            let tokens = [ResumeTokens.new(game: id, seat: 0), ResumeTokens.new(game: id, seat: 1)]
            games.append(try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "ben"], tokens: tokens), now: t0))
            try store.commit()
        }
        for ply in 1...4 {
            for g in games {
                try store.recordMove(game: g, round: 1, ply: ply, seat: (ply - 1) % 2, move: "abcd".map(String.init)[ply - 1], now: t0 + ply)
                try store.commit()
            }
        }
        #expect(store.lastCommitWrote == .journal)
        let lines = try journalBody(dir).split(separator: "\n")
        #expect(lines.map { $0.hasPrefix("start ") } == Array(repeating: true, count: 3) + Array(repeating: false, count: 12))
        return (dir, games)
    }

    private var journal: (TempDir) -> String { { $0.database + "-moves" } }

    private func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    private func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    /// The store's refusal, with the file unchanged.
    private func refused(_ dir: TempDir, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let before = (try? bytes(journal(dir)))
        do {
            let store = try Store(directory: dir.path, durability: .normal)
            store.close()
            Issue.record("the store opened", sourceLocation: sourceLocation)
            return nil
        } catch let refusal as Store.Refusal {
            #expect((try? bytes(journal(dir))) == before, "the journal was changed", sourceLocation: sourceLocation)
            return refusal.description
        }
    }

    @Test("A flipped byte in the middle: refused, naming the line, the file untouched; nothing was lost from the database")
    func flippedByteInTheMiddle() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        var b = try bytes(journal(dir))
        let lines = b.indices.filter { b[$0] == 0x0A }
        // Line 6 (a header, 3 starts, then 12 moves: game 2's first): its second byte.
        b[lines[4] + 2] ^= 0x01
        try write(b, journal(dir))
        let why = try refused(dir)
        #expect(why?.contains("line 6 is damaged, and 10 intact line(s) follow it") == true, "\(why ?? "")")
        #expect(why?.contains("ghostd journal salvage") == true)
    }

    @Test("Damage in lines a transaction folded in already (still in the file) loses nothing: the store opens")
    func damageInFoldedLines() throws {
        let (dir, games) = try crashedFolder()
        defer { dir.remove() }
        do {
            // Reopened without a close: the file is recovered; then moves, a transaction (folds them), more moves.
            let store = try Store(directory: dir.path, durability: .normal)
            for (i, g) in games.enumerated() { try store.recordMove(game: g, round: 1, ply: 5, seat: 0, move: "e", now: t0 + i); try store.commit() }
            try store.touchGame(game: games[0], at: t0 + 10)   // a write: a transaction
            try store.commit()
            #expect(store.lastCommitWrote == .database)
            for (i, g) in games.enumerated() { try store.recordMove(game: g, round: 1, ply: 6, seat: 1, move: "f", now: t0 + i); try store.commit() }
        }
        var b = try bytes(journal(dir))
        let lines = b.indices.filter { b[$0] == 0x0A }
        b[lines[0] + 2] ^= 0x01   // line 2: game 1's fifth move, folded by the transaction
        try write(b, journal(dir))
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        #expect(try store.activeGames().map(\.moves.count) == [6, 6, 6])
    }

    @Test("A junk line a third of the way in: refused")
    func junkLine() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        var b = try bytes(journal(dir))
        let lines = b.indices.filter { b[$0] == 0x0A }
        b.insert(contentsOf: Array("junk\n".utf8), at: lines[4] + 1)
        try write(b, journal(dir))
        #expect(try refused(dir)?.contains("line 6 is damaged, and 11 intact line(s) follow it") == true)
    }

    @Test("A torn tail (the last append cut short) and garbage at the end are dropped: every whole line is kept")
    func tornTail() throws {
        let (dir, games) = try crashedFolder()
        defer { dir.remove() }
        var b = try bytes(journal(dir))
        b.append(contentsOf: Array("\(games[0]) 1 5 0 \(t0) 01".utf8))   // cut mid-line
        try write(b, journal(dir))
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        #expect(try store.activeGames().map(\.moves.count) == [4, 4, 4])
        #expect(try journalBody(dir) == "")
    }

    @Test("A removed or emptied journal after a crash: refused; after a clean stop: no loss, a new one is made")
    func missingOrEmpty() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        try write([], journal(dir))
        #expect(try refused(dir)?.contains("it is missing or empty, and ghostd did not stop cleanly") == true)
        try FileManager.default.removeItem(atPath: journal(dir))
        #expect(try refused(dir)?.contains("it is missing or empty") == true)
        #expect(!FileManager.default.fileExists(atPath: journal(dir)), "a refused start made the file")

        let clean = try TempDir("ghostd-journal")
        defer { clean.remove() }
        do {
            let store = try Store(directory: clean.path, durability: .normal)
            let id = try store.nextGameID()
            _ = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "ben"],
                                             tokens: [ResumeTokens.new(game: id, seat: 0), ResumeTokens.new(game: id, seat: 1)]), now: t0)
            try store.commit()
            store.close()
        }
        try FileManager.default.removeItem(atPath: clean.database + "-moves")
        let store = try Store(directory: clean.path, durability: .normal)
        defer { store.close() }
        #expect(try store.activeGames().count == 1)
        #expect(try journalBody(clean) == "")
    }

    @Test("Another database's journal put in its place: refused")
    func replaced() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        let (other, _) = try crashedFolder()
        defer { other.remove() }
        try write(try bytes(journal(other)), journal(dir))
        #expect(try refused(dir)?.contains("the one the database expects") == true)
    }

    @Test("check reports without changing anything; salvage takes in every intact line, keeps the damaged file aside, and the store opens")
    func checkAndSalvage() throws {
        let (dir, games) = try crashedFolder()
        defer { dir.remove() }
        var b = try bytes(journal(dir))
        let lines = b.indices.filter { b[$0] == 0x0A }
        b[lines[4] + 2] ^= 0x01   // line 6: game 2's first move ('a')
        try write(b, journal(dir))

        let report = try Store.checkJournal(directory: dir.path)
        #expect(report.exists && report.ident != nil && report.ident == report.expected && !report.clean)
        #expect(report.starts == 3 && report.moves == 11 && report.badLines == [6] && !report.tornTail)
        #expect(report.problem == .damaged(line: 6, intactAfter: 10))
        #expect(try bytes(journal(dir)) == b)

        let store = try Store(directory: dir.path, durability: .normal, salvageJournal: true)
        let salvage = try #require(store.salvaged)
        #expect(salvage.starts == 3 && salvage.moves == 8 && salvage.orphanMoves == 0 && salvage.movesAfterALoss == 3
                && salvage.notOurs == 0 && salvage.badLines == [6])
        let kept = try #require(salvage.keptAs)
        #expect(try bytes(kept) == b)
        // Every intact line is in but game 2's moves after its damaged first
        // one: played on the position it made, they cannot be played without
        // it. Taken in (b, c, d from ply 2 on), the game did not replay, and
        // could not be resumed at all.
        #expect(try store.activeGames().map { $0.moves.map(\.move) } == [["a", "b", "c", "d"], [], ["a", "b", "c", "d"]])
        #expect(try journalBody(dir) == "")
        store.close()
        #expect(try Store.checkJournal(directory: dir.path).problem == nil)
        #expect(games.count == 3)
    }

    @Test("salvage takes nothing from another database's journal: its games are not these, whatever their ids")
    func salvageReplaced() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        let (other, _) = try crashedFolder()
        defer { other.remove() }
        // This folder's moves are in its tables (folded), the other's journal in its place: the same game ids, a ply more.
        let g: Int
        do {
            let store = try Store(directory: dir.path, durability: .normal)
            g = try store.activeGames().first?.id ?? 0
            store.close()
        }
        var withMove: [UInt8] = []
        MoveJournal.appendLine(JournalMove(game: g, round: 1, ply: 5, seat: 0, move: "z", at: t0), to: &withMove)
        let foreign = try bytes(journal(other)) + withMove
        try write(foreign, journal(dir))
        // (A clean stop left no lines to lose: only a file that is not this database's.)
        let why = try refused(dir)
        #expect(why?.contains("the one the database expects") == true, "\(why ?? "")")
        let store = try Store(directory: dir.path, durability: .normal, salvageJournal: true)
        defer { store.close() }
        let salvage = try #require(store.salvaged)
        #expect(salvage.starts == 0 && salvage.moves == 0 && salvage.notOurs == 16, "\(salvage)")
        #expect(try store.activeGames().map { $0.moves.map(\.move) } == Array(repeating: ["a", "b", "c", "d"], count: 3))
    }

    @Test("A journal from before schema 15 (no header) is taken in, and replaced by one with a header")
    func legacyJournal() throws {
        let (dir, _) = try crashedFolder()
        defer { dir.remove() }
        // As a schema-14 ghostd left it: no header, no move_journal table.
        let b = try bytes(journal(dir))
        let header = (b.firstIndex(of: 0x0A) ?? 0) + 1
        try write(Array(b[header...]), journal(dir))
        do {
            let db = try raw(dir)
            try db.execute("DROP TABLE running; DROP TABLE outages; DROP TABLE move_journal; DROP TABLE upgrade_work; DROP TABLE follows; DROP TABLE blocks; DROP TABLE reports; DROP TABLE sanctions; PRAGMA user_version = 14")
            db.close()
        }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        #expect(try store.activeGames().map(\.moves.count) == [4, 4, 4])
        #expect(try journalBody(dir) == "")
        #expect(try JournalRecovery.state(try #require(store.db.sqlite)).ident != nil)
    }
}
