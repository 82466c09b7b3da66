import Foundation
import Testing
@testable import GhostStore

/// A real schema-2 database, made by ghostd 0.3.0 (Fixtures/make-schema2.py):
/// 1. over: alice beat Bob, "qx", dead;
/// 2. active: a G-H-O-S-T match carol vs dave, dave lost round 1 ("qx"), round 2
///    started by dave: "qu", dave's restart offer pending;
/// 3. active: alice vs Bob, "ca";
/// 4. active: the hard computer (seat 0) vs eve in Dutch, "j";
/// 5. over: a match frank vs the easy computer, frank left at "xv".
/// Every time in it is the same second.
private let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent("schema2.sqlite3").path
private let made = 1_795_421_556
private let madeText = "2026-11-23 08:12:36"

private func move(_ seat: Int, _ text: String) -> StoredMove { StoredMove(seat: seat, move: text) }

/// The games in progress in the fixture, as schema 3 must give them back.
private let fixtureActiveGames = [
    StoredGame(id: 2, kind: "ghost", variant: "", settings: "", seed: 0, lang: "en", players: ["carol", "dave"],
               tokens: ["91bb7d330debff3fa22337613620a8a1", "8504df5925ccc9bbfe5e866cd294483c"], bots: [nil, nil],
               rounds: 5, losses: [0, 1], round: 2, starter: 1,
               offer: StoredGame.Offer(seat: 1, kind: "restart", lang: nil), offerSpent: [false, true],
               startedAt: made, moves: [move(1, "q"), move(0, "u")]),
    StoredGame(id: 3, kind: "ghost", variant: "", settings: "", seed: 0, lang: "en", players: ["alice", "Bob"],
               tokens: ["a8883f4e902e0284ae958a08a8bfa92f", "554a60b0662000feec1800fae3f44d5f"], bots: [nil, nil],
               rounds: 1, losses: [0, 0], round: 1, starter: 0, offer: nil, offerSpent: [false, false],
               startedAt: made, moves: [move(0, "c"), move(1, "a")]),
    StoredGame(id: 4, kind: "ghost", variant: "", settings: "", seed: 0, lang: "nl", players: ["bot-hard", "eve"],
               tokens: ["179ea0cfdddec44e9face39ec6503d8b", "d4215a7e1149c07a5399084d0d7e2e50"], bots: ["hard", nil],
               rounds: 1, losses: [0, 0], round: 1, starter: 0, offer: nil, offerSpent: [false, false],
               startedAt: made, moves: [move(0, "j")]),
]

@Suite struct Schema2FixtureTests {
    @Test func realSchema2DatabaseMigratesToSchema3() throws {
        let fixtureFolder = (fixture as NSString).deletingLastPathComponent
        let folderBefore = try FileManager.default.contentsOfDirectory(atPath: fixtureFolder).sorted()
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture))
        let dir = try TempDir("ghostd-schema2")
        defer { dir.remove() }
        // The store works on a copy; the fixture is never opened.
        try FileManager.default.copyItem(atPath: fixture, toPath: dir.database)

        // It is what it says: schema 2, with ghost's columns.
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try scalarInt(db, "PRAGMA user_version") == 2)
            for c in ["fragment", "to_move", "mode", "ghost0", "ghost1"] { #expect(try columns(db, "games").contains(c), "\(c)") }
            #expect(try columns(db, "moves").contains("letter"))
            #expect(try scalarInt(db, "SELECT count(*) FROM games") == 5)
            #expect(try scalarInt(db, "SELECT count(*) FROM moves") == 11)
        }

        let store = try Store(directory: dir.path)
        #expect(store.userVersion == Schema.version)
        #expect(!store.hasPendingWrites)

        // The games in progress, with the moves of the round in play.
        #expect(try store.activeGames() == fixtureActiveGames)
        // Earlier rounds and finished games keep their moves.
        #expect(try store.moves(game: 2, round: 1) == [move(0, "q"), move(1, "x")])
        #expect(try store.moves(game: 1, round: 1) == [move(0, "q"), move(1, "x")])
        #expect(try store.moves(game: 5, round: 1) == [move(0, "x"), move(1, "v")])

        // The finished games.
        let first = try #require(try store.result(game: 1))
        #expect(first.winner == "alice" && first.loser == "Bob" && first.reason == "dead" && first.finalState == "fragment=qx")
        let fifth = try #require(try store.result(game: 5))
        #expect(fifth.winner == "bot-easy" && fifth.loser == "frank" && fifth.reason == "left" && fifth.finalState == "fragment=xv")
        for id in [2, 3, 4, 6] { #expect(try store.result(game: id) == nil, "game \(id)") }

        // Scores, per board; names; preferences.
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == [ScoreRow(rank: 1, name: "alice", wins: 1, played: 1),
                                                               ScoreRow(rank: 2, name: "Bob", wins: 0, played: 1)])
        #expect(try store.scoreStore.scores(board: "easy-match", limit: 10) == [ScoreRow(rank: 1, name: "frank", wins: 0, played: 1)])
        for board in ["match", "easy", "hard", "hard-match"] { #expect(try store.scoreStore.scores(board: board, limit: 10) == [], "\(board)") }
        #expect(try store.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "Bob", wins: 0, played: 1))
        #expect(try store.scoreStore.rank(of: "ALICE", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 1, played: 1))
        #expect(try store.scoreStore.rank(of: "frank", board: "easy-match") == ScoreRow(rank: 1, name: "frank", wins: 0, played: 1))
        #expect(try store.nameStore.allNames() == ["alice", "Bob", "carol", "dave", "eve", "frank"])
        #expect(try store.registerName("BOB", now: made + 1) == "Bob")
        #expect(try store.preference(.language, for: "eve") == "nl")
        #expect(try store.preference(.language, for: "alice") == "en")

        // The schema and the rows behind it.
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try scalarText(db, "PRAGMA journal_mode") == "wal")
            #expect(try schemaProblems(db) == [])
            #expect(try finishedGames(db) == [
                "1|ghost||1|en|alice||Bob||alice|Bob|dead|fragment=qx|0|0|\(madeText)|\(madeText)",
                "5|ghost||5|en|frank||bot-easy|easy|bot-easy|frank|left|fragment=xv|0|0|\(madeText)|\(madeText)",
            ])
            #expect(try db.query("SELECT game_id, round, ply, seat, move, at FROM moves ORDER BY game_id, round, ply") {
                "\($0.int(0)).\($0.int(1)).\($0.int(2)) \($0.int(3)) \($0.text(4)) \($0.int(5) == made)"
            } == ["1.1.1 0 q true", "1.1.2 1 x true", "2.1.1 0 q true", "2.1.2 1 x true", "2.2.1 1 q true", "2.2.2 0 u true",
                  "3.1.1 0 c true", "3.1.2 1 a true", "4.1.1 0 j true", "5.1.1 0 x true", "5.1.2 1 v true"])
        }

        // Play goes on as the server would: dave answers in game 2 (the
        // server then drops the offer), alice makes "cat" in game 3 and loses
        // it, and a new game is numbered after the old ones.
        try store.recordMove(game: 2, round: 2, ply: 3, seat: 1, move: "a", now: made + 10)
        #expect(try store.activeGames().first?.offer == StoredGame.Offer(seat: 1, kind: "restart", lang: nil))
        try store.setOffer(game: 2, offer: nil, spent: [false, false])
        try store.recordMove(game: 3, round: 1, ply: 3, seat: 0, move: "t", now: made + 11)
        try store.finishGame(game: 3, winner: "Bob", loser: "alice", reason: "word", finalState: "fragment=cat", board: "game", now: made + 12)
        let six = try store.createGame(NewGame(kind: "ghost", seed: 7, lang: "en", players: ["carol", "eve"], tokens: ["c6", "e6"]),
                                       now: made + 13)
        #expect(six == 6)
        try store.commit()
        var expected = fixtureActiveGames.filter { $0.id != 3 }
        expected[0].moves.append(move(1, "a"))
        expected[0].offer = nil
        expected[0].offerSpent = [false, false]
        expected.append(StoredGame(id: 6, kind: "ghost", seed: 7, lang: "en", players: ["carol", "eve"], tokens: ["c6", "e6"],
                                   startedAt: made + 13))
        #expect(try store.activeGames() == expected)
        let scores = [ScoreRow(rank: 1, name: "alice", wins: 1, played: 2), ScoreRow(rank: 1, name: "Bob", wins: 1, played: 2)]
        #expect(try store.scoreStore.scores(board: "game", limit: 10) == scores)
        store.close()

        // Reopening does not migrate again: the same schema (not one DDL
        // statement ran), the same data.
        let cookie = try { let db = try raw(dir); defer { db.close() }; return try scalarInt(db, "PRAGMA schema_version") }()
        let again = try Store(directory: dir.path)
        #expect(again.userVersion == Schema.version)
        #expect(try again.activeGames() == expected)
        #expect(try again.scoreStore.scores(board: "game", limit: 10) == scores)
        #expect(try again.result(game: 3)?.finalState == "fragment=cat")
        #expect(try again.result(game: 1)?.finalState == "fragment=qx")
        again.close()
        do {
            let db = try raw(dir)
            defer { db.close() }
            #expect(try scalarInt(db, "PRAGMA schema_version") == cookie)
            #expect(try schemaProblems(db) == [])
        }

        // The fixture itself is untouched, and nothing was left beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtureFolder).sorted() == folderBefore)
    }
}
