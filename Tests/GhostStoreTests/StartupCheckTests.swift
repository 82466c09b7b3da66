import Foundation
import Testing
@testable import GhostStore

/// What the store checks when it opens a database: a
/// schema newer than this build, a damaged file, and an existing empty file
/// are refused with a typed error, and the refused file is left byte for
/// byte as it was; a new database is made only where there is no file.
@Suite struct StartupCheckTests {
    /// A database made by the store with some rows: names, a finished game,
    /// a score; closed (checkpointed: the WAL is gone).
    private func makeDatabase(_ dir: TempDir, names: Int = 300) throws {
        let store = try Store(directory: dir.path)
        defer { store.close() }
        for i in 0..<names { try store.registerName("player\(i)", now: t0 + i) }
        let game = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["player1", "player2"],
                                                tokens: freshTokens()), now: t0)
        try store.finishGame(game: game, winner: "player1", loser: "player2", reason: "word", finalState: "fragment=pear", board: "game", now: t0 + 9)
        try store.commit()
    }

    private func bytes(_ dir: TempDir) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: dir.database)) }

    @Test("A schema newer than this build (user_version 99) is refused, untouched")
    func newerSchemaIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try makeDatabase(dir)
        do {
            let db = try raw(dir)
            try db.execute("PRAGMA user_version = 99")
            db.close()
        }
        let before = try bytes(dir)
        #expect(throws: Store.Refusal.newerSchema(path: dir.database, found: 99, known: Store.schemaVersion)) {
            try Store(directory: dir.path)
        }
        #expect(try bytes(dir) == before)
        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarInt(db, "PRAGMA user_version") == 99)
        #expect(Store.Refusal.newerSchema(path: "/d/ghostd.sqlite3", found: 99, known: 8).description
                == "the database /d/ghostd.sqlite3 has schema 99, written by a newer ghostd; this ghostd knows schemas up to 8: run a newer ghostd on it")
    }

    @Test("A table page overwritten with garbage: quick_check fails, the file is refused, untouched")
    func damagedTablePageIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try makeDatabase(dir)
        let (page, pageSize) = try {
            let db = try raw(dir)
            defer { db.close() }
            return (try #require(try scalarInt(db, "SELECT rootpage FROM sqlite_master WHERE name = 'players'")),
                    try #require(try scalarInt(db, "PRAGMA page_size")))
        }()
        var data = try bytes(dir)
        #expect(data.count >= page * pageSize)
        var rng = SystemRandomNumberGenerator()
        for i in (page - 1) * pageSize ..< page * pageSize { data[i] = UInt8.random(in: 0...255, using: &rng) }
        try data.write(to: URL(fileURLWithPath: dir.database))
        do {
            _ = try Store(directory: dir.path)
            Issue.record("a damaged database was opened")
        } catch let Store.Refusal.damaged(path, detail) {
            #expect(path == dir.database)
            #expect(detail.hasPrefix("quick_check: ") || detail.contains("malformed"), "\(detail)")
            #expect(!detail.contains("\n"))
        }
        #expect(try bytes(dir) == data)
    }

    @Test("A file that is not a database at all is refused as damaged")
    func notADatabaseIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let junk = Data(repeating: 0x41, count: 8192)
        try junk.write(to: URL(fileURLWithPath: dir.database))
        #expect(throws: Store.Refusal.damaged(path: dir.database, detail: "file is not a database")) {
            try Store(directory: dir.path)
        }
        #expect(try bytes(dir) == junk)
    }

    @Test("An existing 0-byte database file is a damaged database, not a new one: refused, left empty")
    func emptyFileIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        #expect(FileManager.default.createFile(atPath: dir.database, contents: Data()))
        #expect(throws: Store.Refusal.emptyFile(path: dir.database)) { try Store(directory: dir.path) }
        #expect(try bytes(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.database + "-wal"))
        #expect(Store.Refusal.emptyFile(path: "/d/ghostd.sqlite3").description
                == "the database /d/ghostd.sqlite3 is an empty file: a damaged database, not a new one; restore it from a backup, or remove it to start afresh")
    }

    @Test("A folder where the database should be: refused with its path, not `sqlite error 14` (issue #43)")
    func folderIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.database, withIntermediateDirectories: false)
        #expect(throws: Store.Refusal.notAFile(path: dir.database)) { try Store(directory: dir.path) }
        #expect(Store.Refusal.notAFile(path: "/d/ghostd.sqlite3").description
                == "the database path /d/ghostd.sqlite3 is not a file (a folder is there): move it away, or give --data another folder")
    }

    @Test("Where there is no file, a new database is made whole: a leftover half-made one is replaced")
    func newDatabaseReplacesALeftover() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        // What a crash in the middle of making a database could leave.
        try Data(repeating: 0x42, count: 100).write(to: URL(fileURLWithPath: dir.database + ".new"))
        let store = try Store(directory: dir.path)
        try store.registerName("alice", now: t0)
        try store.commit()
        store.close()
        #expect(!FileManager.default.fileExists(atPath: dir.database + ".new"))
        let again = try Store(directory: dir.path)
        defer { again.close() }
        #expect(try again.nameStore.allNames() == ["alice"])
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
    }
}
