import Testing
import WordLists
import HangmanCore
import GameKit

/// The repository's Dictionaries folder, loaded once (word lists, phrases and
/// the lists of common words); nil when unreadable (tests `#require` it).
let repoDictionaries: Dictionaries? = try? Dictionaries.load(folder: packageRoot.appendingPathComponent("Dictionaries").path)
let repoKind: HangmanKind? = repoDictionaries.map { HangmanKind(dictionaries: $0, phrases: [:]) }

/// The words of `list` of `length` letters, as strings.
func words(of list: WordList, length: Int? = nil) -> [String] {
    var out: [String] = []
    list.forEachWord { w in if length == nil || w.count == length { out.append(String(decoding: w, as: UTF8.self)) } }
    return out
}

/// Whether `word` fits what the guesser of `game` was shown: the pattern's
/// letters, no missed letter, and no guessed letter where `_` is shown.
func fits(_ word: String, _ game: HangmanGame) -> Bool {
    let missed = Set(game.missed), guessed = game.guessed
    guard word.count == game.length else { return false }
    for (c, p) in zip(word, game.pattern) {
        if missed.contains(c) { return false }
        if p == "_" ? guessed.contains(c) : p != c { return false }
    }
    return true
}

/// Hangman's computer sets words from Dictionaries/common (words people know),
/// while what is a word stays the language's whole list.
@Suite struct CommonWordsTests {
    @Test("Dictionaries/common is loaded for en and nl; every common word is a word of its language's list, of 3+ letters with a vowel")
    func commonListsAreSubsetsOfTheWordLists() throws {
        let d = try #require(repoDictionaries)
        #expect(d.languages == ["en", "nl"])
        #expect(d.common.keys.sorted() == ["en", "nl"])
        #expect(d.common["en"]?.wordCount == 40_059)
        #expect(d.common["nl"]?.wordCount == 41_433)
        #expect(d.common["en"]?.rejected == 0 && d.common["nl"]?.rejected == 0)
        for (language, common) in d.common {
            let list = try #require(d[language])
            let all = words(of: common)
            let outside = all.filter { !list.isWord($0) }
            #expect(outside.isEmpty, "\(language): \(outside.prefix(10))")
            let odd = all.filter { $0.count < 3 || !$0.contains(where: { "aeiouy".contains($0) }) }
            #expect(odd.isEmpty, "\(language): \(odd.prefix(10))")
            // The word list is much larger: the common list is a real choice.
            #expect(list.wordCount > 3 * common.wordCount / 2)
            let kind = try #require(repoKind)
            #expect(kind.secretWordCount(language: language) == common.wordCount)
        }
    }

    @Test("Fair: the computer's word is a common word, in every length and both languages")
    func fairWordsAreCommon() throws {
        let d = try #require(repoDictionaries), kind = try #require(repoKind)
        for language in ["en", "nl"] {
            let common = try #require(d.common[language])
            for length in 3...14 {
                for seed in UInt64(0)..<25 {
                    let g = try #require(kind.game(language: language, mode: .fair, length: length, seed: seed))
                    let answer = try #require(g.answer)
                    #expect(common.isWord(answer), "\(language) \(length) seed \(seed): \(answer)")
                }
            }
        }
    }

    @Test("Evil: after every guess the family is exactly the common words that fit, and the word revealed is one of them")
    func evilFamiliesAreCommon() throws {
        let d = try #require(repoDictionaries), kind = try #require(repoKind)
        for language in ["en", "nl"] {
            let common = try #require(d.common[language])
            for length in [4, 6, 8, 10] {
                let candidates = words(of: common, length: length)
                var g = try #require(kind.game(language: language, mode: .evil, length: length, misses: 8, seed: 7))
                #expect(g.familySize == candidates.count, "\(language) \(length)")
                while !g.isOver {
                    let letter = try #require(g.likeliestLetter)
                    try g.play(.letter(letter), by: 1)
                    if !g.isOver {
                        #expect(g.familySize == candidates.filter { fits($0, g) }.count, "\(language) \(length) \(g.line)")
                    }
                }
                let answer = try #require(g.answer)
                #expect(common.isWord(answer) && answer.count == length, "\(language) \(length): \(answer)")
            }
        }
    }

    /// A word of the English list, of `length` letters, that is not a common word.
    func rareWord(length: Int) throws -> String {
        let d = try #require(repoDictionaries)
        let common = try #require(d.common["en"]), list = try #require(d["en"])
        return try #require(words(of: list, length: length).first { !common.isWord($0) })
    }

    @Test("Evil: SOLVE with a rare word of the list is taken, as a wrong answer, and the family keeps every word")
    func evilSolveWithARareWord() throws {
        let kind = try #require(repoKind)
        let rare = try rareWord(length: 5)
        var g = try #require(kind.game(language: "en", mode: .evil, length: 5, misses: 8, seed: 1))
        let before = g.familySize
        #expect(try g.guess(rare) == nil)
        #expect(g.wrongSolves == [rare])
        #expect(g.line == "pattern=_____ missed=- left=7")
        #expect(g.familySize == before)
    }

    @Test("Fair: SOLVE with a rare word of the list is a guess like any other (a miss)")
    func fairSolveWithARareWord() throws {
        let kind = try #require(repoKind)
        let rare = try rareWord(length: 6)
        var g = try #require(kind.game(language: "en", mode: .fair, length: 6, misses: 8, seed: 3))
        #expect(try g.guess(rare) == nil)
        #expect(g.line == "pattern=______ missed=- left=7")
    }

    @Test("Duel: WORD takes any word of the list, a rare one too, and SOLVE with it wins")
    func duelTakesRareWords() throws {
        let kind = try #require(repoKind)
        let rare = try rareWord(length: 7)
        var g = try #require(kind.game(language: "en", mode: .duel, length: 7, misses: 8, seed: 1))
        try g.play(.word(rare), by: 0)
        #expect(try g.guess(rare)?.reason == .solved)
        #expect(g.answer == rare)
        // And a two-letter duel, a length without common words, can be played.
        var short = try #require(kind.game(language: "en", mode: .duel, length: 2, seed: 1))
        try short.play(.word("ox"), by: 0)
    }

    @Test("The computer setting a duel's word picks a common word; without a common word of that length, any word")
    func duelComputerSetterPicksCommonWords() throws {
        let d = try #require(repoDictionaries), kind = try #require(repoKind)
        let common = try #require(d.common["en"]), list = try #require(d["en"])
        for length in 3...12 {
            for seed in UInt64(0)..<20 {
                let g = try #require(kind.game(language: "en", mode: .duel, length: length, seed: seed))
                guard case .word(let w)? = kind.computerMove(in: g, level: .hard) else {
                    Issue.record("no word set at length \(length)")
                    continue
                }
                #expect(common.isWord(w) && w.count == length, "\(length) seed \(seed): \(w)")
            }
        }
        let g = try #require(kind.game(language: "en", mode: .duel, length: 2, seed: 1))
        guard case .word(let w)? = kind.computerMove(in: g, level: .hard) else {
            Issue.record("no word set at length 2")
            return
        }
        #expect(list.isWord(w) && w.count == 2)
    }

    @Test("length= without common words: refused for evil and fair (bad-value), accepted for a duel; length=any picks a length with 100+ common words")
    func lengthsFollowTheCommonList() throws {
        let d = try #require(repoDictionaries), kind = try #require(repoKind)
        for mode in ["evil", "fair"] {
            guard case .failure(let e) = kind.setup(options: ["mode": mode, "length": "2"], saved: [:], language: "en", seed: 1) else {
                Issue.record("\(mode) length=2 was accepted")
                continue
            }
            #expect(e.code == "bad-value")
            #expect(e.message == "no common word of 2 letters in the en list for the computer to set")
        }
        guard case .success(let duel) = kind.setup(options: ["mode": "duel", "length": "2"], saved: [:], language: "en", seed: 1) else {
            Issue.record("duel length=2 was refused")
            return
        }
        #expect(duel.settings == "length=2 misses=8")
        // No length the list has no word of at all, in any mode.
        guard case .failure(let none) = kind.setup(options: ["mode": "duel", "length": "40"], saved: [:], language: "en", seed: 1) else {
            Issue.record("length=40 was accepted")
            return
        }
        #expect(none.message == "no word of 40 letters in the en list")
        let common = try #require(d.common["en"])
        let allowed = Set((1...64).filter { words(of: common, length: $0).count >= HangmanKind.anyLengthMinimumWords })
        for seed in UInt64(0)..<200 {
            guard case .success(let s) = kind.setup(options: ["mode": "evil"], saved: [:], language: "en", seed: seed),
                  let n = s.settings.split(separator: " ").first.flatMap({ Int($0.dropFirst("length=".count)) }) else {
                Issue.record("length=any failed for seed \(seed)")
                continue
            }
            #expect(allowed.contains(n), "seed \(seed): length \(n)")
        }
    }

    @Test("Hand-made lists: common words outside the list are never set; a language without a common list sets from its list")
    func commonWordsWithinTheListAndFallback() throws {
        let d = Dictionaries(lists: ["en": WordList(words: ["cat", "cog", "cot", "dog", "zax"]),
                                     "nl": WordList(words: ["kat", "kam"])],
                             common: ["en": WordList(words: ["cat", "dog", "fox"])])
        let kind = HangmanKind(dictionaries: d, phrases: [:])
        #expect(kind.secretWordCount(language: "en") == 2)
        #expect(kind.secretWordCount(language: "nl") == 2)
        var set: Set<String> = [], nl: Set<String> = []
        for seed in UInt64(0)..<64 {
            set.insert(try #require(kind.game(language: "en", mode: .fair, length: 3, seed: seed)?.answer))
            nl.insert(try #require(kind.game(language: "nl", mode: .fair, length: 3, seed: seed)?.answer))
        }
        #expect(set == ["cat", "dog"])
        #expect(nl == ["kam", "kat"])
        let evil = try #require(kind.game(language: "en", mode: .evil, length: 3, seed: 1))
        #expect(evil.familySize == 2)
    }

    @Test("The computer guesser knows every word of the list; likeliestCommonLetter (the benchmark's second guesser) only the common ones")
    func guessersKnowTheirWords() throws {
        // Whole list: z is in 3 words (zap zig zip). Common words only: c, o and t in 2 each, c first.
        let d = Dictionaries(lists: ["en": WordList(words: ["bob", "cat", "cot", "zap", "zig", "zip"])],
                             common: ["en": WordList(words: ["bob", "cat", "cot"])])
        let g = try #require(HangmanKind(dictionaries: d, phrases: [:]).game(language: "en", mode: .fair, length: 3, seed: 1))
        #expect(g.likeliestLetter == Letter("z"))
        #expect(g.likeliestCommonLetter == Letter("c"))
    }
}
