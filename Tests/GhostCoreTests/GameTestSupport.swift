import GhostCore
import GameKit
import WordLists

/// The seeded generator random tests use, so they are reproducible.
typealias SeededRandom = SplitMix64

/// A letter from a one-character string, for readable tests.
func L(_ c: Character) -> Letter { Letter(String(c))! }

/// Letters as one string in a–z order, e.g. [j, z] → "jz".
func spelled(_ letters: [Letter]) -> String { String(letters.sorted().map(\.character)) }

/// Ghost solved straight from the rule of record, over strings and a set of
/// words: no trie, no shared code with `Solver`. Memoised per fragment.
final class BruteGhost {
    let words: Set<String>
    private var memo: [String: Bool] = [:]
    private var reachMemo: [String: Int] = [:]
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz")

    init(_ words: some Sequence<String>) { self.words = Set(words.map { $0.lowercased() }) }

    /// Some word is longer than `f` and starts with it.
    func properlyExtended(_ f: String) -> Bool {
        words.contains { $0.count > f.count && $0.hasPrefix(f) }
    }

    /// Some word starts with `f` (it is a node of the trie).
    func isPrefix(_ f: String) -> Bool { words.contains { $0.hasPrefix(f) } }

    /// The player who just made `f` has not lost: `f` is not a word of 4+
    /// letters (rule 1), and some word properly extends it (rule 2).
    func alive(_ f: String) -> Bool {
        if f.count >= 4 && words.contains(f) { return false }
        return properlyExtended(f)
    }

    /// The player to move at the (alive) fragment `f` can force a win: some
    /// letter keeps the game alive and leaves the opponent in a lost position.
    func wins(_ f: String) -> Bool {
        if let w = memo[f] { return w }
        let w = BruteGhost.alphabet.contains { c in
            let g = f + String(c)
            return alive(g) && !wins(g)
        }
        memo[f] = w
        return w
    }

    /// The letters that win at `f`, a–z.
    func winningLetters(_ f: String) -> String {
        String(BruteGhost.alphabet.filter { c in
            let g = f + String(c)
            return alive(g) && !wins(g)
        })
    }

    /// The most letters that can still be added from `f` (a trie node with
    /// children) until the game ends, the ending letter included.
    func reach(_ f: String) -> Int {
        if let r = reachMemo[f] { return r }
        var best = 0
        for c in BruteGhost.alphabet {
            let g = f + String(c)
            guard isPrefix(g) else { continue }
            best = max(best, alive(g) ? reach(g) + 1 : 1)
        }
        reachMemo[f] = best
        return best
    }

    /// Every fragment some word starts with ("" included): the trie's nodes.
    var fragments: [String] {
        var out: Set<String> = [""]
        for w in words {
            for n in 0...w.count { out.insert(String(w.prefix(n))) }
        }
        return out.sorted()
    }
}

extension GhostVariant {
    /// A round replayed from its letters, or nil if they do not make a
    /// position still in play (the server restores a game by replaying its
    /// stored moves through `play`; only tests start from a fragment).
    init?(rules: GhostRules, firstToMove: Int, replaying fragment: String) {
        self.init(rules: rules, firstToMove: firstToMove)
        for ch in fragment {
            guard let letter = Letter(String(ch)) else { return nil }
            do { _ = try play(letter, by: toMove) } catch { return nil }
            if isOver { return nil }
        }
    }
}
