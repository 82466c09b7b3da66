import Foundation
import Testing
@testable import GhostStore

/// A store in a fresh directory, with a second connection for injecting
/// failures (triggers) and for looking at what is stored.
private final class FailingStore {
    let path: String
    let store: Store
    let raw: SQLiteDatabase

    init(maxPageCount: Int = 0) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-fail-\(UUID().uuidString)").path
        store = try Store(directory: path, durability: .normal, maxPageCount: maxPageCount)
        raw = try SQLiteDatabase(path: store.path)
    }

    deinit {
        raw.close()
        store.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    func count(_ sql: String) throws -> Int { try raw.query(sql) { $0.int(0) }.first ?? -1 }
}


@Suite("Store: commands as savepoints, rollbacks, a page limit, failed commits")
struct StoreFailureTests {
    @Test func rollingBackACommandUndoesItsWritesOnly() throws {
        let f = try FailingStore()
        let s = f.store
        s.beginCommand()
        try s.registerName("alice", now: t0)
        #expect(try s.endCommand())
        s.beginCommand()
        try s.registerName("bob", now: t0)
        try s.registerName("carol", now: t0)
        #expect(s.rollbackCommand())
        try s.commit()
        #expect(try s.nameStore.allNames() == ["alice"])
        #expect(!s.hasPendingWrites)
    }

    @Test func aCommandThatWritesNothingTakesNoSavepointAndNoTransaction() throws {
        let f = try FailingStore()
        let s = f.store
        s.beginCommand()
        _ = try s.nameStore.allNames()
        _ = try s.scoreStore.scores(board: "game", limit: 5)
        #expect(try !s.endCommand())
        #expect(!s.hasPendingWrites)
    }

    @Test func aFailedStatementLeavesTheCommandToRollBackAndTheScoresAreReadAgain() throws {
        let f = try FailingStore()
        let s = f.store
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.registerName("alice", now: t0)
        try s.registerName("bob", now: t0)
        try s.commit()
        try f.raw.execute("CREATE TRIGGER full BEFORE INSERT ON scores WHEN NEW.player = 'bob' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        // alice's score is written (and cached), then bob's fails.
        s.beginCommand()
        #expect(throws: SQLiteDatabase.Failure.self) {
            try s.finishGame(game: game, winner: "alice", loser: "bob", reason: "left", finalState: "fragment=", board: "game", now: t0)
        }
        #expect(s.rollbackCommand())
        try s.commit()
        #expect(try f.count("SELECT count(*) FROM scores") == 0)
        #expect(try s.activeGames().map(\.id) == [game])
        #expect(try s.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 0, played: 0))
        try f.raw.execute("DROP TRIGGER full")
        s.beginCommand()
        try s.finishGame(game: game, winner: "alice", loser: "bob", reason: "left", finalState: "fragment=", board: "game", now: t0)
        try s.endCommand()
        try s.commit()
        #expect(try s.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 1, played: 1))
        #expect(try s.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 0, played: 1))
    }

    /// A rollback, of a command or of a turn, puts the score caches back
    /// from a journal of what changed since the commit: no board is read
    /// again (that costs as much as the board is long), and ranks stay right.
    @Test func rollbacksPutTheScoresBackWithoutReadingABoard() throws {
        let f = try FailingStore()
        let s = f.store
        for name in ["alice", "bob", "carol", "dave"] { try s.registerName(name, now: t0) }
        func game(_ a: String, _ b: String) throws -> Int {
            try s.createGame(NewGame(kind: "ghost", lang: "en", players: [a, b], tokens: freshTokens()), now: t0)
        }
        let first = try game("alice", "bob")
        try s.finishGame(game: first, winner: "alice", loser: "bob", reason: "word", finalState: "fragment=", board: "game", now: t0)
        let second = try game("carol", "dave"), third = try game("bob", "dave")
        try s.commit()
        s.db.statementLog = []
        // A command that ends a game and then fails, after one that ended another and was kept.
        try f.raw.execute("CREATE TRIGGER full BEFORE INSERT ON players WHEN NEW.name = 'erin' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        s.beginCommand()
        try s.finishGame(game: second, winner: "carol", loser: "dave", reason: "word", finalState: "fragment=", board: "game", now: t0)
        try s.endCommand()
        s.beginCommand()
        try s.finishGame(game: third, winner: "bob", loser: "dave", reason: "word", finalState: "fragment=", board: "game", now: t0)
        #expect(throws: SQLiteDatabase.Failure.self) { try s.registerName("erin", now: t0) }
        #expect(s.rollbackCommand())
        #expect(try s.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 3, name: "bob", wins: 0, played: 1))
        #expect(try s.scoreStore.rank(of: "dave", board: "game") == ScoreRow(rank: 3, name: "dave", wins: 0, played: 1))
        #expect(try s.scoreStore.rank(of: "carol", board: "game") == ScoreRow(rank: 1, name: "carol", wins: 1, played: 1))
        // The whole turn rolled back: carol's game is undone too.
        s.rollback()
        #expect(try s.scoreStore.rank(of: "carol", board: "game") == ScoreRow(rank: 2, name: "carol", wins: 0, played: 0))
        #expect(try s.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 1, played: 1))
        #expect(try s.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 0, played: 1))
        #expect(try s.scoreStore.rank(of: "dave", board: "game") == ScoreRow(rank: 2, name: "dave", wins: 0, played: 0))
        let log = s.db.statementLog ?? []
        s.db.statementLog = nil
        #expect(!log.contains { $0.contains("GROUP BY") || $0.contains("count(") }, "\(log)")
        // What the caches say is what is stored.
        #expect(try f.count("SELECT count(*) FROM scores") == 2)
        #expect(try s.scoreStore.scores(board: "game", limit: 5) == [ScoreRow(rank: 1, name: "alice", wins: 1, played: 1),
                                           ScoreRow(rank: 2, name: "bob", wins: 0, played: 1)])
    }

    @Test func aCommandRolledBackAfterAnotherEndedAGameKeepsThatGamesScores() throws {
        let f = try FailingStore()
        let s = f.store
        try s.registerName("alice", now: t0)
        try s.registerName("bob", now: t0)
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.commit()
        try f.raw.execute("CREATE TRIGGER full BEFORE INSERT ON players WHEN NEW.name = 'carol' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        s.beginCommand()
        try s.finishGame(game: game, winner: "alice", loser: "bob", reason: "left", finalState: "fragment=", board: "game", now: t0)
        try s.endCommand()
        s.beginCommand()
        #expect(throws: SQLiteDatabase.Failure.self) { try s.registerName("carol", now: t0) }
        #expect(s.rollbackCommand())
        #expect(try s.scoreStore.rank(of: "alice", board: "game") == ScoreRow(rank: 1, name: "alice", wins: 1, played: 1))
        try s.commit()
        #expect(try s.scoreStore.rank(of: "bob", board: "game") == ScoreRow(rank: 2, name: "bob", wins: 0, played: 1))
        #expect(try s.scoreStore.scores(board: "game", limit: 5).map(\.name) == ["alice", "bob"])
    }

    @Test func aRolledBackOfferChangeLeavesTheStoredOffer() throws {
        let f = try FailingStore()
        let s = f.store
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.setOffer(game: game, offer: .init(seat: 0, kind: "restart", lang: nil), spent: [true, false])
        try s.commit()
        // Clearing the offer is rolled back: the offer is still stored.
        s.beginCommand()
        try s.setOffer(game: game, offer: nil, spent: [false, false])
        #expect(s.rollbackCommand())
        try s.commit()
        #expect(try f.count("SELECT count(*) FROM games WHERE offer_seat IS NOT NULL") == 1)
        #expect(try s.activeGames().first?.offer == StoredGame.Offer(seat: 0, kind: "restart", lang: nil))
    }

    @Test func withoutASavepointAFailedFirstStatementIsUndoneAlone() throws {
        let f = try FailingStore()
        let s = f.store
        try f.raw.execute("CREATE TRIGGER full BEFORE INSERT ON players WHEN NEW.name = 'bob' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        s.beginCommand(savepoint: false)
        _ = try s.registerName("alice", now: t0)
        try s.endCommand()
        s.beginCommand(savepoint: false)
        #expect(throws: SQLiteDatabase.Failure.self) { try s.registerName("bob", now: t0) }
        #expect(s.rollbackCommand())
        try s.commit()
        #expect(try s.nameStore.allNames() == ["alice"])
    }

    /// A command's moves wait in the journal (no SQL): undoing the command
    /// drops them, and a failed SQL write after them is still its first.
    @Test func aCommandUndoneDropsItsMovesAndKeepsTheTurn() throws {
        let f = try FailingStore()
        let s = f.store
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.commit()
        try f.raw.execute("CREATE TRIGGER full BEFORE UPDATE ON games WHEN NEW.round = 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        s.beginCommand()
        _ = try s.registerName("carol", now: t0)
        try s.endCommand()
        s.beginCommand(savepoint: false)
        try s.recordMove(game: game, round: 1, ply: 1, seat: 0, move: "p", now: t0)
        #expect(throws: SQLiteDatabase.Failure.self) { try s.nextRound(game: game, round: 2, losses: [1, 0], starter: 1) }
        #expect(s.rollbackCommand())
        try s.commit()
        #expect(try s.nameStore.allNames() == ["carol"])
        #expect(try s.moves(game: game, round: 1).map(\.move) == [])
    }

    /// A fold that fails (the moves' INSERT, in the commit of a turn with
    /// a transaction) loses that turn only: the moves of earlier turns stay
    /// in the journal, and the next commit folds them.
    @Test func aFailedFoldKeepsTheEarlierTurnsMoves() throws {
        let f = try FailingStore()
        let s = f.store
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.commit()
        try s.recordMove(game: game, round: 1, ply: 1, seat: 0, move: "p", now: t0)
        try s.commit()   // into the journal's file: no SQL
        #expect(try f.raw.query("SELECT count(*) FROM moves") { $0.int(0) } == [0])
        try f.raw.execute("CREATE TRIGGER full BEFORE INSERT ON moves WHEN NEW.ply = 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        try s.recordMove(game: game, round: 1, ply: 2, seat: 1, move: "e", now: t0)
        _ = try s.registerName("carol", now: t0)
        #expect(throws: SQLiteDatabase.Failure.self) { try s.commit() }
        #expect(try s.nameStore.allNames() == [])
        #expect(try s.moves(game: game, round: 1).map(\.move) == ["p"])
        try f.raw.execute("DROP TRIGGER full")
        _ = try s.registerName("dave", now: t0)
        try s.commit()
        #expect(try f.raw.query("SELECT group_concat(move, '') FROM moves") { $0.text(0) } == ["p"])
        #expect(try s.nameStore.allNames() == ["dave"])
    }

    @Test func withoutASavepointAFailedLaterStatementLosesTheTurnIfAnotherCommandWrote() throws {
        let f = try FailingStore()
        let s = f.store
        let game = try s.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: ["a", "b"]), now: t0)
        try s.commit()
        try f.raw.execute("CREATE TRIGGER full BEFORE UPDATE ON games WHEN NEW.round = 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        // Alone in its transaction: rolling all of it back undoes the command alone.
        s.beginCommand(savepoint: false)
        try s.recordMove(game: game, round: 1, ply: 1, seat: 0, move: "p", now: t0)
        #expect(throws: SQLiteDatabase.Failure.self) { try s.nextRound(game: game, round: 2, losses: [1, 0], starter: 1) }
        #expect(s.rollbackCommand())
        #expect(!s.transactionLost)
        try s.commit()
        #expect(try s.moves(game: game, round: 1).map(\.move) == [])
        // After another command's write: the turn is lost.
        s.beginCommand()
        try s.registerName("carol", now: t0)
        try s.endCommand()
        s.beginCommand(savepoint: false)
        try s.setOffer(game: game, offer: StoredGame.Offer(seat: 0, kind: "restart", lang: nil), spent: [true, false])
        #expect(throws: SQLiteDatabase.Failure.self) { try s.nextRound(game: game, round: 2, losses: [1, 0], starter: 1) }
        #expect(!s.rollbackCommand())
        #expect(throws: Store.Failure.self) { try s.commit() }
        #expect(try s.nameStore.allNames() == [])
        #expect(try s.activeGames().first?.offer == nil)
    }

    @Test func aWholeTransactionRolledBackBySQLiteIsReported() throws {
        let f = try FailingStore()
        let s = f.store
        try f.raw.execute("CREATE TRIGGER lost BEFORE INSERT ON players WHEN NEW.name = 'bob' BEGIN SELECT RAISE(ROLLBACK, 'lost'); END")
        s.beginCommand()
        try s.registerName("alice", now: t0)
        try s.endCommand()
        s.beginCommand()
        #expect(throws: (any Error).self) { try s.registerName("bob", now: t0) }
        // alice's write went with it: the turn is lost, and writes are refused until it ends.
        #expect(!s.rollbackCommand())
        #expect(s.transactionLost)
        s.beginCommand()
        #expect(throws: Store.Failure.self) { try s.registerName("carol", now: t0) }
        _ = s.rollbackCommand()
        #expect(throws: Store.Failure.self) { try s.commit() }
        #expect(!s.transactionLost)
        #expect(try s.nameStore.allNames() == [])
        try s.registerName("carol", now: t0)
        try s.commit()
        #expect(try s.nameStore.allNames() == ["carol"])
    }

    @Test func aFailedStatementThatWasTheTurnsOnlyWriteIsJustThatCommand() throws {
        let f = try FailingStore()
        let s = f.store
        try f.raw.execute("CREATE TRIGGER lost BEFORE INSERT ON players WHEN NEW.name = 'bob' BEGIN SELECT RAISE(ROLLBACK, 'lost'); END")
        s.beginCommand()
        #expect(throws: (any Error).self) { try s.registerName("bob", now: t0) }
        #expect(s.rollbackCommand())
        #expect(!s.transactionLost)
        s.beginCommand()
        try s.registerName("alice", now: t0)
        try s.endCommand()
        try s.commit()
        #expect(try s.nameStore.allNames() == ["alice"])
    }

    @Test func aFailedCommitRollsBackTheWholeTurn() throws {
        let f = try FailingStore()
        let s = f.store
        try s.registerName("alice", now: t0)
        try s.commit()
        // A deferred foreign key that the turn breaks: COMMIT itself fails.
        try f.raw.execute("CREATE TABLE tripwire (name TEXT REFERENCES players(name) DEFERRABLE INITIALLY DEFERRED)")
        try f.raw.execute("CREATE TRIGGER trip AFTER INSERT ON players WHEN NEW.name = 'carol' BEGIN INSERT INTO tripwire VALUES ('nobody'); END")
        s.beginCommand()
        try s.registerName("bob", now: t0)
        try s.endCommand()
        s.beginCommand()
        try s.registerName("carol", now: t0)
        try s.endCommand()
        #expect(throws: SQLiteDatabase.Failure.self) { try s.commit() }
        #expect(!s.hasPendingWrites)
        #expect(try s.nameStore.allNames() == ["alice"])
        // The next turn works.
        try s.registerName("dave", now: t0)
        try s.commit()
        #expect(try s.nameStore.allNames() == ["alice", "dave"])
    }

    @Test func aPageLimitRefusesGrowthAndALargerOneAllowsItAgain() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-pages-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pages = try {
            let first = try Store(directory: path, durability: .normal)
            defer { first.close() }
            return try first.pageCounts().pages
        }()
        // A limit at the current size: registering names soon needs a page.
        let store = try Store(directory: path, durability: .normal, maxPageCount: pages)
        defer { store.close() }
        #expect(try store.pageCounts().pages == pages)
        #expect(try store.pageCounts().max == pages)
        var stored = 0
        var failure: Error?
        for i in 0..<2000 {
            store.beginCommand()
            do {
                try store.registerName("player-\(i)", now: t0)
                try store.endCommand()
                try store.commit()
                stored += 1
            } catch {
                failure = error
                _ = store.rollbackCommand()
                break
            }
        }
        let full = try #require(failure as? SQLiteDatabase.Failure, "2000 names fit in \(pages) pages")
        #expect(full.code & 0xFF == 13, "\(full)")   // SQLITE_FULL
        #expect(try store.nameStore.allNames().count == stored)
        // Reads go on; the failed name was not stored.
        #expect(try !store.nameStore.allNames().contains("player-\(stored)"))
        store.close()
        let larger = try Store(directory: path, durability: .normal, maxPageCount: pages + 100)
        defer { larger.close() }
        try larger.registerName("player-\(stored)", now: t0)
        try larger.commit()
        #expect(try larger.nameStore.allNames().count == stored + 1)
    }
}
