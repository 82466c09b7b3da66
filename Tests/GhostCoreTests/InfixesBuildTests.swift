import Foundation
import Testing
@testable import GhostCore

/// The infix index's suffix order (Infixes.sortedSuffixes: integer keys of
/// 12 letters, a radix sort, then letter by letter within equal keys)
/// against comparing whole suffixes, which is what it replaced.
@Suite struct InfixesBuildTests {
    private func text(_ words: [String]) -> [UInt8] {
        words.flatMap { Array($0.utf8) + [Infixes.newline] }
    }

    @Test("equal suffixes, suffixes equal in their first 12 letters, and ones that end at 12, in the order of comparing them")
    func longSharedPrefixes() {
        let words = ["abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijkl", "abcdefghijklm", "xabcdefghijklmnop",
                     "cats", "bats", "rats", "ats", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzz", "a", "ab"]
        let t = text(words)
        #expect(Infixes.sortedSuffixes(t) == Infixes.comparedSuffixes(t))
        #expect(Infixes.sortedSuffixes(t).count == words.reduce(0) { $0 + $1.count })
    }

    @Test("bytes other than a to z take the compared path")
    func otherBytes() {
        let t = text(["caf\u{E9}s", "cafe", "\u{7F}abc"])
        #expect(Infixes.sortedSuffixes(t) == Infixes.comparedSuffixes(t))
    }

    @Test("the English list's index: the same order as comparing whole suffixes, and the same words found")
    func english() throws {
        let words = try #require(englishWords)
        var t: [UInt8] = []
        words.forEachWord { word in
            guard word.count >= GhostRules.losingWordLength else { return }
            t += word
            t.append(Infixes.newline)
        }
        #expect(Infixes.sortedSuffixes(t) == Infixes.comparedSuffixes(t))
        let ix = Infixes(words: words)
        #expect(ix.word(containing: Array("ats".utf8)) == "acrobats")
        #expect(ix.contains(Array("eac".utf8)) && !ix.contains(Array("qx".utf8)))
    }
}
