import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer

/// Every game ends, driven through the lobby with a manual
/// clock: a game nobody is at leaves memory and comes back on RESUME, only
/// games on a clock are loaded at start.
@Suite(.ownThread) struct LobbyLifecycleTests {
    private func token(_ lines: [String]?) throws -> String {
        let game = try #require(lines?.first { $0.hasPrefix("GAME ") })
        return try #require(Message.parse(game)?["token"])
    }

    private func quick() -> Lobby.Settings {
        var s = stalling()
        s.botDelay = 0
        return s
    }

    private func stalling() -> Lobby.Settings { .daemonStalling() }

    /// alice and bob play p and e, then both go away: their tokens.
    @discardableResult
    private func playedAndLeft(_ h: Harness) throws -> (alice: String, bob: String) {
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.disconnect(1)
        h.disconnect(2)
        return t
    }

    private func stat(_ h: Harness, _ name: String, on id: ConnectionID) -> String? {
        h.send(id, "STATS")
        let line = h.drain()[id]?.first { $0.hasPrefix("STAT name=\(name) ") }
        return line.flatMap { Message.parse($0)?["value"] }
    }

    @Test func aGameNobodyIsAtLeavesMemoryAndComesBackOnResume() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        _ = h.drain()
        h.disconnect(1)
        h.disconnect(2)
        _ = h.drain()
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.clock.advance(59)
        h.tick()
        #expect(h.lobby.activeGames == 1)
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.nextDeadline == nil)
        h.connect(9)
        #expect(stat(h, "games_in_progress", on: 9) == "0")
        // bob comes back: the game is read from the store and replayed.
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(t.bob)")
        #expect(h.drain() == [4: ["OK RESUME id=1", "GAME id=1 game=ghost lang=en players=alice,bob token=\(t.bob) round=1",
                                  "ADJOURNED id=1 player=alice grace=60", "TURN id=1 player=alice fragment=pe last=bob"]])
        #expect(h.lobby.activeGames == 1)
        #expect(stat(h, "games_in_progress", on: 9) == "1")
        // alice too, and they play on; the moves before and after are one game.
        h.connect(5)
        _ = h.drain()
        h.send(5, "RESUME \(t.alice)")
        #expect(h.drain() == [4: ["RETURNED id=1 player=alice"],
                              5: ["OK RESUME id=1", "GAME id=1 game=ghost lang=en players=alice,bob token=\(t.alice) round=1",
                                  "TURN id=1 player=alice fragment=pe last=bob"]])
        h.send(5, "a")
        h.send(4, "r")
        #expect(h.drain()[4]?.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear") == true)
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "a", "r"])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func aPresentOpponentKeepsTheGameLoaded() throws {
        let h = try Harness()
        _ = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.disconnect(1)
        _ = h.drain()
        h.clock.advance(60)
        h.tick()
        #expect(h.drain()[2]?.first == "CLAIMABLE id=1 player=alice")
        h.clock.advance(3600)
        h.tick()
        #expect(h.lobby.activeGames == 1)
        h.send(2, "CLAIM")
        #expect(h.drain()[2]?.first == "OK CLAIM")
    }

    @Test func aGameAgainstTheComputerLeavesMemoryToo() throws {
        let h = try Harness(settings: quick())
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        let t = try token(h.drain()[1])
        h.send(1, "p")
        _ = h.drain()
        h.disconnect(1)
        h.clock.advance(60)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t)")
        #expect(h.drain() == [2: ["OK RESUME id=1", "GAME id=1 game=ghost lang=en players=alice,bot-hard token=\(t) round=1 bot=hard",
                                  "TURN id=1 player=alice fragment=pe last=bot-hard"]])
        #expect(h.lobby.activeGames == 1)
        // A wrong token still finds nothing.
        h.send(2, "LEAVE")
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME 0123456789abcdef0123456789abcdef")
        #expect(h.drain()[3] == ["ERR bad-token no game in progress has that token"])
    }

    @Test func aRestartLoadsOnlyTheGamesOnAClock() throws {
        let first = try Harness(settings: quick())
        first.named(1, "alice")
        first.send(1, "NEW bot=hard")
        let untimed = try token(first.drain()[1])
        first.send(1, "p")
        first.named(2, "bob")
        first.send(2, "NEW bot=hard clock=300")
        _ = first.drain()
        first.send(2, "p")
        _ = first.drain()

        let h = try Harness(directory: first.directory, settings: quick())
        // Only the game on a clock, which must keep its time.
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 300)
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(untimed)")
        #expect(h.drain()[3]?.first == "OK RESUME id=1")
        #expect(h.lobby.activeGames == 2)
    }

    // MARK: No stalling

    @Test func aFirstMoveThatDoesNotComeAbortsTheGameWithNoScore() throws {
        let h = try Harness(settings: stalling())
        let t = try h.pairAliceAndBob()
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.clock.advance(59)
        h.tick()
        #expect(h.drain() == [:])
        h.clock.advance(1)
        h.tick()
        let aborted = ["ABORTED id=1 reason=no-first-move",
                       "INFO alice did not make a first move in time: the game is aborted, nobody wins."]
        #expect(h.drain() == [1: aborted, 2: aborted])
        #expect(h.lobby.activeGames == 0)
        let result = try #require(try h.store.result(game: 1))
        #expect([result.winner, result.loser, result.reason, result.finalState] == ["", "", "aborted", "abort=no-first-move"])
        // No score for anyone, and both are free.
        h.send(1, "SCORES")
        #expect(h.drain()[1] == ["OK SCORES count=0 board=game"])
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.first == "OK SEEK lang=en")
        // RESUME of its token says it was aborted, and when.
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3] == ["OK RESUME id=1 status=over", "ABORTED id=1 reason=no-first-move ended=1700000060"])
    }

    @Test func eachPlayersFirstMoveHasItsTime() throws {
        let h = try Harness(settings: stalling())
        try h.pairAliceAndBob()
        h.clock.advance(30)
        h.send(1, "p")
        _ = h.drain()
        h.clock.advance(59)
        h.tick()
        #expect(h.drain() == [:])
        h.clock.advance(1)
        h.tick()
        let aborted = ["ABORTED id=1 reason=no-first-move",
                       "INFO bob did not make a first move in time: the game is aborted, nobody wins."]
        #expect(h.drain() == [1: aborted, 2: aborted])
    }

    @Test func aGameAgainstTheComputerWithoutAFirstMoveIsAborted() throws {
        let h = try Harness(settings: quick())
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        _ = h.drain()
        h.disconnect(1)
        h.clock.advance(60)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        #expect(try h.store.result(game: 1)?.reason == "aborted")
    }

    @Test func aPlayerWhoIsHereButDoesNotMoveCanBeClaimedAgainst() throws {
        let h = try Harness(settings: stalling())
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "a")
        _ = h.drain()
        // bob is here, to move, and has moved before: he has 300 s.
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 300)
        h.clock.advance(299)
        h.tick()
        #expect(h.drain() == [:])
        h.send(1, "CLAIM")
        #expect(h.drain() == [1: ["ERR not-claimable bob has 1 s left to move before you may claim"]])
        h.clock.advance(1)
        h.tick()
        let claimable = ["CLAIMABLE id=1 player=bob",
                         "INFO bob has not moved for 300 s: send CLAIM to take the win, or keep waiting."]
        // To alice, who may claim; bob, who is here, is told in words.
        #expect(h.drain() == [1: claimable, 2: ["INFO You have not moved for 300 s: alice may now claim the game; move to play on."]])
        // bob cannot claim against himself; alice can.
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable your opponent is here"]])
        h.send(1, "CLAIM")
        let over = ["OVER id=1 winner=alice loser=bob reason=abandoned fragment=pea",
                    "INFO bob did not move for 300 s; alice claimed the game.",
                    "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [1: ["OK CLAIM"] + over, 2: over])
    }

    // MARK: Untouched games

    @Test func aGameUntouchedForAWeekIsAbortedWithNoScore() throws {
        let h = try Harness()
        let t = try playedAndLeft(h)
        h.clock.advance(60)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        // Six days on, bob looks in and goes again (the game is touched, as it
        // leaves memory a minute later, at the time he left).
        h.clock.advance(6 * 86_400)
        h.tick()
        h.connect(3)
        h.send(3, "RESUME \(t.bob)")
        h.disconnect(3)
        h.clock.advance(60)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        // A week after the start, but not after bob's look: still in progress.
        h.clock.advance(2 * 86_400)
        h.tick()
        #expect(try h.store.activeGame(id: 1) != nil)
        // A week after bob's look: aborted by the next sweep, no winner, no score.
        h.clock.advance(5 * 86_400 + 120)
        h.tick()
        #expect(try h.store.activeGame(id: 1) == nil)
        let result = try #require(try h.store.result(game: 1))
        #expect([result.winner, result.loser, result.reason, result.finalState] == ["", "", "aborted", "abort=untouched"])
        _ = h.drain()
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(t.alice)")
        #expect(h.drain()[4] == ["OK RESUME id=1 status=over", "ABORTED id=1 reason=untouched ended=\(h.clock.wall)"])
        h.send(4, "SCORES")
        #expect(h.drain()[4] == ["OK SCORES count=0 board=game"])
    }

    @Test("--abandon-after counts from when the last player left, also for a game still in memory: aborted by the sweep that finds it due, in memory, its watcher told (issue #44, item 32)")
    func abandonCountsFromTheLastToLeave() throws {
        var settings = Lobby.Settings()
        settings.abandonAfter = 600
        settings.unloadAfter = 3_600   // it stays in memory past --abandon-after
        settings.watchBatchInterval = 0
        let h = try Harness(settings: settings)
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.connect(5)
        h.send(5, "WATCH 1")
        h.disconnect(1)
        h.disconnect(2)
        _ = h.drain()
        // Nobody at it for 600 s less a second: still in progress.
        h.clock.advance(599)
        h.tick()
        _ = h.drain()   // WATCHERS, a second late
        #expect(h.lobby.activeGames == 1)
        #expect(try h.store.activeGame(id: 1) != nil)
        // The sweep that finds it due aborts it in memory; its watcher is told.
        h.clock.advance(61)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        #expect(try h.store.activeGame(id: 1) == nil)
        #expect(h.drain()[5] == ["ABORTED id=1 reason=untouched",
                                 "INFO Nobody played this game for too long: it is aborted, nobody wins."])
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(t.alice)")
        #expect(h.drain()[4] == ["OK RESUME id=1 status=over", "ABORTED id=1 reason=untouched ended=\(h.clock.wall)"])

        // Unloaded before it is due: counted from the time both left, not from the unload.
        settings.unloadAfter = 60
        let u = try Harness(settings: settings)
        try playedAndLeft(u)
        u.clock.advance(60)
        u.tick()
        #expect(u.lobby.activeGames == 0)
        u.clock.advance(541)
        u.tick()
        #expect(try u.store.activeGame(id: 1) == nil)
    }

    @Test("Time the server was down does not count toward --abandon-after: a restart after 30 days keeps the game, running time aborts it")
    func downtimeDoesNotCount() throws {
        let first = try Harness()
        let t = try playedAndLeft(first)
        first.clock.advance(60)
        first.tick()   // unloaded: touched at the time both had left, a minute ago
        #expect(first.lobby.activeGames == 0)
        // The daemon runs three days with nobody at the game, then is down for 30.
        first.clock.advance(3 * 86_400)
        first.tick()
        let clock = ManualClock()
        clock.wall = first.clock.wall + 30 * 86_400
        let h = try Harness(directory: first.directory, clock: clock)
        h.tick()
        #expect(h.logged.lines.contains("down for 30 days before this start: not counted toward --abandon-after"))
        #expect(try h.store.activeGame(id: 1) != nil)
        // Four more days of running, less a minute and a second (the minute before
        // the unload counts): untouched for 7 days of running less a second.
        h.clock.advance(4 * 86_400 - 61)
        h.tick()
        #expect(try h.store.activeGame(id: 1) != nil)
        // The sweep wakes when the game is due (not a minute later): 2 s on, it has been untouched past the week.
        h.clock.advance(2)
        h.tick()
        #expect(try h.store.activeGame(id: 1) == nil)
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(t.bob)")
        #expect(h.drain()[4] == ["OK RESUME id=1 status=over", "ABORTED id=1 reason=untouched ended=\(h.clock.wall)"])
    }

    @Test("A clean stop marks when the server last ran; a crash loses at most the minute since the last sweep")
    func aRestartInTheSameMinuteIsNoOutage() throws {
        let first = try Harness()
        first.tick()
        #expect(try first.store.downtime.aliveAt() == first.clock.wall)
        first.clock.advance(30)
        first.tick()   // the sweep is not due: the mark stays
        #expect(try first.store.downtime.aliveAt() == first.clock.wall - 30)
        first.clock.advance(30)
        first.tick()
        #expect(try first.store.downtime.aliveAt() == first.clock.wall)
        let clock = ManualClock()
        clock.wall = first.clock.wall
        let h = try Harness(directory: first.directory, clock: clock)
        h.tick()
        #expect(!h.logged.lines.contains { $0.hasPrefix("down for") })
    }

    @Test func theSweepTakesAtMostAHundredGamesAMinute() throws {
        var settings = quick()
        settings.newNamesPerMinute = 0   // 150 names each leave a game behind
        let h = try Harness(settings: settings)
        for i in 0..<150 {
            h.connect(1)
            h.send(1, "NAME player\(i)")
            h.send(1, "NEW bot=hard")
            h.send(1, "p")
            h.send(1, "QUIT")
            h.disconnect(1)
        }
        _ = h.drain()
        h.clock.advance(60)
        h.tick()
        #expect(h.lobby.activeGames == 0)
        #expect(try h.store.activeGames().count == 150)
        h.clock.advance(8 * 86_400)
        h.tick()
        #expect(try h.store.activeGames().count == 50)
        h.clock.advance(59)
        h.tick()
        #expect(try h.store.activeGames().count == 50)
        h.clock.advance(1)
        h.tick()
        #expect(try h.store.activeGames().isEmpty)
    }

    // MARK: Leaving before the first move

    @Test func leavingBeforeAnyMoveAbortsTheGameInsteadOfLosingIt() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        // alice is to move and stalls; bob need not lose to get away.
        h.send(2, "LEAVE")
        let aborted = ["ABORTED id=1 reason=left", "INFO The game was left before its first move: it is aborted, nobody wins."]
        #expect(h.drain() == [1: aborted, 2: ["OK LEAVE"] + aborted])
        #expect(h.lobby.activeGames == 0)
        h.send(1, "SCORES")
        #expect(h.drain()[1] == ["OK SCORES count=0 board=game"])
        // No rematch of a game that never was.
        h.send(1, "REMATCH")
        #expect(h.drain()[1] == ["ERR no-rematch no finished game against an opponent who is still here and free"])
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain()[3] == ["OK RESUME id=1 status=over", "ABORTED id=1 reason=left ended=1700000000"])
        // STATS counts it as aborted, not finished.
        h.send(3, "STATS")
        let stats = h.drain()[3] ?? []
        #expect(stats.contains("STAT name=games_aborted value=1") && stats.contains("STAT name=games_finished value=0"), "\(stats)")
        // Against the computer: its first letter is not the person's move.
        let g = try Harness(settings: quick())
        g.named(1, "alice")
        g.send(1, "NEW bot=hard first=bot")
        _ = g.drain()
        g.send(1, "LEAVE")
        #expect(g.drain()[1] == ["OK LEAVE"] + aborted)
        // Once a person has moved, LEAVE loses as before (leaveMidGameLoses).
        g.send(1, "NEW bot=hard")
        _ = g.drain()
        g.send(1, "p")
        _ = g.drain()
        g.send(1, "LEAVE")
        #expect(g.drain()[1]?.dropFirst().first == "OVER id=2 winner=bot-hard loser=alice reason=left fragment=pe")
    }
}
