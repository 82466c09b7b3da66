import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

// Superghost (`variant=super`) in the lobby, on `lobbyLists` (en: the words
// of 4+ letters are pear, peach, cats, dogs), with a real store.

private func superGame(_ id: Int, _ players: String, _ token: String) -> String {
    "GAME id=\(id) game=ghost lang=en players=\(players) token=\(token) round=1 variant=super"
}

@Suite(.ownThread) struct LobbySuperghostTests {
    /// alice (1) and bob (2) paired by SEEK variant=super; carol (3) seeks
    /// Ghost meanwhile and is not paired with either (`Harness.pairInVariant`).
    private func pair(_ h: Harness) throws -> (alice: String, bob: String) {
        try h.pairInVariant("super", spelled: "SUPER")
    }

    @Test func aRoundEndsOnAWordMadeAtEitherEnd() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "e")
        #expect(h.drain() == [
            1: ["OK LETTER letter=e end=back fragment=e", "MOVE id=1 player=alice letter=e end=back fragment=e",
                "TURN id=1 player=bob fragment=e"],
            2: ["MOVE id=1 player=alice letter=e end=back fragment=e", "TURN id=1 player=bob fragment=e"],
        ])
        h.send(2, "LETTER a")
        h.send(1, "LETTER p front")
        #expect(h.drain()[1] == ["MOVE id=1 player=bob letter=a end=back fragment=ea", "TURN id=1 player=alice fragment=ea",
                                 "OK LETTER letter=p end=front fragment=pea", "MOVE id=1 player=alice letter=p end=front fragment=pea",
                                 "TURN id=1 player=bob fragment=pea"])
        h.send(2, "r")
        let over = try #require(h.drain()[2])
        #expect(over.prefix(3) == ["OK LETTER letter=r end=back fragment=pear", "MOVE id=1 player=bob letter=r end=back fragment=pear",
                                   "OVER id=1 winner=alice loser=bob reason=word fragment=pear"])
        #expect(over.contains("INFO \"pear\" is a word longer than 3 letters, so bob loses."))
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["e", "a", "<p", "r"])
    }

    @Test func aRoundEndsWhenNoWordContainsTheFragment() throws {
        let h = try Harness()
        _ = try pair(h)
        h.send(1, "LETTER c front")
        h.send(2, "a")
        _ = h.drain()
        h.send(1, "LETTER x FRONT")
        let over = try #require(h.drain()[1])
        #expect(over.contains("OVER id=1 winner=bob loser=alice reason=dead fragment=xca word=cats"))
        #expect(over.contains("INFO No word contains \"xca\", so alice loses; \"ca\" could have led to \"cats\"."))
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["<c", "a", "<x"])
    }

    @Test func aRestartRestoresTheGameByReplay() throws {
        let first = try Harness()
        let t = try pair(first)
        first.send(1, "e")
        first.send(2, "LETTER p front")
        _ = first.drain()
        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)   // loaded on RESUME
        h.connect(1)
        _ = h.drain()
        h.send(1, "RESUME \(t.alice)")
        #expect(h.drain() == [1: ["OK RESUME id=1", superGame(1, "alice,bob", t.alice), "ADJOURNED id=1 player=bob grace=60",
                                  "TURN id=1 player=alice fragment=pe last=bob"]])
        h.connect(2)
        h.send(2, "RESUME \(t.bob)")
        _ = h.drain()
        h.send(1, "a")
        h.send(2, "r")
        #expect(h.drain()[1]?.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear") == true)
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["e", "<p", "a", "r"])
    }

    @Test func ghostRefusesTheFrontAndBadVariants() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "LETTER p front")
        #expect(h.drain() == [1: ["ERR not-a-letter in Ghost letters go at the end: LETTER <c> front is for variant=super"]])
        h.named(3, "carol")
        h.send(3, "NEW variant=duper")
        #expect(h.drain() == [3: ["ERR bad-value variant is super or challenge, or left out for Ghost"]])
        h.send(3, "NEW game=hangman variant=super")
        #expect(h.drain() == [3: ["ERR bad-arguments variant= is for game=ghost"]])
        h.send(3, "SEEK variant=duper")
        #expect(h.drain() == [3: ["ERR bad-value variant is super or challenge, or left out for Ghost"]])
    }

    @Test func aPrivateGameKeepsItsVariant() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW variant=super")
        let ok = try #require(h.drain()[1]?.first)
        let code = try #require(Message.parse(ok)?["code"])
        #expect(ok == "OK NEW code=\(code) lang=en")
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        #expect(d[2]?.contains { $0.hasPrefix("GAME id=1 game=ghost lang=en players=alice,bob ") && $0.hasSuffix(" variant=super") } == true)
    }

    @Test func theComputerPlaysSuperghost() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot variant=super")
        let d = try #require(h.drain()[1])
        #expect(d.first == "OK NEW bot=hard lang=en")
        #expect(d.contains { $0.hasPrefix("GAME id=1 game=ghost lang=en players=bot-hard,alice ") && $0.hasSuffix(" variant=super") })
        let move = try #require(d.first { $0.hasPrefix("MOVE id=1 player=bot-hard letter=") })
        #expect(move.contains(" end=front ") || move.contains(" end=back "))
    }
}
