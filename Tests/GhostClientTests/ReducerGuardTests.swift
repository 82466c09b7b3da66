import Testing
import TestSupport
@testable import GhostClient
import GhostProtocol
import GhostWire
import WordLists


@Suite("Core: hostile and odd server input", .ownThread)
struct ReducerRobustnessTests {
    @Test("Control characters from the server never reach the state")
    func controlCharacters() {
        let s = Fx.run(Fx.inGame(fragment: "pea"), Fx.line("OVER id=7 winner=alice loser=bob reason=word fragment=pear"),
                       Fx.line("INFO x\u{1B}[2Jy\u{9B}")).0
        #expect(s.result?.info == "x[2Jy")
        let s2 = Fx.run(Fx.online(), Fx.line("NAME name=ev\u{1B}]0;pwn\u{07}il"), Fx.line("OK NAMES count=1")).0
        #expect(s2.namePicker.knownNames == ["ev]0;pwnil"])
        // A fragment or letter that is not letters a-z is not shown.
        let s3 = Fx.run(Fx.inGame(fragment: "pe"), Fx.lines("MOVE id=7 player=alice letter=\u{E9} fragment=pe\u{E9}",
                                                            "TURN id=7 player=bob fragment=[2J")).0
        #expect(s3.game?.ghost?.fragment == "pe")
        #expect(s3.game?.toMove == "bob")
    }

    @Test("Random lines and keys never trap, and every screen stays in bounds")
    func fuzz() {
        var rng = SplitMix(seed: 42)
        let keywords = ["HELLO", "OK", "ERR", "GAME", "TURN", "MOVE", "OVER", "RANK", "INFO", "ADJOURNED", "RETURNED",
                        "CLAIMABLE", "OFFER", "ACCEPTED", "DECLINED", "REMATCH", "NAME", "SCORE", "ZAP", ""]
        let keys = ["id", "player", "players", "fragment", "letter", "winner", "loser", "reason", "token", "round",
                    "lang", "kind", "grace", "rank", "wins", "played", "name", "code", "status", "languages"]
        let values = ["7", "0", "-1", "99999999999999999999", "alice", "bob", "alice,bob", "a,b,c", "", "pear",
                      Fx.token, "nl", "x\u{1B}y", "é", "asked", "restart", "lang", "1"]
        let keyEvents: [Key] = [.char("a"), .char("1"), .char("2"), .char("3"), .enter, .escape, .tab, .up, .down,
                                .left, .right, .backspace, .char("z"), .char("5"), .other]
        for round in 0..<40 {
            var s = round % 2 == 0 ? Fx.inGame(fragment: "pe", colour: round % 4 == 0) : Fx.over(language: "nl")
            for _ in 0..<150 {
                let event: ClientEvent
                switch rng.next() % 10 {
                case 0..<5:
                    var line = keywords[Int(rng.next() % UInt64(keywords.count))]
                    if line == "OK" || line == "ERR" { line += " " + ["NAME", "LETTER", "SEEK", "bad-token", "busy"][Int(rng.next() % 5)] }
                    for _ in 0..<(rng.next() % 5) {
                        line += " " + keys[Int(rng.next() % UInt64(keys.count))] + "=" + values[Int(rng.next() % UInt64(values.count))]
                    }
                    // The app drops lines that do not decode; so does this.
                    guard let decoded = ServerLine.decode(line) else { continue }
                    event = .server(decoded)
                case 5..<8: event = .key(keyEvents[Int(rng.next() % UInt64(keyEvents.count))])
                case 8: event = [.disconnected, .connected, Fx.line(Fx.hello)][Int(rng.next() % 3)]
                default: event = .tick(100 + Double(rng.next() % 1000) / 10)
                }
                s = reduce(s, event).0
                if s.screen == .language || s.screen == .tutorial { continue }
                for (w, h) in [(80, 24), (40, 12)] {
                    let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                    #expect(lines.count == h)
                    #expect(lines.allSatisfy { Layout.visibleWidth($0) <= w })
                }
            }
        }
    }
}

/// A small deterministic generator for the fuzz test.
typealias SplitMix = SplitMix64

@Suite("Core: guards", .ownThread)
struct ReducerGuardTests {
    @Test("A server that accepts but never greets is treated as down after 10 s")
    func noHello() {
        let config = ClientConfig(language: "en", tutorialSeen: true)
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .tick(50), .connected)
        #expect(s.nextDeadline == 60)
        (s, fx) = Fx.run(s, .tick(59))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .tick(60))
        #expect(s.link == .offline)
        #expect(fx == [.reconnect(after: 0.25)])
    }

    @Test("Two clients on one settings file: the one whose seat was resumed elsewhere does not take it back")
    func seatTaken() {
        // Free text is not protocol: an INFO saying so changes nothing.
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("INFO Your seat in game 7 was resumed from another connection."))
        #expect(!s.seatTaken)
        (s, fx) = Fx.run(s, Fx.line("BYE replaced your seat in game 7 was resumed from another connection"), .disconnected)
        #expect(s.seatTaken)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAMES"])
        #expect(s.screen == .name)
        #expect(s.game == nil)
        #expect(s.alert?.notice == .seatTaken)
        // A new game of its own clears the guard.
        (s, _) = Fx.run(s, Fx.line("GAME id=9 game=ghost lang=en players=alice,carol token=\(Fx.token) round=1"))
        #expect(!s.seatTaken)
    }

    @Test("Any other BYE is a close like any other: the client reconnects and resumes")
    func otherBye() {
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("BYE shutdown the server is stopping"), .disconnected)
        #expect(!s.seatTaken)
        #expect(fx == [.reconnect(after: 0.25)])
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)"])
        #expect(s.pending == [.lang, .resume])
    }

    @Test("A reply the client cannot type still answers its command; a later protocol's lines are dropped")
    func laterProtocol() {
        var (s, _) = Fx.run(Fx.inGame(), .key(.char("p")))
        #expect(s.pending == [.kindMove])
        (s, _) = Fx.run(s, Fx.line("OK LETTER"))
        #expect(s.pending.isEmpty)
        (s, _) = Fx.run(s, .key(.char("q")), Fx.line("ERR a-later-code something new"))
        #expect(s.pending.isEmpty)
        #expect(s.alert?.notice == .serverError(code: ErrorCode(rawValue: "a-later-code"), text: "something new"))
        #expect(ServerLine.decode("HANGMAN id=7 pattern=_e__") == nil)
        // A game of a kind this client does not know does not replace the one on screen.
        (s, _) = Fx.run(s, Fx.line("GAME id=8 game=hangman lang=en players=alice,bob round=1 length=5"))
        #expect(s.game?.id == 7)
    }

    @Test("A protocol-1 server's lines still read: no game=, `-` for no letters")
    func protocolOne() {
        var s = Fx.named()
        s = Fx.run(s, Fx.lines("GAME id=5 lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=-,G",
                               "TURN id=5 player=bob fragment= ghost=-,G")).0
        #expect(s.game?.ghost?.match == true)
        #expect(s.game?.ghost?.letters == ["", "G"])
        #expect(s.game?.toMove == "bob")
    }
}

