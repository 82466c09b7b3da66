import Testing
@testable import GhostClient
import GhostProtocol

/// After a client restart the main screen's Hangman entry
/// showed the default mode, not the name's saved one, until the settings
/// screen was opened. The client now asks SETTINGS as soon as it has a name.
@Suite("Issue 44: the saved Hangman mode on the main screen")
struct Issue44SettingsTests {
    @Test("After NAME the client asks SETTINGS; the main screen then shows the saved mode, in both languages")
    func savedModeAfterName() {
        for (language, fair) in [("en", "fair"), ("nl", "eerlijk")] {
            var s = Fx.online(language: language, lastName: "alice")
            var fx: [ClientEffect]
            (s, fx) = Fx.run(s, Fx.line("OK LANG lang=\(language)"), Fx.line("OK NAMES count=0"), .key(.enter),
                             Fx.line("OK NAME name=alice lang=\(language)"))
            #expect(Fx.sent(fx) == ["NAME alice", "SETTINGS"])
            (s, _) = Fx.run(s, Fx.lines("SETTING key=hangman-mode value=fair default=evil",
                                        "SETTING key=hangman-length value=any default=any",
                                        "SETTING key=hangman-misses value=8 default=8",
                                        "SETTING key=lang value=\(language) default=en", "OK SETTINGS"))
            // Then the kinds the server plays are asked (HELP).
            #expect(s.screen == .main && s.pending == [.help])
            #expect(s.hangman.setting(.mode).value == "fair")
            let lines = Issue44Tests.plain(s, 80, 24, language)
            #expect(lines.contains { $0.contains("[\(fair)]") }, "\(lines)")
        }
    }
}
