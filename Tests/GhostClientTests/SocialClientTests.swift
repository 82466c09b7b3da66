import Testing
@testable import GhostClient
import GhostProtocol

/// Builders for the social screens (issue #47).
enum SFx {
    static let friendLines = [
        "FRIEND name=ann online=yes playing=12",
        "FRIEND name=bob online=yes",
        "FRIEND name=carol online=no seen=1796000000",
        "FRIEND name=dan online=no",
    ]

    /// alice on the friends screen, its list received.
    static func friends(language: String = "en", colour: Bool = false) -> ClientState {
        let s = Fx.run(Fx.named("alice", language: language, colour: colour), .key(.char("f"))).0
        return Fx.run(s, friendLines.map { Fx.line($0) } + [Fx.line("OK FOLLOWING count=4")]).0
    }

    /// alice in game 7 against bob (alice to move).
    static func game(fragment: String = "", language: String = "en") -> ClientState { Fx.inGame(fragment: fragment, language: language) }

    /// The status line's alert, in words ("" without one).
    static func alert(_ s: ClientState, _ t: Strings) -> String {
        s.alert.map { Screens.noticeText($0.notice, t) } ?? ""
    }

    static func plain(_ s: ClientState, _ w: Int = 80, _ h: Int = 24) -> [String] { ScreenTests.plainLines(s, w, h) }
}

@Suite("Client: friends, presence, invitations, chat and blocking (#47)")
struct SocialReducerTests {
    @Test("f on the main screen sends FOLLOWING; FRIEND lines and OK FOLLOWING build the list, with presence in words")
    func friendsList() {
        let (s, fx) = Fx.run(Fx.named(), .key(.char("f")))
        #expect(Fx.sent(fx) == ["FOLLOWING"])
        #expect(s.screen == .social(.friends) && s.social.friends == nil)
        #expect(SFx.plain(s).contains { $0.contains("Asking the server for your friends") })
        let l = SFx.friends()
        #expect(l.social.friends?.map(\.name) == ["ann", "bob", "carol", "dan"])
        #expect(l.social.friends?.first == Friend(name: "ann", online: true, playing: 12, seen: nil))
        let en = SFx.plain(l)
        #expect(en.contains { $0.contains("▶ ann") && $0.contains("playing game 12") }, "\(en)")
        #expect(en.contains { $0.contains("bob") && $0.contains("online") })
        #expect(en.contains { $0.contains("carol") && $0.contains("last seen 2026-11-30 00:53 UTC") }, "\(en)")
        #expect(en.contains { $0.contains("dan") && $0.contains("offline") })
        let nl = SFx.plain(SFx.friends(language: "nl"))
        #expect(nl.contains { $0.contains("ann") && $0.contains("speelt spel 12") }, "\(nl)")
        #expect(nl.contains { $0.contains("carol") && $0.contains("laatst gezien 2026-11-30 00:53 UTC") })
        // An empty list says how to add a name.
        let empty = Fx.run(Fx.named(), .key(.char("f")), Fx.line("OK FOLLOWING count=0")).0
        #expect(SFx.plain(empty).contains { $0.contains("You follow nobody yet: a adds a name") })
        // w watches the game the chosen friend plays; a friend who plays none has none to watch.
        let (watching, wfx) = Fx.run(l, .key(.char("w")))
        #expect(Fx.sent(wfx) == ["WATCH 12"] && watching.watch.asked == 12)
        #expect(Fx.run(l, .key(.down), .key(.char("w"))).1.isEmpty)
        // r asks again, the list shown (and i on it) staying until the answer.
        let (again, afx) = Fx.run(l, .key(.char("r")), .key(.char("i")))
        #expect(Fx.sent(afx) == ["FOLLOWING", "INVITE ann"] && again.social.friends?.count == 4)
        // Esc goes back to the main screen.
        #expect(Fx.run(l, .key(.escape)).0.screen == .main)
    }

    @Test("a types a name to follow (q is a letter there), Enter sends FOLLOW; its OK asks the list again; u unfollows the chosen name")
    func followAndUnfollow() {
        var (s, fx) = Fx.run(SFx.friends(), [.key(.char("a"))] + Fx.keys("quinn") + [.key(.enter)])
        #expect(s.social.addField == "quinn" && s.screen == .social(.friends))
        #expect(Fx.sent(fx) == ["FOLLOW quinn"])
        (s, fx) = Fx.run(s, Fx.line("OK FOLLOW name=Quinn"))
        #expect(s.social.addField == nil && Fx.sent(fx) == ["FOLLOWING"])
        #expect(s.alert?.notice == .social(.followed("Quinn")))
        s = Fx.run(s, SFx.friendLines.map { Fx.line($0) } + [Fx.line("FRIEND name=Quinn online=no"), Fx.line("OK FOLLOWING count=5")]).0
        // Esc closes the field unsent; an empty field sends nothing.
        let closed = Fx.run(s, .key(.char("a")), .key(.char("x")), .key(.escape))
        #expect(closed.0.social.addField == nil && closed.1.isEmpty)
        #expect(Fx.run(s, .key(.char("a")), .key(.enter)).1.isEmpty)
        // ↓ to bob, u: UNFOLLOW bob; its OK takes bob off the list.
        (s, fx) = Fx.run(s, .key(.down), .key(.char("u")))
        #expect(Fx.sent(fx) == ["UNFOLLOW bob"])
        s = Fx.run(s, Fx.line("OK UNFOLLOW name=bob")).0
        #expect(s.social.friends?.map(\.name) == ["ann", "carol", "dan", "Quinn"])
        #expect(s.alert?.notice == .social(.unfollowed("bob")))
        // A guest cannot follow: the refusal in the client's words.
        let refused = Fx.run(SFx.friends(), [.key(.char("a"))] + Fx.keys("zoe") + [.key(.enter), Fx.line("ERR not-registered register first")]).0
        #expect(SFx.alert(refused, .en).hasPrefix("Only registered names follow"))
    }

    @Test("ONLINE and OFFLINE update the list live and show a short notice on any screen but a game's")
    func presenceLive() {
        var s = Fx.run(SFx.friends(), Fx.line("OFFLINE name=bob")).0
        #expect(s.social.friends?[1] == Friend(name: "bob", online: false, playing: nil, seen: nil))
        #expect(SFx.alert(s, .en) == "bob went offline.")
        s = Fx.run(s, Fx.line("ONLINE name=dan")).0
        #expect(s.social.friends?[3].online == true)
        #expect(SFx.plain(s).contains { $0.contains("dan is online.") })
        let nl = Fx.run(Fx.named(language: "nl"), Fx.line("ONLINE name=dan")).0
        #expect(SFx.plain(nl).contains { $0.contains("dan is online.") })
        // A refusal on the status line stays: presence does not replace it.
        let refused = Fx.run(SFx.friends(), .key(.char("i")), Fx.line("ERR unavailable ann is in a game"), Fx.line("OFFLINE name=bob")).0
        #expect(SFx.alert(refused, .en) == "ann is in a game.")
        // In a game the game's own status line stays.
        let game = Fx.run(SFx.game(), Fx.line("ONLINE name=dan")).0
        #expect(game.alert == nil)
    }

    @Test("i invites the chosen friend with the main screen's options (Ghost, or Hangman's duel); the waiting screen; DECLINED brings the friends screen back, saying so")
    func inviteDeclined() {
        var (s, fx) = Fx.run(SFx.friends(), .key(.down), .key(.char("i")))
        #expect(Fx.sent(fx) == ["INVITE bob"])
        // A second i while the first is on its way sends nothing.
        #expect(Fx.run(s, .key(.char("i"))).1.isEmpty)
        s = Fx.run(s, Fx.line("OK INVITE code=AB12CD name=bob game=ghost lang=en")).0
        #expect(s.screen == .waiting && s.lobby == .hosting(code: "AB12CD", lang: "en", match: false, game: .ghost))
        #expect(s.social.invitedName == "bob" && s.social.invitedCode == "AB12CD")
        #expect(SFx.plain(s).contains { $0.contains("You invited bob; waiting for the answer.") }, "\(SFx.plain(s))")
        // Another DECLINED code is not this one.
        #expect(Fx.run(s, Fx.line("DECLINED name=bob code=ZZZZZZ")).0.screen == .waiting)
        (s, fx) = Fx.run(s, Fx.line("DECLINED name=bob code=AB12CD"))
        #expect(s.screen == .social(.friends) && s.lobby == nil && s.social.invitedCode == nil)
        #expect(Fx.sent(fx) == ["FOLLOWING"])
        #expect(SFx.plain(s).contains { $0.contains("bob declined your invitation.") })
        let nl = Fx.run(SFx.friends(language: "nl"), .key(.char("i")), Fx.line("OK INVITE code=AB12CD name=ann game=ghost lang=nl"),
                        Fx.line("DECLINED name=ann code=AB12CD")).0
        #expect(SFx.plain(nl).contains { $0.contains("ann heeft je uitnodiging afgeslagen.") })
        // The saved choices of new games go with it: a match, on a clock, kept from watchers.
        var chosen = Fx.named()
        chosen.config.matchMode = true
        chosen.config.clock = 30
        chosen.config.privateGames = true
        let sentMatch = Fx.sent(Fx.run(chosen, .key(.char("f")), Fx.line("FRIEND name=ann online=yes"), Fx.line("OK FOLLOWING count=1"), .key(.enter)).1)
        #expect(sentMatch == ["FOLLOWING", "INVITE ann rounds=ghost clock=30 watch=no"], "\(sentMatch)")
        // Hangman chosen: a duel, as its private game is.
        let hangman = Fx.run(Fx.named(), .key(.right)).0
        let newDuel = Fx.sent(Fx.run(hangman, .key(.char("i"))).1)
        let invited = Fx.sent(Fx.run(hangman, .key(.char("f")), Fx.line("FRIEND name=ann online=yes"), Fx.line("OK FOLLOWING count=1"), .key(.char("i"))).1)
        #expect(invited == ["FOLLOWING", newDuel.first.map { "INVITE ann" + $0.dropFirst(3) } ?? ""], "\(invited) \(newDuel)")
    }

    @Test("ERR unavailable is said in the client's words, by its reason, in both languages")
    func inviteUnavailable() {
        for (text, en, nl) in [("ann is not online", "ann is not online.", "ann is niet online."),
                               ("ann is in a game", "ann is in a game.", "ann speelt nu een spel."),
                               ("ann takes invitations from friends only", "ann takes invitations from friends only.", "ann wil alleen uitnodigingen van vrienden."),
                               ("ann takes no invitations", "ann takes no invitations.", "ann wil geen uitnodigingen.")] {
            let s = Fx.run(SFx.friends(), .key(.char("i")), Fx.line("ERR unavailable \(text)")).0
            #expect(s.screen == .social(.friends) && s.social.inviting == nil)
            #expect(SFx.alert(s, .en) == en)
            #expect(SFx.alert(s, .nl) == nl)
        }
    }

    @Test("An invitation shows on any screen outside a game: + sends JOIN <code>, - sends DECLINE <code>; WITHDRAWN takes it away")
    func incomingInvitation() {
        let invite = Fx.line("INVITE from=bob code=XY12ZW game=ghost lang=en variant=super clock=30")
        var (s, _) = Fx.run(Fx.named(), invite)
        #expect(s.social.invitations.map(\.code) == ["XY12ZW"])
        #expect(SFx.plain(s).contains { $0.contains("bob invites you: Superghost (English) · + accept · - decline") }, "\(SFx.plain(s))")
        let nl = Fx.run(Fx.named(language: "nl"), invite).0
        #expect(SFx.plain(nl).contains { $0.contains("bob nodigt je uit: Superghost (Engels) · + ja · - nee") }, "\(SFx.plain(nl))")
        // + joins it.
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.char("+")))
        #expect(Fx.sent(fx) == ["JOIN XY12ZW"] && s.social.invitations.isEmpty)
        // - declines it, saying so.
        (s, fx) = Fx.run(Fx.named(), invite, .key(.char("-")))
        #expect(Fx.sent(fx) == ["DECLINE XY12ZW"] && s.social.invitations.isEmpty)
        #expect(SFx.plain(s).contains { $0.contains("You declined bob's invitation.") })
        // On the friends screen too; while typing a name, + and - are not answers.
        (s, fx) = Fx.run(SFx.friends(), invite, .key(.char("-")))
        #expect(Fx.sent(fx) == ["DECLINE XY12ZW"])
        (s, fx) = Fx.run(SFx.friends(), invite, .key(.char("a")), .key(.char("-")))
        #expect(fx.isEmpty && s.social.addField == "-" && s.social.invitations.count == 1)
        // WITHDRAWN takes it away.
        s = Fx.run(Fx.named(), invite, Fx.line("WITHDRAWN from=bob code=XY12ZW")).0
        #expect(s.social.invitations.isEmpty && s.alert?.notice == .social(.withdrawn("bob")))
        // Waiting for a game of your own: + leaves it first.
        let hosting = Fx.run(Fx.named(), Fx.keys("i") + [Fx.line("OK NEW code=4EG7R lang=en"), invite]).0
        #expect(Fx.sent(Fx.run(hosting, .key(.char("+"))).1) == ["LEAVE", "JOIN XY12ZW"])
        // In a game of yours it waits (said once on the status line), and + is no answer.
        let game = Fx.run(SFx.game(), invite)
        #expect(SFx.plain(game.0).contains { $0.contains("bob invites you: answer once this game is over.") })
        #expect(!SFx.plain(game.0).contains { $0.contains("+ accept") })
        #expect(Fx.sent(Fx.run(game.0, .key(.char("+"))).1).isEmpty)
        // The game-over screen shows it with its keys.
        let over = Fx.run(Fx.over(), invite).0
        #expect(SFx.plain(over).contains { $0.contains("bob invites you: Superghost (English) · + accept · - decline") }, "\(SFx.plain(over))")
        #expect(Fx.sent(Fx.run(over, .key(.char("+"))).1) == ["JOIN XY12ZW"])
        // Watching a game, it shows; + stops watching (UNWATCH) and joins.
        let watching = Fx.run(WFx.ghost(), invite).0
        #expect(SFx.plain(watching).contains { $0.contains("bob invites you: Superghost (English) · + accept · - decline") }, "\(SFx.plain(watching))")
        let joined = Fx.run(watching, .key(.char("+")))
        #expect(Fx.sent(joined.1) == ["UNWATCH", "GAMES", "JOIN XY12ZW"], "\(Fx.sent(joined.1))")
        #expect(Fx.sent(Fx.run(watching, .key(.char("-"))).1) == ["DECLINE XY12ZW"])
        // With the chat line open, + and - are typed into it.
        let chatting = Fx.run(watching, .key(.char(":")), .key(.char("+"))).0
        #expect(chatting.social.chat == "+" && chatting.social.invitations.count == 1)
    }

    @Test(": opens the chat line: letters go into it, never to the game; Enter sends SAY, Esc closes it unsent; closed, letters are moves again")
    func chatLine() {
        var (s, fx) = Fx.run(SFx.game(), .key(.char(":")))
        #expect(s.social.chat == "" && fx.isEmpty)
        (s, fx) = Fx.run(s, Fx.keys("good game q!"))
        #expect(fx.isEmpty && s.social.chat == "good game q!")
        #expect(SFx.plain(s).contains { $0.contains("Say: good game q!_ · Enter send · Esc close") }, "\(SFx.plain(s))")
        // Backspace, Ctrl-W edit it; a paste goes into it.
        (s, _) = Fx.run(s, .key(.backspace), .key(.ctrlW), .paste(Fx.keys("gg").map { if case .key(let k) = $0 { k } else { .other } }))
        #expect(s.social.chat == "good game gg")
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["SAY good game gg"] && s.social.chat == nil)
        #expect(SFx.plain(s).contains { $0.contains("you: good game gg") })
        // Esc closes it unsent; then a letter is a move.
        (s, fx) = Fx.run(s, .key(.char(":")), .key(.char("x")), .key(.escape))
        #expect(fx.isEmpty && s.social.chat == nil)
        #expect(Fx.sent(Fx.run(s, .key(.char("x"))).1) == ["LETTER x"])
        // An empty line sends nothing.
        #expect(Fx.run(s, .key(.char(":")), .key(.char(" ")), .key(.enter)).1.isEmpty)
        // : and the line in one read (a paste) open the line and fill it.
        let pasted = Fx.run(SFx.game(), .paste([.char(":"), .char("h"), .char("i")])).0
        #expect(pasted.social.chat == "hi")
        // Outside a game : does nothing.
        #expect(Fx.run(Fx.named(), .key(.char(":"))).0.social.chat == nil)
        // At most 200 characters.
        let long = Fx.run(SFx.game(), [.key(.char(":"))] + Array(repeating: .key(.char("a")), count: 205)).0
        #expect(long.social.chat?.count == 200)
    }

    @Test("SAID lines show in the game screen: the newest on the status row, the one before above it; another game's are not shown; format characters dropped")
    func chatReceived() {
        var s = Fx.run(SFx.game(), Fx.line("SAID id=7 player=bob - good luck")).0
        #expect(SFx.plain(s).contains { $0.contains("bob: good luck") })
        s = Fx.run(s, Fx.line("SAID id=7 player=bob - \u{202E}have fun")).0
        let lines = SFx.plain(s, 60, 20)
        #expect(lines.contains { $0.contains("bob: good luck") } && lines.contains { $0.contains("bob: have fun") }, "\(lines)")
        #expect(s.social.said.map(\.text) == ["good luck", "have fun"])
        // Three lines: the last two are kept.
        s = Fx.run(s, Fx.line("SAID id=7 player=bob - gg")).0
        #expect(s.social.said.map(\.text) == ["have fun", "gg"])
        // Another game's line is not this game's.
        #expect(Fx.run(s, Fx.line("SAID id=8 player=carol - hi")).0.social.said.map(\.text) == ["have fun", "gg"])
        let nl = Fx.run(SFx.game(language: "nl"), Fx.line("SAID id=7 player=bob - goed gespeeld"), .key(.char(":")), .key(.char("j")), .key(.enter)).0
        #expect(SFx.plain(nl).contains { $0.contains("bob: goed gespeeld") } && SFx.plain(nl).contains { $0.contains("jij: j") }, "\(SFx.plain(nl))")
    }

    @Test("A watcher chats too: : opens the line, Enter sends SAY; Esc then still stops watching")
    func watcherChat() {
        var (s, fx) = Fx.run(WFx.ghost(), [.key(.char(":"))] + Fx.keys("nice") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["SAY nice"])
        s = Fx.run(s, Fx.line("SAID id=12 player=dan watcher=yes - indeed")).0
        #expect(SFx.plain(s).contains { $0.contains("dan: indeed") })
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(Fx.sent(fx) == ["UNWATCH", "GAMES"])
    }

    @Test("x blocks the chosen friend after a question (y), and the list drops it; n asks nothing; k lists the names blocked, u unblocks")
    func blockFromFriends() {
        var (s, fx) = Fx.run(SFx.friends(), .key(.down), .key(.char("x")))
        #expect(s.social.confirmBlock == "bob" && fx.isEmpty)
        #expect(SFx.plain(s).contains { $0.contains("Block bob? They are not told. y: yes · n: no") })
        #expect(Fx.run(s, .key(.char("n"))).0.social.confirmBlock == nil)
        #expect(Fx.run(s, .key(.char("n"))).1.isEmpty)
        (s, fx) = Fx.run(s, .key(.char("y")))
        #expect(Fx.sent(fx) == ["BLOCK bob"] && s.social.confirmBlock == nil)
        s = Fx.run(s, Fx.line("OK BLOCK name=bob")).0
        #expect(s.social.friends?.map(\.name) == ["ann", "carol", "dan"])
        #expect(s.alert?.notice == .social(.blocked("bob")))
        // k: the blocks list.
        (s, fx) = Fx.run(s, .key(.char("k")))
        #expect(Fx.sent(fx) == ["BLOCKS"] && s.screen == .social(.blocks))
        s = Fx.run(s, Fx.lines("BLOCKED name=bob", "BLOCKED name=mallory", "OK BLOCKS count=2")).0
        #expect(s.social.blocks == ["bob", "mallory"])
        #expect(SFx.plain(s).contains { $0.contains("▶ bob") })
        (s, fx) = Fx.run(s, .key(.down), .key(.char("u")))
        #expect(Fx.sent(fx) == ["UNBLOCK mallory"])
        s = Fx.run(s, Fx.line("OK UNBLOCK name=mallory")).0
        #expect(s.social.blocks == ["bob"] && s.alert?.notice == .social(.unblocked("mallory")))
        // Esc: back to the friends screen, asked again.
        (s, fx) = Fx.run(s, .key(.escape))
        #expect(s.screen == .social(.friends) && Fx.sent(fx) == ["FOLLOWING"])
        let nl = Fx.run(SFx.friends(language: "nl"), .key(.char("x"))).0
        #expect(SFx.plain(nl).contains { $0.contains("ann blokkeren? Die merkt het niet. j: ja · n: nee") })
        #expect(Fx.sent(Fx.run(nl, .key(.char("j"))).1) == ["BLOCK ann"])
    }

    @Test("x on an opponent's profile blocks it after the question; your own profile has no block key")
    func blockFromProfile() {
        var s = Fx.run(RFx.history(), .key(.char("o"))).0
        s = Fx.run(s, Fx.line("OK PROFILE name=bob registered=yes ratings=0")).0
        #expect(SFx.plain(s).contains { $0.contains("x block") })
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.char("x")))
        #expect(s.social.confirmBlock == "bob" && fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["BLOCK bob"] && s.screen == .record(.profile))
        let mine = Fx.run(RFx.history(), .key(.char("p")), Fx.line("OK PROFILE name=alice registered=yes ratings=0")).0
        #expect(!SFx.plain(mine).contains { $0.contains("x block") })
        #expect(Fx.run(mine, .key(.char("x"))).0.social.confirmBlock == nil)
    }

    @Test("p: the privacy settings from SETTINGS; Enter and ←/→ send SET, shown once saved")
    func privacySettings() {
        var (s, fx) = Fx.run(SFx.friends(), .key(.char("p")))
        #expect(s.screen == .social(.settings) && Fx.sent(fx) == ["SETTINGS"])
        s = Fx.run(s, Fx.lines("SETTING key=hangman-mode value=evil default=evil", "SETTING key=presence value=off default=on",
                               "SETTING key=invites value=friends default=anyone", "OK SETTINGS")).0
        #expect(s.social.setting(.presence) == "off" && s.social.setting(.chat) == "on" && s.social.setting(.invites) == "friends")
        let en = SFx.plain(s)
        #expect(en.contains { $0.contains("Others see when you are online: on [off]") }, "\(en)")
        #expect(en.contains { $0.contains("Invitations from: anyone [friends] nobody") })
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["SET presence on"])
        s = Fx.run(s, Fx.line("OK SET key=presence value=on")).0
        #expect(s.social.setting(.presence) == "on" && s.alert?.notice == .social(.saved))
        (s, fx) = Fx.run(s, .key(.down), .key(.down), .key(.left))
        #expect(Fx.sent(fx) == ["SET invites anyone"])
        (s, fx) = Fx.run(s, .key(.char("2")), .key(.right))
        #expect(Fx.sent(fx) == ["SET chat off"])
        let nl = SFx.plain(Fx.run(SFx.friends(language: "nl"), .key(.char("p"))).0)
        #expect(nl.contains { $0.contains("Chat van anderen in een spel: [aan] uit") }, "\(nl)")
        // The Hangman setting is Hangman's still.
        #expect(s.hangman.setting(.mode).value == "evil")
        #expect(Fx.run(s, .key(.escape)).0.screen == .social(.friends))
    }
}

@Suite("Client: the social screens fit (#47)")
struct SocialScreenTests {
    static func everyScreen(language: String) -> [ClientState] {
        let invite = Fx.line("INVITE from=bob_the_longest_1 code=XY12ZW game=ghost lang=en variant=challenge clock=30 rated=yes")
        var chat = Fx.run(SFx.game(language: language), Fx.line("SAID id=7 player=bob - " + String(repeating: "word ", count: 39) + "end")).0
        chat = Fx.run(chat, Fx.line("SAID id=7 player=bob - " + String(repeating: "lang ", count: 39) + "end")).0
        return [
            SFx.friends(language: language),
            Fx.run(SFx.friends(language: language), .key(.char("a")), .key(.char("z"))).0,
            Fx.run(SFx.friends(language: language), .key(.char("x"))).0,
            Fx.run(SFx.friends(language: language), .key(.char("k")), Fx.line("BLOCKED name=bob"), Fx.line("OK BLOCKS count=1")).0,
            Fx.run(SFx.friends(language: language), .key(.char("k")), Fx.line("OK BLOCKS count=0")).0,
            Fx.run(SFx.friends(language: language), .key(.char("p"))).0,
            Fx.run(Fx.named(language: language), invite).0,
            Fx.run(SFx.friends(language: language), invite).0,
            Fx.run(SFx.friends(language: language), .key(.char("i")), Fx.line("OK INVITE code=AB12CD name=ann game=ghost lang=en")).0,
            chat,
            Fx.run(chat, [.key(.char(":"))] + Array(repeating: .key(.char("w")), count: 200)).0,
            Fx.run(Fx.named(language: language), Fx.line("ONLINE name=bob")).0,
            // Hangman's play screen, played and watched, with chat.
            Fx.run(HFx.playing(language: language), Fx.line("SAID id=9 player=bot-hangman - " + String(repeating: "word ", count: 39) + "end"),
                   Fx.line("SAID id=9 player=bot-hangman - hi"), .key(.char(":")), .key(.char("w"))).0,
            Fx.run(WFx.hangman(language: language), Fx.line("SAID id=7 player=dan watcher=yes - " + String(repeating: "word ", count: 39) + "end"),
                   Fx.line("SAID id=7 player=eve watcher=yes - hi")).0,
        ]
    }

    @Test("Every social screen fits 60×20, 80×24 and 120×40: nothing cut, the key help whole", arguments: ["en", "nl"], [false, true])
    func fits(language: String, colour: Bool) {
        for var s in Self.everyScreen(language: language) {
            s.colour = colour
            for (w, h) in LayoutTests.sizes {
                let problems = LayoutTests.problems(s, width: w, height: h, language: language)
                #expect(problems.isEmpty, "\(s.screen) \(w)x\(h): \(problems)\n\(ScreenTests.plainLines(s, w, h).joined(separator: "\n"))")
            }
        }
    }
}

@Suite("Client: the social state across a dropped connection (#47)")
struct SocialLinkTests {
    @Test("A drop forgets an INVITE on its way (i works again once back) and the lists being received; the list shown stays")
    func dropForgetsWhatWasOnItsWay() {
        var s = Fx.run(SFx.friends(), .key(.char("i"))).0
        #expect(s.social.inviting == "ann")
        s = Fx.run(s, .disconnected, .tick(200), .connected, Fx.line(Fx.hello)).0
        #expect(s.social.inviting == nil && s.social.friends?.count == 4)
        // Asked while the connection dropped: not stuck on "asking".
        let asking = Fx.run(Fx.named(), .key(.char("f")), .disconnected).0
        #expect(asking.social.friends == [] && asking.social.incomingFriends.isEmpty)
    }
}
