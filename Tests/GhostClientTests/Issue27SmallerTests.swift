import Testing
@testable import GhostClient
import GhostProtocol

/// Small ones: the language on the best-games
/// lists, tables aligned in both languages, the hidden names counted, a
/// pasted word in a challenge's word field.
@Suite("Issue 27: smaller (languages on lists, aligned tables, hidden names, paste)")
struct Issue27SmallerTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    static func hangmanList(_ language: String) -> ClientState {
        var s = Fx.named("alice", language: language)
        s.screen = .hangman(.scores)
        s.hangman.scores = [HangmanScore(rank: 1, name: "bob", word: "peach", mistakes: 1, misses: 8, mode: "evil", lang: "en"),
                            HangmanScore(rank: 2, name: "carol", word: "appel", mistakes: 2, misses: 8, mode: "evil", lang: "nl")]
        return s
    }

    /// The column where `word` starts in `line`, in characters.
    static func column(_ word: String, in line: String) -> Int? {
        line.range(of: word).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
    }

    @Test("Found 12: a best-games list shows each game's language (the server's lang=), in both languages")
    func bestGamesShowTheLanguage() {
        for (language, header) in [("en", "Lang"), ("nl", "Taal")] {
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Self.plain(Self.hangmanList(language), w, h, language)
                #expect(lines.contains { $0.contains(header) }, "\(lines)")
                #expect(lines.contains { $0.contains("bob") && $0.contains("PEACH") && $0.contains(" EN") }, "\(lines)")
                #expect(lines.contains { $0.contains("carol") && $0.contains("APPEL") && $0.contains(" NL") }, "\(lines)")
            }
        }
    }

    @Test("Found 12: table headers line up with their rows in English and Dutch (high scores and best games)")
    func tablesAligned() {
        for language in ["en", "nl"] {
            let t = Strings.forLanguage(language)
            // Hangman's best games: each header starts where its column's cells start (left) or ends where they end (right).
            let lines = Self.plain(Self.hangmanList(language), 80, 24, language)
            let hd = t.hangman.scoresHeader
            guard let head = lines.first(where: { $0.contains(hd.name) && $0.contains(hd.word) }),
                  let row = lines.first(where: { $0.contains("bob") }) else { Issue.record("\(lines)"); continue }
            #expect(Self.column(hd.name, in: head) == Self.column("bob", in: row), "\(head)\n\(row)")
            #expect(Self.column(hd.word, in: head) == Self.column("PEACH", in: row), "\(head)\n\(row)")
            #expect(Self.column(hd.lang, in: head) == Self.column("EN", in: row), "\(head)\n\(row)")
            // Ghost's high scores.
            var s = Fx.named("alice", language: language)
            s.screen = .scores
            s.highScores.scores = [ScoreEntry(rank: 1, name: "bob", wins: 12, played: 20)]
            let g = Self.plain(s, 80, 24, language)
            let sh = t.scoresHeader
            guard let gh = g.first(where: { $0.contains(sh.name) && $0.contains(sh.played) }),
                  let gr = g.first(where: { $0.contains("bob") }) else { Issue.record("\(g)"); continue }
            #expect(Self.column(sh.name, in: gh) == Self.column("bob", in: gr), "\(gh)\n\(gr)")
            #expect(Self.column(sh.played, in: gh).map { $0 + sh.played.count } == Self.column("20", in: gr).map { $0 + 2 }, "\(gh)\n\(gr)")
        }
    }

    @Test("Found 12: a name list longer than the window says how many names it hides, in both languages; ↓ reaches them")
    func hiddenNamesCounted() {
        for (language, more) in [("en", "… and "), ("nl", "… en nog ")] {
            var s = NamePickerTests.picker(["alice"], language: language)
            s = Fx.run(s, ((1...13).map { "NAME name=user\($0)" } + ["OK NAMES count=13 more=no"]).map { Fx.line($0) }).0
            #expect(s.filteredNames.count == 14)
            let lines = ScreenTests.plainLines(s, 80, 24)
            let shown = lines.filter { $0.contains("user") }.count
            #expect(shown < 13, "\(lines)")
            #expect(lines.contains { $0.contains(more + "\(13 - shown)") }, "\(lines)")
            // At the end of the list the count is of those above.
            let end = Fx.run(s, [ClientEvent](repeating: .key(.down), count: 13)).0
            let endLines = ScreenTests.plainLines(end, 80, 24)
            #expect(endLines.contains { $0.contains("user13") }, "\(endLines)")
            #expect(endLines.contains { $0.contains(more) }, "\(endLines)")
        }
    }

    @Test("Found 12: a paste of letters fills a challenged player's word field (Enter sends it); a paste of other characters plays nothing; a paste out of the field is still refused")
    func pasteInTheChallengeField() {
        var (s, fx) = Fx.run(ChallengeClientTests.challenged(), .paste("l".map { Key.char($0) } + "ER".map { Key.char($0) }))
        #expect(s.game?.ghost?.answer == "ler" && fx.isEmpty && s.alert?.notice != .pastedSeveral)
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["WORD jailer"])
        // A paste with a `-` in it does not concede, nor type.
        (s, fx) = Fx.run(ChallengeClientTests.challenged(), .paste("ab-c".map { Key.char($0) }))
        #expect(fx.isEmpty && s.game?.ghost?.answer == "")
        // Not challenged: a pasted word plays nothing, as before.
        (s, fx) = Fx.run(Fx.inGame(), .paste("xyz".map { Key.char($0) }))
        #expect(fx.isEmpty && s.alert?.notice == .pastedSeveral)
    }
}
