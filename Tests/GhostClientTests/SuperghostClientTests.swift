import Testing
@testable import GhostClient
import GhostProtocol

/// Superghost in the client: `v` on the main screen chooses it
/// for new Ghost games (saved, sent as `variant=super`), and in a Superghost
/// game Left and Right choose the end the next letter goes to, in English
/// and Dutch.
@Suite("Client: Superghost")
struct SuperghostClientTests {
    /// Game 7, Superghost, alice to move at "ea".
    static func inSuper(language: String = "en") -> ClientState {
        Fx.run(Fx.named("alice", language: language),
               Fx.keys("3") + Fx.lines("OK NEW code=4EG7R lang=en",
                                       "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=super",
                                       "TURN id=7 player=alice fragment=ea")).0
    }

    @Test("v on the main screen chooses Superghost (saved), and every new Ghost game carries variant=super")
    func variantOfNewGames() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("v")))
        #expect(s.config.superghost)
        #expect(fx == [.saveConfig])
        #expect(ClientConfig.parse(s.config.rendered).superghost)
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK variant=super"])
        (s, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW variant=super"])
        (s, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("2")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW variant=super bot=easy"])
        // v twice more (Superghost, then challenge): Ghost, and nothing sent for it.
        (s, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("v")), .key(.char("v")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        #expect(!ClientConfig.parse(s.config.rendered).superghost)
    }

    @Test("In a Superghost game, Left puts the next letter at the front, Right at the end; Ghost ignores them")
    func frontAndBack() {
        var (s, fx) = Fx.run(SuperghostClientTests.inSuper(), .key(.char("p")))
        #expect(Fx.sent(fx) == ["LETTER p"])
        (s, fx) = Fx.run(SuperghostClientTests.inSuper(), .key(.left), .key(.char("p")))
        #expect(Fx.sent(fx) == ["LETTER p front"])
        // One letter only: the next goes at the end again.
        #expect(s.game?.ghost?.frontNext == false)
        (s, fx) = Fx.run(SuperghostClientTests.inSuper(), .key(.left), .key(.right), .key(.char("p")))
        #expect(Fx.sent(fx) == ["LETTER p"])
        (s, fx) = Fx.run(Fx.inGame(), .key(.left), .key(.char("p")))
        #expect(Fx.sent(fx) == ["LETTER p"])
    }

    @Test("The screens say where the letter goes and which game new games are, in English and Dutch")
    func screens() {
        let en = ScreenTests.plainLines(SuperghostClientTests.inSuper())
        #expect(en.contains { $0.contains("Your letter goes at the end (← front, → end)") }, "\(en)")
        let front = ScreenTests.plainLines(Fx.run(SuperghostClientTests.inSuper(), .key(.left)).0)
        #expect(front.contains { $0.contains("Your letter goes at the front (← front, → end)") })
        let nl = ScreenTests.plainLines(SuperghostClientTests.inSuper(language: "nl"))
        #expect(nl.contains { $0.contains("Je letter komt achteraan (← vooraan, → achteraan)") }, "\(nl)")
        #expect(!ScreenTests.plainLines(Fx.inGame()).contains { $0.contains("Your letter goes") })
        #expect(ScreenTests.plainLines(Fx.named()).contains { $0.contains("v [Ghost] Super Bluff and challenge") })
        #expect(ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("v"))).0)
            .contains { $0.contains("v Ghost [Super] Bluff and challenge") })
        #expect(ScreenTests.plainLines(Fx.named("alice", language: "nl")).contains { $0.contains("v [Ghost] Super Bluffen en uitdagen") })
    }
}
