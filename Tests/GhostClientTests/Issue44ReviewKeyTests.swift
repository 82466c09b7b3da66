import Testing
@testable import GhostClient
import GhostProtocol

/// The game just finished, replayed with its review
/// from the game-over screen (`h`, as `h` on the main screen opens your
/// games); `h` in the main screen's key help at 60×20.
@Suite("Issue 44: review from the game-over screen, h on the main screen")
struct Issue44ReviewKeyTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    /// What the history list sends for game `id`: Enter (the replay), then r (its review).
    static func historySends(_ id: Int) -> [String] {
        var s = Fx.run(Fx.named("alice"), .key(.char("h"))).0
        s = Fx.run(s, Fx.line("RESULT id=\(id) game=ghost opponent=bob result=win reason=word ended=1700000000"),
                   Fx.line("OK HISTORY name=alice count=1")).0
        let (replay, enter) = Fx.run(s, .key(.enter))
        let (_, r) = Fx.run(replay, .key(.char("r")))
        return Fx.sent(enter) + Fx.sent(r)
    }

    @Test("Ghost's game-over menu: h (and its digit 6) sends what the history's replay and its r send, and opens the same replay")
    func ghostOverReview() {
        #expect(Issue44ReviewKeyTests.historySends(7) == ["MOVES 7", "REVIEW 7"])
        for key in [Key.char("h"), .char("H"), .char("6")] {
            let (s, fx) = Fx.run(Fx.over(), .key(key))
            #expect(Fx.sent(fx) == Issue44ReviewKeyTests.historySends(7), "\(key)")
            #expect(s.screen == .record(.replay) && s.record.replay?.id == 7 && s.record.replay?.review == .asking)
            #expect(s.record.replay?.entry?.opponent == "bob" && s.record.replay?.isHangman == false)
        }
        // The moves and the review arrive: the replay screen shows them, as from the list.
        let s = Fx.run(Fx.over(), [.key(.char("h"))] + Fx.lines("PLAYED n=1 round=1 player=alice play=p",
                                                                "PLAYED n=2 round=1 player=bob play=e",
                                                                "OK MOVES id=7 count=2 more=no status=over",
                                                                "PLY n=1 player=alice play=p fragment=p outcome=win",
                                                                "PLY n=2 player=bob play=e fragment=pe outcome=loss",
                                                                "OK REVIEW id=7")).0
        #expect(s.record.replay?.moves?.count == 2)
        if case .done = s.record.replay?.review {} else { Issue.record("no review: \(String(describing: s.record.replay?.review))") }
        let text = Issue44ReviewKeyTests.plain(s).joined(separator: "\n")
        #expect(text.contains("Replay · game 7") && text.contains("Nobody threw a win away."), "\(text)")
    }

    @Test("Esc (or q, Enter) on that replay goes back to the game-over screen, its review entry chosen; the list's replay still goes back to the list")
    func escBackToOver() {
        for key in [Key.escape, .char("q"), .enter] {
            let (s, fx) = Fx.run(Fx.over(), .key(.char("h")), .key(key))
            #expect(s.screen == .over && s.result?.id == 7, "\(key)")
            #expect(OverMenuItem.allCases[s.menuIndex] == .review)
            #expect(Fx.sent(fx) == ["MOVES 7", "REVIEW 7"])
            // Esc once more: the main screen, as ever from the game-over screen.
            #expect(Fx.run(s, .key(.escape)).0.screen == .main)
        }
        // From the list, Esc still goes back to the list, even after a replay opened at the game's end.
        var s = Fx.run(Fx.over(), [.key(.char("h"))] + Fx.lines("OK MOVES id=7 count=0 more=no status=over", "OK REVIEW id=7")
                       + [.key(.escape), .key(.char("m")), .key(.char("h"))]).0
        s = Fx.run(s, Fx.line("RESULT id=7 game=ghost opponent=bob result=win reason=word ended=1700000000"),
                   Fx.line("OK HISTORY name=alice count=1"), .key(.enter), .key(.escape)).0
        #expect(s.screen == .record(.history))
    }

    @Test("The game-over menu names h, in both languages, whole at 60×20 and 80×24")
    func overMenuShowsReview() {
        #expect(OverMenuItem.allCases.map(\.letter) == ["r", "g", "n", "m", "s", "h"])
        for (language, label) in [("en", "h  Replay and review this game"), ("nl", "h  Dit spel terugkijken met analyse")] {
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44ReviewKeyTests.plain(Fx.over(language: language), w, h, language)
                #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
                #expect(lines.contains { $0.contains(label) }, "\(language) \(w)×\(h): \(lines)")
            }
        }
    }

    @Test("Hangman's end: h replays the game with its review (MOVES, REVIEW), Esc comes back to the end screen")
    func hangmanEndReview() {
        for language in ["en", "nl"] {
            let over = HFx.lost(language: language)
            let (s, fx) = Fx.run(over, .key(.char("h")))
            #expect(Fx.sent(fx) == ["MOVES 9", "REVIEW 9"])
            #expect(s.screen == .record(.replay) && s.record.replay?.isHangman == true)
            #expect(s.record.replay?.entry?.opponent == "bot-hangman")
            let back = Fx.run(s, .key(.escape)).0
            #expect(back.screen == .hangman(.play) && back.hangman.ended?.id == 9)
            let help = language == "en" ? "h review" : "h analyse"
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44ReviewKeyTests.plain(back, w, h, language)
                #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
                #expect(lines.contains { $0.contains(help) }, "\(language) \(w)×\(h): \(lines)")
            }
        }
        // A duel's end (a rematch on Enter) has it too.
        #expect(Strings.en.hangman.duelEndedHelp.contains("h review") && Strings.nl.hangman.duelEndedHelp.contains("h analyse"))
    }

    @Test("Item 17: h stays in the main screen's key help at 60×20, in both languages, with every other hint whole")
    func mainHelpNamesH() {
        for (language, hint) in [("en", "h your games"), ("nl", "h je spellen")] {
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44ReviewKeyTests.plain(Fx.named(language: language), w, h, language)
                #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
                #expect(lines.contains { $0.contains(hint) }, "\(language) \(w)×\(h): \(lines)")
                for part in Strings.forLanguage(language).mainHelp.split(separator: " · ") {
                    #expect(lines.contains { $0.contains(part) }, "\(part): \(lines)")
                }
            }
            // One row at 60 columns: it costs the main screen no row.
            #expect(Layout.visibleWidth(Strings.forLanguage(language).mainHelp) <= 59)
        }
    }
}

@Suite("Issue 44, item 17: the tutorial names the keys beyond playing")
struct Issue44TutorialKeysTests {
    @Test("The last tutorial page names h (your games, replays, reviews), w (watching), t (the clock) and ratings, whole at 60×20 in both languages")
    func lastPage() {
        for (language, title, words) in [("en", "Ratings, your games, watching, clocks", ["rated", "h shows your games", "r for its review", "w watches", "t puts a clock", "a on the main screen registers"]),
                                         ("nl", "Ratings, je spellen, kijken en de klok", ["rating", "h toont je spellen", "met r de analyse", "Met w kijk je mee", "met t zet je een klok", "met a op het hoofdscherm"])] {
            var config = ClientConfig(language: language)
            config.tutorialSeen = true
            var s = ClientState(config: config, serverAddress: "h:1")
            s.screen = .tutorial
            s.settings.tutorialPage = Strings.tutorialPageCount - 1
            #expect(Strings.forLanguage(language).allTutorialPages.last?.title == title)
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44ReviewKeyTests.plain(s, w, h, language)
                #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
                #expect(lines.contains { $0.trimmingCharacters() == title }, "\(lines)")
                let text = lines.map { $0.trimmingCharacters() }.joined(separator: " ")
                for word in words { #expect(text.contains(word), "\(language) \(w)×\(h) \(word): \(lines)") }
            }
            // Enter on it ends the tutorial, as on the last page before.
            #expect(Fx.run(Fx.run(Fx.named(language: language), .key(.char("7"))).0, .key(.char("8")), .key(.enter)).0.screen == .main)
        }
    }
}
