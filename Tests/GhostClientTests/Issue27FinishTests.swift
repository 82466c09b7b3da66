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

    @Test("Found 12: tls= and tls-ca= are written with server= once a server answered there (HELLO), not at start nor for an address where none was reached")
    func tlsWrittenOnlyWhenReached() throws {
        let options = try ClientOptions.parse(["--tls-ca", "/etc/ghost.pem", "g.example:7778"]).get()
        let before = ClientConfig(language: "en", tutorialSeen: true, lastName: "zed", server: "10.0.0.1:7777")
        // At start nothing of the connection is saved.
        let started = ClientApp.applying(options, to: before)
        #expect(started == before && !started.rendered.contains("tls"))
        var state = ClientState(config: started, serverAddress: "g.example:7778")
        state.connectionTLS = ConnectionTLS(tls: true, caFile: "/etc/ghost.pem")
        // No server there: still nothing.
        let (dead, deadFx) = Fx.run(state, .connected, .disconnected, .disconnected)
        #expect(dead.config == before && !deadFx.contains(.saveConfig))
        // It answered: the server with its TLS.
        let (up, fx) = Fx.run(state, .connected, Fx.line(Fx.hello))
        #expect(up.config.server == "g.example:7778" && up.config.tls && up.config.tlsCA == "/etc/ghost.pem" && fx.contains(.saveConfig))
        #expect(up.config.rendered.contains("server=g.example:7778\n") && up.config.rendered.contains("tls=yes\ntls-ca=/etc/ghost.pem\n"))
        // A plain server answering where a TLS one was saved: plain is saved.
        var plain = ClientState(config: up.config, serverAddress: "other:1")
        plain.connectionTLS = ConnectionTLS(tls: false)
        let (other, _) = Fx.run(plain, .connected, Fx.line(Fx.hello))
        #expect(!other.config.tls && other.config.tlsCA == nil && other.config.server == "other:1")
    }
}
