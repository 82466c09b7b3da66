import Foundation
import Testing
import GhostServer
import TestSupport

/// Whole games against a real ghostd over TCP, with every line checked.
@Suite("EndToEnd: games", .ownThread, .hangLimit)
struct EndToEndGameTests {
    @Test("NEW/JOIN game to reason=word (pear), every line of both players")
    func privateGameToWord() throws {
        try E2E.withDaemon { daemon in
            let alice = E2E.name("alice"), bob = E2E.name("bob")
            let a = try LineClient(port: daemon.port, label: alice)
            let b = try LineClient(port: daemon.port, label: bob)
            #expect(a.hello == "HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl")

            try a.send("NAME \(alice)")
            try a.expect("OK NAME name=\(alice) lang=en")
            try b.send("NAME \(bob)")
            try b.expect("OK NAME name=\(bob) lang=en")

            try a.send("NEW")
            let ok = try a.expectPrefix("OK NEW code=")
            let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
            try #require(ok == "OK NEW code=\(code) lang=en", "got \(ok)")
            try a.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).")
            try a.expectNothing(within: 0.2)

            try b.send("JOIN \(code.lowercased())")
            try b.expect("OK JOIN code=\(code) lang=en")
            // Each player gets its own resume token, and only its own.
            let gameLine = try a.expectPrefix("GAME id=")
            let id = try #require(Int(gameLine.dropFirst("GAME id=".count).prefix(while: { $0 != " " })))
            let g = "id=\(id)"
            let tokenA = lineFields(gameLine)["token"] ?? ""
            #expect(gameLine == "GAME \(g) game=ghost lang=en players=\(alice),\(bob) token=\(tokenA) round=1" && isToken(tokenA), "\(gameLine)")
            try a.expect("TURN \(g) player=\(alice) fragment=")
            let bobGame = try b.expectPrefix("GAME \(g) ")
            let tokenB = lineFields(bobGame)["token"] ?? ""
            #expect(bobGame == "GAME \(g) game=ghost lang=en players=\(alice),\(bob) token=\(tokenB) round=1" && isToken(tokenB), "\(bobGame)")
            #expect(tokenA != tokenB)
            try b.expect("TURN \(g) player=\(alice) fragment=")

            try a.send("p")
            try a.expect(lines: ["OK LETTER letter=p fragment=p",
                                 "MOVE \(g) player=\(alice) letter=p fragment=p",
                                 "TURN \(g) player=\(bob) fragment=p"])
            try b.expect(lines: ["MOVE \(g) player=\(alice) letter=p fragment=p",
                                 "TURN \(g) player=\(bob) fragment=p"])

            try b.send("LETTER e")
            try b.expect(lines: ["OK LETTER letter=e fragment=pe",
                                 "MOVE \(g) player=\(bob) letter=e fragment=pe",
                                 "TURN \(g) player=\(alice) fragment=pe"])
            try a.expect(lines: ["MOVE \(g) player=\(bob) letter=e fragment=pe",
                                 "TURN \(g) player=\(alice) fragment=pe"])

            try a.send("A")   // either case
            try a.expect(lines: ["OK LETTER letter=a fragment=pea",
                                 "MOVE \(g) player=\(alice) letter=a fragment=pea",
                                 "TURN \(g) player=\(bob) fragment=pea"])
            try b.expect(lines: ["MOVE \(g) player=\(alice) letter=a fragment=pea",
                                 "TURN \(g) player=\(bob) fragment=pea"])

            try b.send("letter r")
            try b.expect("OK LETTER letter=r fragment=pear")
            var ranks: [[String]] = []
            for c in [b, a] {
                try c.expect(lines: ["MOVE \(g) player=\(bob) letter=r fragment=pear",
                                     "OVER \(g) winner=\(alice) loser=\(bob) reason=word fragment=pear",
                                     "INFO \"pear\" is a word longer than 3 letters, so \(bob) loses."])
                // The shared daemon's other players decide the ranks; the wins are ours.
                let rw = try c.expectPrefix("RANK name=\(alice) rank=")
                let rl = try c.expectPrefix("RANK name=\(bob) rank=")
                #expect(rw.hasSuffix(" wins=1") && rl.hasSuffix(" wins=0"), "\(rw) / \(rl)")
                let (r1, r2) = (Int(lineFields(rw)["rank"] ?? "") ?? 0, Int(lineFields(rl)["rank"] ?? "") ?? 0)
                #expect(r1 >= 1 && r2 > r1, "\(rw) / \(rl)")
                ranks.append([rw, rl])
            }
            #expect(ranks[0] == ranks[1])
            try a.expectNothing(within: 0.2)
            try b.expectNothing(within: 0.1)

            // Both are back in the lobby: letters are refused, a new game can start.
            try a.send("x")
            try a.expectError("not-in-game")
            // The next game between them carries their record (alice won the first).
            let guest = Player(name: alice, client: a)
            guest.beaten[bob.lowercased()] = 1
            let again = try Game.privateGame(host: Player(name: bob, client: b), guest: guest)
            #expect(again.id != id)
        }
    }

    @Test("NEW/JOIN game to reason=dead on a fragment no word starts with (qz)")
    func privateGameToDead() throws {
        try E2E.withDaemon { daemon in
            // Dictionaries/en.txt: 320 words start with "q", none with "qz".
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            try game.play("q")
            try game.playLosing("z", reason: "dead", info: "No word starts with \"qz\", so {loser} loses; \"q\" could have led to \"quad\".",
                                word: "quad")
            try game.players[0].expectNothing(within: 0.2)
            try game.players[1].expectNothing(within: 0.1)
        }
    }

    @Test("reason=dead on a short word nothing extends (eh)")
    func deadOnShortWord() throws {
        try E2E.withDaemon { daemon in
            // "eh" is in en.txt and no other word starts with "eh".
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            try game.play("e")
            try game.playLosing("h", reason: "dead",
                                info: "\"eh\" is a word, but no longer word starts with it, so {loser} loses; \"e\" could have led to \"each\".",
                                word: "each")
        }
    }

    @Test("SEEK pairs two seekers of the same language; the first seeker moves first; a seeker who waits hears of other queues (WAITING) as they change")
    func seekGame() throws {
        try E2E.withDaemon(isolated: true) { daemon in
            let a = try E2E.player(daemon, "ann"), b = try E2E.player(daemon, "ben"), c = try E2E.player(daemon, "cor")

            try a.send("SEEK")
            try a.expect("OK SEEK lang=en")
            try a.expect("INFO Waiting for another player who seeks a game in en.")

            // A Dutch seeker does not pair with an English one.
            try c.send("LANG nl")
            try c.expect("OK LANG lang=nl")
            try c.send("SEEK")
            try c.expect("OK SEEK lang=nl")
            try c.expect("INFO Waiting for another player who seeks a game in nl.")
            // … and is told who waits elsewhere; ann, waiting, hears of cor's queue
            // (within a second: the news to seekers is throttled).
            try c.expect("WAITING game=ghost lang=en count=1")
            try a.expect("WAITING game=ghost lang=nl count=1")
            try a.expectNothing(within: 0.2)

            try b.send("SEEK")
            try b.expect("OK SEEK lang=en")
            let hb = try Game.expectGameStart(b, players: [a, b], lang: "en")
            let ha = try Game.expectGameStart(a, players: [a, b], lang: "en", id: hb.id)
            #expect(ha.token != hb.token)
            // The English queue emptied: cor, still waiting, is told.
            try c.expect("WAITING game=ghost lang=en count=0")
            try c.expectNothing(within: 0.2)

            var game = Game(id: hb.id, lang: "en", players: [a, b], tokens: [ha.token, hb.token])
            try game.play("cat")
            // A daemon of its own: the first win ranks 1, the loser (no wins) 2.
            try game.playLosing("s", reason: "word", info: "\"cats\" is a word longer than 3 letters, so {loser} loses.",
                                ranks: (1, 2))

            // The Dutch seeker is still waiting, and can stop.
            try c.expectNothing(within: 0.1)
            try c.send("LEAVE")
            try c.expect("OK LEAVE")
            try c.send("LEAVE")
            try c.expectError("not-in-game")
        }
    }

    @Test("A Dutch game (LANG nl) to OVER, played in the host's language")
    func dutchGame() throws {
        try E2E.withDaemon { daemon in
            let host = try E2E.player(daemon, "henk"), guest = try E2E.player(daemon, "gert")
            // The guest keeps the default (en) but joins the host's nl game.
            var game = try Game.privateGame(host: host, guest: guest, lang: "nl")
            // No English word starts with "hui", so getting past it proves nl.txt is used.
            try game.play("hui")
            try game.playLosing("s", reason: "word", info: "\"huis\" is a word longer than 3 letters, so {loser} loses.")
            try host.expectNothing(within: 0.2)

            // LANG persists for the host's next game.
            let code = try Game.openGame(host, lang: "nl")
            try host.send("LEAVE")
            try host.expect("OK LEAVE")
            try guest.send("JOIN \(code)")
            try guest.expectError("no-such-game")
        }
    }

    @Test("Two games at once on one daemon, moves interleaved; each pair sees only its game")
    func twoGamesAtOnce() throws {
        try E2E.withDaemon { daemon in
            var x = try Game.privateGame(host: try E2E.player(daemon, "xa"), guest: try E2E.player(daemon, "xb"))
            var y = try Game.privateGame(host: try E2E.player(daemon, "ya"), guest: try E2E.player(daemon, "yb"))
            #expect(x.id != y.id)

            // pear and dogs, a letter each in turn. `play` checks every line with the
            // game's own id, so a stray line from the other game fails the test.
            try x.play("p")
            try y.play("d")
            try x.play("e")
            try y.play("o")
            try x.play("a")
            try y.play("g")
            try x.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            for p in y.players { try p.expectNothing(within: 0.15) }
            try y.playLosing("s", reason: "word", info: "\"dogs\" is a word longer than 3 letters, so {loser} loses.")
            for p in x.players + y.players { try p.expectNothing(within: 0.15) }

            for p in x.players + y.players {
                let ids = p.client.received.compactMap { line -> Int? in
                    guard let r = line.range(of: " id=") else { return nil }
                    return Int(line[r.upperBound...].prefix(while: \.isNumber))
                }
                let own = x.players.contains(where: { $0.name == p.name }) ? x.id : y.id
                #expect(!ids.isEmpty && ids.allSatisfy { $0 == own }, "\(p.name) saw game ids \(ids), expected only \(own)")
            }
        }
    }
}
