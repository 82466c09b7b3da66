import Foundation
import Testing
@testable import GhostStore

/// The move journal (MoveJournal.swift): a turn of moves alone is appended
/// to `ghostd.sqlite3-moves` with no SQL; a turn with a transaction folds
/// every waiting move into it; a crash leaves the file, which the next open
/// inserts; a damaged end is cut off.
@Suite struct MoveJournalTests {
    private func game(_ store: Store) throws -> Int {
        try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "ben"], tokens: freshTokens()), now: t0)
    }

    private func storedMoves(_ dir: TempDir) throws -> [String] {
        let db = try raw(dir)
        defer { db.close() }
        return try db.query("SELECT game_id || ' ' || round || ' ' || ply || ' ' || seat || ' ' || move || ' ' || at FROM moves ORDER BY game_id, round, ply") { $0.text(0) }
    }

    /// The journal's lines after its header (JournalScan.swift), which must be there.
    private func journalText(_ dir: TempDir) throws -> String {
        try journalBody(dir)
    }

    @Test func aLineIsItsFieldsItsCheckAndTheMove() throws {
        var bytes: [UInt8] = []
        let m = JournalMove(game: 12, round: 3, ply: 40, seat: 1, move: "word:ij s", at: t0)
        MoveJournal.appendLine(m, to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("12 3 40 1 \(t0) "))
        #expect(text.hasSuffix(" word:ij s\n"))
        #expect(text.split(separator: " ")[5].count == 8)
        #expect(MoveJournal.parseLine(bytes.dropLast()) == m)
        // Any byte changed, the line is refused.
        for i in 0..<(bytes.count - 1) where bytes[i] != 0x20 {
            var bad = bytes
            bad[i] = bad[i] == 0x31 ? 0x32 : 0x31
            #expect(MoveJournal.parseLine(bad.dropLast()) == nil, "byte \(i)")
        }
        #expect(MoveJournal.parseLine(bytes.prefix(10)) == nil)
    }

    @Test func aTurnOfMovesAloneIsAppendedWithoutSQLAndATransactionFoldsThem() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let id = try game(store)
        try store.commit()
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "p", now: t0 + 1)
        #expect(store.hasPendingWrites)
        try store.commit()
        try store.recordMove(game: id, round: 1, ply: 2, seat: 1, move: "e", now: t0 + 2)
        try store.commit()
        #expect(!store.hasPendingWrites)
        #expect(try storedMoves(dir) == [])
        #expect(try journalText(dir).split(separator: "\n").count == 2)
        #expect(try store.moves(game: id, round: 1).map(\.move) == ["p", "e"])
        #expect(try store.activeGames().first?.moves.map(\.move) == ["p", "e"])
        #expect(try store.lastMoves(game: id, limit: 1).map(\.move) == ["e"])
        // A turn with a transaction takes them, and its own move.
        try store.recordMove(game: id, round: 1, ply: 3, seat: 0, move: "a", now: t0 + 3)
        _ = try store.registerName("carol", now: t0)
        try store.commit()
        #expect(try storedMoves(dir) == ["\(id) 1 1 0 p \(t0 + 1)", "\(id) 1 2 1 e \(t0 + 2)", "\(id) 1 3 0 a \(t0 + 3)"])
        #expect(try store.moves(game: id, round: 1).map(\.move) == ["p", "e", "a"])
    }

    @Test("The journal keeps 64 KiB allocated past its end, so that a full disk cannot refuse the next moves (issue #43)")
    func spaceIsReservedAhead() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        let g = try game(store)
        try store.commit()
        try store.recordMove(game: g, round: 1, ply: 1, seat: 0, move: "p", now: t0)
        try store.commit()
        #expect(store.lastCommitWrote == .journal)
        var info = stat()
        #expect(stat(dir.database + "-moves", &info) == 0)
        let size = Int(info.st_size)
        guard store.journal.reservedEnd > 0 else {
            // A file system that cannot allocate ahead: appends go on without.
            print("spaceIsReservedAhead: fallocate not supported under \(dir.path)")
            return
        }
        #expect(store.journal.reservedEnd == size + MoveJournal.reserveBytes)
        #expect(Int(info.st_blocks) * 512 >= size + MoveJournal.reserveBytes, "allocated \(info.st_blocks * 512) bytes for \(size)")
    }

    @Test func aCrashLeavesTheFileAndTheNextOpenInsertsItsMoves() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var id = 0
        do {
            let store = try Store(directory: dir.path, durability: .normal)   // never closed: the process dies
            id = try game(store)
            try store.commit()
            for (ply, letter) in ["q", "u", "a"].enumerated() {
                try store.recordMove(game: id, round: 1, ply: ply + 1, seat: ply % 2, move: letter, now: t0 + ply)
                try store.commit()
            }
        }
        #expect(try storedMoves(dir) == [])
        let again = try Store(directory: dir.path, durability: .normal)
        defer { again.close() }
        #expect(try storedMoves(dir) == ["\(id) 1 1 0 q \(t0)", "\(id) 1 2 1 u \(t0 + 1)", "\(id) 1 3 0 a \(t0 + 2)"])
        #expect(try journalText(dir) == "")
        #expect(try again.activeGames().first?.moves.map(\.move) == ["q", "u", "a"])
    }

    @Test func aDamagedEndIsCutOffAndWhatCameBeforeIsKept() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var id = 0
        do {
            let store = try Store(directory: dir.path, durability: .normal)
            id = try game(store)
            try store.commit()
            try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "x", now: t0)
            try store.commit()
        }
        // A second line cut short, then garbage.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.database + "-moves"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\(id) 1 2 1 \(t0) 0123".utf8) + Data([0, 0, 0xFF, 0x0A]))
        try handle.close()
        let again = try Store(directory: dir.path, durability: .normal)
        defer { again.close() }
        #expect(try storedMoves(dir) == ["\(id) 1 1 0 x \(t0)"])
        #expect(try journalText(dir) == "")
    }

    @Test func closingFoldsEveryMoveAndEmptiesTheFile() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        let id = try game(store)
        try store.commit()
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "z", now: t0)
        try store.commit()
        #expect(try journalText(dir).isEmpty == false)
        store.close()
        #expect(try storedMoves(dir) == ["\(id) 1 1 0 z \(t0)"])
        #expect(try journalText(dir) == "")
    }

    @Test func aMoveAtAPlaceTakenIsRefusedAndAnUndoneCommandDropsItsMoves() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let id = try game(store)
        try store.commit()
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "p", now: t0)
        #expect(throws: (any Error).self) { try store.recordMove(game: id, round: 1, ply: 1, seat: 1, move: "q", now: t0) }
        store.beginCommand(savepoint: false)
        try store.recordMove(game: id, round: 1, ply: 2, seat: 1, move: "e", now: t0)
        #expect(store.rollbackCommand())
        try store.commit()
        #expect(try store.moves(game: id, round: 1).map(\.move) == ["p"])
        #expect(try journalText(dir).split(separator: "\n").count == 1)
    }

    /// Past `MoveJournal.foldLimit` moves waiting, a turn of moves alone
    /// folds them: the table is never further behind.
    @Test func tooManyWaitingMovesAreFolded() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let id = try game(store)
        try store.commit()
        for ply in 1...(MoveJournal.foldLimit + 1) {
            try store.recordMove(game: id, round: 1, ply: ply, seat: ply % 2, move: "a", now: t0)
            try store.commit()
        }
        #expect(try storedMoves(dir).count == MoveJournal.foldLimit + 1)
        #expect(store.journal.moves.isEmpty)
        #expect(try store.moves(game: id, round: 1).count == MoveJournal.foldLimit + 1)
    }
}
