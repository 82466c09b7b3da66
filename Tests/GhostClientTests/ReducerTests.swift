import Testing
import TestSupport
@testable import GhostClient
import GhostProtocol
import GhostWire
import WordLists

@Suite("Core: first start, names and the lobby", .ownThread)
struct ReducerLobbyTests {
    @Test("First start: choose the language, read the tutorial, then the name screen; all remembered")
    func firstStart() {
        let s0 = ClientState(config: ClientConfig(), serverAddress: "h:1")
        #expect(s0.screen == .language)
        // Connected before choosing: only the greeting, nothing sent yet.
        var (s, fx) = Fx.run(s0, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx).isEmpty)
        #expect(s.link == .online)

        (s, fx) = Fx.run(s, .key(.down), .key(.enter))
        #expect(s.config.language == "nl")
        #expect(fx == [.saveConfig, .send(.lang("nl"))])
        #expect(s.screen == .tutorial && s.settings.tutorialPage == 0)

        (s, fx) = Fx.run(s, .key(.right), .key(.right), .key(.left), .key(.char(" ")))
        #expect(s.settings.tutorialPage == 2)
        #expect(fx.isEmpty)
        // Ghost's pages, then Superghost's, bluff and challenge's and Hangman's, then the keys beyond playing.
        (s, fx) = Fx.run(s, .key(.enter), .key(.enter), .key(.enter), .key(.enter), .key(.enter), .key(.enter))
        #expect(s.screen == .name)
        #expect(s.config.tutorialSeen)
        #expect(fx == [.saveConfig, .send(.recentNames)])
    }

    @Test("A returning player goes straight to the name screen: LANG, then NAMES")
    func returning() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice")
        let (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello))
        #expect(s.screen == .name)
        #expect(Fx.sent(fx) == ["LANG en", "NAMES"])
        #expect(s.pending == [.lang, .names])
    }

    @Test("Names: this client's names first (the last one preselected), then the server's; Enter sends NAME, which the config remembers")
    func pickName() {
        var s = Fx.online(lastName: "bob")
        #expect(s.filteredNames == ["bob"] && s.namePicker.nameCursor == 0)
        s = Fx.run(s, Fx.lines("OK LANG lang=en", "NAME name=alice", "NAME name=bob", "NAME name=carol", "OK NAMES count=3")).0
        #expect(s.namePicker.knownNames == ["alice", "bob", "carol"])
        #expect(s.filteredNames == ["bob", "alice", "carol"])
        #expect(s.namePicker.nameCursor == 0)
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.down), .key(.down), .key(.enter))
        #expect(Fx.sent(fx) == ["NAME carol"])
        (s, fx) = Fx.run(s, Fx.line("OK NAME name=carol lang=en"))
        #expect(s.screen == .main)
        #expect(s.myName == "carol" && s.named)
        #expect(s.config.lastName == "carol")
        #expect(s.config.recentNames == ["carol", "bob"])
        #expect(fx == [.saveConfig, .send(.settings)])
    }

    @Test("Names: typing filters the list, searches the server and sends the typed name; ERR name-taken and bad-name are alerts")
    func typeName() {
        var s = Fx.online()
        s = Fx.run(s, Fx.lines("OK LANG lang=en", "NAME name=alice", "NAME name=albert", "NAME name=bob", "OK NAMES count=3")).0
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.keys("al"))
        #expect(s.filteredNames == ["alice", "albert"])
        #expect(s.namePicker.nameCursor == nil)
        // One NAMES at a time: "al" is asked once "a" is answered.
        #expect(Fx.sent(fx) == ["NAMES prefix=a"])
        (s, fx) = Fx.run(s, Fx.lines("NAME name=amy", "NAME name=albert", "OK NAMES count=2 more=no"))
        #expect(Fx.sent(fx) == ["NAMES prefix=al"])
        (s, fx) = Fx.run(s, Fx.lines("NAME name=albert", "NAME name=alma", "OK NAMES count=2 more=no"))
        #expect(s.filteredNames == ["alice", "albert", "alma"])
        (s, fx) = Fx.run(s, Fx.keys("ex") + [.key(.backspace), .key(.enter)])
        #expect(Fx.sent(fx) == ["NAMES prefix=ale", "NAME ale"])
        (s, _) = Fx.run(s, Fx.lines("OK NAMES count=0 more=no", "ERR name-taken another player is using that name"))
        #expect(s.screen == .name)
        #expect(s.alert?.notice == .serverError(code: .nameTaken, text: "another player is using that name"))
        #expect(Screens.noticeText(s.alert!.notice, .en) == "That name is in use by another player right now.")
        // "!" is refused as it is typed (Issue27PolishTests); a name the server refuses all the same is an alert.
        s.namePicker.nameField = "ale!!"
        (s, fx) = Fx.run(s, [.key(.enter), Fx.line("ERR bad-name a name is 1-16 letters, digits, - or _")])
        #expect(Fx.sent(fx) == ["NAME ale!!"])
        #expect(s.alert?.notice == .serverError(code: .badName, text: "a name is 1-16 letters, digits, - or _"))
        // Enter with nothing typed and nothing picked: an alert, nothing sent.
        s.namePicker.nameField = ""
        s.namePicker.nameCursor = nil
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .typeAName)
    }

    @Test("Main menu: quick match waits, Esc cancels with LEAVE; a game starts on GAME")
    func quickMatch() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        (s, fx) = Fx.run(s, Fx.lines("OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en."))
        #expect(s.screen == .waiting)
        #expect(s.lobby == .seeking(lang: "en", match: false))
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(Fx.sent(fx) == ["LEAVE"])
        (s, _) = Fx.run(s, Fx.line("OK LEAVE"))
        #expect(s.screen == .main && s.lobby == nil)

        (s, fx) = Fx.run(s, .key(.down), .key(.up), .key(.enter))
        #expect(Fx.sent(fx) == ["SEEK"])
        (s, fx) = Fx.run(s, Fx.lines("OK SEEK lang=en", "GAME id=3 game=ghost lang=en players=bob,alice token=\(Fx.token) round=1",
                                     "TURN id=3 player=bob fragment="))
        #expect(s.screen == .game)
        #expect(s.game?.players == ["bob", "alice"])
        #expect(s.game?.toMove == "bob")
        #expect(s.config.token == Fx.token)
        #expect(fx == [.saveConfig])
    }

    @Test("Private games: NEW shows the code; JOIN sends the typed code in capitals; errors are alerts")
    func privateGames() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW"])
        (s, _) = Fx.run(s, Fx.line("OK NEW code=4EG7R lang=en"))
        #expect(s.screen == .waiting)
        #expect(s.lobby == .hosting(code: "4EG7R", lang: "en", match: false))

        (s, fx) = Fx.run(Fx.named("bob"), Fx.keys("4") + Fx.keys("4eg7") + [.key(.backspace)] + Fx.keys("7r") + [.key(.enter)])
        #expect(s.screen == .join)
        #expect(Fx.sent(fx) == ["JOIN 4EG7R"])
        (s, _) = Fx.run(s, Fx.line("ERR no-such-game no open private game has that code"))
        #expect(s.screen == .join)
        #expect(s.alert?.notice == .serverError(code: .noSuchGame, text: "no open private game has that code"))
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)
        (s, fx) = Fx.run(s, .key(.char("4")), .key(.enter))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .typeACode)
    }

    @Test("Main menu: language, rules, high scores, change name, game type, quit")
    func mainMenu() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("6")))
        #expect(s.screen == .language)
        (s, fx) = Fx.run(s, .key(.down), .key(.enter))
        #expect(s.config.language == "nl")
        #expect(fx == [.saveConfig, .send(.lang("nl"))])
        #expect(s.screen == .main)
        #expect(s.strings.code == "nl")

        (s, fx) = Fx.run(s, .key(.char("7")))
        #expect(s.screen == .tutorial)
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)
        #expect(fx.isEmpty)

        (s, fx) = Fx.run(s, .key(.char("8")))
        #expect(s.screen == .scores && s.highScores.scores == nil)
        #expect(Fx.sent(fx) == ["SCORES 100"])
        (s, _) = Fx.run(s, Fx.lines("SCORE rank=1 name=alice wins=3 played=4", "SCORE rank=2 name=bob wins=1 played=4",
                                    "OK SCORES count=2 board=game"))
        #expect(s.highScores.scores == [ScoreEntry(rank: 1, name: "alice", wins: 3, played: 4),
                                        ScoreEntry(rank: 2, name: "bob", wins: 1, played: 4)])
        (s, _) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)

        (s, fx) = Fx.run(s, .key(.char("9")))
        #expect(s.screen == .name)
        #expect(Fx.sent(fx) == ["NAMES"])
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(s.screen == .main)

        // The game type (m: a match) is remembered and applies to SEEK and NEW.
        (s, fx) = Fx.run(s, .key(.char("m")))
        #expect(s.config.matchMode)
        #expect(fx == [.saveConfig])
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK rounds=ghost"])
        (s, _) = Fx.run(s, Fx.line("OK SEEK lang=nl rounds=ghost"))
        #expect(s.lobby == .seeking(lang: "nl", match: true))
        (s, _) = Fx.run(s, .key(.escape), Fx.line("OK LEAVE"))
        (s, fx) = Fx.run(s, .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW rounds=ghost"])
        (s, _) = Fx.run(s, Fx.line("OK NEW code=ABCDE lang=nl rounds=ghost"), .key(.escape), Fx.line("OK LEAVE"))

        (s, fx) = Fx.run(s, .key(.char("q")), .key(.char("y")))
        #expect(fx == [.quit])
        // Ctrl-C asks first; a second one quits.
        (s, fx) = Fx.run(Fx.named(), .key(.ctrlC), .key(.ctrlC))
        #expect(fx == [.quit])
        #expect(s.quitting)
    }

    @Test("Nothing is sent while offline: an alert says so")
    func offline() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice")
        let (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), Fx.keys("alice") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .notConnected)
        #expect(s.pending.isEmpty)
    }
}

@Suite("Core: playing", .ownThread)
struct ReducerGameTests {
    @Test("A letter key sends LETTER; upper case is folded; the server's MOVE and TURN update the screen")
    func letters() {
        var (s, fx) = Fx.run(Fx.inGame(), .key(.char("P")))
        #expect(Fx.sent(fx) == ["LETTER p"])
        (s, fx) = Fx.run(s, Fx.lines("OK LETTER letter=p fragment=p", "MOVE id=7 player=alice letter=p fragment=p",
                                     "TURN id=7 player=bob fragment=p"))
        #expect(fx.isEmpty)
        #expect(s.game?.ghost?.fragment == "p")
        #expect(s.game?.toMove == "bob")
        #expect(s.game?.lastMove?.player == "alice")
        #expect(s.game?.flash == "p")
        #expect(s.pending.isEmpty)
        // The flash ends after a moment.
        #expect(s.nextDeadline == 100 + ClientState.flashSeconds)
        (s, _) = Fx.run(s, .tick(101))
        #expect(s.game?.flash == nil)
    }

    @Test("The client does not judge turns: a letter out of turn is sent, and the server's ERR becomes an alert")
    func outOfTurn() {
        var (s, fx) = Fx.run(Fx.inGame(meFirst: false), .key(.char("x")))
        #expect(Fx.sent(fx) == ["LETTER x"])
        (s, fx) = Fx.run(s, Fx.line("ERR not-your-turn it is bob's turn"))
        #expect(s.alert?.notice == .notYourTurn)
        #expect(s.game?.ghost?.fragment == "")
        // Alerts go away by themselves.
        (s, _) = Fx.run(s, .tick(100 + ClientState.alertSeconds + 0.1))
        #expect(s.alert == nil)
    }

    @Test("Keys that are not letters a-z are never sent: an alert instead", arguments: [
        Key.char("7"), .char("!"), .char("é"), .char(" "), .enter, .backspace, .up, .other, .char("ß"),
    ])
    func notLetters(_ key: Key) {
        let (s, fx) = Fx.run(Fx.inGame(), .key(key))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .lettersOnly)
    }

    @Test("The menu: Esc opens it; restart, language, leave (confirmed), close; letters still play")
    func menu() {
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), .key(.escape))
        #expect(s.gameMenuOpen)
        #expect(PlayFeature.gameMenuItems(s) == [.accept, .decline, .claim, .restart, .language("en"), .language("nl"), .leave, .close])
        (s, fx) = Fx.run(s, .key(.char("5")))
        #expect(Fx.sent(fx) == ["RESTART"])
        #expect(!s.gameMenuOpen)
        (s, _) = Fx.run(s, Fx.lines("OK RESTART status=offered", "OFFER id=7 player=alice kind=restart"))
        #expect(s.alert?.notice == .offerSent)
        #expect(s.game?.offer == Offer(player: "alice", kind: .restart, lang: nil))
        // My own offer is not mine to accept.
        #expect(!PlayFeature.gameMenuEnabled(s, .accept) && !PlayFeature.gameMenuEnabled(s, .decline))
        (s, _) = Fx.run(s, Fx.line("DECLINED id=7 player=bob kind=restart"))
        #expect(s.game?.offer == nil)
        #expect(s.alert?.notice == .declined("bob"))

        (s, fx) = Fx.run(s, .key(.escape), .key(.down), .key(.enter), .key(.char("y")))
        #expect(fx == [.send(.lang("nl"))])
        #expect(s.config.language == "en")

        (s, fx) = Fx.run(s, .key(.escape), .key(.char("l")))
        #expect(s.confirmLeave)
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(!s.confirmLeave)
        (s, fx) = Fx.run(s, .key(.tab), .key(.char("9")), .key(.enter))
        #expect(Fx.sent(fx) == ["LEAVE"])

        // The menu is modal: a letter no entry has plays nothing; closed, letters play.
        (s, fx) = Fx.run(s, .key(.escape), .key(.char("z")))
        #expect(s.gameMenuOpen && fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.char("b")), .key(.char("a")))
        #expect(!s.gameMenuOpen)
        #expect(Fx.sent(fx) == ["LETTER a"])
    }

    @Test("An offer from the opponent: the menu offers ACCEPT and DECLINE; ACCEPTED restarts with GAME")
    func offers() {
        var s = Fx.run(Fx.inGame(fragment: "pe"), Fx.lines("OFFER id=7 player=bob kind=lang lang=nl",
                                                          "INFO bob offers to switch to nl and restart: ACCEPT or DECLINE.")).0
        #expect(s.game?.offer == Offer(player: "bob", kind: .lang, lang: "nl"))
        #expect(PlayFeature.gameMenuItems(s).prefix(2) == [.accept, .decline])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.escape), .key(.char("2")))
        #expect(Fx.sent(fx) == ["DECLINE"])
        (s, fx) = Fx.run(s, .key(.escape), .key(.enter))
        #expect(Fx.sent(fx) == ["ACCEPT"])
        (s, fx) = Fx.run(s, Fx.lines("OK ACCEPT", "ACCEPTED id=7 player=alice kind=lang",
                                     "GAME id=7 game=ghost lang=nl players=alice,bob token=\(Fx.token) round=2",
                                     "TURN id=7 player=alice fragment="))
        #expect(s.game?.lang == "nl")
        #expect(s.game?.round == 2)
        #expect(s.game?.ghost?.fragment == "")
        #expect(s.game?.offer == nil)
        #expect(fx.isEmpty)  // the same token: nothing to save
    }

    @Test("A letter played cancels a pending offer")
    func letterCancelsOffer() {
        let s = Fx.run(Fx.inGame(fragment: "p"), Fx.lines("OFFER id=7 player=alice kind=restart",
                                                         "MOVE id=7 player=bob letter=e fragment=pe")).0
        #expect(s.game?.offer == nil)
        // Protocol 2 says so too, with CANCELLED; it clears the offer on its own.
        let t = Fx.run(Fx.inGame(fragment: "p"), Fx.lines("OFFER id=7 player=alice kind=lang lang=nl",
                                                         "CANCELLED id=7 player=alice kind=lang")).0
        #expect(t.game?.offer == nil)
    }

    @Test("The opponent away, back, and claimable: CLAIM from the menu")
    func awayAndClaim() {
        var s = Fx.run(Fx.inGame(fragment: "p"), Fx.lines("ADJOURNED id=7 player=bob grace=60",
                                                         "INFO bob is away. The game waits.")).0
        #expect(s.game?.away == "bob")
        #expect(s.game?.grace == 60)
        s = Fx.run(s, Fx.line("RETURNED id=7 player=bob")).0
        #expect(s.game?.away == nil)
        #expect(s.alert?.notice == .returned("bob"))
        s = Fx.run(s, Fx.lines("ADJOURNED id=7 player=bob grace=60", "CLAIMABLE id=7 player=bob")).0
        #expect(s.game?.claimable == true)
        #expect(PlayFeature.gameMenuItems(s)[2] == .claim && PlayFeature.gameMenuEnabled(s, .claim))
        let (_, fx) = Fx.run(s, .key(.escape), .key(.char("3")))
        #expect(Fx.sent(fx) == ["CLAIM"])
    }

    @Test("Events about another game id, or missing fields, are ignored")
    func otherGames() {
        let before = Fx.inGame(fragment: "pe")
        // Lines that lack a field their keyword needs do not decode: the app drops them.
        for text in ["MOVE id=7", "TURN player=bob", "OFFER id=7 player=bob", "CLAIMABLE id=7", "GAME id=7",
                     "GAME id=x players=a,b", "OVER id=8 winner=x loser=y", "RANK name=x", "WHATEVER a=b", "OK", "ERR"] {
            #expect(ServerLine.decode(text) == nil, "\(text)")
        }
        // Lines that decode but are about another game, or lack a game field, change nothing.
        let (s, fx) = Fx.run(before, Fx.lines("TURN id=8 player=bob fragment=zz", "MOVE id=7 player=bob fragment=pex",
                                              "ADJOURNED id=9 player=bob grace=1", "GAME id=8 lang=en players=a round=1",
                                              "OVER id=8 winner=x loser=y reason=word fragment=x", "REMATCH id=7 player=bob"))
        #expect(s.game == before.game)
        #expect(s.screen == .game)
        #expect(fx.isEmpty)
    }
}

@Suite("Core: the end of a game", .ownThread)
struct ReducerOverTests {
    @Test("OVER, INFO and two RANK lines make the result; the token is forgotten")
    func over() {
        let s = Fx.over()
        #expect(s.screen == .over)
        #expect(s.game == nil)
        #expect(s.config.token == nil)
        #expect(s.result == GameResult(id: 7, winner: "alice", loser: "bob", reason: .word, fragment: "pear",
                                       players: ["alice", "bob"],
                                       info: "\"pear\" is a word longer than 3 letters, so bob loses.",
                                       ranks: [RankEntry(name: "alice", rank: 1, wins: 3), RankEntry(name: "bob", rank: 2, wins: 1)]))
    }

    @Test("After the game: rematch (asked, then offered by the opponent), new game, change name, main")
    func afterGame() {
        var (s, fx) = Fx.run(Fx.over(), .key(.char("1")))
        #expect(Fx.sent(fx) == ["REMATCH"])
        (s, _) = Fx.run(s, Fx.line("OK REMATCH status=asked"))
        #expect(s.result?.rematchAsked == true)
        (s, fx) = Fx.run(s, Fx.lines("GAME id=8 game=ghost lang=en players=bob,alice token=\(Fx.token) round=1", "TURN id=8 player=bob fragment="))
        #expect(s.screen == .game && s.game?.id == 8)
        #expect(fx == [.saveConfig])

        (s, _) = Fx.run(Fx.over(), Fx.lines("REMATCH id=7 player=bob", "INFO bob wants a rematch: send REMATCH to play again."))
        #expect(s.result?.rematchOfferedBy == "bob")
        #expect(s.result?.info == "\"pear\" is a word longer than 3 letters, so bob loses.")
        // bob went off to do something else: the request lapsed (for another game id, nothing changes).
        (s, _) = Fx.run(s, Fx.line("CANCELLED id=3 player=bob kind=rematch"))
        #expect(s.result?.rematchOfferedBy == "bob")
        (s, _) = Fx.run(s, Fx.line("CANCELLED id=7 player=bob kind=rematch"))
        #expect(s.result?.rematchOfferedBy == nil)
        // My own request lapses the same way.
        (s, _) = Fx.run(Fx.over(), Fx.line("OK REMATCH status=asked"))
        #expect(s.result?.rematchAsked == true)
        (s, _) = Fx.run(s, Fx.line("CANCELLED id=7 player=alice kind=rematch"))
        #expect(s.result?.rematchAsked == false)

        (s, fx) = Fx.run(Fx.over(), .key(.char("2")))
        #expect(Fx.sent(fx) == ["SEEK"])
        (s, fx) = Fx.run(Fx.over(), .key(.char("3")))
        #expect(s.screen == .name)
        #expect(Fx.sent(fx) == ["NAMES"])
        (s, fx) = Fx.run(Fx.over(), .key(.char("4")))
        #expect(s.screen == .main)
        (s, fx) = Fx.run(Fx.over(), .key(.char("5")))
        #expect(s.screen == .scores)
        (s, fx) = Fx.run(s, Fx.line("OK SCORES count=0 board=game"), .key(.escape))
        #expect(s.screen == .over)
        #expect(s.result != nil)
    }

    @Test("ERR no-rematch is an alert")
    func noRematch() {
        let (s, _) = Fx.run(Fx.over(), .key(.char("1")), Fx.line("ERR no-rematch no finished game against an opponent who is still here and free"))
        #expect(s.alert?.notice == .serverError(code: .noRematch, text: "no finished game against an opponent who is still here and free"))
        #expect(Screens.noticeText(s.alert!.notice, .nl) == "Geen revanche: je tegenstander is weg of met iets anders begonnen.")
    }
}

@Suite("Core: connections, resuming, backoff", .ownThread)
struct ReducerConnectionTests {
    @Test("Backoff: 0.25 s doubling to 5 s")
    func backoff() {
        #expect((1...8).map(ClientState.backoff(attempt:)) == [0.25, 0.5, 1, 2, 4, 5, 5, 5])
    }

    @Test("A dropped connection mid-game: reconnect with backoff, then LANG and RESUME with the stored token")
    func dropMidGame() {
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), .disconnected)
        #expect(s.link == .offline)
        #expect(fx == [.reconnect(after: 0.25)])
        #expect(s.screen == .game)
        (s, fx) = Fx.run(s, .disconnected)
        #expect(fx == [.reconnect(after: 0.5)])
        // Keys while offline are not sent.
        (s, fx) = Fx.run(s, .key(.char("a")))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .notConnected)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)"])
        #expect(s.attempts == 0)
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=7",
                                     "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                                     "TURN id=7 player=alice fragment=pe"))
        #expect(s.screen == .game)
        #expect(s.game?.ghost?.fragment == "pe")
        #expect(s.game?.lastMove?.letter == "e")  // kept across the same round
        #expect(fx.isEmpty)
    }

    @Test("Restarted with a stored token: the resuming screen, RESUME, then the game with my seat known")
    func restartWithToken() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "bob", token: Fx.token)
        var s = ClientState(config: config, serverAddress: "h:1")
        #expect(s.screen == .resuming)
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)"])
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=7",
                                     "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                                     "ADJOURNED id=7 player=alice grace=42", "TURN id=7 player=bob fragment=pea"))
        #expect(s.screen == .game)
        #expect(s.myName == "bob" && s.named)
        #expect(s.game?.toMove == "bob")
        #expect(s.game?.away == "alice")
        #expect(fx.isEmpty)
    }

    @Test("ERR bad-token: the game ended meanwhile; the token is cleared and the name taken back")
    func badToken() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "bob", token: Fx.token)
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello),
                             Fx.line("OK LANG lang=en"), Fx.line("ERR bad-token no game in progress has that token"))
        #expect(s.config.token == nil)
        #expect(fx.contains(.saveConfig))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)", "NAME bob"])
        #expect(s.alert?.notice == .gameEnded)
        #expect(s.screen == .main)
        (s, fx) = Fx.run(s, Fx.line("OK NAME name=bob lang=en"))
        #expect(s.named)
    }

    @Test("A drop in the lobby: the name is taken again on reconnect; a seek is cancelled")
    func dropInLobby() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("1")), Fx.line("OK SEEK lang=en"), .disconnected)
        #expect(s.screen == .main)
        #expect(s.alert?.notice == .seekCancelled)
        #expect(!s.named)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAME alice"])
    }

    @Test("After Ctrl-C no reconnection is scheduled")
    func quitting() {
        let (_, fx) = Fx.run(Fx.inGame(), .key(.ctrlC), .key(.char("y")), .disconnected)
        #expect(fx == [.quit])
    }
}

