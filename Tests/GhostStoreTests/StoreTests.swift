import Foundation
import Testing
@testable import GhostStore

/// A single game of Ghost between two people, as the server records one.
private func ghostGame(_ players: [String], tokens: [String]? = nil, lang: String = "en",
                       bots: [String?] = [nil, nil], rounds: Int = 1, starter: Int = 0) -> NewGame {
    NewGame(kind: "ghost", lang: lang, players: players, tokens: tokens ?? freshTokens(), bots: bots, rounds: rounds, starter: starter)
}

private func move(_ seat: Int, _ text: String) -> StoredMove { StoredMove(seat: seat, move: text) }

@Suite struct StoreTests {
    @Test(sqliteOnly) func newDatabaseIsAtTheSchemaVersionInWALMode() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(Store.schemaVersion == Migrations.all.count)
        #expect(Store.schemaVersion == Schema.version)
        #expect(store.userVersion == Store.schemaVersion)
        #expect(store.path == dir.database)
        #expect(FileManager.default.fileExists(atPath: dir.database))
        #expect(!store.hasPendingWrites)

        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
        #expect(try scalarInt(db, "PRAGMA user_version") == Store.schemaVersion)
        #expect(try tablesAndViews(db) == Schema.tables)
        #expect(try schemaProblems(db) == [])
    }

    @Test("Head-to-head records: per kind and pair, either order, any case; kept across a reopen, undone by a rollback")
    func headToHeadRecords() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try Store(directory: dir.path, durability: .normal)
            defer { store.close() }
            #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "ben") == (0, 0))
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "ben", loser: "ann")
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "Ann", loser: "BEN")
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "ann", loser: "ben")
            try store.scoreStore.recordHeadToHead(kind: "hangman", winner: "ben", loser: "ann")
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "ann", loser: "ANN")   // not a pair: nothing
            #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "ben") == (2, 1))
            #expect(try store.scoreStore.headToHead(kind: "ghost", "BEN", "ann") == (1, 2))
            #expect(try store.scoreStore.headToHead(kind: "hangman", "ann", "ben") == (0, 1))
            #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "cy") == (0, 0))
            try store.commit()
            // A rolled-back game does not count.
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "ben", loser: "ann")
            store.rollback()
            #expect(try store.scoreStore.headToHead(kind: "ghost", "ann", "ben") == (2, 1))
        }
        let again = try Store(directory: dir.path, durability: .normal)
        defer { again.close() }
        #expect(try again.scoreStore.headToHead(kind: "ghost", "ben", "ann") == (1, 2))
        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarInt(db, "SELECT count(*) FROM rivals") == 2)
    }

    @Test func directoryIsCreatedIfMissing() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let nested = (dir.path as NSString).appendingPathComponent("a/b")
        let store = try Store(directory: nested, durability: .normal)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion)
        #expect(FileManager.default.fileExists(atPath: (nested as NSString).appendingPathComponent(Store.fileName)))
    }

    @Test func aFileInTheWayOfTheDataFolderIsAClearError() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let file = dir.path + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(throws: Store.Failure.self) { try Store(directory: file + "/sub") }
        do {
            _ = try Store(directory: file)
            Issue.record("a plain file was taken as the data folder")
        } catch {
            #expect("\(error)" == "cannot create the folder \(file): not a folder")
        }
        // A trailing slash and doubled slashes are fine.
        let store = try Store(directory: dir.path + "//rel/deeper/", durability: .normal)
        store.close()
        #expect(FileManager.default.fileExists(atPath: dir.path + "/rel/deeper/" + Store.fileName))
    }

    @Test(sqliteOnly) func migratesAnEmptyDatabaseFromVersionZero() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        // An existing database with user_version 0 and no tables (one page:
        // an empty file is a damaged database, see StartupCheckTests).
        do {
            let db = try raw(dir)
            try db.execute("PRAGMA journal_mode=WAL")
            #expect(try scalarInt(db, "PRAGMA user_version") == 0)
            #expect(try scalarInt(db, "SELECT count(*) FROM sqlite_master") == 0)
            db.close()
        }
        let store = try openStore(dir.path)
        #expect(store.userVersion == Store.schemaVersion)
        // The migrated schema works.
        try store.registerName("alice", now: t0)
        try store.commit()
        #expect(try store.nameStore.allNames() == ["alice"])
        store.close()

        let db = try raw(dir)
        defer { db.close() }
        #expect(try scalarInt(db, "PRAGMA user_version") == Store.schemaVersion)
        #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
        #expect(try schemaProblems(db) == [])
    }

    @Test func reopeningKeepsEverything() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let gameID: Int
        do {
            let store = try openStore(dir.path)
            try store.registerName("Alice", now: t0)
            try store.registerName("bob", now: t0)
            try store.setPreference(.language, "nl", for: "alice", now: t0 + 1)
            gameID = try store.createGame(ghostGame(["Alice", "bob"], tokens: ["t0", "t1"]), now: t0 + 2)
            try store.recordMove(game: gameID, round: 1, ply: 1, seat: 0, move: "p", now: t0 + 3)
            try store.commit()
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(store.userVersion == Store.schemaVersion)
        #expect(try store.nameStore.allNames() == ["Alice", "bob"])
        #expect(try store.preference(.language, for: "ALICE") == "nl")
        #expect(try store.preference(.language, for: "bob") == "en")
        let games = try store.activeGames()
        #expect(games.count == 1)
        #expect(games.first?.id == gameID)
        #expect(games.first?.players == ["Alice", "bob"])
        #expect(games.first?.tokens == ["t0", "t1"])
        // The round in play is its moves (the fragment "p", seat 1 to move, follow from them).
        #expect(games.first?.moves == [move(0, "p")])
        #expect(try store.moves(game: gameID, round: 1) == [move(0, "p")])
    }

    /// What the kind writes (variant, settings, seed), the seats and the
    /// clock come back as written, through a reopen; seeds use all 64 bits.
    @Test func kindFieldsAndSeatsRoundTrip() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let seeds: [UInt64] = [0, 42, UInt64(Int64.max), 1 << 63, UInt64.max]
        var expected: [StoredGame] = []
        do {
            let store = try openStore(dir.path)
            for (i, seed) in seeds.enumerated() {
                let g = NewGame(kind: i == 0 ? "ghost" : "other", variant: i == 0 ? "" : "v\(i)",
                                settings: i == 0 ? "" : "min=\(i) rule=superghost", seed: seed, lang: i % 2 == 0 ? "en" : "nl",
                                players: ["p\(i)", "q\(i)"], tokens: ["s\(i)", "t\(i)"],
                                bots: [[nil, nil], [nil, "hard"], ["easy", nil], ["medium", "hard"], [nil, nil]][i],
                                rounds: [1, 5, 3, 1, 7][i], starter: i % 2, clock: [0, 5, 30, 3600, 0][i])
                let id = try store.createGame(g, now: t0 + i)
                expected.append(StoredGame(id: id, kind: g.kind, variant: g.variant, settings: g.settings, seed: seed,
                                           lang: g.lang, players: g.players, tokens: g.tokens, bots: g.bots,
                                           rounds: g.rounds, losses: [0, 0], round: 1, starter: g.starter,
                                           offer: nil, offerSpent: [false, false], startedAt: t0 + i, clock: g.clock, moves: []))
            }
            #expect(try store.activeGames() == expected)
            try store.commit()
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.activeGames() == expected)

        // NewGame's defaults: no variant, settings or seed, two people, a single game that seat 0 starts.
        let plain = NewGame(kind: "ghost", lang: "en", players: ["a", "b"], tokens: ["x", "y"])
        #expect(plain.variant == "" && plain.settings == "" && plain.seed == 0)
        #expect(plain.bots == [nil, nil] && plain.rounds == 1 && plain.starter == 0 && plain.clock == 0)
        let id = try store.createGame(plain, now: t0 + 9)
        #expect(try store.activeGames().last == StoredGame(id: id, kind: "ghost", lang: "en", players: ["a", "b"],
                                                           tokens: ["x", "y"], startedAt: t0 + 9))
    }

    @Test(sqliteOnly) func registerNameKeepsTheFirstSpellingAndIgnoresCase() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.registerName("Alice", now: t0) == "Alice")
        #expect(try store.registerName("alice", now: t0 + 5) == "Alice")
        #expect(try store.registerName("ALICE", now: t0 + 6) == "Alice")
        #expect(try store.registerName("bob", now: t0 + 7) == "bob")
        #expect(try store.registerName("carol", now: t0 + 8) == "carol")
        #expect(try store.registerName("Bert", now: t0 + 9) == "Bert")
        try store.commit()
        // One row per name, sorted case-insensitively.
        #expect(try store.nameStore.allNames() == ["Alice", "Bert", "bob", "carol"])

        let db = try raw(dir)
        defer { db.close() }
        let alice = try db.query("SELECT first_seen, last_seen FROM players WHERE name = 'alice'") { ($0.int(0), $0.int(1)) }
        #expect(alice.count == 1)
        #expect(alice.first?.0 == t0)
        #expect(alice.first?.1 == t0 + 6)
    }

    @Test func preferencesDefaultAndPersist() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
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
            #expect(try store.nameStore.allNames() == ["bob", "carol"])
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.preference(.language, for: "bob") == "de")
        #expect(try store.preference(.language, for: "carol") == "nl")
        #expect(try store.preference(.language, for: "dave") == "en")
    }

    @Test(sqliteOnly) func gameLifecycleRoundTrips() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        try store.registerName("alice", now: t0)
        try store.registerName("bob", now: t0)
        let tokens = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"]
        let g1 = try store.createGame(ghostGame(["alice", "bob"], tokens: tokens), now: t0 + 1)
        let g2 = try store.createGame(ghostGame(["bob", "alice"], tokens: ["a", "b"], lang: "nl"), now: t0 + 2)
        #expect(g2 > g1)

        var expected1 = StoredGame(id: g1, kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: tokens,
                                   round: 1, offer: nil, offerSpent: [false, false], startedAt: t0 + 1, moves: [])
        let expected2 = StoredGame(id: g2, kind: "ghost", lang: "nl", players: ["bob", "alice"], tokens: ["a", "b"],
                                   round: 1, offer: nil, offerSpent: [false, false], startedAt: t0 + 2, moves: [])
        #expect(try store.activeGames() == [expected1, expected2])

        // Moves: each game gets its own.
        try store.recordMove(game: g1, round: 1, ply: 1, seat: 0, move: "p", now: t0 + 3)
        try store.recordMove(game: g1, round: 1, ply: 2, seat: 1, move: "e", now: t0 + 4)
        expected1.moves = [move(0, "p"), move(1, "e")]
        #expect(try store.activeGames() == [expected1, expected2])
        #expect(try store.moves(game: g1, round: 1) == [move(0, "p"), move(1, "e")])
        #expect(try store.moves(game: g2, round: 1) == [])
        #expect(try store.moves(game: g1, round: 2) == [])
        #expect(try store.moves(game: 999, round: 1) == [])

        // Offers are stored as the server sets them.
        let offer = StoredGame.Offer(seat: 1, kind: "lang", lang: "nl")
        try store.setOffer(game: g1, offer: offer, spent: [false, true])
        expected1.offer = offer
        expected1.offerSpent = [false, true]
        #expect(try store.activeGames() == [expected1, expected2])
        try store.setOffer(game: g1, offer: StoredGame.Offer(seat: 0, kind: "restart", lang: nil), spent: [true, true])
        expected1.offer = StoredGame.Offer(seat: 0, kind: "restart", lang: nil)
        expected1.offerSpent = [true, true]
        #expect(try store.activeGames().first == expected1)
        try store.setOffer(game: g1, offer: nil, spent: [true, false])
        expected1.offer = nil
        expected1.offerSpent = [true, false]
        #expect(try store.activeGames().first == expected1)

        // A move no longer clears the offer in the store: the server decides
        // (a letter cancels a pending offer and frees both seats) and says so
        // with setOffer. Until then the offer stays as stored.
        try store.setOffer(game: g1, offer: offer, spent: [true, true])
        try store.recordMove(game: g1, round: 1, ply: 3, seat: 0, move: "a", now: t0 + 5)
        expected1.moves.append(move(0, "a"))
        expected1.offer = offer
        expected1.offerSpent = [true, true]
        #expect(try store.activeGames() == [expected1, expected2])
        try store.setOffer(game: g1, offer: nil, spent: [false, false])
        expected1.offer = nil
        expected1.offerSpent = [false, false]
        #expect(try store.activeGames() == [expected1, expected2])

        // A restart: a new round, perhaps in another language and with another
        // starter; the offer goes, the old round's moves stay but are no longer in play.
        try store.setOffer(game: g1, offer: offer, spent: [false, true])
        try store.restartGame(game: g1, round: 2, lang: "nl", starter: 1)
        expected1.round = 2
        expected1.lang = "nl"
        expected1.starter = 1
        expected1.moves = []
        expected1.offer = nil
        expected1.offerSpent = [false, false]
        #expect(try store.activeGames() == [expected1, expected2])
        #expect(try store.moves(game: g1, round: 1) == [move(0, "p"), move(1, "e"), move(0, "a")])
        #expect(try store.moves(game: g1, round: 2) == [])
        try store.recordMove(game: g1, round: 2, ply: 1, seat: 1, move: "k", now: t0 + 6)
        expected1.moves = [move(1, "k")]
        #expect(try store.moves(game: g1, round: 2) == [move(1, "k")])
        #expect(try store.activeGames() == [expected1, expected2])
        // restartGame's starter defaults to seat 0.
        try store.restartGame(game: g2, round: 2, lang: "en")
        #expect(try store.activeGames().last?.starter == 0)
        #expect(try store.activeGames().last?.round == 2)

        // The end.
        #expect(try store.result(game: g1) == nil)
        try store.setOffer(game: g1, offer: offer, spent: [false, true])
        try store.finishGame(game: g1, winner: "bob", loser: "alice", reason: "abandoned", finalState: "fragment=k", board: "game", now: t0 + 7)
        #expect(try store.activeGames().map(\.id) == [g2])
        let result = try #require(try store.result(game: g1))
        #expect(result.winner == "bob")
        #expect(result.loser == "alice")
        #expect(result.reason == "abandoned")
        #expect(result.finalState == "fragment=k")
        #expect(try store.result(game: g2) == nil)
        #expect(try store.result(game: 999) == nil)
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [ScoreRow(rank: 1, name: "bob", wins: 1, played: 1),
                                                ScoreRow(rank: 2, name: "alice", wins: 0, played: 1)])
        // The moves of a finished game stay on record.
        #expect(try store.moves(game: g1, round: 2) == [move(1, "k")])
        try store.commit()

        // The view of finished games; a single game lost no rounds by the
        // count (finishGame was given no losses). The offer went with the end.
        let db = try raw(dir)
        defer { db.close() }
        #expect(try finishedGames(db) == [
            "\(g1)|ghost||1|nl|alice||bob||bob|alice|abandoned|fragment=k|0|0|2023-11-14 22:13:21|2023-11-14 22:13:27",
        ])
        #expect(try db.query("SELECT offer_seat, offer_kind, offer_lang FROM games WHERE id = \(g1)") {
            [$0.optionalInt(0) == nil, $0.optionalText(1) == nil, $0.optionalText(2) == nil]
        } == [[true, true, true]])
    }

    /// A match: rounds lost per seat, the next round and its starter, and the
    /// end with the final count, on its own board.
    @Test(sqliteOnly) func matchRoundsAndLosses() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        try store.registerName("carol", now: t0)
        let id = try store.createGame(ghostGame(["carol", "bot-easy"], tokens: ["a", "b"], bots: [nil, "easy"], rounds: 5, starter: 0), now: t0)
        var expected = StoredGame(id: id, kind: "ghost", lang: "en", players: ["carol", "bot-easy"], tokens: ["a", "b"],
                                  bots: [nil, "easy"], rounds: 5, losses: [0, 0], round: 1, starter: 0, startedAt: t0)
        #expect(try store.activeGames() == [expected])

        // Round 1: carol spells "qx" and loses it; an offer was pending.
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "q", now: t0 + 1)
        try store.recordMove(game: id, round: 1, ply: 2, seat: 1, move: "x", now: t0 + 2)
        try store.setOffer(game: id, offer: StoredGame.Offer(seat: 0, kind: "restart", lang: nil), spent: [true, false])
        try store.nextRound(game: id, round: 2, losses: [1, 0], starter: 1)
        expected.round = 2
        expected.losses = [1, 0]
        expected.starter = 1
        // nextRound clears the offer; the round in play has no moves yet.
        #expect(try store.activeGames() == [expected])

        // Round 2: the computer starts.
        try store.recordMove(game: id, round: 2, ply: 1, seat: 1, move: "z", now: t0 + 3)
        try store.recordMove(game: id, round: 2, ply: 2, seat: 0, move: "z", now: t0 + 4)
        expected.moves = [move(1, "z"), move(0, "z")]
        #expect(try store.activeGames() == [expected])
        #expect(try store.moves(game: id, round: 1) == [move(0, "q"), move(1, "x")])
        try store.nextRound(game: id, round: 3, losses: [2, 0], starter: 0)
        expected.round = 3
        expected.losses = [2, 0]
        expected.starter = 0
        expected.moves = []
        #expect(try store.activeGames() == [expected])
        try store.commit()

        // carol leaves; the match ends 5 to 0 for the computer, on the
        // easy-match board, counted for carol only (the computer is no person).
        try store.finishGame(game: id, winner: "bot-easy", loser: "carol", reason: "left", finalState: "fragment=",
                             losses: [5, 0], board: "easy-match", people: ["carol"], now: t0 + 10)
        try store.commit()
        #expect(try store.activeGames() == [])
        let result = try #require(try store.result(game: id))
        #expect(result.winner == "bot-easy" && result.loser == "carol" && result.reason == "left")
        #expect(result.finalState == "fragment=")
        #expect(try store.scoreStore.scores(board: "easy-match", limit: 10) == [ScoreRow(rank: 1, name: "carol", wins: 0, played: 1)])
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [])
        #expect(try store.scoreStore.rank(of: "bot-easy", board: "easy-match") == ScoreRow(rank: 1, name: "bot-easy", wins: 0, played: 0))
        let db = try raw(dir)
        defer { db.close() }
        #expect(try finishedGames(db) == [
            "\(id)|ghost||5|en|carol||bot-easy|easy|bot-easy|carol|left|fragment=|5|0|2023-11-14 22:13:20|2023-11-14 22:13:30",
        ])
    }

    /// finishGame without losses keeps the count stored by nextRound.
    @Test(sqliteOnly) func finishWithoutLossesKeepsTheStoredCount() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        for name in ["a", "b"] { try store.registerName(name, now: t0) }
        let id = try store.createGame(ghostGame(["a", "b"], rounds: 3), now: t0)
        try store.nextRound(game: id, round: 2, losses: [0, 2], starter: 1)
        try store.finishGame(game: id, winner: "b", loser: "a", reason: "abandoned", finalState: "fragment=ab", board: "match", now: t0)
        try store.commit()
        let db = try raw(dir)
        defer { db.close() }
        #expect(try db.query("SELECT lost0, lost1, rounds, round, final_state FROM games WHERE id = \(id)") {
            "\($0.int(0)) \($0.int(1)) \($0.int(2)) \($0.int(3)) \($0.text(4))"
        } == ["0 2 3 2 fragment=ab"])
    }

    /// A move is text as the kind encodes it, kept verbatim; the round in
    /// play reads in ply order; two moves at one ply are refused.
    @Test func movesAreTextInPlyOrder() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        let id = try store.createGame(NewGame(kind: "other", lang: "nl", players: ["a", "b"], tokens: ["x", "y"]), now: t0)
        let other = try store.createGame(ghostGame(["c", "d"]), now: t0)
        try store.recordMove(game: id, round: 1, ply: 2, seat: 1, move: "ĳ", now: t0)
        try store.recordMove(game: other, round: 1, ply: 1, seat: 0, move: "q", now: t0)
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "b1-c3 =Q", now: t0)
        try store.recordMove(game: id, round: 1, ply: 3, seat: 0, move: "pass", now: t0)
        let expected = [move(0, "b1-c3 =Q"), move(1, "ĳ"), move(0, "pass")]
        #expect(try store.moves(game: id, round: 1) == expected)
        #expect(try store.activeGames().map(\.moves) == [expected, [move(0, "q")]])
        #expect(throws: (any Error).self) {
            try store.recordMove(game: id, round: 1, ply: 3, seat: 1, move: "x", now: t0)
        }
        #expect(try store.moves(game: id, round: 1) == expected)
        try store.commit()
        #expect(try store.moves(game: id, round: 1) == expected)
    }

    @Test func uncommittedWritesAreInvisibleToAnotherConnection() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let writer = try openStore(dir.path)
        defer { writer.close() }
        let reader = try openStore(dir.path)
        defer { reader.close() }
        #expect(!writer.hasPendingWrites)

        try writer.registerName("alice", now: t0)
        let game = try writer.createGame(ghostGame(["alice", "bob"], tokens: ["x", "y"]), now: t0)
        #expect(writer.hasPendingWrites)
        // The writer sees its own writes; the other connection does not yet.
        #expect(try writer.nameStore.allNames() == ["alice"])
        #expect(try writer.activeGames().count == 1)
        #expect(try reader.nameStore.allNames() == [])
        #expect(try reader.activeGames() == [])

        try writer.commit()
        #expect(!writer.hasPendingWrites)
        #expect(try reader.nameStore.allNames() == ["alice"])
        #expect(try reader.activeGames().map(\.id) == [game])

        // And again for a later batch.
        try writer.recordMove(game: game, round: 1, ply: 1, seat: 0, move: "q", now: t0)
        try writer.setPreference(.language, "nl", for: "alice", now: t0)
        #expect(try reader.moves(game: game, round: 1) == [])
        #expect(try reader.activeGames().first?.moves == [])
        #expect(try reader.preference(.language, for: "alice") == "en")
        try writer.commit()
        #expect(try reader.moves(game: game, round: 1) == [move(0, "q")])
        #expect(try reader.preference(.language, for: "alice") == "nl")
        #expect(try reader.activeGames().first?.moves == [move(0, "q")])

        // commit() with nothing pending is harmless.
        try writer.commit()
        try reader.commit()
    }

    @Test func closingWithoutCommitLosesTheWrites() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            try store.registerName("kept", now: t0)
            try store.commit()
            try store.registerName("lost", now: t0)
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.nameStore.allNames() == ["kept"])
    }

    @Test func scoresAndRanksWithTies() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        for name in ["alice", "bob", "Carol", "dave", "erin"] { try store.registerName(name, now: t0) }
        func play(_ winner: String, _ loser: String) throws {
            let g = try store.createGame(ghostGame([winner, loser]), now: t0)
            try store.finishGame(game: g, winner: winner, loser: loser, reason: "word", finalState: "fragment=pear", board: "game", now: t0)
        }
        // No finished games: an empty list, and everyone shares rank 1 with 0 wins.
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [])
        #expect(try store.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 0, played: 0))

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
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == all)
        #expect(try store.scoreStore.scores(board: "game", limit: 100) == all)
        #expect(try store.scoreStore.scores(board: "game", limit: 2) == Array(all.prefix(2)))
        #expect(try store.scoreStore.scores(board: "game", limit: 1) == Array(all.prefix(1)))

        #expect(try store.scoreStore.rank(of: "alice", board: "game") == all[0])
        #expect(try store.scoreStore.rank(of: "BOB", board: "game") == all[1])
        #expect(try store.scoreStore.rank(of: "carol", board: "game") == all[2])
        #expect(try store.scoreStore.rank(of: "Dave", board: "game") == all[3])
        // Names without finished games rank after every name with more wins.
        #expect(try store.scoreStore.rank(of: "erin", board: "game") == ScoreRow(rank: 4, name: "erin", wins: 0, played: 0))
        #expect(try store.scoreStore.rank(of: "zed", board: "game") == ScoreRow(rank: 4, name: "zed", wins: 0, played: 0))

        // A tie at the top.
        try play("bob", "alice")
        try play("bob", "Carol")
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [
            ScoreRow(rank: 1, name: "bob", wins: 3, played: 4),
            ScoreRow(rank: 2, name: "alice", wins: 2, played: 3),
            ScoreRow(rank: 3, name: "Carol", wins: 1, played: 3),
            ScoreRow(rank: 4, name: "dave", wins: 0, played: 2),
        ])
        try play("alice", "dave")
        #expect(try store.scoreStore.scores(board: "game", limit: 2) == [
            ScoreRow(rank: 1, name: "alice", wins: 3, played: 4),
            ScoreRow(rank: 1, name: "bob", wins: 3, played: 4),
        ])
        #expect(try store.scoreStore.rank(of: "bob", board: "game").rank == 1)
        #expect(try store.scoreStore.rank(of: "alice", board: "game").rank == 1)
        #expect(try store.scoreStore.rank(of: "carol", board: "game").rank == 3)
    }

    /// A best-games list ranks single games: the first key, then the second
    /// (lower is better), then the earlier game; every entry has its own place.
    @Test func bestGamesRankByKeysThenGame() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            var ids: [Int] = []
            for i in 0..<6 { ids.append(try store.createGame(ghostGame(["p\(i)", "bot-x"], tokens: ["a\(i)", "b\(i)"]), now: t0 + i)) }
            // (game, name, mistakes, -letters): game 0 and game 4 tie on both keys: the earlier game is ahead.
            let entries = [(ids[0], "ann", 1, -5), (ids[1], "ben", 0, -4), (ids[2], "cy", 1, -7), (ids[3], "ann", 3, -9),
                           (ids[4], "dee", 1, -5), (ids[5], "ben", 0, -6)]
            for (game, name, mistakes, letters) in entries {
                try store.scoreStore.recordBestGame(board: "x-evil", game: game, name: name, key1: mistakes, key2: letters,
                                         fields: "word=w\(game) mistakes=\(mistakes)", now: t0 + 100 + game)
            }
            // Another list is apart.
            try store.scoreStore.recordBestGame(board: "x-fair", game: ids[3], name: "ann", key1: 0, key2: -1, fields: "word=a", now: t0 + 200)
            try store.commit()
            let expected = [
                BestGameRow(rank: 1, game: ids[5], name: "ben", fields: "word=w\(ids[5]) mistakes=0"),
                BestGameRow(rank: 2, game: ids[1], name: "ben", fields: "word=w\(ids[1]) mistakes=0"),
                BestGameRow(rank: 3, game: ids[2], name: "cy", fields: "word=w\(ids[2]) mistakes=1"),
                BestGameRow(rank: 4, game: ids[0], name: "ann", fields: "word=w\(ids[0]) mistakes=1"),
                BestGameRow(rank: 5, game: ids[4], name: "dee", fields: "word=w\(ids[4]) mistakes=1"),
                BestGameRow(rank: 6, game: ids[3], name: "ann", fields: "word=w\(ids[3]) mistakes=3"),
            ]
            #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 100) == expected)
            #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 2) == Array(expected.prefix(2)))
            #expect(try store.scoreStore.bestGames(board: "x-fair", limit: 10) == [BestGameRow(rank: 1, game: ids[3], name: "ann", fields: "word=a")])
            #expect(try store.scoreStore.bestGames(board: "x-phrase", limit: 10) == [])
            for row in expected {
                #expect(try store.scoreStore.bestGameRank(board: "x-evil", game: row.game) == row.rank)
                #expect(try store.scoreStore.bestGameRank(board: "x-evil", game: row.game, within: 4) == (row.rank <= 4 ? row.rank : nil))
            }
            #expect(try store.scoreStore.bestGameRank(board: "x-fair", game: ids[3]) == 1)
            #expect(try store.scoreStore.bestGameRank(board: "x-fair", game: ids[0]) == nil)
            #expect(try store.scoreStore.bestGameRank(board: "x-evil", game: 999, within: 10) == nil)
            // Recording a game again replaces its entry.
            try store.scoreStore.recordBestGame(board: "x-evil", game: ids[3], name: "ann", key1: 0, key2: -9, fields: "word=again", now: t0 + 300)
            try store.commit()
            #expect(try store.scoreStore.bestGameRank(board: "x-evil", game: ids[3]) == 1)
            #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 100).count == 6)
            store.close()
        }
        // The lists survive a reopen.
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 3).map(\.fields) == ["word=again", "word=w6 mistakes=0", "word=w2 mistakes=0"])
        #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 100).map(\.rank) == [1, 2, 3, 4, 5, 6])
    }

    /// An entry written in a command that is rolled back is gone, and one never committed does not survive.
    @Test func bestGamesFollowTheTransaction() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        let id = try store.createGame(ghostGame(["ann", "bot-x"]), now: t0)
        try store.commit()
        store.beginCommand()
        try store.scoreStore.recordBestGame(board: "x-evil", game: id, name: "ann", key1: 0, key2: 0, fields: "", now: t0)
        #expect(store.rollbackCommand())
        try store.commit()
        #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 10) == [])
        try store.scoreStore.recordBestGame(board: "x-evil", game: id, name: "ann", key1: 0, key2: 0, fields: "", now: t0)
        store.rollback()
        #expect(try store.scoreStore.bestGames(board: "x-evil", limit: 10) == [])
    }

    /// Preferences under any key, as the server's settings save them.
    @Test func preferencesUnderAnyKey() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            #expect(try store.preferences(for: "ann") == [:])
            try store.setPreference("hangman-mode", "fair", for: "ann", now: t0)
            try store.setPreference("hangman-misses", "6", for: "ANN", now: t0)
            try store.setPreference(.language, "nl", for: "ann", now: t0)
            try store.setPreference("hangman-mode", "phrase", for: "Ann", now: t0)
            try store.setPreference("hangman-mode", "evil", for: "ben", now: t0)
            try store.commit()
            #expect(try store.nameStore.allNames() == ["ann", "ben"])
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.preferences(for: "ann") == ["hangman-mode": "phrase", "hangman-misses": "6", "lang": "nl"])
        #expect(try store.preference(.language, for: "ann") == "nl")
        #expect(try store.preferences(for: "BEN") == ["hangman-mode": "evil"])
        #expect(try store.preference(.language, for: "ben") == "en")
    }
}
