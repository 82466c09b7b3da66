import Testing
@testable import GhostStore

/// The store's statements are prepared once and reused: none is parsed and
/// planned again because of the values bound to it. Without the
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
            try store.gameStore.noteStarted(game: id, networks: ["192.0.2.\(i)", i % 2 == 0 ? "" : "198.51.100.\(i)"], now: t0)
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

    private static let insert = SQL("INSERT INTO t(a, b, c) VALUES (?, ?, ?)")
    private static let row = SQL("SELECT typeof(a), a, typeof(b), coalesce(b, 'null'), c FROM t WHERE c = ?")

    @Test("An SQL constant binds each value as its type: \"\" as text (not NULL), nil as NULL, and is reused as it is")
    func typedBinding() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let db = try SQLiteDatabase(path: dir.database)
        defer { db.close() }
        try db.execute("CREATE TABLE t(a, b, c)")
        try db.run(Self.insert, "", nil as String?, 1)
        try db.run(Self.insert, "h\u{e9}llo", "x" as String?, Int.max)
        try db.run(Self.insert, String(repeating: "w", count: 300), 7 as Int?, -1)
        let read: (Int) throws -> String? = { c in
            try db.first(Self.row, c) { "\($0.text(0)) \($0.text(1).count) \($0.text(2)) \($0.text(3)) \($0.int(4))" }
        }
        #expect(try read(1) == "text 0 null null 1")
        #expect(try read(Int.max) == "text 5 text x \(Int.max)")
        #expect(try read(-1) == "text 300 integer 7 -1")
        #expect(try read(2) == nil)
        #expect(try db.first(Self.row, 1) { $0.text(1) } == "")
    }
}
