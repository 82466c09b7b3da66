import Testing
import GhostCore
import GameKit
import WordLists

/// A deterministic generator, so shuffles are reproducible.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct WordListTests {
    @Test func countsDistinctWords() {
        let list = WordList(words: ["b", "a", "c", "ab"])
        #expect(list.wordCount == 4)
        #expect(list.rejected == 0)
        #expect(list.isWord("ab"))
        #expect(!list.isWord("ba"))
    }

    @Test func emptyList() {
        let list = WordList(words: [String]())
        #expect(list.wordCount == 0)
        #expect(list.rejected == 0)
        #expect(!list.isWord("a"))
        #expect(!list.isProperlyExtended(""))
        #expect(list.node(for: "a") == nil)
        #expect(list.node(for: "") == WordList.root)
    }

    @Test func junkLinesAreRejectedAndCounted() {
        let text = "apple\n42\ndon't\n\u{E9}\n\n\r\nbanana\r\nCherry\na b\ntab\there\nx7\n"
        let list = WordList(text: Array(text.utf8))
        // apple, banana, cherry; rejected: 42, don't, é, "a b", "tab\there", x7.
        #expect(list.wordCount == 3)
        #expect(list.rejected == 6)
        #expect(list.isWord("apple"))
        #expect(list.isWord("banana"))  // CRLF stripped
        #expect(list.isWord("cherry"))  // case folded
        #expect(!list.isWord("don"))
        #expect(!list.isWord("x"))
        #expect(list.node(for: "4") == nil)
    }

    @Test func lastLineWithoutNewlineAndCRLFOnly() {
        let list = WordList(text: Array("pea\r\npear".utf8))
        #expect(list.wordCount == 2)
        #expect(list.rejected == 0)
        #expect(list.isWord("pea"))
        #expect(list.isWord("pear"))
        #expect(!list.isWord("pea\r"))
    }

    @Test func loneCarriageReturnIsNotAWordPart() {
        // A CR that is not right before the LF is not a letter: the line is rejected.
        let list = WordList(text: Array("pe\ra\nok\n".utf8))
        #expect(list.wordCount == 1)
        #expect(list.rejected == 1)
    }

    @Test func unsortedInputGivesTheSameTrie() {
        var words = ["peafowl", "pea", "pear", "peach", "peaches", "a", "aardvark", "abbot", "zebra", "zebras",
                     "eager", "eagle", "eaglet", "earful", "earring", "cat", "cats", "catalog", "b", "ba", "bab"]
        let sorted = WordList(words: words.sorted())
        var rng = SplitMix64(state: 42)
        for _ in 0..<5 {
            words.shuffle(using: &rng)
            let shuffled = WordList(words: words)
            #expect(shuffled.nodes == sorted.nodes)
            #expect(shuffled.wordCount == sorted.wordCount)
            for w in words {
                #expect(shuffled.isWord(w))
                #expect(shuffled.isProperlyExtended(w) == sorted.isProperlyExtended(w))
            }
        }
        let reversed = WordList(words: words.sorted().reversed())
        #expect(reversed.nodes == sorted.nodes)
    }

    @Test func unsortedBigListMatchesSorted() throws {
        let text = try String(contentsOfFile: dictionaryPath("en"), encoding: .utf8)
        var words = text.split(separator: "\n").map(String.init)
        let sorted = WordList(words: words)
        var rng = SplitMix64(state: 7)
        words.shuffle(using: &rng)
        let shuffled = WordList(words: words)
        #expect(shuffled.wordCount == sorted.wordCount)
        #expect(shuffled.nodes == sorted.nodes)
    }

    @Test func duplicatesAreMerged() {
        let dup = WordList(words: ["pear", "pea", "pear", "PEA", "pea", "Pear"])
        let clean = WordList(words: ["pea", "pear"])
        #expect(dup.wordCount == 2)
        #expect(dup.rejected == 0)
        #expect(dup.nodes == clean.nodes)
    }

    @Test func caseInsensitive() throws {
        let list = WordList(words: ["Pear", "PEA"])
        #expect(list.wordCount == 2)
        #expect(list.isWord("pear"))
        #expect(list.isWord("PEAR"))
        #expect(list.isWord("pEaR"))
        #expect(list.isWord("pea"))
        #expect(list.isProperlyExtended("PeA"))
        #expect(list.isProperlyExtended("P"))
        #expect(!list.isProperlyExtended("PEAR"))
        let lower = try #require(list.node(for: "pea"))
        #expect(list.node(for: "PEA") == lower)
        #expect(list.node(for: "pEa") == lower)
        #expect(list.nodes[lower].isWord)
        #expect(list.nodes[lower].childLetters == [Letter("r")!.index])
    }

    @Test func letterIsCaseInsensitive() {
        #expect(Letter("P") == Letter("p"))
        #expect(Letter("P")?.index == 15)
        #expect(Letter(ascii: 0x41) == Letter(ascii: 0x61))
        #expect(Letter("Z")?.description == "z")
        #expect(Letter("a")?.character == "a")
        for bad in ["", "pp", "\u{E9}", "1", "@", "[", "`", "{", " ", "!"] {
            #expect(Letter(bad) == nil, "\(bad)")
        }
        #expect(Letter(index: 26) == nil)
        #expect(Letter.all.count == 26)
        #expect(Letter.all.map(\.description).joined() == "abcdefghijklmnopqrstuvwxyz")
    }

    @Test func missingChildrenAreNil() throws {
        let list = WordList(words: ["pea"])
        #expect(list.child(WordList.root, Letter("x")!.index) == nil)
        let p = try #require(list.child(WordList.root, Letter("p")!.index))
        #expect(list.child(p, Letter("e")!.index) != nil)
        #expect(list.child(p, Letter("a")!.index) == nil)
        #expect(list.child(WordList.root, 26) == nil)
        #expect(list.child(WordList.root, 255) == nil)
        #expect(list.child(-1, 0) == nil)
        #expect(list.child(list.nodes.count, 0) == nil)
        #expect(list.child(Int.max, 0) == nil)
        #expect(list.node(for: "px") == nil)
        #expect(list.node(for: "peax") == nil)
        #expect(list.node(for: "p") == p)
        #expect(list.node(for: "") == WordList.root)
    }

    @Test func nonLettersHaveNoNode() {
        let list = WordList(words: ["pea", "pear"])
        let rules = GhostRules(words: list)
        for fragment in ["p1", "p\u{E9}", "p a", "pe-", "@", "[", "`", "{", "p\u{0}", "\u{1B}", "\u{FF}", "pea\n", "pea\r",
                         "\u{1F600}", "P\u{301}"] {
            let shown = Array(fragment.utf8)
            #expect(list.node(for: fragment) == nil, "\(shown)")
            #expect(!list.isWord(fragment), "\(shown)")
            #expect(!list.isProperlyExtended(fragment), "\(shown)")
            #expect(rules.verdict(fragment) == .dead, "\(shown)")
        }
    }

    @Test func realEnglishList() throws {
        let en = try #require(englishWords)
        #expect(en.wordCount == 63_993)
        #expect(en.rejected == 0)
        #expect(en.isWord("peafowl"))
        #expect(en.isWord("PeaFowl"))
        #expect(!en.isWord("peafowls'"))
    }

    @Test func realDutchList() throws {
        let nl = try #require(dutchWords)
        #expect(nl.wordCount == 348_507)
        #expect(nl.rejected == 0)
    }

    @Test func missingFileThrows() {
        #expect(throws: (any Error).self) {
            try WordList(contentsOfFile: dictionaryPath("does-not-exist"))
        }
    }
}
