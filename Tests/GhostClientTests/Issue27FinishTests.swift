import Testing
import GhostProtocol
@testable import GhostClient

/// Issue #27's remainder: the score against the computer from the server
/// (found 9), fixed mnemonic letters in the menus (found 7), `tls=` saved
/// only once a server answered (found 12).
@Suite struct Issue27FinishTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    @Test("Found 9: a Hangman game against the computer shows the server's record against it (record=), as Ghost's does")
    func hangmanScoreAgainstTheComputer() {
        let s = Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=6 record=2-5",
            "TURN id=4 player=alice pattern=____ missed=- left=6")).0
        #expect(s.game?.record == HeadToHead(mine: 2, theirs: 5))
        for language in ["en", "nl"] {
            let shown = Issue27FinishTests.plain(s, 80, 24, language)
            let text = language == "en" ? "So far: you 2 – 5 the computer" : "Tot nu toe: jij 2 – 5"
            #expect(shown.contains { $0.contains(text) }, "\(shown)")
        }
        // Without record= (a first game against it) no score.
        let first = Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=6",
            "TURN id=4 player=alice pattern=____ missed=- left=6")).0
        #expect(!Issue27FinishTests.plain(first).contains { $0.contains("So far") })
    }
}
