import Testing
@testable import GhostClient
import GhostProtocol

/// Issue #27, the second round: the games side by side, scores from the
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
                #expect(lines.contains { $0.contains("v [Ghost] Super") }, "\(lines)")
                #expect(lines.contains { $0.contains(language == "en" ? "[evil] fair phrases" : "[gemeen] eerlijk zinnen") }, "\(lines)")
                let (other, fx) = Fx.run(s, .key(.left))
                #expect(other.config.game == .hangman && fx == [.saveConfig])
                let after = Issue27PolishTests.plain(other, w, h, language)
                #expect(after.contains { $0.contains("○ Ghost") && $0.contains("● " + hangman) }, "\(after)")
                // The menu speaks of the chosen game; 5 names the other one.
                #expect(after.contains { $0.contains(language == "en" ? "5  Other game: Ghost" : "5  Ander spel: Ghost") }, "\(after)")
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
}
