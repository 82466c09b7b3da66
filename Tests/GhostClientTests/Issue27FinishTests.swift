import Testing
import GhostProtocol
@testable import GhostClient

/// The score against the computer from the server, fixed mnemonic letters
/// in the menus, `tls=` saved only once a server answered.
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

    /// The game menu of a game, open.
    static func menu(_ lines: [String]) -> ClientState {
        Fx.run(Fx.run(Fx.named(), lines.map { Fx.line($0) }).0, .key(.escape)).0
    }

    @Test("Found 7: the game menu is modal: its letters pick entries (l leave, r restart, a accept, d decline, c claim, h hint, e/n language, b back), the same in every game and both languages, shown in the entry; no letter is a move while it is open")
    func mnemonicLetters() {
        let human = Issue27FinishTests.menu(["GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1", "TURN id=7 player=alice fragment="])
        let easy = Issue27FinishTests.menu(["GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy", "TURN id=4 player=alice fragment="])
        let hard = Issue27FinishTests.menu(["GAME id=4 game=ghost lang=en players=bot-hard,alice token=\(Fx.token) round=1 bot=hard", "TURN id=4 player=alice fragment="])
        let evil = Issue27FinishTests.menu(["GAME id=5 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=6",
                                            "TURN id=5 player=alice pattern=____ missed=- left=6"])
        let duel = Issue27FinishTests.menu(["GAME id=6 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                            "TURN id=6 player=alice pattern=____ missed=- left=8"])
        for s in [human, easy, hard, evil, duel] {
            #expect(s.gameMenuOpen)
            let letters = PlayFeature.gameMenuItems(s).map { $0.letter(languages: s.serverLanguages) }
            #expect(Set(letters).count == letters.count, "\(letters)")
            for language in ["en", "nl"] {
                let lines = Issue27FinishTests.plain(s, 80, 24, language)
                for (item, letter) in zip(PlayFeature.gameMenuItems(s), letters) {
                    #expect(lines.contains { $0.contains(" \(letter)  ") }, "\(item) \(letter): \(lines)")
                }
                #expect(lines.contains { $0.contains(language == "en" ? "l  Leave the game" : "l  ") })
            }
            // l asks before leaving, and sends nothing (no LETTER l).
            var (left, fx) = Fx.run(s, .key(.char("l")))
            #expect(left.confirmLeave && fx.isEmpty)
            (left, fx) = Fx.run(left, .key(.char("y")))
            #expect(Fx.sent(fx) == ["LEAVE"])
            // r restarts; b, q and Esc go back to the game; a letter of no entry plays nothing.
            #expect(Fx.sent(Fx.run(s, .key(.char("r"))).1) == ["RESTART"])
            for back in [ClientEvent.key(.char("b")), .key(.char("q")), .key(.escape)] {
                let (closed, none) = Fx.run(s, back)
                #expect(!closed.gameMenuOpen && none.isEmpty)
            }
            let (still, nothing) = Fx.run(s, .key(.char("z")))
            #expect(still.gameMenuOpen && nothing.isEmpty)
            // n asks before playing in Dutch (e: English is the game's own).
            let (dutch, asked) = Fx.run(s, .key(.char("n")))
            #expect(dutch.confirmLanguage == "nl" && asked.isEmpty)
            // Closed, letters are moves again.
            #expect(Fx.sent(Fx.run(s, .key(.escape), .key(.char("z"))).1) == ["LETTER z"])
        }
        // The keys of the entries each game has: h only against Easy; a, d, c only against a person.
        #expect(Fx.sent(Fx.run(easy, .key(.char("h"))).1) == ["HINT"])
        let offered = Fx.run(human, Fx.lines("OFFER id=7 player=bob kind=restart")).0
        #expect(Fx.sent(Fx.run(offered, .key(.char("a"))).1) == ["ACCEPT"])
        #expect(Fx.sent(Fx.run(offered, .key(.char("d"))).1) == ["DECLINE"])
        let away = Fx.run(human, Fx.lines("ADJOURNED id=7 player=bob grace=60", "CLAIMABLE id=7 player=bob")).0
        #expect(Fx.sent(Fx.run(away, .key(.char("c"))).1) == ["CLAIM"])
        // The digits still work.
        #expect(Fx.run(human, .key(.char("9"))).0.confirmLeave)
    }

    @Test("Found 7: the game-over menu's letters (r rematch, g new game, n name, m main, s scores), shown in it in both languages; Hangman's end takes r and m too")
    func overMenuLetters() {
        for language in ["en", "nl"] {
            let s = Fx.over(language: language)
            let lines = Issue27FinishTests.plain(s, 60, 20, language)
            for letter in ["r", "g", "n", "m", "s"] { #expect(lines.contains { $0.contains(" \(letter)  ") }, "\(letter): \(lines)") }
        }
        #expect(Fx.sent(Fx.run(Fx.over(), .key(.char("r"))).1) == ["REMATCH"])
        #expect(Fx.run(Fx.over(), .key(.char("m"))).0.screen == .main)
        #expect(Fx.run(Fx.over(), .key(.char("n"))).0.screen == .name)
        #expect(Fx.sent(Fx.run(Fx.over(), .key(.char("g"))).1).first?.hasPrefix("SEEK") == true)
        // Hangman's end: m goes to the main screen, r plays again.
        let ended = HFx.lost()
        #expect(Fx.run(ended, .key(.char("m"))).0.screen == .main)
        #expect(Fx.sent(Fx.run(ended, .key(.char("r"))).1).first?.hasPrefix("NEW game=hangman") == true)
    }

    @Test("Found 7: one quit key, Ctrl-C, named in the key help of every screen (the layout test checks every state), in both languages")
    func quitKeyEverywhere() {
        let screens: [ClientState] = [
            ClientState(config: ClientConfig(), serverAddress: "x:1"),                       // language
            Fx.run(Fx.named(), .key(.char("2"))).0,                                           // computer levels
            Fx.run(Fx.named(), .key(.char("4"))).0,                                           // join
            Fx.run(Fx.named(), .key(.char("7"))).0,                                           // rules
            Fx.run(Fx.named(), .key(.char("w"))).0,                                           // watch list
            Fx.run(Fx.inGame(), .key(.escape)).0,                                             // game menu
            HFx.lost(),                                                                       // Hangman's end
        ]
        for s in screens {
            for language in ["en", "nl"] {
                let lines = Issue27FinishTests.plain(s, 60, 20, language).suffix(3).joined()
                #expect(lines.contains(language == "en" ? "Ctrl-C quit" : "Ctrl-C stoppen"), "\(s.screen) \(language): \(lines)")
            }
        }
    }
}
