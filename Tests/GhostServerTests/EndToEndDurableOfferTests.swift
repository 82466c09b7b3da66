import Foundation
import Testing
import TestSupport

/// RESTART and LANG offers during a game, and REMATCH after one, against a
/// real ghostd over TCP, with every line checked.
@Suite("EndToEnd: offers and rematch", .ownThread, .hangLimit)
struct EndToEndDurableOfferTests {
    @Test("RESTART: at once before the first letter; afterwards an offer, declined (play goes on) or accepted (round 2)")
    func restartOffers() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            let (a, b) = (game.players[0], game.players[1])
            let id = game.id
            let header = "GAME id=\(id) game=ghost lang=en players=\(a.name),\(b.name)"

            // Before any letter: done at once, by either player; the round is reused.
            try b.send("RESTART")
            try b.expect(lines: ["OK RESTART status=done", "\(header) token=\(game.tokens[1]) round=1",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            try a.expect(lines: ["\(header) token=\(game.tokens[0]) round=1", "TURN id=\(id) player=\(a.name) fragment="])
            for p in [a, b] {
                try p.send("ACCEPT")
                try p.expectError("no-offer")
                try p.send("DECLINE")
                try p.expectError("no-offer")
            }

            // After a letter: an offer.
            try game.play("p")
            try b.send("RESTART")
            try b.expect(lines: ["OK RESTART status=offered", "OFFER id=\(id) player=\(b.name) kind=restart"])
            try a.expect(lines: ["OFFER id=\(id) player=\(b.name) kind=restart",
                                 "INFO \(b.name) offers to restart the round: ACCEPT or DECLINE."])
            try b.send("RESTART")
            try b.expectError("offer-pending")
            try a.send("RESTART")
            try a.expectError("offer-pending")
            try a.send("LANG nl")
            try a.expectError("offer-pending")
            try b.send("ACCEPT")                 // one's own offer
            try b.expectError("no-offer")

            try a.send("DECLINE")
            try a.expect(lines: ["OK DECLINE", "DECLINED id=\(id) player=\(a.name) kind=restart"])
            try b.expect("DECLINED id=\(id) player=\(a.name) kind=restart")
            // One offer per player per letter.
            try b.send("RESTART")
            try b.expectError("offer-spent")
            try b.send("LANG nl")
            try b.expectError("offer-spent")
            for p in [a, b] { try p.expectNothing(within: 0.1) }

            // Play goes on from the same fragment; the letter gives Ben his offer back.
            try game.play("e")
            #expect(game.fragment == "pe")
            try a.send("RESTART")
            try a.expect(lines: ["OK RESTART status=offered", "OFFER id=\(id) player=\(a.name) kind=restart"])
            try b.expect(lines: ["OFFER id=\(id) player=\(a.name) kind=restart",
                                 "INFO \(a.name) offers to restart the round: ACCEPT or DECLINE."])
            try b.send("ACCEPT")
            try b.expect(lines: ["OK ACCEPT", "ACCEPTED id=\(id) player=\(b.name) kind=restart",
                                 "\(header) token=\(game.tokens[1]) round=2", "TURN id=\(id) player=\(a.name) fragment="])
            try a.expect(lines: ["ACCEPTED id=\(id) player=\(b.name) kind=restart",
                                 "\(header) token=\(game.tokens[0]) round=2", "TURN id=\(id) player=\(a.name) fragment="])
            game.fragment = ""
            game.toMove = 0
            game.round = 2

            // A letter cancels a pending offer.
            try game.play("c")
            try game.players[0].send("RESTART")
            try game.players[0].expect(lines: ["OK RESTART status=offered", "OFFER id=\(id) player=\(a.name) kind=restart"])
            try b.expect(lines: ["OFFER id=\(id) player=\(a.name) kind=restart",
                                 "INFO \(a.name) offers to restart the round: ACCEPT or DECLINE."])
            try game.play("a", cancelling: "CANCELLED id=\(id) player=\(a.name) kind=restart")
            try a.send("ACCEPT")
            try a.expectError("no-offer")
            try game.play("t")
            try game.playLosing("s", reason: "word", info: "\"cats\" is a word longer than 3 letters, so {loser} loses.")
            try a.send("RESTART")
            try a.expectError("not-in-game")
        }
    }

    @Test("LANG nl mid-game: offered, accepted, round 2 in Dutch (hui is alive in nl, dead in en); before a letter it is done at once")
    func languageChange() throws {
        // The premise, from the real word lists.
        #expect(WordLists.en.isProperlyExtended("hui") == false)
        #expect(WordLists.nl.isProperlyExtended("hui") && WordLists.nl.isWord("huis"))

        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "henk"), guest: try E2E.player(daemon, "ed"))
            let (a, b) = (game.players[0], game.players[1])
            let id = game.id
            let players = "players=\(a.name),\(b.name)"

            try b.send("LANG xx")
            try b.expectError("unknown-language")
            try game.play("h")
            try b.send("LANG nl")
            try b.expect(lines: ["OK LANG lang=nl status=offered", "OFFER id=\(id) player=\(b.name) kind=lang lang=nl"])
            try a.expect(lines: ["OFFER id=\(id) player=\(b.name) kind=lang lang=nl",
                                 "INFO \(b.name) offers to switch to nl and restart: ACCEPT or DECLINE."])
            try a.send("ACCEPT")
            try a.expect(lines: ["OK ACCEPT", "ACCEPTED id=\(id) player=\(a.name) kind=lang",
                                 "GAME id=\(id) game=ghost lang=nl \(players) token=\(game.tokens[0]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            try b.expect(lines: ["ACCEPTED id=\(id) player=\(a.name) kind=lang",
                                 "GAME id=\(id) game=ghost lang=nl \(players) token=\(game.tokens[1]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            game.lang = "nl"
            game.round = 2
            game.fragment = ""
            game.toMove = 0

            // Before a letter of round 2, LANG en takes effect at once, and back again.
            try a.send("LANG en")
            try a.expect(lines: ["OK LANG lang=en status=done",
                                 "GAME id=\(id) game=ghost lang=en \(players) token=\(game.tokens[0]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            try b.expect(lines: ["GAME id=\(id) game=ghost lang=en \(players) token=\(game.tokens[1]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            try b.send("LANG nl")
            try b.expect(lines: ["OK LANG lang=nl status=done",
                                 "GAME id=\(id) game=ghost lang=nl \(players) token=\(game.tokens[1]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])
            try a.expect(lines: ["GAME id=\(id) game=ghost lang=nl \(players) token=\(game.tokens[0]) round=2",
                                 "TURN id=\(id) player=\(a.name) fragment="])

            // Only the Dutch list lets "hui" live.
            try game.play("hui")
            try game.playLosing("s", reason: "word", info: "\"huis\" is a word longer than 3 letters, so {loser} loses.")

            // The same letters in English: hui is dead.
            var en = try Game.privateGame(host: a, guest: b)
            try en.play("hu")
            try en.playLosing("i", reason: "dead", info: "No word starts with \"hui\", so {loser} loses; \"hu\" could have led to \"hubs\".",
                              word: "hubs")
        }
    }

    @Test("REMATCH after OVER: both must ask; the other player starts; a request lapses when the opponent goes")
    func rematch() throws {
        try E2E.withDaemon { daemon in
            let a = try E2E.player(daemon, "ria"), b = try E2E.player(daemon, "sam")
            let bystander = try E2E.player(daemon, "tim")
            try a.send("REMATCH")
            try a.expectError("no-rematch")

            var first = try Game.privateGame(host: a, guest: b)
            try a.send("REMATCH")
            try a.expectError("no-rematch")     // still playing
            try first.play("pea")
            try first.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            try bystander.send("REMATCH")
            try bystander.expectError("no-rematch")

            try b.send("REMATCH")
            try b.expect("OK REMATCH status=asked")
            try a.expect(lines: ["REMATCH id=\(first.id) player=\(b.name)",
                                 "INFO \(b.name) wants a rematch: send REMATCH to play again."])
            try b.expectNothing(within: 0.2)
            try a.send("REMATCH")
            try a.expect("OK REMATCH status=started")
            // Sam (second seat last time) moves first now.
            var second = try Game.expectStart(players: [b, a], lang: "en")
            #expect(second.id != first.id)
            #expect(Set(second.tokens).isDisjoint(with: first.tokens))
            try second.play("cat")
            try second.playLosing("s", reason: "word", info: "\"cats\" is a word longer than 3 letters, so {loser} loses.")

            // Asked, then the opponent disconnects: the request lapses.
            try a.send("REMATCH")
            try a.expect("OK REMATCH status=asked")
            try b.expect(lines: ["REMATCH id=\(second.id) player=\(a.name)",
                                 "INFO \(a.name) wants a rematch: send REMATCH to play again."])
            b.client.close()
            #expect(daemon.waitUntilClosed(b.client))
            try a.expect("CANCELLED id=\(second.id) player=\(a.name) kind=rematch")
            try a.send("REMATCH")
            try a.expectError("no-rematch")
            try a.expectNothing(within: 0.1)
        }
    }
}
