import Testing
@testable import GhostClient
import GhostProtocol

/// The games side by side, scores from the
/// server, a tutorial per variant, one quit key, and the smaller items.
@Suite("Issue 27: the games first, scores, tutorials, quit, the small ones")
struct Issue27PolishTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    @Test("Found 13: the main screen's title names the product, and shows Ghost and Hangman side by side; ←/→ choose, saved")
    func gamesSideBySide() {
        for (language, hangman, title) in [("en", "Hangman", " ghostd · Word games"), ("nl", "Galgje", " ghostd · Woordspellen")] {
            for (w, h) in [(60, 20), (80, 24)] {
                let s = Fx.named("alice", language: language)
                let lines = Issue27PolishTests.plain(s, w, h, language)
                #expect(lines[0].hasPrefix(title), "\(lines[0])")
                #expect(!lines[0].contains("GHOST"))
                // Both games on one row, Ghost chosen (●), with its variants and rounds; Hangman with its modes.
                #expect(lines.contains { $0.contains("● Ghost") && $0.contains("○ " + hangman) }, "\(lines)")
                // At 60×20 (the menu has Friends since #47) each game shows its choices only.
                #expect(lines.contains { $0.contains(w == 60 ? "v [Ghost]" : "v [Ghost] Super") }, "\(lines)")
                #expect(lines.contains { $0.contains(w == 60 ? (language == "en" ? "[evil]" : "[gemeen]")
                                                         : language == "en" ? "[evil] fair phrases" : "[gemeen] eerlijk zinnen") }, "\(lines)")
                let (other, fx) = Fx.run(s, .key(.left))
                #expect(other.config.game == .hangman && fx == [.saveConfig])
                let after = Issue27PolishTests.plain(other, w, h, language)
                #expect(after.contains { $0.contains("○ Ghost") && $0.contains("● " + hangman) }, "\(after)")
                // The menu speaks of the chosen game; 5 names the other one.
                #expect(after.contains { $0.contains(language == "en" ? "o  Other game: Ghost" : "o  Ander spel: Ghost") }, "\(after)")
            }
        }
        // m: a Ghost match, shown in the panel and sent with SEEK.
        let (match, fx) = Fx.run(Fx.named(), .key(.char("m")), .key(.char("1")))
        #expect(Issue27PolishTests.plain(match).contains { $0.contains("m single [match]") })
        #expect(Fx.sent(fx) == ["SEEK rounds=ghost"])
    }

    @Test("Found 13: the main menu is one table; every entry has its own key, Quit is q and asks first")
    func mainMenuTable() {
        let keys = MainMenu.entries.enumerated().map { i, e in e.key ?? "\((i + 1) % 10)" }
        #expect(Set(keys).count == keys.count)
        #expect(MainMenuItem.allCases.last == .quit && keys.last == "q")
        let (s, fx) = Fx.run(Fx.named(), .key(.char("q")))
        #expect(s.confirmQuit && fx.isEmpty)
    }

    @Test("Found 9: the running score is the server's only: a first Hangman duel after Ghost games shows no Ghost record; the computer's games are never counted here")
    func scoresFromTheServerOnly() {
        // alice and bob have a Ghost record; their Ghost game ends.
        var s = Fx.run(Fx.named(), Fx.lines("GAME id=8 game=ghost lang=en players=bob,alice token=\(Fx.token) round=1 record=5-3",
                                            "TURN id=8 player=bob fragment=",
                                            "OVER id=8 winner=alice loser=bob reason=left fragment=")).0
        // Their first Hangman duel: GAME has no record=, so no score, and not the Ghost one.
        s = Fx.run(s, Fx.lines("GAME id=9 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                               "TURN id=9 player=alice pattern=____ missed=- left=8")).0
        #expect(s.game?.record == nil)
        #expect(!Issue27PolishTests.plain(s).contains { $0.contains("So far") }, "\(Issue27PolishTests.plain(s))")
        // Against the computer: games won and lost on this client count for nothing on screen.
        var bot = Fx.named()
        for id in 3...4 {
            bot = Fx.run(bot, Fx.lines("GAME id=\(id) game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
                                       "TURN id=\(id) player=alice fragment=",
                                       "OVER id=\(id) winner=bot-easy loser=alice reason=left fragment=")).0
        }
        bot = Fx.run(bot, Fx.lines("GAME id=5 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
                                   "TURN id=5 player=alice fragment=")).0
        #expect(!Issue27PolishTests.plain(bot).contains { $0.contains("So far") }, "\(Issue27PolishTests.plain(bot))")
        // What the server says is shown, whoever the opponent: a record= on the computer's GAME too.
        let told = Fx.run(Fx.named(), Fx.lines("GAME id=6 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy record=2-5",
                                               "TURN id=6 player=alice fragment=")).0
        #expect(Issue27PolishTests.plain(told).contains { $0.contains("So far: you 2 – 5 the computer (easy)") }, "\(Issue27PolishTests.plain(told))")
    }

    @Test("Found 6: a tutorial page per variant (Ghost, Superghost, bluff and challenge, Hangman), from the main screen and from the game; --game hangman at first start opens Hangman's")
    func tutorialPerVariant() {
        let pages = Strings.en.allTutorialPages.map(\.title)
        #expect(pages.count == Strings.tutorialPageCount && Strings.nl.allTutorialPages.count == Strings.tutorialPageCount)
        #expect(pages[TutorialPage.superghost.index] == "Superghost" && pages[TutorialPage.challenge.index] == "Bluff and challenge")
        #expect(pages[TutorialPage.hangman.index] == "Hangman" && Strings.nl.allTutorialPages[TutorialPage.hangman.index].title == "Galgje")
        // From the main screen: Rules opens the chosen variant's page.
        let superRules = Fx.run(Fx.named(), .key(.char("v")), .key(.char("7"))).0
        #expect(superRules.screen == .tutorial && superRules.settings.tutorialPage == TutorialPage.superghost.index)
        #expect(Issue27PolishTests.plain(superRules).contains { $0.contains("How to play (5/8)") })
        // From a bluff-and-challenge game: ? opens its page, and leaving it goes back to the game.
        var s = Fx.run(Fx.named(), Fx.lines("GAME id=4 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=challenge",
                                            "TURN id=4 player=bob fragment=")).0
        #expect(Issue27PolishTests.plain(s).joined().contains("? rules"))
        s = Fx.run(s, .key(.char("?"))).0
        #expect(s.screen == .tutorial && s.settings.tutorialPage == TutorialPage.challenge.index)
        #expect(Issue27PolishTests.plain(s).contains { $0.contains("Bluff and challenge") })
        s = Fx.run(s, .key(.escape)).0
        #expect(s.screen == .game)
        // First start with --game hangman (saved as game=hangman): Hangman's page.
        var config = ClientConfig(language: "en")
        config.game = .hangman
        let first = ClientState(config: config, serverAddress: "h:1")
        #expect(first.screen == .tutorial && first.settings.tutorialPage == TutorialPage.hangman.index)
        #expect(Issue27PolishTests.plain(first)[0].contains("How to play (7/8)"))
        #expect(Issue27PolishTests.plain(first).contains { $0.trimmingCharacters() == "Hangman" })
        // Choosing the language at first start, too.
        var fresh = ClientConfig()
        fresh.game = .hangman
        let chosen = Fx.run(ClientState(config: fresh, serverAddress: "h:1"), .key(.enter)).0
        #expect(chosen.screen == .tutorial && chosen.settings.tutorialPage == TutorialPage.hangman.index)
    }

    @Test("Found 7: Ctrl-C, the one quit key, is in the main, waiting, game and end screens' key help; q is Esc wherever nothing is typed (the waiting screen cancels), and asks to quit on the main screen")
    func oneQuitKey() {
        // The waiting screen: q cancels the seek, as Esc does.
        let seeking = Fx.run(Fx.named(), .key(.char("1")), Fx.line("OK SEEK lang=en")).0
        #expect(seeking.screen == .waiting)
        let (_, fx) = Fx.run(seeking, .key(.char("q")))
        #expect(Fx.sent(fx) == ["LEAVE"])
        // The computer's levels and the high scores: q goes back.
        #expect(Fx.run(Fx.named(), .key(.char("2")), .key(.char("q"))).0.screen == .main)
        #expect(Fx.run(Fx.over(), .key(.char("q"))).0.screen == .main)
        // In a game q is a letter.
        let (_, play) = Fx.run(Fx.inGame(), .key(.char("q")))
        #expect(Fx.sent(play) == ["LETTER q"])
        // The main, waiting, game and end screens' key help names Ctrl-C, in both languages.
        for language in ["en", "nl"] {
            let quit = language == "en" ? "Ctrl-C quit" : "Ctrl-C stoppen"
            for s in [Fx.named(language: language), Fx.over(language: language), Fx.inGame(language: language),
                      Fx.run(Fx.named(language: language), .key(.char("1")), Fx.line("OK SEEK lang=en")).0] {
                let lines = Issue27PolishTests.plain(s, 60, 20, language)
                #expect(lines.suffix(3).joined(separator: " ").contains(quit), "\(s.screen) \(language): \(lines)")
            }
        }
    }

    @Test("Found 12: the name field refuses ! and a space as they are typed, and says what a name may hold")
    func nameFieldRefusesAtTyping() {
        var s = Fx.run(Fx.named(), .key(.char("9"))).0
        #expect(s.screen == .name)
        s = Fx.run(s, .key(.char("b")), .key(.char("o")), .key(.char("!")), .key(.char(" ")), .key(.char("b"))).0
        #expect(s.namePicker.nameField == "bob")
        #expect(s.alert?.notice == .serverError(code: .badName, text: ""))
        #expect(Issue27PolishTests.plain(s).contains { $0.contains("A name is 1–16 letters, digits, - or _.") })
    }

    @Test("Found 12: while the game menu is open, the claim prompt names c (Esc would close the menu), in both languages")
    func claimPromptWithTheMenuOpen() {
        for (language, closed, open) in [("en", "Esc → claim the win", "c → claim the win"), ("nl", "Esc → de winst opeisen", "c → de winst opeisen")] {
            var s = Fx.run(Fx.inGame(language: language), Fx.lines("ADJOURNED id=7 player=bob grace=60", "CLAIMABLE id=7 player=bob")).0
            #expect(Issue27PolishTests.plain(s, 80, 24, language).joined().contains(closed))
            s = Fx.run(s, .key(.escape)).0
            #expect(s.gameMenuOpen)
            let lines = Issue27PolishTests.plain(s, 80, 24, language).joined()
            #expect(lines.contains(open) && !lines.contains(closed), "\(lines)")
            // And c claims (3 too).
            let (_, fx) = Fx.run(s, .key(.char("c")))
            #expect(Fx.sent(fx) == ["CLAIM"])
        }
    }

    @Test("Found 12: server= is written once a server answered there (HELLO), not for an address where none was reached")
    func serverWrittenOnlyWhenReached() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "zed", server: "10.0.0.1:7777")
        let (dead, deadFx) = Fx.run(ClientState(config: config, serverAddress: "127.0.0.1:1"), .connected, .disconnected, .disconnected)
        #expect(dead.config.server == "10.0.0.1:7777" && !deadFx.contains(.saveConfig))
        let (up, fx) = Fx.run(ClientState(config: config, serverAddress: "127.0.0.1:1"), .connected, Fx.line(Fx.hello))
        #expect(up.config.server == "127.0.0.1:1" && fx.contains(.saveConfig))
    }

    @Test("Found 12: a wrong whole-word answer costs a miss and is listed under Wrong:, after the letters, in both languages")
    func wrongAnswerListed() {
        for language in ["en", "nl"] {
            let s = Fx.run(Issue27Tests.duel(language: language), Fx.lines(
                "MOVE id=2 player=alice letter=e hit=no pattern=____ missed=e left=7",
                "MOVE id=2 player=alice word=pear hit=no pattern=____ missed=e left=6",
                "TURN id=2 player=alice pattern=____ missed=e left=6")).0
            #expect(s.game?.hangman?.wrongWords == ["pear"])
            let label = language == "en" ? "Wrong: E PEAR" : "Fout: E PEAR"
            #expect(Issue27PolishTests.plain(s, 80, 24, language).contains { $0.contains(label) }, "\(Issue27PolishTests.plain(s, 80, 24, language))")
        }
    }
}
