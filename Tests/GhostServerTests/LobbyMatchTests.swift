import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: matches between people", .ownThread) struct LobbyMatchTests {
    /// NEW rounds=ghost + JOIN; bob loses every round: alice's rounds by "pear", his own by "q".
    @Test func matchBetweenPeopleToGhost() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW rounds=ghost")
        let opened = try #require(h.drain()[1])
        let code = try #require(Message.parse(opened[0])?["code"])
        #expect(opened == ["OK NEW code=\(code) lang=en rounds=ghost", "INFO Give the code \(code) to your opponent: they send JOIN \(code)."])
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        let (ta, tb) = (try tokenIn(d[1]), try tokenIn(d[2]))
        #expect(d == [1: [gameLine("alice,bob", ta, ghost: ","), turn("alice", "", ghost: ",")],
                      2: ["OK JOIN code=\(code) lang=en rounds=ghost", gameLine("alice,bob", tb, ghost: ","), turn("alice", "", ghost: ",")]])

        let ghosts = ["", "G", "GH", "GHO", "GHOS", "GHOST"]
        for round in 1...5 {
            let g = "," + ghosts[round - 1], next = "," + ghosts[round]
            let fragment: String
            let reasonInfo: String
            if round % 2 == 1 {
                // alice starts: p e a, then bob's r makes "pear".
                h.send(1, "p")
                #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", move("alice", "p", "p"), turn("bob", "p", ghost: g)],
                                      2: [move("alice", "p", "p"), turn("bob", "p", ghost: g)]], "round \(round)")
                h.send(2, "e")
                h.send(1, "a")
                _ = h.drain()
                h.send(2, "r")
                fragment = "pear"
                reasonInfo = "\"pear\" is a word longer than 3 letters, so bob loses."
            } else {
                h.send(2, "q")
                fragment = "q"
                reasonInfo = "No word starts with \"q\", so bob loses."
            }
            let reason = round % 2 == 1 ? "word" : "dead"
            let last = fragment.last!
            let d = h.drain()
            let common = [move("bob", last, fragment),
                          "OVER id=1 winner=alice loser=bob reason=\(reason) fragment=\(fragment) ghost=\(next)"]
            if round < 5 {
                let info = "INFO \(reasonInfo) bob earns the letter \(Array("GHOST")[round - 1])."
                // The other seat starts the next round.
                let starter = round % 2 == 1 ? "bob" : "alice"
                #expect(d == [1: common + [info, gameLine("alice,bob", ta, round: round + 1, ghost: next), turn(starter, "", ghost: next)],
                              2: ["OK LETTER letter=\(last) fragment=\(fragment)"] + common
                                  + [info, gameLine("alice,bob", tb, round: round + 1, ghost: next), turn(starter, "", ghost: next)]],
                        "round \(round)")
            } else {
                let end = common + ["INFO \(reasonInfo)", "MATCH id=1 winner=alice loser=bob ghost=,GHOST",
                                    "INFO bob spelled GHOST: alice wins the match.",
                                    "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
                #expect(d == [1: end, 2: ["OK LETTER letter=\(last) fragment=\(fragment)"] + end])
            }
        }
        #expect(h.lobby.activeGames == 0)
        #expect(try h.store.moves(game: 1, round: 5).map(\.move) == ["p", "e", "a", "r"])
        // One match on the match board; its rounds are not games.
        h.send(1, "SCORES mode=match")
        #expect(h.drain() == [1: ["SCORE rank=1 name=alice wins=1 played=1", "SCORE rank=2 name=bob wins=0 played=1",
                                  "OK SCORES count=2 board=match"]])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])

        // A rematch of a match is a match, the other player starting.
        h.send(1, "REMATCH")
        h.send(2, "REMATCH")
        let r = h.drain()
        let (ra, rb) = (try tokenIn(r[1]), try tokenIn(r[2]))
        // The match counts once in their record, after the kind's fields.
        #expect(r[2]?.suffix(3) == ["OK REMATCH status=started",
                                    "GAME id=2 game=ghost lang=en players=bob,alice token=\(rb) round=1 rounds=ghost ghost=, record=0-1",
                                    turn("bob", "", ghost: ",", id: 2)])
        #expect(r[1]?.suffix(2) == ["GAME id=2 game=ghost lang=en players=bob,alice token=\(ra) round=1 rounds=ghost ghost=, record=1-0",
                                    turn("bob", "", ghost: ",", id: 2)])
    }

    @Test func seekRoundsGhostPairsOnlyMatchSeekers() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(1, "SEEK rounds=ghost")
        h.send(2, "SEEK")
        #expect(h.drain() == [1: ["OK SEEK lang=en rounds=ghost", "INFO Waiting for another player who seeks a match in en."],
                              2: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                                  "WAITING game=ghost lang=en rounds=ghost count=1"]])
        #expect(h.lobby.activeGames == 0)
        h.send(3, "SEEK rounds=ghost")
        let d = h.drain()
        let (ta, tc) = (try tokenIn(d[1]), try tokenIn(d[3]))
        #expect(d == [1: [gameLine("alice,carol", ta, ghost: ","), turn("alice", "", ghost: ",")],
                      3: ["OK SEEK lang=en rounds=ghost", gameLine("alice,carol", tc, ghost: ","), turn("alice", "", ghost: ",")]])
        h.send(4, "SEEK")
        let e = h.drain()
        let (tb, td) = (try tokenIn(e[2]), try tokenIn(e[4]))
        #expect(e == [2: ["GAME id=2 game=ghost lang=en players=bob,dave token=\(tb) round=1", turn("bob", "", id: 2)],
                      4: ["OK SEEK lang=en", "GAME id=2 game=ghost lang=en players=bob,dave token=\(td) round=1", turn("bob", "", id: 2)]])
        let stored = try h.store.activeGames()
        #expect(stored.map(\.mode) == ["ghost", "single"])
    }

    @Test func leaveMidMatchEndsTheMatch() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK rounds=ghost")
        h.send(2, "SEEK rounds=ghost")
        _ = h.drain()
        for (id, c) in [(1, "p"), (2, "e"), (1, "a"), (2, "r")] { h.send(id, c) }
        _ = h.drain()
        h.send(2, "p")   // bob starts round 2
        _ = h.drain()
        h.send(1, "LEAVE")
        let end = ["OVER id=1 winner=bob loser=alice reason=left fragment=p ghost=,G", "INFO alice left the game.",
                   "MATCH id=1 winner=bob loser=alice ghost=,G", "INFO bob wins the match.",
                   "RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"]
        #expect(h.drain() == [1: ["OK LEAVE"] + end, 2: end])
        #expect(h.lobby.activeGames == 0)
        h.send(1, "SCORES mode=match")
        #expect(h.drain() == [1: ["SCORE rank=1 name=bob wins=1 played=1", "SCORE rank=2 name=alice wins=0 played=1",
                                  "OK SCORES count=2 board=match"]])
        h.send(1, "SCORES mode=game")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])
    }

    @Test func matchSurvivesAStoreReopenWithLettersAndStarter() throws {
        let first = try BotHarness()
        first.named(1, "alice")
        first.named(2, "bob")
        first.send(1, "NEW rounds=ghost")
        let ok = try #require(first.drain()[1]?.first)
        let code = try #require(Message.parse(ok)?["code"])
        first.send(2, "JOIN \(code)")
        let d = first.drain()
        let (ta, tb) = (try tokenIn(d[1]), try tokenIn(d[2]))
        for (id, c) in [(1, "p"), (2, "e"), (1, "a"), (2, "r")] { first.send(id, c) }
        _ = first.drain()
        first.send(2, "p")   // round 2: bob starts
        _ = first.drain()
        let saved = try #require(try first.store.activeGames().first)
        #expect(saved.mode == "ghost" && saved.ghost == [0, 1] && saved.starter == 1 && saved.round == 2
                && saved.fragment == "p" && saved.toMove == 0)

        // The server restarts: a new lobby on the same store.
        let h = try BotHarness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)   // loaded on RESUME
        h.connect(1)
        _ = h.drain()
        h.send(1, "RESUME \(ta)")
        #expect(h.drain() == [1: ["OK RESUME id=1", gameLine("alice,bob", ta, round: 2, ghost: ",G"),
                                  "ADJOURNED id=1 player=bob grace=60", turn("alice", "p", ghost: ",G", last: "bob")]])
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(tb)")
        #expect(h.drain() == [1: ["RETURNED id=1 player=bob"],
                              2: ["OK RESUME id=1", gameLine("alice,bob", tb, round: 2, ghost: ",G"), turn("alice", "p", ghost: ",G", last: "bob")]])
        // Round 2 goes on; alice makes "pear" and earns G; round 3 is alice's to start again.
        h.send(1, "e")
        h.send(2, "a")
        _ = h.drain()
        h.send(1, "r")
        let info = "INFO \"pear\" is a word longer than 3 letters, so alice loses. alice earns the letter G."
        let over = "OVER id=1 winner=bob loser=alice reason=word fragment=pear ghost=G,G"
        #expect(h.drain() == [1: ["OK LETTER letter=r fragment=pear", move("alice", "r", "pear"), over, info,
                                  gameLine("alice,bob", ta, round: 3, ghost: "G,G"), turn("alice", "", ghost: "G,G")],
                              2: [move("alice", "r", "pear"), over, info,
                                  gameLine("alice,bob", tb, round: 3, ghost: "G,G"), turn("alice", "", ghost: "G,G")]])
        #expect(try h.store.moves(game: 1, round: 2).map(\.move) == ["p", "e", "a", "r"])
        let stored = try #require(try h.store.activeGames().first)
        #expect(stored.ghost == [1, 1] && stored.starter == 0 && stored.round == 3 && stored.fragment == "")

        // And once more: a restart between rounds keeps the letters and the starter.
        let h3 = try BotHarness(directory: first.directory)
        h3.connect(2)
        _ = h3.drain()
        h3.send(2, "RESUME \(tb)")
        #expect(h3.drain() == [2: ["OK RESUME id=1", gameLine("alice,bob", tb, round: 3, ghost: "G,G"),
                                   "ADJOURNED id=1 player=alice grace=60", turn("alice", "", ghost: "G,G")]])
    }
}
