import Testing
import GhostCore
import GameKit
import WordLists

private func letter(_ c: Character) -> Letter { Letter(String(c))! }

/// Outcome's initializer is internal: compare through this.
private struct Lost: Equatable, CustomStringConvertible {
    let loser: Int?
    let reason: EndReason
    var description: String { "seat \(loser.map(String.init) ?? "none") loses (\(reason))" }
}

private func summary(_ o: PlainGhost.Outcome?) -> Lost? {
    o.map { Lost(loser: $0.loser, reason: $0.reason) }
}

@Suite struct RulesTests {
    // MARK: The worked example on the real English list

    @Test func peafowlVerdictsOnEnglish() throws {
        let rules = GhostRules(words: try #require(englishWords))
        #expect(rules.verdict("p") == .alive)
        #expect(rules.verdict("pe") == .alive)
        #expect(rules.verdict("pea") == .alive)      // a 3-letter word: allowed
        #expect(rules.words.isWord("pea"))
        #expect(rules.verdict("peaf") == .alive)
        #expect(rules.verdict("peafa") == .dead)     // no word starts with it
        #expect(rules.verdict("peafo") == .alive)
        #expect(rules.verdict("peafow") == .alive)
        #expect(rules.verdict("peafowl") == .word)
        #expect(rules.verdict("PEAFOWL") == .word)
        #expect(rules.verdict("pear") == .word)
        // Only peafowl and its forms start with "peaf": o is the only way on.
        let peaf = try #require(rules.words.node(for: "peaf"))
        #expect(rules.words.nodes[peaf].childLetters == [letter("o").index])
        for c in Letter.all where c != letter("o") {
            #expect(rules.verdict("peaf" + c.description) == .dead, "peaf\(c)")
        }
    }

    @Test func peafowlGameOnEnglish() throws {
        var game = PlainGhost(rules: GhostRules(words: try #require(englishWords)))
        #expect(game.fragment == "")
        #expect(game.toMove == 0)
        #expect(game.outcome == nil)
        #expect(game.explanation(loserName: "alice") == "The game is not over.")
        let steps = Array("peafow")
        for (i, c) in steps.enumerated() {
            let seat = i % 2
            let result = try game.play(letter(c), by: seat)
            #expect(result == nil, "after \(c)")
            #expect(game.outcome == nil)
            #expect(!game.isOver)
            #expect(game.fragment == String(steps[0...i]))
            #expect(game.toMove == 1 - seat)
        }
        // Seven letters: seat 0 plays p, a, o and l.
        let final = try game.play(letter("L"), by: 0)
        let expected = Lost(loser: 0, reason: .word)
        #expect(summary(final) == expected)
        #expect(summary(game.outcome) == expected)
        #expect(game.outcome?.winner == 1)
        #expect(game.isOver)
        #expect(game.fragment == "peafowl")
        #expect(game.explanation(loserName: "alice") == "\"peafowl\" is a word longer than 3 letters, so alice loses.")
        // Nothing more can be played.
        #expect(throws: PlainGhost.MoveError.gameOver) { try game.play(letter("s"), by: 1) }
        #expect(throws: PlainGhost.MoveError.gameOver) { try game.play(letter("s"), by: 0) }
        #expect(game.fragment == "peafowl")
        #expect(game.resign(1) == nil)
        #expect(summary(game.outcome) == expected)
    }

    @Test func peafaLosesDead() throws {
        var game = PlainGhost(rules: GhostRules(words: try #require(englishWords)))
        for (i, c) in "peaf".enumerated() { try game.play(letter(c), by: i % 2) }
        #expect(game.outcome == nil)
        let result = try game.play(letter("a"), by: 0)
        #expect(summary(result) == Lost(loser: 0, reason: .dead))
        #expect(game.fragment == "peafa")
        #expect(game.explanation(loserName: "alice") == "No word starts with \"peafa\", so alice loses; \"peaf\" could have led to \"peafowl\".")
        #expect(game.finalFields == [Field("fragment", "peafa")] && game.endFields == [Field("word", "peafowl")])
    }

    // MARK: The word a dead fragment could have led to

    @Test("Issue 14: after a dead fragment, OVER names the shortest word (then the first alphabetically) the fragment before the last letter led to")
    func deadFragmentNamesAPossibleWord() throws {
        let en = GhostRules(words: try #require(englishWords))
        var game = PlainGhost(rules: en)
        for (i, c) in "jaix".enumerated() { try game.play(letter(c), by: i % 2) }
        #expect(summary(game.outcome) == Lost(loser: 1, reason: .dead))
        #expect(game.possibleWord == "jail")
        #expect(game.finalFields == [Field("fragment", "jaix")] && game.endFields == [Field("word", "jail")])
        #expect(game.explanation(loserName: "bob") == "No word starts with \"jaix\", so bob loses; \"jai\" could have led to \"jail\".")
        // Two letters: the first one alone led somewhere.
        var qz = PlainGhost(rules: en)
        try qz.play(letter("q"), by: 0)
        try qz.play(letter("z"), by: 1)
        #expect(qz.finalFields == [Field("fragment", "qz")] && qz.endFields == [Field("word", "quad")])
    }

    @Test("Issue 14: no word is named for a word ending, a first letter, or a prefix whose only words are short")
    func noPossibleWord() throws {
        // A word longer than 3 letters ends the round: nothing to name.
        var pear = PlainGhost(rules: GhostRules(words: WordList(words: ["pear", "pears"])))
        for (i, c) in "pear".enumerated() { try pear.play(letter(c), by: i % 2) }
        #expect(pear.outcome?.reason == .word)
        #expect(pear.possibleWord == nil)
        #expect(pear.finalFields == [Field("fragment", "pear")] && pear.endFields.isEmpty)
        // The first letter: any word would do.
        var x = PlainGhost(rules: Self.golf)
        try x.play(letter("x"), by: 0)
        #expect(x.possibleWord == nil)
        #expect(x.finalFields == [Field("fragment", "x")] && x.endFields.isEmpty)
        // "xo" leads only to "xor", 3 letters, which loses as well.
        var xor = PlainGhost(rules: GhostRules(words: try #require(englishWords)))
        for (i, c) in "xor".enumerated() { try xor.play(letter(c), by: i % 2) }
        #expect(xor.outcome?.reason == .dead)
        #expect(xor.possibleWord == nil)
        #expect(xor.explanation(loserName: "alice") == "\"xor\" is a word, but no longer word starts with it, so alice loses.")
        // A resignation names nothing.
        var left = PlainGhost(rules: Self.golf)
        try left.play(letter("e"), by: 0)
        left.resign(1)
        #expect(left.finalFields == [Field("fragment", "e")] && left.endFields.isEmpty)
    }

    @Test("The shortest word of a minimum length after a prefix, alphabetical among equals, through the trie")
    func shortestWordAfterAPrefix() {
        let words = WordList(words: ["ab", "abd", "abdz", "abdx", "abxy", "abcde", "b"])
        #expect(words.shortestWord(startingWith: "ab", minLength: 4) == "abdx")
        #expect(words.shortestWord(startingWith: "AB", minLength: 3) == "abd")
        #expect(words.shortestWord(startingWith: "ab", minLength: 5) == "abcde")
        #expect(words.shortestWord(startingWith: "ab", minLength: 6) == nil)
        #expect(words.shortestWord(startingWith: "ab", minLength: 0) == "ab")
        #expect(words.shortestWord(startingWith: "c", minLength: 1) == nil)
        #expect(words.shortestWord(startingWith: "", minLength: 1) == "b")
    }

    // MARK: The public code-golf dictionary

    static let golf = GhostRules(words: WordList(words: ["abbot", "eager", "eagle", "eaglet", "earful", "earring"]))

    @Test(arguments: [
        ("", GhostRules.Verdict.alive),
        ("a", .alive), ("ab", .alive), ("abb", .alive), ("abbo", .alive), ("abbot", .word),
        ("e", .alive), ("ea", .alive), ("eag", .alive), ("eagl", .alive), ("eagle", .word), ("eaglet", .word),
        ("eage", .alive), ("eager", .word),
        ("ear", .alive), ("earf", .alive), ("earfu", .alive), ("earful", .word), ("earring", .word),
        ("x", .dead), ("b", .dead), ("eax", .dead), ("eagles", .dead), ("abbots", .dead), ("earrings", .dead),
    ])
    func golfVerdicts(_ fragment: String, _ verdict: GhostRules.Verdict) {
        #expect(Self.golf.verdict(fragment) == verdict)
    }

    @Test func golfAbbotIsWordAndDead() {
        // Nothing extends "abbot", but the word rule wins.
        #expect(!Self.golf.words.isProperlyExtended("abbot"))
        #expect(Self.golf.words.isWord("abbot"))
        #expect(Self.golf.verdict("abbot") == .word)
    }

    // MARK: The 3-letter rule

    @Test func threeLetterWordIsAllowedWhenExtended() {
        let rules = GhostRules(words: WordList(words: ["pea", "pear"]))
        #expect(rules.verdict("pea") == .alive)
        #expect(rules.verdict("pear") == .word)
        #expect(rules.verdict("PEA") == .alive)
        #expect(rules.verdict("Pear") == .word)
        #expect(GhostRules.losingWordLength == 4)
    }

    @Test func shortWordNothingExtendsIsDead() throws {
        let rules = GhostRules(words: WordList(words: ["cat"]))
        #expect(rules.verdict("c") == .alive)
        #expect(rules.verdict("ca") == .alive)
        #expect(rules.verdict("cat") == .dead)
        var game = PlainGhost(rules: rules)
        try game.play(letter("c"), by: 0)
        try game.play(letter("a"), by: 1)
        let result = try game.play(letter("t"), by: 0)
        #expect(summary(result) == Lost(loser: 0, reason: .dead))
        #expect(game.explanation(loserName: "bob") == "\"cat\" is a word, but no longer word starts with it, so bob loses.")
    }

    @Test func wordOfTwoLettersExtendedIsAlive() {
        let rules = GhostRules(words: WordList(words: ["a", "at", "ate", "ates"]))
        #expect(rules.verdict("a") == .alive)
        #expect(rules.verdict("at") == .alive)
        #expect(rules.verdict("ate") == .alive)
        #expect(rules.verdict("ates") == .word)
    }

    // MARK: PlainGhost mechanics

    @Test func outOfTurnChangesNothing() throws {
        var game = PlainGhost(rules: Self.golf)
        #expect(throws: PlainGhost.MoveError.notYourTurn) { try game.play(letter("e"), by: 1) }
        #expect(game.fragment == "")
        #expect(game.toMove == 0)
        try game.play(letter("e"), by: 0)
        #expect(throws: PlainGhost.MoveError.notYourTurn) { try game.play(letter("a"), by: 0) }
        #expect(throws: PlainGhost.MoveError.notYourTurn) { try game.play(letter("a"), by: 2) }
        #expect(game.fragment == "e")
        #expect(game.toMove == 1)
        #expect(game.outcome == nil)
        try game.play(letter("a"), by: 1)
        #expect(game.fragment == "ea")
    }

    @Test func firstLetterNoWordStartsWith() throws {
        var game = PlainGhost(rules: Self.golf)
        let result = try game.play(letter("x"), by: 0)
        #expect(summary(result) == Lost(loser: 0, reason: .dead))
        #expect(game.outcome?.winner == 1)
        #expect(game.fragment == "x")
        #expect(game.explanation(loserName: "alice") == "No word starts with \"x\", so alice loses.")
    }

    @Test func resign() {
        var game = PlainGhost(rules: Self.golf)
        #expect(game.resign(2) == nil)
        #expect(game.outcome == nil)
        #expect(summary(game.resign(1)) == Lost(loser: 1, reason: .left))
        #expect(game.outcome?.winner == 0)
        #expect(game.explanation(loserName: "bob") == "bob left the game.")
        #expect(game.resign(0) == nil)
        #expect(summary(game.outcome) == Lost(loser: 1, reason: .left))
    }

    // MARK: Dutch

    @Test func dutchWordLoss() throws {
        let rules = GhostRules(words: try #require(dutchWords))
        #expect(rules.verdict("h") == .alive)
        #expect(rules.verdict("hu") == .alive)   // a 2-letter word, extended
        #expect(rules.verdict("hui") == .alive)  // a 3-letter word, extended
        #expect(rules.verdict("huis") == .word)
        var game = PlainGhost(rules: rules)
        for (i, c) in "hui".enumerated() {
            #expect(try game.play(letter(c), by: i % 2) == nil)
        }
        let result = try game.play(letter("s"), by: 1)
        #expect(summary(result) == Lost(loser: 1, reason: .word))
        #expect(game.fragment == "huis")
        #expect(game.explanation(loserName: "bob") == "\"huis\" is a word longer than 3 letters, so bob loses.")
    }

    @Test func dutchDeadLoss() throws {
        let rules = GhostRules(words: try #require(dutchWords))
        #expect(rules.verdict("q") == .alive)
        #expect(rules.verdict("qx") == .dead)
        #expect(rules.verdict("huisq") == .dead)
        var game = PlainGhost(rules: rules)
        #expect(try game.play(letter("q"), by: 0) == nil)
        let result = try game.play(letter("x"), by: 1)
        #expect(summary(result) == Lost(loser: 1, reason: .dead))
        #expect(game.explanation(loserName: "bob") == "No word starts with \"qx\", so bob loses; \"q\" could have led to \"quad\".")
        #expect(game.finalFields == [Field("fragment", "qx")] && game.endFields == [Field("word", "quad")])
    }

    @Test func dutchDiacriticsWereFolded() throws {
        let nl = try #require(dutchWords)
        #expect(nl.isWord("ideeen"))
        #expect(nl.isWord("cafe"))
        #expect(!nl.isWord("idee\u{EB}n"))
        #expect(nl.node(for: "caf\u{E9}") == nil)
    }
}
