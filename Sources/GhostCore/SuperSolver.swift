import Synchronization

/// Perfect play for Superghost, as in Norvig's notebook: the player to move
/// at a live fragment wins iff some play (a letter at the front or the back)
/// makes a live fragment from which the opponent loses; a play that makes a
/// word of 4+ letters, or a fragment no word contains, loses on the spot.
///
/// Unlike Ghost's, the positions are not the nodes of one trie, so they are
/// solved on demand and remembered: a look-up once a position has been seen.
/// Shared by every game of a language, behind a lock.
public final class SuperSolver: Sendable {
    public let rules: GhostRules
    /// Live fragment → does the player to move win?
    private let memo = Mutex<[[UInt8]: Bool]>([:])

    public init(rules: GhostRules) {
        self.rules = rules
    }

    /// A letter and the end it goes to.
    public struct Play: Sendable, Hashable, CustomStringConvertible {
        public let letter: Letter
        public let front: Bool
        public init(_ letter: Letter, front: Bool) {
            self.letter = letter
            self.front = front
        }
        /// `fragment` with this play made.
        public func applied(to fragment: [UInt8]) -> [UInt8] {
            let c = letter.character.asciiValue ?? 0x61
            return front ? [c] + fragment : fragment + [c]
        }
        public var move: Move { front ? .front(letter) : .letter(letter) }
        /// `<c` at the front, `c` at the back, as the store writes them.
        public var description: String { move.encoded }
    }

    /// The 52 plays: every letter at the back, then every letter at the front.
    public static let plays: [Play] = Letter.all.map { Play($0, front: false) } + Letter.all.map { Play($0, front: true) }

    /// What a play does, for the player who makes it.
    public struct Judged: Sendable, Equatable {
        public let play: Play
        /// Nil when the budget ran out before the play was settled.
        public let kind: Solver.MoveKind?
        /// After this play: the opponent's winning replies among those settled.
        public let opponentWinningReplies: Int
    }

    /// How many new positions one call may solve by default. A position
    /// costs 15–30 µs (the English opening: 102,694 in 1.7 s; the Dutch one:
    /// 1,038,688 in 31 s), so 1,000 hold the event loop (a computer move, or
    /// a step of the background warm-up, which takes the same lock) for
    /// 15–30 ms at most. The work is kept, so the next call goes on from there.
    public static let defaultBudget = 1_000

    /// Positions remembered at most (about 100 bytes each): past this, the
    /// memory is cleared at the start of the next call and solving starts
    /// over. Room for the Dutch opening (1,038,688) and the games after it.
    public static let maxPositions = 1_500_000

    /// Whether the player to move at `fragment` (a live one) wins with perfect play.
    public func isWinning(_ fragment: some StringProtocol) -> Bool {
        var budget = Int.max
        let f = Array(fragment.utf8)
        return memo.withLock { memo in SuperSolver.bound(&memo); return wins(f, &memo, &budget) } ?? false
    }

    /// Whether the player to move at `fragment` wins, if that is known
    /// within `budget` new positions, which it takes from (what was settled
    /// on the way is kept); nil otherwise (`REVIEW` asks so, and never holds
    /// the loop for long).
    public func isWinning(_ fragment: some StringProtocol, budget: inout Int) -> Bool? {
        let f = Array(fragment.utf8)
        return memo.withLock { memo in SuperSolver.bound(&memo); return wins(f, &memo, &budget) }
    }

    /// Solves `fragment` in steps of `budget` positions, letting go of the
    /// lock between them (a background warm-up: games go on meanwhile). A
    /// step smaller than the deepest line of play settles nothing (each
    /// position on the way takes one of the budget before its replies), so a
    /// step that made no progress is followed by one twice as large.
    public func solve(_ fragment: some StringProtocol, step budget: Int = SuperSolver.defaultBudget) {
        let f = Array(fragment.utf8)
        var step = max(budget, 1)
        while true {
            var left = step
            let (done, progressed) = memo.withLock { memo -> (Bool, Bool) in
                SuperSolver.bound(&memo)
                let before = memo.count
                let done = wins(f, &memo, &left) != nil
                return (done, memo.count > before)
            }
            if done { return }
            if !progressed { step *= 2 }
        }
    }

    /// The plays that win from `fragment` for the player to move.
    public func winningPlays(_ fragment: some StringProtocol) -> [Play] {
        moves(fragment, budget: Int.max).filter { $0.kind == .winning }.map(\.play)
    }

    /// Every play from `fragment`, judged within `budget` new positions.
    public func moves(_ fragment: some StringProtocol, budget: Int = Int.max) -> [Judged] {
        let f = Array(fragment.utf8)
        var left = budget
        return memo.withLock { memo in
            SuperSolver.bound(&memo)
            let judged: [(Play, Bool?)] = SuperSolver.plays.map { play in
                let next = play.applied(to: f)
                guard rules.superVerdict(next) == .alive else { return (play, nil) }
                return (play, wins(next, &memo, &left).map { !$0 })
            }
            return judged.map { play, moverWins in
                let next = play.applied(to: f)
                guard rules.superVerdict(next) == .alive else {
                    return Judged(play: play, kind: .losesAtOnce, opponentWinningReplies: 0)
                }
                let replies = SuperSolver.plays.count { reply in
                    let after = reply.applied(to: next)
                    return rules.superVerdict(after) == .alive && wins(after, &memo, &left) == false
                }
                return Judged(play: play, kind: moverWins.map { $0 ? .winning : .losing }, opponentWinningReplies: replies)
            }
        }
    }

    /// Keeps the memory within `maxPositions`.
    private static func bound(_ memo: inout [[UInt8]: Bool]) {
        if memo.count > maxPositions { memo.removeAll() }
    }

    /// How many positions have been solved so far.
    public var solvedCount: Int { memo.withLock { $0.count } }

    /// Minimax, remembered: a win is a play to a live fragment the opponent
    /// loses from. Nil when `budget` new positions ran out first (what was
    /// settled on the way is kept).
    private func wins(_ f: [UInt8], _ memo: inout [[UInt8]: Bool], _ budget: inout Int) -> Bool? {
        if let known = memo[f] { return known }
        guard budget > 0 else { return nil }
        budget -= 1
        var result = false
        for play in SuperSolver.plays {
            let next = play.applied(to: f)
            guard rules.superVerdict(next) == .alive else { continue }
            guard let opponentWins = wins(next, &memo, &budget) else { return nil }
            if !opponentWins {
                result = true
                break
            }
        }
        memo[f] = result
        return result
    }
}
