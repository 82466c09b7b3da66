import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: offers", .ownThread) struct LobbyOffersTests {
    @Test func restartBeforeAnyLetterIsImmediate() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(2, "RESTART")
        #expect(h.drain() == [
            1: [game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
            2: ["OK RESTART status=done", game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment="],
        ])
        h.send(1, "restart")
        #expect(h.drain() == [
            1: ["OK RESTART status=done", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
            2: [game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment="],
        ])
        h.named(3, "carol")
        h.send(3, "RESTART")
        #expect(isErr(h.drain()[3]?.first, .notInGame))
    }

    @Test func restartAfterALetterIsAnOfferThatCanBeAccepted() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [
            1: ["OK RESTART status=offered", "OFFER id=1 player=alice kind=restart"],
            2: ["OFFER id=1 player=alice kind=restart", "INFO alice offers to restart the round: ACCEPT or DECLINE."],
        ])
        #expect(try h.store.activeGames().first?.offer == StoredGame.Offer(seat: 0, kind: "restart", lang: nil))
        h.send(2, "ACCEPT")
        #expect(h.drain() == [
            1: ["ACCEPTED id=1 player=bob kind=restart", game(1, "alice,bob", t.alice, round: 2), "TURN id=1 player=alice fragment="],
            2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=restart", game(1, "alice,bob", t.bob, round: 2),
                "TURN id=1 player=alice fragment="],
        ])
        let stored = try #require(try h.store.activeGames().first)
        #expect(stored.round == 2)
        #expect(stored.fragment == "")
        #expect(stored.offer == nil)
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p"])
        // The new round plays from an empty fragment.
        h.send(1, "c")
        #expect(h.drain()[1]?.first == "OK LETTER letter=c fragment=c")
        #expect(try h.store.moves(game: 1, round: 2).map(\.move) == ["c"])
    }

    @Test func declineAndOfferSpent() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(2, "RESTART")
        _ = h.drain()
        h.send(1, "DECLINE")
        #expect(h.drain() == [
            1: ["OK DECLINE", "DECLINED id=1 player=alice kind=restart"],
            2: ["DECLINED id=1 player=alice kind=restart"],
        ])
        // The game goes on unchanged.
        #expect(try h.store.activeGames().first?.offer == nil)
        // bob has spent his offer until a letter is played.
        h.send(2, "RESTART")
        #expect(h.drain() == [2: ["ERR offer-spent you can offer again once a letter has been played"]])
        h.send(2, "LANG nl")
        #expect(isErr(h.drain()[2]?.first, .offerSpent))
        // Nothing left to answer.
        h.send(1, "ACCEPT")
        #expect(h.drain() == [1: ["ERR no-offer there is no offer from your opponent to answer"]])
        h.send(1, "DECLINE")
        #expect(isErr(h.drain()[1]?.first, .noOffer))
        // After a letter bob may offer again.
        h.send(2, "e")
        _ = h.drain()
        h.send(2, "RESTART")
        #expect(h.drain()[2]?.first == "OK RESTART status=offered")
    }

    @Test func aLetterCancelsAPendingOffer() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(1, "RESTART")
        _ = h.drain()
        // bob plays on instead of answering: both hear that the offer is gone.
        h.send(2, "e")
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=e fragment=pe", "CANCELLED id=1 player=alice kind=restart",
                "TURN id=1 player=alice fragment=pe"],
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe",
                "CANCELLED id=1 player=alice kind=restart", "TURN id=1 player=alice fragment=pe"],
        ])
        // A letter with no offer pending cancels nothing.
        h.send(1, "a")
        #expect(h.drain()[2] == ["MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["ERR no-offer there is no offer from your opponent to answer"]])
        #expect(try h.store.activeGames().first?.offer == nil)
        #expect(try h.store.activeGames().first?.fragment == "pea")
        // alice's offer is available again after the letter.
        h.send(1, "RESTART")
        #expect(h.drain()[1]?.first == "OK RESTART status=offered")
    }

    @Test func offerWhileOnePendingAndOwnOffer() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "RESTART")
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["ERR offer-pending answer your opponent's offer first: ACCEPT or DECLINE"]])
        h.send(1, "LANG nl")
        #expect(isErr(h.drain()[1]?.first, .offerPending))
        h.send(2, "RESTART")
        #expect(h.drain() == [2: ["ERR offer-pending your offer is waiting for an answer"]])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["ERR no-offer there is no offer from your opponent to answer"]])
        h.send(2, "DECLINE")
        #expect(isErr(h.drain()[2]?.first, .noOffer))
        // The offer still stands for alice.
        h.send(1, "ACCEPT")
        #expect(h.drain()[1]?.first == "OK ACCEPT")
    }

    @Test func langMidGameBeforeTheFirstLetterIsImmediate() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(2, "LANG nl")
        #expect(h.drain() == [
            1: [game(1, "alice,bob", t.alice, lang: "nl"), "TURN id=1 player=alice fragment="],
            2: ["OK LANG lang=nl status=done", game(1, "alice,bob", t.bob, lang: "nl"), "TURN id=1 player=alice fragment="],
        ])
        #expect(try h.store.activeGames().first?.lang == "nl")
        // The game now uses the Dutch list.
        h.send(1, "h")
        h.send(2, "u")
        h.send(1, "i")
        _ = h.drain()
        h.send(2, "s")
        #expect(h.drain()[1] == ["MOVE id=1 player=bob letter=s fragment=huis",
                                 "OVER id=1 winner=alice loser=bob reason=word fragment=huis",
                                 "INFO \"huis\" is a word longer than 3 letters, so bob loses.",
                                 "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"])
    }

    @Test func langMidGameAfterALetterIsAnOffer() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "LANG xx")
        #expect(isErr(h.drain()[1]?.first, .unknownLanguage))
        h.send(1, "p")
        _ = h.drain()
        h.send(1, "LANG nl")
        #expect(h.drain() == [
            1: ["OK LANG lang=nl status=offered", "OFFER id=1 player=alice kind=lang lang=nl"],
            2: ["OFFER id=1 player=alice kind=lang lang=nl", "INFO alice offers to switch to nl and restart: ACCEPT or DECLINE."],
        ])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [
            1: ["ACCEPTED id=1 player=bob kind=lang", game(1, "alice,bob", t.alice, round: 2, lang: "nl"),
                "TURN id=1 player=alice fragment="],
            2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=lang", game(1, "alice,bob", t.bob, round: 2, lang: "nl"),
                "TURN id=1 player=alice fragment="],
        ])
        // No Dutch word starts with "p".
        h.send(1, "p")
        #expect(h.drain()[2]?.contains("OVER id=1 winner=bob loser=alice reason=dead fragment=p") == true)
    }

    @Test func anOfferToAnAbsentOpponentIsShownWhenTheyReturn() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.disconnect(2)
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["OK RESTART status=offered", "OFFER id=1 player=alice kind=restart"]])
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain() == [
            1: ["RETURNED id=1 player=bob"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.bob), "OFFER id=1 player=alice kind=restart",
                "TURN id=1 player=bob fragment=p last=alice"],
        ])
        h.send(3, "DECLINE")
        #expect(h.drain()[1] == ["DECLINED id=1 player=bob kind=restart"])
    }
}
