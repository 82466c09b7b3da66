import Testing
@testable import GhostClient
import GhostProtocol

/// What a new player found, each with a test that fails without its fix.
@Suite("Issue 27: what a new player found")
struct Issue27Tests {
    static func plain(_ s: ClientState, _ w: Int, _ h: Int, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    /// A Hangman duel, game 2, alice guesses bob's word.
    static func duel(language: String = "en") -> ClientState {
        Fx.run(Fx.named("alice", language: language),
               Fx.lines("GAME id=2 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                        "TURN id=2 player=alice pattern=____ missed=- left=8")).0
    }

    @Test("Found 1: at 60×20 the end-of-game menu shows all five entries and the cursor on the last, in both languages")
    func overMenuAt60x20() {
        for language in ["en", "nl"] {
            var s = Fx.over(language: language)
            s = Fx.run(s, .key(.down), .key(.down), .key(.down), .key(.down)).0
            let lines = Issue27Tests.plain(s, 60, 20, language)
            let last = language == "en" ? "s  High scores" : "s  Ranglijst"
            #expect(lines.contains { $0.contains("▶ " + last) }, "\(lines)")
            for key in ["r", "g", "n", "m"] { #expect(lines.contains { $0.contains("  \(key)  ") }, "\(language) entry \(key): \(lines)") }
        }
    }

    @Test("Found 1: at 60×20 the computer's levels and Hangman's settings wrap, never cut, the ▶ kept")
    func levelsAndSettingsAt60x20() {
        let levels = Fx.run(Fx.named(), .key(.char("2"))).0
        let text = Issue27Tests.plain(levels, 60, 20).map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains("▶ e  Easy — any letter that does not lose at once; hints allowed"), "\(text)")
        let nl = Issue27Tests.plain(Fx.run(Fx.named(language: "nl"), .key(.char("2"))).0, 60, 20, "nl")
            .map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(nl.contains("elke letter die niet meteen verliest; hints mogen"), "\(nl)")
        var settings = Fx.run(HFx.hangmanMain(language: "nl"), .key(.char("2")), .key(.char("3"))).0
        settings = Fx.run(settings, Fx.lines("SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any",
                                             "SETTING key=hangman-misses value=8 default=8", "OK SETTINGS")).0
        settings.hangman.settingsRow = HangmanSettingRow.mode.rawValue
        #expect(settings.screen == .hangman(.settings))
        let rows = Issue27Tests.plain(settings, 60, 20, "nl")
        let joined = rows.map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(joined.contains("de computer ontwijkt je gokken"), "\(rows)")
        #expect(rows.contains { $0.contains("▶ Soort") && $0.contains("◀ gemeen ▶") }, "\(rows)")
    }

    @Test("Found 1: the key help wraps between hints, never inside one")
    func keyHelpWholeHints() {
        let s = Fx.named(language: "nl")
        let lines = Issue27Tests.plain(s, 60, 20, "nl")
        for hint in Strings.nl.mainHelp.split(separator: " · ") {
            #expect(lines.contains { $0.contains(hint) }, "\(hint): \(lines)")
        }
    }

    @Test("Found 2: Superghost's next-letter line is whole at 80×24 and 60×20; the opponent's letter says front or end")
    func superghostLine() {
        let s = SuperghostClientTests.inSuper()
        for (w, h) in [(80, 24), (60, 20)] {
            let lines = Issue27Tests.plain(s, w, h).map { $0.trimmingCharacters() }
            #expect(lines.contains("Your letter goes at the end (← front, → end)"), "\(w)×\(h): \(lines)")
        }
        let front = Fx.run(s, Fx.lines("MOVE id=7 player=bob letter=t fragment=tea", "TURN id=7 player=alice fragment=tea")).0
        #expect(Issue27Tests.plain(front, 80, 24).contains { $0.contains("Bob played T at the front") || $0.contains("bob played T at the front") })
        let end = Fx.run(s, Fx.lines("MOVE id=7 player=bob letter=r fragment=ear", "TURN id=7 player=alice fragment=ear")).0
        #expect(Issue27Tests.plain(end, 80, 24).contains { $0.contains("played R at the end") })
        #expect(Issue27Tests.plain(Fx.run(s, .key(.left)).0, 80, 24).contains { $0.contains("goes at the front") })
    }

    @Test("Found 3: Hangman's game menu draws every entry at 80×24 and 60×20; against the computer, no offers or claims")
    func hangmanMenu() {
        let human = Fx.run(Issue27Tests.duel(), .key(.escape)).0
        for (w, h) in [(80, 24), (60, 20)] {
            let lines = Issue27Tests.plain(human, w, h)
            #expect(lines.contains { $0.contains("Back to the game") }, "\(w)×\(h): \(lines)")
            #expect(lines.contains { $0.contains("Claim the win") })
        }
        let computer = Fx.run(HFx.playing(), .key(.escape)).0
        #expect(!PlayFeature.gameMenuItems(computer).contains(.accept) && !PlayFeature.gameMenuItems(computer).contains(.claim))
        let lines = Issue27Tests.plain(computer, 80, 24).joined(separator: "\n")
        #expect(!lines.contains("Accept an offer") && !lines.contains("Decline an offer") && !lines.contains("Claim the win"))
        #expect(lines.contains("Back to the game"))
    }

    @Test("Found 4: the right words: dead fragments, Superghost's contains, last letters, not-a-word, a phrase, no word twice")
    func wrongTexts() {
        #expect(Strings.en.reasonDead("bob", "“QZ”") == "bob made “QZ”: no word continues it.")
        #expect(!Strings.en.reasonDead("bob", "“QZ”").contains("longer"))
        #expect(Strings.nl.finalFragment == "Laatste letters: ")
        // A Superghost game lost on a dead fragment: no word contains it.
        let s = Fx.run(SuperghostClientTests.inSuper(),
                       Fx.lines("MOVE id=7 player=alice letter=q fragment=eaq",
                                "OVER id=7 winner=bob loser=alice reason=dead fragment=eaq")).0
        let text = Issue27Tests.plain(s, 80, 24).joined(separator: " ")
        #expect(text.contains("“EAQ”: no word contains it."), "\(text)")
        // Not a word: its length before the language.
        #expect(Strings.en.hangman.notice(.notAWord(word: "peach", lang: "en", length: 9), .en) == "“PEACH” is not a 9-letter word in English.")
        // A phrase is a phrase; the word is not repeated under a sentence that names it.
        #expect(Strings.en.hangman.theWord("TIME FLIES") == "The phrase: TIME FLIES")
        #expect(Strings.nl.hangman.theWord("PEER") == "Het woord: PEER")
        let lost = Issue27Tests.plain(HFx.lost(), 80, 24).joined(separator: "\n")
        #expect(!lost.contains("The word: CULL"))
    }

    @Test("Found 5: on my own screen I am 'you': the round's end says why and which letter I earn; my letter, my guess, my loss", arguments: ["en", "nl"])
    func secondPerson(language: String) {
        let en = language == "en"
        var s = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines("MOVE id=5 player=alice letter=z fragment=zook",
                                                                          "OVER id=5 winner=bob loser=alice reason=word fragment=zook ghost=G,")).0
        s.config.language = language
        var text = Issue27Tests.plain(s, 80, 24, language).map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains(en ? "You completed “ZOOK”, a word of more than 3 letters. You earn the letter G."
                                 : "Je maakte “ZOOK”, een woord van meer dan 3 letters. Je krijgt de letter G."), "\(text)")
        #expect(!text.contains("alice made") && !text.contains("alice maakte"))
        // The opponent's loss says why too.
        let theirs = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines("MOVE id=5 player=alice letter=q fragment=q",
                                                                               "MOVE id=5 player=bob letter=z fragment=qz",
                                                                               "OVER id=5 winner=alice loser=bob reason=dead fragment=qz ghost=,G")).0
        text = Issue27Tests.plain(theirs, 80, 24, language).map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains(en ? "bob made “QZ”: no word continues it. bob earns the letter G."
                                 : "bob maakte “QZ”: daar gaat geen woord mee verder. bob krijgt de letter G."), "\(text)")
        // My last letter.
        let mine = Fx.run(Fx.inGame(fragment: "p"), Fx.line("TURN id=7 player=bob fragment=p")).0
        text = Issue27Tests.plain(mine, 80, 24, language).joined(separator: " ")
        #expect(text.contains(en ? "You played P" : "Jij speelde P"), "\(text)")
        // A game I lost, in the second person.
        var lost = Fx.run(Fx.inGame(fragment: "pea"), Fx.lines("OVER id=7 winner=bob loser=alice reason=word fragment=peal")).0
        lost.config.language = language
        text = Issue27Tests.plain(lost, 80, 24, language).map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains(en ? "You completed “PEAL”" : "Je maakte “PEAL”"), "\(text)")
        // Hangman: my guess.
        let guess = Fx.run(HFx.playing(), Fx.lines("MOVE id=9 player=alice letter=e hit=no pattern=____ missed=e left=7",
                                                   "TURN id=9 player=alice pattern=____ missed=e left=7")).0
        text = Issue27Tests.plain(guess, 80, 24, language).joined(separator: " ")
        #expect(text.contains(en ? "You guessed E: miss" : "Je raadde E: mis"), "\(text)")
    }

    @Test("Found 6: the variant is named in the title bar of the game, the waiting and level screens, and when watching")
    func variantVisible() {
        let superghost = SuperghostClientTests.inSuper()
        #expect(Issue27Tests.plain(superghost, 80, 24)[0].contains("Superghost · English · round 1"))
        #expect(Issue27Tests.plain(Fx.inGame(), 80, 24)[0].contains("Ghost · English · round 1"))
        let waiting = Fx.run(Fx.named(), .key(.char("v")), .key(.char("1")), Fx.line("OK SEEK lang=en")).0
        #expect(Issue27Tests.plain(waiting, 80, 24)[0].contains("Superghost"), "\(Issue27Tests.plain(waiting, 80, 24)[0])")
        let hosting = Fx.run(Fx.named(), .key(.char("v")), .key(.char("3")), Fx.line("OK NEW code=4EG7R lang=en")).0
        #expect(Issue27Tests.plain(hosting, 80, 24)[0].contains("Superghost"))
        let levels = Fx.run(Fx.named(), .key(.char("v")), .key(.char("2"))).0
        #expect(Issue27Tests.plain(levels, 80, 24)[0].contains("Superghost"))
        var watched = superghost
        watched.game?.watching = true
        #expect(Issue27Tests.plain(watched, 80, 24)[0].contains("Superghost"))
    }

    @Test("Found 7: every game menu entry has the same letter in every game (Leave is l against a person, Hard and Easy; its digit 9 works too); changing the language and quitting ask first")
    func keysThatNeverMove() {
        let human = Fx.run(Fx.inGame(), .key(.escape)).0
        let hard = Fx.run(Fx.named(), Fx.lines("GAME id=4 game=ghost lang=en players=bot-hard,alice token=\(Fx.token) round=1 bot=hard",
                                               "TURN id=4 player=alice fragment=")).0
        let easy = Fx.run(ReducerComputerAndMatchTests.matchGame(bot: "easy"), .key(.escape)).0
        for s in [human, Fx.run(hard, .key(.escape)).0, easy] {
            let lines = Issue27Tests.plain(s, 80, 24)
            #expect(lines.contains { $0.contains("l  Leave the game") }, "\(lines)")
            #expect(lines.contains { $0.contains("b  Back to the game") })
            #expect(lines.contains { $0.contains("r  Restart the round") })
            #expect(lines.contains { $0.contains("n  Play in Dutch") })
            for key in ["l", "9"] {
                let (left, fx) = Fx.run(s, .key(.char(Character(key))))
                #expect(left.confirmLeave && fx.isEmpty)
            }
        }
        #expect(Issue27Tests.plain(easy, 80, 24).contains { $0.contains("h  Hint") })
        // n (Nederlands) against Easy: asks before restarting in Dutch; n keeps playing, y sends LANG.
        var (s, fx) = Fx.run(easy, .key(.char("n")))
        #expect(fx.isEmpty && s.confirmLanguage == "nl")
        #expect(Issue27Tests.plain(s, 80, 24).contains { $0.contains("Play in Dutch and restart the round? y: yes · n: no") })
        (s, fx) = Fx.run(s, .key(.char("n")))
        #expect(fx.isEmpty && s.confirmLanguage == nil && !s.gameMenuOpen)
        (s, fx) = Fx.run(s, .key(.escape), .key(.char("n")), .key(.char("y")))
        #expect(Fx.sent(fx) == ["LANG nl"])
        // q on the main screen asks first.
        var main = Fx.named()
        (main, fx) = Fx.run(main, .key(.char("q")))
        #expect(fx.isEmpty && main.confirmQuit)
        #expect(Issue27Tests.plain(main, 60, 20).contains { $0.contains("Quit the program? y: yes · n: no") })
        (main, fx) = Fx.run(main, .key(.char("n")))
        #expect(fx.isEmpty && !main.confirmQuit && main.screen == .main)
        (main, fx) = Fx.run(main, .key(.char("q")), .key(.char("y")))
        #expect(fx == [.quit])
    }

    @Test("Found 8: a refused setting goes back to the saved value; Enter on the settings starts the mode shown, not the last kind played")
    func hangmanSettings() {
        var s = Fx.run(HFx.hangmanMain(), .key(.char("2")), .key(.char("3"))).0
        s = Fx.run(s, Fx.lines("SETTING key=hangman-mode value=fair default=evil", "SETTING key=hangman-length value=any default=any",
                               "SETTING key=hangman-misses value=26 default=8", "OK SETTINGS")).0
        s = Fx.run(s, .key(.down), .key(.right), Fx.line("ERR bad-value hangman-misses is a number from 1 to 26")).0
        let lines = Issue27Tests.plain(s, 80, 24)
        #expect(lines.contains { $0.contains("Misses allowed  ◀ 26 ▶") }, "\(lines)")
        #expect(!lines.contains { $0.contains("◀ 27 ▶") })
        #expect(lines.contains { $0.contains("Refused: the server does not allow 27 here; your saved value stays.") })
        // The last game was a duel (the computer guessing): Enter on the settings starts the mode shown.
        s.hangman.lastNew = .new(GameOptions(game: .hangman, settings: ["mode": "duel", "bot": "guesser"]))
        let (_, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["NEW game=hangman"])
    }

    @Test("Found 11: a window whose game was resumed in another window takes it back when its player picks the name again; the token is kept")
    func twoWindows() {
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("BYE replaced your seat in game 7 was resumed from another connection"),
                             .disconnected, .connected, Fx.line(Fx.hello))
        #expect(s.screen == .name && s.seatTaken && s.config.token == Fx.token)
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK NAMES count=0"))
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["RESUME \(Fx.token)"])
        #expect(s.screen == .resuming && !s.seatTaken && s.config.token == Fx.token)
        (s, fx) = Fx.run(s, Fx.lines("GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                                     "TURN id=7 player=alice fragment=pe"))
        #expect(s.screen == .game && s.game?.ghost?.fragment == "pe")
    }

    @Test("Found 12 (part): places in rank order; the code field takes no '-'; Hangman's question takes n; the setter's = opens no answer; no 'Esc back' before a name is held")
    func smallerItems() {
        // RANK lines out of order: #1 is listed first.
        let over = Fx.run(Fx.inGame(fragment: "pea"), Fx.lines("OVER id=7 winner=bob loser=alice reason=word fragment=pear",
                                                              "RANK name=bob rank=2 wins=1", "RANK name=alice rank=1 wins=3")).0
        let lines = Issue27Tests.plain(over, 80, 24)
        let first = lines.firstIndex { $0.contains("#1  alice") }, second = lines.firstIndex { $0.contains("#2  bob") }
        #expect(first != nil && second != nil && first! < second!, "\(lines)")
        // The join code: letters and digits only.
        let join = Fx.run(Fx.named(), [.key(.char("4"))] + Fx.keys("4e-g")).0
        #expect(join.codeField == "4EG" && join.alert?.notice == .typeACode)
        // Hangman's "start a new game?" takes n like Ghost's questions.
        var (h, fx) = Fx.run(HFx.playing(), .key(.enter))
        #expect(h.hangman.confirmNew)
        (h, fx) = Fx.run(h, .key(.char("n")))
        #expect(!h.hangman.confirmNew && fx.isEmpty)
        #expect(Issue27Tests.plain(Fx.run(HFx.playing(), .key(.enter)).0, 80, 24).contains { $0.contains("y: yes · n: no") })
        // The setter of a duel: = opens no answer field for their own word.
        let setter = Fx.run(Fx.named("bob"), Fx.lines("GAME id=2 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                                     "MOVE id=2 player=bob word=pear pattern=____",
                                                     "TURN id=2 player=alice pattern=____ missed=- left=8")).0
        #expect(Fx.run(setter, .key(.char("="))).0.hangman.answer == nil)
        // First start: the name screen offers no Esc.
        var fresh = ClientState(config: ClientConfig(language: "en", tutorialSeen: true, server: "h:1"), serverAddress: "h:1")
        fresh = Fx.run(fresh, .connected, Fx.line(Fx.hello)).0
        #expect(fresh.screen == .name)
        #expect(!Issue27Tests.plain(fresh, 80, 24).contains { $0.contains("Esc back") })
        #expect(Issue27Tests.plain(fresh, 80, 24).contains { $0.contains("Enter confirm") })
    }
}
