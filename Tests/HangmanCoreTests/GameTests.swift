import Testing
import WordLists
import HangmanCore
import GameKit

let fiveLetters = ["apple", "bacon", "candy", "daisy", "eagle", "fable", "grape", "house", "igloo", "jelly", "peach"]
let phrases = ["piece of cake", "rock 'n' roll", "merry-go-round", "Kick the  Bucket", "bad phr4se", "- -"]

@Suite struct FairTests {
    @Test func theSeedPicksTheWordAndItNeverChanges() throws {
        let first = try game(fiveLetters, .fair, length: 5, seed: 11)
        let again = try game(fiveLetters, .fair, length: 5, seed: 11)
        let word = try #require(first.answer)
        #expect(again.answer == word)
        #expect(fiveLetters.contains(word))
        #expect(first.line == "pattern=_____ missed=- left=8")
        var g = first
        for l in "zyxwvutsrqponm" {
            guard !g.isOver else { break }
            try g.guess(String(l))
            #expect(g.answer == word)
        }
        var picked = Set<String>()
        for seed in UInt64(0)..<60 { picked.insert(try game(fiveLetters, .fair, length: 5, seed: seed).answer!) }
        #expect(picked.count > 5)
    }

    @Test func lettersRevealEveryOccurrence() throws {
        var g = try game(["peach"], .fair, length: 5, misses: 3)
        try g.guess("e")
        try g.guess("x")
        try g.guess("p")
        #expect(g.line == "pattern=pe___ missed=x left=2")
        #expect(g.guessed == Set("epx"))
        #expect(g.missed == ["x"])
        try g.guess("b")
        #expect(g.missed == ["b", "x"])
        #expect(g.line == "pattern=pe___ missed=bx left=1")
        var h = try game(["eagle"], .fair, length: 5)
        try h.guess("e")
        #expect(h.pattern == "e___e")
    }

    @Test func solveRightAndWrong() throws {
        var g = try game(["peach"], .fair, length: 5)
        try g.guess("e")
        #expect(try g.guess("beach") == nil)          // a word, but wrong: one miss
        #expect(g.line == "pattern=_e___ missed=- left=7")
        #expect(g.mistakes == 1)
        #expect(g.wrongSolves == ["beach"])
        #expect(try g.guess("ab") == nil)             // two letters: a wrong SOLVE
        #expect(g.left == 6)
        #expect(try g.guess("ice-cream") == nil)      // the wrong shape: a wrong SOLVE too
        #expect(g.left == 5)
        let outcome = try g.guess("Peach")
        #expect(outcome == Outcome(loser: 0, reason: .solved))
        #expect(g.line == "pattern=peach missed=- left=5")
        #expect(line(g.fields(after: .word("Peach"))) == "word=peach hit=yes pattern=peach missed=- left=5")
        #expect(line(g.finalFields) == "word=peach mistakes=3 pattern=peach")
        #expect(g.explanation(loser: "bot-hangman", winner: "bob") == "bob found \"peach\" with 3 mistakes.")
        #expect(g.moves.map(\.encoded) == ["e", "word:beach", "word:ab", "word:ice-cream", "word:peach"])
    }

    @Test func hangedByMisses() throws {
        var g = try game(["peach"], .fair, length: 5, misses: 2)
        try g.guess("z")
        #expect(try g.guess("q") == Outcome(loser: 1, reason: .hanged))
        #expect(g.left == 0)
        #expect(line(g.finalFields) == "word=peach mistakes=2 pattern=_____")
        #expect(g.explanation(loser: "bob", winner: "bot-hangman") == "bob is hanged: the word was \"peach\".")
    }
}

@Suite struct PhraseTests {
    @Test func patternsShowSpacesApostrophesAndHyphens() throws {
        let cake = try game(fiveLetters, .phrase, length: 11, phrases: phrases)
        #expect(cake.answer == "piece of cake")
        #expect(cake.line == "pattern=_____/__/____ missed=- left=8")
        #expect(line(cake.setupFields) == "mode=phrase length=11 misses=8")
        let roll = try game(fiveLetters, .phrase, length: 9, phrases: phrases)
        #expect(roll.pattern == "____/'_'/____")
        let round = try game(fiveLetters, .phrase, length: 12, phrases: phrases)
        #expect(round.pattern == "_____-__-_____")
        let bucket = try game(fiveLetters, .phrase, length: 13, phrases: phrases)
        #expect(bucket.answer == "kick the bucket")
        #expect(bucket.pattern == "____/___/______")
    }

    @Test func aLetterShowsInEveryWord() throws {
        var g = try game(fiveLetters, .phrase, length: 11, phrases: phrases)
        try g.guess("e")
        #expect(g.pattern == "__e_e/__/___e")
        try g.guess("c")
        #expect(g.pattern == "__ece/__/c__e")
        var r = try game(fiveLetters, .phrase, length: 9, phrases: phrases)
        try r.guess("o")
        #expect(r.pattern == "_o__/'_'/_o__")
    }

    @Test func solveWithSlashesOrSpaces() throws {
        var g = try game(fiveLetters, .phrase, length: 11, phrases: phrases)
        #expect(try g.guess("piece of pie") == nil)
        #expect(g.left == 7)
        #expect(g.moveFields(.word("piece of pie")) == [Field("word", "piece/of/pie"), Field("hit", "no")])
        // The same guess with slashes is the same guess: refused, free.
        #expect(throws: MoveError.refused(code: "already-guessed", message: "\"piece/of/pie\" has been guessed already")) {
            try g.guess("piece/of/pie")
        }
        #expect(g.left == 7)
        #expect(g.moves.map(\.encoded) == ["word:piece/of/pie"])
    }

    @Test func solveWithSpaces() throws {
        var g = try game(fiveLetters, .phrase, length: 11, phrases: phrases)
        #expect(try g.guess("PIECE  of cake ") == Outcome(loser: 0, reason: .solved))
        #expect(g.line == "pattern=piece/of/cake missed=- left=8")
        #expect(g.moves.map(\.encoded) == ["word:piece/of/cake"])
        #expect(line(g.finalFields) == "word=piece/of/cake mistakes=0 pattern=piece/of/cake")
        #expect(g.explanation(loser: "bot-hangman", winner: "bob") == "bob found \"piece of cake\" without a mistake.")
    }

    @Test func solveWithSlashes() throws {
        var g = try game(fiveLetters, .phrase, length: 9, phrases: phrases)
        try g.guess("x")
        #expect(try g.guess("rock/'n'/roll") == Outcome(loser: 0, reason: .solved))
        #expect(line(g.fields(after: .word("rock/'n'/roll"))) == "word=rock/'n'/roll hit=yes pattern=rock/'n'/roll missed=x left=7")
        #expect(Move(encoded: g.moves.last!.encoded) == .word("rock/'n'/roll"))
    }

    @Test func hangedRevealsThePhrase() throws {
        var g = try game(fiveLetters, .phrase, length: 12, misses: 1, phrases: phrases)
        try g.guess("z")
        #expect(line(g.finalFields) == "word=merry-go-round mistakes=1 pattern=_____-__-_____")
        #expect(g.explanation(loser: "bob", winner: "bot-hangman") == "bob is hanged: the phrase was \"merry-go-round\".")
    }
}

@Suite struct ErrorTests {
    @Test func aLetterGuessedTwiceIsRefusedAndCostsNothing() throws {
        var g = try game(["peach"], .fair, length: 5)
        try g.guess("z")
        let before = g.line
        #expect(throws: MoveError.refused(code: "already-guessed", message: "z has been guessed already")) { try g.guess("z") }
        try g.guess("e")
        #expect(throws: MoveError.self) { try g.guess("e") }
        #expect(g.line == "pattern=_e___ missed=z left=7")
        #expect(before == "pattern=_____ missed=z left=7")
        #expect(g.moveCount == 2)
        // A wrong SOLVE made twice is refused the second time, too.
        try g.guess("beach")
        #expect(throws: MoveError.refused(code: "already-guessed", message: "\"beach\" has been guessed already")) { try g.guess("BEACH") }
        #expect(g.left == 6)
    }

    @Test func outOfTurn() throws {
        var g = try game(["peach"], .fair, length: 5)
        #expect(g.toMove == 1)
        #expect(throws: MoveError.notYourTurn) { try g.play(.letter(Letter("e")!), by: 0) }
        #expect(throws: MoveError.notYourTurn) { try g.play(.word("peach"), by: 0) }
        var e = try game(["peach"], .evil, length: 5)
        #expect(throws: MoveError.notYourTurn) { try e.play(.letter(Letter("e")!), by: 0) }
        #expect(g.moveCount == 0 && e.moveCount == 0)
    }

    @Test func afterTheEnd() throws {
        var g = try game(["peach"], .fair, length: 5)
        try g.guess("peach")
        #expect(throws: MoveError.gameOver) { try g.guess("a") }
        #expect(throws: MoveError.gameOver) { try g.guess("peach") }
        var h = try game(["peach"], .evil, length: 5)
        h.end(Outcome(loser: 1, reason: .left))
        #expect(h.answer == "peach")
        #expect(throws: MoveError.gameOver) { try h.guess("a") }
        #expect(h.explanation(loser: "bob", winner: "bot-hangman") == "bob left the game; the word was \"peach\".")
    }

    @Test func nonLettersAreNotMoves() throws {
        var g = try game(["peach"], .fair, length: 5)
        #expect(throws: MoveError.notAMove("guess a letter a-z, or the whole answer")) { try g.guess("pe4ch") }
        #expect(throws: MoveError.self) { try g.guess("peach!") }
        #expect(throws: MoveError.self) { try g.guess("") }
        #expect(throws: MoveError.self) { try g.guess(" / ") }
        #expect(throws: MoveError.self) { try g.guess("é") }
        #expect(g.moveCount == 0 && g.left == 8)
        #expect(Letter("4") == nil)
        #expect(Move(encoded: "4") == nil)
    }

    @Test func twoLettersAreNotALetter() throws {
        // The protocol's move `ab` is no move at all; as a SOLVE it is a wrong guess.
        #expect(Move(encoded: "ab") == nil)
        #expect(Letter("ab") == nil)
        var g = try game(["peach"], .fair, length: 5)
        #expect(try g.play(.word("ab"), by: 1) == nil)
        #expect(g.line == "pattern=_____ missed=- left=7")
    }
}

@Suite struct DuelTests {
    func words() -> [String] { fiveLetters + ["zebra", "cat"] }

    @Test func theSetterMovesFirstWithAWordOfTheList() throws {
        var g = try game(words(), .duel, length: 5)
        #expect(g.toMove == 0)
        #expect(g.answer == nil)
        #expect(g.line == "pattern= missed=- left=8")
        #expect(throws: MoveError.notYourTurn) { try g.guess("e") }
        #expect(throws: MoveError.refused(code: "not-a-word", message: "\"zzzzz\" is not a word of the en list")) {
            try g.play(.word("zzzzz"), by: 0)
        }
        #expect(throws: MoveError.refused(code: "not-a-word", message: "the word must have 5 letters")) {
            try g.play(.word("cat"), by: 0)
        }
        #expect(throws: MoveError.self) { try g.play(.word("pe4ch"), by: 0) }
        #expect(throws: MoveError.self) { try g.play(.letter(Letter("p")!), by: 0) }
        #expect(g.moveCount == 0)
        #expect(try g.play(.word("PEACH"), by: 0) == nil)
        #expect(g.toMove == 1)
        #expect(g.answer == "peach")
        #expect(g.moves.map(\.encoded) == ["word:peach"])
    }

    @Test func theGuesserNeverSeesTheWord() throws {
        var g = try game(words(), .duel, length: 5)
        try g.play(.word("peach"), by: 0)
        let seen = [g.publicFields, g.privateFields(for: 1), g.moveFields(.word("peach")), g.fields(after: .word("peach")), g.setupFields]
        #expect(g.moveFields(.word("peach")) == [Field("length", "5")])
        #expect(line(g.fields(after: .word("peach"))) == "length=5 pattern=_____ missed=- left=8")
        #expect(g.privateFields(for: 1) == [])
        #expect(g.privateFields(for: 0) == [Field("word", "peach")])
        for fields in seen { #expect(!line(fields).contains("peach")) }
        try g.guess("a")
        #expect(g.privateFields(for: 1) == [])
        #expect(!g.line.contains("peach"))
        #expect(g.line == "pattern=__a__ missed=- left=8")
        try g.guess("zebra")
        #expect(g.left == 7)
        #expect(try g.guess("peach") == Outcome(loser: 0, reason: .solved))
        #expect(g.moveFields(.word("peach")) == [Field("word", "peach"), Field("hit", "yes")])
        #expect(g.privateFields(for: 1) == [])
        #expect(line(g.finalFields) == "word=peach mistakes=1 pattern=peach")
    }

    @Test func theComputerPlaysEitherSeat() throws {
        let k = kind(words())
        var g = try #require(k.game(language: "en", mode: .duel, length: 5, seed: 9))
        let set = try #require(k.computerMove(in: g, level: .hard))
        guard case .word(let w) = set else { Issue.record("the setter plays a word"); return }
        #expect(fiveLetters.contains(w) || w == "zebra")
        #expect(k.computerMove(in: g, level: .easy) == set)   // the seed decides
        try g.play(set, by: 0)
        var misses = 0
        while !g.isOver {
            let move = try #require(k.computerMove(in: g, level: .hard))
            guard case .letter = move else { Issue.record("the guesser plays letters"); return }
            try g.play(move, by: 1)
            misses = g.mistakes
        }
        #expect(g.outcome == Outcome(loser: 0, reason: .solved))
        #expect(misses < 8)
        // Against the computer as setter, the computer never moves.
        let evil = try #require(k.game(language: "en", mode: .evil, length: 5, seed: 9))
        #expect(k.computerMove(in: evil, level: .hard) == nil)
    }
}
