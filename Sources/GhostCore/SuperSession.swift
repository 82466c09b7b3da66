extension SuperSolver {
    /// One call's solving (a computer move, a hint, a review, a background
    /// step): minimax over the memory, with at most `budget` new positions.
    /// What it settles is kept apart (`fresh`) and added to the memory at
    /// the end (`finish`), and, for a call that waits, every
    /// `publishBatch` positions on the way.
    ///
    /// Each question takes the memory's read lock for its length: a call
    /// that `waits` takes it as it comes (a writer holds it only to add a
    /// batch); one that does not (the event loop) tries it, and without it
    /// reads nothing from the memory: it then settles what it can from its
    /// own positions within its budget, so it answers at once either way.
    /// Used on one thread at a time.
    final class Session: @unchecked Sendable {
        let solver: SuperSolver
        /// New positions it may still settle.
        var budget: Int
        let waits: Bool
        /// Positions it settled and has not added to the memory yet.
        private var fresh = SuperMemo.Table()
        /// How many positions it settled.
        private(set) var settled = 0
        /// Whether it holds the memory's read lock now.
        private var reading = false
        /// The last fragment a question could not settle (`REVIEW` has it solved next).
        private(set) var unknown: [UInt8]?

        init(_ solver: SuperSolver, budget: Int, waits: Bool) {
            self.solver = solver
            self.budget = budget
            self.waits = waits
        }

        /// Whether the player to move at the live `fragment` wins; nil if not settled within the budget.
        func wins(_ fragment: [UInt8]) -> Bool? {
            let result = withMemo { search(fragment) }
            if result == nil { unknown = fragment }
            return result
        }

        /// Every play from `fragment`, judged (the budget goes to the plays
        /// first, then to their replies); `replies: false` leaves the replies
        /// uncounted (0), for a caller that needs only the plays' kinds.
        func moves(_ fragment: [UInt8], replies: Bool) -> [Judged] {
            withMemo {
                let next = SuperSolver.plays.map { $0.applied(to: fragment) }
                let alive = next.map { solver.rules.superVerdict($0) == .alive }
                let kinds: [Solver.MoveKind?] = next.indices.map { i in
                    guard alive[i] else { return .losesAtOnce }
                    return search(next[i]).map { opponentWins in opponentWins ? .losing : .winning }
                }
                return SuperSolver.plays.indices.map { i in
                    guard alive[i] else { return Judged(play: SuperSolver.plays[i], kind: .losesAtOnce, opponentWinningReplies: 0) }
                    let count = !replies ? 0 : SuperSolver.plays.count { reply in
                        let after = reply.applied(to: next[i])
                        return solver.rules.superVerdict(after) == .alive && search(after) == false
                    }
                    return Judged(play: SuperSolver.plays[i], kind: kinds[i], opponentWinningReplies: count)
                }
            }
        }

        /// Whether Hard's play at `fragment` is settled, settling it within
        /// the budget: the position's value, then its plays in order up to a
        /// winning one (all of them when it is lost), as `SuperBot.isSettled` asks.
        func settlesChoice(_ fragment: [UInt8]) -> Bool {
            withMemo {
                guard search(fragment) != nil else { return false }
                for play in SuperSolver.plays {
                    let next = play.applied(to: fragment)
                    guard solver.rules.superVerdict(next) == .alive else { continue }
                    guard let opponentWins = search(next) else { return false }
                    if !opponentWins { return true }
                }
                return true
            }
        }

        /// Adds what it settled to the memory (a call that waits), or leaves
        /// it for the next writer and says so (`onHandOff`).
        func finish() {
            guard !fresh.isEmpty else { return }
            if waits {
                solver.memo.publish(fresh)
            } else if solver.memo.handOff(fresh) {
                solver.onHandOff?(solver)
            }
            fresh = SuperMemo.Table()
        }

        private func withMemo<R>(_ body: () -> R) -> R {
            if waits {
                solver.memo.lockRead()
                reading = true
            } else {
                reading = solver.memo.tryLockRead()
            }
            defer {
                if reading { solver.memo.unlockRead() }
                reading = false
            }
            return body()
        }

        /// Minimax, remembered: a win is a play to a live fragment the
        /// opponent loses from. Nil when the budget ran out first.
        private func search(_ f: [UInt8]) -> Bool? {
            if let known = fresh[f] { return known }
            if reading, let known = solver.memo.lookup(f) { return known }
            guard budget > 0 else { return nil }
            budget -= 1
            var result = false
            for play in SuperSolver.plays {
                let next = play.applied(to: f)
                guard solver.rules.superVerdict(next) == .alive else { continue }
                guard let opponentWins = search(next) else { return nil }
                if !opponentWins {
                    result = true
                    break
                }
            }
            fresh[f] = result
            settled += 1
            if waits, fresh.count >= SuperSolver.publishBatch { flush() }
            return result
        }

        /// Adds the positions settled so far, letting go of the read lock
        /// meanwhile (a writer waits for every reader).
        private func flush() {
            if reading { solver.memo.unlockRead() }
            solver.memo.publish(fresh)
            fresh = SuperMemo.Table()
            if reading { solver.memo.lockRead() }
        }
    }
}
