import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer

/// Games on a clock (`clock=<seconds per move>`), driven through
/// the lobby with a manual clock: the range, who is timed, the time loss, the
/// absent player's clock, a restart's fresh period, Ghost and Hangman.
@Suite(.ownThread) struct LobbyClockTests {
    private func token(_ lines: [String]?) throws -> String {
        let game = try #require(lines?.first { $0.hasPrefix("GAME ") })
        return try #require(Message.parse(game)?["token"])
    }

    /// alice (1) and bob (2) paired by `SEEK <options>`: alice to move.
    private func pair(_ h: Harness, _ options: String = "clock=30") throws -> (alice: String, bob: String) {
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK " + options)
        h.send(2, "SEEK " + options)
        let d = h.drain()
        return (try token(d[1]), try token(d[2]))
    }

    @Test func clockOutOfRangeIsABadValue() throws {
        let h = try Harness()
        h.named(1, "alice")
        let refusal = "ERR bad-value clock= is the seconds per move, 5 to 3600"
        for line in ["NEW clock=4", "NEW clock=3601", "SEEK clock=0", "NEW bot=easy clock=1",
                     "NEW game=hangman clock=4000", "SEEK game=hangman clock=2"] {
            h.send(1, line)
            #expect(h.drain() == [1: [refusal]], "\(line)")
        }
        // SEEK takes a few standard clocks (each is a queue), NEW any in the range.
        for line in ["SEEK clock=5", "SEEK game=hangman clock=45", "SEEK rounds=ghost clock=3600"] {
            h.send(1, line)
            #expect(h.drain() == [1: ["ERR bad-value SEEK takes clock=15,30,60,120,300,600; NEW takes any clock from 5 to 3600"]], "\(line)")
        }
        h.send(1, "NEW clock=30s")
        #expect(h.drain() == [1: ["ERR bad-value clock= is a number of seconds per move"]])
        // Nothing was started: alice is still idle.
        h.send(1, "NEW bot=easy clock=5")
        #expect(h.drain()[1]?.first == "OK NEW bot=easy lang=en clock=5")
    }

    @Test func theRangeIsASetting() throws {
        var settings = Lobby.Settings()
        settings.clockRange = 1...10
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW clock=11")
        #expect(h.drain() == [1: ["ERR bad-value clock= is the seconds per move, 1 to 10"]])
    }

    @Test func aGhostGameOnAClockIsLostOnTime() throws {
        let h = try Harness()
        let t = try pair(h)
        // Both got the game with its clock, and alice's TURN her full time.
        let start = h.outbox.all(to: 1).suffix(2)
        #expect(Array(start) == ["GAME id=1 game=ghost lang=en players=alice,bob token=\(t.alice) round=1 clock=30",
                                 "TURN id=1 player=alice fragment= clock=30"])
        #expect(h.outbox.all(to: 2).last == "TURN id=1 player=alice fragment= clock=30")
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 30)
        // A move in time: bob's turn, with his full 30 s.
        h.clock.advance(29)
        h.tick()
        #expect(h.drain() == [:])
        h.send(1, "p")
        #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p",
                                  "TURN id=1 player=bob fragment=p clock=30"],
                              2: ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p clock=30"]])
        h.clock.advance(29.5)
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 0.5)
        h.clock.advance(0.5)
        h.tick()
        let over = ["OVER id=1 winner=alice loser=bob reason=time fragment=p", "INFO bob ran out of time.",
                    "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [1: over, 2: over])
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.nextDeadline == nil)
        // Both are back in the lobby; a late letter is refused.
        h.send(2, "e")
        #expect(h.drain()[2]?.first?.hasPrefix("ERR not-in-game") == true)
        // The finished game's token tells how it ended.
        h.connect(3)
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain()[3]?.suffix(2) == ["OK RESUME id=1 status=over",
                                             "OVER id=1 winner=alice loser=bob reason=time fragment=p ended=1700000058"])
    }

    @Test func aGameWithoutAClockHasNoClockFields() throws {
        let h = try Harness(settings: .daemonStalling())
        let t = try pair(h, "")
        // The first move's countdown instead.
        #expect(Array(h.outbox.all(to: 1).suffix(2)) == ["GAME id=1 game=ghost lang=en players=alice,bob token=\(t.alice) round=1",
                                                         "TURN id=1 player=alice fragment= abort_in=60"])
        // No clock; only the first move has a time (--first-move-timeout, Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
    }

    @Test func seekPairsOnlyEqualClocks() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.send(1, "SEEK clock=30")
        h.send(2, "SEEK")
        h.send(3, "SEEK clock=60")
        let d = h.drain()
        #expect(d[1]?.first == "OK SEEK lang=en clock=30")
        // Each hears of the other queues: the clock tells them apart.
        #expect(d[2]?.first == "OK SEEK lang=en" && d[2]?.last == "WAITING game=ghost lang=en count=1 clock=30")
        #expect(d[3]?.first == "OK SEEK lang=en clock=60")
        #expect(d[3]?.suffix(2) == ["WAITING game=ghost lang=en count=1", "WAITING game=ghost lang=en count=1 clock=30"])
        #expect(h.lobby.activeGames == 0)
        h.named(4, "dave")
        h.send(4, "SEEK clock=60")
        // carol sought first: the game is hers and dave's, on her clock.
        let started = h.drain()
        #expect(started[4]?.first == "OK SEEK lang=en clock=60")
        #expect(started[3]?.contains("TURN id=1 player=carol fragment= clock=60") == true)
        #expect(started[4]?.contains("TURN id=1 player=carol fragment= clock=60") == true)
        #expect(h.lobby.activeGames == 1)
    }

    @Test func joinTakesTheHostsClockAndARematchKeepsIt() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW clock=20")
        let new = try #require(h.drain()[1]?.first)
        let code = try #require(Message.parse(new)?["code"])
        // The replies echo the clock, last.
        #expect(new == "OK NEW code=\(code) lang=en clock=20")
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        #expect(d[2]?.first == "OK JOIN code=\(code) lang=en clock=20")
        #expect(d[2]?.last == "TURN id=1 player=alice fragment= clock=20")
        #expect(d[2]?.dropLast().last?.hasSuffix("round=1 clock=20") == true)
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(1, "LEAVE")
        _ = h.drain()
        h.send(1, "REMATCH")
        h.send(2, "REMATCH")
        // bob starts the rematch, on the same clock.
        #expect(h.drain()[1]?.last == "TURN id=2 player=bob fragment= clock=20")
    }

    /// The clock of a player who is away keeps running; shorter than the
    /// grace period, it ends the game without a CLAIM.
    @Test func anAbsentPlayersClockKeepsRunning() throws {
        let h = try Harness()
        let t = try pair(h)
        h.clock.advance(10)
        h.disconnect(1)
        #expect(h.drain()[2]?.first == "ADJOURNED id=1 player=alice grace=60")
        h.clock.advance(5)
        // Back with 15 s left of her move.
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3]?.last == "TURN id=1 player=alice fragment= clock=15")
        h.disconnect(3)
        _ = h.drain()
        h.clock.advance(15)
        h.tick()
        #expect(h.drain() == [2: ["OVER id=1 winner=bob loser=alice reason=time fragment=", "INFO alice ran out of time.",
                                  "RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"]])
    }

    /// A clock longer than the grace period: the opponent may CLAIM when
    /// the grace period ends, or wait for the clock.
    @Test func graceEndsBeforeALongClock() throws {
        let h = try Harness()
        _ = try pair(h, "clock=300")   // longer than the grace period (60 s)
        h.disconnect(1)
        _ = h.drain()
        h.clock.advance(60)
        h.tick()
        #expect(h.drain()[2]?.first == "CLAIMABLE id=1 player=alice")
        h.clock.advance(240)
        h.tick()
        #expect(h.drain()[2]?.first == "OVER id=1 winner=bob loser=alice reason=time fragment=")
    }

    /// A restart gives the player to move a fresh full period: the time
    /// left is not stored, the clock is.
    @Test func aRestartGivesAFreshPeriod() throws {
        let first = try Harness()
        let t = try pair(first)
        first.send(1, "p")
        first.clock.advance(25)
        _ = first.drain()
        let second = try Harness(directory: first.directory)
        #expect(second.lobby.nextDeadline == second.clock.monotonic + 30)
        second.connect(1)
        second.send(1, "RESUME \(t.bob)")
        let lines = try #require(second.drain()[1])
        #expect(lines.suffix(3) == ["GAME id=1 game=ghost lang=en players=alice,bob token=\(t.bob) round=1 clock=30",
                                    "ADJOURNED id=1 player=alice grace=60", "TURN id=1 player=bob fragment=p last=alice clock=30"])
        // Nobody came back for alice: bob's time runs out all the same.
        second.clock.advance(30)
        second.tick()
        #expect(second.drain()[1]?.first == "OVER id=1 winner=alice loser=bob reason=time fragment=p")
    }

    /// Against the computer only the person's moves are timed: TURN has no
    /// clock= while the computer is to move.
    @Test func theComputersMovesAreNotTimed() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=easy first=bot clock=10")
        let d = try #require(h.drain()[1])
        #expect(d.suffix(2) == ["GAME id=1 game=ghost lang=en players=bot-easy,alice token=\(try token(d)) round=1 bot=easy clock=10",
                                "TURN id=1 player=bot-easy fragment="])
        h.clock.advance(5)
        h.tick()
        let after = try #require(h.drain()[1])
        #expect(after.count == 2 && after[0].hasPrefix("MOVE id=1 player=bot-easy letter="))
        #expect(after[1].hasPrefix("TURN id=1 player=alice fragment=") && after[1].hasSuffix(" clock=10"))
        h.clock.advance(10)
        h.tick()
        #expect(h.drain()[1]?.first?.hasPrefix("OVER id=1 winner=bot-easy loser=alice reason=time fragment=") == true)
    }

    /// In a match, time loses the whole match, like LEAVE and CLAIM.
    @Test func timeEndsAMatch() throws {
        let h = try Harness()
        _ = try pair(h, "rounds=ghost clock=15")
        h.clock.advance(15)
        h.tick()
        let lines = try #require(h.drain()[2])
        #expect(lines.prefix(4) == ["OVER id=1 winner=bob loser=alice reason=time fragment= ghost=,", "INFO alice ran out of time.",
                                    "MATCH id=1 winner=bob loser=alice ghost=,", "INFO bob wins the match."])
    }

    /// Hangman against the computer: the guesser is timed, and a time loss
    /// reveals the word like any end.
    @Test func hangmanOnAClock() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.send(1, "NEW game=hangman mode=fair length=4 misses=6 clock=15")
        let d = try #require(h.drain()[1])
        #expect(d.first == "OK NEW game=hangman mode=fair lang=en length=4 misses=6 clock=15")
        #expect(d.suffix(2) == ["GAME id=1 game=hangman lang=en players=bot-hangman,ann token=\(try token(d)) round=1 mode=fair length=4 misses=6 clock=15",
                                "TURN id=1 player=ann pattern=____ missed=- left=6 clock=15"])
        h.clock.advance(3)
        h.send(1, "z")
        #expect(h.drain()[1]?.last == "TURN id=1 player=ann pattern=____ missed=z left=5 clock=15")
        h.clock.advance(15)
        h.tick()
        let over = try #require(h.drain()[1])
        #expect(over.first?.hasPrefix("OVER id=1 winner=bot-hangman loser=ann reason=time word=") == true)
        #expect(over.dropFirst().first?.hasPrefix("INFO ann ran out of time; the word was \"") == true)
    }

    /// A Hangman duel found by SEEK: the setter's WORD is timed too.
    @Test func hangmanDuelSetterIsTimed() throws {
        let h = try Harness()
        _ = try pair(h, "game=hangman length=4 clock=30")
        #expect(h.outbox.all(to: 2).last == "TURN id=1 player=alice pattern= missed=- left=8 clock=30")
        h.clock.advance(30)
        h.tick()
        #expect(h.drain()[2]?.first == "OVER id=1 winner=bob loser=alice reason=time word= mistakes=0 pattern=")
    }
}
