import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: away and back", .ownThread) struct LobbyAwayTests {
    @Test func disconnectMidGameAdjourns() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.connectionCount == 1)
        #expect(try h.store.result(game: 1) == nil)
        #expect(try h.store.activeGames().map(\.id) == [1])
        // bob is still in the game and may move; the letter goes to him alone.
        h.send(2, "e")
        #expect(h.drain() == [2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe",
                                  "TURN id=1 player=alice fragment=pe"]])
        // And he cannot start another game meanwhile.
        h.send(2, "SEEK")
        #expect(isErr(h.drain()[2]?.first, .busy))
        // alice's name is kept for her: she comes back with RESUME.
        h.connect(3)
        h.send(3, "NAME alice")
        #expect(h.drain()[3]?.last == "ERR name-taken alice has a game waiting for its player, who comes back with RESUME")
    }

    @Test func bothAwayKeepsTheGame() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        _ = h.drain()
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        h.disconnect(2)
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.connectionCount == 0)
        // Nobody is at it: it leaves memory a minute later (Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.clock.advance(10)
        h.tick()
        #expect(h.drain() == [:])
        // alice left on her turn, so her grace period runs from then (Protocol.md section 7).
        h.connect(4)
        h.send(4, "RESUME \(t.bob)")
        #expect(h.drain()[4] == ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl", "OK RESUME id=1",
                                 game(1, "alice,bob", t.bob), "ADJOURNED id=1 player=alice grace=50",
                                 "TURN id=1 player=alice fragment=pe last=bob"])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 50)
    }

    @Test func leaveMidGameLoses() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        _ = h.drain()
        h.send(2, "LEAVE")
        let over = "OVER id=1 winner=alice loser=bob reason=left fragment=p"
        let info = "INFO bob left the game."
        let ranks = ["RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [
            1: [over, info] + ranks,
            2: ["OK LEAVE", over, info] + ranks,
        ])
        #expect(h.lobby.activeGames == 0)
        h.send(2, "LEAVE")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func leaveWhileTheOpponentIsAwayLoses() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts
        _ = h.drain()
        h.disconnect(1)
        _ = h.drain()
        h.send(2, "LEAVE")
        #expect(h.drain() == [2: ["OK LEAVE", "OVER id=1 winner=alice loser=bob reason=left fragment=p",
                                  "INFO bob left the game.",
                                  "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]])
        #expect(h.lobby.activeGames == 0)
        // The game is over: its token no longer resumes it, but tells how it ended, and when.
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3]?.dropFirst() == ["OK RESUME id=1 status=over", "OVER id=1 winner=alice loser=bob reason=left fragment=p ended=1700000000"])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func leaveWhileSeekingCancels() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: ["OK LEAVE"]])
        h.send(2, "SEEK")
        let d = h.drain()
        #expect(d.keys.sorted() == [2])
        #expect(d[2]?.first == "OK SEEK lang=en")
        #expect(d[2]?.count == 2)
        #expect(h.lobby.activeGames == 0)
    }

    @Test func disconnectWhileSeekingCancels() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.disconnect(1)
        _ = h.drain()
        h.send(2, "SEEK")
        #expect(h.drain().keys.sorted() == [2])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func busyWhileSeekingOrPlaying() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "SEEK")
        _ = h.drain()
        for line in ["SEEK", "NEW", "NAME alicia", "LANG nl"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .busy), "\(line)")
        }
        h.named(2, "bob")
        h.send(2, "SEEK")
        _ = h.drain()
        for line in ["SEEK", "NEW", "NAME alicia", "JOIN ABCDE"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .busy), "\(line)")
        }
    }

    @Test func quitSendsOKAndCloses() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "QUIT")
        #expect(h.drain() == [1: ["OK QUIT", "BYE quit goodbye"]])
        #expect(h.outbox.closed == [1])
    }

    @Test func quitMidGameAdjourns() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "QUIT")
        #expect(h.drain() == [1: ["OK QUIT", "BYE quit goodbye"]])
        #expect(h.outbox.closed == [1])
        // The event loop reports the closed connection.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.activeGames == 1)
        #expect(try h.store.result(game: 1) == nil)
    }

    @Test func resumeAfterDisconnect() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.disconnect(1)
        // Nobody else may take the name meanwhile.
        h.connect(4)
        h.send(4, "NAME alice")
        #expect(h.drain()[4]?.last == "ERR name-taken alice has a game waiting for its player, who comes back with RESUME")
        // A new connection, without a NAME, takes alice's seat back.
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=bob fragment=p last=alice"],
            2: ["RETURNED id=1 player=alice"],
        ])
        #expect(h.outbox.closed == [])
        h.send(4, "SEEK")
        #expect(isErr(h.drain()[4]?.first, .noName))
        #expect(h.lobby.activeGames == 1)
        // Play goes on with the new connection.
        h.send(2, "e")
        #expect(h.drain() == [
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
            3: ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
        ])
        h.send(3, "a")
        #expect(h.drain()[3]?.first == "OK LETTER letter=a fragment=pea")
        // The resumed connection holds the name now.
        h.send(4, "NAME alice")
        #expect(isErr(h.drain()[4]?.last, .nameTaken))
        // Resuming your own seat again just repeats the state.
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=bob fragment=pea last=alice"]])
        // bob's token cannot be used from alice's seat.
        h.send(3, "RESUME \(t.bob)")
        #expect(isErr(h.drain()[3]?.first, .busy))
    }

    @Test func resumeFromANamedConnectionTakesTheSeatsName() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        // carol, seeking, resumes alice's seat: her seek ends and she is alice now.
        h.named(3, "carol")
        h.send(3, "SEEK")
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            2: ["RETURNED id=1 player=alice"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
        ])
        h.named(4, "carol")
        h.named(5, "dave")
        h.send(5, "SEEK")
        #expect(h.drain()[5]?.count == 2)  // OK SEEK and the waiting INFO: carol's seek is gone
        // A connection in another game cannot resume.
        h.send(4, "SEEK")
        _ = h.drain()
        h.disconnect(3)
        _ = h.drain()
        h.send(4, "RESUME \(t.alice)")
        #expect(isErr(h.drain()[4]?.first, .busy))
    }

    @Test func resumeWithABadToken() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        h.connect(3)
        _ = h.drain()
        for bad in ["00000000000000000000000000000000", String(t.alice.dropLast()), t.alice + "0", "nope"] {
            h.send(3, "RESUME \(bad)")
            #expect(h.drain() == [3: ["ERR bad-token no game in progress has that token"]], "\(bad)")
        }
        h.send(3, "RESUME")
        #expect(isErr(h.drain()[3]?.first, .badArguments))
        #expect(h.lobby.activeGames == 1)
    }

    @Test func resumeTakesOverAStaleConnection() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        // alice's old connection (1) is still in the seat when she comes back on 3.
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            1: ["BYE replaced your seat in game 1 was resumed from another connection"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
        ])
        #expect(h.outbox.closed == [1])
        // When the old connection goes, nothing happens to the game.
        h.disconnect(1)
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 1)
        h.send(3, "p")
        #expect(h.drain() == [
            2: ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
            3: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
        ])
    }

    @Test func claimTooEarlyAndWhileTheOpponentIsHere() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable your opponent is here"]])
        // alice is to move and goes away: the grace clock runs at once.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 60 s"]])
        h.clock.advance(30)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 30 s"]])
        h.named(3, "carol")
        h.send(3, "CLAIM")
        #expect(isErr(h.drain()[3]?.first, .notInGame))
        #expect(h.lobby.activeGames == 1)
    }

    @Test func graceClockRunsOnlyWhileTheAbsentPlayerIsToMove() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "a")
        _ = h.drain()
        // alice leaves while bob is to move: no clock runs.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == nil)
        h.clock.advance(1000)
        h.tick()
        #expect(h.drain() == [:])
        h.send(2, "CLAIM")
        let refused = h.drain()
        #expect(refused.keys.sorted() == [2])
        #expect(refused[2]?.count == 1)
        #expect(isErr(refused[2]?.first, .notClaimable))
        // bob moves: now the absent alice is to move and her 60 s start.
        h.send(2, "c")
        _ = h.drain()
        let start = h.clock.monotonic
        #expect(h.lobby.nextDeadline == start + 60)
        h.clock.advance(59)
        h.tick()
        #expect(h.drain() == [:])
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 1 s"]])
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [2: ["CLAIMABLE id=1 player=alice",
                                  "INFO alice has been away past the grace period: send CLAIM to take the win, or keep waiting."]])
        // Announced once.
        h.tick()
        h.clock.advance(100)
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.lobby.nextDeadline == nil)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["OK CLAIM", "OVER id=1 winner=bob loser=alice reason=abandoned fragment=peac",
                                  "INFO alice stayed away past the grace period; bob claimed the game.",
                                  "RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"]])
        #expect(h.lobby.activeGames == 0)
        let result = try #require(try h.store.result(game: 1))
        #expect([result.winner, result.loser, result.reason, result.finalState] == ["bob", "alice", "abandoned", "fragment=peac"])
        // Too late to come back: RESUME only tells how it ended.
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3]?.dropFirst() == ["OK RESUME id=1 status=over",
                                             "OVER id=1 winner=bob loser=alice reason=abandoned fragment=peac ended=1700001160"])
        // bob is free again.
        h.send(2, "CLAIM")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func comingBackAfterTheGracePeriodStopsTheClaim() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        h.clock.advance(61)
        h.tick()
        #expect(h.drain()[2]?.contains("CLAIMABLE id=1 player=alice") == true)
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[2] == ["RETURNED id=1 player=alice"])
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable your opponent is here"]])
        // Away again: a fresh 60 s.
        h.disconnect(3)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
    }

    @Test func nextDeadlineIsTheEarliestAcrossGames() throws {
        let h = try Harness(settings: .daemonStalling())
        try h.pairAliceAndBob()
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(3, "SEEK")
        h.send(4, "SEEK")
        #expect(h.lobby.activeGames == 2)
        // alice's and carol's first moves (--first-move-timeout, Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.disconnect(3)  // carol is to move in game 2
        let first = h.clock.monotonic + 60
        #expect(h.lobby.nextDeadline == first)
        h.clock.advance(20)
        h.disconnect(1)  // alice is to move in game 1
        #expect(h.lobby.nextDeadline == first)
        h.clock.advance(40)
        h.tick()
        let d = h.drain()
        #expect(d[4]?.contains("CLAIMABLE id=2 player=carol") == true)
        #expect(d[2]?.contains("CLAIMABLE id=1 player=alice") != true)
        #expect(h.lobby.nextDeadline == first + 20)
        // A game that ends takes its deadline with it.
        h.send(4, "CLAIM")
        _ = h.drain()
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == first + 20)
        h.clock.advance(20)
        h.tick()
        #expect(h.drain()[2]?.contains("CLAIMABLE id=1 player=alice") == true)
        h.send(2, "CLAIM")
        _ = h.drain()
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.nextDeadline == nil)
    }
}
