import Foundation
import Testing
import TestSupport
import GhostProtocol
import GhostStore
@testable import GhostServer

/// A data folder from an older ghostd, which
/// rated games against the computer (a solver farmed 2722 against
/// Hard and led TOP). Schema 16 makes such games unrated and, if there were
/// any, the next start computes every rating again from the rated games
/// between people (RatingsReplay.swift).
@Suite(.ownThread) struct RatingsReplayTests {
    let base = LobbyRatingsTests()

    /// A harness on `dir` where alice (1) has beaten bob (2) in a rated game (game 1).
    func aliceBeatsBob(in dir: String) throws -> Harness {
        let h = try base.computerHarness(directory: dir)
        base.register(h, 1, "alice")
        base.register(h, 2, "bob")
        base.seekAndPlayPear(h, game: 1)
        return h
    }

    /// The folder back at schema 15, as an older ghostd left it.
    func backToSchema15(_ dir: String) throws {
        let db = try SQLiteDatabase(path: dir + "/ghostd.sqlite3", create: false)
        try db.execute("DROP TABLE upgrade_work; DROP TABLE follows; DROP TABLE blocks; DROP TABLE reports; DROP TABLE sanctions; PRAGMA user_version = 15")
    }

    @Test("A schema-15 folder where alice beat bob (rated) and beat Hard (rated, as before #43, with a farmed 2722): after the upgrade alice and bob have exactly the ratings of their one game (1662, 1338; TOP), the computer game is unrated and its changes gone, and the replay runs once")
    func farmedRatingsAreComputedAgain() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let h = try aliceBeatsBob(in: dir)
            // Game 2: alice beats Hard (c, a, t: the computer must make "cats").
            h.send(1, "NEW bot=hard")
            h.send(1, "c")
            h.send(1, "t")
            let end = h.drain()[1] ?? []
            #expect(end.contains { $0.hasPrefix("OVER id=2 ") && $0.contains(" winner=alice ") }, "\(end)")
            // As the old code stored it: rated, and alice's rating farmed.
            try h.store.markRated(game: 2, ratings: [1662, 2200])
            try h.store.setRatingChanges(game: 2, changes: [1060, nil])
            var farmed = try #require(try h.store.ratingStore.rating(of: "alice", board: "ghost"))
            farmed.rating = 2722
            farmed.games = 2
            farmed.wins = 2
            try h.store.ratingStore.saveRating(farmed, listed: true)
            try h.store.commit()
        }
        try backToSchema15(dir)
        let h = try base.computerHarness(directory: dir)
        #expect(try !h.store.isRated(game: 2))
        #expect(try h.store.isRated(game: 1))
        #expect(try !h.store.ratingStore.ratingsReplayNeeded())
        let alice = try #require(try h.store.ratingStore.rating(of: "alice", board: "ghost"))
        let bob = try #require(try h.store.ratingStore.rating(of: "bob", board: "ghost"))
        #expect(Int(alice.rating.rounded()) == 1662, "\(alice)")
        #expect(Int(bob.rating.rounded()) == 1338, "\(bob)")
        #expect(alice.games == 1 && alice.wins == 1 && alice.losses == 0, "\(alice)")
        #expect(bob.games == 1 && bob.wins == 0 && bob.losses == 1, "\(bob)")
        #expect(alice.best == BestWin(game: 1, opponent: "bob", rating: 1500), "\(String(describing: alice.best))")
        h.connect(1)
        h.send(1, "HISTORY alice")
        h.send(1, "TOP")
        let d = h.drain()[1] ?? []
        let computerGame = try #require(d.first { $0.hasPrefix("RESULT id=2 ") }, "\(d)")
        #expect(!computerGame.contains("change="), "\(computerGame)")
        let ratedGame = try #require(d.first { $0.hasPrefix("RESULT id=1 ") }, "\(d)")
        #expect(ratedGame.contains("change=+162"), "\(ratedGame)")
        #expect(d.contains { $0.hasPrefix("LEADER rank=1 name=alice rating=1662") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("LEADER rank=2 name=bob rating=1338") }, "\(d)")
    }

    @Test("A folder whose games against the computer were never rated needs no replay: the ratings stay byte for byte")
    func nothingToReplay() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var before: StoredRating?
        do {
            let h = try aliceBeatsBob(in: dir)
            before = try h.store.ratingStore.rating(of: "alice", board: "ghost")
        }
        try backToSchema15(dir)
        let h = try base.computerHarness(directory: dir)
        #expect(try !h.store.ratingStore.ratingsReplayNeeded())
        #expect(try h.store.ratingStore.rating(of: "alice", board: "ghost") == before)
    }
}
