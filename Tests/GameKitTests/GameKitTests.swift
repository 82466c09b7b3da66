import Testing
import GameKit

@Suite("GameKit: moves, matches, boards")
struct GameKitTests {
    @Test("A move survives the store's text form; other text is no move")
    func moveEncoding() {
        for move in [Move.letter(Letter("a")!), .letter(Letter("Z")!), .word("piece of cake"), .word("")] {
            #expect(Move(encoded: move.encoded) == move)
        }
        #expect(Move.letter(Letter("q")!).encoded == "q")
        #expect(Move.word("cake").encoded == "word:cake")
        for junk in ["", "ab", "7", "WORD:x", " word:x", "é"] { #expect(Move(encoded: junk) == nil) }
    }

    @Test("A single game is over with its first lost round")
    func singleGame() {
        var m = Match(target: 1)
        #expect(!m.isMatch)
        #expect(m.roundLost(by: 1, reason: EndReason(rawValue: "word")) == .over(loser: 1))
        #expect(m.losses == [0, 1] && m.round == 1)
    }

    @Test("A match of five: the seats take turns to start, the fifth lost round ends it")
    func match() {
        var m = Match(target: 5)
        let dead = EndReason(rawValue: "dead")
        for round in 1...4 {
            #expect(m.round == round && m.starter == (round - 1) % 2)
            #expect(m.roundLost(by: 0, reason: dead) == .nextRound)
        }
        #expect(m.losses == [4, 0] && m.round == 5 && m.starter == 0)
        #expect(m.roundLost(by: 1, reason: dead) == .nextRound)
        #expect(m.roundLost(by: 0, reason: dead) == .over(loser: 0))
        #expect(m.losses == [5, 1])
    }

    @Test("Leaving or being claimed ends a match at once, whatever the score")
    func seatsEndMatches() {
        for reason in [EndReason.left, .abandoned] {
            var m = Match(target: 5)
            #expect(m.roundLost(by: 1, reason: reason) == .over(loser: 1))
            #expect(m.losses == [0, 0])
        }
    }

    @Test("A restart makes a new round only when the round had moves")
    func restart() {
        var m = Match(target: 5, losses: [1, 2], round: 4, starter: 1)
        m.restartRound(hadMoves: false)
        #expect(m.round == 4)
        m.restartRound(hadMoves: true)
        #expect(m.round == 5 && m.starter == 1 && m.losses == [1, 2])
    }

    @Test("Hostile stored values are clamped, never trusted")
    func clamped() {
        let m = Match(target: 0, losses: [-3], round: -1, starter: 7)
        #expect(m.target == 1 && m.losses == [0, 0] && m.round == 1 && m.starter == 0)
        var n = Match(target: 5)
        #expect(n.roundLost(by: 2, reason: .left) == .nextRound && n.losses == [0, 0])
    }

    @Test("Board names: the first kind keeps its short names, others are prefixed")
    func boards() {
        #expect(Board().name == "game")
        #expect(Board(match: true).name == "match")
        #expect(Board(computer: .easy).name == "easy")
        #expect(Board(computer: .hard, match: true).name == "hard-match")
        #expect(Board(kind: "hangman").name == "hangman-game")
    }
}
