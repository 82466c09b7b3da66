import Testing
@testable import GhostCore

/// GhostRound.sentence (a game's end, explained) says what the
/// interpolation it replaces said, for any text in its pieces.
@Suite struct SentenceTests {
    @Test("The pieces joined, byte for byte: ASCII, accents, emoji, combining marks, empty pieces")
    func joined() {
        let samples: [[String]] = [[], [""], ["a"], ["\"", "peach", "\" is a word longer than ", "3", " letters, so ", "ann", " loses."],
                                   ["Zo\u{EB}", " ", "caf\u{E9}", "\u{301}", "", "\u{1F47B}"],
                                   [String(repeating: "long piece ", count: 40), "x"]]
        for parts in samples {
            let made = sentenceOf(parts)
            #expect(made == parts.joined())
            #expect(Array(made.utf8) == Array(parts.joined().utf8))
        }
    }

    private func sentenceOf(_ p: [String]) -> String {
        switch p.count {
        case 0: return GhostRound.sentence()
        case 1: return GhostRound.sentence(p[0])
        case 2: return GhostRound.sentence(p[0], p[1])
        case 6: return GhostRound.sentence(p[0], p[1], p[2], p[3], p[4], p[5])
        case 7: return GhostRound.sentence(p[0], p[1], p[2], p[3], p[4], p[5], p[6])
        default: return p.reduce("") { GhostRound.sentence($0, $1) }
        }
    }
}
