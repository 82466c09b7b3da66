import Testing
@testable import GhostClient
import GhostProtocol

/// More of a new player's findings.
@Suite("Issue 44: more of a new player's findings")
struct Issue44MoreTests {
    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> [String] {
        Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
    }

    /// Hangman's settings screen, with `length` and `mode` saved.
    static func settings(length: String, mode: String, language: String) -> ClientState {
        Fx.run(HFx.hangmanMain(language: language), [.key(.char("2")), .key(.char("3"))]
               + Fx.lines("SETTING key=hangman-mode value=\(mode) default=evil", "SETTING key=hangman-length value=\(length) default=any",
                          "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=\(language) default=en", "OK SETTINGS")).0
    }

    @Test("Item 5: a saved length does not apply to phrases (NEW asks for any length), the settings say so, and a refused NEW shows the server's reason")
    func phrasesIgnoreTheLength() {
        for (language, unused, refused) in [("en", "(not used for phrases)", "No new game: the server says “no phrase of 5 letters in the en list”."),
                                            ("nl", "(niet voor zinnen)", "Geen nieuw spel: de server zegt “no phrase of 5 letters in the en list”.")] {
            let s = Issue44MoreTests.settings(length: "5", mode: "phrase", language: language)
            for (w, h) in [(60, 20), (80, 24)] {
                let lines = Issue44MoreTests.plain(s, w, h, language)
                #expect(lines.contains { $0.contains("◀ 5 ▶  \(unused)") }, "\(lines)")
            }
            let (started, fx) = Fx.run(s, .key(.enter))
            #expect(Fx.sent(fx) == ["NEW game=hangman length=any"], "\(Fx.sent(fx))")
            // Refused all the same: the server's text says why.
            let (after, _) = Fx.run(started, Fx.line("ERR bad-value no phrase of 5 letters in the en list"))
            #expect(after.alert?.notice == .hangman(.newRefused("no phrase of 5 letters in the en list")))
            for (w, h) in [(60, 20), (80, 24)] {
                let text = Issue44MoreTests.plain(after, w, h, language).map { $0.trimmingSpaces }.joined(separator: " ")
                #expect(text.contains(refused), "\(Issue44MoreTests.plain(after, w, h, language))")
            }
            // Words keep the length: no note, and NEW leaves it to the saved setting.
            let words = Issue44MoreTests.settings(length: "5", mode: "fair", language: language)
            #expect(!Issue44MoreTests.plain(words, 80, 24, language).joined().contains(unused))
            #expect(Fx.sent(Fx.run(words, .key(.enter)).1) == ["NEW game=hangman"])
        }
    }
}

extension Issue44MoreTests {
    /// The words on screen, one space between each (paragraphs wrap).
    static func words(_ s: ClientState, _ w: Int = 80, _ h: Int = 24, _ language: String = "en") -> String {
        plain(s, w, h, language).joined(separator: " ").split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }

    @Test("Item 12: the winner reading the screen is “you” (claimed, named), and a sentence after “Last round:” starts in lower case")
    func youAsTheWinner() {
        for (language, claimed, named) in [("en", "alice stayed away too long; you claimed the game.", "carol challenged “P”, but you named “PEANUT”."),
                                           ("nl", "alice bleef te lang weg; jij eiste de winst op.", "carol daagde “P” uit, maar jij noemde “PEANUT”.")] {
            let bob = Fx.run(Fx.inGame(me: "bob", opponent: "alice", meFirst: false, language: language),
                             Fx.lines("OVER id=7 winner=bob loser=alice reason=abandoned fragment=", "INFO server text")).0
            #expect(Issue44MoreTests.words(bob, 80, 24, language).contains(claimed), "\(Issue44MoreTests.plain(bob, 80, 24, language))")
            let alice = Fx.run(Fx.inGame(me: "alice", opponent: "carol", language: language),
                               Fx.lines("OVER id=7 winner=alice loser=carol reason=challenge-failed fragment=p word=peanut", "INFO server text")).0
            #expect(Issue44MoreTests.words(alice, 80, 24, language).contains(named), "\(Issue44MoreTests.plain(alice, 80, 24, language))")
            // Third person stays for the loser's side and for others.
            #expect(GhostScreens.reasonText(reason: .abandoned, loser: "alice", winner: "bob", fragment: "", Strings.forLanguage(language))
                        .contains(language == "en" ? "bob claimed" : "bob eiste"))
        }
        // “Last round:” then a sentence about you: no capital after the colon.
        var s = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines(
            "MOVE id=5 player=alice letter=q fragment=q", "MOVE id=5 player=bob letter=z fragment=qz",
            "OVER id=5 winner=bob loser=alice reason=dead fragment=qz ghost=G,")).0
        s = Fx.run(s, Fx.lines("GAME id=5 game=ghost lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=G,",
                               "TURN id=5 player=bob fragment= ghost=G,")).0
        #expect(Issue44MoreTests.words(s).contains("Last round: you made “QZ”: no word continues it. You earn the letter G."),
                "\(Issue44MoreTests.plain(s))")
        var nl = s
        nl.config.language = "nl"
        #expect(Issue44MoreTests.words(nl, 80, 24, "nl").contains("Vorige ronde: je maakte “QZ”"), "\(Issue44MoreTests.plain(nl, 80, 24, "nl"))")
        #expect(Strings.en.secondPerson.afterColon("bob made it") == "bob made it")
    }

    @Test("Item 13: before anyone moved, leaving (or a new Hangman game) says the game is called off and nobody loses; after a move, that you lose")
    func leaveBeforeAnyMove() {
        for (language, callOff, lose, newCallOff, newLose) in [
            ("en", "Leave? Nobody has moved yet: the game is called off, nobody loses.", "Leave and lose this game?",
             "Start a new game? Nobody has moved yet: this one is called off, nobody loses.", "Start a new game? This one counts as lost."),
            ("nl", "Stoppen? Niemand heeft nog gezet: het spel gaat niet door, niemand verliest.", "Stoppen en dit spel verliezen?",
             "Nieuw spel beginnen? Niemand heeft nog gezet: dit spel gaat niet door, niemand verliest.",
             "Nieuw spel beginnen? Dit spel telt als verloren.")] {
            // Ghost: the game menu's l, before the first letter and after it.
            let fresh = Fx.run(Fx.inGame(language: language), .key(.escape), .key(.char("l"))).0
            #expect(fresh.confirmLeave)
            for (w, h) in [(60, 20), (80, 24)] {
                #expect(Issue44MoreTests.words(fresh, w, h, language).contains(callOff), "\(Issue44MoreTests.plain(fresh, w, h, language))")
            }
            let moved = Fx.run(Fx.inGame(language: language), Fx.line("MOVE id=7 player=alice letter=p fragment=p"),
                               .key(.escape), .key(.char("l"))).0
            #expect(Issue44MoreTests.words(moved, 80, 24, language).contains(lose))
            #expect(!Issue44MoreTests.words(moved, 80, 24, language).contains(callOff))
            // The computer's first letter is no person's move.
            let botFirst = Fx.run(Fx.inGame(opponent: "bot-easy", meFirst: false, language: language),
                                  Fx.line("MOVE id=7 player=bot-easy letter=p fragment=p"), .key(.escape), .key(.char("l"))).0
            #expect(Issue44MoreTests.words(botFirst, 80, 24, language).contains(callOff))
            // A resumed game whose letters this client did not see: it may be lost.
            let resumed = Fx.run(Fx.inGame(language: language), Fx.line("TURN id=7 player=alice fragment=pe"),
                                 .key(.escape), .key(.char("l"))).0
            #expect(Issue44MoreTests.words(resumed, 80, 24, language).contains(lose))
            // Hangman: Enter asks about a new game.
            let hangman = Fx.run(HFx.playing(language: language), .key(.enter)).0
            #expect(hangman.hangman.confirmNew)
            for (w, h) in [(60, 20), (80, 24)] {
                #expect(Issue44MoreTests.words(hangman, w, h, language).contains(newCallOff), "\(Issue44MoreTests.plain(hangman, w, h, language))")
            }
            let guessed = Fx.run(HFx.playing(language: language),
                                 Fx.line("MOVE id=9 player=alice letter=e hit=no pattern=____ missed=e left=7"), .key(.enter)).0
            #expect(Issue44MoreTests.words(guessed, 80, 24, language).contains(newLose))
        }
    }

    @Test("Item 24: bluff and challenge has one name: the main screen's panel, the game's title, the lists, as the tutorial names it")
    func oneNameForBluffAndChallenge() {
        for (language, name) in [("en", "Bluff and challenge"), ("nl", "Bluffen en uitdagen")] {
            let t = Strings.forLanguage(language)
            #expect(t.variantName("challenge") == name)
            let main = Fx.run(Fx.named(language: language), .key(.char("v")), .key(.char("v"))).0
            #expect(main.config.challenge)
            for (w, h) in [(60, 20), (80, 24)] {
                #expect(Issue44MoreTests.words(main, w, h, language).contains("[" + name + "]"), "\(Issue44MoreTests.plain(main, w, h, language))")
            }
            let game = Fx.run(main, Fx.keys("3") + Fx.lines("OK NEW code=4EG7R lang=en",
                                                              "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=challenge",
                                                              "TURN id=7 player=alice fragment=")).0
            #expect(Issue44MoreTests.plain(game, 80, 24, language)[0].contains(name + " · "), "\(Issue44MoreTests.plain(game, 80, 24, language))")
            #expect(!Issue44MoreTests.words(game, 80, 24, language).contains(language == "en" ? "Challenge ·" : "Uitdagen ·"))
        }
    }
}
