import Testing
import WordLists
import HangmanCore
import GameKit

/// Evil play: the largest family, and each tie-break on its own. In every
/// list the family that should win is not the first one in alphabetical
/// order, so keeping the first family found would fail.
@Suite struct EvilTests {
    @Test func keepsTheLargestFamily() throws {
        // a at position 1: cat gas has was (4); without a: dog (1).
        var g = try game(["cat", "dog", "gas", "has", "was"], .evil, length: 3)
        try g.guess("a")
        #expect(g.line == "pattern=_a_ missed=- left=8")
        #expect(g.familySize == 4)
        // s at the end: gas has was (3) beats cat (1).
        try g.guess("s")
        #expect(g.line == "pattern=_as missed=- left=8")
        #expect(g.familySize == 3)
        #expect(g.answer == nil)
    }

    @Test func theLargestFamilyWinsEvenWithTheLetter() throws {
        // Without o: axe (1); o at 1: bog cod dog (3), before the tie-breaks.
        var g = try game(["axe", "bog", "cod", "dog"], .evil, length: 3)
        try g.guess("o")
        #expect(g.line == "pattern=_o_ missed=- left=8")
    }

    @Test func rule1PrefersTheFamilyWithoutTheLetter() throws {
        // c at 0: cat cow (2); without c: dog pig (2).
        var g = try game(["cat", "cow", "dog", "pig"], .evil, length: 3)
        let outcome = try g.guess("c")
        #expect(outcome == nil)
        #expect(g.line == "pattern=___ missed=c left=7")
        #expect(g.familySize == 2)
        #expect(g.moveFields(.letter(Letter("c")!)) == [Field("letter", "c"), Field("hit", "no")])
    }

    @Test func rule2PrefersFewerOccurrences() throws {
        // e at 0 and 2: ewe eye (2); e at 2: she the (2); without e: dog (1).
        // Rule 3 alone would take ewe/eye (its mask is larger): rule 2 comes first.
        var g = try game(["dog", "ewe", "eye", "she", "the"], .evil, length: 3)
        try g.guess("e")
        #expect(g.line == "pattern=__e missed=- left=8")
        #expect(g.familySize == 2)
        #expect(g.moveFields(.letter(Letter("e")!)) == [Field("letter", "e"), Field("hit", "yes")])
    }

    @Test func rule3PrefersTheRightmostOccurrence() throws {
        // e at 0: echo eddy (2); e at 3: toke yoke (2); without e: coat (1).
        var g = try game(["coat", "echo", "eddy", "toke", "yoke"], .evil, length: 4)
        try g.guess("e")
        #expect(g.line == "pattern=___e missed=- left=8")
    }

    @Test func rule3ThenTheNextRightmost() throws {
        // e at 2 and 3: free tree; e at 1 and 3: here mere; e at 0 and 3: eave else.
        // All end in e: the next rightmost decides (2 beats 1 and 0).
        var g = try game(["eave", "else", "free", "here", "mere", "tree", "oath"], .evil, length: 4)
        try g.guess("e")
        #expect(g.line == "pattern=__ee missed=- left=8")
        // And the same with the winners first in alphabetical order.
        var h = try game(["aaee", "aeae", "eaae", "bbee", "bebe", "ebbe", "cccc"], .evil, length: 4)
        try h.guess("e")
        #expect(h.line == "pattern=__ee missed=- left=8")
        #expect(h.familySize == 2)
    }

    @Test func wonWhenTheLastWordIsRevealed() throws {
        var g = try game(["cat", "cot", "dog"], .evil, length: 3)
        try g.guess("o")          // cot dog (2) beat cat (1)
        #expect(g.pattern == "_o_")
        try g.guess("d")          // without d: cot (1) ties dog (1): rule 1 keeps cot
        #expect(g.line == "pattern=_o_ missed=d left=7")
        #expect(g.familySize == 1)
        try g.guess("c")
        let outcome = try g.guess("t")
        #expect(outcome == Outcome(loser: 0, reason: .solved))
        #expect(g.answer == "cot")
        #expect(line(g.finalFields) == "word=cot mistakes=1 pattern=cot")
    }

    @Test func hangedRevealsASeededWordOfTheFamily() throws {
        let words = ["bbb", "ccc", "ddd", "fff", "ggg", "hhh"]
        var g = try game(words, .evil, length: 3, misses: 2, seed: 5)
        try g.guess("a")
        #expect(g.answer == nil)
        let outcome = try g.guess("e")
        #expect(outcome == Outcome(loser: 1, reason: .hanged))
        let answer = try #require(g.answer)
        #expect(words.contains(answer))
        #expect(line(g.finalFields) == "word=\(answer) mistakes=2 pattern=___")
        #expect(g.explanation(loser: "bob", winner: "bot-hangman") == "bob is hanged: the word was \"\(answer)\".")
        // The same seed and moves reveal the same word; other seeds spread.
        var answers = Set<String>()
        for seed in UInt64(0)..<40 {
            var h = try game(words, .evil, length: 3, misses: 2, seed: seed)
            try h.guess("a")
            try h.guess("e")
            answers.insert(try #require(h.answer))
            if seed == 5 { #expect(h.answer == answer) }
        }
        #expect(answers.count > 3)
    }

    @Test func solveDropsTheWordFromTheFamily() throws {
        var g = try game(["cat", "cot", "cut"], .evil, length: 3)
        try g.guess("c")
        #expect(g.familySize == 3)
        #expect(try g.guess("cot") == nil)          // in the family, which has more: dropped
        #expect(g.familySize == 2)
        #expect(g.line == "pattern=c__ missed=- left=7")
        #expect(g.moveFields(.word("cot")) == [Field("word", "cot"), Field("hit", "no")])
        try g.guess("dog")                           // not in the family: just a miss
        #expect(g.familySize == 2)
        #expect(g.mistakes == 2)
        try g.guess("cut")
        #expect(g.familySize == 1)
        let outcome = try g.guess("CAT")             // the family's last word: won
        #expect(outcome == Outcome(loser: 0, reason: .solved))
        #expect(g.answer == "cat")
        #expect(g.line == "pattern=cat missed=- left=5")
        #expect(g.moveFields(.word("cat")) == [Field("word", "cat"), Field("hit", "yes")])
        #expect(g.explanation(loser: "bot-hangman", winner: "bob") == "bob found \"cat\" with 3 mistakes.")
    }

    @Test func solveAtOnceWhenTheListHasOneWord() throws {
        var g = try game(["cat", "doge"], .evil, length: 3)
        #expect(try g.guess("cat") == Outcome(loser: 0, reason: .solved))
        #expect(g.explanation(loser: "bot-hangman", winner: "bob") == "bob found \"cat\" without a mistake.")
    }

    @Test func aWholeGameOnTheLargestEnglishFamily() throws {
        let kind = try #require(englishKind)
        var g = try #require(kind.game(language: "en", mode: .evil, length: 8, misses: 26, seed: 3))
        #expect(g.familySize == 10522)
        var sizes = [g.familySize]
        while !g.isOver, let l = g.likeliestLetter {
            try g.play(.letter(l), by: 1)
            sizes.append(g.familySize)
        }
        #expect(sizes == sizes.sorted(by: >))
        #expect(g.isOver)
        #expect(g.answer.map { englishWords!.isWord($0) } == true)
    }
}
