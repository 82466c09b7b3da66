import Testing
@testable import GhostClient
import GhostProtocol

/// `--plain-screens`: Ghost (every variant) and Hangman (every mode) played
/// through the generic screen, from VIEW, as a kind the client has no code
/// for; their own screens are the default, and every other test plays them.
@Suite("Client: Ghost and Hangman on the plain (generic) screen")
struct PlainScreensTests {
    /// alice, named, with plain screens; then `game` and its first TURN.
    private func started(_ game: String, turn: String) -> (ClientState, [ClientEffect]) {
        var s = GFx.named()
        s.plainScreens = true
        return Fx.run(s, Fx.lines(game, turn))
    }

    @Test("Ghost: GAME goes to the generic screen, which asks VIEW; a letter key plays the one letter move at once")
    func ghost() {
        var (s, fx) = started("GAME id=1 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                              turn: "TURN id=1 player=alice fragment=")
        #expect(Fx.sent(fx) == ["VIEW 1", "VIEW 1"] && s.screen == .game && s.game?.generic?.kind.rawValue == "ghost")
        (s, fx) = Fx.run(s, Fx.lines("ROW key=fragment shape=cells value= - Fragment", "CAN verb=LETTER takes=letter - add a letter at the end",
                                     "OK VIEW id=1 game=ghost lang=en turn=alice rows=1 moves=1",
                                     "ROW key=fragment shape=cells value= - Fragment", "CAN verb=LETTER takes=letter - add a letter at the end",
                                     "OK VIEW id=1 game=ghost lang=en turn=alice rows=1 moves=1"))
        #expect(Screens.render(s).contains { $0.contains("▶ LETTER <letter> · add a letter at the end") })
        (s, fx) = Fx.run(s, .key(.char("p")))
        #expect(Fx.sent(fx) == ["LETTER p"])
        (s, fx) = Fx.run(s, Fx.lines("OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p",
                                     "TURN id=1 player=bob fragment=p last=alice"))
        #expect(Fx.sent(fx) == ["VIEW 1"] && s.game?.toMove == "bob")
        (s, _) = Fx.run(s, Fx.lines("MOVE id=1 player=bob letter=e fragment=pe", "OVER id=1 winner=alice loser=bob reason=dead fragment=pe",
                                    "INFO bob made a fragment no word starts with: alice wins."))
        #expect(s.screen == .over && s.result?.winner == "alice" && s.result?.kind?.rawValue == "ghost")
    }

    @Test("Superghost: two letter moves, so the letter is typed and ↓ chooses the front; bluff and challenge: CHALLENGE, then WORD or CONCEDE")
    func variants() {
        var (s, fx) = started("GAME id=2 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=super",
                              turn: "TURN id=2 player=alice fragment=ea")
        (s, _) = Fx.run(s, Fx.lines("ROW key=fragment shape=cells value=ea - Fragment", "CAN verb=LETTER takes=letter - add a letter at the end",
                                    "CAN verb=LETTER takes=letter then=front - add a letter at the front",
                                    "OK VIEW id=2 game=ghost lang=en turn=alice rows=1 moves=2"))
        (s, fx) = Fx.run(s, [.key(.char("p")), .key(.down), .key(.enter)])
        #expect(Fx.sent(fx) == ["LETTER p front"])

        (s, fx) = started("GAME id=3 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=challenge",
                          turn: "TURN id=3 player=alice fragment=qz")
        // The answers to the VIEWs asked after GAME and after TURN.
        let view = ["ROW key=fragment shape=cells value=qz - Fragment", "CAN verb=LETTER takes=letter - add a letter at the end",
                    "CAN verb=CHALLENGE takes=none - say no word starts with the fragment",
                    "OK VIEW id=3 game=ghost lang=en turn=alice rows=1 moves=2"]
        (s, _) = Fx.run(s, (view + view).map { Fx.line($0) })
        (s, fx) = Fx.run(s, [.key(.down), .key(.enter)])
        #expect(Fx.sent(fx) == ["CHALLENGE"])
        (s, fx) = Fx.run(s, Fx.lines("OK CHALLENGE fragment=qz", "MOVE id=3 player=alice challenge=yes fragment=qz",
                                     "TURN id=3 player=bob fragment=qz challenged=yes",
                                     "ROW key=fragment shape=cells value=qz - Fragment",
                                     "OK VIEW id=3 game=ghost lang=en turn=bob rows=1 moves=0"))
        #expect(s.game?.generic?.moves == [] && Screens.render(s).contains { $0.contains("bob") })
    }

    @Test("Hangman: LETTER and SOLVE, so letters are typed; the guesser moves again at once, the field emptied by its own MOVE")
    func hangman() {
        var (s, fx) = started("GAME id=4 game=hangman lang=en players=bot-hangman,alice token=\(Fx.token) round=1 mode=evil length=4 misses=8",
                              turn: "TURN id=4 player=alice pattern=____ missed=- left=8")
        #expect(s.game?.generic != nil && s.game?.hangman == nil)
        let view = ["ROW key=pattern shape=cells value=____ - Word", "ROW key=missed shape=cells value= - Missed",
                    "ROW key=left shape=count value=8 max=8 - Misses left",
                    "CAN verb=LETTER takes=letter - guess a letter", "CAN verb=SOLVE takes=word - guess the whole word",
                    "OK VIEW id=4 game=hangman lang=en turn=alice rows=3 moves=2"]
        (s, _) = Fx.run(s, (view + view).map { Fx.line($0) })
        (s, fx) = Fx.run(s, [.key(.char("e")), .key(.enter)])
        #expect(Fx.sent(fx) == ["LETTER e"])
        (s, fx) = Fx.run(s, Fx.lines("OK LETTER letter=e hit=no pattern=____ missed=e left=7",
                                     "MOVE id=4 player=alice letter=e hit=no pattern=____ missed=e left=7",
                                     "TURN id=4 player=alice pattern=____ missed=e left=7"))
        #expect(s.game?.generic?.field == "" && Fx.sent(fx) == ["VIEW 4"])
        (s, fx) = Fx.run(s, (view.map { Fx.line($0) }) + [.key(.down)] + Fx.keys("lion") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["SOLVE lion"])
        (s, _) = Fx.run(s, Fx.lines("MOVE id=4 player=alice word=lion hit=yes pattern=lion missed=e left=7",
                                    "OVER id=4 winner=alice loser=bot-hangman reason=solved word=lion mistakes=1 pattern=lion"))
        #expect(s.screen == .over && s.result?.winner == "alice" && s.result?.kind?.rawValue == "hangman")
    }

    @Test("A Hangman duel: the setter is offered WORD and types the word; the guesser LETTER and SOLVE")
    func hangmanDuel() {
        var (s, fx) = started("GAME id=5 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=4 misses=8",
                              turn: "TURN id=5 player=alice pattern=____ missed=- left=8")
        let setter = ["ROW key=pattern shape=cells value=____ - Word", "CAN verb=WORD takes=word - choose the word to guess",
                      "OK VIEW id=5 game=hangman lang=en turn=alice rows=1 moves=1"]
        (s, _) = Fx.run(s, (setter + setter).map { Fx.line($0) })
        (s, fx) = Fx.run(s, Fx.keys("pear") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["WORD pear"])
        (s, fx) = Fx.run(s, Fx.lines("OK WORD length=4 pattern=____ missed=- left=8", "MOVE id=5 player=alice set=yes pattern=____ missed=- left=8",
                                     "TURN id=5 player=bob pattern=____ missed=- left=8"))
        #expect(s.game?.generic?.field == "" && s.game?.toMove == "bob" && Fx.sent(fx) == ["VIEW 5"])
        (s, _) = Fx.run(s, Fx.lines("MOVE id=5 player=bob letter=p hit=yes pattern=p___ missed=- left=8",
                                    "OVER id=5 winner=bob loser=alice reason=solved word=pear mistakes=0 pattern=pear"))
        #expect(s.screen == .over && s.result?.winner == "bob" && s.result?.kind?.rawValue == "hangman")
    }

    @Test("A G-H-O-S-T match: a round's OVER is followed by the next round's GAME, and MATCH ends it, all on the generic screen")
    func ghostMatch() {
        var (s, fx) = started("GAME id=6 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 rounds=ghost ghost=,",
                              turn: "TURN id=6 player=alice fragment= ghost=,")
        (s, fx) = Fx.run(s, Fx.lines("OVER id=6 winner=alice loser=bob reason=dead fragment=qz ghost=,G",
                                     "INFO bob made a fragment no word starts with: bob earns G.",
                                     "GAME id=6 game=ghost lang=en players=alice,bob token=\(Fx.token) round=2 rounds=ghost ghost=,G",
                                     "TURN id=6 player=bob fragment= ghost=,G"))
        #expect(s.screen == .game && s.game?.generic != nil && s.game?.toMove == "bob", "\(s.screen)")
        (s, fx) = Fx.run(s, Fx.lines("OVER id=6 winner=alice loser=bob reason=word fragment=pear ghost=,GHOST",
                                     "MATCH id=6 winner=alice loser=bob ghost=,GHOST"))
        #expect(s.screen == .over && s.result?.winner == "alice", "\(s.screen)")
        _ = fx
    }

    @Test("Without the option, Ghost and Hangman keep their own screens")
    func richByDefault() {
        let (s, _) = Fx.run(GFx.named(), Fx.lines("GAME id=1 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                                                  "TURN id=1 player=alice fragment="))
        #expect(s.game?.generic == nil && s.game?.ghost != nil)
    }
}
