import Testing
@testable import GhostClient
import GhostProtocol

/// The record: a review the server is still working out appears by
/// itself, and the review's texts say what they mean, Hangman's too; in
/// the history list the cursor keeps its game, aborted games and their
/// reasons are in words, every reason in words.
@Suite("Issue 44: the review and the history list")
struct Issue44RecordTests {
    static let notReady = "ERR not-ready the review of game 12 is being worked out: ask again in 3 s"

    /// Game 12's replay, its REVIEW answered `not-ready` (ask again in 3 s).
    static func notReadyReplay(language: String = "en") -> ClientState {
        Fx.run(RFx.replay(language: language), .key(.char("r")), Fx.line(notReady)).0
    }

    static func text(_ s: ClientState, _ language: String = "en", width: Int = 80, height: Int = 24) -> String {
        // Wrapped lines joined, so a sentence is found whatever the width.
        Screens.render(s, width: width, height: height, strings: .forLanguage(language)).map { Layout.plain($0).trimmingSpaces }
            .joined(separator: " ")
    }

    // MARK: Item 21

    @Test("Item 21: a review answered not-ready is asked for again by itself when the wait it names is over, and appears without a key")
    func reviewAppearsByItself() {
        var s = Self.notReadyReplay()
        let start = s.now
        #expect(s.record.replay?.review == .notReady)
        #expect(s.record.replay?.reviewRetryAt == start + 3)
        // The loop wakes up for it.
        #expect(s.nextDeadline == start + 3)
        #expect(Self.text(s).contains("The server is still working the review out: it appears here by itself once it is ready."))
        #expect(Self.text(Self.notReadyReplay(language: "nl"), "nl")
                    .contains("De server rekent de analyse nog uit: ze verschijnt hier vanzelf zodra ze klaar is."))
        // Not before the wait is over.
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .tick(start + 2.5))
        #expect(Fx.sent(fx).isEmpty && s.record.replay?.review == .notReady)
        (s, fx) = Fx.run(s, .tick(start + 3))
        #expect(Fx.sent(fx) == ["REVIEW 12"])
        #expect(s.record.replay?.review == .asking && s.record.replay?.reviewRetryAt == nil)
        // The answer comes: the review is on the screen, no key pressed.
        s = Fx.run(s, RFx.reviewLines.map { Fx.line($0) }).0
        #expect(s.record.replay?.mistakeStep == 3)
        #expect(Self.text(s).contains("Your first mistake was move 3 (m shows it)."))
        // Nothing more is asked (the keepalive PING aside).
        #expect(!Fx.sent(Fx.run(s, .tick(start + 100)).1).contains("REVIEW 12"))
    }

    @Test("Item 21: the retries are bounded (then r asks again, and starts a new series); none while the replay is not on show")
    func reviewRetriesAreBounded() {
        var s = Self.notReadyReplay()
        var asked = 0
        for _ in 0..<100 {
            guard let at = s.record.replay?.reviewRetryAt else { break }
            let (n, fx) = Fx.run(s, .tick(at))
            asked += Fx.sent(fx).filter { $0 == "REVIEW 12" }.count
            s = Fx.run(n, Fx.line(Self.notReady)).0
        }
        #expect(asked == RecordFeature.reviewRetriesLimit)
        #expect(s.record.replay?.review == .notReady && s.record.replay?.reviewRetryAt == nil)
        #expect(s.nextDeadline == s.lastSentAt + ClientState.keepaliveSeconds)
        #expect(Self.text(s).contains("The server is still working the review out: press r to ask again."))
        #expect(Self.text(s, "nl").contains("De server rekent de analyse nog steeds uit: druk op r om het weer te vragen."))
        #expect(!Fx.sent(Fx.run(s, .tick(s.now + 1_000)).1).contains("REVIEW 12"))
        // r asks again, and a not-ready after it is retried by itself once more.
        let (again, fx) = Fx.run(s, .key(.char("r")), Fx.line(Self.notReady))
        #expect(Fx.sent(fx) == ["REVIEW 12"])
        #expect(again.record.replay?.reviewRetries == 1 && again.record.replay?.reviewRetryAt == again.now + 3)
        // Away from the replay (back on the list), nothing is asked; opened again, it starts afresh.
        let away = Fx.run(Self.notReadyReplay(), .key(.escape)).0
        #expect(away.screen == .record(.history) && away.nextDeadline == away.lastSentAt + ClientState.keepaliveSeconds)
        let (later, lfx) = Fx.run(away, .tick(away.now + 10))
        #expect(Fx.sent(lfx).isEmpty)
        let (back, bfx) = Fx.run(later, .key(.enter))
        #expect(back.record.replay?.review == ReviewState.none && Fx.sent(bfx) == ["MOVES 12"])
        // A wait the text does not name, or out of bounds, is the default or its bound: never a busy loop.
        #expect(RecordFeature.reviewRetryWait("working on it") == 2)
        #expect(RecordFeature.reviewRetryWait("the review of game 12 is being worked out: ask again in 0 s") == 1)
        #expect(RecordFeature.reviewRetryWait("ask again in 9999 s") == 30)
    }

    /// Game 12 replayed as a game of bluff and challenge: alice J, bob A, alice challenges (she lost it: I would have won).
    static func challengeReviewed(language: String) -> ClientState {
        Fx.run(RFx.history(language: language),
               [.key(.enter)] + Fx.lines("PLAYED n=1 round=1 player=alice play=j", "PLAYED n=2 round=1 player=bob play=a",
                                         "PLAYED n=3 round=1 player=alice play=challenge", "OK MOVES id=12 count=3 more=no status=over")
               + [.key(.char("r"))] + Fx.lines("PLY n=1 player=alice play=j fragment=j outcome=win",
                                         "PLY n=2 player=bob play=a fragment=ja outcome=win",
                                         "PLY n=3 player=alice play=challenge fragment=ja outcome=loss better=i",
                                         "OK REVIEW id=12 mistake=3")).0
    }

    @Test("Item 21: a mistake line starts with a capital like the other lines (“A challenge lost it”), in both languages")
    func mistakeStartsWithACapital() {
        let en = Self.text(Self.challengeReviewed(language: "en"))
        #expect(en.contains("✗ A challenge lost it: “I” would have won."), "\(en)")
        let nl = Self.text(Self.challengeReviewed(language: "nl"), "nl")
        #expect(nl.contains("✗ Uitdagen verspeelde de winst: “I” had gewonnen."), "\(nl)")
        #expect(Strings.en.record.lostIt("word:jail", better: []) == "The word “JAIL” lost it.")
        #expect(Strings.nl.record.lostIt("word:jail", better: []) == "Het woord “JAIL” verspeelde de winst.")
        // A letter keeps its quotes.
        #expect(Strings.en.record.lostIt("q", better: ["r"]) == "“Q” lost it: “R” would have won.")
    }

    @Test("Item 21: Hangman's replay names no losing move; its offer and review lines say what they count, in both languages")
    func hangmanReviewTexts() {
        let evil = Fx.run(RecordReplayKindsTests.hangmanHistory(), [.key(.enter)] + Fx.lines("PLAYED n=1 round=1 player=alice play=e",
                                                                                             "PLAYED n=2 round=1 player=alice play=a",
                                                                                             "OK MOVES id=20 count=2 more=no status=over")).0
        for (language, offer, help) in [
            ("en", "Press r for the review: at each guess, how many words were still possible, and which letter was the best guess.",
             "←/→ step back/on · Home/End start/end · r review · Esc back"),
            ("nl", "Druk op r voor de analyse: bij elke gok hoeveel woorden er nog mogelijk waren, en welke letter het best te raden was.",
             "←/→ zet terug/verder · Home/End begin/eind · r analyse · Esc terug"),
        ] {
            let text = Self.text(evil, language, width: 120, height: 40)
            #expect(text.contains(offer), "\(text)")
            #expect(text.contains(help) && !text.contains(language == "en" ? "losing move" : "beslissende fout"), "\(text)")
        }
        // Ghost's replay keeps m.
        #expect(Self.text(RFx.replay(), width: 120, height: 40).contains("r review · m the losing move · Esc back"))
        let reviewed = Fx.run(evil, [.key(.char("r"))] + Fx.lines("PLY n=1 player=alice play=e pattern=_e__ family=310 word=bear",
                                                                  "PLY n=2 player=alice play=a pattern=_ea_ family=12 word=bead",
                                                                  "OK REVIEW id=20")).0
        #expect(Self.text(reviewed).contains("After this guess the computer could still choose from 12 words, such as “BEAD”."))
        #expect(Self.text(reviewed, "nl").contains("Na deze gok kon de computer nog uit 12 woorden kiezen, zoals “BEAD”."))
        #expect(Strings.en.record.familyLeft("1", word: "bead") == "After this guess the computer could still choose from 1 word, such as “BEAD”.")
        #expect(Strings.en.record.bestLetter("e", candidates: "1200") == "Before this guess 1200 words fitted what was known; the best letter was E.")
        #expect(Strings.nl.record.bestLetter("e", candidates: "1200") == "Voor deze gok pasten 1200 woorden bij wat bekend was; de beste letter was E.")
        #expect(Strings.en.record.bestLetter(nil, candidates: "1") == "Before this guess 1 word fitted what was known.")
        #expect(Strings.nl.record.bestLetter(nil, candidates: "1") == "Voor deze gok paste 1 woord bij wat bekend was.")
        // The screens with them fit the smallest window.
        for s in [evil, reviewed] {
            for language in ["en", "nl"] {
                let lines = Screens.render(s, width: 60, height: 20, strings: .forLanguage(language))
                #expect(lines.count == 20 && lines.allSatisfy { Layout.visibleWidth($0) <= 60 })
            }
        }
    }

    // MARK: Item 22

    static let newerLines = [
        "RESULT id=14 game=ghost opponent=dora result=win reason=word change=+8 ended=1700100000",
        "RESULT id=13 game=ghost variant=challenge opponent=erin result=loss reason=challenge-failed change=-7 ended=1700050000",
    ] + RFx.historyLines

    @Test("Item 22: the cursor keeps its game, not its row, when newer games arrive at the top (r, and h again)")
    func cursorKeepsItsGame() {
        let on11 = Fx.run(RFx.history(), .key(.down)).0
        #expect(on11.record.chosen?.id == 11)
        let (asked, fx) = Fx.run(on11, .key(.char("r")))
        #expect(Fx.sent(fx) == ["HISTORY 50"])
        let refreshed = Fx.run(asked, Self.newerLines.map { Fx.line($0) } + [Fx.line("OK HISTORY name=alice count=5")]).0
        #expect(refreshed.record.history?.map(\.id) == [14, 13, 12, 11, 9])
        #expect(refreshed.record.chosen?.id == 11 && refreshed.record.cursor == 3)
        #expect(Self.text(refreshed).contains("▶ won · Superghost · vs Computer (hard)"))
        // Out to the main screen and h again: the same.
        let reopened = Fx.run(on11, [.key(.escape), .key(.char("h"))] + Self.newerLines.map { Fx.line($0) }
                              + [Fx.line("OK HISTORY name=alice count=5")]).0
        #expect(reopened.record.chosen?.id == 11)
        // The game gone from the list (older than the limit): the cursor stays in the list.
        let gone = Fx.run(on11, [.key(.char("r")), Fx.line("RESULT id=14 game=ghost opponent=dora result=win reason=word ended=1700100000"),
                                 Fx.line("OK HISTORY name=alice count=1")]).0
        #expect(gone.record.cursor == 0 && gone.record.chosen?.id == 14)
    }

    static let abortedLines = [
        "RESULT id=33 game=ghost opponent=bob result=aborted reason=no-first-move ended=1700000000",
        "RESULT id=32 game=hangman variant=duel opponent=carol result=aborted reason=untouched ended=1699990000",
        "RESULT id=31 game=ghost variant=super opponent=dora result=aborted reason=left ended=1699980000",
        "RESULT id=30 game=ghost variant=challenge opponent=erin result=win reason=challenge-failed change=+7 ended=1699970000",
        "RESULT id=29 game=ghost opponent=fred result=aborted reason=server-restart ended=1699960000",
    ]

    static func abortedHistory(language: String) -> ClientState {
        let s = Fx.run(Fx.named("alice", language: language), .key(.char("h"))).0
        return Fx.run(s, Self.abortedLines.map { Fx.line($0) } + [Fx.line("OK HISTORY name=alice count=5")]).0
    }

    @Test("Item 22: aborted games read as aborted, with their reason in words; challenge-failed reads in words too; in both languages")
    func abortedAndReasonsInWords() {
        let en = Self.text(Self.abortedHistory(language: "en"), width: 120, height: 40)
        for expected in ["▶ aborted · Ghost · vs bob", "2023-11-14 22:13 UTC · no first move in time",
                         "aborted · Hangman · vs carol", "nobody played it for too long",
                         "aborted · Superghost · vs dora", "left before the first move",
                         "won · Bluff and challenge · vs erin", "a failed challenge · rating +7",
                         "aborted · Ghost · vs fred"] {
            #expect(en.contains(expected), "\(expected): \(en)")
        }
        #expect(!en.contains("no result") && !en.contains("challenge-failed") && !en.contains("server-restart")
                    && !en.contains("no-first-move") && !en.contains("untouched"))
        let nl = Self.text(Self.abortedHistory(language: "nl"), "nl", width: 120, height: 40)
        for expected in ["▶ afgebroken · Ghost · tegen bob", "geen eerste zet op tijd", "te lang niet gespeeld",
                         "verlaten voor de eerste zet", "een mislukte uitdaging · rating +7"] {
            #expect(nl.contains(expected), "\(expected): \(nl)")
        }
        #expect(!nl.contains("geen uitslag") && !nl.contains("challenge-failed"))
        // The list fits the smallest window, the cursor on each row in turn.
        var s = Self.abortedHistory(language: "en")
        for _ in 0..<5 {
            for language in ["en", "nl"] {
                let lines = Screens.render(s, width: 60, height: 20, strings: .forLanguage(language))
                #expect(lines.count == 20 && lines.allSatisfy { Layout.visibleWidth($0) <= 60 })
            }
            s = Fx.run(s, .key(.down)).0
        }
    }
}
