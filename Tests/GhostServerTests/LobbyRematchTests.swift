import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: rematch", .ownThread) struct LobbyRematchTests {
    @Test func rematchNeedsBothAndTheOtherSeatStarts() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(2, "REMATCH")
        #expect(h.drain() == [
            1: ["REMATCH id=1 player=bob", "INFO bob wants a rematch: send REMATCH to play again."],
            2: ["OK REMATCH status=asked"],
        ])
        #expect(h.lobby.activeGames == 0)
        // Asking again is idempotent: the same answer, and the opponent is not told twice.
        h.send(2, "REMATCH")
        #expect(h.drain() == [2: ["OK REMATCH status=asked"]])
        h.send(1, "REMATCH")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        #expect(d == [
            1: ["OK REMATCH status=started", game(2, "bob,alice", ta, record: "1-0"), "TURN id=2 player=bob fragment="],
            2: [game(2, "bob,alice", tb, record: "0-1"), "TURN id=2 player=bob fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
        // In a game: no rematch.
        h.send(1, "REMATCH")
        #expect(isErr(h.drain()[1]?.first, .noRematch))
    }

    @Test("Issue 14: GAME between two people carries each one's record against the other (record=), from the store; none against the computer; it survives a restart and comes with RESUME")
    func headToHeadRecordOnGame() throws {
        let first = try Harness()
        do {
            let h = first
            h.named(1, "alice")
            h.named(2, "bob")
            // Their first game: no record yet.
            h.send(1, "SEEK")
            h.send(2, "SEEK")
            var d = h.drain()
            #expect(d[1]?.contains(game(1, "alice,bob", try token(d[1]))) == true)
            h.send(1, "p")   // a move first: LEAVE before any aborts
            h.send(2, "LEAVE")
            _ = h.drain()
            // The second: alice 1-0 bob, each from their own side.
            h.send(2, "SEEK")
            h.send(1, "SEEK")
            d = h.drain()
            #expect(d[1]?.contains(game(2, "bob,alice", try token(d[1]), record: "1-0")) == true)
            #expect(d[2]?.contains(game(2, "bob,alice", try token(d[2]), record: "0-1")) == true)
            h.send(2, "p")   // a move first: LEAVE before any aborts
            h.send(1, "LEAVE")
            _ = h.drain()
            // Against the computer: no record.
            h.send(1, "NEW bot=easy")
            d = h.drain()
            #expect(d[1]?.first { $0.hasPrefix("GAME ") }?.contains("record=") == false)
            h.send(1, "LEAVE")
            _ = h.drain()
        }
        // After a restart (a new lobby on the same store) the store still knows: 1-1.
        first.disconnect(1)
        first.disconnect(2)
        let h = try Harness(directory: first.directory)
        h.named(1, "Alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        let d = h.drain()
        let ta = try token(d[1])
        #expect(d[1]?.contains(game(4, "Alice,bob", ta, record: "1-1")) == true)
        // The state sent on RESUME has it too.
        h.disconnect(1)
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(ta)")
        #expect(h.drain()[3]?.dropFirst().first == game(4, "Alice,bob", ta, record: "1-1"))
    }

    @Test func rematchKeepsTheLanguage() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "LANG nl")
        h.send(2, "LANG nl")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        h.send(1, "h")   // a move first: LEAVE before any aborts
        h.send(1, "LEAVE")
        // Both now prefer English for new games; the rematch stays Dutch.
        h.send(1, "LANG en")
        h.send(2, "LANG en")
        h.send(1, "REMATCH")
        _ = h.drain()
        h.send(2, "REMATCH")
        let d = h.drain()
        let tb = try token(d[2])
        #expect(d[2]?.prefix(2) == ["OK REMATCH status=started", game(2, "bob,alice", tb, lang: "nl", record: "1-0")])
    }

    @Test func noRematch() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        h.connect(2)
        h.send(2, "REMATCH")
        #expect(isErr(h.drain()[2]?.last, .noRematch))
        h.send(2, "NAME bob")
        h.quickGame(winner: 1, loser: 2)
        // The opponent is gone.
        h.disconnect(2)
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
    }

    @Test func noRematchWhenTheOpponentIsBusy() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(2, "LEAVE")
        h.send(2, "SEEK")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(isErr(h.drain()[1]?.first, .noRematch))
    }

    /// Protocol.md: "A request lapses when either player starts something else or disconnects (no-rematch)."
    @Test func rematchRequestLapsesWhenTheAskerStartsSomethingElse() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(2, "LEAVE")
        h.send(2, "REMATCH")
        _ = h.drain()
        // bob seeks instead, then stops: his request has lapsed, and alice, who was asked, hears so.
        h.send(2, "SEEK")
        #expect(h.drain()[1] == ["CANCELLED id=1 player=bob kind=rematch"])
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func rematchRequestLapsesWhenTheAskedPlayerStartsSomethingElse() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(2, "LEAVE")
        h.send(2, "REMATCH")
        _ = h.drain()
        // alice hosts a private game instead, then closes it: bob's request has lapsed, and bob hears so.
        h.send(1, "NEW")
        #expect(h.drain()[2] == ["CANCELLED id=1 player=bob kind=rematch"])
        h.send(1, "LEAVE")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func rematchRequestLapsesWhenEitherPlayerLeaves() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(2, "LEAVE")
        h.send(1, "REMATCH")
        _ = h.drain()
        // bob, who was asked, disconnects: alice hears that her request lapsed.
        h.disconnect(2)
        #expect(h.drain() == [1: ["CANCELLED id=1 player=alice kind=rematch"]])
        // No request pending: nothing to tell.
        let g = try Harness()
        try g.pairAliceAndBob()
        g.send(1, "p")   // a move first: LEAVE before any aborts
        g.send(2, "LEAVE")
        _ = g.drain()
        g.disconnect(2)
        g.send(1, "NAME alice2")
        #expect(g.drain() == [1: ["OK NAME name=alice2 lang=en"]])
    }
}
