import GameKit
import WordLists
import GhostWire
/// Norvig's "minimizing possible outcomes" (pytudes, Ghost.ipynb): a
/// strategy small enough for a person to learn, as the set of words a game
/// can end on.
extension Solver {
    /// The smallest set of outcome words of a game from the empty fragment
    /// when `player` (0 moves first, 1 second) plays by Norvig's priority and
    /// the opponent may play anything: at `player`'s turns the letter whose
    /// set has the fewest losses (none, some, all), then the fewest words,
    /// then the fewest letters (the first such letter a–z on a tie); at the
    /// opponent's turns the union over every letter. An outcome is a
    /// fragment that ends the game (a losing word, or under the rule of
    /// record a short word nothing extends); the player who did not make it
    /// wins, so `player` wins an outcome of even length when first (0), odd
    /// when second. Letters that leave the list are not counted (Norvig's
    /// legal plays). Sorted alphabetically.
    public func outcomes(for player: Int) -> [String] {
        let words = rules.words
        let nodes = words.nodes
        guard !nodes.isEmpty else { return [] }
        // Per node: its length, its parent and its last letter (to spell it).
        var lengths = [Int32](repeating: 0, count: nodes.count)
        var parents = [Int32](repeating: -1, count: nodes.count)
        var lastLetters = [UInt8](repeating: 0, count: nodes.count)
        for i in nodes.indices where nodes[i].hasChildren {
            var child = Int(nodes[i].first)
            for letter in 0..<UInt8(26) where nodes[i].bits & (1 << UInt32(letter)) != 0 {
                lengths[child] = lengths[i] + 1
                parents[child] = Int32(i)
                lastLetters[child] = 0x61 + letter
                child += 1
            }
        }
        /// Per node: its outcome set (node indices) and its priority's parts.
        struct Entry {
            var ends: [Int32] = []
            var wins = 0
            var letters = 0
            var priority: (Int, Int, Int) {
                let lossiness = wins == ends.count ? 0 : (wins > 0 ? 1 : 2)
                return (lossiness, ends.count, letters)
            }
        }
        var entries = [Entry](repeating: Entry(), count: nodes.count)
        // Children sit after their parent (see Solver.init): a reverse sweep
        // settles every child first.
        for i in nodes.indices.reversed() {
            let length = Int(lengths[i])
            if i != WordList.root && rules.verdict(node: i, length: length) != .alive {
                let won = length % 2 == player
                entries[i] = Entry(ends: [Int32(i)], wins: won ? 1 : 0, letters: length)
                continue
            }
            let n = nodes[i]
            let first = Int(n.first)
            let count = (n.bits & ((1 << 26) - 1)).nonzeroBitCount
            guard count > 0 else { continue }
            if length % 2 == player {
                var best = first
                for child in (first + 1)..<(first + count) where entries[child].priority < entries[best].priority {
                    best = child
                }
                entries[i] = entries[best]
            } else {
                // The children's subtrees are disjoint: the union is a concatenation.
                var union = Entry()
                for child in first..<(first + count) {
                    union.ends += entries[child].ends
                    union.wins += entries[child].wins
                    union.letters += entries[child].letters
                }
                entries[i] = union
            }
            // Nothing above needs a child's set again.
            for child in first..<(first + count) { entries[child].ends = [] }
        }
        return entries[WordList.root].ends.map { end in
            var letters: [UInt8] = []
            var node = Int(end)
            while node != WordList.root {
                letters.append(lastLetters[node])
                node = Int(parents[node])
            }
            return String(decoding: letters.reversed(), as: UTF8.self)
        }.sorted()
    }
}
