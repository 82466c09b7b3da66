import Foundation
import Testing
@testable import GhostClient
import GhostProtocol

/// Every screen, in both languages, with and without colour, at several sizes.
@Suite("Screens")
struct ScreenTests {
    static let sizes = [(80, 24), (120, 40), (100, 30)]

    /// One state per screen, to check the common properties.
    static func everyScreen(language: String, colour: Bool) -> [ClientState] {
        var first = ClientState(config: ClientConfig(), serverAddress: "127.0.0.1:7777", colour: colour)
        first.config.language = nil
        var tutorial = Fx.named(language: language, colour: colour)
        tutorial = Fx.run(tutorial, .key(.char("7")), .key(.right)).0
        var names = Fx.online(language: language, colour: colour)
        names = Fx.run(names, Fx.lines("NAME name=alice", "NAME name=bob", "OK NAMES count=2")).0
        let main = Fx.named(language: language, colour: colour)
        let join = Fx.run(main, Fx.keys("4ab")).0
        let hosting = Fx.run(main, .key(.char("3")), Fx.line("OK NEW code=4EG7R lang=en")).0
        let seeking = Fx.run(main, .key(.char("1")), Fx.line("OK SEEK lang=nl")).0
        let resuming = ClientState(config: ClientConfig(language: language, tutorialSeen: true, token: Fx.token),
                                   serverAddress: "h:1", colour: colour)
        let game = Fx.inGame(fragment: "pea", language: language, colour: colour)
        let menu = Fx.run(Fx.inGame(fragment: "pe", language: language, colour: colour),
                          Fx.lines("OFFER id=7 player=bob kind=restart", "CLAIMABLE id=7 player=bob") + [.key(.escape)]).0
        let away = Fx.run(game, Fx.line("ADJOURNED id=7 player=bob grace=60"), .key(.char("1"))).0
        let over = Fx.over(language: language, colour: colour)
        let scores = Fx.run(main, [.key(.char("8"))] + (1...30).map { Fx.line("SCORE rank=\($0) name=player\($0) wins=\(31 - $0) played=40") }
                                  + [Fx.line("OK SCORES count=30 board=game")]).0
        let offline = Fx.run(game, .disconnected).0
        return [first, tutorial, names, main, join, hosting, seeking, resuming, game, menu, away, over, scores, offline]
    }

    @Test("Every screen fits: exactly `height` lines, none wider than `width`", arguments: ["en", "nl"], [false, true])
    func fits(language: String, colour: Bool) {
        for s in ScreenTests.everyScreen(language: language, colour: colour) {
            for (w, h) in ScreenTests.sizes {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h, "\(s.screen) at \(w)x\(h)")
                for line in lines {
                    #expect(Layout.visibleWidth(line) <= w, "\(s.screen) at \(w)x\(h): \(line)")
                }
            }
        }
    }

    @Test("Without colour (NO_COLOR) no screen holds an escape byte; with colour they do", arguments: ["en", "nl"])
    func noColour(language: String) {
        for s in ScreenTests.everyScreen(language: language, colour: false) {
            for (w, h) in ScreenTests.sizes + [(40, 12)] {
                let text = Screens.render(s, width: w, height: h, strings: s.strings).joined(separator: "\n")
                #expect(!text.utf8.contains(0x1B), "\(s.screen) at \(w)x\(h)")
            }
        }
        let coloured = Screens.render(Fx.inGame(fragment: "pea", colour: true)).joined()
        #expect(coloured.contains("\u{1B}["))
    }

    @Test("Small windows still render within bounds")
    func small() {
        for s in ScreenTests.everyScreen(language: "en", colour: true) {
            for (w, h) in [(40, 12), (20, 6), (1, 1)] {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h)
                #expect(lines.allSatisfy { Layout.visibleWidth($0) <= w })
            }
        }
    }

    // MARK: The game screen

    static func plainLines(_ s: ClientState, _ w: Int = 80, _ h: Int = 24) -> [String] {
        Screens.render(s, width: w, height: h, strings: s.strings).map(Layout.plain)
    }

    @Test("Whose turn: a ▶ marker on the player to move, and the turn line, in both languages")
    func whoseTurn() {
        let mine = ScreenTests.plainLines(Fx.inGame(fragment: "pe"))
        #expect(mine[3].contains("▶ alice (you)"))
        #expect(mine[3].contains("  bob"))
        #expect(!mine[3].contains("▶ bob"))
        #expect(mine[5].trimmingCharacters() == "Your turn: type a letter")

        let theirs = ScreenTests.plainLines(Fx.inGame(fragment: "p"))
        #expect(theirs[3].contains("▶ bob"))
        #expect(theirs[5].trimmingCharacters() == "bob is thinking…")

        let dutch = ScreenTests.plainLines(Fx.inGame(fragment: "pe", language: "nl"))
        #expect(dutch[3].contains("▶ alice (jij)"))
        #expect(dutch[5].trimmingCharacters() == "Jij bent aan de beurt: typ een letter")
        #expect(dutch[0].contains("Engels · ronde 1"))
    }

    @Test("With colour the player to move is in reverse video")
    func turnInColour() {
        let line = Screens.render(Fx.inGame(fragment: "pe", colour: true))[3]
        #expect(line.contains("▶ \u{1B}[1;7m alice (you) \u{1B}[0m"))
    }

    @Test("The fragment in large letters, with its caption; spaced capitals when too wide")
    func fragment() {
        let lines = ScreenTests.plainLines(Fx.inGame(fragment: "pea"))
        let big = BlockFont.render("PEA", maxWidth: 76) ?? []
        #expect(big.count == 5)
        for (i, row) in big.enumerated() {
            #expect(lines[7 + i].trimmingCharacters() == row.trimmingCharacters())
        }
        #expect(lines[7].contains("████  █████  ███"))
        #expect(lines[12].trimmingCharacters() == "“PEA” · 3 letters · You played A")

        let empty = ScreenTests.plainLines(Fx.inGame())
        #expect(empty[9].trimmingCharacters() == "— no letters yet —")

        // 20 letters do not fit in 80 columns as blocks: spaced capitals.
        let long = ScreenTests.plainLines(Fx.inGame(fragment: "abcdefghijklmnopqrst"))
        #expect(long.contains { $0.trimmingCharacters() == "A B C D E F G H I J K L M N O P Q R S T" })
        #expect(!long.joined().contains("█"))
        // In the narrowest window (60 columns) a shorter fragment falls back sooner.
        let narrow = ScreenTests.plainLines(Fx.inGame(fragment: "abcdefghijkl"), 60, 20)
        #expect(narrow.contains { $0.trimmingCharacters() == "A B C D E F G H I J K L" } || narrow.joined().contains("█"))
    }

    @Test("The keyboard: QWERTY rows; the key just played flashes (*P* without colour)")
    func keyboard() {
        var s = Fx.inGame(fragment: "")
        s = Fx.run(s, Fx.lines("MOVE id=7 player=alice letter=p fragment=p", "TURN id=7 player=bob fragment=p")).0
        let lines = ScreenTests.plainLines(s)
        #expect(lines[14].trimmingCharacters() == "[Q] [W] [E] [R] [T] [Y] [U] [I] [O] *P*")
        #expect(lines[15].trimmingCharacters() == "[A] [S] [D] [F] [G] [H] [J] [K] [L]")
        #expect(lines[16].trimmingCharacters() == "[Z] [X] [C] [V] [B] [N] [M]")
        // After the flash, plain again.
        let later = ScreenTests.plainLines(Fx.run(s, .tick(200)).0)
        #expect(later[14].trimmingCharacters() == "[Q] [W] [E] [R] [T] [Y] [U] [I] [O] [P]")
        // With colour, the flashed key is drawn with attributes instead.
        s.colour = true
        #expect(Screens.render(s)[14].contains("\u{1B}[1;30;43m[P]\u{1B}[0m"))
    }

    @Test("Alerts and situations: letters only, not your turn, opponent away, reconnecting, offers")
    func statusLines() {
        let alert = ScreenTests.plainLines(Fx.run(Fx.inGame(), .key(.char("7"))).0)
        #expect(alert[22] == " Letters only: type a letter a–z (Esc for the menu).")
        let nl = ScreenTests.plainLines(Fx.run(Fx.inGame(language: "nl"), .key(.char("7"))).0)
        #expect(nl[22] == " Alleen letters: typ een letter a–z (Esc voor het menu).")
        let turn = ScreenTests.plainLines(Fx.run(Fx.inGame(meFirst: false), .key(.char("x")),
                                                  Fx.line("ERR not-your-turn it is bob's turn")).0)
        #expect(turn[22] == " Not your turn: wait for your opponent.")
        let away = ScreenTests.plainLines(Fx.run(Fx.inGame(), Fx.line("ADJOURNED id=7 player=bob grace=60")).0)
        #expect(away[21] == " bob is away; the game waits (claimable after 60 s of their turn).")
        #expect(away[3].contains("bob …"))
        let offline = ScreenTests.plainLines(Fx.run(Fx.inGame(), .disconnected).0)
        #expect(offline[22] == " Connection lost: reconnecting to 127.0.0.1:7777…")
        let offer = ScreenTests.plainLines(Fx.run(Fx.inGame(fragment: "p"), Fx.line("OFFER id=7 player=bob kind=lang lang=nl")).0)
        #expect(offer[21] == " bob offers to switch to Dutch and restart: Enter accept · Backspace decline")
        #expect(offer[23].contains("Esc menu"))
    }

    @Test("The game menu lists the offer's answers, the claim, restart, languages, leave")
    func gameMenu() {
        let s = Fx.run(Fx.inGame(fragment: "pe"), Fx.lines("OFFER id=7 player=bob kind=restart",
                                                          "ADJOURNED id=7 player=bob grace=60", "CLAIMABLE id=7 player=bob")
                       + [.key(.escape)]).0
        let lines = ScreenTests.plainLines(s)
        #expect(Array(lines[12...20]) == [
            "  Menu",
            "  ▶ a  Accept: restart the round",
            "    d  Decline the offer",
            "    c  Claim the win (bob stayed away)",
            "    r  Restart the round",
            "    e  Play in English (the game's language)",
            "    n  Play in Dutch (restarts the round)",
            "    l  Leave the game (you lose)",
            "    b  Back to the game",
        ])
        let confirm = ScreenTests.plainLines(Fx.run(s, .key(.char("l"))).0)
        #expect(confirm.contains("  Leave and lose this game? y: yes · n: no"))
    }

    // MARK: Game over

    @Test("Game over: the winner congratulated, the reason in words, both places; keys for what next")
    func over() {
        let lines = ScreenTests.plainLines(Fx.over())
        #expect(lines[0].contains("Game over"))
        #expect(lines[3] == "  You win, alice! Congratulations!")
        #expect(lines[5] == "  bob completed “PEAR”, a word of more than 3 letters.")
        #expect(lines[6] == "  Last letters: P E A R")
        #expect(lines[8] == "  Places in the high-score list:")
        #expect(lines[9] == "  ▶ #1  alice  (3 wins)")
        #expect(lines[10] == "    #2  bob  (1 win)")
        #expect(Array(lines[12...16]) == ["  ▶ r  Rematch", "    g  New game (quick match)", "    n  Change name",
                                          "    m  Main screen", "    s  High scores"])

        let loser = ScreenTests.plainLines(Fx.over(me: "bob", language: "nl"))
        #expect(loser[3] == "  alice wint dit spel. Volgende keer beter!")
        #expect(loser[5] == "  Je maakte “PEAR”, een woord van meer dan 3 letters.")
        #expect(loser[9] == "    #1  alice  (3 overwinningen)")
        #expect(loser[10] == "  ▶ #2  bob  (1 overwinning)")
        #expect(loser[12] == "  ▶ r  Revanche")

        let rematch = ScreenTests.plainLines(Fx.run(Fx.over(), Fx.line("REMATCH id=7 player=bob")).0)
        #expect(rematch[21] == " bob wants a rematch: press r to play again.")
    }

    @Test("The server's INFO is never shown: the client says why in its own words")
    func infoNotRepeated() {
        let s = Fx.run(Fx.inGame(fragment: "pe"), Fx.lines("OVER id=7 winner=alice loser=bob reason=left fragment=pe",
                                                          "INFO bob left the game.")).0
        let lines = ScreenTests.plainLines(s)
        #expect(lines.filter { $0.contains("left the game") } == ["  bob left the game."])
    }

    @Test("Every reason in words", arguments: [
        ("word", "bob completed “PEAR”, a word of more than 3 letters.", "bob maakte “PEAR”, een woord van meer dan 3 letters."),
        ("dead", "bob made “PEAR”: no word continues it.", "bob maakte “PEAR”: daar gaat geen woord mee verder."),
        ("left", "bob left the game.", "bob heeft het spel verlaten."),
        ("abandoned", "bob stayed away too long; alice claimed the game.", "bob bleef te lang weg; alice eiste de winst op."),
        ("later", "bob lost (later).", "bob verloor (later)."),
    ])
    func reasons(reason: String, en: String, nl: String) {
        let r = GameResult(id: 1, winner: "alice", loser: "bob", reason: OverReason(rawValue: reason), fragment: "pear")
        #expect(GhostScreens.reasonText(r, .en) == en)
        #expect(GhostScreens.reasonText(r, .nl) == nl)
    }

    // MARK: The computer and matches

    @Test("A match shows each player's G-H-O-S-T letters under their name; the computer by its level")
    func matchScreen() {
        var s = ReducerComputerAndMatchTests.matchGame(bot: "hard")
        s = Fx.run(s, Fx.lines("MOVE id=5 player=alice letter=q fragment=q", "TURN id=5 player=bot-hard fragment=q ghost=GH,")).0
        let lines = ScreenTests.plainLines(s)
        #expect(lines[3].contains("▶ Computer (hard)") && lines[3].contains("alice (you)"))
        let ghost = lines[4].trimmingCharacters()
        #expect(ghost.hasPrefix("G H · · ·") && ghost.hasSuffix("· · · · ·"))
        #expect(lines[5].trimmingCharacters() == "The computer (hard) is thinking…")
        #expect(lines[12].trimmingCharacters() == "“Q” · 1 letter · You played Q")
        let nl = ScreenTests.plainLines(Fx.run(s, .resize(width: 80, height: 24)).0, 80, 24)
        #expect(nl[3].contains("Computer (hard)"))
        var dutch = s
        dutch.config.language = "nl"
        #expect(ScreenTests.plainLines(dutch)[5].trimmingCharacters() == "De computer (moeilijk) denkt na…")
    }

    @Test("Between rounds: the round's end, then “last round” during the next one")
    func rounds() {
        var s = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines(
            "MOVE id=5 player=alice letter=q fragment=q", "MOVE id=5 player=bob letter=z fragment=qz",
            "OVER id=5 winner=alice loser=bob reason=dead fragment=qz ghost=,G")).0
        var lines = ScreenTests.plainLines(s)
        #expect(lines[5].trimmingCharacters() == "Round over: the next one starts…")
        #expect(lines[21] == " bob made “QZ”: no word continues it. bob earns the letter G.")
        s = Fx.run(s, Fx.lines("GAME id=5 game=ghost lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=,G",
                               "TURN id=5 player=bob fragment= ghost=,G")).0
        lines = ScreenTests.plainLines(s)
        #expect(lines[21] == " Last round: bob made “QZ”: no word continues it. bob earns the letter G.")
        #expect(lines[0].contains("round 2"))
        #expect(lines[4].trimmingCharacters().hasSuffix("G · · · ·"))
    }

    @Test("A round of a match lost on a challenge says how, then the letter (not “made … and earns”)")
    func roundLostOnAChallenge() {
        let s = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines(
            "MOVE id=5 player=alice letter=q fragment=q", "MOVE id=5 player=bob letter=z fragment=qz",
            "MOVE id=5 player=alice challenge=yes fragment=qz", "MOVE id=5 player=bob concede=yes fragment=qz",
            "OVER id=5 winner=alice loser=bob reason=bluff fragment=qz ghost=,G")).0
        // The text may wrap over the last lines above the key help.
        let line = ScreenTests.plainLines(s)[18...21].map { $0.trimmingCharacters() }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(!line.contains("made"), "\(line)")
        #expect(line.hasSuffix("bob earns the letter G."), "\(line)")
        #expect(line.contains("QZ"), "\(line)")
    }

    @Test("The end of a match: the match winner, who spelled GHOST, both players' letters")
    func matchOver() {
        let s = Fx.run(ReducerComputerAndMatchTests.matchGame(), Fx.lines(
            "OVER id=5 winner=alice loser=bob reason=word fragment=pear ghost=G,GHOST",
            "INFO \"pear\" is a word longer than 3 letters, so bob loses.",
            "MATCH id=5 winner=alice loser=bob ghost=G,GHOST", "INFO bob spelled GHOST: alice wins the match.",
            "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0")).0
        let lines = ScreenTests.plainLines(s)
        #expect(lines[3] == "  You win the match, alice! Congratulations!")
        #expect(lines[5] == "  bob completed “PEAR”, a word of more than 3 letters.")
        #expect(lines[6] == "  bob spelled GHOST.")
        #expect(lines[7] == "  G-H-O-S-T:  alice G · · · ·   bob G H O S T")
        let nl = ScreenTests.plainLines(Fx.run(s, .key(.char("4")), .key(.char("6")), .key(.char("2")), .key(.enter)).0)
        #expect(nl.contains { $0.contains("Je speelt als alice") })
    }

    @Test("The computer screen lists the levels, who starts and the game type")
    func computerScreen() {
        let lines = ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("2")), .key(.char("4"))).0)
        #expect(lines[0].contains("Play the computer"))
        #expect(Array(lines[5...9]) == [
            "    e  Easy — any letter that does not lose at once; hints allowed",
            "    m  Medium — sometimes perfect, sometimes not",
            "    h  Hard — perfect play: wins whenever it can",
            "  ▶ f  Who starts: the computer",
            "    b  Back",
        ])
        #expect(lines[11] == "  Game type: single game")
        let over = ScreenTests.plainLines(Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
            "OVER id=4 winner=bot-easy loser=alice reason=left fragment=", "INFO alice left the game.",
            "RANK name=alice rank=1 wins=0")).0)
        #expect(over[3] == "  The computer (easy) wins this game. Better luck next time!")
        #expect(over.contains("  ▶ r  Play again"))
    }

    // MARK: Other screens

    @Test("High scores: rank, name, wins and played, my row marked; scrolls")
    func scores() {
        var s = Fx.named("player2")
        s = Fx.run(s, [.key(.char("8"))] + (1...30).map { Fx.line("SCORE rank=\($0) name=player\($0) wins=\(31 - $0) played=40") }
                      + [Fx.line("OK SCORES count=30 board=game")]).0
        let lines = ScreenTests.plainLines(s)
        #expect(lines[0].contains("High scores · games between people"))
        #expect(lines[3] == "      Rank  Name                   Wins   Played")
        #expect(lines[4] == "         1  player1                  30       40")
        #expect(lines[5] == "  ▶      2  player2                  29       40")
        let scrolled = ScreenTests.plainLines(Fx.run(s, .key(.down), .key(.down)).0)
        #expect(scrolled[4].contains("player3"))
        let nl = ScreenTests.plainLines(Fx.run(Fx.named(language: "nl"), .key(.char("8")), Fx.line("OK SCORES count=0 board=game")).0)
        #expect(nl[0].contains("Ranglijst · spellen tussen mensen"))
        #expect(nl[3] == "  Nog geen gespeelde spellen.")
    }

    @Test("Language choice, names, main menu, join and waiting screens show what they should")
    func lobbyScreens() {
        let first = ScreenTests.plainLines(ClientState(config: ClientConfig(), serverAddress: "h:1"))
        #expect(first.contains("  Choose your language · Kies je taal"))
        #expect(first.contains("  ▶ e  English"))
        #expect(first.contains("    n  Nederlands"))

        var names = Fx.online(lastName: "bob")
        names = Fx.run(names, Fx.lines("NAME name=alice", "NAME name=bob", "OK NAMES count=2")).0
        let n = ScreenTests.plainLines(names)
        #expect(n.contains("    Name: _"))
        #expect(n.contains("    alice"))
        #expect(n.contains("  ▶ bob"))

        let main = ScreenTests.plainLines(Fx.named(language: "nl"))
        #expect(main[0].contains("Je speelt als alice"))
        #expect(main.contains("  ▶ g  Snel een spel"))
        #expect(main.contains("    l  Taal: Nederlands"))
        #expect(main.contains("    a  Je naam registreren"))
        #expect(main.contains("    q  Stoppen"))
        #expect(main.contains("    c  Tegen de computer"))
        #expect(main.contains("    o  Ander spel: Galgje"))

        let hosting = ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("3")), Fx.line("OK NEW code=4EG7R lang=en")).0)
        #expect(hosting.contains("  Your private game code:"))
        #expect(hosting.contains { $0.trimmingCharacters() == "4 E G 7 R" })
        #expect(hosting.contains { $0.contains("█") })

        let seeking = ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("1")), Fx.line("OK SEEK lang=en")).0)
        #expect(seeking.contains("  Looking for an opponent who plays in English…"))

        let tutorial = ScreenTests.plainLines(Fx.run(Fx.named(language: "nl"), .key(.char("7"))).0)
        #expect(tutorial[0].contains("Zo speel je (1/8)"))
        #expect(tutorial[3] == "  Het spel")
    }

    @Test("Both languages have every tutorial page, and the same number")
    func tutorialPages() {
        #expect(Strings.en.allTutorialPages.count == Strings.tutorialPageCount)
        #expect(Strings.nl.allTutorialPages.count == Strings.tutorialPageCount)
        for t in [Strings.en, Strings.nl] {
            for p in t.allTutorialPages { #expect(!p.title.isEmpty && !p.paragraphs.isEmpty) }
        }
    }
}

/// What a new player sees.
@Suite("Screens: issue 14, a new player's bugs")
struct ScreenNewPlayerTests {
    @Test("Bug 7: the Dutch game-over screen has no English server text; the computer is never `bot-…`; ERR texts are the client's own")
    func ownWords() {
        let dutch = ScreenTests.plainLines(Fx.over(me: "bob", language: "nl")).joined(separator: "\n")
        #expect(!dutch.contains("Server"))
        #expect(!dutch.contains("longer than"))
        #expect(dutch.contains("Je maakte “PEAR”, een woord van meer dan 3 letters."))

        // Against the computer, every place a name appears: never its seat's name.
        var s = Fx.run(Fx.named(), Fx.lines(
            "GAME id=4 game=ghost lang=en players=bot-easy,alice token=\(Fx.token) round=1 bot=easy",
            "TURN id=4 player=bot-easy fragment=", "MOVE id=4 player=bot-easy letter=q fragment=q",
            "TURN id=4 player=alice fragment=q")).0
        var screens = [ScreenTests.plainLines(s)]
        s = Fx.run(s, Fx.lines("MOVE id=4 player=alice letter=z fragment=qz",
                               "OVER id=4 winner=bot-easy loser=alice reason=dead fragment=qz",
                               "INFO No word starts with \"qz\", so alice loses.",
                               "RANK name=bot-easy rank=1 wins=9", "RANK name=alice rank=1 wins=0")).0
        screens.append(ScreenTests.plainLines(s))
        for lines in screens {
            #expect(!lines.joined().contains("bot-"), "\(lines.joined(separator: "\n"))")
        }

        // An ERR is said in the screen's language, whatever the server's text.
        for code in ErrorCode.allCases + [ErrorCode(rawValue: "later-code")] {
            let text = "you are already seeking a game; LEAVE to stop"
            let nl = Screens.noticeText(.serverError(code: code, text: text), .nl)
            #expect(!nl.contains(text) && !nl.isEmpty, "\(code)")
        }
        #expect(Screens.noticeText(.serverError(code: .busy, text: "you are already seeking a game; LEAVE to stop"), .en)
                == "Not now: you are already waiting for a game, or playing one.")
    }

    @Test("What players miss: after a dead fragment the game-over screen names a word the fragment before it led to (word=), in the screen's language")
    func possibleWordAfterADeadFragment() {
        /// The reason's paragraph, its wrapped lines joined.
        func ended(_ language: String, _ over: String, word: String? = "jail") -> String {
            let s = Fx.run(Fx.inGame(fragment: "jai", language: language),
                           Fx.lines("MOVE id=7 player=bob letter=x fragment=jaix", over,
                                    "INFO No word starts with \"jaix\", so bob loses; \"jai\" could have led to \"jail\".")).0
            #expect(s.result?.word == word)
            let lines = ScreenTests.plainLines(s)
            return lines[5...].prefix { !$0.isEmpty && !$0.contains("Last letters") && !$0.contains("Laatste letters") }
                .map { $0.trimmingCharacters() }.joined(separator: " ")
        }
        let en = ended("en", "OVER id=7 winner=alice loser=bob reason=dead fragment=jaix word=jail")
        #expect(en == "bob made “JAIX”: no word continues it. “JAI” could have led to “JAIL”.")
        let nl = ended("nl", "OVER id=7 winner=alice loser=bob reason=dead fragment=jaix word=jail")
        #expect(nl == "bob maakte “JAIX”: daar gaat geen woord mee verder. “JAI” had nog “JAIL” kunnen worden.")
        // Without word= (an older server, or a fragment whose prefix leads only to short words): the reason alone.
        let plain = ended("en", "OVER id=7 winner=alice loser=bob reason=dead fragment=jaix", word: nil)
        #expect(plain == "bob made “JAIX”: no word continues it.")
        // A word= that is not letters is not shown.
        let odd = ended("en", "OVER id=7 winner=alice loser=bob reason=dead fragment=jaix word=j@il", word: nil)
        #expect(odd == "bob made “JAIX”: no word continues it.")
    }

    @Test("Bug 7: the computer is “the computer (easy)” mid-sentence, “The computer (easy)” at a sentence's start, “Computer (easy)” as a label; a player's name keeps its case")
    func computerInSentencesAndLabels() {
        // Two games against Easy: the running score names it mid-sentence.
        var s = Fx.named()
        for id in [4, 5] {
            s = Fx.run(s, Fx.lines(
                // The score is the server's (record=), as it would give it for the second game.
                "GAME id=\(id) game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy" + (id == 5 ? " record=1-0" : ""),
                "TURN id=\(id) player=alice fragment=", "MOVE id=\(id) player=alice letter=q fragment=q",
                "TURN id=\(id) player=bot-easy fragment=q")).0
            if id == 4 {
                s = Fx.run(s, Fx.lines("OVER id=4 winner=alice loser=bot-easy reason=left fragment=q",
                                       "INFO bot-easy left the game.")).0
            }
        }
        let en = ScreenTests.plainLines(s).map { $0.trimmingCharacters() }
        #expect(en.contains { $0.hasPrefix("alice (you)") && $0.hasSuffix("▶ Computer (easy)") })
        #expect(en.contains("So far: you 1 – 0 the computer (easy)"))
        #expect(en.contains("The computer (easy) is thinking…"))
        var nl = s
        nl.config.language = "nl"
        let dutch = ScreenTests.plainLines(nl).map { $0.trimmingCharacters() }
        #expect(dutch.contains { $0.hasPrefix("alice (jij)") && $0.hasSuffix("▶ Computer (makkelijk)") })
        #expect(dutch.contains("Tot nu toe: jij 1 – 0 de computer (makkelijk)"))
        #expect(dutch.contains("De computer (makkelijk) denkt na…"))
        // The strings: a sentence's start capitalises only the computer.
        #expect(Strings.en.theirTurn(Screens.display("bot-hard", .en)) == "The computer (hard) is thinking…")
        #expect(Strings.en.theirTurn(Screens.display("bob", .en)) == "bob is thinking…")
        #expect(Strings.en.offerFromMe(Screens.display("bot-hard", .en)) == "Waiting for the computer (hard) to answer your offer…")
        #expect(Strings.nl.reasonLeft(Screens.display("bot-medium", .nl)) == "De computer (gemiddeld) heeft het spel verlaten.")
        #expect(Screens.label("bot-medium", .nl) == "Computer (gemiddeld)")
        // Hangman's computer likewise.
        #expect(HangmanScreens.hangmanDisplay("bot-hangman", .en) == "the computer")
        #expect(Strings.en.hangman.chooseWord(HangmanScreens.hangmanDisplay("bot-hangman", .en)) == "Choose a word for the computer to guess:")
        #expect(Strings.nl.hangman.theyGuess(HangmanScreens.hangmanDisplay("bot-hangman", .nl)) == "De computer raadt…")
        #expect(HangmanScreens.hangmanLabel("bot-hangman", .nl) == "Computer")
    }

    @Test("Bug 5: a rematch request that lapsed is shown as lapsed, whoever asked", arguments: ["alice", "bob"])
    func rematchLapsed(asker: String) {
        var s = Fx.over()
        s = asker == "alice" ? Fx.run(s, .key(.char("1")), Fx.line("OK REMATCH status=asked")).0
            : Fx.run(s, Fx.line("REMATCH id=7 player=bob")).0
        #expect(ScreenTests.plainLines(s)[21] != "")
        s = Fx.run(s, Fx.line("CANCELLED id=7 player=\(asker) kind=rematch")).0
        #expect(ScreenTests.plainLines(s)[21] == " bob has moved on: the rematch lapsed.")
        var nl = s
        nl.config.language = "nl"
        #expect(ScreenTests.plainLines(nl)[21] == " bob is verder gegaan: de revanche is vervallen.")
    }

    @Test("Bug 10: with no server, the status line names the address it tries and how to pick another", arguments: ["en", "nl"])
    func noServer(language: String) {
        let config = ClientConfig(language: language, tutorialSeen: true, lastName: "zed")
        let s = Fx.run(ClientState(config: config, serverAddress: "127.0.0.1:1"), .disconnected, .disconnected).0
        let status = ScreenTests.plainLines(s)[22]
        #expect(status == (language == "nl" ? " Geen server op 127.0.0.1:1; opnieuw proberen. Andere: ghost-client HOST:POORT"
                                            : " No server at 127.0.0.1:1; trying again. Another: ghost-client HOST:PORT"))
        // Once it was reached, a drop says so, with the address.
        let t = Fx.run(Fx.named(language: language), .disconnected).0
        #expect(ScreenTests.plainLines(t)[22].contains("127.0.0.1:7777"))
    }

    @Test("Bug 9: from 60×20 up every screen keeps its parts; smaller says “make the window larger”; larger is centred")
    func sizes() {
        // 60×20: the whole game menu, and the keyboard and fragment when it is closed.
        let menu = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("OFFER id=7 player=bob kind=restart"), .key(.escape)).0
        let small = ScreenTests.plainLines(menu, 60, 20)
        #expect(small.contains { $0.contains("b  Back to the game") })
        #expect(small.contains { $0.contains("a  Accept: restart the round") })
        // Nothing is cut at 60 columns: not the menu's entries, the notices or the key help.
        let dutch = Fx.run(Fx.inGame(fragment: "pe", language: "nl"), Fx.line("OFFER id=7 player=bob kind=lang lang=nl"), .key(.escape)).0
        let nlMenu = ScreenTests.plainLines(dutch, 60, 20)
        #expect(nlMenu.contains { $0.hasSuffix("a  Accepteren: opnieuw te beginnen in het Nederlands") })
        #expect(nlMenu.contains { $0.contains("b/Esc terug naar het spel") } && nlMenu.contains { $0.contains("letter of ↑/↓ kiezen") })
        let game = ScreenTests.plainLines(Fx.inGame(fragment: "pe"), 60, 20)
        #expect(game.contains { $0.contains("[Z] [X] [C]") })
        #expect(game.contains { $0.contains("█") })
        #expect(game.contains { $0.contains("“PE” · 2 letters") })
        // The Dutch offer notice at 80 columns is whole, over two lines if need be.
        var nl = Fx.run(Fx.inGame(fragment: "p", language: "nl"), Fx.line("OFFER id=7 player=bob kind=lang lang=nl")).0
        let text = ScreenTests.plainLines(nl).map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains("bob stelt voor om opnieuw te beginnen in het Nederlands: Enter accepteren · Backspace weigeren"))
        nl.alert = nil
        // Below 60×20: one clear request, in the screen's language.
        for (w, h) in [(40, 12), (59, 24), (80, 19)] {
            let lines = ScreenTests.plainLines(Fx.inGame(fragment: "pe"), w, h)
            #expect(lines.count == h)
            #expect(lines.joined(separator: " ").contains("Make the window larger"), "\(w)x\(h)")
        }
        #expect(ScreenTests.plainLines(nl, 40, 12).joined(separator: " ").contains("Maak het venster groter"))
        // 120×40: the screen sits in the middle, not in the top half.
        let big = ScreenTests.plainLines(Fx.inGame(fragment: "pe"), 120, 40)
        let firstUsed = big.firstIndex { !$0.trimmingCharacters().isEmpty } ?? 0
        let lastUsed = big.lastIndex { !$0.trimmingCharacters().isEmpty } ?? 0
        #expect(firstUsed > 0 && 39 - lastUsed <= firstUsed + 1 && 39 - lastUsed >= firstUsed - 1)
        let keyboard = big.first { $0.contains("[Q] [W]") } ?? ""
        let left = keyboard.prefix { $0 == " " }.count
        let right = 120 - Layout.visibleWidth(keyboard)
        #expect(abs(left - right) <= 2)
    }

    @Test("What players miss: the running score against this opponent on the game screen, as the server's GAME gives it")
    func runningScore() {
        var s = Fx.over()
        s = Fx.run(s, Fx.lines("GAME id=8 game=ghost lang=en players=bob,alice token=\(Fx.token) round=1 record=1-0",
                               "TURN id=8 player=bob fragment=")).0
        #expect(ScreenTests.plainLines(s).contains { $0.trimmingCharacters() == "So far: you 1 – 0 bob" })
        s = Fx.run(s, Fx.lines("MOVE id=8 player=bob letter=q fragment=q", "TURN id=8 player=alice fragment=q",
                               "MOVE id=8 player=alice letter=z fragment=qz",
                               "OVER id=8 winner=bob loser=alice reason=dead fragment=qz",
                               "GAME id=9 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 record=1-1",
                               "TURN id=9 player=alice fragment=")).0
        #expect(ScreenTests.plainLines(s).contains { $0.trimmingCharacters() == "So far: you 1 – 1 bob" })
        s.config.language = "nl"
        #expect(ScreenTests.plainLines(s).contains { $0.trimmingCharacters() == "Tot nu toe: jij 1 – 1 bob" })
        // A first game against someone shows no score; at 60×20 the game still fits.
        #expect(!ScreenTests.plainLines(Fx.inGame()).contains { $0.contains("So far") })
        #expect(ScreenTests.plainLines(s, 60, 20).contains { $0.contains("[Z] [X] [C]") })
    }

    @Test("What players miss: the running score comes from the server's head-to-head record (GAME record=), not just this session")
    func runningScoreFromTheServer() {
        // A fresh client: the first game it sees against bob says 5 – 3 at once.
        var s = Fx.run(Fx.named(), Fx.lines("GAME id=8 game=ghost lang=en players=bob,alice token=\(Fx.token) round=1 record=5-3",
                                            "TURN id=8 player=bob fragment=")).0
        #expect(s.game?.record == HeadToHead(mine: 5, theirs: 3))
        #expect(ScreenTests.plainLines(s).contains { $0.trimmingCharacters() == "So far: you 5 – 3 bob" })
        // The game ends; the next GAME's record is the server's again (it counted this one too).
        s = Fx.run(s, Fx.lines("OVER id=8 winner=bob loser=alice reason=left fragment=",
                               "GAME id=9 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 record=5-4",
                               "TURN id=9 player=alice fragment=")).0
        #expect(ScreenTests.plainLines(s).contains { $0.trimmingCharacters() == "So far: you 5 – 4 bob" })
        // Against the computer there is no record= and no running score from it.
        let bot = Fx.run(Fx.named(), Fx.lines("GAME id=3 game=ghost lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy",
                                              "TURN id=3 player=alice fragment=")).0
        #expect(bot.game?.record == nil)
    }

    @Test("Bug 4: the quick-match screen says what it searches for, how to change that, and who waits for another search")
    func seekingSays() {
        let lines = ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("1")), Fx.line("OK SEEK lang=nl rounds=ghost")).0)
        let text = lines.map { $0.trimmingCharacters() }.joined(separator: " ")
        #expect(text.contains("Looking for an opponent who plays in Dutch… (a match to GHOST)"))
        #expect(text.contains("Only a player who seeks the same language and game type is paired with you."))
        #expect(text.contains("To change them: Esc, then “Language” or the games at the top of the main screen."))
        // Who waits elsewhere (WAITING, after OK SEEK): another language or game type.
        let others = Fx.run(Fx.named(), [.key(.char("1"))] + Fx.lines("OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                                                                       "WAITING game=ghost lang=nl count=2",
                                                                       "WAITING game=ghost lang=en rounds=ghost count=1",
                                                                       "WAITING game=hangman lang=en count=1",
                                                                       "WAITING game=chess lang=en count=1")).0
        let shown = ScreenTests.plainLines(others).map { $0.trimmingCharacters() }
        #expect(shown.contains("Also waiting: 2 players for Dutch, single game."))
        #expect(shown.contains("Also waiting: 1 player for English, match to GHOST."))
        // Another game's queue says which game; a kind this client does not play is left out.
        #expect(shown.contains("Also waiting: 1 player for English, Hangman (duel)."))
        #expect(shown.filter { $0.hasPrefix("Also waiting") }.count == 3)
        // The server tells of changes while the seek waits: a queue's count
        // replaces the one shown; one that emptied (count=0) goes.
        let later = Fx.run(others, Fx.lines("WAITING game=ghost lang=nl count=3", "WAITING game=ghost lang=en rounds=ghost count=0",
                                             "WAITING game=hangman lang=en count=0", "WAITING game=ghost lang=nl rounds=ghost count=1")).0
        let now = ScreenTests.plainLines(later).map { $0.trimmingCharacters() }.filter { $0.hasPrefix("Also waiting") }
        #expect(now == ["Also waiting: 3 players for Dutch, single game.", "Also waiting: 1 player for Dutch, match to GHOST."])
        let empty = Fx.run(later, Fx.lines("WAITING game=ghost lang=nl count=0", "WAITING game=ghost lang=nl rounds=ghost count=0",
                                            "WAITING game=ghost lang=de count=0")).0
        #expect(empty.otherSeekers.isEmpty)
    }
}

/// The layering rule for screens: the core draws no game's board.
@Suite("Screens: where each game's drawing lives")
struct ScreenLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GhostClient")

    @Test("Issue 13: Ghost's board (fragment, G-H-O-S-T letters, flashing keyboard, game over, levels) is drawn in Games/Ghost, like Hangman's in Games/Hangman; the core's files draw none of it")
    func ghostDrawingLivesInItsModule() throws {
        let ghostOnly = ["func game(_ s: ClientState", "func over(_ s: ClientState", "func computer(_ s: ClientState",
                         "func fragment(_ text: String", "func ghostText(", "func playerChips(", "func keyboard(flash:",
                         "func roundText(", "func reasonText("]
        let core = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        #expect(core.contains("Screens.swift"))
        for file in core {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for f in ghostOnly { #expect(!text.contains(f), "\(file) draws Ghost's board: \(f)") }
        }
        let ghost = try String(contentsOf: Self.sources.appendingPathComponent("Games/Ghost/GhostScreens.swift"), encoding: .utf8)
        for f in ghostOnly { #expect(ghost.contains(f), "Games/Ghost lacks \(f)") }
    }
}

extension String {
    func trimmingCharacters() -> String { trimmingSpaces }
}
