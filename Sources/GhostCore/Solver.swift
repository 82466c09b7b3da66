import GameKit
import WordLists
import GhostWire
/// Perfect play for Ghost on a word list, under the rule of record.
///
/// Every trie node is a fragment. The player to move at a fragment wins iff
/// some letter makes a fragment that is still alive (not a word of 4+ letters,
/// and properly extended) from which the opponent, now to move, loses. A
/// letter that ends the game on the spot loses for whoever plays it. One
/// depth-first pass over the trie settles every node.
public struct Solver: Sendable {
    public let rules: GhostRules
    /// Per node: does the player to move win?
    private let wins: [Bool]
    /// Per node: the most letters that can still be added before the game ends
    /// (how long the game can last from here).
    private let reach: [UInt8]
    /// Per node: how many letters win for the player to move.
    private let winningCount: [UInt8]

    public init(rules: GhostRules) {
        self.rules = rules
        let nodes = rules.words.nodes
        var wins = [Bool](repeating: false, count: nodes.count)
        var reach = [UInt8](repeating: 0, count: nodes.count)
        var winningCount = [UInt8](repeating: 0, count: nodes.count)
        // Children always have larger indices than their parent (the builder
        // reserves a node's children after the node), so a reverse sweep
        // visits every child before its parent: no recursion needed.
        var lengths = [UInt8](repeating: 0, count: nodes.count)
        for i in nodes.indices {
            let n = nodes[i]
            let letters = n.bits & ((1 << 26) - 1)
            if letters != 0 {
                let first = Int(n.first)
                for k in 0..<letters.nonzeroBitCount { lengths[first + k] = lengths[i] &+ 1 }
            }
        }
        for i in nodes.indices.reversed() {
            let n = nodes[i]
            let letters = n.bits & ((1 << 26) - 1)
            guard letters != 0 else { continue }
            let first = Int(n.first)
            var count: UInt8 = 0
            var longest: UInt8 = 0
            for k in 0..<letters.nonzeroBitCount {
                let child = first + k
                guard rules.verdict(node: child, length: Int(lengths[child])) == .alive else { continue }
                longest = max(longest, reach[child] &+ 1)
                if !wins[child] { count += 1 }
            }
            // A move that ends the game still adds a letter.
            reach[i] = max(longest, 1)
            winningCount[i] = count
            wins[i] = count > 0
        }
        // A fragment that already ended the game (a long word, a dead end) is
        // not a position anyone moves from: nobody wins it.
        for i in nodes.indices.dropFirst() where rules.verdict(node: i, length: Int(lengths[i])) != .alive {
            wins[i] = false
        }
        self.wins = wins
        self.reach = reach
        self.winningCount = winningCount
    }

    /// Whether the player to move at `fragment` wins with perfect play.
    /// A fragment no word starts with is a finished game: false.
    public func isWinning(_ fragment: some StringProtocol) -> Bool {
        rules.words.node(for: fragment).map { wins[$0] } ?? false
    }

    public func isWinning(node: Int) -> Bool { node >= 0 && node < wins.count && wins[node] }

    /// What a letter does from the position at `node` (a fragment of `length` letters).
    public enum MoveKind: Sendable, Equatable {
        /// The game goes on and the player who moved wins with perfect play.
        case winning
        /// The game goes on, but the opponent can now force a win.
        case losing
        /// The letter ends the game on the spot, against the player who plays it.
        case losesAtOnce
    }

    public struct Move: Sendable, Equatable {
        public let letter: Letter
        public let kind: MoveKind
        /// After this letter: the opponent's number of winning replies.
        public let opponentWinningReplies: Int
        /// After this letter: how many more letters the game can last at most.
        public let reach: Int
    }

    /// Every letter a–z from the position at `node`, judged.
    public func moves(node: Int, length: Int) -> [Move] {
        Letter.all.map { letter in
            guard let child = rules.words.child(node, letter.index),
                  rules.verdict(node: child, length: length + 1) == .alive else {
                return Move(letter: letter, kind: .losesAtOnce, opponentWinningReplies: 0, reach: 0)
            }
            return Move(letter: letter, kind: wins[child] ? .losing : .winning,
                        opponentWinningReplies: Int(winningCount[child]), reach: Int(reach[child]))
        }
    }

    /// The letters that win from `fragment` for the player to move.
    public func winningLetters(_ fragment: some StringProtocol) -> [Letter] {
        guard let node = rules.words.node(for: fragment),
              fragment.isEmpty || rules.verdict(node: node, length: fragment.utf8.count) == .alive else { return [] }
        return moves(node: node, length: fragment.utf8.count).filter { $0.kind == .winning }.map(\.letter)
    }
}
