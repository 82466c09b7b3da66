import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Adjournment, RESUME, the grace period and CLAIM, and what survives a
/// daemon restart, against a real ghostd over TCP, with every line checked.
@Suite("EndToEnd: adjournment, resume, claim, restart", .ownThread, .hangLimit)
struct EndToEndDurableTests {
    @Test("A player whose socket closed (FIN or RST) resumes by token on a new connection; the game finishes normally",
          arguments: [false, true])
    func resumeAfterClose(abrupt: Bool) throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            try game.play("p")
            let (host, guest) = (game.players[0], game.players[1])
            if abrupt { guest.client.reset() } else { guest.client.close() }
            try game.expectAdjourned(absent: 1)
            try host.expectNothing(within: 0.2)

            // A fresh connection, without NAME: RESUME gives it the seat, the name,
            // the same token and the same fragment; the host hears RETURNED.
            game.players[1] = try E2E.resume(daemon, game, seat: 1)
            let back = game.players[1]
            try host.expectNothing(within: 0.1)
            // It holds the name now.
            let other = try LineClient(port: daemon.port, label: "other")
            try other.send("NAME \(guest.name)")
            try other.expectError("name-taken")

            // RESUME of one's own seat just sends the state again.
            try back.send("RESUME \(game.tokens[1])")
            try back.expect(lines: ["OK RESUME id=\(game.id)",
                                    "GAME id=\(game.id) game=ghost lang=en players=\(host.name),\(guest.name) token=\(game.tokens[1]) round=1",
                                    "TURN id=\(game.id) player=\(guest.name) fragment=p last=\(host.name)"])
            try host.expectNothing(within: 0.1)

            try game.play("e")
            try game.play("a")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            for p in game.players { try p.expectNothing(within: 0.1) }

            // A finished game's tokens no longer resume it: each tells how it ended.
            for token in game.tokens {
                try other.send("RESUME \(token)")
                #expect(try other.expectPrefix("OK RESUME id=").hasSuffix(" status=over"))
                #expect(try other.expectPrefix("OVER id=").contains(" reason=word fragment=pear ended="))
            }
        }
    }

    @Test("RESUME: both away (ADJOURNED in the state), a stale connection replaced, an idle name holder bumped, errors")
    func resumeEdgeCases() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            try game.play("d")
            let (host, guest) = (game.players[0], game.players[1])

            // Unknown tokens, and RESUME from inside another game.
            let stranger = try LineClient(port: daemon.port, label: "stranger")
            for bad in [String(repeating: "0", count: 32), "nope", game.tokens[0].uppercased()] {
                try stranger.send("RESUME \(bad)")
                try stranger.expectError("bad-token")
            }
            var other = try Game.privateGame(host: try E2E.player(daemon, "ohost"), guest: try E2E.player(daemon, "oguest"))
            try other.players[0].send("RESUME \(game.tokens[1])")
            try other.players[0].expectError("busy")

            // Both leave; the guest (to move) comes back first and is told the host is away.
            guest.client.close()
            try game.expectAdjourned(absent: 1)
            host.client.reset()
            #expect(daemon.waitUntilClosed(host.client), "the daemon did not log closing \(host.name)'s connection")
            // An idle connection cannot take the away host's name: it is kept for RESUME.
            let squatter = try LineClient(port: daemon.port, label: "squatter")
            try squatter.send("NAME \(host.name)")
            try squatter.expect("ERR name-taken \(host.name) has a game waiting for its player, who comes back with RESUME")
            game.players[1] = try E2E.resume(daemon, game, seat: 1, extra: ["ADJOURNED id=\(game.id) player=\(host.name) grace=60"],
                                             opponentPresent: false)
            game.players[0] = try E2E.resume(daemon, game, seat: 0)
            try squatter.send("NEW")
            try squatter.expectError("no-name")

            // A second connection resumes a seat whose connection is still open (half-open
            // socket): the old one gets BYE replaced and is closed; the opponent is not told.
            let stale = game.players[1]
            game.players[1] = try E2E.resume(daemon, game, seat: 1, opponentPresent: false)
            try stale.expect("BYE replaced your seat in game \(game.id) was resumed from another connection")
            try stale.client.expectClosed()
            try game.players[0].expectNothing(within: 0.2)

            try game.play("og")
            try game.playLosing("s", reason: "word", info: "\"dogs\" is a word longer than 3 letters, so {loser} loses.")
            try other.play("x")
        }
    }

    @Test("Grace period (--grace 1): CLAIM refused while the absent player is not to move; CLAIMABLE pushed after 1 s of their turn; CLAIM wins")
    func graceAndClaim() throws {
        try E2E.withDaemon(extraArguments: ["--grace", "1"]) { daemon in
            let a = try E2E.player(daemon, "ann"), b = try E2E.player(daemon, "ben")
            var game = try Game.privateGame(host: a, guest: b)
            try game.play("p")   // ben to move
            try b.send("CLAIM")
            try b.expectError("not-claimable")      // ann is here

            // Ann leaves while Ben is to move.
            a.client.close()
            try game.expectAdjourned(absent: 0, grace: 1)
            try b.send("CLAIM")
            let notYet = try b.expectError("not-claimable")
            #expect(notYet.contains("your turn"), "\(notYet)")
            // No clock runs while the present player is to move: nothing is pushed.
            try b.expectNothing(within: 1.5)
            try b.send("CLAIM")
            try b.expectError("not-claimable")

            // Ben's letter makes it Ann's turn; a CLAIM in the same instant (same
            // write, same loop turn) is too early.
            let sent = monotonicNow()
            try b.client.sendRaw(Array("e\nCLAIM\n".utf8))
            try b.expect(lines: ["OK LETTER letter=e fragment=pe",
                                 "MOVE id=\(game.id) player=\(b.name) letter=e fragment=pe",
                                 "TURN id=\(game.id) player=\(a.name) fragment=pe"])
            let early = try b.expectError("not-claimable")
            #expect(early.contains("grace period"), "\(early)")
            game.fragment = "pe"
            game.toMove = 0

            // 1 s after the letter, without Ben sending anything: CLAIMABLE and its INFO.
            try b.expect("CLAIMABLE id=\(game.id) player=\(a.name)")
            let waited = monotonicNow() - sent
            #expect(waited >= 0.95 && waited < 5, "CLAIMABLE came \(waited) s after the letter with --grace 1")
            try b.expect("INFO \(a.name) has been away past the grace period: send CLAIM to take the win, or keep waiting.")
            try b.expectNothing(within: 0.3)

            try b.send("CLAIM")
            try b.expect("OK CLAIM")
            // A daemon of its own: Ben's first win ranks 1, Ann (no wins) 2.
            try game.expectOver(winner: b, loser: a, reason: "abandoned",
                                info: "\(a.name) stayed away past the grace period; \(b.name) claimed the game.",
                                to: [1], ranks: (1, 2))
            try b.expectNothing(within: 0.2)
            let late = try LineClient(port: daemon.port, label: "late")
            try late.send("RESUME \(game.tokens[0])")
            #expect(try late.expectPrefix("OK RESUME id=").hasSuffix(" status=over"))
            #expect(try late.expectPrefix("OVER id=").contains(" reason=abandoned "))
            try b.send("CLAIM")
            try b.expectError("not-in-game")
        }
    }

    @Test("Grace period (--grace 1): leaving on one's own turn starts the clock; RESUME after CLAIMABLE still works")
    func resumeAfterClaimable() throws {
        try E2E.withDaemon(extraArguments: ["--grace", "1"]) { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "cas"), guest: try E2E.player(daemon, "dirk"))
            try game.play("c")
            let (c, d) = (game.players[0], game.players[1])
            d.client.reset()   // Dirk leaves on his own turn
            try game.expectAdjourned(absent: 1, grace: 1)
            try c.expect("CLAIMABLE id=\(game.id) player=\(d.name)")
            try c.expect("INFO \(d.name) has been away past the grace period: send CLAIM to take the win, or keep waiting.")

            // Cas keeps waiting; Dirk comes back in time and the claim is gone.
            game.players[1] = try E2E.resume(daemon, game, seat: 1)
            try c.send("CLAIM")
            try c.expectError("not-claimable")
            try game.play("a")
            try game.play("t")
            try game.playLosing("s", reason: "word", info: "\"cats\" is a word longer than 3 letters, so {loser} loses.",
                                ranks: (1, 2))
        }
    }

    @Test("NAMES, SCORES and language preferences survive SIGTERM and a restart on the same --data")
    func namesAndScoresAcrossRestart() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        func player(_ name: String, lang: String = "en") throws -> Player {
            let c = try LineClient(port: daemon.port, label: name)
            try c.login(name, lang: lang)
            return Player(name: name, client: c)
        }
        let amy = try player("Amy"), bob = try player("bob"), carl = try player("carl"), zed = try player("zed")
        // In pear, the guest (second seat) makes the word.
        for (host, guest, ranks) in [(amy, bob, (1, 2)), (amy, carl, (1, 2)), (zed, bob, (2, 3))] {
            var g = try Game.privateGame(host: host, guest: guest)
            try g.play("pea")
            try g.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.", ranks: ranks)
        }
        // Names without finished games: dora (LANG after NAME), erin (LANG before NAME).
        let dora = try player("dora")
        try dora.send("LANG nl")
        try dora.expect("OK LANG lang=nl")
        let erin = try LineClient(port: daemon.port, label: "erin")
        try erin.send("LANG nl")
        try erin.expect("OK LANG lang=nl")
        try erin.send("NAME erin")
        try erin.expect("OK NAME name=erin lang=nl")

        // NAMES lists the most recently used first: which second each NAME
        // fell in is up to the clock, so the set is checked, and the count.
        let names = ["Amy", "bob", "carl", "dora", "erin", "zed"].map { "NAME name=\($0)" }
        func expectNames(_ c: LineClient) throws {
            try c.send("NAMES")
            let got = try c.readUntil(prefix: "OK NAMES ")
            #expect(got.line == "OK NAMES count=6 more=no")
            #expect(got.skipped.sorted { $0.lowercased() < $1.lowercased() } == names)
        }
        let scores = ["SCORE rank=1 name=Amy wins=2 played=2",
                      "SCORE rank=2 name=zed wins=1 played=1",
                      "SCORE rank=3 name=bob wins=0 played=2",
                      "SCORE rank=3 name=carl wins=0 played=1",
                      "OK SCORES count=4 board=game"]
        func check(_ c: LineClient) throws {
            try expectNames(c)
            try c.send("SCORES")
            try c.expect(lines: scores)
            try c.send("SCORES 2")
            try c.expect(lines: Array(scores.prefix(2)) + ["OK SCORES count=2 board=game"])
        }
        try check(dora.client)
        let anon = try LineClient(port: daemon.port, label: "anon")
        try check(anon)

        #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
        let again = try daemon.relaunch()
        defer { again.kill() }
        let after = try LineClient(port: again.port, label: "after")
        try check(after)
        // Preferences came back; the first spelling of a name stays the stored one.
        try after.login("DORA", lang: "nl")
        let e2 = try LineClient(port: again.port, label: "erin2")
        try e2.login("erin", lang: "nl")
        let a2 = try LineClient(port: again.port, label: "amy2")
        try a2.login("amy")
        try expectNames(a2)
        // And the tally goes on from where it was.
        let b2 = try LineClient(port: again.port, label: "bob2")
        try b2.login("bob")
        // So does the head-to-head record: Amy beat bob before the restart (GAME record=).
        let amy2 = Player(name: "amy", client: a2)
        amy2.beaten["bob"] = 1
        var g = try Game.privateGame(host: Player(name: "bob", client: b2), guest: amy2)
        try g.play("pea")
        // amy loses; RANK lines carry the name as first stored (Amy).
        try g.players[1].send("r")
        try g.players[1].expect("OK LETTER letter=r fragment=pear")
        for p in g.players {
            try p.expect(lines: ["MOVE id=\(g.id) player=amy letter=r fragment=pear",
                                 "OVER id=\(g.id) winner=bob loser=amy reason=word fragment=pear",
                                 "INFO \"pear\" is a word longer than 3 letters, so amy loses.",
                                 "RANK name=bob rank=2 wins=1",
                                 "RANK name=Amy rank=1 wins=2"])
        }
        try after.send("SCORES")
        try after.expect(lines: ["SCORE rank=1 name=Amy wins=2 played=3",
                                 "SCORE rank=2 name=bob wins=1 played=3",
                                 "SCORE rank=2 name=zed wins=1 played=1",
                                 "SCORE rank=4 name=carl wins=0 played=1",
                                 "OK SCORES count=4 board=game"])
        #expect(again.terminate() == .exited(0), "\(again.stderrText)")
    }

    /// A game started and played with no SQLite transaction since (its
    /// start and moves are lines of the move journal: JournalStart.swift)
    /// survives SIGKILL: the next start inserts them, and both seats resume.
    @Test("A game whose start and moves are only in the move journal survives SIGKILL: both players RESUME by token and finish it", sqliteFilesOnly)
    func journalOnlyGameSurvivesKill() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
        try game.play("pe")
        // Its header (the journal the database expects), the game's start, two moves.
        let journal = try String(contentsOfFile: daemon.dataPath + "/ghostd.sqlite3-moves", encoding: .utf8)
        let lines = journal.split(separator: "\n")
        #expect(lines.first?.hasPrefix("journal ") == true && lines.dropFirst().map { $0.hasPrefix("start ") } == [true, false, false],
                "\(journal)")
        #expect(daemon.kill() == .signaled(SIGKILL))
        for p in game.players { #expect(p.client.isClosed(timeout: 2)) }

        let again = try daemon.relaunch()
        defer { again.kill() }
        try E2E.resumeAtPeAndFinish(again, &game, ranks: (1, 2))
        #expect(again.terminate() == .exited(0), "\(again.stderrText)")
        // A clean stop folds every line in and leaves the header alone.
        let left = try String(contentsOfFile: daemon.dataPath + "/ghostd.sqlite3-moves", encoding: .utf8)
        #expect(left.hasPrefix("journal ") && left.split(separator: "\n").count == 1, "\(left)")
    }

    @Test("A game in progress survives a restart (SIGTERM, then SIGKILL): both players RESUME by token and finish it",
          arguments: [SIGTERM, SIGKILL])
    func gameSurvivesRestart(signal: Int32) throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
        try game.play("pe")   // the host (seat 0) is to move
        // An offer pending at the restart comes back too.
        try game.players[1].send("RESTART")
        try game.players[1].expect(lines: ["OK RESTART status=offered",
                                           "OFFER id=\(game.id) player=\(game.players[1].name) kind=restart"])
        try game.players[0].expect(lines: ["OFFER id=\(game.id) player=\(game.players[1].name) kind=restart",
                                           "INFO \(game.players[1].name) offers to restart the round: ACCEPT or DECLINE."])
        let status = signal == SIGTERM ? daemon.terminate() : daemon.kill()
        #expect(status == (signal == SIGTERM ? .exited(0) : .signaled(SIGKILL)))
        for p in game.players { #expect(p.client.isClosed(timeout: 2)) }

        let again = try daemon.relaunch()
        defer { again.kill() }
        #expect(again.waitForStderrLine { $0.hasSuffix("restored 0 adjourned game(s) on a clock; the others load on RESUME") } != nil, "\(again.stderrText)")
        let offer = "OFFER id=\(game.id) player=\(game.players[1].name) kind=restart"
        // The host (to move) first: the absent guest is not to move, so no clock
        // runs and grace=60 exactly.
        game.players[0] = try E2E.resume(again, game, seat: 0,
                                         extra: [offer, "ADJOURNED id=\(game.id) player=\(game.players[1].name) grace=60"],
                                         opponentPresent: false)
        game.players[1] = try E2E.resume(again, game, seat: 1, extra: [offer])
        try game.players[0].send("DECLINE")
        try game.players[0].expect(lines: ["OK DECLINE", "DECLINED id=\(game.id) player=\(game.players[0].name) kind=restart"])
        try game.players[1].expect("DECLINED id=\(game.id) player=\(game.players[0].name) kind=restart")
        try game.play("a")
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.",
                            ranks: (1, 2))
        #expect(again.terminate() == .exited(0), "\(again.stderrText)")
    }
}
