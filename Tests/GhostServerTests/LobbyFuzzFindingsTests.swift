import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

/// Regression tests for what the lobby fuzzer found (LobbyFuzzTests.swift),
/// each as the shortest trail it shrank to, written out by hand.
@Suite(.ownThread) struct LobbyFuzzFindingsTests {
    /// LANG in a Hangman game whose length the other language has no word
    /// of: the round cannot restart there. It was answered `ERR store-failed`
    /// (the store had not failed); it is refused as a value that does not fit.
    @Test func langToALanguageWithoutTheGamesLength() throws {
        let h = try Harness()
        h.named(1, "carol")
        h.send(1, "NEW game=hangman mode=fair length=5")
        _ = h.drain()
        h.send(1, "LANG nl")
        #expect(h.drain() == [1: ["ERR bad-value this game cannot be played in nl as it is set up (length=5 misses=8); LEAVE it and start one in nl"]])
        // The game goes on in English.
        h.send(1, "e")
        #expect(h.drain()[1]?.first == "OK LETTER letter=e hit=yes pattern=_e___ missed=- left=8")
    }

    /// RESUME from another connection takes the name from the connection
    /// holding it; that connection's rematch request must lapse with the
    /// name. It stood, and the opponent's REMATCH started a game with a
    /// player called `?`, whose LEAVE could not be stored (no such player).
    @Test func resumeTakingANameCancelsItsRematchRequest() throws {
        let h = try Harness()
        h.named(1, "alice")
        // Registered: only alice's password takes her name while her game waits for her.
        h.send(1, "REGISTER alice's password")
        h.send(1, "NEW bot=hard")
        let game = try #require(h.drain()[1]?.first { $0.hasPrefix("GAME ") })
        let token = try #require(Message.parse(game)?["token"])
        h.disconnect(1)
        h.connect(3)
        h.send(3, "NAME alice alice's password")
        #expect(h.drain()[3]?.last == "OK NAME name=alice lang=en registered=yes")
        h.named(2, "bob")
        h.quickGame(winner: 3, loser: 2)   // game 2
        h.send(3, "REMATCH")
        #expect(h.drain() == [3: ["OK REMATCH status=asked"],
                              2: ["REMATCH id=2 player=alice", "INFO alice wants a rematch: send REMATCH to play again."]])
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(token)")
        let d = h.drain()
        #expect(d[3] == ["INFO The player alice came back with their resume token; send NAME to pick a name."])
        #expect(d[2] == ["CANCELLED id=2 player=alice kind=rematch"])
        #expect(d[4]?.first == "OK RESUME id=1")
        h.send(2, "REMATCH")
        #expect(h.drain() == [2: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        #expect(h.lobby.activeGames == 1)
    }

    /// A game's end (here LEAVE after a move; an abort does the same) stops
    /// its watching and leaves its last lines to go at the next tick; a
    /// watcher that disconnected in between still got them, on a connection
    /// that was gone (found with seed 4193211508, through ABORTED).
    @Test func aWatcherGoneBeforeTheLastBatchGetsNothing() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=easy")
        h.send(1, "p")
        h.connect(3)
        h.send(3, "WATCH 1")
        _ = h.drain()
        h.send(1, "LEAVE")
        #expect(h.drain()[1]?.first == "OK LEAVE")
        h.disconnect(3)
        h.tick()
        #expect(h.drain()[3] == nil)
        // A watcher still there gets the end.
        h.named(4, "bob")
        h.send(4, "NEW bot=easy")
        h.send(4, "p")
        h.connect(5)
        h.send(5, "WATCH 2")
        _ = h.drain()
        h.send(4, "LEAVE")
        let d1 = h.drain()
        h.tick()
        let d2 = h.drain()
        #expect(d2[5]?.contains { $0.hasPrefix("OVER id=2 ") } == true, "\(d1) \(d2)")
    }

    /// A watcher RESUMEs a token of the game it watched, which has just
    /// ended: it is told how the game ended (OVER). The game's last batch
    /// for its watchers, still waiting for the tick, then went to it as
    /// well: moves older than that OVER, and the OVER again (found with seed
    /// 1021807586: a MOVE without the TURN before it).
    @Test func aWatcherToldTheEndByResumeGetsNoOlderBatch() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        let h = try Harness(settings: settings)
        let token = try h.pairAliceAndBob().alice
        h.send(1, "p")
        h.connect(3)
        h.connect(4)
        h.send(3, "WATCH 1")
        h.send(4, "WATCH 1")
        _ = h.drain()
        // The game ends before the watchers' batch goes out.
        h.send(2, "e")
        h.send(1, "a")
        h.send(2, "r")
        _ = h.drain()
        h.send(3, "RESUME \(token)")
        #expect(h.drain() == [3: ["OK RESUME id=1 status=over", "OVER id=1 winner=alice loser=bob reason=word fragment=pear ended=1700000000"]])
        h.tick()
        // The other watcher gets the end; the one told already, nothing.
        #expect(h.drain() == [4: ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe",
                                  "MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea",
                                  "MOVE id=1 player=bob letter=r fragment=pear",
                                  "OVER id=1 winner=alice loser=bob reason=word fragment=pear",
                                  "INFO \"pear\" is a word longer than 3 letters, so bob loses.",
                                  "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]])
        #expect(h.lobby.nextDeadline == nil)
    }

    /// A watcher RESUMEs a seat of the game it watches while a batch is half
    /// on its way (more watchers than a slice), and the game ends before the
    /// rest goes: the rest, older than the state the new player got, went to
    /// it too (a game's end lets its last batch go to everyone it was meant for).
    @Test func aWatcherThatResumesASeatGetsNoRestOfAnOlderBatch() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        settings.watchBatchPerWatcher = 0
        let h = try Harness(settings: settings)
        let token = try h.pairAliceAndBob().alice
        let watchers = Array(10..<140)   // two more than a slice (Lobby.watchSlice, 128)
        for w in watchers {
            h.connect(w)
            h.send(w, "WATCH 1")
        }
        h.tick()
        h.tick()   // WATCHERS, in two slices
        _ = h.drain()
        h.clock.advance(0.06)
        h.send(1, "p")
        h.tick()   // the first slice of the batch
        let late = 139
        #expect(h.drain()[late] == nil)
        h.send(late, "RESUME \(token)")
        #expect(h.drain() == [1: ["BYE replaced your seat in game 1 was resumed from another connection"],
                              late: ["OK RESUME id=1", "GAME id=1 game=ghost lang=en players=alice,bob token=\(token) round=1 watchers=129",
                                     "TURN id=1 player=bob fragment=p last=alice"]])
        h.send(2, "LEAVE")
        _ = h.drain()
        h.tick()   // the rest of the batch
        let rest = h.drain()
        #expect(rest[watchers[watchers.count - 2]] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"])
        #expect(rest[late] == nil)
    }

    /// The same when the game ends with more lines waiting than a batch
    /// carries (Lobby.maxWatchBatchLines): its last lines go, and none to
    /// the watcher told the end by RESUME already.
    @Test func aWatcherToldTheEndByResumeGetsNoneOfALongLastBatch() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        let h = try Harness(settings: settings)
        let token = try h.pairAliceAndBob().alice
        h.connect(3)
        h.connect(4)
        h.send(3, "WATCH 1")
        h.send(4, "WATCH 1")
        h.tick()
        _ = h.drain()
        // 80 offers and refusals, then the end: past 64 lines for the watchers.
        for _ in 0..<40 {
            h.send(1, "RESTART")
            h.send(2, "DECLINE")
        }
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(3, "RESUME \(token)")
        #expect(h.drain() == [3: ["OK RESUME id=1 status=over", "ABORTED id=1 reason=left ended=1700000000"]])
        h.tick()
        let d = h.drain()
        #expect(d[3] == nil)
        #expect(d[4]?.count == 64)
        #expect(d[4]?.contains("ABORTED id=1 reason=left") == true)
    }

    /// On PostgreSQL (seed 7031, shrunk): a statement that failed in the
    /// turn's pipeline made PostgreSQL skip the rest of it, a PREPARE too,
    /// but the connection counted that statement as prepared: every later
    /// use of it failed (`prepared statement "s2" does not exist`), and the
    /// next move was answered `ERR store-failed` with the store working
    /// again. On SQLite the same trail runs as it always did.
    @Test func aPrepareSkippedInAFailedPipelineIsPreparedAgain() throws {
        let statementFault = try #require(FuzzRun.faults.firstIndex(of: "statement UPDATE ON games"))
        let trail: [FuzzStep] = [
            .connect(slot: 0), .line(slot: 0, "NAME eve"), .line(slot: 0, "NEW bot=hard rounds=ghost"),
            .fault(statementFault), .line(slot: 0, "t"), .heal, .line(slot: 0, "k"),
        ]
        #expect(try LobbyFuzz.replay(trail, seed: 7031) == [])
    }
}
