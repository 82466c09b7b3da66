import Foundation
import Testing
@testable import GhostStore

/// New databases have pages of 1 KiB (every commit writes each
/// page it changed to the WAL and checksums it whole, so a letter's commit
/// costs a quarter as much in frames); a database made before keeps its
/// pages of 4 KiB and works as before; `--max-db-pages` counts pages of
/// 4 KiB whatever the file's own size; and a game's start is one INSERT.
@Suite struct PageSizeTests {
    @Test("A new database is made with pages of 1 KiB")
    func newDatabaseHasSmallPages() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        #expect(store.pageSize == 1024)
        store.close()
        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarInt(db, "PRAGMA page_size") == 1024)
        #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
    }

    /// A database as an older ghostd made it: 4 KiB pages, WAL, schema 0.
    private func makeOldDatabase(_ dir: TempDir) throws {
        let db = try SQLiteDatabase(path: dir.database)
        defer { db.close() }
        try db.execute("PRAGMA page_size=4096")
        try db.execute("PRAGMA journal_mode=WAL")
    }

    @Test("A database with pages of 4 KiB keeps them, migrates, and plays games as before")
    func olderDatabaseKeepsItsPages() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try makeOldDatabase(dir)
        do {
            let store = try Store(directory: dir.path)
            defer { store.close() }
            #expect(store.pageSize == 4096)
            #expect(store.userVersion == Store.schemaVersion)
            for name in ["ann", "bob"] { try store.registerName(name, now: t0) }
            let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "bob"], tokens: freshTokens()),
                                          networks: ["192.0.2.1", "198.51.100.2"], now: t0)
            try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "p", now: t0)
            try store.finishGame(game: id, winner: "ann", loser: "bob", reason: "word", finalState: "fragment=p", board: "game", now: t0 + 1)
            try store.commit()
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.pageSize == 4096)
        #expect(try store.scoreStore.scores(board: "game", limit: 10).map(\.name) == ["ann", "bob"])
    }

    @Test("--max-db-pages counts pages of 4 KiB on a database of 1 KiB pages and on one of 4 KiB")
    func pageLimitCountsPagesOf4KiB() throws {
        let small = try TempDir()
        defer { small.remove() }
        do {
            let store = try Store(directory: small.path, maxPageCount: 50)
            defer { store.close() }
            #expect(try store.pageCounts().max == 50)
            #expect(try store.db.query("PRAGMA max_page_count") { $0.int(0) }.first == 200)
            // Its size in 4 KiB pages, rounded up: the 1 KiB pages over 4.
            let pages = try store.db.query("PRAGMA page_count") { $0.int(0) }.first ?? 0
            #expect(try store.pageCounts().pages == (pages + 3) / 4)
        }
        let large = try TempDir()
        defer { large.remove() }
        try makeOldDatabase(large)
        let store = try Store(directory: large.path, maxPageCount: 50)
        defer { store.close() }
        #expect(try store.pageCounts().max == 50)
        #expect(try store.db.query("PRAGMA max_page_count") { $0.int(0) }.first == 50)
        #expect(try store.pageCounts().pages == store.db.query("PRAGMA page_count") { $0.int(0) }.first)
    }

    @Test("A game created with its networks is what createGame and noteStarted made of it, in one statement")
    func createGameWithNetworks() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        store.db.statementLog = []
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "bob"], tokens: freshTokens()),
                                      networks: ["192.0.2.1", ""], now: t0 + 5)
        #expect(store.db.statementLog?.filter { $0.contains("games") }.count == 1)
        #expect(try store.gameNetworks(game: id) == ["192.0.2.1", ""])
        #expect(try store.activeGameCount(network: "192.0.2.1", limit: 5) == 1)
        #expect(try store.untouchedGames(before: t0 + 6, limit: 5).map { [$0.id, $0.lastActive] } == [[id, t0 + 5]])
        #expect(try store.untouchedGames(before: t0 + 5, limit: 5).isEmpty)
        // Without networks: as before, for noteStarted to fill in.
        let other = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["cy", "di"], tokens: freshTokens()), now: t0)
        #expect(try store.gameNetworks(game: other) == ["", ""])
    }
}
