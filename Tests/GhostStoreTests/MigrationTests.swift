import Foundation
import Testing
@testable import GhostStore

/// A fresh directory for one database, removed when this goes away.
private final class MigrationDir {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ghostd-migrate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    var database: String { (path as NSString).appendingPathComponent(Store.fileName) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

private let t0 = 1_700_000_000

/// A database as ghostd 0.2 left it: schema 1, with
/// - players alice (3 wins of 5), bob (1 of 4), dave (0 of 2), carol (never played),
///   and alice's language preference nl;
/// - game 1, over: alice beat bob with "pear";
/// - game 2, active: bob (seat 0) vs alice, "pe", bob to move, alice's restart offer pending.
private func makeVersion1(_ dir: MigrationDir) throws {
    let db = try SQLiteDatabase(path: dir.database)
    defer { db.close() }
    try db.execute(Store.migrations[0])
    try db.execute("PRAGMA user_version=1")
    for (name, wins, played) in [("alice", 3, 5), ("bob", 1, 4), ("carol", 0, 0), ("dave", 0, 2)] {
        try db.run("INSERT INTO players(name, first_seen, last_seen, wins, played) VALUES (?, ?, ?, ?, ?)",
                   .text(name), .of(t0), .of(t0 + 10), .of(wins), .of(played))
    }
    try db.run("INSERT INTO preferences(player, key, value) VALUES ('alice', 'lang', 'nl')")
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, round, fragment, to_move, status,
                          winner, loser, reason, started_at, ended_at)
        VALUES (1, 'en', 'alice', 'bob', 'a1', 'b1', 1, 'pear', 0, 'over', 'alice', 'bob', 'word', ?, ?)
        """, .of(t0), .of(t0 + 60))
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, round, fragment, to_move,
                          offer_seat, offer_kind, offer_spent1, started_at)
        VALUES (2, 'en', 'bob', 'alice', 'b2', 'a2', 1, 'pe', 0, 1, 'restart', 1, ?)
        """, .of(t0 + 100))
    for (game, ply, seat, letter, fragment) in [(1, 1, 0, "p", "p"), (1, 2, 1, "e", "pe"), (1, 3, 0, "a", "pea"),
                                                (1, 4, 1, "r", "pear"), (2, 1, 0, "p", "p"), (2, 2, 1, "e", "pe")] {
        try db.run("INSERT INTO moves(game_id, round, ply, seat, letter, fragment, at) VALUES (?, 1, ?, ?, ?, ?, ?)",
                   .of(game), .of(ply), .of(seat), .text(letter), .text(fragment), .of(t0 + 100 + ply))
    }
}

private func columns(_ db: SQLiteDatabase, _ table: String) throws -> [String] {
    try db.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") { $0.text(0) }
}

@Suite struct MigrationTests {
    @Test func version1DatabaseIsMigratedWithItsScoresAndGames() throws {
        let dir = try MigrationDir()
        try makeVersion1(dir)
        do {
            let db = try SQLiteDatabase(path: dir.database)
            #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
            #expect(try columns(db, "players").contains("wins"))
            db.close()
        }

        let store = try Store(directory: dir.path)
        #expect(Store.schemaVersion == 2)
        #expect(store.userVersion == Store.schemaVersion)
        #expect(!store.hasPendingWrites)

        // The v1 wins and played are now the `game` board; carol never played: not listed.
        #expect(try store.scores(board: "game", limit: 10) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 5),
            ScoreRow(rank: 2, name: "bob", wins: 1, played: 4),
            ScoreRow(rank: 3, name: "dave", wins: 0, played: 2),
        ])
        #expect(try store.scores(board: "match", limit: 10).isEmpty)
        #expect(try store.scores(board: "hard", limit: 10).isEmpty)
        #expect(try store.rank(of: "alice") == ScoreRow(rank: 1, name: "alice", wins: 3, played: 5))
        #expect(try store.rank(of: "BOB") == ScoreRow(rank: 2, name: "bob", wins: 1, played: 4))
        #expect(try store.rank(of: "dave") == ScoreRow(rank: 3, name: "dave", wins: 0, played: 2))
        #expect(try store.rank(of: "carol") == ScoreRow(rank: 3, name: "carol", wins: 0, played: 0))
        #expect(try store.rank(of: "alice", board: "match") == ScoreRow(rank: 1, name: "alice", wins: 0, played: 0))
        // Names, preferences and results are kept.
        #expect(try store.allNames() == ["alice", "bob", "carol", "dave"])
        #expect(try store.preference(.language, for: "alice") == "nl")
        let result = try #require(try store.result(game: 1))
        #expect(result.winner == "alice" && result.loser == "bob" && result.reason == "word" && result.fragment == "pear")

        // The active game: a single game between people, seat 0 starts, no letters earned.
        let active = try store.activeGames()
        #expect(active.count == 1)
        let g = try #require(active.first)
        #expect(g.id == 2 && g.lang == "en" && g.players == ["bob", "alice"] && g.tokens == ["b2", "a2"])
        #expect(g.round == 1 && g.fragment == "pe" && g.toMove == 0 && g.startedAt == t0 + 100)
        #expect(g.offer == StoredGame.Offer(seat: 1, kind: "restart", lang: nil) && g.offerSpent == [false, true])
        #expect(g.mode == "single" && g.ghost == [0, 0] && g.starter == 0 && g.bots == [nil, nil])
        #expect(try store.moves(game: 2, round: 1) == ["p", "e"])

        // The schema behind it.
        do {
            let db = try SQLiteDatabase(path: dir.database)
            defer { db.close() }
            #expect(try columns(db, "players") == ["name", "first_seen", "last_seen"])
            #expect(try columns(db, "scores") == ["player", "board", "wins", "played"])
            let games = try columns(db, "games")
            for c in ["bot0", "bot1", "mode", "ghost0", "ghost1", "starter"] { #expect(games.contains(c), "\(c)") }
            let finished = try db.query("SELECT id, mode, bot0, bot1, winner, ghost0, ghost1 FROM finished_games") {
                "\($0.int(0)) \($0.text(1)) [\($0.text(2))] [\($0.text(3))] \($0.text(4)) \($0.int(5)) \($0.int(6))"
            }
            #expect(finished == ["1 single [] [] alice 0 0"])
        }

        // Play goes on: bob wins game 2; the board and the ranks follow.
        try store.recordMove(game: 2, round: 1, ply: 3, seat: 0, letter: "a", fragment: "pea", now: t0 + 200)
        try store.finishGame(game: 2, winner: "bob", loser: "alice", reason: "word", fragment: "pear", now: t0 + 201)
        try store.commit()
        #expect(try store.activeGames().isEmpty)
        #expect(try store.rank(of: "bob") == ScoreRow(rank: 2, name: "bob", wins: 2, played: 5))
        #expect(try store.rank(of: "alice") == ScoreRow(rank: 1, name: "alice", wins: 3, played: 6))
        #expect(try store.rank(of: "dave") == ScoreRow(rank: 3, name: "dave", wins: 0, played: 2))
        // A first game on a new board.
        let id = try store.createGame(lang: "en", players: ["carol", "bot-hard"], tokens: ["c3", "x3"], bots: [nil, "hard"], now: t0 + 300)
        #expect(id == 3)
        try store.finishGame(game: id, winner: "carol", loser: "bot-hard", reason: "dead", fragment: "q",
                             board: "hard", people: ["carol"], now: t0 + 301)
        try store.commit()
        #expect(try store.scores(board: "hard", limit: 10) == [ScoreRow(rank: 1, name: "carol", wins: 1, played: 1)])
        #expect(try store.rank(of: "carol") == ScoreRow(rank: 3, name: "carol", wins: 0, played: 0))
        store.close()

        // Reopening does not migrate again, and keeps everything.
        let again = try Store(directory: dir.path)
        defer { again.close() }
        #expect(again.userVersion == Store.schemaVersion)
        #expect(try again.scores(board: "game", limit: 10) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 6),
            ScoreRow(rank: 2, name: "bob", wins: 2, played: 5),
            ScoreRow(rank: 3, name: "dave", wins: 0, played: 2),
        ])
        #expect(try again.rank(of: "bob") == ScoreRow(rank: 2, name: "bob", wins: 2, played: 5))
        #expect(try again.rank(of: "carol", board: "hard") == ScoreRow(rank: 1, name: "carol", wins: 1, played: 1))
    }

    /// A migration that fails leaves the database as it was: still version 1, v1 columns intact.
    @Test func failedMigrationRollsBack() throws {
        let dir = try MigrationDir()
        try makeVersion1(dir)
        do {
            // Something in the way of migration 2: a table it means to create.
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("CREATE TABLE scores (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        let db = try SQLiteDatabase(path: dir.database)
        defer { db.close() }
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
        #expect(try columns(db, "players").contains("wins"))
        #expect(try columns(db, "games").contains("mode") == false)
        #expect(try db.query("SELECT wins FROM players WHERE name = 'alice'") { $0.int(0) } == [3])
    }

    /// A database from a newer ghostd (a higher user_version) is left alone.
    @Test func newerDatabaseIsNotTouched() throws {
        let dir = try MigrationDir()
        do {
            let store = try Store(directory: dir.path)
            store.close()
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("PRAGMA user_version = \(Store.schemaVersion + 1)")
            db.close()
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion + 1)
    }
}
