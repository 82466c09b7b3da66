import Foundation
import Testing
@testable import GhostStore

/// The score cache (ScoresStore: per name, then per board) against the
/// database: after a rolled-back command or turn, what the cache answers
/// is what a store opened afresh reads from the file, on every board.
@Suite("Store: the score cache, name first, after rollbacks")
struct ScoreCacheTests {
    private let boards = ["game", "match", "easy"]
    private let names = ["alice", "Bob", "carol"]

    /// Every name's row on every board, as `store` answers it.
    private func ranks(_ store: Store) throws -> [ScoreRow] {
        try boards.flatMap { board in try names.map { try store.scoreStore.rank(of: $0, board: board) } }
    }

    /// The same, read by a store opened on the same folder (its caches empty).
    private func stored(_ dir: TempDir) throws -> [ScoreRow] {
        let fresh = try openStore(dir.path)
        defer { fresh.close() }
        return try ranks(fresh)
    }

    @Test func aRolledBackTurnLeavesTheCacheAsTheDatabase() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        for name in names { try store.registerName(name, now: t0) }
        func finish(_ winner: String, _ loser: String, board: String) throws {
            let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [winner, loser], tokens: freshTokens()), now: t0)
            try store.finishGame(game: id, winner: winner, loser: loser, reason: "word", finalState: "fragment=", board: board, now: t0)
        }
        // Rows on several boards per name, committed and cached.
        try finish("alice", "Bob", board: "game")
        try finish("Bob", "alice", board: "match")
        try finish("carol", "alice", board: "game")
        try store.commit()
        let committed = try ranks(store)
        #expect(committed == (try stored(dir)))
        // A turn that counts on every board, some names for the first time, rolled back.
        try finish("Bob", "carol", board: "game")
        try finish("alice", "carol", board: "match")
        try finish("carol", "Bob", board: "easy")
        try finish("alice", "Bob", board: "easy")
        #expect(try store.scoreStore.rank(of: "carol", board: "easy") == ScoreRow(rank: 1, name: "carol", wins: 1, played: 1))
        store.rollback()
        #expect(try ranks(store) == committed)
        #expect(try ranks(store) == (try stored(dir)))
        // A command rolled back after one that was kept: only its counts are undone.
        store.beginCommand()
        try finish("carol", "Bob", board: "match")
        try store.endCommand()
        store.beginCommand()
        try finish("Bob", "alice", board: "match")
        try finish("Bob", "carol", board: "game")
        #expect(store.rollbackCommand())
        try store.commit()
        #expect(try ranks(store) == (try stored(dir)))
        #expect(try store.scoreStore.rank(of: "carol", board: "match") == ScoreRow(rank: 1, name: "carol", wins: 1, played: 1))
        #expect(try store.scoreStore.rank(of: "bob", board: "match") == ScoreRow(rank: 1, name: "Bob", wins: 1, played: 2))
    }

    /// The places `finishGame` returns (the winner's, then the loser's,
    /// each if counted) are the ones `rank(of:, board: "game")` answers once both counts
    /// are made: the winner's win may pass the loser, or tie with it.
    @Test func finishGameReturnsThePlacesAfterBothCounts() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        for name in names { try store.registerName(name, now: t0) }
        func finish(_ winner: String, _ loser: String, people: [String]? = nil) throws -> [ScoreRow] {
            let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [winner, loser], tokens: freshTokens()), now: t0)
            return try store.finishGame(game: id, winner: winner, loser: loser, reason: "word", finalState: "fragment=",
                                        board: "game", people: people, now: t0)
        }
        #expect(try finish("Bob", "alice") == [ScoreRow(rank: 1, name: "Bob", wins: 1, played: 1),
                                                 ScoreRow(rank: 2, name: "alice", wins: 0, played: 1)])
        // alice's win ties her with Bob: both first.
        #expect(try finish("alice", "Bob") == [ScoreRow(rank: 1, name: "alice", wins: 1, played: 2),
                                                 ScoreRow(rank: 1, name: "Bob", wins: 1, played: 2)])
        // Her next win passes him, though he is counted first.
        #expect(try finish("alice", "Bob", people: ["Bob", "alice"]) == [ScoreRow(rank: 1, name: "alice", wins: 2, played: 3),
                                                                         ScoreRow(rank: 2, name: "Bob", wins: 1, played: 3)])
        // carol, not counted, has no place.
        #expect(try finish("alice", "carol", people: ["alice"]) == [ScoreRow(rank: 1, name: "alice", wins: 3, played: 4)])
        #expect(try finish("carol", "Bob", people: ["Bob"]) == [ScoreRow(rank: 2, name: "Bob", wins: 1, played: 4)])
        #expect(try finish("carol", "Bob", people: []) == [])
        for name in names {
            let places = try finish(name, "alice")
            #expect(places == [try store.scoreStore.rank(of: name, board: "game"), try store.scoreStore.rank(of: "alice", board: "game")])
        }
    }
}
