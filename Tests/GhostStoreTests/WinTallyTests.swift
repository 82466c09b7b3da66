import Foundation
import Testing
@testable import GhostStore

/// A board's win counts as a tree (a game's end asked two ranks,
/// each walking every number of wins on the board): the same answers as
/// counting, through growth, removals and rollbacks.
@Suite struct WinTallyTests {
    /// Random adds and removals across several doublings of the tree, each
    /// answer checked against a plain count of the names.
    @Test func answersAsACountDoes() {
        var tally = WinTally()
        var names: [Int] = []   // each name's wins
        var seed: UInt64 = 29
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        func check() {
            #expect(tally.names == names.count)
            for wins in -1...300 {
                let counted = names.filter { $0 > max(0, wins) }.count
                #expect(tally.above(wins) == counted, "above(\(wins))")
            }
        }
        check()
        for step in 0..<600 {
            switch next(4) {
            case 0 where !names.isEmpty:            // a name leaves the board (a rollback of its first game)
                let i = next(names.count)
                tally.add(names[i], -1)
                names.remove(at: i)
            case 1 where !names.isEmpty:            // a name wins a game
                let i = next(names.count)
                tally.add(names[i], -1)
                names[i] += 1
                tally.add(names[i])
            default:                                // a name joins, with up to 257 wins (the tree grows to 512)
                let wins = step < 20 ? step : next(258)
                names.append(wins)
                tally.add(wins)
            }
            if step % 50 == 0 { check() }
        }
        check()
        // Many names at once (the start's GROUP BY), and wins below 0 counted as 0.
        tally.add(1000, 3)
        tally.add(-5)
        names += [1000, 1000, 1000, 0]
        #expect(tally.names == names.count)
        #expect(tally.above(999) == 3)
        #expect(tally.above(1000) == 0)
        #expect(tally.above(Int.max - 1) == 0)
        #expect(tally.above(-1) == names.filter { $0 > 0 }.count)
    }

    /// Names with as many different numbers of wins as they are: every rank
    /// is 1 + the names with more wins, as SQL counts them, after a rolled-back
    /// turn, and again after a reopen (read from the scores table at start).
    @Test func ranksMatchTheScoresTable() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let names = (0..<24).map { "p\($0)" }
        func expectRanksMatch(_ store: Store) throws {
            let db = try raw(dir)
            defer { db.close() }
            for name in names + ["nobody"] {
                let row = try store.scoreStore.rank(of: name, board: "game")
                let above = try db.query("SELECT count(*) FROM scores WHERE board = 'game' AND played > 0 AND wins > ?",
                                         .of(row.wins)) { $0.int(0) }.first ?? -1
                #expect(row.rank == 1 + above, "\(name): \(row)")
            }
        }
        do {
            let store = try Store(directory: dir.path, durability: .normal)
            defer { store.close() }
            for name in names { try store.registerName(name, now: t0) }
            // p<i> beats p0 i times: wins 0, 1, ..., 23 (p0 wins none).
            for (i, name) in names.enumerated() where i > 0 {
                for _ in 0..<i {
                    let g = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [name, "p0"], tokens: freshTokens()), now: t0)
                    try store.finishGame(game: g, winner: name, loser: "p0", reason: "word", finalState: "fragment=", board: "game", now: t0)
                }
                try store.commit()
            }
            #expect(try store.scoreStore.rank(of: "p23", board: "game") == ScoreRow(rank: 1, name: "p23", wins: 23, played: 23))
            #expect(try store.scoreStore.rank(of: "p1", board: "game") == ScoreRow(rank: 23, name: "p1", wins: 1, played: 1))
            #expect(try store.scoreStore.rank(of: "p0", board: "game") == ScoreRow(rank: 24, name: "p0", wins: 0, played: 276))
            // A turn that lifts p1 past p5, then rolls back.
            for _ in 0..<5 {
                let g = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["p1", "p0"], tokens: freshTokens()), now: t0)
                try store.finishGame(game: g, winner: "p1", loser: "p0", reason: "word", finalState: "fragment=", board: "game", now: t0)
            }
            #expect(try store.scoreStore.rank(of: "p1", board: "game") == ScoreRow(rank: 18, name: "p1", wins: 6, played: 6))
            #expect(try store.scoreStore.rank(of: "p6", board: "game").rank == 18)
            #expect(try store.scoreStore.rank(of: "p5", board: "game").rank == 20)
            store.rollback()
            #expect(try store.scoreStore.rank(of: "p1", board: "game") == ScoreRow(rank: 23, name: "p1", wins: 1, played: 1))
            try expectRanksMatch(store)
        }
        let again = try Store(directory: dir.path, durability: .normal)
        defer { again.close() }
        try expectRanksMatch(again)
        #expect(try again.scoreStore.rank(of: "p12", board: "game") == ScoreRow(rank: 12, name: "p12", wins: 12, played: 12))
    }
}
