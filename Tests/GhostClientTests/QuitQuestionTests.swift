import Testing
@testable import GhostClient
import GhostProtocol

/// Ctrl-C asks before quitting, on every screen (anything
/// destructive asks first): the question on the screen, a second Ctrl-C or
/// y quits, n or Esc goes back to the screen as it was.
@Suite("Ctrl-C asks before quitting, on every screen")
struct QuitQuestionTests {
    static func plain(_ s: ClientState, _ w: Int = 60, _ h: Int = 20, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    /// One state for each kind of screen: before a game, in one (Ghost,
    /// Hangman, watched), after it, and lists.
    static func screens() -> [(String, ClientState)] {
        [("name", Fx.online()),
         ("main", Fx.named()),
         ("Ghost game", Fx.inGame(fragment: "pe")),
         ("game over", Fx.over()),
         ("Hangman game", HFx.playing()),
         ("watch list", WFx.list()),
         ("watched game", WFx.ghost()),
         ("scores", Fx.run(Fx.named(), .key(.char("8"))).0)]
    }

    @Test("Ctrl-C asks (nothing sent, the question shown); n and Esc go back to the screen as it was")
    func asksFirst() {
        for (name, before) in QuitQuestionTests.screens() {
            var (s, fx) = Fx.run(before, .key(.ctrlC))
            #expect(fx.isEmpty && s.confirmQuit && !s.quitting, "\(name)")
            #expect(QuitQuestionTests.plain(s).contains { $0.contains("Quit the program? y: yes · n: no") }, "\(name)")
            #expect(QuitQuestionTests.plain(s, 80, 24, "nl").contains { $0.contains("Het programma stoppen? j: ja · n: nee") }, "\(name)")
            // A letter while it asks plays nothing, and the question stays.
            (s, fx) = Fx.run(s, .key(.char("r")))
            #expect(fx.isEmpty && s.confirmQuit, "\(name)")
            for back in [Key.char("n"), .escape] {
                let (after, fx) = Fx.run(before, .key(.ctrlC), .key(back))
                #expect(fx.isEmpty && after == before, "\(name), \(back)")
                #expect(QuitQuestionTests.plain(after) == QuitQuestionTests.plain(before), "\(name), \(back)")
            }
        }
    }

    @Test("A second Ctrl-C, y or Enter quits, from every screen")
    func quits() {
        for (name, before) in QuitQuestionTests.screens() {
            for yes in [Key.ctrlC, .char("y"), .char("j"), .enter] {
                let (s, fx) = Fx.run(before, .key(.ctrlC), .key(yes))
                #expect(fx == [.quit] && s.quitting, "\(name), \(yes)")
            }
        }
    }

    @Test("Below the smallest window the question is asked too")
    func tooSmall() {
        let (s, _) = Fx.run(Fx.inGame(), .key(.ctrlC))
        let text = QuitQuestionTests.plain(s, 50, 12).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Quit the program?") && text.contains("y: yes"))
    }
}
