import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

// Bluff and challenge (`variant=challenge`) in the lobby, on `lobbyLists`
// (en: pea, pear, peach, cat, cats, dog, dogs), with a real store.

private func challengeGame(_ id: Int, _ players: String, _ token: String) -> String {
    "GAME id=\(id) game=ghost lang=en players=\(players) token=\(token) round=1 variant=challenge"
}

@Suite(.ownThread) struct LobbyChallengeTests {
    /// alice (1) and bob (2) paired by SEEK variant=challenge; carol (3) seeks
    /// Ghost meanwhile and is not paired with either (`Harness.pairInVariant`).
    private func pair(_ h: Harness) throws -> (alice: String, bob: String) {
        try h.pairInVariant("challenge", spelled: "Challenge")
    }

    @Test func aDeadFragmentGoesOnAndABluffLosesTheChallenge() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "c")
        h.send(2, "q")
        // No OVER: the server leaves a dead fragment to the players.
        #expect(h.drain()[1] == ["OK LETTER letter=c fragment=c", "MOVE id=1 player=alice letter=c fragment=c",
                                 "TURN id=1 player=bob fragment=c",
                                 "MOVE id=1 player=bob letter=q fragment=cq", "TURN id=1 player=alice fragment=cq"])
        h.send(1, "CHALLENGE")
        #expect(h.drain() == [
            1: ["OK CHALLENGE fragment=cq", "MOVE id=1 player=alice challenge=yes fragment=cq",
                "TURN id=1 player=bob fragment=cq challenged=yes"],
            2: ["MOVE id=1 player=alice challenge=yes fragment=cq", "TURN id=1 player=bob fragment=cq challenged=yes"],
        ])
        // Only WORD or CONCEDE from bob now.
        h.send(2, "a")
        h.send(1, "a")
        h.send(1, "CONCEDE")
        h.send(2, "WORD cat")
        #expect(h.drain() == [
            1: ["ERR not-your-turn it is bob's turn", "ERR not-your-turn it is bob's turn"],
            2: ["ERR challenge-pending you are challenged: answer WORD <word> (a word that starts with \"cq\"), or CONCEDE",
                "ERR bad-word answer with a word that starts with \"cq\" and is longer, or CONCEDE"],
        ])
        h.send(2, "WORD cqa")
        let d = h.drain()
        #expect(d[2]?.prefix(4) == ["OK WORD word=cqa fragment=cq", "MOVE id=1 player=bob word=cqa fragment=cq",
                                    "OVER id=1 winner=alice loser=bob reason=bluff fragment=cq",
                                    "INFO \"cqa\" is not a word, so bob loses; \"cq\" can't be extended: no word starts with it."])
        #expect(d[1]?.prefix(3) == ["MOVE id=1 player=bob word=cqa fragment=cq",
                                    "OVER id=1 winner=alice loser=bob reason=bluff fragment=cq",
                                    "INFO \"cqa\" is not a word, so bob loses; \"cq\" can't be extended: no word starts with it."])
        // Each move has a ply of its own (the store's key is game, round, ply).
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["c", "q", "challenge", "word:cqa"])
    }

    @Test func aChallengeOfALiveFragmentFails() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "CHALLENGE")
        _ = h.drain()
        h.send(2, "WORD PEAR")
        let d = try #require(h.drain()[2])
        #expect(d.prefix(4) == ["OK WORD word=pear fragment=pe", "MOVE id=1 player=bob word=pear fragment=pe",
                                "OVER id=1 winner=bob loser=alice reason=challenge-failed fragment=pe word=pear",
                                "INFO \"pe\" could be \"pear\", so alice loses the challenge."])
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "challenge", "word:pear"])
    }

    @Test func concedingAndAWordEndingTheRound() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "CHALLENGE")
        _ = h.drain()
        h.send(2, "CONCEDE")
        let d = try #require(h.drain()[2])
        #expect(d.prefix(4) == ["OK CONCEDE fragment=pe", "MOVE id=1 player=bob concede=yes fragment=pe",
                                "OVER id=1 winner=alice loser=bob reason=bluff fragment=pe word=pea",
                                "INFO bob conceded, though \"pe\" could be \"pea\"."])
        // A word longer than 3 letters still ends a round at once.
        h.send(1, "REMATCH")
        h.send(2, "REMATCH")
        _ = h.drain()
        for (conn, letter) in [(2, "d"), (1, "o"), (2, "g"), (1, "s")] { h.send(conn, letter) }
        #expect(h.drain()[2]?.contains("OVER id=2 winner=bob loser=alice reason=word fragment=dogs") == true)
    }

    @Test func aRestartRestoresAPendingChallengeByReplay() throws {
        let first = try Harness()
        let t = try pair(first)
        first.send(1, "c")
        first.send(2, "q")
        first.send(1, "CHALLENGE")
        _ = first.drain()
        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)   // loaded on RESUME
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t.bob)")
        // The full state: the challenge waits for bob, who played the last letter.
        #expect(h.drain() == [2: ["OK RESUME id=1", challengeGame(1, "alice,bob", t.bob), "ADJOURNED id=1 player=alice grace=60",
                                  "TURN id=1 player=bob fragment=cq challenged=yes last=bob"]])
        h.send(2, "q")
        #expect(h.drain()[2]?.first?.hasPrefix("ERR challenge-pending ") == true)
        h.connect(1)
        h.send(1, "RESUME \(t.alice)")
        _ = h.drain()
        h.send(2, "CONCEDE")
        #expect(h.drain()[1]?.contains("OVER id=1 winner=alice loser=bob reason=bluff fragment=cq") == true)
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["c", "q", "challenge", "concede"])
    }

    @Test func theAnswerIsTimedLikeAnyMove() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK variant=challenge clock=30")
        h.send(2, "SEEK variant=challenge clock=30")
        h.send(1, "c")
        h.send(2, "q")
        h.send(1, "CHALLENGE")
        #expect(h.drain()[2]?.suffix(2) == ["MOVE id=1 player=alice challenge=yes fragment=cq",
                                             "TURN id=1 player=bob fragment=cq challenged=yes clock=30"])
        h.clock.advance(30)
        h.tick()
        let over = try #require(h.drain()[1])
        #expect(over.prefix(2) == ["OVER id=1 winner=alice loser=bob reason=time fragment=cq", "INFO bob ran out of time."])
    }

    @Test func refusals() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "CHALLENGE")
        h.send(2, "CHALLENGE")
        h.send(1, "WORD cat")
        h.send(1, "CONCEDE")
        #expect(h.drain() == [
            1: ["ERR empty-fragment there is nothing to challenge yet: play a letter",
                "ERR no-challenge nobody challenged you: play a letter, or CHALLENGE",
                "ERR no-challenge nobody challenged you: play a letter, or CHALLENGE"],
            2: ["ERR not-your-turn it is alice's turn"],
        ])
        h.send(3, "CHALLENGE")
        #expect(h.drain()[3]?.first?.hasPrefix("ERR not-in-game ") == true)
        // In Ghost (carol and dave) a challenge is not a move.
        h.named(4, "dave")
        h.send(4, "SEEK")
        _ = h.drain()
        h.send(3, "c")
        h.send(4, "CHALLENGE")
        h.send(4, "CONCEDE")
        let wrong = "ERR wrong-variant CHALLENGE, and WORD or CONCEDE to answer one, are for variant=challenge: in Ghost the server ends a dead fragment itself"
        #expect(h.drain()[4]?.suffix(2) == [wrong, wrong])
    }

    @Test func theComputerChallengesADeadFragment() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot variant=challenge")
        let d = try #require(h.drain()[1])
        #expect(d.first == "OK NEW bot=hard lang=en")
        #expect(d.contains { $0.hasPrefix("GAME id=1 game=ghost lang=en players=bot-hard,alice ") && $0.hasSuffix(" variant=challenge") })
        let move = try #require(d.first { $0.hasPrefix("MOVE id=1 player=bot-hard letter=") })
        let fragment = try #require(Message.parse(move)?["fragment"])
        // alice bluffs: no word starts with <fragment>x.
        h.send(1, "x")
        #expect(h.drain()[1] == ["OK LETTER letter=x fragment=\(fragment)x", "MOVE id=1 player=alice letter=x fragment=\(fragment)x",
                                 "TURN id=1 player=bot-hard fragment=\(fragment)x", "MOVE id=1 player=bot-hard challenge=yes fragment=\(fragment)x",
                                 "TURN id=1 player=alice fragment=\(fragment)x challenged=yes"])
        h.send(1, "CONCEDE")
        #expect(h.drain()[1]?.contains("OVER id=1 winner=bot-hard loser=alice reason=bluff fragment=\(fragment)x") == true)
    }

    @Test func theComputerAnswersAChallengeWithAWord() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot variant=challenge")
        _ = h.drain()
        h.send(1, "CHALLENGE")
        let d = try #require(h.drain()[1])
        #expect(d.first?.hasPrefix("OK CHALLENGE fragment=") == true)
        let word = try #require(d.first { $0.hasPrefix("MOVE id=1 player=bot-hard word=") })
        #expect(lobbyLists["en"]?.isWord(Message.parse(word)?["word"] ?? "") == true)
        #expect(d.contains { $0.hasPrefix("OVER id=1 winner=bot-hard loser=alice reason=challenge-failed ") })
    }
}
