import Testing
@testable import GhostClient
import GhostProtocol

/// Games on a clock in the client: the clock of new games (`t`
/// on the main screen, saved), the commands that carry it, the countdown
/// from TURN's `clock=` on the Ghost and Hangman play screens, and the end
/// by time, in English and Dutch.
@Suite("Client: playing on a clock")
struct ClockTests {
    /// Game 7 on a 30 s clock, alice to move, the TURN read at `now` 100.
    static func onClock(language: String = "en") -> ClientState {
        var s = Fx.named("alice", language: language)
        s = Fx.run(s, Fx.keys("3") + Fx.lines("OK NEW code=4EG7R lang=en",
                                              "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 clock=30",
                                              "TURN id=7 player=alice fragment= clock=30")).0
        return s
    }

    @Test("t on the main screen goes through the clocks (saved), and every new game carries it: SEEK, NEW, NEW bot=, Hangman's")
    func clockOfNewGames() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("t")))
        #expect(s.config.clock == 15)
        #expect(fx == [.saveConfig])
        #expect(s.config.rendered.hasSuffix("game=ghost\nclock=15\n"))
        #expect(ClientConfig.parse(s.config.rendered).clock == 15)
        (s, fx) = Fx.run(s, .key(.char("t")))
        #expect(s.config.clock == 30)
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK clock=30"])
        (s, fx) = Fx.run(Fx.named(), .key(.char("t")), .key(.char("t")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW clock=30"])
        (s, fx) = Fx.run(Fx.named(), .key(.char("t")), .key(.char("2")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW bot=easy clock=15"])
        // Hangman: a duel sought, and a game against the computer.
        (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("t")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK game=hangman clock=15"])
        (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("t")), .key(.char("2")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW game=hangman clock=15"])
        // All the way round: no clock again, and nothing sent for it.
        (s, _) = Fx.run(Fx.named(), Array(repeating: ClientEvent.key(.char("t")), count: ClientConfig.clockChoices.count))
        #expect(s.config.clock == nil)
        #expect(!s.config.rendered.contains("clock="))
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        // A value the client does not offer is not read back.
        #expect(ClientConfig.parse("clock=7\n").clock == nil)
    }

    @Test("The countdown: TURN's clock= from the time it arrives, one wake-up a second, none without a clock or for the computer")
    func countdown() {
        var s = ClockTests.onClock()
        #expect(s.game?.clock == 30)
        #expect(s.game?.clockDue == 130)
        #expect(s.clockLeft == 30)
        s = Fx.run(s, .tick(107.5)).0
        #expect(s.clockLeft == 23)
        // The next wake-up is when the number drops.
        #expect(abs((s.nextDeadline ?? 0) - 108.01) < 0.001)
        s = Fx.run(s, .tick(140)).0
        #expect(s.clockLeft == 0)
        // A TURN without clock= (the computer's) stops it.
        s = Fx.run(s, Fx.line("TURN id=7 player=bob fragment=p")).0
        #expect(s.clockLeft == nil)
        #expect(Fx.inGame().clockLeft == nil && Fx.inGame().game?.clock == nil)
    }

    @Test("The Ghost screen shows the seconds left after whose turn it is, in English and Dutch")
    func ghostScreen() {
        let en = Fx.run(ClockTests.onClock(), .tick(107.5)).0
        #expect(ScreenTests.plainLines(en).contains { $0.contains("Your turn: type a letter · 0:23 left") })
        let theirs = Fx.run(en, Fx.lines("MOVE id=7 player=alice letter=p fragment=p", "TURN id=7 player=bob fragment=p clock=30")).0
        #expect(ScreenTests.plainLines(Fx.run(theirs, .tick(200)).0).contains { $0.contains("bob is thinking… · 0:00 left") })
        let nl = Fx.run(ClockTests.onClock(language: "nl"), .tick(100)).0
        #expect(ScreenTests.plainLines(nl).contains { $0.contains("Jij bent aan de beurt: typ een letter · nog 0:30") })
        // Without a clock the line is as before.
        let plain = ScreenTests.plainLines(Fx.inGame())
        #expect(plain.contains { $0.contains("Your turn: type a letter") } && !plain.contains { $0.contains(" left") }, "\(plain)")
        // The main screen says which clock new games get.
        #expect(ScreenTests.plainLines(Fx.named()).contains { $0.contains("Clock: off (t)") })
        #expect(ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("t"))).0).contains { $0.contains("Clock: 0:15 a move (t)") })
        #expect(ScreenTests.plainLines(Fx.named("alice", language: "nl")).contains { $0.contains("Klok: uit (t)") })
    }

    @Test("Seeking: other queues on a clock say so (WAITING … clock=)")
    func waitingOnAClock() {
        let s = Fx.run(Fx.named(), .key(.char("1")), Fx.line("OK SEEK lang=en"),
                       Fx.line("WAITING game=ghost lang=en count=2 clock=30")).0
        #expect(s.otherSeekers == [OtherSeekers(lang: "en", match: false, count: 2, clock: 30)])
        let text = ScreenTests.plainLines(s).joined(separator: " ")
        #expect(text.contains("On a clock of 0:30 a move."), "\(text)")
    }

    @Test("Seeking: another queue's variant shows (WAITING … variant=super), in English and Dutch, beside its clock")
    func waitingForSuperghost() {
        for (language, said) in [("en", "On a clock of 0:30 a move. They play Superghost."),
                                 ("nl", "Met een klok van 0:30 per zet. Ze spelen Superghost.")] {
            var s = Fx.run(Fx.named("alice", language: language), .key(.char("1")), Fx.line("OK SEEK lang=en"),
                           Fx.line("WAITING game=ghost lang=en count=2 clock=30 variant=super"),
                           Fx.line("WAITING game=ghost lang=en count=1 clock=30")).0
            // Two queues: the same clock, Ghost and Superghost.
            #expect(s.otherSeekers == [OtherSeekers(lang: "en", match: false, count: 2, clock: 30, variant: "super"),
                                       OtherSeekers(lang: "en", match: false, count: 1, clock: 30)], "\(language)")
            // Words only: the paragraph may wrap anywhere.
            let text = ScreenTests.plainLines(s).joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(text.contains(said), "\(language): \(text)")
            // The Superghost queue empties: only Ghost's is left, and no line says Superghost.
            s = Fx.run(s, Fx.line("WAITING game=ghost lang=en count=0 clock=30 variant=super")).0
            #expect(s.otherSeekers == [OtherSeekers(lang: "en", match: false, count: 1, clock: 30)], "\(language)")
            #expect(!ScreenTests.plainLines(s).joined(separator: " ").contains("Superghost"), "\(language)")
        }
    }

    @Test("The end by time: the over screen says who ran out of time, in English and Dutch; every screen still fits")
    func overOnTime() {
        for (language, text) in [("en", "bob ran out of time."), ("nl", "bob had geen tijd meer.")] {
            var s = ClockTests.onClock(language: language)
            s = Fx.run(s, Fx.lines("MOVE id=7 player=alice letter=p fragment=p", "TURN id=7 player=bob fragment=p clock=30",
                                   "OVER id=7 winner=alice loser=bob reason=time fragment=p", "INFO bob ran out of time.",
                                   "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0")).0
            #expect(s.screen == .over)
            #expect(ScreenTests.plainLines(s).contains { $0.contains(text) }, "\(language)")
            for (w, h) in ScreenTests.sizes {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
            }
        }
    }

    @Test("Hangman on a clock: the countdown beside the gallows, and the guesser's end by time reveals the word")
    func hangman() {
        var s = HFx.hangmanMain()
        s = Fx.run(s, Fx.lines("OK NEW game=hangman mode=fair lang=en length=4 misses=8",
                               "GAME id=9 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=fair length=4 misses=8 clock=15",
                               "TURN id=9 player=alice pattern=____ missed=- left=8 clock=15") + [.tick(104.2)]).0
        #expect(s.clockLeft == 11)
        #expect(ScreenTests.plainLines(s).contains { $0.contains("· 0:11 left") })
        s = Fx.run(s, Fx.lines("OVER id=9 winner=bot-hangman loser=alice reason=time word=pear mistakes=0 pattern=____",
                               "INFO alice ran out of time; the word was \"pear\".")).0
        let text = ScreenTests.plainLines(s).joined(separator: "\n")
        #expect(text.contains("Your time ran out. The word was “PEAR”."), "\(text)")
    }
}
