import Foundation
import Testing
@testable import GhostStore

/// `t0` as the views show it.
private let t0Text = "2023-11-14 22:13:20"

private func move(_ seat: Int, _ text: String) -> StoredMove { StoredMove(seat: seat, move: text) }

/// A database as ghostd 0.2 left it: schema 1, with
/// - players alice (3 wins of 5), bob (1 of 4), dave (0 of 2), carol (never played),
///   and alice's language preference nl;
/// - game 1, over: alice beat bob with "pear";
/// - game 2, active: bob (seat 0) vs alice, "pe", bob to move, alice's restart offer pending.
private func makeVersion1(_ dir: TempDir) throws {
    let db = try SQLiteDatabase(path: dir.database)
    defer { db.close() }
    try db.execute(Migrations.all[0])
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
    for (game, ply, seat, letter, fragment) in version1Moves {
        try db.run("INSERT INTO moves(game_id, round, ply, seat, letter, fragment, at) VALUES (?, 1, ?, ?, ?, ?, ?)",
                   .of(game), .of(ply), .of(seat), .text(letter), .text(fragment), .of(t0 + 100 + ply))
    }
}

private let version1Moves = [(1, 1, 0, "p", "p"), (1, 2, 1, "e", "pe"), (1, 3, 0, "a", "pea"),
                             (1, 4, 1, "r", "pear"), (2, 1, 0, "p", "p"), (2, 2, 1, "e", "pe")]

/// A database as ghostd 0.3 (schema 2) could have left it, with what the
/// real fixture (Fixtures/schema2.sqlite3) lacks: letters of G-H-O-S-T on
/// both seats, a finished match, a lang offer, an earlier round's moves, a
/// game finished before its first letter.
/// - ann, ben, cy; ann's medium-match score 1/1, ben's match score 0/1.
/// - game 1, over: a match, ann beat bot-medium (seat 1) 2 to 5 with "zz", dead.
/// - game 2, active: a match, ben vs ann, letters 3 and 4, round 8 that ann
///   (seat 1) started, "xy" (round 7 was "ab"); ben's lang nl offer pending.
/// - game 3, active: bot-easy (seat 0) vs cy, a single game, no letters yet.
/// - game 4, over: ann vs ben, ben won, abandoned before any letter.
private func makeVersion2(_ dir: TempDir) throws {
    let db = try SQLiteDatabase(path: dir.database)
    defer { db.close() }
    try db.execute(Migrations.all[0])
    try db.execute(Migrations.all[1])
    try db.execute("PRAGMA user_version=2")
    for name in ["ann", "ben", "cy"] {
        try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?)", .text(name), .of(t0), .of(t0))
    }
    try db.run("INSERT INTO scores(player, board, wins, played) VALUES ('ann', 'medium-match', 1, 1), ('ben', 'match', 0, 1), ('ann', 'match', 1, 1)")
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, bot1, mode, ghost0, ghost1, round, starter,
                          fragment, to_move, status, winner, loser, reason, started_at, ended_at)
        VALUES (1, 'en', 'ann', 'bot-medium', 'k1', 'l1', 'medium', 'ghost', 2, 5, 7, 0,
                'zz', 0, 'over', 'ann', 'bot-medium', 'dead', ?, ?)
        """, .of(t0), .of(t0 + 50))
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, mode, ghost0, ghost1, round, starter,
                          fragment, to_move, offer_seat, offer_kind, offer_lang, offer_spent0, started_at)
        VALUES (2, 'en', 'ben', 'ann', 'k2', 'l2', 'ghost', 3, 4, 8, 1, '', 1, 0, 'lang', 'nl', 1, ?)
        """, .of(t0 + 60))
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, bot0, started_at)
        VALUES (3, 'nl', 'bot-easy', 'cy', 'k3', 'l3', 'easy', ?)
        """, .of(t0 + 70))
    try db.run("""
        INSERT INTO games(id, lang, player0, player1, token0, token1, status, winner, loser, reason, started_at, ended_at)
        VALUES (4, 'en', 'ann', 'ben', 'k4', 'l4', 'over', 'ben', 'ann', 'abandoned', ?, ?)
        """, .of(t0 + 80), .of(t0 + 90))
    for (game, round, ply, seat, letter, fragment) in [(1, 7, 1, 0, "z", "z"), (1, 7, 2, 1, "z", "zz"),
                                                       (2, 7, 1, 0, "a", "a"), (2, 7, 2, 1, "b", "ab"),
                                                       (2, 8, 1, 1, "x", "x"), (2, 8, 2, 0, "y", "xy")] {
        try db.run("INSERT INTO moves(game_id, round, ply, seat, letter, fragment, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   .of(game), .of(round), .of(ply), .of(seat), .text(letter), .text(fragment), .of(t0 + 100 * game + ply))
    }
}

/// A database as ghostd 0.4 (schema 3) left it: ann and ben; ann's
/// preferences (lang nl, a hangman-mode saved by a later server's SET);
/// game 1 over (ann beat ben, "qx"), game 2 active with one move.
private func makeVersion3(_ dir: TempDir) throws {
    let db = try SQLiteDatabase(path: dir.database)
    defer { db.close() }
    for i in 0..<3 { try db.execute(Migrations.all[i]) }
    try db.execute("PRAGMA user_version=3")
    for name in ["ann", "ben"] {
        try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?)", .text(name), .of(t0), .of(t0))
    }
    try db.run("INSERT INTO preferences(player, key, value) VALUES ('ann', 'lang', 'nl'), ('ann', 'hangman-mode', 'fair')")
    try db.run("INSERT INTO scores(player, board, wins, played) VALUES ('ann', 'game', 1, 1), ('ben', 'game', 0, 1)")
    try db.run("""
        INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, final_state, started_at, ended_at)
        VALUES (1, 'ghost', 'en', 'ann', 'ben', 'k1', 'l1', 'over', 'ann', 'ben', 'dead', 'fragment=qx', ?, ?)
        """, .of(t0), .of(t0 + 5))
    try db.run("INSERT INTO games(id, kind, lang, player0, player1, token0, token1, started_at) VALUES (2, 'ghost', 'en', 'ben', 'ann', 'k2', 'l2', ?)",
               .of(t0 + 6))
    try db.run("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (2, 1, 1, 0, 'c', ?)", .of(t0 + 7))
}

/// A database as schema 4 left it, with finished games between people of
/// two kinds (one name in another case), one against the computer, one in
/// progress and one without a winner.
private func makeVersion4(_ dir: TempDir) throws {
    let db = try SQLiteDatabase(path: dir.database)
    defer { db.close() }
    for i in 0..<4 { try db.execute(Migrations.all[i]) }
    try db.execute("PRAGMA user_version=4")
    for name in ["ann", "ben", "cy"] {
        try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?)", .text(name), .of(t0), .of(t0))
    }
    let games: [(kind: String, p0: String, p1: String, bot1: String?, status: String, winner: String?)] = [
        ("ghost", "ann", "ben", nil, "over", "ann"),
        ("ghost", "BEN", "Ann", nil, "over", "BEN"),
        ("ghost", "ben", "ann", nil, "over", "ann"),
        ("hangman", "ben", "ann", nil, "over", "ben"),
        ("ghost", "ann", "bot-hard", "hard", "over", "bot-hard"),
        ("ghost", "ann", "cy", nil, "active", nil),
        ("ghost", "cy", "ben", nil, "over", nil),
    ]
    for (i, g) in games.enumerated() {
        try db.run("""
            INSERT INTO games(id, kind, lang, player0, player1, token0, token1, bot1, status, winner, loser, started_at)
            VALUES (?, ?, 'en', ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, .of(i + 1), .text(g.kind), .text(g.p0), .text(g.p1), .text("t\(i)"), .text("u\(i)"), .of(g.bot1), .text(g.status),
                   .of(g.winner), .of(g.winner.map { $0 == g.p0 ? g.p1 : g.p0 }), .of(t0 + i))
    }
}

@Suite struct MigrationTests {
    @Test func version1DatabaseIsMigratedWithItsScoresAndGames() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion1(dir)
        do {
            let db = try raw(dir)
            #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
            #expect(try columns(db, "players").contains("wins"))
            db.close()
        }

        let store = try Store(directory: dir.path)
        #expect(Store.schemaVersion == Schema.version)
        #expect(store.userVersion == Store.schemaVersion)
        #expect(!store.hasPendingWrites)

        // The v1 wins and played are now the `game` board; carol never played: not listed.
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 5),
            ScoreRow(rank: 2, name: "bob", wins: 1, played: 4),
            ScoreRow(rank: 3, name: "dave", wins: 0, played: 2),
        ])
        #expect(try store.scoreStore.scores(board: "match", limit: 10).isEmpty)
        #expect(try store.scoreStore.scores(board: "hard", limit: 10).isEmpty)
        #expect(try store.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 3, played: 5))
        #expect(try store.scoreStore.rank(of: "BOB", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 1, played: 4))
        #expect(try store.scoreStore.rank(of: "dave", board: "game") == ScoreRow(rank: 3, name: "dave", wins: 0, played: 2))
        #expect(try store.scoreStore.rank(of: "carol", board: "game") == ScoreRow(rank: 3, name: "carol", wins: 0, played: 0))
        #expect(try store.scoreStore.rank(of: "alice", board: "match") == ScoreRow(rank: 1, name: "alice", wins: 0, played: 0))
        // Names, preferences and results are kept; the fragment of a finished game is its final state.
        #expect(try store.nameStore.allNames() == ["alice", "bob", "carol", "dave"])
        #expect(try store.preference(.language, for: "alice") == "nl")
        let result = try #require(try store.result(game: 1))
        #expect(result.winner == "alice" && result.loser == "bob" && result.reason == "word")
        #expect(result.finalState == "fragment=pear")
        #expect(try store.result(game: 2) == nil)

        // The active game: a ghost single game (1 round) between people, seat 0
        // starts, no rounds lost, the offer kept; its letters are its moves.
        #expect(try store.activeGames() == [
            StoredGame(id: 2, kind: "ghost", variant: "", settings: "", seed: 0, lang: "en", players: ["bob", "alice"],
                       tokens: ["b2", "a2"], bots: [nil, nil], rounds: 1, losses: [0, 0], round: 1, starter: 0,
                       offer: StoredGame.Offer(seat: 1, kind: "restart", lang: nil), offerSpent: [false, true],
                       startedAt: t0 + 100, moves: [move(0, "p"), move(1, "e")]),
        ])
        #expect(try store.moves(game: 2, round: 1) == [move(0, "p"), move(1, "e")])
        #expect(try store.moves(game: 1, round: 1) == [move(0, "p"), move(1, "e"), move(0, "a"), move(1, "r")])

        // The schema behind it.
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try schemaProblems(db) == [])
            #expect(try columns(db, "players") == ["name", "first_seen", "last_seen"])
            #expect(try columns(db, "scores") == ["player", "board", "wins", "played"])
            // Every move, letter for letter, at its time.
            #expect(try db.query("SELECT game_id, round, ply, seat, move, at FROM moves ORDER BY game_id, round, ply") {
                "\($0.int(0)) \($0.int(1)) \($0.int(2)) \($0.int(3)) \($0.text(4)) \($0.int(5))"
            } == version1Moves.map { "\($0.0) 1 \($0.1) \($0.2) \($0.3) \(t0 + 100 + $0.1)" })
            #expect(try finishedGames(db) == ["1|ghost||1|en|alice||bob||alice|bob|word|fragment=pear|0|0|\(t0Text)|2023-11-14 22:14:20"])
            #expect(try db.query("SELECT final_state IS NULL FROM games WHERE id = 2") { $0.int(0) } == [1])
        }

        // Play goes on: alice makes "pear", bob wins game 2; the board and the ranks follow.
        try store.recordMove(game: 2, round: 1, ply: 3, seat: 0, move: "a", now: t0 + 200)
        try store.recordMove(game: 2, round: 1, ply: 4, seat: 1, move: "r", now: t0 + 201)
        try store.finishGame(game: 2, winner: "bob", loser: "alice", reason: "word", finalState: "fragment=pear", board: "game", now: t0 + 202)
        try store.commit()
        #expect(try store.activeGames().isEmpty)
        #expect(try store.result(game: 2)?.finalState == "fragment=pear")
        #expect(try store.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 2, played: 5))
        #expect(try store.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 3, played: 6))
        #expect(try store.scoreStore.rank(of: "dave", board: "game") == ScoreRow(rank: 3, name: "dave", wins: 0, played: 2))
        // A first game on a new board; ids go on from the migrated ones.
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["carol", "bot-hard"], tokens: ["c3", "x3"],
                                              bots: [nil, "hard"]), now: t0 + 300)
        #expect(id == 3)
        try store.finishGame(game: id, winner: "carol", loser: "bot-hard", reason: "dead", finalState: "fragment=q",
                             board: "hard", people: ["carol"], now: t0 + 301)
        try store.commit()
        #expect(try store.scoreStore.scores(board: "hard", limit: 10) == [ScoreRow(rank: 1, name: "carol", wins: 1, played: 1)])
        #expect(try store.scoreStore.rank(of: "carol", board: "game") == ScoreRow(rank: 3, name: "carol", wins: 0, played: 0))
        store.close()

        // Reopening does not migrate again (no schema change at all), and keeps everything.
        let schemaCookie = try { let db = try raw(dir); defer { db.close() }; return try scalarInt(db, "PRAGMA schema_version") }()
        let again = try Store(directory: dir.path)
        defer { again.close() }
        #expect(again.userVersion == Store.schemaVersion)
        #expect(try { let db = try raw(dir); defer { db.close() }; return try scalarInt(db, "PRAGMA schema_version") }() == schemaCookie)
        #expect(try again.scoreStore.scores(board: "game", limit: 10) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 6),
            ScoreRow(rank: 2, name: "bob", wins: 2, played: 5),
            ScoreRow(rank: 3, name: "dave", wins: 0, played: 2),
        ])
        #expect(try again.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 2, played: 5))
        #expect(try again.scoreStore.rank(of: "carol", board: "hard") == ScoreRow(rank: 1, name: "carol", wins: 1, played: 1))
        #expect(try again.result(game: 1)?.finalState == "fragment=pear")
        #expect(try again.result(game: 3)?.finalState == "fragment=q")
    }

    /// Schema 2 to 3: ghost0/1 become lost0/1, mode becomes rounds (a 'ghost'
    /// match is 5 rounds lost), letters become moves, the fragment of a
    /// finished game becomes its final state; all else is kept.
    @Test func version2DatabaseIsMigratedWithItsMatches() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion2(dir)
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)

        #expect(try store.activeGames() == [
            StoredGame(id: 2, kind: "ghost", lang: "en", players: ["ben", "ann"], tokens: ["k2", "l2"], bots: [nil, nil],
                       rounds: 5, losses: [3, 4], round: 8, starter: 1,
                       offer: StoredGame.Offer(seat: 0, kind: "lang", lang: "nl"), offerSpent: [true, false],
                       startedAt: t0 + 60, moves: [move(1, "x"), move(0, "y")]),
            StoredGame(id: 3, kind: "ghost", lang: "nl", players: ["bot-easy", "cy"], tokens: ["k3", "l3"], bots: ["easy", nil],
                       rounds: 1, losses: [0, 0], round: 1, starter: 0, startedAt: t0 + 70, moves: []),
        ])
        #expect(try store.moves(game: 2, round: 7) == [move(0, "a"), move(1, "b")])
        #expect(try store.moves(game: 1, round: 7) == [move(0, "z"), move(1, "z")])
        let match = try #require(try store.result(game: 1))
        #expect(match.winner == "ann" && match.loser == "bot-medium" && match.reason == "dead" && match.finalState == "fragment=zz")
        let early = try #require(try store.result(game: 4))
        #expect(early.winner == "ben" && early.loser == "ann" && early.reason == "abandoned" && early.finalState == "fragment=")
        #expect(try store.scoreStore.scores(board: "medium-match", limit: 10) == [ScoreRow(rank: 1, name: "ann", wins: 1, played: 1)])
        #expect(try store.scoreStore.scores(board: "match", limit: 10) == [ScoreRow(rank: 1, name: "ann", wins: 1, played: 1),
                                                                ScoreRow(rank: 2, name: "ben", wins: 0, played: 1)])
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [])

        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
        #expect(try finishedGames(db) == [
            "1|ghost||5|en|ann||bot-medium|medium|ann|bot-medium|dead|fragment=zz|2|5|\(t0Text)|2023-11-14 22:14:10",
            "4|ghost||1|en|ann||ben||ben|ann|abandoned|fragment=|0|0|2023-11-14 22:14:40|2023-11-14 22:14:50",
        ])
        // Nothing left of the rebuild, and the game rows as the columns hold them.
        #expect(try db.query("SELECT id, rounds, lost0, lost1, round, starter, coalesce(final_state, 'NULL'), status FROM games ORDER BY id") { r in
            (0..<8).map { r.text($0) }.joined(separator: " ")
        } == ["1 5 2 5 7 0 fragment=zz over", "2 5 3 4 8 1 NULL active", "3 1 0 0 1 0 NULL active", "4 1 0 0 1 0 fragment= over"])
        #expect(try db.query("SELECT count(*) FROM moves") { $0.int(0) } == [6])
    }

    /// A migration that fails leaves the database as it was: still version 1, v1 columns intact.
    @Test func failedMigrationRollsBack() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion1(dir)
        do {
            // Something in the way of migration 2: a table it means to create.
            let db = try raw(dir)
            try db.execute("CREATE TABLE scores (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
        #expect(try columns(db, "players").contains("wins"))
        #expect(try columns(db, "games").contains("mode") == false)
        #expect(try db.query("SELECT wins FROM players WHERE name = 'alice'") { $0.int(0) } == [3])
    }

    /// Migrations 2 and 3 are one transaction: when 3 fails after 2 went
    /// through, 2 is undone too. Once the obstacle is gone, it migrates.
    @Test func failedThirdMigrationRollsBackTheSecondToo() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion1(dir)
        do {
            let db = try raw(dir)
            try db.execute("CREATE TABLE games3 (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
            #expect(try tablesAndViews(db) == ["finished_games", "games", "games3", "moves", "players", "preferences"])
            #expect(try columns(db, "games3") == ["x"])
            #expect(try columns(db, "players").contains("wins"))
            #expect(try columns(db, "games").contains("fragment"))
            #expect(try columns(db, "moves").contains("letter"))
            #expect(try db.query("SELECT count(*) FROM moves") { $0.int(0) } == [6])
            try db.execute("DROP TABLE games3")
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        #expect(try store.result(game: 1)?.finalState == "fragment=pear")
        #expect(try store.activeGames().map(\.moves) == [[move(0, "p"), move(1, "e")]])
    }

    /// From schema 2, a failing migration 3 leaves schema 2 as it was.
    @Test func failedMigrationFromVersion2RollsBack() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion2(dir)
        do {
            // In the way halfway through the rebuild, after games3 is made and filled.
            let db = try raw(dir)
            try db.execute("CREATE TABLE moves3 (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [2])
        #expect(try tablesAndViews(db) == ["finished_games", "games", "moves", "moves3", "players", "preferences", "scores"])
        for c in ["fragment", "to_move", "mode", "ghost0", "ghost1"] { #expect(try columns(db, "games").contains(c), "\(c)") }
        #expect(try columns(db, "moves") == ["game_id", "round", "ply", "seat", "letter", "fragment", "at"])
        #expect(try db.query("SELECT id, mode, ghost0, ghost1, fragment FROM games ORDER BY id") {
            "\($0.int(0)) \($0.text(1)) \($0.int(2)) \($0.int(3)) \($0.text(4))"
        } == ["1 ghost 2 5 zz", "2 ghost 3 4 ", "3 single 0 0 ", "4 single 0 0 "])
        #expect(try db.query("SELECT count(*) FROM moves") { $0.int(0) } == [6])
    }

    /// Schema 3 to 4: the best-games lists come, empty; everything else is
    /// kept as it was, and new entries rank and survive a reopen.
    @Test func version3DatabaseGetsEmptyBestGamesLists() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion3(dir)
        let store = try Store(directory: dir.path)
        #expect(store.userVersion == Schema.version)
        #expect(try store.scoreStore.bestGames(board: "hangman-evil", limit: 10) == [])
        #expect(try store.scoreStore.bestGameRank(board: "hangman-evil", game: 1) == nil)
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [ScoreRow(rank: 1, name: "ann", wins: 1, played: 1),
                                                               ScoreRow(rank: 2, name: "ben", wins: 0, played: 1)])
        #expect(try store.preferences(for: "ann") == ["lang": "nl", "hangman-mode": "fair"])
        #expect(try store.result(game: 1)?.finalState == "fragment=qx")
        #expect(try store.activeGames().map(\.id) == [2])
        #expect(try store.activeGames().first?.moves == [move(0, "c")])
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try schemaProblems(db) == [])
            #expect(try scalarInt(db, "SELECT count(*) FROM best_games") == 0)
        }
        try store.scoreStore.recordBestGame(board: "hangman-evil", game: 1, name: "ann", key1: 0, key2: -5, fields: "word=peach", now: t0 + 9)
        try store.commit()
        store.close()
        let again = try Store(directory: dir.path)
        defer { again.close() }
        #expect(try again.scoreStore.bestGames(board: "hangman-evil", limit: 10) == [BestGameRow(rank: 1, game: 1, name: "ann", fields: "word=peach")])
    }

    /// A failing migration 4 leaves schema 3 as it was.
    @Test func failedFourthMigrationLeavesSchema3() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion3(dir)
        do {
            let db = try raw(dir)
            try db.execute("CREATE TABLE best_games (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try scalarInt(db, "PRAGMA user_version") == 3)
            #expect(try columns(db, "best_games") == ["x"])
            let indexes = try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
            #expect(indexes == ["games_active", "scores_board"])
            #expect(try scalarInt(db, "SELECT count(*) FROM games") == 2)
            try db.execute("DROP TABLE best_games")
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
    }

    /// Schema 4 to 5: the head-to-head records are filled from the finished
    /// games between people, per kind, names compared case-insensitively.
    @Test func version4DatabaseGetsHeadToHeadRecordsFromItsGames() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion4(dir)
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "ben") == (2, 1))
        #expect(try store.scoreStore.headToHead(kind: "ghost", "BEN", "ANN") == (1, 2))
        #expect(try store.scoreStore.headToHead(kind: "hangman", "ann", "ben") == (0, 1))
        // The computer's games, games in progress and games without a winner count for no one.
        #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "bot-hard") == (0, 0))
        #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "cy") == (0, 0))
        #expect(try store.scoreStore.headToHead(kind: "ghost", "ben", "cy") == (0, 0))
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
        #expect(try scalarInt(db, "SELECT count(*) FROM rivals") == 2)
    }

    /// A failing migration 5 leaves schema 4 as it was.
    @Test func failedFifthMigrationLeavesSchema4() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        try makeVersion4(dir)
        do {
            let db = try raw(dir)
            try db.execute("CREATE TABLE rivals (x INTEGER)")
            db.close()
        }
        #expect(throws: (any Error).self) { _ = try Store(directory: dir.path) }
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try scalarInt(db, "PRAGMA user_version") == 4)
            #expect(try columns(db, "rivals") == ["x"])
            try db.execute("DROP TABLE rivals")
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        #expect(try store.scoreStore.headToHead(kind: "ghost", "ben", "ann") == (1, 2))
    }

    /// Schema 6 to 7: every game stored before may be watched (`watch` 1);
    /// a game made private at NEW (`watch=no`) is stored and read back as such.
    @Test func version6DatabaseGetsWatchableGames() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<6 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=6")
            try db.run("""
                INSERT INTO games(id, kind, lang, player0, player1, token0, token1, started_at, clock)
                VALUES (1, 'ghost', 'en', 'ann', 'ben', 'a1', 'b1', ?, 30)
                """, .of(t0))
            try db.run("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (1, 1, 1, 0, 'p', ?)", .of(t0 + 1))
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        let old = try #require(try store.activeGames().first)
        #expect(old.id == 1 && old.watch && old.clock == 30 && old.moves == [move(0, "p")])
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["cy", "ann"], tokens: ["c2", "a2"], watch: false),
                                      now: t0 + 5)
        try store.commit()
        #expect(try store.activeGame(id: id)?.watch == false)
        #expect(try store.activeGame(id: 1)?.watch == true)
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
    }

    @Test("A schema-10 database gets ratings (schema 11): its finished games are unrated and in HISTORY, nobody has a rating yet")
    func version10DatabaseGetsRatings() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<10 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=10")
            try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES ('ann', ?, ?), ('ben', ?, ?)", .of(t0), .of(t0), .of(t0), .of(t0))
            try db.run("""
                INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, started_at, ended_at)
                VALUES (1, 'ghost', 'en', 'ann', 'ben', 'a1', 'b1', 'over', 'ann', 'ben', 'word', ?, ?)
                """, .of(t0), .of(t0 + 5))
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        #expect(try !store.isRated(game: 1))
        #expect(try store.ratingStore.history(of: "ben", includePrivate: false, limit: 5).map(\.id) == [1])
        #expect(try store.ratingStore.history(of: "ben", includePrivate: false, limit: 5).first?.changes == [nil, nil])
        #expect(try store.ratingStore.ratings(of: "ann", limit: 16).isEmpty)
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
    }

    /// A database from a newer ghostd (a higher user_version) is refused
    /// and left alone: not migrated, not written.
    @Test func newerDatabaseIsNotTouched() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let store = try Store(directory: dir.path)
            store.close()
            let db = try raw(dir)
            try db.execute("PRAGMA user_version = \(Store.schemaVersion + 1)")
            db.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.database))
        #expect(throws: Store.Refusal.newerSchema(path: dir.database, found: Store.schemaVersion + 1, known: Store.schemaVersion)) {
            try Store(directory: dir.path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.database)) == before)
    }

    /// Schema 7 to 8: only indexes. Every row stays; a resume token that
    /// two games share (not made by ghostd, whose tokens are random) stays
    /// with the first of them, so the token indexes can be unique; computer
    /// seats without a token ('') may be many. The look-ups use the indexes.
    @Test func version7DatabaseGetsItsIndexesAndKeepsItsRows() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<7 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=7")
            for (name, seen) in [("ann", 5), ("ben", 9), ("Abe", 7)] {
                try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?)", .text(name), .of(t0), .of(t0 + seen))
            }
            try db.run("INSERT INTO scores(player, board, wins, played) VALUES ('ann', 'game', 2, 3), ('ben', 'game', 2, 2), ('Abe', 'game', 3, 3)")
            for (id, t0k, t1k, status) in [(1, "tok-a", "", "over"), (2, "tok-b", "", "over"), (3, "tok-a", "tok-c", "over"), (4, "tok-d", "tok-e", "active")] {
                try db.run("""
                    INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, final_state, started_at, ended_at)
                    VALUES (?, 'ghost', 'en', 'ann', 'bot-easy', ?, ?, ?, 'ann', 'bot-easy', 'word', 'fragment=x', ?, ?)
                    """, .of(id), .text(t0k), .text(t1k), .text(status), .of(t0), .of(t0 + id))
            }
            try db.run("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (4, 1, 1, 0, 'p', ?)", .of(t0))
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        #expect(try store.finishedGame(token: "tok-a")?.id == 1)
        #expect(try store.finishedGame(token: "tok-b")?.id == 2)
        #expect(try store.finishedGame(token: "tok-c")?.id == 3)
        #expect(try store.finishedGame(token: "tok-d") == nil)   // in progress
        #expect(try store.finishedGame(token: "") == nil)
        #expect(try store.activeGames().map(\.tokens) == [["tok-d", "tok-e"]])
        #expect(try store.activeGame(id: 4)?.moves == [move(0, "p")])
        #expect(try store.recentNames(prefix: nil, limit: 10) == (["ben", "Abe", "ann"], false))
        #expect(try store.recentNames(prefix: "a", limit: 1) == (["Abe"], true))
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [ScoreRow(rank: 1, name: "Abe", wins: 3, played: 3),
                                                ScoreRow(rank: 2, name: "ann", wins: 2, played: 3),
                                                ScoreRow(rank: 2, name: "ben", wins: 2, played: 2)])
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("SELECT id, token0, token1 FROM games ORDER BY id") { "\($0.int(0)):\($0.text(1)):\($0.text(2))" }
                == ["1:tok-a:", "2:tok-b:", "3::tok-c", "4:tok-d:tok-e"])
        #expect(try schemaProblems(db) == [])
    }

    /// Schema 11 to 12: only indexes go. Every game, in
    /// progress or over, and every move stay; the games in progress load as
    /// before (oldest first, with the moves of their round in play), RESUME's
    /// tokens, the caps' counts, the sweep, HISTORY and SCORES read the same.
    @Test("A schema-11 database loses its redundant indexes (schema 12) and keeps every row; what the server reads back is the same")
    func version11DatabaseLosesRedundantIndexes() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<11 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=11")
            try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES ('ann', ?, ?), ('Ben', ?, ?)", .of(t0), .of(t0), .of(t0), .of(t0))
            try db.run("INSERT INTO scores(player, board, wins, played) VALUES ('ann', 'game', 1, 1), ('Ben', 'game', 0, 1)")
            for (id, status, clock, round, last, net0) in [(1, "over", 0, 1, 0, ""), (2, "active", 30, 2, t0 + 50, "192.0.2.1"),
                                                           (3, "active", 0, 1, t0 + 20, "192.0.2.1"), (4, "over", 0, 1, 0, "")] {
                try db.run("""
                    INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, final_state,
                                      started_at, ended_at, clock, round, last_active, net0)
                    VALUES (?, 'ghost', 'en', 'ann', 'Ben', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, .of(id), .text("a\(id)"), .text("b\(id)"), .text(status),
                    .of(status == "over" ? "ann" : nil), .of(status == "over" ? "Ben" : nil), .of(status == "over" ? "word" : nil),
                    .of(status == "over" ? "fragment=x" : nil), .of(t0 + id), .of(status == "over" ? t0 + 10 * id : nil),
                    .of(clock), .of(round), .of(last), .text(net0))
            }
            for (game, round, ply, seat, letter) in [(1, 1, 1, 0, "p"), (2, 1, 1, 0, "a"), (2, 2, 1, 1, "q"), (2, 2, 2, 0, "u"), (3, 1, 1, 0, "z")] {
                try db.run("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)",
                           .of(game), .of(round), .of(ply), .of(seat), .text(letter), .of(t0 + ply))
            }
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        let active = try store.activeGames()
        #expect(active.map(\.id) == [2, 3])
        #expect(active.map(\.moves) == [[move(1, "q"), move(0, "u")], [move(0, "z")]])
        #expect(try store.clockedGames().map(\.id) == [2])
        #expect(try store.activeGame(token: "b3")?.id == 3)
        #expect(try store.finishedGame(token: "a4")?.id == 4)
        #expect(try store.activeGameCount(player: "BEN", limit: 10) == 2)
        #expect(try store.activeGameCount(network: "192.0.2.1", limit: 10) == 2)
        #expect(try store.activeSeats(player: "ann", limit: 10).map { [$0.game, $0.seat] } == [[2, 0], [3, 0]])
        #expect(try store.untouchedGames(before: t0 + 100, limit: 10).map(\.id) == [3, 2])
        #expect(try store.ratingStore.history(of: "ben", includePrivate: true, limit: 10).map(\.id) == [4, 1])
        #expect(try store.scoreStore.scores(board: "game", limit: 10).map(\.name) == ["ann", "Ben"])
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("SELECT count(*) FROM games") { $0.int(0) } == [4])
        #expect(try db.query("SELECT count(*) FROM moves") { $0.int(0) } == [5])
        #expect(try schemaProblems(db) == [])
    }

    /// Schema 12 to 13: moves lose their foreign key to games
    /// (the table is copied once). Every move stays, in order; the games in
    /// progress load with the moves of their round in play, REVIEW's last
    /// moves and a new move read and write as before.
    @Test("A schema-12 database's moves lose their foreign key (schema 13) and every move stays")
    func version12DatabaseMovesLoseTheirForeignKey() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<12 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=12")
            #expect(try db.query("SELECT \"table\" FROM pragma_foreign_key_list('moves')") { $0.text(0) } == ["games"])
            try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES ('ann', ?, ?), ('Ben', ?, ?)", .of(t0), .of(t0), .of(t0), .of(t0))
            for (id, status) in [(1, "over"), (2, "active")] {
                try db.run("""
                    INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, final_state,
                                      started_at, ended_at, round, last_active)
                    VALUES (?, 'ghost', 'en', 'ann', 'Ben', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, .of(id), .text("a\(id)"), .text("b\(id)"), .text(status),
                    .of(status == "over" ? "ann" : nil), .of(status == "over" ? "Ben" : nil), .of(status == "over" ? "word" : nil),
                    .of(status == "over" ? "fragment=pe" : nil), .of(t0 + id), .of(status == "over" ? t0 + 10 : nil),
                    .of(id), .of(t0 + id))
            }
            for (game, round, ply, seat, letter) in [(1, 1, 1, 0, "p"), (1, 1, 2, 1, "e"), (2, 1, 1, 0, "a"), (2, 2, 1, 1, "q"), (2, 2, 2, 0, "u")] {
                try db.run("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)",
                           .of(game), .of(round), .of(ply), .of(seat), .text(letter), .of(t0 + ply))
            }
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion)
        #expect(try store.activeGames().map(\.moves) == [[move(1, "q"), move(0, "u")]])
        #expect(try store.lastMoves(game: 1, limit: 10).map(\.move) == ["p", "e"])
        #expect(try store.moves(game: 2, round: 1) == [move(0, "a")])
        try store.recordMove(game: 2, round: 2, ply: 3, seat: 1, move: "i", now: t0 + 5)
        try store.commit()
        #expect(try store.activeGame(token: "a2")?.moves == [move(1, "q"), move(0, "u"), move(1, "i")])
        store.close()   // the move waited in the journal: closing folds it in
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("SELECT game_id || round || ply || seat || move || at FROM moves ORDER BY 1") { $0.text(0) } ==
                ["1110p\(t0 + 1)", "1121e\(t0 + 2)", "2110a\(t0 + 1)",
                 "2211q\(t0 + 1)", "2220u\(t0 + 2)", "2231i\(t0 + 5)"])
        #expect(try schemaProblems(db) == [])
    }
}
