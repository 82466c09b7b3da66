import Testing
@testable import GhostClient
import GhostProtocol

@Suite("Screens: Hangman")
struct HangmanScreenTests {
    @Test("The gallows: each miss adds a part, and the last miss completes the figure", arguments: [1, 6, 8, 26])
    func gallowsStages(misses: Int) {
        let all = Gallows.drawn(mistakes: misses, misses: misses)
        #expect(all.count == Gallows.partCount)
        var previous: [String]? = nil
        for k in 0...misses {
            let parts = Gallows.drawn(mistakes: k, misses: misses)
            if let previous {
                #expect(parts.count > previous.count, "\(k) of \(misses)")
                #expect(Array(parts.prefix(previous.count)) == previous)
            }
            #expect(!parts.contains("head") || k >= 1, "no head before the first miss")
            previous = parts
        }
        #expect(Gallows.draw(mistakes: misses, misses: misses).joined().contains("O"))
        #expect(Gallows.draw(mistakes: misses - 1, misses: misses) != Gallows.draw(mistakes: misses, misses: misses))
    }

    @Test("With 6 misses the gallows stands, and the misses draw head, body, arms and legs")
    func classicSix() {
        #expect(Gallows.drawn(mistakes: 0, misses: 6).last == "rope")
        let steps = (1...6).map { k in Set(Gallows.drawn(mistakes: k, misses: 6)).subtracting(Gallows.drawn(mistakes: k - 1, misses: 6)) }
        #expect(steps[0] == ["head"])
        #expect(steps[1] == ["body", "body-lower"])
        #expect(steps[2] == ["left-arm", "left-hand"])
        #expect(steps[3] == ["right-arm", "right-hand"])
        #expect(steps[4] == ["left-leg", "left-foot", "left-toe"])
        #expect(steps[5] == ["right-leg", "right-foot", "right-toe"])
        #expect(Gallows.draw(mistakes: 6, misses: 6) == [
            "  ┌─────┐    ",
            "  │/    │    ",
            "  │     O    ",
            "  │    /|\\   ",
            "  │   / | \\  ",
            "  │    / \\   ",
            "  │  _/   \\_ ",
            "═════════════",
        ].map { $0.replacingOccurrences(of: "═════════════", with: "══╧══════════") })
        // 26: one part a miss, from nothing; 1: the whole figure on the one miss.
        #expect(Gallows.drawn(mistakes: 0, misses: 26).isEmpty)
        #expect(Gallows.drawn(mistakes: 1, misses: 26) == ["ground-left"])
        #expect(Gallows.drawn(mistakes: 0, misses: 1).contains("rope") && !Gallows.drawn(mistakes: 0, misses: 1).contains("head"))
        // Out-of-range numbers from the network are clamped, never trusted.
        #expect(Gallows.drawn(mistakes: 99, misses: 0).count == Gallows.partCount)
        #expect(Gallows.drawn(mistakes: -3, misses: 400) == [])
    }

    @Test("Phrase layout: a gap of three spaces between words, apostrophes and hyphens shown, lines break between words")
    func phraseLayout() {
        #expect(HangmanScreens.hangmanPattern("_____/__/____", width: 76) == ["_ _ _ _ _   _ _   _ _ _ _"])
        #expect(HangmanScreens.hangmanPattern("____/'_'/____", width: 76) == ["_ _ _ _   ' _ '   _ _ _ _"])
        #expect(HangmanScreens.hangmanPattern("we__-___e", width: 76) == ["W E _ _ - _ _ _ E"])
        #expect(HangmanScreens.hangmanPattern("________/_______", width: 20) == ["_ _ _ _ _ _ _ _", "_ _ _ _ _ _ _"])
        #expect(HangmanScreens.hangmanPattern("", width: 20) == [""])
        // A word wider than the screen is cut into lines that fit.
        let long = HangmanScreens.hangmanPattern(String(repeating: "_", count: 64), width: 56)
        #expect(long.count == 3 && long.allSatisfy { $0.count <= 56 } && long.joined().filter { $0 == "_" }.count == 64)
        let big = HangmanScreens.hangmanBigPattern("_a/'_", maxWidth: 76)
        #expect(big?.count == BlockFont.height)
        // placeholder, gap, A, gap, word gap (2), gap, apostrophe, gap, placeholder
        #expect(big?[4] == "▄▄▄▄▄" + " " + "█   █" + " " + "  " + " " + " " + " " + "▄▄▄▄▄")
        #expect(big?[0] == "     " + " " + " ███ " + " " + "  " + " " + "█" + " " + "     ")
        #expect(HangmanScreens.hangmanBigPattern(String(repeating: "_", count: 14), maxWidth: 76) == nil)
    }

    @Test("The keyboard marks untried, hit and missed letters differently, with colour and without")
    func keyboardMarks() {
        for colour in [false, true] {
            let rows = HangmanScreens.hangmanKeyboard(found: ["e"], missed: ["a", "q"], width: 80, style: Style(colour: colour))
            let plain = rows.map(Layout.plain)
            #expect(plain[0].contains(" Q✗ [W]  E✓ [R]"))
            #expect(plain[1].contains(" A✗ [S]"))
            #expect(plain[2].contains("[Z] [X]"))
            #expect(plain.allSatisfy { Layout.visibleWidth($0) <= 80 })
            #expect(rows[0].contains("\u{1B}[") == colour)
            if colour {
                #expect(rows[0].contains(Style(colour: true).good(" E✓")) && rows[0].contains(Style(colour: true).bad(" Q✗")))
            }
        }
    }

    static func everyScreen(language: String, colour: Bool) -> [ClientState] {
        let playing = HFx.playing(language: language, colour: colour)
        let midGame = Fx.run(playing, Fx.lines("MOVE id=9 player=alice letter=e hit=yes pattern=_e__ missed=- left=8",
                                               "MOVE id=9 player=alice letter=q hit=no pattern=_e__ missed=aioq left=5")).0
        let menu = Fx.run(midGame, Fx.lines("OFFER id=9 player=bot-hangman kind=restart") + [.key(.escape)]).0
        let answer = Fx.run(midGame, [.key(.char("="))] + Fx.keys("peer")).0
        let phrase = HFx.playing(mode: "phrase", length: 30, pattern: "______/___/____/'_'/____/_____-____", language: language, colour: colour)
        let settings = Fx.run(HFx.lost(language: language, colour: colour), .key(.tab),
                              Fx.line("ERR bad-value hangman-length is any, or a length from 1 to 22 that the en list has words of")).0
        var refused = settings
        refused.hangman.update("hangman-length") { $0.shown = "23"; $0.refusal = Refusal(code: .badValue, text: "hangman-length is any, or a length from 1 to 22 that the en list has words of") }
        let computer = Fx.run(HFx.hangmanMain(language: language, colour: colour), .key(.char("2"))).0
        let scores = Fx.run(HFx.hangmanMain(language: language, colour: colour), [.key(.char("8"))]
                            + (1...30).map { Fx.line("SCORE rank=\($0) name=player\($0) word=aircraft/carrier mistakes=\($0 % 9) misses=8 mode=evil lang=en") }
                            + [Fx.line("OK SCORES count=30 board=hangman-evil")]).0
        var setter = Fx.run(HFx.hangmanMain(language: language, colour: colour),
                            Fx.lines("GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                     "TURN id=2 player=alice pattern= missed=- left=8")).0
        setter = Fx.run(setter, Fx.keys("pea")).0
        let rules = Fx.run(HFx.hangmanMain(language: language, colour: colour), .key(.char("7"))).0
        return [playing, midGame, menu, answer, phrase, HFx.lost(language: language, colour: colour),
                HFx.won(language: language, colour: colour), settings, refused, computer, scores, setter, rules]
    }

    @Test("Every Hangman screen fits 80×24 and 60×20 (and larger), with its key help whole", arguments: ["en", "nl"], [false, true])
    func fits(language: String, colour: Bool) {
        for s in Self.everyScreen(language: language, colour: colour) {
            for (w, h) in [(80, 24), (60, 20), (120, 40), (100, 30)] {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h, "\(s.screen) at \(w)x\(h)")
                for l in lines { #expect(Layout.visibleWidth(l) <= w, "\(s.screen) at \(w)x\(h): \(Layout.plain(l))") }
                // The help line ends in a whole word (not cut).
                let help = Layout.plain(lines[h - 1])
                #expect(Layout.visibleWidth(help) < w || help.hasSuffix("menu") || help.hasSuffix("back") || help.hasSuffix("terug"),
                        "\(s.screen) \(w)x\(h) help: \(help)")
                if !colour { #expect(!lines.joined().contains("\u{1B}")) }
                if s.screen == .hangman(.rules) {
                    // The whole text fits: its last paragraph's last line is there.
                    #expect(lines.contains { $0.contains(language == "nl" ? "ander." : "guesses it.") }, "rules at \(w)x\(h)")
                }
            }
        }
    }

    @Test("Issue 13: with Hangman chosen, the main screen's entries and the quick-match screen speak of Hangman, in both languages")
    func mainScreenSpeaksOfTheChosenGame() {
        func entries(_ s: ClientState) -> [String] {
            ScreenTests.plainLines(s).map { $0.trimmingCharacters() }.filter { $0.range(of: #"^(▶ )?[gcijol?snaq]  "#, options: .regularExpression) != nil }
        }
        #expect(entries(HFx.hangmanMain()) == [
            "g  Quick duel: you set a word or guess one", "c  Play the computer", "i  Set a word for a friend (private duel)",
            "j  Join a private game", "▶ o  Other game: Ghost", "l  Language: English", "?  Rules of Hangman",
            "s  Best games", "n  Change name (alice)", "a  Register your name", "q  Quit",
        ])
        #expect(entries(HFx.hangmanMain(language: "nl")) == [
            "g  Snel een duel: je geeft een woord op of raadt er een", "c  Tegen de computer",
            "i  Een woord opgeven voor een vriend (privéduel)", "j  Meedoen met een privéspel", "▶ o  Ander spel: Ghost",
            "l  Taal: Nederlands", "?  Spelregels van Galgje", "s  Beste spellen", "n  Andere naam (alice)", "a  Je naam registreren", "q  Stoppen",
        ])
        // Ghost's wording when Ghost is chosen, as before.
        #expect(entries(Fx.named()).prefix(3) == ["▶ g  Quick match", "c  Play the computer", "i  New private game"])
        // A Hangman seek: what it looks for, and other games' queues by name.
        let (seek, fx) = Fx.run(HFx.hangmanMain(), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK game=hangman"])
        let waiting = Fx.run(seek, Fx.lines("OK SEEK lang=en", "WAITING game=ghost lang=en count=2",
                                            "WAITING game=hangman lang=nl count=1")).0
        let text = ScreenTests.plainLines(waiting).map { $0.trimmingCharacters() }
        #expect(text.contains("Looking for an opponent for a Hangman duel in English…"))
        #expect(text.contains("Also waiting: 2 players for English, Ghost (single game)."))
        #expect(text.contains("Also waiting: 1 player for Dutch, duel."))
        var dutch = waiting
        dutch.config.language = "nl"
        let nl = ScreenTests.plainLines(dutch).map { $0.trimmingCharacters() }
        #expect(nl.contains("Op zoek naar een tegenstander voor een duel Galgje in het Engels…"))
        #expect(nl.contains("Ook aan het wachten: 2 spelers voor Engels, Ghost (los spel)."))
    }

    @Test("The front side at 80×24: gallows, misses left, the wrong letters, the word and the keyboard")
    func frontSide() {
        let s = HFx.playing()
        let mid = Fx.run(s, Fx.lines("MOVE id=9 player=alice letter=e hit=yes pattern=_e__ missed=- left=8",
                                     "MOVE id=9 player=alice letter=q hit=no pattern=_e__ missed=aq left=6",
                                     "TURN id=9 player=alice pattern=_e__ missed=aq left=6")).0
        let lines = Screens.render(mid).map(Layout.plain)
        #expect(lines[0].hasPrefix(" ghostd · Hangman · evil · English"))
        #expect(lines.contains { $0.contains("Your turn: guess a letter") })
        #expect(lines.contains { $0.contains("Misses left: 6 of 8") })
        #expect(lines.contains { $0.contains("Wrong: A Q") })
        #expect(lines.contains { $0.contains("You guessed Q: miss") })
        #expect(lines.contains { $0.contains("▄▄▄▄▄ █████ ▄▄▄▄▄ ▄▄▄▄▄") })
        #expect(lines.contains { $0.contains("[Q]") } == false)
        #expect(lines.contains { $0.contains(" Q✗ [W]  E✓") })
        // At 60×20 the word is spaced capitals.
        let small = Screens.render(mid, width: 60, height: 20, strings: .en).map(Layout.plain)
        #expect(small.contains { $0.contains("_ E _ _") })
        // Dutch.
        var nl = mid
        nl.config.language = "nl"
        let dutch = Screens.render(nl).map(Layout.plain)
        #expect(dutch[0].hasPrefix(" ghostd · Galgje · gemeen · Engels"))
        #expect(dutch.contains { $0.contains("Nog 6 van 8 missers") } && dutch.contains { $0.contains("Fout: A Q") })
    }

    @Test("The end: a win congratulates with the mistakes; a loss consoles and reveals the word; the list highlights this game")
    func endOfGame() {
        let won = Screens.render(HFx.won()).map(Layout.plain)
        #expect(won.contains { $0.contains("You found it with 2 mistakes. Congratulations!") })
        #expect(won.contains { $0.contains("The word: PEAR") })
        #expect(won.contains { $0.contains("This game is #2 on the list below.") })
        #expect(won.contains { $0.contains("▶    2  alice") && $0.contains("PEAR") && $0.contains("2/8") })
        #expect(won.contains { $0.hasPrefix("       1  bob") })
        #expect(won.last == " r/Enter new game · h review · Tab settings · m/Esc main menu · Ctrl-C quit")

        let lost = Screens.render(HFx.lost()).map(Layout.plain).joined(separator: "\n")
        #expect(lost.contains("Hanged! The computer kept changing its word; in the end it was\n"))
        #expect(lost.contains("“CULL”. Better luck next time."))
        // The sentence names the word; no "The word: CULL" under it.
        #expect(!lost.contains("The word: CULL"))
        #expect(lost.contains("══╧══") && lost.contains("_/   \\_"))
        let dutch = Screens.render(HFx.lost(language: "nl")).map(Layout.plain).joined(separator: " ")
        #expect(dutch.contains("Opgehangen!") && dutch.contains("“CULL”"))
        let wonNl = Screens.render(HFx.won(language: "nl")).map(Layout.plain).joined(separator: " ")
        #expect(wonNl.contains("Je hebt het geraden met 2 fouten. Gefeliciteerd!"))
    }
}
