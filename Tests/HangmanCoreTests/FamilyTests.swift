import Testing
import WordLists
@testable import HangmanCore
import GameKit

/// The evil family is compact: bits while large, a list
/// of 32-bit indices once smaller; the same words, in the same order, as a
/// plain list of indices.
@Suite struct FamilyTests {
    @Test("Both forms hold the same words in ascending order: indices, element(at:), first, contains, remove")
    func sameAsAList() {
        var random = SplitMix64(seed: 7)
        for universe in [1, 63, 64, 65, 1000, 5000] {
            for density in [1, 10, 40, 100] {
                let words = (0..<universe).filter { _ in Int(random.next() % 100) < density }.map { Int32($0) }
                var family = Family(universe: universe, ascending: words)
                var plain = words
                #expect(family.count == plain.count)
                #expect(family.bytes <= max(plain.count * 4, (universe + 63) / 64 * 8))
                #expect(family.bytes == (Family.prefersList(size: plain.count, universe: universe)
                                         ? plain.count * 4 : (universe + 63) / 64 * 8))
                for _ in 0..<3 where !plain.isEmpty {
                    #expect(family.indices() == plain)
                    #expect(family.first == plain.first.map(Int.init))
                    for k in [0, plain.count / 2, plain.count - 1] { #expect(family.element(at: k) == Int(plain[k])) }
                    #expect(family.element(at: plain.count) == nil)
                    let gone = plain.remove(at: Int(random.next() % UInt64(plain.count)))
                    #expect(family.contains(Int(gone)))
                    family.remove(Int(gone))
                    #expect(!family.contains(Int(gone)) && family.count == plain.count)
                }
                #expect(!family.contains(universe) && !family.contains(-1))
            }
        }
    }

    @Test("An evil game's family takes at most one bit per word of its length (it was 4 bytes a word)")
    func evilGameIsCompact() throws {
        let kind = try #require(englishKind)
        var g = try #require(kind.game(language: "en", mode: .evil, length: 8, seed: 1))
        let words = g.familySize
        #expect(words > 1000)
        #expect(g.familyBytes == 0)          // every word open: nothing held
        try g.play(.letter(Letter("q")!), by: 1)
        #expect(g.familySize > words / 2)
        #expect(g.familyBytes <= (words + 63) / 64 * 8)
        for l in "eaiost" where !g.isOver {
            try g.play(.letter(Letter(String(l))!), by: 1)
            #expect(g.familyBytes <= min((words + 63) / 64 * 8, max(g.familySize * 4, (words + 63) / 64 * 8)))
        }
    }
}
