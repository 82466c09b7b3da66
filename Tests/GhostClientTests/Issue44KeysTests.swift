import Testing
@testable import GhostClient
import GhostProtocol

/// The wait after too many wrong passwords
/// counts down and keeps a password typed during it; the terminal's habits
/// (Ctrl-L, Ctrl-U, Ctrl-W) on every screen; a watch list that comes back
/// by itself after a server restart.
@Suite("Issue 44: the password wait and the terminal's keys")
struct Issue44KeysTests {
    /// The status line's text, as drawn.
    static func status(_ s: ClientState) -> String? {
        s.alert.map { Screens.noticeText($0.notice, s.strings) }
    }

    /// The screen's words, rows joined (a paragraph may wrap).
    static func words(_ s: ClientState, _ w: Int, _ h: Int) -> String {
        Screens.render(s, width: w, height: h, strings: s.strings).map { Layout.plain($0).trimmingCharacters() }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    /// On the login screen, told to wait 2 s (at 100) after a wrong password.
    static func waiting(language: String = "en") -> ClientState {
        let s = Fx.run(AFx.login(language: language), AFx.type("guess one") + [.key(.enter)]).0
        return Fx.run(s, Fx.line("ERR too-many-attempts try again in 2 s")).0
    }

    @Test("Item 20: the wait counts down each second, on the status line and the screen")
    func waitCountsDown() {
        var s = Issue44KeysTests.waiting()
        #expect(s.account.retryAt == 102)
        #expect(Issue44KeysTests.status(s) == "Too many wrong passwords: you can try again in 2 s.")
        // The loop wakes when the number changes, and the status follows it.
        #expect(s.nextDeadline.map { abs($0 - 101.01) < 1e-9 } == true)
        s = Fx.run(s, .tick(101.01)).0
        #expect(s.alert?.notice == .account(.tooManyAttempts(1)))
        #expect(Issue44KeysTests.status(s) == "Too many wrong passwords: you can try again in 1 s.")
        #expect(Issue44KeysTests.words(s, 60, 20).contains("Too many wrong passwords: you can try again in 1 s."))
        // Over: the status and the screen's line go.
        s = Fx.run(s, .tick(102.01)).0
        #expect(s.alert == nil)
        #expect(!Issue44KeysTests.words(s, 80, 24).contains("Too many"))
    }

    @Test("Item 20: Enter during the wait keeps the password, says when it goes, and sends it by itself when the wait ends")
    func enterDuringTheWaitSendsLater() {
        var (s, fx) = Fx.run(Issue44KeysTests.waiting(), [.tick(100.5)] + AFx.type("second try") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(s.account.sendAtRetry && s.account.typedCount == 10)
        #expect(s.alert?.notice == .account(.sendingIn(2)))
        #expect(Issue44KeysTests.status(s) == "Too many wrong passwords: sending yours in 2 s…")
        for (w, h) in [(60, 20), (80, 24)] {
            #expect(Issue44KeysTests.words(s, w, h).contains("sending yours in 2 s…"))
        }
        (s, fx) = Fx.run(s, .tick(101.01))
        #expect(fx.isEmpty)
        #expect(Issue44KeysTests.status(s) == "Too many wrong passwords: sending yours in 1 s…")
        (s, fx) = Fx.run(s, .tick(102.01))
        #expect(fx == [.sendAccount(.login(name: "ann", password: "second try"))])
        #expect(s.account.typedCount == 0 && !s.account.sendAtRetry && s.alert == nil)
        (s, _) = Fx.run(s, Fx.line("OK NAME name=ann lang=en registered=yes"))
        #expect(s.screen == .main && s.account.loggedIn == "ann")
        // In Dutch.
        let nl = Fx.run(Issue44KeysTests.waiting(language: "nl"), AFx.type("tweede poging") + [.key(.enter)]).0
        #expect(Issue44KeysTests.status(nl) == "Te veel verkeerde wachtwoorden: je wachtwoord wordt over 2 s verstuurd…")
        #expect(Issue44KeysTests.words(nl, 60, 20).contains("je wachtwoord wordt over 2 s verstuurd…"))
    }

    @Test("Item 20: typing on after Enter takes the password back (it stays typed); Esc drops it; a wait that ends offline sends it at the greeting")
    func queuedPasswordChanges() {
        let queued = Fx.run(Issue44KeysTests.waiting(), AFx.type("second try") + [.key(.enter)]).0
        // Typing on: not what was confirmed, so it waits for Enter again.
        var (s, fx) = Fx.run(queued, .key(.char("!")), .tick(102.01))
        #expect(fx.isEmpty)
        #expect(!s.account.sendAtRetry && s.account.typedCount == 11)
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(AFx.sent(fx) == ["NAME ann second try!"])
        // Esc: another name; nothing goes.
        (s, fx) = Fx.run(queued, .key(.escape), .tick(102.01))
        #expect(s.screen == .name && !s.account.sendAtRetry)
        #expect(!AFx.sent(fx).contains { $0.hasPrefix("NAME ann ") })
        // The link down when the wait ends: sent once the server greets again.
        (s, fx) = Fx.run(queued, .disconnected, .tick(102.5))
        #expect(AFx.sent(fx).isEmpty && s.account.sendAtRetry)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(AFx.sent(fx) == ["LANG en", "NAME ann second try"])
    }

    @Test("Item 23: the terminal sends Ctrl-L, Ctrl-U and Ctrl-W as keys of their own")
    func decoder() {
        var d = KeyDecoder()
        #expect(d.feed([0x0C, 0x15, 0x17]) == [.ctrlL, .ctrlU, .ctrlW])
        #expect(d.feed([0x61, 0x0C, 0x62]) == [.char("a"), .ctrlL, .char("b")])
    }

    /// A state on each kind of screen, and with each question open.
    static func everyKindOfScreen() -> [ClientState] {
        let fresh = ClientState(config: ClientConfig(), serverAddress: "127.0.0.1:7777")
        return [
            fresh, Fx.online(), Fx.named(), Fx.run(Fx.named(), .key(.char("4")), .key(.char("x"))).0,
            Fx.inGame(fragment: "pe"), Fx.run(Fx.inGame(), .key(.escape)).0, Fx.run(Fx.inGame(), .key(.escape), .key(.char("l"))).0,
            Fx.over(), WFx.list(), WFx.ghost(), AFx.login(), Fx.run(AFx.login(), AFx.type("abc")).0,
            HFx.playing(), Fx.run(HFx.playing(), .key(.char("="))).0, ChallengeClientTests.challenged(),
            Fx.run(Fx.named(), .key(.ctrlC)).0, Fx.run(Fx.inGame(), .resize(width: 40, height: 10)).0,
        ]
    }

    @Test("Item 23: Ctrl-L redraws the whole screen on every screen, changes nothing else and sends nothing (in a game it is no letter and no miss)")
    func ctrlLRedraws() {
        for s in Issue44KeysTests.everyKindOfScreen() {
            let (after, fx) = Fx.run(s, .key(.ctrlL))
            #expect(fx == [.redraw], "\(s.screen)")
            #expect(after == s, "\(s.screen)")
        }
    }

    @Test("Item 23: Ctrl-U and Ctrl-W do nothing where nothing is typed, and send nothing")
    func noFieldNoEdit() {
        for s in Issue44KeysTests.everyKindOfScreen() where TextEditing.typedField(s) == nil || TextEditing.typedField(s) == "" {
            for key in [Key.ctrlU, .ctrlW] {
                let (after, fx) = Fx.run(s, .key(key))
                #expect(fx.isEmpty, "\(s.screen)")
                #expect(after == s, "\(s.screen)")
            }
        }
        // The guesser's and the player's screens have no field: letters are moves there.
        #expect(TextEditing.typedField(Fx.inGame()) == nil && TextEditing.typedField(HFx.playing()) == nil && TextEditing.typedField(Fx.named()) == nil)
    }

    @Test("Item 23: Ctrl-U clears and Ctrl-W erases the last word in every text field: name, join code, password, challenge word, Hangman's answer and duel word")
    func editingKeys() {
        // The name: the picker searches again as with Backspace, and nothing else is sent.
        var (s, fx) = Fx.run(Fx.online(lastName: nil), Fx.keys("bo") + [.key(.ctrlU)])
        #expect(s.namePicker.nameField == "")
        #expect(Fx.sent(fx).allSatisfy { $0.hasPrefix("NAMES") })
        (s, _) = Fx.run(s, Fx.keys("bob") + [.key(.ctrlW)])
        #expect(s.namePicker.nameField == "")
        // A join code.
        (s, fx) = Fx.run(Fx.named(), [.key(.char("4"))] + Fx.keys("4eg7r") + [.key(.ctrlW)])
        #expect(s.screen == .join && s.codeField == "" && fx.isEmpty)
        (s, _) = Fx.run(s, Fx.keys("ab") + [.key(.ctrlU)])
        #expect(s.codeField == "")
        // A password: spaces part its words.
        (s, fx) = Fx.run(AFx.login(), AFx.type(" pass word ") + [.key(.ctrlW)])
        #expect(s.account.field == " pass " && fx.isEmpty)
        (s, _) = Fx.run(s, .key(.ctrlW))
        #expect(s.account.field == " ")
        (s, fx) = Fx.run(s, AFx.type("abc def") + [.key(.ctrlU)])
        #expect(s.account.field == "" && fx.isEmpty && s.screen == .account(.login))
        // The word that answers a challenge.
        (s, fx) = Fx.run(ChallengeClientTests.challenged(), Fx.keys("lxy") + [.key(.ctrlW)])
        #expect(s.game?.ghost?.answer == "" && fx.isEmpty && s.answeringChallenge)
        (s, _) = Fx.run(s, Fx.keys("l") + [.key(.ctrlU)])
        #expect(s.game?.ghost?.answer == "")
        // Hangman's answer: its words apart.
        (s, fx) = Fx.run(HFx.playing(), [.key(.char("="))] + Fx.keys("the big") + [.key(.ctrlW)])
        #expect(s.hangman.answer == "the/" && fx.isEmpty)
        (s, _) = Fx.run(s, .key(.ctrlW))
        #expect(s.hangman.answer == "")
        (s, _) = Fx.run(s, Fx.keys("pear") + [.key(.ctrlU)])
        #expect(s.hangman.answer == "" && fx.isEmpty)
        // A duel's word, typed by the setter.
        (s, _) = Fx.run(HFx.hangmanMain(), .key(.char("3")))
        (s, _) = Fx.run(s, Fx.lines("OK NEW code=DNW73 game=hangman mode=duel lang=en length=4 misses=8",
                                    "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                                    "TURN id=2 player=alice pattern= missed=- left=8"))
        (s, fx) = Fx.run(s, Fx.keys("pear") + [.key(.ctrlW)])
        #expect(s.hangman.wordField == "" && fx.isEmpty)
        (s, fx) = Fx.run(s, Fx.keys("pe") + [.key(.ctrlU)])
        #expect(s.hangman.wordField == "" && fx.isEmpty)
    }

    @Test("Item 23: a watcher on the list after a server restart gets the games again by itself, as the players come back; the list stays on screen meanwhile")
    func watchListAfterRestart() {
        var (s, fx) = Fx.run(WFx.list(), .key(.down), .disconnected)
        #expect(s.screen == .watchList && s.watch.games == nil)
        (s, fx) = Fx.run(s, .tick(103), .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAME carol", "GAMES"])
        // The restarted server has loaded no game yet: none comes back before its player.
        (s, _) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK NAME name=carol lang=en", "OK GAMES count=0 more=no", "OK SETTINGS"))
        #expect(s.watch.games == [])
        #expect(s.nextDeadline == 108)
        (s, fx) = Fx.run(s, .tick(107.9))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .tick(108))
        #expect(Fx.sent(fx) == ["GAMES"])
        (s, _) = Fx.run(s, WFx.liveLines.map { Fx.line($0) } + [Fx.line("OK GAMES count=4 more=no")])
        #expect(s.watch.games?.map(\.id) == [12, 9, 7, 4])
        #expect(ScreenTests.plainLines(s).contains { $0.contains("alice vs bob") })
        // Asked again while shown: the list and the game chosen stay until the answer.
        (s, _) = Fx.run(s, .key(.down), .key(.down))
        #expect(s.watch.chosen?.id == 7)
        (s, fx) = Fx.run(s, .tick(113))
        #expect(Fx.sent(fx) == ["GAMES"] && s.watch.games?.count == 4)
        (s, _) = Fx.run(s, Fx.line(WFx.liveLines[2]), Fx.line("OK GAMES count=1 more=no"))
        #expect(s.watch.chosen?.id == 7)
        // Only while the list is shown.
        (s, fx) = Fx.run(s, .key(.escape), .tick(130))
        #expect(s.screen == .main && Fx.sent(fx).isEmpty)
    }
}
