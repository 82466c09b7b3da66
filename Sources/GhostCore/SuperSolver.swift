import GameKit
import WordLists
import GhostWire
/// Perfect play for Superghost, as in Norvig's notebook: the player to move
/// at a live fragment wins iff some play (a letter at the front or the back)
/// makes a live fragment from which the opponent loses; a play that makes a
/// word of 4+ letters, or a fragment no word contains, loses on the spot.
///
/// Unlike Ghost's, the positions are not the nodes of one trie, so they are
/// solved on demand and remembered (`SuperMemo`, at most `maxPositions`): a
/// look-up once a position has been settled. Shared by every game of a
/// language. Each call is a `Session`: it reads the memory under its read
/// lock (beside every other reader), keeps what it settles apart, and adds
/// it afterwards, a batch at a time. A call that `waits` (off the event
/// loop) takes the locks as they come; one that does not (the loop's, from
/// `GhostKind`) never waits for a lock: without the read lock it reads
/// nothing (and settles what it can within its budget on its own), and it
/// leaves what it settled for the next writer (`onHandOff`).
public final class SuperSolver: Sendable {
    public let rules: GhostRules
    /// Live fragment → does the player to move win? (settled positions only)
    let memo: SuperMemo
    /// Called after a call that does not wait left positions for the next
    /// writer (`GhostKind` queues their merge off the loop).
    let onHandOff: (@Sendable (SuperSolver) -> Void)?

    public convenience init(rules: GhostRules, maxPositions: Int = SuperSolver.maxPositions) {
        self.init(rules: rules, maxPositions: maxPositions, onHandOff: nil)
    }

    init(rules: GhostRules, maxPositions: Int, onHandOff: (@Sendable (SuperSolver) -> Void)?) {
        self.rules = rules
        self.memo = SuperMemo(maxPositions: maxPositions, keptLetters: SuperSolver.keptLetters)
        self.onHandOff = onHandOff
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

    /// How many new positions one call may solve by default, and one step
    /// of a background solve (`SuperSolving`). A position costs 15–30 µs
    /// (the English opening and its first plays: 102,715 in 1.5 s; the
    /// Dutch ones: 1,038,688 in 20 s), so 1,000 take 15–30 ms. The work is
    /// kept, so the next call goes on from there.
    public static let defaultBudget = 1_000

    /// Positions remembered at most per language (about 30 bytes each, 16
    /// of them the key): past this, only the fragments of at most
    /// `keptLetters` letters are kept and the rest is solved again as games
    /// reach it. Room for the Dutch opening (1,038,688) and the games after it.
    public static let maxPositions = 1_500_000

    /// The fragments kept when the memory is full: those of at most 3
    /// letters (a few thousand: the openings every game goes through).
    public static let keptLetters = 3

    /// New positions a call that waits keeps apart at most before adding
    /// them to the memory: the most one hold of its write lock adds (a
    /// loop call's hand-off adds at most `GhostKind.reviewBudget`). Measured:
    /// at most 0.6 ms of CPU a hold, solving the Dutch opening.
    public static let publishBatch = 1_024

    /// Whether the player to move at `fragment` (a live one) wins with perfect play.
    public func isWinning(_ fragment: some StringProtocol) -> Bool {
        withSession(budget: Int.max, waits: true) { $0.wins(Array(fragment.utf8)) } ?? false
    }

    /// Whether the player to move at `fragment` wins, if that is known
    /// within `budget` new positions, which it takes from (what was settled
    /// on the way is kept); nil otherwise.
    public func isWinning(_ fragment: some StringProtocol, budget: inout Int) -> Bool? {
        let session = Session(self, budget: budget, waits: true)
        defer {
            budget = session.budget
            session.finish()
        }
        return session.wins(Array(fragment.utf8))
    }

    /// Solves `fragment` in steps of `budget` positions, until Hard's play
    /// there is settled (its value, and its plays up to a winning one). A
    /// step smaller than the deepest line of play settles nothing (each
    /// position on the way takes one of the budget before its replies), so
    /// a step that made no progress is followed by one twice as large.
    public func solve(_ fragment: some StringProtocol, step budget: Int = SuperSolver.defaultBudget) {
        let f = Array(fragment.utf8)
        var step = max(budget, 1)
        while true {
            let (done, progressed) = solveStep(f, goal: .choice, budget: step)
            if done { return }
            if !progressed { step = step > Int.max / 2 ? Int.max : step * 2 }
        }
    }

    /// What a background step settles: a position's value (`REVIEW`), or
    /// Hard's play there (its value, and its plays up to a winning one;
    /// then, within one more step, the other plays).
    enum Goal: String, Sendable {
        case value, choice
    }

    /// One step of at most `budget` new positions toward `goal` at
    /// `fragment`, waiting for the locks (off the loop): whether the goal is
    /// reached, and whether the step settled anything.
    func solveStep(_ fragment: [UInt8], goal: Goal, budget: Int) -> (done: Bool, progressed: Bool) {
        withSession(budget: budget, waits: true) { session in
            let done: Bool
            switch goal {
            case .value: done = session.wins(fragment) != nil
            case .choice:
                done = session.settlesChoice(fragment)
                // Settled: another step's worth judges the other plays, so
                // that Hard, which picks among the winning plays settled,
                // has more than the first one found to pick from.
                if done {
                    session.budget = max(session.budget, SuperSolver.defaultBudget)
                    _ = session.moves(fragment, replies: false)
                }
            }
            return (done, session.settled > 0)
        }
    }

    /// The plays that win from `fragment` for the player to move.
    public func winningPlays(_ fragment: some StringProtocol) -> [Play] {
        moves(fragment, budget: Int.max).filter { $0.kind == .winning }.map(\.play)
    }

    /// Every play from `fragment`, judged within `budget` new positions.
    public func moves(_ fragment: some StringProtocol, budget: Int = Int.max) -> [Judged] {
        withSession(budget: budget, waits: true) { $0.moves(Array(fragment.utf8), replies: true) }
    }

    /// How many positions are remembered.
    public var solvedCount: Int { memo.count }

    /// Adds the positions that calls which did not wait left behind (off the loop).
    func mergeHandOffs() { memo.publish(SuperMemo.Table()) }

    /// Tests: `hook` runs each time a writer holds the memory's lock.
    func whileLocked(_ hook: (@Sendable () -> Void)?) { memo.whileWriting.withLock { $0 = hook } }

    /// Runs `body` with a session of `budget` new positions, then adds (or
    /// hands over) what it settled.
    func withSession<R>(budget: Int, waits: Bool, _ body: (Session) -> R) -> R {
        let session = Session(self, budget: budget, waits: waits)
        defer { session.finish() }
        return body(session)
    }
}
