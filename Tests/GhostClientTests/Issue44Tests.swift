import Testing
@testable import GhostClient
import GhostProtocol

/// A new player's findings, the client's side.
@Suite("Issue 44: a new player's findings")
struct Issue44Tests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    @Test("Item 1: ? in a Hangman game opens Hangman's rules, and Esc goes back to the same Hangman screen, where letters are guesses")
    func rulesInHangman() {
        for language in ["en", "nl"] {
            var s = HFx.playing(language: language)
            s = Fx.run(s, .key(.char("?"))).0
            #expect(s.screen == .tutorial && s.settings.tutorialPage == TutorialPage.hangman.index)
            let title = language == "en" ? "Hangman" : "Galgje"
            #expect(Issue44Tests.plain(s, 80, 24, language).contains { $0.trimmingCharacters() == title },
                    "\(Issue44Tests.plain(s, 80, 24, language))")
            let (back, fx) = Fx.run(s, .key(.escape))
            #expect(back.screen == .hangman(.play) && fx.isEmpty)
            let lines = Issue44Tests.plain(back, 80, 24, language)
            #expect(lines.contains { $0.contains(language == "en" ? "Misses left: 8 of 8" : "8 van 8") }, "\(lines)")
            #expect(!lines.contains { $0.contains("no letters yet") || $0.contains("Computer (hangman) vs") }, "\(lines)")
            // A letter is a guess, and the screen shows it.
            let (guessed, sent) = Fx.run(back, .key(.char("e")),
                                         Fx.line("MOVE id=9 player=alice letter=e hit=no pattern=____ missed=e left=7"))
            #expect(Fx.sent(sent) == ["LETTER e"])
            #expect(Issue44Tests.plain(guessed, 80, 24, language).contains { $0.contains(language == "en" ? "Misses left: 7 of 8" : "7 van 8") })
        }
        // Ghost's ? still opens its variant's page and goes back to its board.
        let ghost = Fx.run(Fx.inGame(), .key(.char("?")), .key(.escape)).0
        #expect(ghost.screen == .game)
    }

    @Test("Item 2: the name logged in from another window: this one says so, and does not log in again on reconnecting")
    func signedOutByAnotherWindow() {
        for (language, text) in [("en", "You logged in from another window; this one is signed out."),
                                 ("nl", "Je bent in een ander venster ingelogd; in dit venster ben je afgemeld.")] {
            // bob, logged in with his password (kept in memory for reconnecting).
            var (s, fx) = Fx.run(AFx.login("bob", language: language),
                                 AFx.type("correct horse") + [.key(.enter), Fx.line("OK NAME name=bob lang=\(language) registered=yes")])
            #expect(s.screen == .main && s.named)
            // Another window logs in as bob: this connection loses the name (an
            // INFO, free text), then the server closes it for having none.
            (s, fx) = Fx.run(s, Fx.line("INFO bob logged in on another connection; send NAME to pick a name."),
                             Fx.line("BYE name-timeout no NAME or RESUME within 60 s"), .disconnected)
            #expect(s.alert?.notice == .signedOut)
            // Back online: no NAME, no password; the name screen says why.
            (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
            #expect(!AFx.sent(fx).contains { $0.hasPrefix("NAME ") }, "\(AFx.sent(fx))")
            #expect(s.screen == .name && s.alert?.notice == .signedOut && !s.named)
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44Tests.plain(s, w, h, language).joined(separator: " ")
                    .split(separator: " ").joined(separator: " ")
                #expect(lines.contains(text), "\(Issue44Tests.plain(s, w, h, language))")
            }
            // A later drop (the name screen waits without a name) logs in nothing either.
            (s, fx) = Fx.run(s, Fx.line("OK LANG lang=\(language)"), Fx.line("OK NAMES count=0"),
                             Fx.line("BYE name-timeout no NAME or RESUME within 60 s"), .disconnected, .connected, Fx.line(Fx.hello))
            #expect(!AFx.sent(fx).contains { $0.hasPrefix("NAME ") }, "\(AFx.sent(fx))")
            // By hand, the name is taken again (with the password kept).
            (s, fx) = Fx.run(s, Fx.line("OK LANG lang=\(language)"), Fx.line("OK NAMES count=0"), .key(.enter))
            #expect(AFx.sent(fx) == ["NAME bob correct horse"])
        }
        // A connection closed for want of a name it never had is no such news.
        let (unnamed, _) = Fx.run(Fx.online(), Fx.line("BYE name-timeout no NAME or RESUME within 60 s"), .disconnected)
        #expect(unnamed.alert?.notice != .signedOut)
    }

    @Test("Item 6: on a clock the key help says your clock keeps running (never that the game waits), in both languages, whole at 60×20")
    func clockKeyHelp() {
        for (language, waits, runs) in [("en", "(the game waits", "Ctrl-C quit (your clock keeps running)"),
                                        ("nl", "(het spel wacht", "Ctrl-C stoppen (je klok loopt door)")] {
            for variant in ["", " variant=challenge"] {
                var s = Fx.named("alice", language: language)
                s = Fx.run(s, Fx.keys("3") + Fx.lines("OK NEW code=4EG7R lang=en",
                                                      "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1\(variant) clock=30",
                                                      "TURN id=7 player=alice fragment= clock=30")).0
                for (w, h) in [(60, 20), (80, 24)] {
                    let lines = ScreenTests.plainLines(s, w, h)
                    #expect(lines.contains { $0.contains(runs) }, "\(lines.joined(separator: "\n"))")
                    #expect(!lines.contains { $0.contains(waits) }, "\(lines.joined(separator: "\n"))")
                }
            }
            // Without a clock the game does wait for you, and the help says so.
            let plain = ScreenTests.plainLines(Fx.inGame(language: language), 60, 20)
            #expect(plain.contains { $0.contains(waits) }, "\(plain.joined(separator: "\n"))")
        }
    }

    @Test("Item 8: behind the request for a larger window keys play nothing (Ctrl-C still asks), and the request names the game played")
    func keysBehindTheTooSmallNotice() {
        for (language, ghost, hangman) in [("en", "Make the window larger: Ghost needs 60×20", "Make the window larger: Hangman needs 60×20"),
                                           ("nl", "Maak het venster groter: Ghost heeft 60×20", "Maak het venster groter: Galgje heeft 60×20")] {
            var (s, fx) = Fx.run(HFx.playing(language: language), .resize(width: 50, height: 12), .key(.char("e")), .key(.char("=")),
                                 .key(.enter), .key(.tab), .key(.escape), .key(.char("?")))
            #expect(fx.isEmpty && s.screen == .hangman(.play) && !s.gameMenuOpen && s.hangman.answer == nil && !s.hangman.confirmNew)
            let text = Issue44Tests.plain(s, 50, 12, language).joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(text.contains(hangman), "\(text)")
            // Ctrl-C asks, as everywhere; n goes back.
            (s, fx) = Fx.run(s, .key(.ctrlC))
            #expect(s.confirmQuit)
            s = Fx.run(s, .key(.char("n"))).0
            #expect(!s.confirmQuit)
            // A larger window: letters are guesses again.
            (s, fx) = Fx.run(s, .resize(width: 60, height: 20), .key(.char("e")))
            #expect(Fx.sent(fx) == ["LETTER e"])
            // A Ghost game's request names Ghost.
            let g = Fx.run(Fx.inGame(language: language), .resize(width: 40, height: 10)).0
            let gtext = Issue44Tests.plain(g, 40, 10, language).joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(gtext.contains(ghost), "\(gtext)")
            #expect(Fx.run(g, .key(.char("p"))).1.isEmpty)
        }
    }

    @Test("Item 10: a private Hangman duel waits under Hangman's name, a private Ghost game under its variant's")
    func privateDuelWaitingTitle() {
        for (language, title) in [("en", "Waiting for an opponent · Hangman"), ("nl", "Galgje")] {
            let s = Fx.run(HFx.hangmanMain(language: language), .key(.char("3")),
                           Fx.line("OK NEW code=DNW73 game=hangman mode=duel lang=en length=4 misses=8")).0
            #expect(s.screen == .waiting)
            for (w, h) in [(60, 20), (80, 24)] {
                let top = Issue44Tests.plain(s, w, h, language)[0]
                #expect(top.contains(title) && !top.contains("Ghost"), "\(top)")
            }
        }
        let ghost = Fx.run(Fx.named(), .key(.char("3")), Fx.line("OK NEW code=4EG7R lang=en")).0
        #expect(Issue44Tests.plain(ghost)[0].contains("Waiting for an opponent · Ghost"))
    }

    @Test("Item 11: the setter's keys are a setter's once the word is set, and a refused word's message goes once a word is accepted")
    func setterScreen() {
        for (language, guessKeys, setterKeys) in [("en", "a–z guess", "your word is set: the guesses come here"),
                                                  ("nl", "a–z raad", "je woord staat: de gokken komen hier")] {
            var s = Fx.run(HFx.hangmanMain(language: language), .key(.char("3")),
                           Fx.line("OK NEW code=DNW73 game=hangman mode=duel lang=en length=4 misses=8")).0
            s = Fx.run(s, Fx.lines("GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                   "TURN id=2 player=alice pattern= missed=- left=8")).0
            s = Fx.run(s, Fx.keys("zzzz") + [.key(.enter), Fx.line("ERR not-a-word \"zzzz\" is not a word of the en list")]).0
            #expect(s.alert != nil)
            s = Fx.run(s, [.key(.backspace), .key(.backspace), .key(.backspace), .key(.backspace)] + Fx.keys("pear") + [.key(.enter)]).0
            s = Fx.run(s, Fx.lines("OK WORD length=4 pattern=____ missed=- left=8",
                                   "MOVE id=2 player=alice length=4 pattern=____ missed=- left=8",
                                   "TURN id=2 player=bob pattern=____ missed=- left=8")).0
            #expect(s.alert == nil)
            for (w, h) in [(60, 20), (80, 24)] {
                let text = Issue44Tests.plain(s, w, h, language).joined(separator: " ").split(separator: " ").joined(separator: " ")
                #expect(text.contains(setterKeys) && !text.contains(guessKeys), "\(text)")
                #expect(!text.contains("ZZZZ"), "\(text)")
            }
            // The guesser's screen keeps the guesser's keys.
            var b = Fx.run(HFx.hangmanMain("bob", language: language), .key(.char("4")), .key(.char("d")), .key(.enter)).0
            b = Fx.run(b, Fx.lines("OK JOIN code=DNW73 lang=en",
                                   "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                   "TURN id=2 player=bob pattern=____ missed=- left=8")).0
            #expect(Issue44Tests.plain(b, 80, 24, language).joined(separator: " ").contains(guessKeys))
        }
    }
}
