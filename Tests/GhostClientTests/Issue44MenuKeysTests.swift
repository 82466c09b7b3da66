import Testing
@testable import GhostClient
import GhostProtocol

/// One key style everywhere. The main menu, the level
/// screen, Hangman's computer screen and the language screen show a letter
/// before each entry, as the game and game-over menus do; each letter
/// chooses its entry, the same in both languages; the digits of before still
/// work. (The layout test checks every menu it draws: keys are letters, no
/// two alike.)
@Suite("Client: one key style in every menu (issue #44 item 26)")
struct Issue44MenuKeysTests {
    /// The main screen's own keys beside its menu: clock, variant, rounds,
    /// watchers, watching, your games.
    static let mainScreenKeys: Set<String> = ["t", "v", "m", "p", "w", "h"]

    @Test("Each main menu entry's letter does what choosing it with ↓ and Enter does, with Ghost and with Hangman chosen, in both languages")
    func mainLetters() {
        for language in ["en", "nl"] {
            for var start in [Fx.named(language: language), HFx.hangmanMain(language: language)] {
                // The cursor on the first entry, so that i times ↓ reaches entry i.
                start.menuIndex = 0
                for (i, key) in MainMenu.keys.enumerated() {
                    let (byLetter, letterFx) = Fx.run(start, Fx.keys(key))
                    let (byArrows, arrowFx) = Fx.run(start, Array(repeating: .key(.down), count: i) + [.key(.enter)])
                    #expect(byLetter == byArrows, "\(language) \(start.config.game) \(key)")
                    #expect(letterFx == arrowFx, "\(language) \(start.config.game) \(key)")
                }
            }
        }
        // What they are, shown before the entries.
        #expect(MainMenu.keys == ["g", "c", "i", "j", "o", "l", "?", "s", "n", "a", "f", "q"])
        #expect(Fx.sent(Fx.run(Fx.named(), Fx.keys("g")).1) == ["SEEK"])
        #expect(Fx.run(Fx.named(), Fx.keys("c")).0.screen == .computer)
        #expect(Fx.sent(Fx.run(Fx.named(), Fx.keys("i")).1) == ["NEW"])
        #expect(Fx.run(Fx.named(), Fx.keys("q")).0.confirmQuit)
        let lines = ScreenTests.plainLines(Fx.named())
        #expect(lines.contains("  ▶ g  Quick match"), "\(lines)")
        #expect(lines.contains("    ?  Rules"), "\(lines)")
        #expect(lines.contains("    a  Register your name"), "\(lines)")
    }

    @Test("The main menu's letters are its own: none is one of the main screen's other keys, no two alike, the same as the game-over menu's for the same action")
    func mainLettersAreDistinct() {
        let keys = MainMenu.keys
        #expect(Set(keys).count == keys.count)
        #expect(Set(keys).isDisjoint(with: Issue44MenuKeysTests.mainScreenKeys))
        // The same action, the same letter.
        #expect(OverMenuItem.newGame.letter == "g" && keys[0] == "g")
        #expect(OverMenuItem.changeName.letter == "n" && MainMenu.entries.first { $0.item == .changeName }?.key == "n")
        #expect(OverMenuItem.scores.letter == "s" && MainMenu.entries.first { $0.item == .scores }?.key == "s")
        // The settings keys still do what they did (t the clock now: c is the computer).
        #expect(Fx.run(Fx.named(), Fx.keys("t")).0.config.clock == 15)
        #expect(Fx.run(Fx.named(), Fx.keys("c")).0.config.clock == nil)
    }

    @Test("The level screen: e, m, h start a game at that level, f changes who starts, b goes back, in both languages")
    func levelLetters() {
        for language in ["en", "nl"] {
            let levels = Fx.run(Fx.named(language: language), Fx.keys("c")).0
            #expect(levels.screen == .computer)
            #expect(Fx.sent(Fx.run(levels, Fx.keys("e")).1) == ["NEW bot=easy"])
            #expect(Fx.sent(Fx.run(levels, Fx.keys("m")).1) == ["NEW bot=medium"])
            #expect(Fx.sent(Fx.run(levels, Fx.keys("h")).1) == ["NEW bot=hard"])
            #expect(Fx.sent(Fx.run(levels, Fx.keys("fh")).1) == ["NEW bot=hard first=bot"])
            #expect(Fx.run(levels, Fx.keys("b")).0.screen == .main)
            // The digits of before.
            #expect(Fx.sent(Fx.run(levels, Fx.keys("3")).1) == ["NEW bot=hard"])
            let lines = ScreenTests.plainLines(levels)
            #expect(lines.contains { $0.hasPrefix("  ▶ e  ") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("    f  ") }, "\(lines)")
        }
    }

    @Test("Hangman's computer screen: g you guess, c the computer guesses, s settings, b back, in both languages")
    func hangmanComputerLetters() {
        for language in ["en", "nl"] {
            let screen = Fx.run(HFx.hangmanMain(language: language), Fx.keys("c")).0
            #expect(screen.screen == .hangman(.computer))
            #expect(Fx.sent(Fx.run(screen, Fx.keys("g")).1) == ["NEW game=hangman"])
            #expect(Fx.sent(Fx.run(screen, Fx.keys("c")).1) == ["NEW game=hangman mode=duel bot=guesser"])
            #expect(Fx.run(screen, Fx.keys("s")).0.screen == .hangman(.settings))
            #expect(Fx.run(screen, Fx.keys("b")).0.screen == .main)
            let lines = ScreenTests.plainLines(screen)
            #expect(lines.contains { $0.hasPrefix("  ▶ g  ") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("    b  ") }, "\(lines)")
        }
    }

    @Test("The language screen shows e and n, and each chooses its language")
    func languageLetters() {
        let s = ClientState(config: ClientConfig(), serverAddress: "h:1")
        #expect(s.screen == .language)
        let lines = ScreenTests.plainLines(s)
        #expect(lines.contains("  ▶ e  English") && lines.contains("    n  Nederlands"), "\(lines)")
        #expect(Fx.run(s, Fx.keys("n")).0.config.language == "nl")
        #expect(Fx.run(s, Fx.keys("e")).0.config.language == "en")
    }
}

extension Issue44MenuKeysTests {
    @Test("The game menu's language entries get letters however the server's languages start: de beside decline takes f, da g; never a digit")
    func languageEntriesGetLetters() {
        var s = Fx.named()
        s.serverLanguages = ["en", "nl", "de", "da"]
        s = Fx.run(s, Fx.lines("GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                               "TURN id=7 player=alice fragment=") + [.key(.escape)]).0
        #expect(s.gameMenuOpen)
        let letters = PlayFeature.gameMenuItems(s).map { $0.letter(languages: s.serverLanguages) }
        #expect(Set(letters).count == letters.count, "\(letters)")
        #expect(letters.allSatisfy { $0.count == 1 && $0.first?.isLetter == true }, "\(letters)")
        let byCode = Dictionary(uniqueKeysWithValues: PlayFeature.gameMenuItems(s).compactMap { item -> (String, String)? in
            guard case .language(let code) = item else { return nil }
            return (code, item.letter(languages: s.serverLanguages))
        })
        #expect(byCode["nl"] == "n" && byCode["de"] == "f" && byCode["da"] == "g", "\(byCode)")
        #expect(Fx.run(s, Fx.keys("f")).0.confirmLanguage == "de")
        let lines = ScreenTests.plainLines(s)
        #expect(lines.contains { $0.trimmingCharacters().hasPrefix("f  ") }, "\(lines)")
    }
}
