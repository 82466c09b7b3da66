import Testing
@testable import GhostClient
import GhostProtocol
import GhostWire
import WordLists

@Suite("Core: first start, names and the lobby")
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
        #expect(s.screen == .tutorial && s.tutorialPage == 0)

        (s, fx) = Fx.run(s, .key(.right), .key(.right), .key(.left), .key(.char(" ")))
        #expect(s.tutorialPage == 2)
        #expect(fx.isEmpty)
        // Ghost's pages, then Superghost's, bluff and challenge's and Hangman's.
        (s, fx) = Fx.run(s, .key(.enter), .key(.enter), .key(.enter), .key(.enter), .key(.enter))
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
        #expect(s.filteredNames == ["bob"] && s.nameCursor == 0)
        s = Fx.run(s, Fx.lines("OK LANG lang=en", "NAME name=alice", "NAME name=bob", "NAME name=carol", "OK NAMES count=3")).0
        #expect(s.knownNames == ["alice", "bob", "carol"])
        #expect(s.filteredNames == ["bob", "alice", "carol"])
        #expect(s.nameCursor == 0)
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.down), .key(.down), .key(.enter))
        #expect(Fx.sent(fx) == ["NAME carol"])
        (s, fx) = Fx.run(s, Fx.line("OK NAME name=carol lang=en"))
        #expect(s.screen == .main)
        #expect(s.myName == "carol" && s.named)
        #expect(s.config.lastName == "carol")
        #expect(s.config.recentNames == ["carol", "bob"])
        #expect(fx == [.saveConfig])
    }

    @Test("Names: typing filters the list, searches the server and sends the typed name; ERR name-taken and bad-name are alerts")
    func typeName() {
        var s = Fx.online()
        s = Fx.run(s, Fx.lines("OK LANG lang=en", "NAME name=alice", "NAME name=albert", "NAME name=bob", "OK NAMES count=3")).0
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.keys("al"))
        #expect(s.filteredNames == ["alice", "albert"])
        #expect(s.nameCursor == nil)
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
        s.nameField = "ale!!"
        (s, fx) = Fx.run(s, [.key(.enter), Fx.line("ERR bad-name a name is 1-16 letters, digits, - or _")])
        #expect(Fx.sent(fx) == ["NAME ale!!"])
        #expect(s.alert?.notice == .serverError(code: .badName, text: "a name is 1-16 letters, digits, - or _"))
        // Enter with nothing typed and nothing picked: an alert, nothing sent.
        s.nameField = ""
        s.nameCursor = nil
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
        #expect(s.screen == .scores && s.scores == nil)
        #expect(Fx.sent(fx) == ["SCORES 100"])
        (s, _) = Fx.run(s, Fx.lines("SCORE rank=1 name=alice wins=3 played=4", "SCORE rank=2 name=bob wins=1 played=4",
                                    "OK SCORES count=2 board=game"))
        #expect(s.scores == [ScoreEntry(rank: 1, name: "alice", wins: 3, played: 4),
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
        // Ctrl-C asks first (issue #27); a second one quits.
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

@Suite("Core: playing")
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
        #expect(s.gameMenuItems == [.accept, .decline, .claim, .restart, .language("en"), .language("nl"), .leave, .close])
        (s, fx) = Fx.run(s, .key(.char("5")))
        #expect(Fx.sent(fx) == ["RESTART"])
        #expect(!s.gameMenuOpen)
        (s, _) = Fx.run(s, Fx.lines("OK RESTART status=offered", "OFFER id=7 player=alice kind=restart"))
        #expect(s.alert?.notice == .offerSent)
        #expect(s.game?.offer == Offer(player: "alice", kind: .restart, lang: nil))
        // My own offer is not mine to accept.
        #expect(!s.gameMenuEnabled(.accept) && !s.gameMenuEnabled(.decline))
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
        #expect(s.gameMenuItems.prefix(2) == [.accept, .decline])
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
        #expect(s.gameMenuItems[2] == .claim && s.gameMenuEnabled(.claim))
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

@Suite("Core: the end of a game")
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

@Suite("Core: connections, resuming, backoff")
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

@Suite("Core: hostile and odd server input")
struct ReducerRobustnessTests {
    @Test("Control characters from the server never reach the state")
    func controlCharacters() {
        let s = Fx.run(Fx.inGame(fragment: "pea"), Fx.line("OVER id=7 winner=alice loser=bob reason=word fragment=pear"),
                       Fx.line("INFO x\u{1B}[2Jy\u{9B}")).0
        #expect(s.result?.info == "x[2Jy")
        let s2 = Fx.run(Fx.online(), Fx.line("NAME name=ev\u{1B}]0;pwn\u{07}il"), Fx.line("OK NAMES count=1")).0
        #expect(s2.knownNames == ["ev]0;pwnil"])
        // A fragment or letter that is not letters a-z is not shown.
        let s3 = Fx.run(Fx.inGame(fragment: "pe"), Fx.lines("MOVE id=7 player=alice letter=\u{E9} fragment=pe\u{E9}",
                                                            "TURN id=7 player=bob fragment=[2J")).0
        #expect(s3.game?.ghost?.fragment == "pe")
        #expect(s3.game?.toMove == "bob")
    }

    @Test("Random lines and keys never trap, and every screen stays in bounds")
    func fuzz() {
        var rng = SplitMix(seed: 42)
        let keywords = ["HELLO", "OK", "ERR", "GAME", "TURN", "MOVE", "OVER", "RANK", "INFO", "ADJOURNED", "RETURNED",
                        "CLAIMABLE", "OFFER", "ACCEPTED", "DECLINED", "REMATCH", "NAME", "SCORE", "ZAP", ""]
        let keys = ["id", "player", "players", "fragment", "letter", "winner", "loser", "reason", "token", "round",
                    "lang", "kind", "grace", "rank", "wins", "played", "name", "code", "status", "languages"]
        let values = ["7", "0", "-1", "99999999999999999999", "alice", "bob", "alice,bob", "a,b,c", "", "pear",
                      Fx.token, "nl", "x\u{1B}y", "é", "asked", "restart", "lang", "1"]
        let keyEvents: [Key] = [.char("a"), .char("1"), .char("2"), .char("3"), .enter, .escape, .tab, .up, .down,
                                .left, .right, .backspace, .char("z"), .char("5"), .other]
        for round in 0..<40 {
            var s = round % 2 == 0 ? Fx.inGame(fragment: "pe", colour: round % 4 == 0) : Fx.over(language: "nl")
            for _ in 0..<150 {
                let event: ClientEvent
                switch rng.next() % 10 {
                case 0..<5:
                    var line = keywords[Int(rng.next() % UInt64(keywords.count))]
                    if line == "OK" || line == "ERR" { line += " " + ["NAME", "LETTER", "SEEK", "bad-token", "busy"][Int(rng.next() % 5)] }
                    for _ in 0..<(rng.next() % 5) {
                        line += " " + keys[Int(rng.next() % UInt64(keys.count))] + "=" + values[Int(rng.next() % UInt64(values.count))]
                    }
                    // The app drops lines that do not decode; so does this.
                    guard let decoded = ServerLine.decode(line) else { continue }
                    event = .server(decoded)
                case 5..<8: event = .key(keyEvents[Int(rng.next() % UInt64(keyEvents.count))])
                case 8: event = [.disconnected, .connected, Fx.line(Fx.hello)][Int(rng.next() % 3)]
                default: event = .tick(100 + Double(rng.next() % 1000) / 10)
                }
                s = reduce(s, event).0
                if s.screen == .language || s.screen == .tutorial { continue }
                for (w, h) in [(80, 24), (40, 12)] {
                    let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                    #expect(lines.count == h)
                    #expect(lines.allSatisfy { Layout.visibleWidth($0) <= w })
                }
            }
        }
    }
}

/// A small deterministic generator for the fuzz test.
typealias SplitMix = SplitMix64

@Suite("Core: guards")
struct ReducerGuardTests {
    @Test("A server that accepts but never greets is treated as down after 10 s")
    func noHello() {
        let config = ClientConfig(language: "en", tutorialSeen: true)
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .tick(50), .connected)
        #expect(s.nextDeadline == 60)
        (s, fx) = Fx.run(s, .tick(59))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .tick(60))
        #expect(s.link == .offline)
        #expect(fx == [.reconnect(after: 0.25)])
    }

    @Test("Two clients on one settings file: the one whose seat was resumed elsewhere does not take it back")
    func seatTaken() {
        // Free text is not protocol: an INFO saying so changes nothing.
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("INFO Your seat in game 7 was resumed from another connection."))
        #expect(!s.seatTaken)
        (s, fx) = Fx.run(s, Fx.line("BYE replaced your seat in game 7 was resumed from another connection"), .disconnected)
        #expect(s.seatTaken)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAMES"])
        #expect(s.screen == .name)
        #expect(s.game == nil)
        #expect(s.alert?.notice == .seatTaken)
        // A new game of its own clears the guard.
        (s, _) = Fx.run(s, Fx.line("GAME id=9 game=ghost lang=en players=alice,carol token=\(Fx.token) round=1"))
        #expect(!s.seatTaken)
    }

    @Test("Any other BYE is a close like any other: the client reconnects and resumes")
    func otherBye() {
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("BYE shutdown the server is stopping"), .disconnected)
        #expect(!s.seatTaken)
        #expect(fx == [.reconnect(after: 0.25)])
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "RESUME \(Fx.token)"])
        #expect(s.pending == [.lang, .resume])
    }

    @Test("A reply the client cannot type still answers its command; a later protocol's lines are dropped")
    func laterProtocol() {
        var (s, _) = Fx.run(Fx.inGame(), .key(.char("p")))
        #expect(s.pending == [.letter])
        (s, _) = Fx.run(s, Fx.line("OK LETTER"))
        #expect(s.pending.isEmpty)
        (s, _) = Fx.run(s, .key(.char("q")), Fx.line("ERR a-later-code something new"))
        #expect(s.pending.isEmpty)
        #expect(s.alert?.notice == .serverError(code: ErrorCode(rawValue: "a-later-code"), text: "something new"))
        #expect(ServerLine.decode("HANGMAN id=7 pattern=_e__") == nil)
        // A game of a kind this client does not know does not replace the one on screen.
        (s, _) = Fx.run(s, Fx.line("GAME id=8 game=hangman lang=en players=alice,bob round=1 length=5"))
        #expect(s.game?.id == 7)
    }

    @Test("A protocol-1 server's lines still read: no game=, `-` for no letters")
    func protocolOne() {
        var s = Fx.named()
        s = Fx.run(s, Fx.lines("GAME id=5 lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=-,G",
                               "TURN id=5 player=bob fragment= ghost=-,G")).0
        #expect(s.game?.ghost?.match == true)
        #expect(s.game?.ghost?.letters == ["", "G"])
        #expect(s.game?.toMove == "bob")
    }
}

@Suite("Core: the computer and G-H-O-S-T matches")
struct ReducerComputerAndMatchTests {
    static func matchGame(bot: String? = nil) -> ClientState {
        var s = Fx.named()
        let players = bot.map { "bot-\($0),alice" } ?? "alice,bob"
        let botField = bot.map { " bot=\($0)" } ?? ""
        s = Fx.run(s, Fx.lines("GAME id=5 game=ghost lang=en players=\(players) token=\(Fx.token) round=1\(botField) rounds=ghost ghost=,",
                               "TURN id=5 player=alice fragment= ghost=,")).0
        return s
    }

    @Test("The computer screen: level, who starts, the game type; NEW bot=… and the game that follows")
    func computer() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("2")))
        #expect(s.screen == .computer)
        (s, fx) = Fx.run(s, .key(.char("4")))
        #expect(s.computerFirst)
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW bot=hard first=bot"])
        (s, fx) = Fx.run(s, Fx.lines("OK NEW bot=hard lang=en",
                                     "GAME id=4 game=ghost lang=en players=bot-hard,alice token=\(Fx.token) round=1 bot=hard",
                                     "TURN id=4 player=bot-hard fragment="))
        #expect(s.screen == .game)
        #expect(s.game?.bot == .hard)
        #expect(s.game?.ghost?.match == false)
        #expect(s.lobby == nil)
        // No hints against Hard; Esc and Backspace go back from the computer screen.
        #expect(!s.gameMenuItems.contains(.hint))
        (s, _) = Fx.run(Fx.named(), .key(.char("m")), .key(.char("2")), .key(.char("1")))
        #expect(s.lastComputerGame == .new(GameOptions(rounds: .ghost, bot: .easy)))
        (s, _) = Fx.run(Fx.named(), .key(.char("2")), .key(.escape))
        #expect(s.screen == .main)
    }

    @Test("Hints against Easy: HINT from the menu, the answer as an alert")
    func hint() {
        var s = Self.matchGame(bot: "easy")
        #expect(s.gameMenuItems == [.hint, .restart, .language("en"), .language("nl"), .leave, .close])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.escape), .key(.char("4")))
        #expect(Fx.sent(fx) == ["HINT"])
        (s, fx) = Fx.run(s, Fx.lines("OK HINT winning=yes letter=u", "INFO You can force a win from here: try u."))
        #expect(s.alert?.notice == .hint(winning: true, letter: "u"))
        #expect(Screens.noticeText(s.alert!.notice, .en) == "You can force a win from here: try “U”.")
        (s, _) = Fx.run(s, .key(.escape), .key(.char("4")), Fx.line("ERR no-hints hints are only for games against the Easy computer"))
        #expect(Screens.noticeText(s.alert!.notice, .nl) == "Hints krijg je alleen tegen de makkelijke computer.")
    }

    @Test("A match: OVER ends a round and play goes on, saying how the last round ended; MATCH ends it all")
    func match() {
        var s = Self.matchGame()
        #expect(s.game?.ghost?.match == true)
        #expect(s.game?.ghost?.letters == ["", ""])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.lines("MOVE id=5 player=alice letter=q fragment=q", "TURN id=5 player=bob fragment=q ghost=,",
                                     "MOVE id=5 player=bob letter=z fragment=qz",
                                     "OVER id=5 winner=alice loser=bob reason=dead fragment=qz ghost=,G",
                                     "INFO No word starts with \"qz\", so bob loses. bob earns the letter G."))
        #expect(s.screen == .game)
        #expect(s.config.token == Fx.token)
        #expect(fx.isEmpty)
        #expect(s.game?.ghost?.letters == ["", "G"])
        #expect(s.game?.ghost?.roundEnd?.loser == "bob")
        #expect(s.game?.ghost?.roundEnd?.info == "No word starts with \"qz\", so bob loses. bob earns the letter G.")
        (s, fx) = Fx.run(s, Fx.lines("GAME id=5 game=ghost lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=,G",
                                     "TURN id=5 player=bob fragment= ghost=,G"))
        #expect(s.game?.round == 2)
        #expect(s.game?.ghost?.roundEnd == nil)
        #expect(s.game?.ghost?.previousRound?.fragment == "qz")
        #expect(s.game?.ghost?.fragment == "")
        #expect(s.game?.toMove == "bob")
        // The note stays for the whole round.
        (s, _) = Fx.run(s, Fx.line("MOVE id=5 player=bob letter=a fragment=a"))
        #expect(s.game?.ghost?.previousRound?.fragment == "qz")

        (s, fx) = Fx.run(s, Fx.lines("OVER id=5 winner=alice loser=bob reason=word fragment=pear ghost=,GHOST",
                                     "INFO \"pear\" is a word longer than 3 letters, so bob loses.",
                                     "MATCH id=5 winner=alice loser=bob ghost=,GHOST",
                                     "INFO bob spelled GHOST: alice wins the match.",
                                     "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"))
        #expect(s.screen == .over)
        #expect(s.config.token == nil)
        #expect(fx == [.saveConfig])
        #expect(s.result?.match == true)
        #expect(s.result?.ghost == ["", "GHOST"])
        #expect(s.result?.reason == .word)
        #expect(s.result?.info == "\"pear\" is a word longer than 3 letters, so bob loses.")
        #expect(s.result?.ranks.count == 2)
    }

    @Test("Leaving a match ends it: OVER reason=left, then MATCH")
    func leaveMatch() {
        let s = Fx.run(Self.matchGame(), Fx.lines("OVER id=5 winner=bob loser=alice reason=left fragment= ghost=,",
                                                  "INFO alice left the game.", "MATCH id=5 winner=bob loser=alice ghost=,",
                                                  "INFO bob wins the match.")).0
        #expect(s.screen == .over)
        #expect(s.result?.reason == .left)
        #expect(s.result?.winner == "bob")
    }

    @Test("Against the computer, “play again” starts the same game again; the scores open on its board")
    func playAgain() {
        var s = Fx.run(Fx.named(), .key(.char("2")), .key(.char("1"))).0
        s = Fx.run(s, Fx.lines("OK NEW bot=easy lang=en", "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
                               "TURN id=4 player=alice fragment=", "MOVE id=4 player=alice letter=q fragment=q",
                               "MOVE id=4 player=bot-easy letter=z fragment=qz",
                               "OVER id=4 winner=alice loser=bot-easy reason=dead fragment=qz",
                               "INFO No word starts with \"qz\", so bot-easy loses.", "RANK name=alice rank=1 wins=1")).0
        #expect(s.screen == .over)
        #expect(s.result?.bot == .easy)
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW bot=easy"])
        (s, fx) = Fx.run(s, Fx.line("ERR busy whatever"), .key(.char("5")))
        #expect(s.scoresBoard == Board(bot: .easy))
        #expect(Fx.sent(fx) == ["SCORES 100 bot=easy"])
        (s, fx) = Fx.run(s, .key(.right))
        #expect(Fx.sent(fx) == ["SCORES 100 bot=medium"])
        (s, fx) = Fx.run(s, .key(.left), .key(.left), .key(.left))
        #expect(s.scoresBoard == .game)
        #expect(Fx.sent(fx) == ["SCORES 100 bot=easy", "SCORES 100 mode=match", "SCORES 100"])
    }

    @Test("Scoreboard commands", arguments: [
        ("game", "SCORES 100"), ("match", "SCORES 100 mode=match"), ("hard", "SCORES 100 bot=hard"),
        ("medium-match", "SCORES 100 mode=match bot=medium"),
    ])
    func boards(board: String, command: String) throws {
        let b = try #require(Board(name: board))
        #expect(Command.scores(100, board: b).rendered == command)
        #expect(Board.of(bot: b.bot, match: b.mode == .match) == b)
    }
}

@Suite("Core: keepalive")
struct ReducerKeepaliveTests {
    @Test("After a minute without sending anything, a PING keeps the connection (and a waiting seek) alive")
    func keepalive() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("3")), Fx.line("OK NEW code=ABCDE lang=en"))
        #expect(s.screen == .waiting)
        #expect(s.nextDeadline == 100 + ClientState.keepaliveSeconds)
        (s, fx) = Fx.run(s, .tick(159))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .tick(160))
        #expect(Fx.sent(fx) == ["PING"])
        (s, fx) = Fx.run(s, Fx.line("OK PING"), .tick(200))
        #expect(fx.isEmpty)
        #expect(s.pending.isEmpty)
        #expect(s.screen == .waiting)
    }
}

/// Issue 14: what a new player hits.
@Suite("Core: issue 14, a new player's bugs")
struct ReducerNewPlayerTests {
    @Test("Bug 1: a status line goes when the state that caused it changes")
    func statusLinesGo() {
        // Out of turn, then the opponent plays: "not your turn" is no longer true.
        var (s, _) = Fx.run(Fx.inGame(meFirst: false), .key(.char("x")), Fx.line("ERR not-your-turn it is bob's turn"))
        #expect(s.alert?.notice == .notYourTurn)
        (s, _) = Fx.run(s, Fx.lines("MOVE id=7 player=bob letter=p fragment=p", "TURN id=7 player=alice fragment=p"))
        #expect(s.alert == nil)
        // "Letters only", then a valid move.
        (s, _) = Fx.run(s, .key(.char("7")))
        #expect(s.alert?.notice == .lettersOnly)
        (s, _) = Fx.run(s, [.key(.char("e"))] + Fx.lines("OK LETTER letter=e fragment=pe", "MOVE id=7 player=alice letter=e fragment=pe",
                                                        "TURN id=7 player=bob fragment=pe"))
        #expect(s.alert == nil)
        // A refused name, then a name the server accepts: the main screen starts clean.
        var t = Fx.run(Fx.online(), Fx.lines("OK LANG lang=en", "OK NAMES count=0")).0
        // (Typing searches: NAMES prefix=b, then prefix=bob, are answered first.)
        t = Fx.run(t, Fx.keys("bob") + [.key(.enter)] + Fx.lines("OK NAMES count=0 more=no", "ERR name-taken another player is using that name")).0
        #expect(t.alert?.notice == .serverError(code: .nameTaken, text: "another player is using that name"))
        t = Fx.run(t, Fx.keys("2") + [.key(.enter)] + Fx.lines("OK NAMES count=0 more=no", "OK NAME name=bob2 lang=en")).0
        #expect(t.screen == .main)
        #expect(t.alert == nil)
        // What is about to be shown on a new screen stays: the game ended meanwhile.
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "bob", token: Fx.token)
        let u = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello),
                       Fx.line("OK LANG lang=en"), Fx.line("ERR bad-token no game in progress has that token")).0
        #expect(u.screen == .main && u.alert?.notice == .gameEnded)
    }

    @Test("Bug 6: while “leave and lose?” is open, letters do not play: y/j confirm, n declines, in both languages",
          arguments: ["en", "nl"])
    func confirmLeaveKeys(language: String) {
        let open = Fx.run(Fx.inGame(fragment: "pe", language: language), .key(.escape)).0
        let leave = GameMenuItem.leave.key(languages: open.serverLanguages)
        var (s, fx) = Fx.run(open, .key(.char(Character("\(leave)"))))
        #expect(s.confirmLeave)
        for yes in ["y", "j", "Y"] {
            (_, fx) = Fx.run(s, .key(.char(Character(yes))))
            #expect(Fx.sent(fx) == ["LEAVE"], "\(yes)")
        }
        (s, fx) = Fx.run(s, .key(.char("x")))
        #expect(fx.isEmpty)
        #expect(s.confirmLeave)
        (s, fx) = Fx.run(s, .key(.char("n")))
        #expect(fx.isEmpty)
        #expect(!s.confirmLeave)
        let lines = Screens.render(Fx.run(open, .key(.char(Character("\(leave)")))).0).map(Layout.plain)
        let prompt = language == "nl" ? "Stoppen en dit spel verliezen? j: ja · n: nee" : "Leave and lose this game? y: yes · n: no"
        #expect(lines.contains { $0.trimmingCharacters() == prompt })
    }

    @Test("Bug 3: the game menu keeps its keys; an entry that does not apply does nothing, and says why")
    func fixedMenuKeys() {
        let all: [GameMenuItem] = [.accept, .decline, .claim, .restart, .language("en"), .language("nl"), .leave, .close]
        var (s, fx) = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("OFFER id=7 player=bob kind=restart"), .key(.escape))
        #expect(s.gameMenuItems == all)
        #expect(s.menuIndex == 0)
        // The offer lapses while the menu is open: 1 is still "accept", now with nothing to accept.
        (s, fx) = Fx.run(s, Fx.line("CANCELLED id=7 player=bob kind=restart"), .key(.char("1")))
        #expect(s.gameMenuItems == all)
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .unavailable(.accept))
        #expect(s.gameMenuOpen)
        #expect(Screens.noticeText(s.alert!.notice, .en) == "There is no offer to answer.")
        // The cursor steps over what does not apply: from "restart", down skips English (the game's language).
        (s, _) = Fx.run(Fx.inGame(fragment: "pe"), .key(.escape))
        #expect(s.gameMenuItems[s.menuIndex] == .restart)
        (s, fx) = Fx.run(s, .key(.down))
        #expect(s.gameMenuItems[s.menuIndex] == .language("nl"))
        (s, fx) = Fx.run(s, .key(.up))
        #expect(s.gameMenuItems[s.menuIndex] == .restart)
        (s, fx) = Fx.run(s, .key(.up))
        #expect(s.gameMenuItems[s.menuIndex] == .close)
        (s, fx) = Fx.run(s, .key(.char("5")))
        #expect(Fx.sent(fx) == ["RESTART"])
        // Against the computer: no offers, no claims; hints against Easy.
        #expect(ReducerComputerAndMatchTests.matchGame(bot: "hard").gameMenuItems
                == [.restart, .language("en"), .language("nl"), .leave, .close])
    }
    @Test("Bug 2: “play in Dutch” is an offer: the screens and the saved language stay until the server switches the game")
    func languageOfferKeepsScreens() {
        let menu = Fx.run(Fx.inGame(fragment: "pe"), .key(.escape)).0
        let dutch = GameMenuItem.language("nl").key(languages: menu.serverLanguages)
        var (s, fx) = Fx.run(menu, .key(.char(Character("\(dutch)"))), .key(.char("y")))
        #expect(Fx.sent(fx) == ["LANG nl"])
        #expect(!fx.contains(.saveConfig))
        #expect(s.config.language == "en")
        // Declined, or refused: nothing changes.
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=nl status=offered", "OFFER id=7 player=alice kind=lang lang=nl",
                                     "DECLINED id=7 player=bob kind=lang"))
        #expect(s.config.language == "en" && s.game?.lang == "en")
        (s, fx) = Fx.run(s, .key(.escape), .key(.char(Character("\(dutch)"))), Fx.line("ERR offer-spent you can offer again once a letter has been played"))
        #expect(s.config.language == "en" && s.game?.lang == "en")
        #expect(!fx.contains(.saveConfig))
        // Accepted: the game is in Dutch; the screens are still in English.
        (s, fx) = Fx.run(s, Fx.lines("ACCEPTED id=7 player=bob kind=lang",
                                     "GAME id=7 game=ghost lang=nl players=alice,bob token=\(Fx.token) round=2",
                                     "TURN id=7 player=alice fragment="))
        #expect(s.game?.lang == "nl")
        #expect(s.config.language == "en")
        #expect(Screens.render(s)[0].contains("Dutch · round 2"))
    }

    @Test("Bug 7: a double key press on quick match sends one SEEK")
    func oneSeek() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("1")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        (s, fx) = Fx.run(s, Fx.line("OK SEEK lang=en"), .key(.char("1")))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(Fx.named(), .key(.char("3")), .key(.char("1")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW"])
    }

    @Test("Bug 8: after a daemon restart, a fragment grown by moves this client missed shows no stale “played” caption")
    func noStaleCaptionOnResume() {
        // alice played U; the computer's A was stored but never reached her before the daemon died.
        var s = Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
            "TURN id=4 player=alice fragment=q", "MOVE id=4 player=alice letter=u fragment=qu",
            "TURN id=4 player=bot-easy fragment=qu")).0
        #expect(s.game?.lastMove?.player == "alice")
        s = Fx.run(s, [.disconnected, .connected, Fx.line(Fx.hello)] + Fx.lines(
            "OK LANG lang=en", "OK RESUME id=4",
            "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
            "TURN id=4 player=alice fragment=qua")).0
        #expect(s.game?.ghost?.fragment == "qua")
        #expect(s.game?.lastMove == nil)
        let lines = Screens.render(s).map(Layout.plain)
        #expect(lines.contains { $0.trimmingCharacters() == "“QUA” · 3 letters" })
        #expect(!lines.contains { $0.contains("played") })
        // The same fragment as before: the caption stays.
        let t = Fx.run(Fx.inGame(fragment: "pe"), [.disconnected, .connected, Fx.line(Fx.hello)] + Fx.lines(
            "OK LANG lang=en", "OK RESUME id=7", "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
            "TURN id=7 player=alice fragment=pe")).0
        #expect(t.game?.lastMove?.player == "bob")
    }

    @Test("Bug 8: the state sent on RESUME names who played the last letter (last=), and the “played” caption says it")
    func resumedCaptionNamesTheLastMover() {
        // alice played U; the computer's A was stored but never reached her before the daemon died.
        var s = Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
            "TURN id=4 player=alice fragment=q", "MOVE id=4 player=alice letter=u fragment=qu",
            "TURN id=4 player=bot-easy fragment=qu")).0
        s = Fx.run(s, [.disconnected, .connected, Fx.line(Fx.hello)] + Fx.lines(
            "OK LANG lang=en", "OK RESUME id=4",
            "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
            "TURN id=4 player=alice fragment=qua last=bot-easy")).0
        #expect(s.game?.lastMove?.player == "bot-easy")
        #expect(s.game?.lastMove?.letter == "a")
        let lines = Screens.render(s).map(Layout.plain).map { $0.trimmingCharacters() }
        #expect(lines.contains("“QUA” · 3 letters · The computer (easy) played A"))
        // A fresh client (no game on screen) learns it from the state alone.
        let fresh = Fx.run(Fx.named(), Fx.lines(
            "OK RESUME id=7", "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
            "TURN id=7 player=alice fragment=pe last=bob")).0
        #expect(fresh.game?.lastMove?.player == "bob" && fresh.game?.lastMove?.letter == "e")
        // A name that is not a player of the game is not trusted.
        let odd = Fx.run(Fx.named(), Fx.lines(
            "OK RESUME id=7", "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
            "TURN id=7 player=alice fragment=pe last=mallory")).0
        #expect(odd.game?.lastMove == nil)
    }

    @Test("What players miss: a paste of several letters plays none of them and says why; other screens take it as typing")
    func pasteIsNotAMove() {
        var (s, fx) = Fx.run(Fx.inGame(), .paste("xyz".map { Key.char($0) }))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .pastedSeveral)
        #expect(Screens.noticeText(s.alert!.notice, .en) == "Several letters at once (a paste?) play nothing: type one letter.")
        // One character is a key like any other.
        (s, fx) = Fx.run(s, .paste([.char("p")]))
        #expect(Fx.sent(fx) == ["LETTER p"])
        // A join code can be pasted.
        (s, fx) = Fx.run(Fx.named(), .key(.char("4")), .paste("4eg7r".map { Key.char($0) }), .key(.enter))
        #expect(Fx.sent(fx) == ["JOIN 4EG7R"])
    }

    @Test("Bug 10: coming back to a game that ended meanwhile shows its result: who won, why and when")
    func endedMeanwhile() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", token: Fx.token)
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello))
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=7 status=over",
                                     "OVER id=7 winner=bob loser=alice reason=abandoned fragment=pe ended=1700001160"))
        #expect(s.screen == .over)
        #expect(s.config.token == nil)
        #expect(fx.contains(.saveConfig))
        #expect(Fx.sent(fx) == ["NAME alice"])
        #expect(s.result?.endedAt == 1_700_001_160)
        let lines = Screens.render(s).map(Layout.plain)
        #expect(lines.contains("  You stayed away too long; bob claimed the game."))
        #expect(lines.contains("  This game ended while you were away (2023-11-14 22:32 UTC)."))
        (s, _) = Fx.run(s, Fx.line("OK NAME name=alice lang=en"))
        #expect(s.named && s.screen == .over)
        var nl = s
        nl.config.language = "nl"
        #expect(Screens.render(nl).map(Layout.plain).contains("  Dit spel is afgelopen terwijl je weg was (2023-11-14 22:32 UTC)."))
    }
}
