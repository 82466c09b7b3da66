import Testing
import WordLists
import HangmanCore
import GameKit

/// A duel without `length=` is open (`length=any`)
/// until the setter's word sets its length; `length=<n>` still fixes it.
@Suite struct OpenDuelTests {
    let k = kind(manyFives + ["kettle", "zephyr"])

    func setup(_ options: [String: String], saved: [String: String] = [:]) -> Result<GameSetup, SetupError> {
        k.setup(options: options, saved: saved, language: "en", seed: 3)
    }

    @Test("Setup: no length (or length=any) is open; length=<n> fixes it; a saved hangman-length does not apply to a duel")
    func setupKeepsTheLengthOpen() throws {
        #expect(try setup(["mode": "duel"]).get() == GameSetup(variant: "duel", settings: "length=any misses=8"))
        #expect(try setup(["mode": "duel", "length": "any", "misses": "5"]).get().settings == "length=any misses=5")
        #expect(try setup(["mode": "duel"], saved: ["length": "3", "misses": "4"]).get().settings == "length=any misses=4")
        #expect(try setup(["mode": "duel", "length": "6"], saved: ["length": "3"]).get().settings == "length=6 misses=8")
        #expect(try setup(["mode": "duel", "bot": "guesser"]).get()
            == GameSetup(variant: "duel", settings: "length=any misses=8", computerSeat: 1, computerName: "bot-hangman"))
        #expect(setup(["mode": "duel", "length": "9"]) == .failure(SetupError(code: "bad-value", message: "no word of 9 letters in the en list")))
        // A saved length that does not fit is not checked for a duel (it is not used), and still is for the others.
        #expect(try setup(["mode": "duel"], saved: ["length": "9"]).get().settings == "length=any misses=8")
        #expect((try? setup(["mode": "fair"], saved: ["length": "9"]).get()) == nil)
    }

    @Test("The open game: length=any, nothing to guess; a word not of the list changes nothing; WORD kettle makes it a game of 6 letters")
    func theWordSetsTheLength() throws {
        var g = try #require(k.newGame(language: "en", variant: "duel", settings: "length=any misses=7", seed: 3, starter: 0) as? HangmanGame)
        #expect(g.lengthIsOpen && g.length == 0 && g.toMove == 0)
        #expect(line(g.setupFields) == "mode=duel length=any misses=7")
        #expect(g.line == "pattern= missed=- left=7")
        #expect(g.likeliestLetter == nil)
        #expect(throws: MoveError.notYourTurn) { try g.guess("e") }
        for word in ["kettel", "ab", String(repeating: "e", count: 65)] {
            #expect(throws: MoveError.refused(code: "not-a-word", message: "\"\(word)\" is not a word of the en list")) {
                try g.play(.word(word), by: 0)
            }
        }
        #expect(g.lengthIsOpen && g.moveCount == 0)
        #expect(try g.play(.word("Kettle"), by: 0) == nil)
        #expect(!g.lengthIsOpen && g.length == 6 && g.toMove == 1)
        #expect(line(g.setupFields) == "mode=duel length=6 misses=7")
        #expect(line(g.fields(after: .word("kettle"))) == "length=6 pattern=______ missed=- left=7")
        #expect(g.privateFields(for: 0) == [Field("word", "kettle")] && g.privateFields(for: 1) == [])
        #expect(g.moves.map(\.encoded) == ["word:kettle"])
        // The computer guesser now knows the 6-letter words.
        #expect(g.likeliestLetter != nil)
        try g.guess("t")
        #expect(g.line == "pattern=__tt__ missed=- left=7")
        #expect(try g.guess("kettle") == Outcome(loser: 0, reason: .solved))
        #expect(line(g.finalFields) == "word=kettle mistakes=0 pattern=kettle")
    }

    @Test("Replayed from the stored settings (length=any) and moves, an open duel is the same game")
    func replays() throws {
        var g = try #require(k.openDuel(language: "en", misses: 8, seed: 5))
        try g.play(.word("zephyr"), by: 0)
        try g.guess("e")
        try g.guess("q")
        var again = try #require(k.newGame(language: "en", variant: "duel", settings: "length=any misses=8", seed: 5, starter: 0) as? HangmanGame)
        for move in g.moves { try again.play(move, by: again.toMove) }
        #expect(again.line == g.line && again.line == "pattern=_e____ missed=q left=7")
        #expect(again.length == 6 && again.answer == "zephyr")
        // A stored duel with a length plays that length, as before.
        let fixed = try #require(k.newGame(language: "en", variant: "duel", settings: "length=5 misses=8", seed: 5, starter: 0) as? HangmanGame)
        #expect(!fixed.lengthIsOpen && fixed.length == 5)
    }

    @Test("The computer as setter of an open duel (after REMATCH of bot=guesser) picks a length as length=any does, then a word of it")
    func theComputerSetsAnOpenDuel() throws {
        var g = try #require(k.openDuel(language: "en", seed: 11))
        let move = try #require(k.computerMove(in: g, level: .hard))
        #expect(k.computerMove(in: g, level: .easy) == move)   // the seed decides
        guard case .word(let w) = move else { Issue.record("the setter plays a word"); return }
        // Only 5 letters has 100 words here.
        #expect(manyFives.contains(w))
        try g.play(move, by: 0)
        #expect(g.length == 5 && g.toMove == 1)
    }
}
