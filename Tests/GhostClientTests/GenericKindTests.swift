import Testing
@testable import GhostClient
import GhostProtocol
import GameKit

/// Builders for a kind the client has no code for: the tests'
/// Word chain, as the test-kinds daemon announces and draws it.
enum GFx {
    static let help = [
        "HELP NEW [game=<kind>] [<the kind's options>] [bot=<level> [first=bot|me]] [clock=<seconds>] - open a private game",
        "HELP NEW [game=ghost] [bot=easy|medium|hard [first=bot]] [variant=super|challenge] [rounds=ghost] - Ghost (the default game): add a letter without making a word",
        "HELP NEW game=hangman [mode=evil|fair|phrase|duel] [length=<n>|any] [misses=<n>] [bot=guesser] - Hangman: guess the word letter by letter",
        "HELP NEW game=wordchain [bot=easy|hard [first=bot]] [min=<min>] - Word chain (tests only): name a word that starts with the last letter of the one before",
        "HELP NEW game=quiz [rounds=<n>] - Quiz: answer questions",
        "HELP CHAIN <word> - game=wordchain: name a word that starts with the last letter of the one before",
        "OK HELP",
    ]

    /// alice named (HELP asked after OK SETTINGS) and HELP answered.
    static func named(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(Fx.named("alice", language: language, colour: colour), help.map { Fx.line($0) }).0
    }

    /// The VIEW answer at the start, alice to move.
    static func firstView(_ id: Int = 1) -> [String] {
        ["ROW key=last shape=cells value= - Last word", "ROW key=words shape=text value=0 - Words so far",
         "CAN verb=CHAIN takes=word - name a word that starts with the last letter of the one before",
         "CAN verb=CONCEDE takes=none - give up: you have no word",
         "OK VIEW id=\(id) game=wordchain lang=en turn=alice rows=2 moves=2"]
    }

    /// alice plays Word chain against the computer (easy): chosen on the main
    /// screen (→ →), c, e; GAME, TURN and both VIEW answers arrived.
    static func inGame(language: String = "en", colour: Bool = false) -> ClientState {
        let s = Fx.run(named(language: language, colour: colour), .key(.right), .key(.right), .key(.char("c")), .key(.char("e"))).0
        return Fx.run(s, Fx.lines("OK NEW game=wordchain min=3 lang=en bot=easy",
                                  "GAME id=1 game=wordchain lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy min=3",
                                  "TURN id=1 player=alice last= words=0 abort_in=60")
                            + (firstView() + firstView()).map { Fx.line($0) }).0
    }

    /// The game over: alice had no word (CONCEDE).
    static func over(language: String = "en") -> ClientState {
        Fx.run(inGame(language: language), Fx.lines("OK CONCEDE last= words=0", "MOVE id=1 player=alice concede=yes last= words=0",
                                                    "OVER id=1 winner=bot-easy loser=alice reason=stuck last= words=0",
                                                    "INFO alice had no word: bot-easy wins.")).0
    }
}

@Suite("Client: kinds it has no code for, from HELP and VIEW (#45)")
struct GenericKindTests {
    @Test("HELP is asked once named (after OK SETTINGS); its NEW lines give the kinds the client has no code for, their names and levels")
    func helpKinds() {
        let s = Fx.named("alice")
        #expect(s.pending == [.help] && s.kindsAsked)
        let g = GFx.named()
        #expect(g.serverKinds.map(\.kind.rawValue) == ["wordchain", "quiz"])
        #expect(g.serverKinds.map(\.levels) == [["easy", "hard"], []])
        #expect(g.serverKinds.map(\.name) == ["Word chain (tests only)", "Quiz"])
        #expect(g.serverKinds.first?.about == "name a word that starts with the last letter of the one before")
        #expect(g.pending.isEmpty)
        // A reply to a later command while HELP is unanswered: HELP no longer holds the queue.
        let (n, _) = Fx.run(s, Fx.line("OK NEW code=4EG7R lang=en"))
        #expect(n.screen == .waiting && n.pending.isEmpty)
        // A new connection asks again.
        let again = Fx.run(g, .disconnected, .connected, Fx.line(Fx.hello)).0
        #expect(!again.kindsAsked)
    }

    @Test("The main screen: ←/→ and o visit Ghost, Hangman, then the announced kinds; one of those is chosen, never saved")
    func mainScreenCycle() {
        var s = GFx.named()
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.right))
        #expect(s.chosenKind == .hangman && s.config.game == .hangman && fx == [.saveConfig])
        (s, fx) = Fx.run(s, .key(.right))
        #expect(s.chosenKind.rawValue == "wordchain" && s.config.game == .hangman && fx.isEmpty)
        let lines = Screens.render(s)
        #expect(lines.contains { $0.contains("○ Ghost   ○ Hangman   ● Word chain (tests only)   ○ Quiz") })
        #expect(lines.contains { $0.contains("name a word that starts with the last letter of the one before") })
        #expect(lines.contains { $0.contains("o  Other game: Quiz") })
        (s, fx) = Fx.run(s, .key(.char("o")))
        #expect(s.chosenKind.rawValue == "quiz")
        (s, fx) = Fx.run(s, .key(.right))
        #expect(s.chosenKind == .ghost && s.genericChoice == nil && fx == [.saveConfig])
        (s, fx) = Fx.run(s, .key(.left))
        #expect(s.chosenKind.rawValue == "quiz")
        // With Ghost chosen the announced kinds are named under the games panel, when the window has room.
        let ghost = Screens.render(Fx.run(s, .key(.right)).0)
        #expect(ghost.contains { $0.contains("○ Word chain (tests only)   ○ Quiz") })
    }

    @Test("An announced kind chosen: g quick match, i a private game, c its levels (e easy, h hard) send its game=")
    func mainScreenCommands() {
        let s = Fx.run(GFx.named(), .key(.right), .key(.right)).0
        let (seeking, sfx) = Fx.run(s, .key(.char("g")))
        #expect(Fx.sent(sfx) == ["SEEK game=wordchain"])
        let waits = Screens.render(Fx.run(seeking, Fx.line("OK SEEK lang=en")).0)
        #expect(waits[0].contains("Word chain (tests only)"))
        #expect(waits.contains { $0.contains("Looking for an opponent for Word chain (tests only) in English") })
        let (hosting, fx) = Fx.run(s, .key(.char("i")))
        #expect(Fx.sent(fx) == ["NEW game=wordchain"])
        let waiting = Fx.run(hosting, Fx.line("OK NEW code=4EG7R game=wordchain min=3 lang=en")).0
        #expect(waiting.lobby == .hosting(code: "4EG7R", lang: "en", match: false, game: GameKind(rawValue: "wordchain")))
        #expect(Screens.render(waiting).first?.contains("Word chain (tests only)") == true)
        let (computer, _) = Fx.run(s, .key(.char("c")))
        #expect(computer.screen == .computer && GenericFeature.computerItems(computer) == [.level(.easy), .level(.hard), .starter, .back])
        let screen = Screens.render(computer)
        #expect(screen.contains { $0.contains("e  Easy") } && screen.contains { $0.contains("h  Hard") })
        #expect(!screen.contains { $0.contains("Medium") } && screen[0].contains("Word chain (tests only)"))
        #expect(Fx.sent(Fx.run(computer, .key(.char("h"))).1) == ["NEW game=wordchain bot=hard"])
        #expect(Fx.sent(Fx.run(computer, .key(.char("f")), .key(.char("e"))).1) == ["NEW game=wordchain bot=easy first=bot"])
    }

    @Test("An announced kind's high scores: its boards of wins (games between people, each computer level), ←/→ between them")
    func scores() {
        let s = Fx.run(GFx.named(), .key(.right), .key(.right)).0
        var (sc, fx) = Fx.run(s, .key(.char("s")))
        #expect(sc.screen == .scores && Fx.sent(fx) == ["SCORES 100 game=wordchain mode=game"])
        sc = Fx.run(sc, Fx.lines("SCORE rank=1 name=zed wins=2 played=3", "SCORE rank=2 name=alice wins=1 played=4",
                                 "OK SCORES count=2 board=wordchain-game")).0
        #expect(sc.highScores.scores?.map(\.name) == ["zed", "alice"])
        var lines = Screens.render(sc)
        #expect(lines[0].contains("High scores · Word chain (tests only) · games between people"))
        #expect(lines.contains { $0.contains("zed") && $0.contains("2") } && lines.contains { $0.contains("▶") && $0.contains("alice") })
        (sc, fx) = Fx.run(sc, .key(.right))
        #expect(Fx.sent(fx) == ["SCORES 100 game=wordchain mode=easy"] && sc.highScores.scores == nil)
        (sc, fx) = Fx.run(sc, Fx.line("OK SCORES count=0 board=wordchain-easy"), .key(.right))
        #expect(Fx.sent(fx) == ["SCORES 100 game=wordchain mode=hard"])
        (sc, fx) = Fx.run(sc, Fx.line("OK SCORES count=0 board=wordchain-hard"), .key(.right))
        #expect(Fx.sent(fx) == ["SCORES 100 game=wordchain mode=game"])
        lines = Screens.render(Fx.run(sc, .key(.left), Fx.line("OK SCORES count=0 board=wordchain-game"), Fx.line("OK SCORES count=0 board=wordchain-hard")).0)
        #expect(lines[0].contains("Word chain (tests only) · against the computer (hard)"))
        // After a game against the computer: its level's board.
        let after = Fx.run(GFx.over(), .key(.char("s")))
        #expect(Fx.sent(after.1) == ["SCORES 100 game=wordchain mode=easy"])
        // Ghost's boards again from the main screen with Ghost chosen.
        let ghost = Fx.run(s, .key(.right), .key(.right), .key(.char("s")))
        #expect(Fx.sent(ghost.1) == ["SCORES 100"] && ghost.0.highScores.scoresKind == nil)
        let nl = Screens.render(Fx.run(GFx.named(language: "nl"), .key(.right), .key(.right), .key(.char("s"))).0)
        #expect(nl[0].contains("Word chain (tests only)"))
    }

    @Test("A kind without levels: the computer entry is dimmed, and choosing it says so")
    func noLevels() {
        let s = Fx.run(GFx.named(), .key(.left)).0
        #expect(s.chosenKind.rawValue == "quiz")
        let (c, fx) = Fx.run(s, .key(.char("c")))
        #expect(c.screen == .main && fx.isEmpty && c.alert?.notice == .noComputer("Quiz"))
        #expect(Screens.render(c).contains { $0.contains("This server has no computer to play Quiz.") })
        let nl = Fx.run(GFx.named(language: "nl"), .key(.left), .key(.char("c"))).0
        #expect(Screens.render(nl).contains { $0.contains("Deze server speelt Quiz niet tegen de computer.") })
    }

    @Test("GAME of a kind the client has no code for: the generic screen; VIEW after GAME and after TURN, not after MOVE")
    func viewAsked() {
        let s = Fx.run(GFx.named(), .key(.right), .key(.right), .key(.char("c"))).0
        var (g, fx) = Fx.run(s, .key(.char("e")))
        #expect(Fx.sent(fx) == ["NEW game=wordchain bot=easy"])
        (g, fx) = Fx.run(g, Fx.lines("OK NEW game=wordchain min=3 lang=en bot=easy",
                                     "GAME id=1 game=wordchain lang=en players=alice,bot-easy token=\(Fx.token) round=1 bot=easy min=3"))
        #expect(Fx.sent(fx) == ["VIEW 1"] && g.screen == .game && g.game?.generic?.kind.rawValue == "wordchain")
        #expect(g.game?.generic?.rows == nil && Screens.render(g).contains { $0.contains("Asking the server for the board…") })
        (g, fx) = Fx.run(g, Fx.line("TURN id=1 player=alice last= words=0 abort_in=60"))
        #expect(Fx.sent(fx) == ["VIEW 1"] && g.game?.toMove == "alice")
        g = Fx.run(g, (GFx.firstView() + GFx.firstView()).map { Fx.line($0) }).0
        #expect(g.pending.isEmpty)
        #expect(g.game?.generic?.rows?.map(\.key) == ["last", "words"])
        #expect(g.game?.generic?.moves.map(\.verb) == ["CHAIN", "CONCEDE"])
        (g, fx) = Fx.run(g, Fx.lines("MOVE id=1 player=alice word=apple last=apple words=1", "TURN id=1 player=bot-easy last=apple words=1"))
        // One VIEW a move: after its TURN (a MOVE that does not end the game is followed by one).
        #expect(Fx.sent(fx) == ["VIEW 1"] && g.game?.lastMove == LastMove("alice", "apple"))
    }

    /// A client that starts with alice's token, for a game that ended
    /// while she was away: the server's answer to its LANG and RESUME.
    private func endedWhileAway(_ answer: String...) -> ClientState {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "alice", token: Fx.token)
        var s = Fx.run(ClientState(config: config, serverAddress: "h:1"), .connected, Fx.line(Fx.hello)).0
        for line in ["OK LANG lang=en"] + answer { s = Fx.run(s, Fx.line(line)).0 }
        return s
    }

    @Test("RESUME of a drawn game's token: OK RESUME status=over, then OVER draw= with ended=: the game-over screen says it was a draw, and when")
    func drawnWhileAway() {
        let s = endedWhileAway("OK RESUME id=7 status=over", "OVER id=7 draw=ann,alice reason=both phase=guessing words=wolf,bear ended=1700001160")
        #expect(s.screen == .over && s.config.token == nil)
        #expect(s.result?.drawn == true && s.result?.players == ["ann", "alice"] && s.result?.endedAt == 1700001160)
        let screen = Screens.render(s)
        #expect(screen.contains { $0.contains("It is a draw!") } && !screen.contains { $0.contains("lost") })
    }

    @Test("RESUME of a won game's token of such a kind: OK RESUME status=over game=<kind> makes its OVER the generic feature's, in no kind's words")
    func wonWhileAway() {
        var s = endedWhileAway("OK RESUME id=7 status=over game=wordchain", "OVER id=7 winner=alice loser=bob reason=stuck last=olive words=3 ended=1700001160")
        #expect(s.screen == .over && s.config.token == nil && s.resumedOverKind == nil)
        #expect(s.result?.kind?.rawValue == "wordchain" && s.result?.players == ["alice", "bob"] && s.result?.endedAt == 1700001160)
        let screen = Screens.render(s).joined(separator: " ")
        // Ghost's words for a reason it does not know are not shown ("completed a word" and the like).
        #expect(screen.contains("You win, alice!") && screen.contains("ended while you were away")
                && !screen.contains("completed") && !screen.contains("fragment"), "\(screen)")
        // Ghost's own resumed end (no game=) stays Ghost's.
        s = endedWhileAway("OK RESUME id=8 status=over", "OVER id=8 winner=alice loser=bob reason=word fragment=pear ended=1700001160")
        #expect(s.screen == .over && s.result?.kind == nil && s.result?.fragment == "pear")
    }

    @Test("A game of such a kind resumed on starting: VIEW, and HELP for its name (no name's settings were asked)")
    func resumed() {
        var s = Fx.online(token: Fx.token)
        #expect(s.screen == .resuming && s.pending == [.lang, .resume])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.lines("OK LANG lang=en", "OK RESUME id=3",
                                     "GAME id=3 game=wordchain lang=en players=alice,bob token=\(Fx.token) round=1 min=3",
                                     "TURN id=3 player=bob last=eel words=1"))
        #expect(Fx.sent(fx) == ["VIEW 3", "HELP", "VIEW 3"] && s.screen == .game && s.myName == "alice")
        #expect(Screens.render(s)[0].contains("ghostd · wordchain · English"))
        // The answers in order: the first VIEW's, HELP's, the second VIEW's.
        let view = ["ROW key=last shape=cells value=eel - Last word", "ROW key=words shape=text value=1 - Words so far",
                    "OK VIEW id=3 game=wordchain lang=en turn=bob rows=2 moves=0"]
        s = Fx.run(s, (view + GFx.help + view).map { Fx.line($0) }).0
        #expect(s.pending.isEmpty && s.serverKinds.count == 2)
        let lines = Screens.render(s)
        #expect(lines[0].contains("ghostd · Word chain (tests only) · English") && lines.contains { $0.contains("[E][E][L]") })
    }

    @Test("The generic screen: the players, whose turn, the rows (cells boxed, text as is), the moves, the word typed")
    func screen() {
        let s = GFx.inGame()
        let lines = Screens.render(s)
        #expect(lines[0].contains("ghostd · Word chain (tests only) · English") && lines[0].contains("alice"))
        #expect(lines.contains { $0.contains("▶ alice (you)") && $0.contains("Computer (easy)") })
        #expect(lines.contains { $0.contains("Your turn") })
        #expect(lines.contains { $0.contains("Last word") } && lines.contains { $0.contains("Words so far  0") })
        #expect(lines.contains { $0.contains("Your moves:") })
        #expect(lines.contains { $0.contains("▶ CHAIN <word> · name a word that starts with") })
        #expect(lines.contains { $0.contains("  CONCEDE · give up: you have no word") })
        #expect(lines.contains { $0.contains("Word: _") })
        #expect(lines.suffix(2).joined(separator: " ").contains("a–z type · ↑/↓ move · Enter send · Esc menu"))
        let typed = Fx.run(s, Fx.keys("eagle")).0
        #expect(typed.game?.generic?.field == "eagle" && Screens.render(typed).contains { $0.contains("Word: EAGLE_") })
        // The same in Dutch: the client's words are Dutch, the kind's the server's.
        let nl = Screens.render(GFx.inGame(language: "nl"))
        #expect(nl.contains { $0.contains("Jij bent aan de beurt") } && nl.contains { $0.contains("Je zetten:") })
        #expect(nl.contains { $0.contains("Woord: _") } && nl[0].contains("Engels"))
    }

    @Test("Rows of every shape: cells as boxes (_ hidden, / a gap), count as n/max, text as is, a player's row by name")
    func rowShapes() {
        let s = Fx.run(GFx.inGame(), Fx.lines("TURN id=1 player=alice last= words=0",
                                             "ROW key=pattern shape=cells value=pe_r/ok - Word",
                                             "ROW key=left shape=count value=3 max=8 - Misses left",
                                             "ROW key=ghost shape=cells value=gh seat=bot-easy - Ghost",
                                             "ROW key=ghost shape=cells value= seat=alice - Ghost",
                                             "ROW key=odd shape=hexagons value=xyz - Something new",
                                             "CAN verb=LETTER takes=letter then=front - add a letter at the front",
                                             "OK VIEW id=1 game=wordchain lang=en turn=alice rows=5 moves=1")).0
        let b = s.game?.generic
        #expect(b?.rows?.map(\.shape) == [.cells, .count, .cells, .cells, .text])
        #expect(b?.moves.map(\.verb) == ["LETTER"] && b?.typesText == false && b?.letterMove?.verb == "LETTER")
        let lines = Screens.render(s)
        #expect(lines.contains { $0.contains("Word") && $0.contains("[P][E][ ][R] [O][K]") })
        #expect(lines.contains { $0.contains("Misses left") && $0.contains("3/8") })
        #expect(lines.contains { $0.contains("Computer (easy)") && $0.contains("[G][H]") })
        #expect(lines.contains { $0.contains("alice (you)") && !$0.contains("[") })
        #expect(lines.contains { $0.contains("Something new") && $0.contains("xyz") })
        #expect(lines.contains { $0.contains("▶ LETTER <letter> front · add a letter at the front") })
        #expect(lines.suffix(2).joined(separator: " ").contains("a–z play a letter") && !lines.contains { $0.contains("Word: ") })
        // The one letter move: a letter sends it at once, with its then= word.
        #expect(Fx.sent(Fx.run(s, .key(.char("Q"))).1) == ["LETTER q front"])
    }

    @Test("Moves: ↑/↓ choose, letters type the word, Backspace erases, Enter sends the move chosen; no word, no move")
    func moves() {
        var (s, fx) = Fx.run(GFx.inGame(), .key(.enter))
        #expect(fx.isEmpty && s.alert?.notice == .typeAWord)
        #expect(Screens.render(s).contains { $0.contains("Type a word first, then Enter.") })
        (s, fx) = Fx.run(s, Fx.keys("applz") + [.key(.backspace), .key(.char("e")), .key(.enter)])
        #expect(Fx.sent(fx) == ["CHAIN apple"] && s.game?.generic?.field == "apple")
        // A paste of letters types into the field as typed.
        let pasted = Fx.run(GFx.inGame(), .paste([.char("e"), .char("e"), .char("l")])).0
        #expect(pasted.game?.generic?.field == "eel")
        // Ctrl-U clears it.
        #expect(Fx.run(pasted, .key(.ctrlU)).0.game?.generic?.field == "")
        // The move accepted: the field is spent; the turn passes.
        (s, fx) = Fx.run(s, Fx.lines("OK CHAIN word=apple last=apple words=1", "MOVE id=1 player=alice word=apple last=apple words=1",
                                     "TURN id=1 player=bot-easy last=apple words=1",
                                     "ROW key=last shape=cells value=apple - Last word", "ROW key=words shape=text value=1 - Words so far",
                                     "OK VIEW id=1 game=wordchain lang=en turn=bot-easy rows=2 moves=0"))
        #expect(s.game?.generic?.field == "" && s.game?.generic?.moves == [] && s.pending.isEmpty)
        let waiting = Screens.render(s)
        #expect(waiting.contains { $0.contains("The computer (easy) is thinking…") } && waiting.contains { $0.contains("[A][P][P][L][E]") })
        #expect(!waiting.contains { $0.contains("Your moves:") } && waiting.contains { $0.contains("You played APPLE") })
        // Not my turn: letters play nothing.
        (s, fx) = Fx.run(s, .key(.char("x")))
        #expect(fx.isEmpty && s.alert?.notice == .notYourTurn)
        // ↓ then Enter: CONCEDE, which takes nothing.
        let back = Fx.run(GFx.inGame(), .key(.down))
        #expect(back.0.game?.generic?.cursor == 1 && Screens.render(back.0).contains { $0.contains("▶ CONCEDE") })
        #expect(Fx.sent(Fx.run(back.0, .key(.enter)).1) == ["CONCEDE"])
        #expect(Fx.run(back.0, .key(.up)).0.game?.generic?.cursor == 0)
    }

    @Test("A refusal of the kind's own move shows on the status line, in the server's words for a code the client does not know")
    func refusal() {
        let s = Fx.run(GFx.inGame(), Fx.keys("tiger") + [.key(.enter)] + [Fx.line("ERR not-in-list tiger is not in the list")]).0
        #expect(s.alert?.notice == .kindRefusal(code: ErrorCode(rawValue: "not-in-list"), text: "tiger is not in the list"))
        #expect(Screens.render(s).contains { $0.contains("Refused: tiger is not in the list") })
        #expect(s.game?.generic?.field == "tiger")
        let nl = Fx.run(GFx.inGame(language: "nl"), Fx.keys("tiger") + [.key(.enter)] + [Fx.line("ERR not-your-turn wait")]).0
        #expect(Screens.render(nl).contains { $0.contains("Je bent niet aan de beurt") })
    }

    @Test("Esc opens the game menu as in every game: leave asks first; the letters pick its entries, not moves")
    func gameMenu() {
        var (s, fx) = Fx.run(GFx.inGame(), .key(.escape))
        #expect(s.gameMenuOpen && fx.isEmpty)
        let lines = Screens.render(s)
        #expect(lines.contains { $0.contains("l  Leave") } && !lines.contains { $0.contains("Your moves:") })
        (s, fx) = Fx.run(s, .key(.char("l")))
        #expect(s.confirmLeave && fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.char("y")))
        #expect(Fx.sent(fx) == ["LEAVE"])
    }

    @Test("OVER: the game-over screen names the winner, the reason and the kind's own sentence; play again, new game, h replays it")
    func over() {
        let s = GFx.over()
        #expect(s.screen == .over && s.game == nil && s.result?.kind?.rawValue == "wordchain" && s.result?.bot == .easy)
        #expect(s.result?.info == "alice had no word: bot-easy wins.")
        let lines = Screens.render(s)
        #expect(lines[0].contains("Game over · Word chain (tests only)"))
        #expect(lines.contains { $0.contains("The computer (easy) wins") })
        #expect(lines.contains { $0.contains("alice had no word: bot-easy wins.") })
        #expect(Fx.sent(Fx.run(s, .key(.char("r"))).1) == ["NEW game=wordchain bot=easy"])
        #expect(Fx.sent(Fx.run(s, .key(.char("g"))).1) == ["SEEK game=wordchain"])
        var (r, fx) = Fx.run(s, .key(.char("h")))
        #expect(Fx.sent(fx) == ["MOVES 1", "REVIEW 1"] && r.screen == .record(.replay))
        r = Fx.run(r, Fx.lines("PLAYED n=1 round=1 player=alice play=word:apple", "PLAYED n=2 round=1 player=bot-easy play=word:eagle",
                               "PLAYED n=3 round=1 player=alice play=concede", "OK MOVES id=1 count=3 more=no status=over",
                               "ERR no-review wordchain has no review")).0
        let replay = Screens.render(Fx.run(r, .key(.end)).0)
        #expect(replay[0].contains("Word chain (tests only)") && !replay[0].contains("wordchain"))
        #expect(replay.contains { $0.contains("1. alice: the word “APPLE”") })
        #expect(replay.contains { $0.contains("2. Computer (easy): the word “EAGLE”") })
        #expect(replay.contains { $0.contains("3. alice:") })
        #expect(replay.contains { $0.contains("This kind of game has no review.") })
        let nl = Screens.render(GFx.over(language: "nl"))
        #expect(nl[0].contains("Word chain (tests only)") && nl.contains { $0.contains("alice had no word: bot-easy wins.") })
    }

    @Test("Watching a game of a kind the client has no code for: chosen from the list, drawn from VIEW, rows only; keys send nothing")
    func watching() {
        var s = GFx.named()
        s = Fx.run(s, [.key(.char("w"))] + Fx.lines("LIVE id=5 game=wordchain players=bob,dan lang=en moves=2 watchers=0 min=3",
                                                    "OK GAMES count=1 more=no")).0
        let list = Screens.render(s)
        #expect(list.contains { $0.contains("bob vs dan — Word chain (tests only)") })
        #expect(s.watch.chosen?.id == 5)
        var (w, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["WATCH 5"])
        (w, fx) = Fx.run(w, Fx.lines("OK WATCH id=5", "GAME id=5 game=wordchain lang=en players=bob,dan round=1 min=3 watchers=1 watching=yes",
                                     "TURN id=5 player=dan last=eagle words=2"))
        #expect(Fx.sent(fx) == ["VIEW 5", "VIEW 5"] && w.screen == .game && w.game?.watching == true)
        w = Fx.run(w, Fx.lines("ROW key=last shape=cells value=eagle - Last word", "ROW key=words shape=text value=2 - Words so far",
                               "OK VIEW id=5 game=wordchain lang=en turn=dan rows=2 moves=0",
                               "ROW key=last shape=cells value=eagle - Last word", "ROW key=words shape=text value=2 - Words so far",
                               "OK VIEW id=5 game=wordchain lang=en turn=dan rows=2 moves=0")).0
        let lines = Screens.render(w)
        #expect(lines[0].contains("Watching") && lines.contains { $0.contains("[E][A][G][L][E]") })
        #expect(!lines.contains { $0.contains("Your moves:") } && lines.contains { $0.contains("dan is thinking…") })
        (w, fx) = Fx.run(w, Fx.keys("eel") + [.key(.enter)])
        #expect(fx.isEmpty)
        // Its end: who won and why, until a key goes back to the list.
        w = Fx.run(w, Fx.lines("MOVE id=5 player=dan concede=yes last=eagle words=2", "OVER id=5 winner=bob loser=dan reason=stuck last=eagle words=2",
                               "INFO dan had no word: bob wins.", "ERR no-such-game no game 5")).0
        let end = Screens.render(w)
        #expect(w.watch.ended && end.contains { $0.contains("bob wins!") } && end.contains { $0.contains("dan had no word: bob wins.") })
        (w, fx) = Fx.run(w, .key(.enter))
        #expect(w.screen == .watchList && Fx.sent(fx) == ["GAMES"])
    }
}

extension GenericKindTests {
    @Test("Your games, a replay's title and a profile name a kind the client has no code for by the name its HELP line gives, in both languages")
    func historyNamesAnnouncedKinds() {
        for language in ["en", "nl"] {
            var s = Fx.run(GFx.named(language: language), .key(.char("h"))).0
            s = Fx.run(s, Fx.lines("RESULT id=5 game=wordchain opponent=bot-easy result=loss reason=stuck ended=1700000000",
                                   "OK HISTORY name=alice count=1")).0
            let list = ScreenTests.plainLines(s).joined(separator: "\n")
            #expect(list.contains("Word chain (tests only)") && !list.contains("wordchain"), "\(list)")
            s = Fx.run(s, .key(.enter)).0
            let replay = ScreenTests.plainLines(s).first ?? ""
            #expect(replay.contains("Word chain (tests only)"), "\(replay)")
        }
    }
}

extension GenericKindTests {
    @Test("? on the main screen with a kind the client has no code for says it has no rules page and the game offers its moves, never another game's tutorial, in both languages")
    func rulesOfAnAnnouncedKind() {
        for language in ["en", "nl"] {
            let chosen = Fx.run(GFx.named(language: language), .key(.right), .key(.right)).0
            #expect(chosen.chosenKind.rawValue == "wordchain")
            let (s, fx) = Fx.run(chosen, .key(.char("?")))
            #expect(s.screen == .main && fx.isEmpty)
            #expect(s.alert?.notice == .kindRules(name: "Word chain (tests only)"))
            let text = ScreenTests.plainLines(s, 60, 20).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(text.contains(language == "en" ? "its moves are offered in the game." : "het spel biedt je zetten aan."), "\(text)")
            #expect(!text.contains("How to play") && !text.contains("Zo speel je"))
        }
    }
}
