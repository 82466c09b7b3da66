import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

/// Regression tests for what the lobby fuzzer found (LobbyFuzzTests.swift),
/// each as the shortest trail it shrank to, written out by hand.
@Suite struct LobbyFuzzFindingsTests {
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
        // Registered (issue #26): only alice's password takes her name while her game waits for her.
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
}
