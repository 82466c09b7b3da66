import Testing
@testable import GhostClient
import GhostProtocol

/// In the client: a duel without `length=` has
/// `length=any` on GAME until the setter's word sets it. The client took
/// that GAME for no Hangman game at all (the length was not a number).
@Suite("Hangman: a duel whose length the setter's word sets")
struct HangmanOpenDuelTests {
    static let game = "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=any misses=8"

    @Test("The setter: GAME length=any is a duel to set; a non-word is refused without a length; WORD kettle makes it 6 letters")
    func setter() {
        var (s, fx) = Fx.run(Fx.named("alice"), Fx.lines(Self.game, "TURN id=2 player=alice pattern= missed=- left=8"))
        #expect(s.screen == .hangman(.play) && s.mustSetWord)
        #expect(s.game?.hangman?.length == 0)
        #expect(!Screens.render(s).contains { $0.contains("0 letters") })
        (s, fx) = Fx.run(s, Fx.keys("kettel") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["WORD kettel"])
        s = Fx.run(s, Fx.line("ERR not-a-word \"kettel\" is not a word of the en list")).0
        #expect(Screens.noticeText(s.alert!.notice, .en) == "“KETTEL” is not a word in English.")
        #expect(Screens.noticeText(s.alert!.notice, .nl) == "“KETTEL” is geen woord in het Engels.")
        (s, fx) = Fx.run(s, Array(repeating: ClientEvent.key(.backspace), count: 6) + Fx.keys("kettle") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["WORD kettle"])
        s = Fx.run(s, Fx.lines("OK WORD length=6 pattern=______ missed=- left=8",
                               "MOVE id=2 player=alice length=6 pattern=______ missed=- left=8",
                               "TURN id=2 player=bob pattern=______ missed=- left=8")).0
        #expect(!s.mustSetWord && s.game?.hangman?.length == 6 && s.game?.hangman?.word == "kettle")
        #expect(Screens.render(s).contains { $0.contains("Your word: KETTLE") })
    }

    @Test("The guesser: waits while the setter chooses, then sees 6 letters")
    func guesser() {
        var s = Fx.run(Fx.named("bob"), Fx.lines(Self.game, "TURN id=2 player=alice pattern= missed=- left=8")).0
        #expect(s.screen == .hangman(.play) && s.game?.hangman?.isDuel == true)
        #expect(Screens.render(s).contains { $0.contains("alice is choosing a word…") })
        #expect(!Screens.render(s).contains { $0.contains("0 letters") })
        s = Fx.run(s, Fx.lines("MOVE id=2 player=alice length=6 pattern=______ missed=- left=8",
                               "TURN id=2 player=bob pattern=______ missed=- left=8")).0
        #expect(s.game?.hangman?.length == 6 && s.game?.hangman?.pattern == "______")
        #expect(Screens.render(s).contains { $0.contains("duel · 6 letters") })
    }
}
