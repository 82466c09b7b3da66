import Testing
@testable import GhostStore

/// The store's statements are prepared once and reused: none is parsed and
/// planned again because of the values bound to it (issue 29). Without the
/// query planner's stability guarantee, SQLite prepared a statement again at
/// every new binding when it had compared a bound value with a partial
/// index's condition (`net0 <> ?` against `net0 <> ''`) or used it as a LIKE
/// pattern: the cap on a network's games was parsed at every NEW and JOIN.
@Suite struct StatementReuseTests {
    @Test("The caps' counts and NAMES with a prefix are not prepared again for new values")
    func boundValuesDoNotReprepare() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        for i in 0..<6 {
            let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["a\(i)", "b\(i)"], tokens: freshTokens()), now: t0)
            try store.noteStarted(game: id, networks: ["192.0.2.\(i)", i % 2 == 0 ? "" : "198.51.100.\(i)"], now: t0)
            try store.registerName("a\(i)", now: t0)
        }
        try store.commit()
        let before = store.db.reprepareCount
        for i in 0..<6 {
            #expect(try store.activeGameCount(network: "192.0.2.\(i)", limit: 10) == 1)
            #expect(try store.activeGameCount(player: "b\(i)", limit: 10) == 1)
            #expect(try store.recentNames(prefix: "a\(i)", limit: 10).names.count == 1)
        }
        // (PRAGMA user_version, read before the migrations, was prepared again after them.)
        #expect(store.db.reprepareCount == before)
    }

    @Test("SQLite keeps no memory statistics, so it takes no global mutex at each allocation")
    func noMemoryStatistics() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        try store.registerName("someone", now: t0)
        try store.commit()
        #expect(SQLiteDatabase.countedMemory == 0)
    }
}
