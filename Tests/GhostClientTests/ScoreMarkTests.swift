import Testing
@testable import GhostClient
import GhostProtocol

/// `registered=yes` on SCORE lines (`--scores-for`): the client
/// reads the lines that carry it as before (it does not show the mark yet).
@Suite("Core: SCORE lines with registered=yes")
struct ScoreMarkTests {
    @Test("Ghost's board: a registered name's line is a row like a guest's")
    func ghostBoard() {
        var (s, _) = Fx.run(Fx.named(), .key(.char("8")))
        (s, _) = Fx.run(s, Fx.lines("SCORE rank=1 name=alice wins=3 played=4 registered=yes",
                                    "SCORE rank=2 name=bob wins=1 played=4", "OK SCORES count=2 board=game"))
        #expect(s.highScores.scores == [ScoreEntry(rank: 1, name: "alice", wins: 3, played: 4),
                                        ScoreEntry(rank: 2, name: "bob", wins: 1, played: 4)])
    }

    @Test("A best-games list: the mark is not one of the game's fields")
    func bestGames() {
        var (s, _) = Fx.run(HFx.hangmanMain(), .key(.char("8")))
        (s, _) = Fx.run(s, Fx.lines("SCORE rank=1 name=alice word=piece/of/cake mistakes=1 misses=8 mode=phrase lang=en registered=yes",
                                    "OK SCORES count=1 board=hangman-evil"))
        #expect(s.hangman.scores?.count == 1)
        #expect(Screens.render(s).contains { $0.contains("▶    1  alice") && $0.contains("PIECE OF CAKE") && !$0.contains("registered") })
    }
}
