import Foundation
import Testing
@testable import GhostStore

/// A fresh directory under the system's temporary folder, removed by `remove()`.
private final class TempDir {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ghostd-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    var database: String { (path as NSString).appendingPathComponent(Store.fileName) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Opens a raw connection on the database file, for looking behind the store.
private func raw(_ dir: TempDir) throws -> SQLiteDatabase { try SQLiteDatabase(path: dir.database) }

private func scalarText(_ db: SQLiteDatabase, _ sql: String) throws -> String? {
    try db.query(sql) { $0.text(0) }.first
}

private func scalarInt(_ db: SQLiteDatabase, _ sql: String) throws -> Int? {
    try db.query(sql) { $0.int(0) }.first
}

private let t0 = 1_700_000_000

@Suite struct StoreTests {
    @Test func newDatabaseIsAtTheSchemaVersionInWALMode() throws {
        let dir = try TempDir()
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(Store.schemaVersion == Store.migrations.count)
        #expect(Store.schemaVersion >= 1)
        #expect(store.userVersion == Store.schemaVersion)
        #expect(store.path == dir.database)
        #expect(FileManager.default.fileExists(atPath: dir.database))
        #expect(!store.hasPendingWrites)

        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
        #expect(try scalarInt(db, "PRAGMA user_version") == Store.schemaVersion)
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name") { $0.text(0) }
        #expect(tables == ["finished_games", "games", "moves", "players", "preferences", "scores"])
    }

    @Test func directoryIsCreatedIfMissing() throws {
        let dir = try TempDir()
        let nested = (dir.path as NSString).appendingPathComponent("a/b")
        let store = try Store(directory: nested, durability: .normal)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion)
        #expect(FileManager.default.fileExists(atPath: (nested as NSString).appendingPathComponent(Store.fileName)))
    }

    @Test func migratesAnEmptyDatabaseFromVersionZero() throws {
        let dir = try TempDir()
        // An existing, empty database file: user_version 0, no tables.
        #expect(FileManager.default.createFile(atPath: dir.database, contents: Data()))
        do {
            let db = try raw(dir)
            #expect(try scalarInt(db, "PRAGMA user_version") == 0)
            #expect(try scalarInt(db, "SELECT count(*) FROM sqlite_master") == 0)
            db.close()
        }
        let store = try Store(directory: dir.path)
        #expect(store.userVersion == Store.schemaVersion)
        // The migrated schema works.
        try store.registerName("alice", now: t0)
        try store.commit()
        #expect(try store.allNames() == ["alice"])
        store.close()

        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarInt(db, "PRAGMA user_version") == Store.schemaVersion)
        #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
        #expect(try scalarInt(db, "SELECT count(*) FROM sqlite_master WHERE name = 'games'") == 1)
    }

    @Test func reopeningKeepsEverything() throws {
        let dir = try TempDir()
        let gameID: Int
        do {
            let store = try Store(directory: dir.path)
            try store.registerName("Alice", now: t0)
            try store.registerName("bob", now: t0)
            try store.setPreference(.language, "nl", for: "alice", now: t0 + 1)
            gameID = try store.createGame(lang: "en", players: ["Alice", "bob"], tokens: ["t0", "t1"], now: t0 + 2)
            try store.recordMove(game: gameID, round: 1, ply: 1, seat: 0, letter: "p", fragment: "p", now: t0 + 3)
            try store.commit()
            store.close()
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion)
        #expect(try store.allNames() == ["Alice", "bob"])
        #expect(try store.preference(.language, for: "ALICE") == "nl")
        #expect(try store.preference(.language, for: "bob") == "en")
        let games = try store.activeGames()
        #expect(games.count == 1)
        #expect(games.first?.id == gameID)
        #expect(games.first?.players == ["Alice", "bob"])
        #expect(games.first?.tokens == ["t0", "t1"])
        #expect(games.first?.fragment == "p")
        #expect(games.first?.toMove == 1)
        #expect(try store.moves(game: gameID, round: 1) == ["p"])
    }

    @Test func registerNameKeepsTheFirstSpellingAndIgnoresCase() throws {
        let dir = try TempDir()
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(try store.registerName("Alice", now: t0) == "Alice")
        #expect(try store.registerName("alice", now: t0 + 5) == "Alice")
        #expect(try store.registerName("ALICE", now: t0 + 6) == "Alice")
        #expect(try store.registerName("bob", now: t0 + 7) == "bob")
        #expect(try store.registerName("carol", now: t0 + 8) == "carol")
        #expect(try store.registerName("Bert", now: t0 + 9) == "Bert")
        try store.commit()
        // One row per name, sorted case-insensitively.
        #expect(try store.allNames() == ["Alice", "Bert", "bob", "carol"])

        let db = try raw(dir)
        defer { db.close() }
        let alice = try db.query("SELECT first_seen, last_seen FROM players WHERE name = 'alice'") { ($0.int(0), $0.int(1)) }
        #expect(alice.count == 1)
        #expect(alice.first?.0 == t0)
        #expect(alice.first?.1 == t0 + 6)
    }

    @Test func preferencesDefaultAndPersist() throws {
        let dir = try TempDir()
        do {
            let store = try Store(directory: dir.path)
            #expect(Preference.language.rawValue == "lang")
            #expect(Preference.language.defaultValue == "en")
            // Unknown names and names without a preference get the default.
            #expect(try store.preference(.language, for: "nobody") == Preference.language.defaultValue)
            try store.registerName("bob", now: t0)
            #expect(try store.preference(.language, for: "bob") == Preference.language.defaultValue)
            try store.setPreference(.language, "nl", for: "Bob", now: t0)
            #expect(try store.preference(.language, for: "bob") == "nl")
            try store.setPreference(.language, "de", for: "BOB", now: t0)
            #expect(try store.preference(.language, for: "bob") == "de")
            // setPreference registers a new name.
            try store.setPreference(.language, "nl", for: "carol", now: t0)
            try store.commit()
            #expect(try store.allNames() == ["bob", "carol"])
            store.close()
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(try store.preference(.language, for: "bob") == "de")
        #expect(try store.preference(.language, for: "carol") == "nl")
        #expect(try store.preference(.language, for: "dave") == "en")
    }

    @Test func gameLifecycleRoundTrips() throws {
        let dir = try TempDir()
        let store = try Store(directory: dir.path)
        defer { store.close() }
        try store.registerName("alice", now: t0)
        try store.registerName("bob", now: t0)
        let tokens = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"]
        let g1 = try store.createGame(lang: "en", players: ["alice", "bob"], tokens: tokens, now: t0 + 1)
        let g2 = try store.createGame(kind: "ghost", lang: "nl", players: ["bob", "alice"], tokens: ["a", "b"], now: t0 + 2)
        #expect(g2 > g1)

        var expected1 = StoredGame(id: g1, kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: tokens, round: 1,
                                   fragment: "", toMove: 0, offer: nil, offerSpent: [false, false], startedAt: t0 + 1)
        let expected2 = StoredGame(id: g2, kind: "ghost", lang: "nl", players: ["bob", "alice"], tokens: ["a", "b"], round: 1,
                                   fragment: "", toMove: 0, offer: nil, offerSpent: [false, false], startedAt: t0 + 2)
        #expect(try store.activeGames() == [expected1, expected2])

        // Moves.
        try store.recordMove(game: g1, round: 1, ply: 1, seat: 0, letter: "p", fragment: "p", now: t0 + 3)
        try store.recordMove(game: g1, round: 1, ply: 2, seat: 1, letter: "e", fragment: "pe", now: t0 + 4)
        expected1.fragment = "pe"
        #expect(try store.activeGames() == [expected1, expected2])
        #expect(try store.moves(game: g1, round: 1) == ["p", "e"])
        #expect(try store.moves(game: g2, round: 1) == [])

        // An offer, then a letter cancels it and frees both seats to offer again.
        let offer = StoredGame.Offer(seat: 1, kind: "lang", lang: "nl")
        try store.setOffer(game: g1, offer: offer, spent: [false, true])
        expected1.offer = offer
        expected1.offerSpent = [false, true]
        #expect(try store.activeGames().first == expected1)
        try store.setOffer(game: g1, offer: StoredGame.Offer(seat: 0, kind: "restart", lang: nil), spent: [true, true])
        expected1.offer = StoredGame.Offer(seat: 0, kind: "restart", lang: nil)
        expected1.offerSpent = [true, true]
        #expect(try store.activeGames().first == expected1)
        try store.setOffer(game: g1, offer: nil, spent: [true, false])
        expected1.offer = nil
        expected1.offerSpent = [true, false]
        #expect(try store.activeGames().first == expected1)
        try store.setOffer(game: g1, offer: offer, spent: [true, true])
        try store.recordMove(game: g1, round: 1, ply: 3, seat: 0, letter: "a", fragment: "pea", now: t0 + 5)
        expected1.fragment = "pea"
        expected1.toMove = 1
        expected1.offer = nil
        expected1.offerSpent = [false, false]
        #expect(try store.activeGames().first == expected1)

        // A restart: a new round, perhaps in another language; the old round's moves stay.
        try store.setOffer(game: g1, offer: offer, spent: [false, true])
        try store.restartGame(game: g1, round: 2, lang: "nl")
        expected1.round = 2
        expected1.lang = "nl"
        expected1.fragment = ""
        expected1.toMove = 0
        expected1.offer = nil
        expected1.offerSpent = [false, false]
        #expect(try store.activeGames() == [expected1, expected2])
        #expect(try store.moves(game: g1, round: 1) == ["p", "e", "a"])
        #expect(try store.moves(game: g1, round: 2) == [])
        try store.recordMove(game: g1, round: 2, ply: 1, seat: 0, letter: "k", fragment: "k", now: t0 + 6)
        #expect(try store.moves(game: g1, round: 2) == ["k"])

        // The end.
        #expect(try store.result(game: g1) == nil)
        try store.finishGame(game: g1, winner: "bob", loser: "alice", reason: "abandoned", fragment: "k", now: t0 + 7)
        #expect(try store.activeGames() == [expected2])
        let result = try #require(try store.result(game: g1))
        #expect(result.winner == "bob")
        #expect(result.loser == "alice")
        #expect(result.reason == "abandoned")
        #expect(result.fragment == "k")
        #expect(try store.result(game: g2) == nil)
        #expect(try store.result(game: 999) == nil)
        #expect(try store.scores(limit: 10) == [ScoreRow(rank: 1, name: "bob", wins: 1, played: 1),
                                                ScoreRow(rank: 2, name: "alice", wins: 0, played: 1)])
        try store.commit()

        // The view of finished games.
        let db = try raw(dir)
        defer { db.close() }
        let finished = try db.query("SELECT id, winner, loser, reason, started, ended FROM finished_games") {
            [String($0.int(0)), $0.text(1), $0.text(2), $0.text(3), $0.text(4), $0.text(5)]
        }
        #expect(finished == [[String(g1), "bob", "alice", "abandoned", "2023-11-14 22:13:21", "2023-11-14 22:13:27"]])
    }

    @Test func uncommittedWritesAreInvisibleToAnotherConnection() throws {
        let dir = try TempDir()
        let writer = try Store(directory: dir.path)
        defer { writer.close() }
        let reader = try Store(directory: dir.path)
        defer { reader.close() }
        #expect(!writer.hasPendingWrites)

        try writer.registerName("alice", now: t0)
        let game = try writer.createGame(lang: "en", players: ["alice", "bob"], tokens: ["x", "y"], now: t0)
        #expect(writer.hasPendingWrites)
        // The writer sees its own writes; the other connection does not yet.
        #expect(try writer.allNames() == ["alice"])
        #expect(try writer.activeGames().count == 1)
        #expect(try reader.allNames() == [])
        #expect(try reader.activeGames() == [])

        try writer.commit()
        #expect(!writer.hasPendingWrites)
        #expect(try reader.allNames() == ["alice"])
        #expect(try reader.activeGames().map(\.id) == [game])

        // And again for a later batch.
        try writer.recordMove(game: game, round: 1, ply: 1, seat: 0, letter: "q", fragment: "q", now: t0)
        try writer.setPreference(.language, "nl", for: "alice", now: t0)
        #expect(try reader.moves(game: game, round: 1) == [])
        #expect(try reader.preference(.language, for: "alice") == "en")
        try writer.commit()
        #expect(try reader.moves(game: game, round: 1) == ["q"])
        #expect(try reader.preference(.language, for: "alice") == "nl")
        #expect(try reader.activeGames().first?.fragment == "q")

        // commit() with nothing pending is harmless.
        try writer.commit()
        try reader.commit()
    }

    @Test func closingWithoutCommitLosesTheWrites() throws {
        let dir = try TempDir()
        do {
            let store = try Store(directory: dir.path)
            try store.registerName("kept", now: t0)
            try store.commit()
            try store.registerName("lost", now: t0)
            store.close()
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(try store.allNames() == ["kept"])
    }

    @Test func scoresAndRanksWithTies() throws {
        let dir = try TempDir()
        let store = try Store(directory: dir.path)
        defer { store.close() }
        for name in ["alice", "bob", "Carol", "dave", "erin"] { try store.registerName(name, now: t0) }
        func play(_ winner: String, _ loser: String) throws {
            let g = try store.createGame(lang: "en", players: [winner, loser], tokens: ["a", "b"], now: t0)
            try store.finishGame(game: g, winner: winner, loser: loser, reason: "word", fragment: "pear", now: t0)
        }
        // No finished games: an empty list, and everyone shares rank 1 with 0 wins.
        #expect(try store.scores(limit: 10) == [])
        #expect(try store.rank(of: "alice") == ScoreRow(rank: 1, name: "alice", wins: 0, played: 0))

        try play("alice", "bob")
        try play("carol", "dave")   // another case than the stored "Carol"
        try play("bob", "dave")
        try play("alice", "CAROL")
        // alice 2/2, bob 1/2, Carol 1/2, dave 0/2; erin never played.
        let all = [
            ScoreRow(rank: 1, name: "alice", wins: 2, played: 2),
            ScoreRow(rank: 2, name: "bob", wins: 1, played: 2),
            ScoreRow(rank: 2, name: "Carol", wins: 1, played: 2),
            ScoreRow(rank: 4, name: "dave", wins: 0, played: 2),
        ]
        #expect(try store.scores(limit: 10) == all)
        #expect(try store.scores(limit: 100) == all)
        #expect(try store.scores(limit: 2) == Array(all.prefix(2)))
        #expect(try store.scores(limit: 1) == Array(all.prefix(1)))

        #expect(try store.rank(of: "alice") == all[0])
        #expect(try store.rank(of: "BOB") == all[1])
        #expect(try store.rank(of: "carol") == all[2])
        #expect(try store.rank(of: "Dave") == all[3])
        // Names without finished games rank after every name with more wins.
        #expect(try store.rank(of: "erin") == ScoreRow(rank: 4, name: "erin", wins: 0, played: 0))
        #expect(try store.rank(of: "zed") == ScoreRow(rank: 4, name: "zed", wins: 0, played: 0))

        // A tie at the top.
        try play("bob", "alice")
        try play("bob", "Carol")
        #expect(try store.scores(limit: 10) == [
            ScoreRow(rank: 1, name: "bob", wins: 3, played: 4),
            ScoreRow(rank: 2, name: "alice", wins: 2, played: 3),
            ScoreRow(rank: 3, name: "Carol", wins: 1, played: 3),
            ScoreRow(rank: 4, name: "dave", wins: 0, played: 2),
        ])
        try play("alice", "dave")
        #expect(try store.scores(limit: 2) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 4),
            ScoreRow(rank: 1, name: "bob", wins: 3, played: 4),
        ])
        #expect(try store.rank(of: "bob").rank == 1)
        #expect(try store.rank(of: "alice").rank == 1)
        #expect(try store.rank(of: "carol").rank == 3)
    }
}
