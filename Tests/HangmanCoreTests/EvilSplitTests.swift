import Testing
import WordLists
@testable import HangmanCore

/// The evil guess's fast split (`EvilSplit`: 8 letters at a time, the parts
/// counted in an open-addressed table, the kept words straight into the
/// family's compact form) against a plain one written here: each word's
/// positions letter by letter, the parts in a Dictionary, the best by sorting
/// on the rule's keys. Many families and letters, on the English list (every
/// word a row), its common words (rows of the list's table), and words up to
/// 64 letters that hold a letter many times.
@Suite struct EvilSplitTests {
    /// The plain split: (positions, kept words ascending).
    static func reference(_ words: WordsOfLength, _ family: [Int], _ c: UInt8) -> (UInt64, [Int32]) {
        var parts: [UInt64: [Int32]] = [:]
        for i in family {
            var mask: UInt64 = 0
            for (p, b) in words.word(i).enumerated() where b == c { mask |= 1 << UInt64(p) }
            parts[mask, default: []].append(Int32(i))
        }
        parts[0, default: []] += []
        // The rule: larger; then without the letter; then fewer occurrences; then the larger mask.
        let best = parts.sorted { a, b in
            if a.value.count != b.value.count { return a.value.count > b.value.count }
            if (a.key == 0) != (b.key == 0) { return a.key == 0 }
            if a.key.nonzeroBitCount != b.key.nonzeroBitCount { return a.key.nonzeroBitCount < b.key.nonzeroBitCount }
            return a.key > b.key
        }[0]
        return (best.key, best.value)
    }

    /// Checks the fast split of `family` (nil: every word) by each of `letters`.
    static func check(_ words: WordsOfLength, _ family: [Int]?, _ letters: some Sequence<UInt8>,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let compact = family.map { Family(universe: words.count, ascending: $0.map { Int32($0) }) }
        for c in letters {
            let fast = EvilSplit.split(words, family: compact, letter: c)
            let (positions, kept) = reference(words, family ?? Array(0..<words.count), c)
            #expect(fast.positions == positions, "length \(words.length), \(family?.count ?? words.count) words, letter \(UnicodeScalar(c))",
                    sourceLocation: sourceLocation)
            #expect(fast.family.indices() == kept, "length \(words.length), letter \(UnicodeScalar(c))", sourceLocation: sourceLocation)
            #expect(fast.family.count == kept.count && fast.family.universe == words.count, sourceLocation: sourceLocation)
            #expect(fast.family.bytes == Family(universe: words.count, ascending: kept).bytes, sourceLocation: sourceLocation)
        }
    }

    /// Random families of `words`: a few densities, one word, two words.
    static func families(_ words: WordsOfLength, _ random: inout SplitMix64) -> [[Int]] {
        let n = words.count
        guard n > 0 else { return [] }
        var out: [[Int]] = [[Int(random.next() % UInt64(n))]]
        if n > 1 { out.append([0, n - 1]) }
        for density in [2, 20, 70] {
            out.append((0..<n).filter { _ in Int(random.next() % 100) < density })
        }
        return out.filter { !$0.isEmpty }
    }

    @Test("The fast split equals the plain one: the English list, every length, its whole family and random ones")
    func englishList() throws {
        let lexicon = try #require(englishKind?.lexicons["en"])
        var random = SplitMix64(seed: 29)
        let all = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        for words in lexicon.byLength where words.count > 0 {
            // The first guess of a game: every word, with the letters a guesser tries first and a rare one.
            Self.check(words, nil, words.count > 3000 ? Array("esaq".utf8) : all)
            for family in Self.families(words, &random) {
                Self.check(words, family, (0..<4).map { _ in all[Int(random.next() % 26)] })
            }
        }
    }

    @Test("The fast split equals the plain one on the common words (rows of the list's table)")
    func commonWords() throws {
        let secrets = try #require(repoKind?.secretLexicons["en"])
        var random = SplitMix64(seed: 30)
        let all = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        for words in secrets.byLength where words.count > 0 {
            Self.check(words, nil, words.count > 3000 ? Array("ei".utf8) : Array("eioz".utf8))
            for family in Self.families(words, &random) {
                Self.check(words, family, (0..<3).map { _ in all[Int(random.next() % 26)] })
            }
        }
    }

    @Test("Long words, a letter many times, lengths around 8 and 64: the chunks and the last row")
    func longWordsAndRepeats() throws {
        var random = SplitMix64(seed: 31)
        var list: [String] = []
        for length in [1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64] {
            for _ in 0..<40 {
                // Mostly a and b, so that a part holds a letter at many positions.
                list.append(String((0..<length).map { _ in Character(UnicodeScalar(UInt8(0x61 + Int(random.next() % 3)))) }))
            }
        }
        let lexicon = try #require(kind(Array(Set(list)).sorted()).lexicons["en"])
        for words in lexicon.byLength where words.count > 0 {
            Self.check(words, nil, Array("abcz".utf8))
            for family in Self.families(words, &random) { Self.check(words, family, Array("abc".utf8)) }
        }
    }

    @Test("A whole evil game keeps the plain split's family at each guess")
    func wholeGames() throws {
        let secrets = try #require(repoKind?.secretLexicons["en"])
        for length in [4, 7, 11] {
            let words = try #require(secrets.words(length: length))
            var family = Array(0..<words.count)
            for c in "esiarntolcdupmghbyfvkwzxqj".utf8 where family.count > 1 {
                let fast = EvilSplit.split(words, family: family.count == words.count ? nil
                                            : Family(universe: words.count, ascending: family.map { Int32($0) }), letter: c)
                let (positions, kept) = Self.reference(words, family, c)
                #expect(fast.positions == positions && fast.family.indices() == kept)
                family = kept.map(Int.init)
            }
        }
    }
}

/// The first guess's split is made once per table and letter (`FirstSplits`)
/// and shared: the same as the fast split made afresh, and never another
/// table's (the common words share the list's arrays, not its splits).
@Suite struct FirstSplitsTests {
    @Test("A kept first split is the fresh one, the list's and the common words' apart")
    func keptSplitsAreTheFreshOnes() throws {
        let lexicons = try #require(repoKind?.lexicons["en"])
        let secrets = try #require(repoKind?.secretLexicons["en"])
        for length in [3, 6, 9] {
            let all = try #require(lexicons.words(length: length)), common = try #require(secrets.words(length: length))
            #expect(all.count > common.count)
            for c in "eaz".utf8 {
                // The whole list's first, so that a shared memo would hand the common words the list's split.
                for (words, twice) in [(all, 0), (common, 0), (all, 1), (common, 1)] {
                    let kept = words.split(nil, letter: c)
                    let (positions, family) = EvilSplitTests.reference(words, Array(0..<words.count), c)
                    #expect(kept.positions == positions && kept.family.indices() == family,
                            "length \(length) letter \(UnicodeScalar(c)), \(twice == 0 ? "made" : "kept")")
                }
            }
        }
    }

    @Test("Two evil games of a length play the same first guess, and go on alike")
    func gamesShareTheFirstGuess() throws {
        let kind = try #require(repoKind)
        var a = try #require(kind.game(language: "en", mode: .evil, length: 7, seed: 1))
        var b = try #require(kind.game(language: "en", mode: .evil, length: 7, seed: 2))
        for l in ["e", "s", "i"] {
            try a.guess(l)
            try b.guess(l)
            #expect(a.line == b.line && a.familySize == b.familySize && a.familyExample == b.familyExample)
        }
        #expect(a.line == "pattern=____i__ missed=es left=6" && a.familySize == 512 && a.familyExample == "abating")
    }
}
