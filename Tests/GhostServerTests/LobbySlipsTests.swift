import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

/// Small slips of the lobby, each as Protocol.md says it.
/// alice (1) hosts a Hangman duel of 4 letters (pear, cats, dogs) and sets;
/// bob (2) joins and guesses.
@Suite(.ownThread) struct LobbySlipsTests {
    private func duel(_ h: Harness) throws {
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=hangman mode=duel length=4")
        let code = try #require(Message.parse(h.drain()[1]?.first ?? "")?["code"])
        h.send(2, "JOIN \(code)")
        _ = h.drain()
    }

    @Test("A guesser's WORD is not-your-turn and costs nothing (it was taken as SOLVE and cost a miss); against the computer too")
    func guesserWord() throws {
        let h = try Harness()
        try duel(h)
        h.send(1, "WORD pear")
        _ = h.drain()
        h.send(2, "WORD cats")
        #expect(h.drain() == [2: ["ERR not-your-turn WORD is the setter's; guess the whole answer with SOLVE"]])
        h.send(2, "e")
        #expect(h.drain()[2]?.first == "OK LETTER letter=e hit=yes pattern=_e__ missed=- left=8")
        h.named(3, "carol")
        h.send(3, "NEW game=hangman mode=fair length=5")
        _ = h.drain()
        h.send(3, "WORD peach")
        #expect(h.drain() == [3: ["ERR not-your-turn WORD is the setter's; guess the whole answer with SOLVE"]])
        h.send(3, "z")
        #expect(h.drain()[3]?.first == "OK LETTER letter=z hit=no pattern=_____ missed=z left=7")
    }

    @Test("A setter's SOLVE is not-your-turn (it set the word); WORD then sets it")
    func setterSolve() throws {
        let h = try Harness()
        try duel(h)
        h.send(1, "SOLVE pear")
        #expect(h.drain() == [1: ["ERR not-your-turn SOLVE is the guesser's; the setter sets the word with WORD"]])
        h.send(1, "WORD dogs")
        #expect(h.drain()[1]?.first == "OK WORD length=4 pattern=____ missed=- left=8")
    }

    @Test("Before the word is set, the guesser's RESTART and LANG are offers the setter answers; the setter's take effect at once")
    func guesserRestartIsAnOffer() throws {
        let h = try Harness()
        try duel(h)
        h.send(2, "LANG nl")
        let offered = h.drain()
        #expect(offered[2] == ["OK LANG lang=nl status=offered", "OFFER id=1 player=bob kind=lang lang=nl"])
        #expect(offered[1] == ["OFFER id=1 player=bob kind=lang lang=nl", "INFO bob offers to switch to nl and restart: ACCEPT or DECLINE."])
        h.send(1, "DECLINE")
        #expect(h.drain()[1] == ["OK DECLINE", "DECLINED id=1 player=alice kind=lang"])
        h.send(1, "RESTART")
        #expect(h.drain()[1]?.first == "OK RESTART status=done")
        h.send(1, "WORD pear")
        #expect(h.drain()[1]?.first == "OK WORD length=4 pattern=____ missed=- left=8")
    }

    @Test("rounds=ghost with a kind that plays no matches: ERR bad-arguments (it was accepted and ignored)")
    func hangmanRoundsGhost() throws {
        let h = try Harness()
        h.named(1, "alice")
        for line in ["SEEK game=hangman rounds=ghost", "NEW game=hangman rounds=ghost", "NEW game=hangman mode=duel rounds=ghost"] {
            h.send(1, line)
            #expect(h.drain() == [1: ["ERR bad-arguments rounds=ghost plays a match; hangman plays single games"]], "\(line)")
        }
        #expect(h.lobby.activeGames == 0)
        h.send(1, "SEEK rounds=ghost")
        #expect(h.drain()[1]?.first == "OK SEEK lang=en rounds=ghost")
    }

    @Test("A NAME answered store-failed costs nothing of the address's allowance of new names")
    func storeFailedNameIsFree() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 1
        settings.newNameBurst = 1
        let h = try Harness(settings: settings)
        let raw = try SQLiteDatabase(path: h.store.path)
        defer { raw.close() }
        try raw.execute("CREATE TRIGGER full BEFORE INSERT ON players BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END")
        h.connect(1, address: "192.0.2.1")
        _ = h.drain()
        h.send(1, "NAME alice")
        #expect(h.drain()[1] == ["ERR store-failed the server could not store this; nothing was done"])
        try raw.execute("DROP TRIGGER full")
        h.send(1, "NAME alice")
        #expect(h.drain()[1] == ["OK NAME name=alice lang=en"])
        h.send(1, "NAME albert")
        #expect(h.drain()[1]?.first?.hasPrefix("ERR too-many-names ") == true)
    }

    @Test("STATS games_finished counts games ended by LEAVE, CLAIM and time, as well as by a move")
    func gamesFinishedCountsEveryEnd() throws {
        let h = try Harness()
        func finished() -> String? {
            h.send(9, "STATS")
            return h.drain()[9]?.first { $0.hasPrefix("STAT name=games_finished ") }
        }
        h.connect(9)
        _ = h.drain()
        try h.pairAliceAndBob()                  // game 1: alice plays, bob leaves
        h.send(1, "LETTER q")                    // (LEAVE before any move aborts: no finish)
        h.send(2, "LEAVE")
        #expect(finished() == "STAT name=games_finished value=1")
        h.send(1, "SEEK")
        h.send(2, "SEEK")                        // game 2: alice to move goes away, bob claims
        h.disconnect(1)
        h.clock.advance(61)
        h.tick()
        h.send(2, "CLAIM")
        #expect(h.drain()[2]?.contains("OK CLAIM") == true)
        #expect(finished() == "STAT name=games_finished value=2")
        h.named(3, "carol")
        h.send(3, "NEW bot=easy clock=5")        // game 3: carol runs out of time
        h.clock.advance(6)
        h.tick()
        #expect(h.drain()[3]?.contains { $0.hasPrefix("OVER id=3 ") && $0.contains("reason=time") } == true)
        #expect(finished() == "STAT name=games_finished value=3")
        h.send(3, "NEW game=hangman mode=fair length=5")
        h.send(3, "SOLVE peach")                 // game 4: by a move
        #expect(finished() == "STAT name=games_finished value=4")
    }

    @Test("WATCH of a private game is answered exactly as for a game that does not exist")
    func watchPrivateLeaksNothing() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=easy watch=no")
        h.connect(5)
        _ = h.drain()
        h.send(5, "WATCH 1")
        h.send(5, "WATCH 2")
        #expect(h.drain() == [5: ["ERR no-such-game no game in progress has the id 1; GAMES lists them",
                                  "ERR no-such-game no game in progress has the id 2; GAMES lists them"]])
    }
}
