import Testing
import GhostProtocol
@testable import GhostClient

/// ghost-client and `ABORTED`: a game of the player's that ended
/// with no score takes them back to the main screen, saying why, in English
/// and Dutch; the token is spent.
@Suite struct AbortedClientTests {
    @Test("ABORTED during a game: back to the main screen, the token spent, why in words")
    func abortedDuringAGame() {
        var (s, fx) = Fx.run(Fx.inGame(), Fx.line("ABORTED id=7 reason=no-first-move"))
        #expect(s.game == nil)
        #expect(s.screen == .main)
        #expect(s.config.token == nil)
        #expect(fx.contains(.saveConfig))
        #expect(s.alert?.notice == .aborted(.noFirstMove))
        #expect(Screens.noticeText(s.alert!.notice, .en) == "The game was aborted: the first move did not come in time. Nobody wins.")
        #expect(Screens.noticeText(.aborted(.untouched), .nl) == "Het spel is afgebroken: het lag te lang stil. Niemand wint.")
        // Another game's ABORTED changes nothing.
        (s, fx) = Fx.run(Fx.inGame(), Fx.line("ABORTED id=8 reason=untouched"))
        #expect(s.game?.id == 7 && fx.isEmpty)
    }

    @Test("RESUME of an aborted game's token: OK RESUME status=over, then ABORTED with ended=")
    func abortedWhileAway() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", token: Fx.token)
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello))
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=7 status=over", "ABORTED id=7 reason=untouched ended=1700001160"))
        #expect(s.screen == .main)
        #expect(s.config.token == nil)
        #expect(Fx.sent(fx) == ["NAME alice"])
        #expect(s.alert?.notice == .aborted(.untouched))
        #expect(Screens.noticeText(.aborted(.untouched), .en) == "The game was aborted: nobody played it for too long. Nobody wins.")
    }

    @Test("Why a game was aborted is shown whole at 60×20, in English and Dutch")
    func abortedFitsTheSmallestWindow() {
        for lang in ["en", "nl"] {
            for reason in [AbortReason.noFirstMove, .untouched, .left] {
                var s = Fx.inGame()
                s.config.language = lang
                (s, _) = Fx.run(s, Fx.line("ABORTED id=7 reason=\(reason.rawValue)"))
                let lines = ScreenTests.plainLines(s, 60, 20)
                let text = Screens.noticeText(.aborted(reason), lang == "nl" ? .nl : .en)
                let shown = lines.map { $0.trimmingCharacters() }.joined(separator: " ")
                #expect(shown.contains(text), "\(lang) \(reason.rawValue):\n\(lines.joined(separator: "\n"))")
            }
        }
    }
}
