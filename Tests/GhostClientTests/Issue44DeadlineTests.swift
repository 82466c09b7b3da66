import Testing
@testable import GhostClient
import GhostProtocol

/// The server's countdown in a game without a clock
/// (TURN's `abort_in=` for a first move, `claim_in=` for a stalled move) is
/// shown after whose turn it is and counts down; a player who is away stops
/// it (the grace period counts then); a TURN without one clears it.
@Suite("Issue 44: the first move's and the stalled move's countdowns")
struct Issue44DeadlineTests {
    static func ghost(_ turn: String, language: String = "en", at now: Double = 100) -> ClientState {
        Fx.run(Fx.inGame(language: language), .tick(now), Fx.line(turn)).0
    }

    @Test("A first move: “aborted in 1:00 without a move” after the turn, counting down; the last 15 s of my own in warning colours")
    func firstMove() {
        var s = Self.ghost("TURN id=7 player=alice fragment= abort_in=60")
        #expect(s.deadlineLeft?.seconds == 60 && s.deadlineLeft?.deadline == .abort(60))
        #expect(ScreenTests.plainLines(s).contains { $0.contains("Your turn: type a letter · aborted in 1:00 without a move") },
                "\(ScreenTests.plainLines(s))")
        // One wake-up when the number drops.
        s = Fx.run(s, .tick(144.5)).0
        #expect(abs((s.nextDeadline ?? 0) - 145.01) < 0.001)
        #expect(ScreenTests.plainLines(s).contains { $0.contains("aborted in 0:16 without a move") })
        let colour = Fx.run(Fx.inGame(colour: true), .tick(100), Fx.line("TURN id=7 player=alice fragment= abort_in=10")).0
        let raw = Screens.render(colour, width: 80, height: 24, strings: .forLanguage("en")).joined()
        #expect(raw.contains(Style(colour: true).warn("aborted in 0:10 without a move")))
        // Dutch.
        let nl = Self.ghost("TURN id=7 player=alice fragment= abort_in=45", language: "nl")
        #expect(ScreenTests.plainLines(nl).contains { $0.contains("afgebroken over 0:45 zonder zet") }, "\(ScreenTests.plainLines(nl))")
    }

    @Test("A stalled move: “claimable in 5:00” for either side; CLAIMABLE or ADJOURNED of the mover stop it; a TURN without one clears it")
    func stalledMove() {
        var s = Self.ghost("TURN id=7 player=bob fragment=pe claim_in=300")
        #expect(ScreenTests.plainLines(s).contains { $0.contains("bob is thinking… · claimable in 5:00") }, "\(ScreenTests.plainLines(s))")
        let claimable = Fx.run(s, .tick(400), Fx.line("CLAIMABLE id=7 player=bob")).0
        #expect(claimable.deadlineLeft == nil)
        let away = Fx.run(s, Fx.line("ADJOURNED id=7 player=bob grace=60")).0
        #expect(away.deadlineLeft == nil)
        s = Fx.run(s, Fx.line("TURN id=7 player=bob fragment=pe")).0
        #expect(s.deadlineLeft == nil && s.game?.deadlineDue == nil)
        let nl = Self.ghost("TURN id=7 player=bob fragment=pe claim_in=90", language: "nl")
        #expect(ScreenTests.plainLines(nl).contains { $0.contains("op te eisen over 1:30") }, "\(ScreenTests.plainLines(nl))")
    }

    @Test("Hangman: the guesser's first guess shows its countdown beside the board, whole at 60×20 in both languages")
    func hangman() {
        for (language, text) in [("en", "aborted in 1:00 without a move"), ("nl", "afgebroken over 1:00 zonder zet")] {
            var s = HFx.playing(language: language)
            s = Fx.run(s, .tick(100), Fx.line("TURN id=9 player=alice pattern=____ missed=- left=8 abort_in=60")).0
            for (w, h) in [(60, 20), (80, 24)] {
                let joined = Issue44Tests.plain(s, w, h, language).joined(separator: " ").split(separator: " ").joined(separator: " ")
                #expect(joined.contains(text), "\(Issue44Tests.plain(s, w, h, language))")
            }
        }
    }
}
