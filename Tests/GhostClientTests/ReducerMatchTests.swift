import Testing
@testable import GhostClient
import GhostProtocol
import GhostWire
import WordLists
import GameKit


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
        #expect(fx == [.saveConfig])
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
        #expect(!PlayFeature.gameMenuItems(s).contains(.hint))
        (s, _) = Fx.run(Fx.named(), .key(.char("m")), .key(.char("2")), .key(.char("1")))
        #expect(s.lastComputerGame == .new(GameOptions(rounds: .ghost, bot: .easy)))
        (s, _) = Fx.run(Fx.named(), .key(.char("2")), .key(.escape))
        #expect(s.screen == .main)
    }

    @Test("Hints against Easy: HINT from the menu, the answer as an alert")
    func hint() {
        var s = Self.matchGame(bot: "easy")
        #expect(PlayFeature.gameMenuItems(s) == [.hint, .restart, .language("en"), .language("nl"), .leave, .close])
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
        #expect(s.highScores.scoresBoard == Board(bot: .easy))
        #expect(Fx.sent(fx) == ["SCORES 100 bot=easy"])
        (s, fx) = Fx.run(s, .key(.right))
        #expect(Fx.sent(fx) == ["SCORES 100 bot=medium"])
        (s, fx) = Fx.run(s, .key(.left), .key(.left), .key(.left))
        #expect(s.highScores.scoresBoard == .game)
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

/// What a new player hits.
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
        #expect(PlayFeature.gameMenuItems(s) == all)
        #expect(s.menuIndex == 0)
        // The offer lapses while the menu is open: 1 is still "accept", now with nothing to accept.
        (s, fx) = Fx.run(s, Fx.line("CANCELLED id=7 player=bob kind=restart"), .key(.char("1")))
        #expect(PlayFeature.gameMenuItems(s) == all)
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .unavailable(.accept))
        #expect(s.gameMenuOpen)
        #expect(Screens.noticeText(s.alert!.notice, .en) == "There is no offer to answer.")
        // The cursor steps over what does not apply: from "restart", down skips English (the game's language).
        (s, _) = Fx.run(Fx.inGame(fragment: "pe"), .key(.escape))
        #expect(PlayFeature.gameMenuItems(s)[s.menuIndex] == .restart)
        (s, fx) = Fx.run(s, .key(.down))
        #expect(PlayFeature.gameMenuItems(s)[s.menuIndex] == .language("nl"))
        (s, fx) = Fx.run(s, .key(.up))
        #expect(PlayFeature.gameMenuItems(s)[s.menuIndex] == .restart)
        (s, fx) = Fx.run(s, .key(.up))
        #expect(PlayFeature.gameMenuItems(s)[s.menuIndex] == .close)
        (s, fx) = Fx.run(s, .key(.char("5")))
        #expect(Fx.sent(fx) == ["RESTART"])
        // Against the computer: no offers, no claims; hints against Easy.
        #expect(PlayFeature.gameMenuItems(ReducerComputerAndMatchTests.matchGame(bot: "hard"))
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
