import Testing
@testable import GhostClient
import GhostProtocol

/// Builders for Hangman's core tests.
enum HFx {
    /// Named, Hangman chosen on the main screen (game type: single → match → Hangman).
    static func hangmanMain(_ name: String = "alice", language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(Fx.named(name, language: language, colour: colour), .key(.char("5"))).0
    }

    /// Game 9 against the computer, evil, 4 letters, `misses` allowed; alice guesses.
    static func playing(misses: Int = 8, mode: String = "evil", length: Int = 4, pattern: String = "____",
                        language: String = "en", colour: Bool = false) -> ClientState {
        let s = hangmanMain(language: language, colour: colour)
        return Fx.run(s, Fx.lines("OK NEW game=hangman mode=\(mode) lang=en length=\(length) misses=\(misses)",
                                  "GAME id=9 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=\(mode) length=\(length) misses=\(misses)",
                                  "TURN id=9 player=alice pattern=\(pattern) missed=- left=\(misses)")).0
    }

    /// Game 9 lost: hanged on the 8th miss; the computer revealed "cull".
    static func lost(language: String = "en", colour: Bool = false) -> ClientState {
        var s = playing(language: language, colour: colour)
        s = Fx.run(s, Fx.lines("MOVE id=9 player=alice letter=u hit=yes pattern=_u__ missed=aeinorst left=0",
                               "OVER id=9 winner=bot-hangman loser=alice reason=hanged word=cull mistakes=8 pattern=_u__",
                               "INFO alice is hanged: the word was \"cull\".",
                               "SCORE rank=1 name=bob word=yuk mistakes=18 misses=26 mode=evil lang=en",
                               "OK SCORES count=1 board=hangman-evil")).0
        return s
    }

    /// Game 9 won with 2 mistakes; it went on the list at rank 2.
    static func won(language: String = "en", colour: Bool = false) -> ClientState {
        var s = playing(mode: "fair", language: language, colour: colour)
        s = Fx.run(s, Fx.lines("MOVE id=9 player=alice letter=r hit=yes pattern=pear missed=io left=6",
                               "OVER id=9 winner=alice loser=bot-hangman reason=solved word=pear mistakes=2 pattern=pear",
                               "INFO alice found \"pear\" with 2 mistakes.",
                               "RANK board=hangman-fair rank=2 word=pear mistakes=2 misses=8 mode=fair lang=en",
                               "SCORE rank=1 name=bob word=yuk mistakes=0 misses=8 mode=fair lang=en",
                               "SCORE rank=2 name=alice word=pear mistakes=2 misses=8 mode=fair lang=en",
                               "SCORE rank=3 name=carol word=pear mistakes=5 misses=8 mode=fair lang=en",
                               "OK SCORES count=3 board=hangman-fair")).0
        return s
    }
}

@Suite("Core: Hangman")
struct HangmanReducerTests {
    @Test("The main screen's game: 5 (Other game) or ←/→ switch Ghost and Hangman, m a Ghost match, all saved")
    func gameType() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("m")))
        #expect(s.config.matchMode && s.config.game == .ghost && fx == [.saveConfig])
        (s, fx) = Fx.run(s, .key(.char("5")))
        #expect(s.config.game == .hangman && fx == [.saveConfig])
        #expect(ClientConfig.parse(s.config.rendered).game == .hangman)
        #expect(Screens.render(s).contains { $0.contains("o  Other game: Ghost") })
        // Rules (7) are Hangman's while Hangman is chosen.
        (s, fx) = Fx.run(s, .key(.char("7")))
        #expect(s.screen == .hangman(.rules) && Screens.render(s).contains { $0.contains("How to play Hangman") })
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)
        (s, fx) = Fx.run(s, .key(.right))
        #expect(s.config.game == .ghost && s.config.matchMode)
        (s, fx) = Fx.run(s, .key(.left))
        #expect(s.config.game == .hangman && fx == [.saveConfig])
        #expect(ClientConfig.parse("game=chess\n").game == .ghost)
    }

    @Test("An evil game: NEW with the saved settings, letters sent, refusals cost nothing, the end and its list")
    func evilGame() {
        var (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("2")))
        #expect(s.screen == .hangman(.computer))
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW game=hangman"])
        (s, fx) = Fx.run(s, Fx.lines("OK NEW game=hangman mode=evil lang=en length=4 misses=8",
                                     "GAME id=9 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=8",
                                     "TURN id=9 player=alice pattern=____ missed=- left=8"))
        #expect(s.screen == .hangman(.play))
        #expect(s.config.token == Fx.token)
        #expect(s.game?.hangman == { var b = HangmanBoard(mode: "evil", length: 4, misses: 8); b.pattern = "____"; return b }())

        (s, fx) = Fx.run(s, .key(.char("E")))
        #expect(Fx.sent(fx) == ["LETTER e"])
        (s, _) = Fx.run(s, Fx.lines("OK LETTER letter=e hit=no pattern=____ missed=e left=7",
                                    "MOVE id=9 player=alice letter=e hit=no pattern=____ missed=e left=7",
                                    "TURN id=9 player=alice pattern=____ missed=e left=7"))
        #expect(s.game?.hangman?.missed == ["e"] && s.game?.hangman?.left == 7 && s.game?.hangman?.mistakes == 1)
        // The same letter again: the server refuses it, and nothing is counted.
        (s, fx) = Fx.run(s, .key(.char("e")), Fx.line("ERR already-guessed e has been guessed already"))
        #expect(Fx.sent(fx) == ["LETTER e"])
        #expect(s.alert?.notice == .hangman(.alreadyGuessed("e")))
        #expect(Screens.noticeText(s.alert!.notice, .en) == "You already tried “E”: that costs nothing.")
        #expect(s.game?.hangman?.left == 7)
        // A key that is not a letter is refused on the spot.
        (s, fx) = Fx.run(s, .key(.char("7")))
        #expect(fx.isEmpty && s.alert?.notice == .lettersOnly)

        (s, fx) = Fx.run(s, Fx.lines("MOVE id=9 player=alice letter=u hit=yes pattern=_u__ missed=aeinorst left=0",
                                     "OVER id=9 winner=bot-hangman loser=alice reason=hanged word=cull mistakes=8 pattern=_u__"))
        #expect(s.game == nil && s.config.token == nil && s.screen == .hangman(.play))
        #expect(s.hangman.ended?.word == "cull" && s.hangman.ended?.mistakes == 8)
        // The list comes at once.
        #expect(Fx.sent(fx) == ["SCORES 100 game=hangman mode=evil"])
        (s, _) = Fx.run(s, Fx.lines("INFO alice is hanged: the word was \"cull\".",
                                    "SCORE rank=1 name=bob word=yuk mistakes=18 misses=26 mode=evil lang=en",
                                    "OK SCORES count=1 board=hangman-evil"))
        #expect(s.hangman.ended?.info == "alice is hanged: the word was \"cull\".")
        #expect(s.hangman.scores?.map(\.word) == ["yuk"])
        // After the end letters do nothing; Tab and Enter still work.
        (s, fx) = Fx.run(s, .key(.char("q")))
        #expect(fx.isEmpty && s.alert?.notice == .hangman(.gameOver))
        (s, fx) = Fx.run(s, .key(.tab))
        #expect(s.screen == .hangman(.settings) && Fx.sent(fx) == ["SETTINGS"])
        (s, fx) = Fx.run(s, .key(.tab))
        #expect(s.screen == .hangman(.play))
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["NEW game=hangman"])
    }

    @Test("Enter mid-game asks first; yes resigns and starts a new game; Esc keeps playing")
    func newGameMidGame() {
        // After a guess (before any, the game is only called off: Issue44MoreTests).
        var (s, fx) = Fx.run(HFx.playing(), Fx.line("MOVE id=9 player=alice letter=e hit=no pattern=____ missed=e left=7"), .key(.enter))
        #expect(fx.isEmpty && s.hangman.confirmNew)
        #expect(Screens.render(s).contains { $0.contains("Start a new game? This one counts as lost.") })
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(fx.isEmpty && !s.hangman.confirmNew && !s.gameMenuOpen)
        (s, fx) = Fx.run(s, .key(.enter), .key(.enter))
        #expect(Fx.sent(fx) == ["LEAVE", "NEW game=hangman"])
    }

    @Test("= types a whole answer: a space is a gap between words; Enter sends SOLVE")
    func solve() {
        var (s, fx) = Fx.run(HFx.playing(mode: "phrase", length: 11, pattern: "_____/__/____"), .key(.char("=")))
        #expect(s.hangman.answer == "")
        (s, fx) = Fx.run(s, Fx.keys("Piece  of cake!") + [.key(.backspace)])
        #expect(fx.isEmpty && s.hangman.answer == "piece/of/cak")
        (s, fx) = Fx.run(s, Fx.keys("e") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["SOLVE piece/of/cake"] && s.hangman.answer == nil)
        (s, _) = Fx.run(s, Fx.line("ERR already-guessed \"piece/of/cake\" has been guessed already"))
        #expect(s.alert?.notice == .hangman(.alreadyGuessed("piece/of/cake")))
        (s, fx) = Fx.run(s, .key(.char("=")), .key(.enter))
        #expect(fx.isEmpty && s.alert?.notice == .hangman(.typeSomething))
    }

    @Test("Issue 13: a refused setting's reason is said in the screen's language, from the error code and the value, never the server's text")
    func refusalInTheScreensLanguage() {
        var s = Fx.run(HFx.hangmanMain(language: "nl"), .key(.char("2")), .key(.char("3"))).0
        s = Fx.run(s, Fx.lines("SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=22 default=any",
                               "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=nl default=en", "OK SETTINGS")).0
        let (refused, fx) = Fx.run(s, .key(.right),
                                   Fx.line("ERR bad-value hangman-length is any, or a length from 1 to 22 that the nl list has words of"))
        #expect(Fx.sent(fx) == ["SET hangman-length 23"])
        let lines = ScreenTests.plainLines(refused).map { $0.trimmingSpaces }
        #expect(lines.contains("Geweigerd: de server staat 23 hier niet toe; je bewaarde waarde blijft."))
        #expect(lines.contains("De server staat die waarde niet toe; er is niets veranderd."))
        #expect(!lines.joined().contains("length from"))
        // Another code has the client's own words too.
        var other = refused
        other.hangman.update("hangman-length") { $0.refusal = Refusal(code: .storeFailed, text: "the server could not store this") }
        #expect(ScreenTests.plainLines(other).map { $0.trimmingSpaces }
                    .contains("Geweigerd: De server kon dat niet opslaan; er is niets veranderd."))
        #expect(Screens.noticeText(.serverError(code: .badValue, text: "hangman-misses is a number from 1 to 26"), .en)
                == "The server does not allow that value; nothing changed.")
    }

    @Test("Settings: SETTINGS fills the flipside; ←/→ send SET at once; a refusal stays on screen with its reason")
    func settings() {
        var (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("2")), .key(.char("3")))
        #expect(s.screen == .hangman(.settings) && Fx.sent(fx) == ["SETTINGS"])
        (s, _) = Fx.run(s, Fx.lines("SETTING key=hangman-mode value=evil default=evil",
                                    "SETTING key=hangman-length value=any default=any",
                                    "SETTING key=hangman-misses value=8 default=8",
                                    "SETTING key=lang value=en default=en", "OK SETTINGS"))
        #expect(s.hangman.setting(.length).value == "any" && s.hangman.setting(.misses).value == "8")
        (s, fx) = Fx.run(s, .key(.right), .key(.right), .key(.left), .key(.left), .key(.left))
        #expect(Fx.sent(fx) == ["SET hangman-length 1", "SET hangman-length 2", "SET hangman-length 1", "SET hangman-length any"])
        // Replies to earlier changes do not undo a later one still on its way.
        (s, _) = Fx.run(s, Fx.lines("OK SET key=hangman-length value=1", "OK SET key=hangman-length value=2"))
        #expect(s.hangman.setting(.length).value == "any")
        (s, _) = Fx.run(s, Fx.lines("OK SET key=hangman-length value=1", "OK SET key=hangman-length value=any"))
        #expect(s.hangman.setting(.length) == { var x = HangmanSetting(key: "hangman-length"); x.saved = "any"; return x }())
        #expect(s.alert?.notice == .hangman(.saved))

        // Misses past 26: the server refuses; the row goes back to the saved 26 (never
        // past the limit on screen), the refusal under it names 27, nothing else changes.
        s.hangman.update("hangman-misses") { $0.saved = "26" }
        (s, fx) = Fx.run(s, .key(.down), .key(.right), Fx.line("ERR bad-value hangman-misses is a number from 1 to 26"))
        #expect(Fx.sent(fx) == ["SET hangman-misses 27"])
        #expect(s.hangman.setting(.misses).value == "26" && s.hangman.setting(.misses).saved == "26")
        var screen = Screens.render(s)
        #expect(screen.contains { $0.contains("Misses allowed  ◀ 26 ▶") })
        #expect(!screen.contains { $0.contains("◀ 27 ▶") })
        #expect(screen.contains { $0.contains("Refused: the server does not allow 27 here; your saved value stays.") })
        #expect(!screen.joined().contains("is a number from 1 to 26"))
        #expect(screen.map { $0.trimmingSpaces }.joined(separator: " ").contains("It applies to the next game, never to the one in progress."))
        (s, fx) = Fx.run(s, .key(.left), Fx.line("OK SET key=hangman-misses value=25"))
        #expect(Fx.sent(fx) == ["SET hangman-misses 25"])
        #expect(s.hangman.setting(.misses).refusal == nil && s.hangman.setting(.misses).refused == nil)

        // The mode cycles evil → fair → phrase; a duel is not a saved mode.
        (s, fx) = Fx.run(s, .key(.down), .key(.right), .key(.right), .key(.right))
        #expect(Fx.sent(fx) == ["SET hangman-mode fair", "SET hangman-mode phrase", "SET hangman-mode evil"])
        screen = Screens.render(s)
        #expect(screen.contains { $0.contains("▶ Mode") })
        // Offline, a change is not shown as if it were on its way.
        var offline = Fx.run(s, .disconnected).0
        (offline, fx) = Fx.run(offline, .key(.right))
        #expect(Fx.sent(fx).isEmpty && offline.hangman.setting(.mode) == s.hangman.setting(.mode))
        #expect(offline.alert?.notice == .notConnected)
        // Enter starts a game with the saved settings; Tab goes back.
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["NEW game=hangman"])
    }

    @Test("A duel: the setter types the word hidden, the server checks it; the guesser never sees it")
    func duel() {
        // alice hosts: she sets the word.
        var (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW game=hangman mode=duel"])
        (s, _) = Fx.run(s, Fx.line("OK NEW code=DNW73 game=hangman mode=duel lang=en length=4 misses=8"))
        #expect(s.screen == .waiting && s.lobby == .hosting(code: "DNW73", lang: "en", match: false, game: .hangman))
        (s, _) = Fx.run(s, Fx.lines("GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                    "TURN id=2 player=alice pattern= missed=- left=8"))
        #expect(s.screen == .hangman(.play) && s.mustSetWord)
        (s, fx) = Fx.run(s, Fx.keys("zzzz") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["WORD zzzz"])
        #expect(Screens.render(s).contains { $0.contains("Word: ****_") })
        #expect(!Screens.render(s).contains { $0.lowercased().contains("zzzz") })
        (s, _) = Fx.run(s, Fx.line("ERR not-a-word \"zzzz\" is not a word of the en list"))
        #expect(Screens.noticeText(s.alert!.notice, .en) == "“ZZZZ” is not a 4-letter word in English.")
        #expect(Screens.noticeText(s.alert!.notice, .nl) == "“ZZZZ” is geen woord van 4 letters in het Engels.")
        (s, fx) = Fx.run(s, [.key(.backspace), .key(.backspace), .key(.backspace), .key(.backspace)] + Fx.keys("pear") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["WORD pear"])
        (s, _) = Fx.run(s, Fx.lines("OK WORD length=4 pattern=____ missed=- left=8",
                                    "MOVE id=2 player=alice length=4 pattern=____ missed=- left=8",
                                    "TURN id=2 player=bob pattern=____ missed=- left=8",
                                    "MOVE id=2 player=bob letter=e hit=yes pattern=_e__ missed=- left=8"))
        #expect(!s.mustSetWord && s.game?.hangman?.word == "pear")
        let setter = Screens.render(s)
        #expect(setter.contains { $0.contains("Your word: PEAR") })
        #expect(setter.contains { $0.contains("bob guessed E: hit") })
        // The setter's letters go to the server, which says whose turn it is.
        (s, fx) = Fx.run(s, .key(.char("x")))
        #expect(Fx.sent(fx) == ["LETTER x"])

        // bob guesses: the same lines, without the word.
        var b = Fx.run(HFx.hangmanMain("bob"), .key(.char("4")), .key(.char("d")), .key(.enter)).0
        b = Fx.run(b, Fx.lines("OK JOIN code=DNW73 lang=en",
                               "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                               "TURN id=2 player=alice pattern= missed=- left=8")).0
        #expect(Screens.render(b).contains { $0.contains("alice is choosing a word…") })
        (b, fx) = Fx.run(b, .key(.char("e")))
        #expect(Fx.sent(fx) == ["LETTER e"])
        b = Fx.run(b, Fx.lines("ERR not-your-turn wait for the word", "MOVE id=2 player=alice length=4 pattern=____ missed=- left=8",
                               "TURN id=2 player=bob pattern=____ missed=- left=8")).0
        #expect(Screens.render(b).contains { $0.contains("Your turn: guess a letter") })
        #expect(!Screens.render(b).joined().lowercased().contains("pear"))
        b = Fx.run(b, Fx.lines("MOVE id=2 player=bob word=pear hit=yes pattern=pear missed=- left=8",
                               "OVER id=2 winner=bob loser=alice reason=solved word=pear mistakes=0 pattern=pear")).0
        #expect(HangmanScreens.hangmanEndText(b, b.hangman.ended!, .en) == "You found it with 0 mistakes. Congratulations!")
        #expect(HangmanScreens.hangmanEndText(s, { var e = b.hangman.ended!; e.board.word = "pear"; return e }(), .en)
                == "bob found your word with 0 mistakes.")
        // After a duel with a person, Enter asks for a rematch (the roles swap).
        (b, fx) = Fx.run(b, .key(.enter))
        #expect(Fx.sent(fx) == ["REMATCH"])
    }

    @Test("A duel shows the running score against the opponent: the server's record= first, then each duel's end")
    func duelRunningScore() {
        var b = Fx.run(HFx.hangmanMain("bob"), .key(.char("4")), .key(.char("d")), .key(.enter)).0
        b = Fx.run(b, Fx.lines("OK JOIN code=DNW73 lang=en",
                               "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8 record=2-1",
                               "MOVE id=2 player=alice length=4 pattern=____ missed=- left=8",
                               "TURN id=2 player=bob pattern=____ missed=- left=8")).0
        #expect(Screens.render(b).contains { $0.contains("So far: you 2 – 1 alice") })
        b = Fx.run(b, Fx.lines("MOVE id=2 player=bob word=pear hit=yes pattern=pear missed=- left=8",
                               "OVER id=2 winner=bob loser=alice reason=solved word=pear mistakes=0 pattern=pear",
                               "GAME id=3 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=4 misses=8 record=3-1",
                               "TURN id=3 player=bob pattern= missed=- left=8")).0
        #expect(b.game?.record == HeadToHead(mine: 3, theirs: 1))
        #expect(Screens.render(b).contains { $0.contains("So far: you 3 – 1 alice") })
    }

    @Test("The computer guesses my word: NEW mode=duel bot=guesser")
    func computerGuesses() {
        let (_, fx) = Fx.run(HFx.hangmanMain(), .key(.char("2")), .key(.char("2")))
        #expect(Fx.sent(fx) == ["NEW game=hangman mode=duel bot=guesser"])
    }

    @Test("--game hangman: named at once with the last name, then a new game; after a game that ended meanwhile too")
    func playAtOnce() {
        var config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", server: "h:1")
        var s = ClientState(config: config, serverAddress: "h:1")
        s.hangman.playAtOnce = true
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .tick(1), .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAMES", "NAME alice"])
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK NAMES count=0", "OK NAME name=alice lang=en"))
        // The name's settings too: the main screen shows its saved mode.
        #expect(Fx.sent(fx) == ["SETTINGS", "NEW game=hangman"])
        (s, fx) = Fx.run(s, Fx.line("OK NAME name=alice lang=en"))
        // The SETTINGS answered before it asked the kinds the server plays (HELP).
        #expect(Fx.sent(fx) == ["HELP", "SETTINGS"])

        // A token: RESUME first; the game is gone, so NAME, then a new game.
        config.token = Fx.token
        s = ClientState(config: config, serverAddress: "h:1")
        s.hangman.playAtOnce = true
        (s, fx) = Fx.run(s, .tick(1), .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)"])
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "ERR bad-token no game has that token", "OK NAME name=alice lang=en"))
        #expect(Fx.sent(fx) == ["NAME alice", "SETTINGS", "NEW game=hangman"])

        // The token resumes a Hangman game: no new game after it.
        s = ClientState(config: config, serverAddress: "h:1")
        s.hangman.playAtOnce = true
        (s, fx) = Fx.run(s, .tick(1), .connected, Fx.line(Fx.hello))
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=9",
                                     "GAME id=9 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=8",
                                     "TURN id=9 player=alice pattern=_e__ missed=a left=7"))
        #expect(s.screen == .hangman(.play) && s.game?.hangman?.pattern == "_e__" && !s.hangman.playAtOnce)
        #expect(Fx.sent(fx).isEmpty)
    }

    @Test("Malformed Hangman lines are ignored, never trusted")
    func badLines() {
        var s = HFx.playing()
        s = Fx.run(s, Fx.lines("TURN id=9 player=alice pattern=a<b missed=1 left=x",
                               "MOVE id=9 player=alice letter=% hit=maybe pattern=\u{1B}[2J missed=- left=999999",
                               "TURN id=8 player=alice pattern=ab missed=- left=1")).0
        #expect(s.game?.hangman?.pattern == "____" && s.game?.hangman?.missed == [] && s.game?.hangman?.left == 8)
        // A Hangman GAME without its setup fields does not start a game.
        let t = Fx.run(HFx.hangmanMain(), Fx.line("GAME id=3 game=hangman lang=en players=bot-hangman,alice round=1 mode=evil")).0
        #expect(t.game == nil && t.screen == .main)
        // SCORE lines without a word are skipped.
        let u = Fx.run(HFx.lost(), Fx.lines("SCORE rank=1 name=x mistakes=1", "OK SCORES count=1 board=hangman-evil")).0
        #expect(u.hangman.scores == [])
    }
}

@Suite("Core: Hangman duels between people")
struct HangmanDuelReducerTests {
    /// bob guesses alice's word in game 2; the word is set.
    static func guessing() -> ClientState {
        Fx.run(HFx.hangmanMain("bob"), Fx.lines(
            "OK JOIN code=DNW73 lang=en",
            "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=6 misses=10",
            "TURN id=2 player=alice pattern= missed=- left=10",
            "MOVE id=2 player=alice length=6 pattern=______ missed=- left=10",
            "TURN id=2 player=bob pattern=______ missed=- left=10")).0
    }

    @Test("Offers, adjournment and claim work as in Ghost, on the Hangman screen")
    func offersAndClaims() {
        var s = Self.guessing()
        s = Fx.run(s, Fx.line("OFFER id=2 player=alice kind=restart")).0
        #expect(Screens.render(s).contains { $0.contains("alice offers to restart the round") || $0.contains("alice") && $0.contains("restart") })
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.escape), .key(.enter))
        #expect(Fx.sent(fx) == ["ACCEPT"])
        s = Fx.run(s, Fx.lines("ADJOURNED id=2 player=alice grace=60", "CLAIMABLE id=2 player=alice")).0
        #expect(s.game?.away == "alice" && s.game?.claimable == true)
        let screen = Screens.render(s)
        #expect(screen.contains { $0.contains("alice") && $0.lowercased().contains("claim") })
        (s, fx) = Fx.run(s, .key(.escape))
        let claim = PlayFeature.gameMenuItems(s).firstIndex(of: .claim) ?? 99
        (s, fx) = Fx.run(s, .key(.char(Character(String(claim + 1)))))
        #expect(Fx.sent(fx) == ["CLAIM"])
        s = Fx.run(s, Fx.line("OVER id=2 winner=bob loser=alice reason=abandoned word=zephyr mistakes=0 pattern=______")).0
        #expect(HangmanScreens.hangmanEndText(s, s.hangman.ended!, .en) == "alice stayed away; bob claimed the game.")
        #expect(Screens.render(s).contains { $0.contains("The word: ZEPHYR") })
    }

    @Test("After a duel: REMATCH asked, offered by the other, shown on the banner")
    func rematch() {
        var s = Fx.run(Self.guessing(), Fx.lines("MOVE id=2 player=bob word=zephyr hit=yes pattern=zephyr missed=- left=10",
                                                 "OVER id=2 winner=bob loser=alice reason=solved word=zephyr mistakes=0 pattern=zephyr",
                                                 "REMATCH id=2 player=alice")).0
        #expect(Screens.render(s).contains { $0.contains("alice asks for a rematch, with the roles swapped: press Enter.") })
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["REMATCH"])
        (s, _) = Fx.run(s, Fx.lines("OK REMATCH status=started",
                                    "GAME id=3 game=hangman lang=en players=bob,alice token=\(Fx.token) round=1 mode=duel length=6 misses=10",
                                    "TURN id=3 player=bob pattern= missed=- left=10"))
        #expect(s.mustSetWord && s.hangman.ended == nil)
        #expect(Screens.render(s).contains { $0.contains("Choose a word for alice to guess:") })

        // The one who asks first waits for the other.
        var t = Fx.run(Self.guessing(), Fx.line("OVER id=2 winner=alice loser=bob reason=hanged word=zephyr mistakes=10 pattern=_e____")).0
        (t, fx) = Fx.run(t, .key(.enter), Fx.line("OK REMATCH status=asked"))
        #expect(Screens.render(t).contains { $0.contains("Waiting for alice to accept the rematch…") })
        t = Fx.run(t, Fx.line("CANCELLED id=2 player=bob kind=rematch")).0
        #expect(t.hangman.ended?.rematchAsked == false)
    }

    @Test("The setter resumes: GAME carries the word, and the setter's screen shows it")
    func setterResumes() {
        var config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", server: "h:1")
        config.token = Fx.token
        var s = ClientState(config: config, serverAddress: "h:1")
        s = Fx.run(s, [.tick(1), .connected, Fx.line(Fx.hello)] + Fx.lines(
            "OK LANG lang=en", "OK RESUME id=2",
            "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=6 misses=10 word=zephyr",
            "TURN id=2 player=bob pattern=_e____ missed=q left=9")).0
        #expect(s.screen == .hangman(.play) && !s.mustSetWord)
        let screen = Screens.render(s)
        #expect(screen.contains { $0.contains("Your word: ZEPHYR") } && screen.contains { $0.contains("bob is guessing…") })
    }

    @Test("The best-games lists from the main screen: ←/→ visit evil, fair, phrases and duels")
    func lists() {
        var (s, fx) = Fx.run(HFx.hangmanMain(), .key(.char("8")))
        #expect(s.screen == .hangman(.scores) && Fx.sent(fx) == ["SCORES 100 game=hangman mode=evil"])
        (s, _) = Fx.run(s, Fx.lines("SCORE rank=1 name=alice word=piece/of/cake mistakes=1 misses=8 mode=phrase lang=en",
                                    "OK SCORES count=1 board=hangman-evil"))
        #expect(Screens.render(s).contains { $0.contains("▶    1  alice") && $0.contains("PIECE OF CAKE") })
        (s, fx) = Fx.run(s, .key(.right), .key(.right), .key(.right), .key(.right), .key(.left))
        #expect(Fx.sent(fx) == ["SCORES 100 game=hangman mode=fair", "SCORES 100 game=hangman mode=phrase",
                                "SCORES 100 game=hangman mode=duel", "SCORES 100 game=hangman mode=evil",
                                "SCORES 100 game=hangman mode=duel"])
        (s, _) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)
    }
}
