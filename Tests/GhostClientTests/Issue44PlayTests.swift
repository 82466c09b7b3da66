import Testing
@testable import GhostClient
import GhostProtocol

/// Play: an offer answered with one key, a match named as one, the
/// running score per variant, small texts.
@Suite("Issue 44: answering offers, matches named, small texts")
struct Issue44PlayTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    /// The words on screen, one space between each (paragraphs wrap).
    static func words(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> String {
        plain(s, w, h, language).joined(separator: " ").split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }

    // MARK: Item 14

    @Test("Item 14: bob's offer takes one key, Enter accepts and Backspace (or Delete) declines; letters still play")
    func offerTakesOneKey() {
        for language in ["en", "nl"] {
            let offered = Fx.run(Fx.inGame(fragment: "p", language: language), Fx.line("OFFER id=7 player=bob kind=restart")).0
            #expect(offered.offerKeys == .oneKey)
            let prompt = language == "en" ? "bob offers to restart the round: Enter accept · Backspace decline"
                : "bob stelt voor om de ronde te herstarten: Enter accepteren · Backspace weigeren"
            for (w, h) in [(60, 20), (80, 24)] {
                #expect(Self.words(offered, w, h, language).contains(prompt), "\(Self.plain(offered, w, h, language))")
            }
            #expect(Fx.sent(Fx.run(offered, .key(.enter)).1) == ["ACCEPT"])
            #expect(Fx.sent(Fx.run(offered, .key(.backspace)).1) == ["DECLINE"])
            #expect(Fx.sent(Fx.run(offered, .key(.delete)).1) == ["DECLINE"])
            // y and n stay letters: a letter typed as the offer comes in is a move, never an answer.
            #expect(Fx.sent(Fx.run(offered, .key(.char("y"))).1) == ["LETTER y"])
            #expect(Fx.sent(Fx.run(offered, .key(.char("n"))).1) == ["LETTER n"])
        }
        // Without an offer Enter and Backspace answer nothing and send nothing.
        let none = Fx.run(Fx.inGame(fragment: "p"), .key(.enter), .key(.backspace))
        #expect(Fx.sent(none.1).isEmpty && none.0.offerKeys == nil)
        // My own offer is not mine to answer.
        let mine = Fx.run(Fx.inGame(fragment: "p"), Fx.line("OFFER id=7 player=alice kind=restart")).0
        #expect(mine.offerKeys == nil && Fx.sent(Fx.run(mine, .key(.enter)).1).isEmpty)
    }

    @Test("Item 14: with the menu open the offer names the menu's letters (Esc would close it); a and d answer, Enter picks the entry")
    func offerUnderTheOpenMenu() {
        for (language, prompt) in [("en", "bob offers to restart the round: a accept · d decline"),
                                   ("nl", "bob stelt voor om de ronde te herstarten: a accepteren · d weigeren")] {
            let menu = Fx.run(Fx.inGame(fragment: "p", language: language), Fx.line("OFFER id=7 player=bob kind=restart"), .key(.escape)).0
            #expect(menu.gameMenuOpen && menu.offerKeys == .menuOpen)
            for (w, h) in [(60, 20), (80, 24)] {
                let text = Self.words(menu, w, h, language)
                #expect(text.contains(prompt) && !text.contains("Esc →"), "\(Self.plain(menu, w, h, language))")
            }
            #expect(Fx.sent(Fx.run(menu, .key(.char("a"))).1) == ["ACCEPT"])
            #expect(Fx.sent(Fx.run(menu, .key(.char("d"))).1) == ["DECLINE"])
            // Enter chooses the entry under the cursor (Accept, the first that applies), as in every menu.
            #expect(Fx.sent(Fx.run(menu, .key(.enter)).1) == ["ACCEPT"])
        }
    }

    @Test("Item 14: while a word is typed (challenged, Hangman's answer) Enter and Backspace stay the field's; the offer says Esc, then a or d")
    func offerWhileAWordIsTyped() {
        // alice is challenged in bluff and challenge and types her word.
        var s = ChallengeClientTests.challenged()
        s = Fx.run(s, Fx.keys("l") + [Fx.line("OFFER id=7 player=bob kind=restart")]).0
        #expect(s.answeringChallenge && s.offerKeys == .viaMenu)
        #expect(Self.words(s).contains("bob offers to restart the round: Esc, then a accept · d decline"), "\(Self.plain(s))")
        let erased = Fx.run(s, .key(.backspace))
        #expect(Fx.sent(erased.1).isEmpty && erased.0.game?.ghost?.answer == "")
        #expect(Fx.sent(Fx.run(s, .key(.enter)).1) == ["WORD jail"])
        #expect(Fx.sent(Fx.run(s, .key(.escape), .key(.char("d"))).1) == ["DECLINE"])
    }

    @Test("Item 14: Hangman's duel takes the same keys: Enter accepts (not a new game), Backspace declines")
    func hangmanOffer() {
        var s = Fx.run(HangmanDuelReducerTests.guessing(), Fx.line("OFFER id=2 player=alice kind=restart")).0
        #expect(s.offerKeys == .oneKey)
        #expect(Self.words(s).contains("alice offers to restart the round: Enter accept · Backspace decline"), "\(Self.plain(s))")
        let accepted = Fx.run(s, .key(.enter))
        #expect(Fx.sent(accepted.1) == ["ACCEPT"] && !accepted.0.hangman.confirmNew)
        #expect(Fx.sent(Fx.run(s, .key(.backspace)).1) == ["DECLINE"])
        // Typing the answer (=): Enter sends it, the offer waits for the menu.
        s = Fx.run(s, [.key(.char("="))] + Fx.keys("zephyr")).0
        #expect(s.offerKeys == .viaMenu)
        #expect(Self.words(s).contains("alice offers to restart the round: Esc, then a accept · d decline"), "\(Self.plain(s))")
        #expect(Fx.sent(Fx.run(s, .key(.enter)).1) == ["SOLVE zephyr"])
    }

    // MARK: Item 18

    @Test("Item 18: a match says so in its title, its game-over title and its history row, in both languages")
    func matchNamed() {
        let match = ReducerComputerAndMatchTests.matchGame()
        #expect(Self.plain(match)[0].contains("ghostd · Ghost match · English · round 1"), "\(Self.plain(match)[0])")
        var nl = match
        nl.config.language = "nl"
        #expect(Self.plain(nl, 80, 24, "nl")[0].contains("Ghost-partij · Engels · ronde 1"), "\(Self.plain(nl, 80, 24, "nl")[0])")
        let over = Fx.run(match, Fx.lines("OVER id=5 winner=alice loser=bob reason=word fragment=pear ghost=,GHOST",
                                          "MATCH id=5 winner=alice loser=bob ghost=,GHOST")).0
        #expect(over.screen == .over)
        #expect(Self.plain(over)[0].contains("Game over · Ghost match"), "\(Self.plain(over)[0])")
        var overNL = over
        overNL.config.language = "nl"
        #expect(Self.plain(overNL, 80, 24, "nl")[0].contains("Spel voorbij · Ghost-partij"), "\(Self.plain(overNL, 80, 24, "nl")[0])")
        // A single game keeps its plain titles.
        #expect(Self.plain(Fx.inGame())[0].contains("ghostd · Ghost · English · round 1"))
        #expect(!Self.plain(Fx.over())[0].contains("match"))
        // The variant's match: Superghost-partij, Partij bluffen en uitdagen.
        #expect(Strings.en.superghost.matchName("Superghost") == "Superghost match")
        #expect(Strings.nl.superghost.matchName("Superghost") == "Superghost-partij")
        #expect(Strings.nl.superghost.matchName(Strings.nl.variantName("challenge")) == "Partij bluffen en uitdagen")
        // The history row: RESULT's rounds=ghost.
        let history = Fx.run(Fx.named(), [.key(.char("h")),
                                          Fx.line("RESULT id=14 game=ghost variant=super opponent=dora result=win reason=word ended=1700100000 rounds=ghost"),
                                          Fx.line("RESULT id=13 game=ghost opponent=erin result=loss reason=word ended=1700050000"),
                                          Fx.line("OK HISTORY name=alice count=2")]).0
        #expect(history.record.history?.map(\.match) == [true, false])
        let text = Self.words(history)
        #expect(text.contains("won · Superghost match · vs dora") && text.contains("lost · Ghost · vs erin"), "\(Self.plain(history))")
        var historyNL = history
        historyNL.config.language = "nl"
        #expect(Self.words(historyNL, 80, 24, "nl").contains("gewonnen · Superghost-partij · tegen dora"), "\(Self.plain(historyNL, 80, 24, "nl"))")
    }

    // MARK: Item 19

    @Test("Item 19: the running score is the server's for the variant played (a Superghost record=), and the profile lists each variant's")
    func scorePerVariant() {
        for (language, soFar, ghost, superghost) in [
            ("en", "So far: you 0 – 2 bob", "You against bob: 1–1 (Ghost)", "You against bob: 0–2 (Superghost)"),
            ("nl", "Tot nu toe: jij 0 – 2 bob", "Jij tegen bob: 1–1 (Ghost)", "Jij tegen bob: 0–2 (Superghost)"),
        ] {
            let s = Fx.run(Fx.named(language: language), Fx.lines(
                "GAME id=8 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=super record=0-2",
                "TURN id=8 player=alice fragment=")).0
            #expect(Self.words(s, 80, 24, language).contains(soFar), "\(Self.plain(s, 80, 24, language))")
            // PROFILE: VERSUS per variant.
            var o = Fx.run(RFx.history(language: language), .key(.char("o"))).0
            o = Fx.run(o, Fx.lines("VERSUS game=ghost record=1-1", "VERSUS game=ghost variant=super record=0-2",
                                   "OK PROFILE name=bob registered=yes ratings=0")).0
            #expect(o.record.profile?.versus.map(\.variant) == [nil, "super"])
            let text = Self.words(o, 80, 24, language)
            #expect(text.contains(ghost) && text.contains(superghost), "\(Self.plain(o, 80, 24, language))")
        }
    }

    // MARK: Item 25

    @Test("Item 25: after a result the server gave on RESUME against the computer, the menu says Play again and r starts the same game again")
    func playAgainAfterAResumedResult() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", token: Fx.token)
        var s = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello)).0
        s = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=7 status=over",
                               "OVER id=7 winner=bot-easy loser=alice reason=word fragment=pear ended=1700001160")).0
        #expect(s.screen == .over && s.result?.bot == .easy)
        let lines = Self.plain(s)
        #expect(lines.contains("  ▶ r  Play again") && !lines.joined().contains("Rematch"), "\(lines)")
        var nl = s
        nl.config.language = "nl"
        #expect(Self.plain(nl, 80, 24, "nl").contains("  ▶ r  Nog eens"))
        // r plays the computer again at that level, with the saved settings (no rematch to ask it for).
        #expect(Fx.sent(Fx.run(s, .key(.char("r"))).1) == ["NEW bot=easy"])
        // Against a person it stays a rematch.
        #expect(Self.plain(Fx.over()).contains("  ▶ r  Rematch"))
    }

    @Test("Item 25: after a duel with a person a key that does nothing says Enter asks for a rematch, as the key help does")
    func duelEndAgrees() {
        for (language, notice, help) in [("en", "The duel is over: Enter asks for a rematch, Tab opens the settings.", "r/Enter rematch"),
                                         ("nl", "Het duel is voorbij: Enter vraagt om revanche, Tab opent de instellingen.", "r/Enter revanche")] {
            var s = HangmanDuelReducerTests.guessing()
            s.config.language = language
            s = Fx.run(s, Fx.line("OVER id=2 winner=bob loser=alice reason=abandoned word=zephyr mistakes=0 pattern=______")).0
            s = Fx.run(s, .key(.char("x"))).0
            #expect(s.alert?.notice == .hangman(.duelOver))
            let text = Self.words(s, 80, 24, language)
            #expect(text.contains(notice) && text.contains(help), "\(Self.plain(s, 80, 24, language))")
        }
        // After a game against the computer Enter starts a new one, and says so.
        let lost = Fx.run(HFx.lost(), .key(.char("x"))).0
        #expect(lost.alert?.notice == .hangman(.gameOver))
    }

    @Test("Item 25: a player who is away is away, not thinking (Ghost's turn line, Hangman's), in both languages")
    func awayNotThinking() {
        for (language, away, thinking) in [("en", "bob is away (to move)", "bob is thinking…"), ("nl", "bob is weg (aan zet)", "bob denkt na…")] {
            let ghost = Fx.run(Fx.inGame(fragment: "p", language: language), Fx.line("ADJOURNED id=7 player=bob grace=60")).0
            for (w, h) in [(60, 20), (80, 24)] {
                let text = Self.words(ghost, w, h, language)
                #expect(text.contains(away) && !text.contains(thinking), "\(Self.plain(ghost, w, h, language))")
            }
            // Back: thinking again.
            #expect(Self.words(Fx.run(ghost, Fx.line("RETURNED id=7 player=bob")).0, 80, 24, language).contains(thinking))
        }
        // Hangman: alice, the setter, is away while bob guesses... and while it is her turn.
        var h = HangmanDuelReducerTests.guessing()
        h = Fx.run(h, Fx.lines("MOVE id=2 player=bob letter=e hit=no pattern=______ missed=e left=9",
                               "TURN id=2 player=alice pattern=______ missed=e left=9",
                               "ADJOURNED id=2 player=alice grace=60")).0
        #expect(Self.words(h).contains("alice is away (to move)"), "\(Self.plain(h))")
    }

    @Test("Item 25: the large title spells the game chosen: GHOSTD for Ghost, HANGMAN (GALGJE) for Hangman")
    func splashNamesTheGame() {
        #expect(Strings.en.productName(.ghost) == "GHOSTD")
        #expect(Strings.en.productName(.hangman) == "HANGMAN" && Strings.nl.productName(.hangman) == "GALGJE")
        let hangman = HFx.hangmanMain()
        let style = Style(colour: false)
        // A window tall enough for the large letters (a short one drops them).
        let hangmanBig = Screens.big("HANGMAN", 96, style).map { Layout.plain($0).trimmingSpaces }
        let ghostBig = Screens.big("GHOSTD", 96, style).map { Layout.plain($0).trimmingSpaces }
        func shows(_ s: ClientState, _ big: [String]) -> Bool {
            let lines = Self.plain(s, 120, 40).map(\.trimmingSpaces)
            return big.allSatisfy { row in row.isEmpty || lines.contains(row) }
        }
        #expect(shows(hangman, hangmanBig) && !shows(hangman, ghostBig), "\(Self.plain(hangman, 120, 40))")
        #expect(shows(Fx.named(), ghostBig), "\(Self.plain(Fx.named(), 120, 40))")
        // The first start's language screen with --game hangman too.
        var config = ClientConfig()
        config.game = .hangman
        var first = ClientState(config: config, serverAddress: "h:1")
        first.screen = .language
        #expect(shows(first, hangmanBig), "\(Self.plain(first, 120, 40))")
    }

    @Test("Item 25: Dutch says “spellen met rating” for rated games, never “gewaardeerd”")
    func dutchRatedGames() {
        let nl = Strings.nl
        for text in [nl.record.profileNoRatings, nl.record.profileGuest, nl.record.leadersEmpty(minGames: nil, maxRD: nil), nl.record.leadersEmpty(minGames: 10, maxRD: 110)] {
            #expect(!text.contains("gewaardeerd"), "\(text)")
        }
        #expect(nl.record.leadersEmpty(minGames: nil, maxRD: nil) == "Nog niemand op deze lijst: er komen geregistreerde namen op die genoeg spellen met rating hebben gespeeld.")
        #expect(nl.record.profileGuest == "Dit is een gastnaam: registreer hem om met rating te spelen.")
    }

    @Test("Item 25: the best-games list of phrases heads its answers Phrase (Zin), of words Word (Woord)")
    func phraseColumn() {
        for (language, phrase, word) in [("en", "Phrase", "Word"), ("nl", "Zin", "Woord")] {
            var s = Fx.run(HFx.hangmanMain(language: language), [.key(.char("8")), .key(.right), .key(.right)]).0
            #expect(s.hangman.scoresMode == "phrase")
            s = Fx.run(s, Fx.lines("SCORE rank=1 name=bob word=piece/of/cake mistakes=1 misses=8 mode=phrase lang=en",
                                   "OK SCORES count=1 board=hangman-phrase")).0
            let header = Self.plain(s, 80, 24, language).first { $0.contains("#") || $0.contains(language == "en" ? "Rank" : "Plaats") } ?? ""
            #expect(header.contains(phrase) && !header.contains(word), "\(Self.plain(s, 80, 24, language))")
            var words = Fx.run(HFx.hangmanMain(language: language), [.key(.char("8"))]).0
            words = Fx.run(words, Fx.lines("SCORE rank=1 name=bob word=pear mistakes=1 misses=8 mode=evil lang=en",
                                           "OK SCORES count=1 board=hangman-evil")).0
            let wordHeader = Self.plain(words, 80, 24, language).first { $0.contains(language == "en" ? "Rank" : "Plaats") } ?? ""
            #expect(wordHeader.contains(word), "\(Self.plain(words, 80, 24, language))")
        }
    }

    @Test("Item 25: who starts against the computer is saved (starter=computer) and read back")
    func whoStartsIsSaved() {
        let (s, fx) = Fx.run(Fx.named(), .key(.char("2")), .key(.char("4")))
        #expect(s.computerFirst && fx == [.saveConfig])
        #expect(s.config.rendered.contains("starter=computer\n"))
        let back = ClientConfig.parse(s.config.rendered)
        #expect(back.computerFirst)
        #expect(!ClientConfig.parse(Fx.named().config.rendered).computerFirst)
        // A new client with that file: the computer starts.
        var again = Fx.named()
        again.config = back
        #expect(Fx.sent(Fx.run(again, .key(.char("2")), .key(.char("1"))).1) == ["NEW bot=easy first=bot"])
    }
}
