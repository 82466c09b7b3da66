import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Superghost's solving off the event loop: one queue for every language,
/// at most `threads` solves at once, at most `maxPending` waiting.
///
/// A job (a position to solve, hand-offs to merge) runs a step at a time
/// (`SuperSolver.defaultBudget` positions for a solve), newest job first;
/// a job a step did not finish goes back at the oldest end, or at the
/// newest if it was asked for again meanwhile, so the positions games wait
/// for now come first and a long solve (the Dutch opening) goes on between
/// them. A job is keyed (language, goal, fragment): asked for again while it
/// waits or runs, it is not queued twice. Past `maxPending`, the oldest
/// waiting job is dropped: its work so far is kept in the memory, and
/// whoever needs it asks again (the lobby does, for the computer's move;
/// REVIEW's reader does).
///
/// The workers are threads of their own at nice `niceness`, so that on a
/// busy machine the event loop (nice 0) is scheduled before them.
///
/// The loop only ever tries the queue's lock (`waits: false`): when a worker
/// holds it (to take or put back a job, microseconds), the request is not
/// queued, and the next one will be.
final class SuperSolving: Sendable {
    /// Solves at once, at most (each on a thread of its own, which ends when no job waits).
    static let threads = 2
    /// The workers' nice value (Linux: per thread): the loop goes first.
    static let niceness: Int32 = 10
    /// Jobs waiting, at most.
    static let maxPending = 64

    /// A unit of background work, run one step at a time by one worker at a time.
    protocol Job: AnyObject, Sendable {
        var key: String { get }
        /// One bounded step; true when the job is done.
        func step() -> Bool
    }

    /// What the queue has seen (tests, benchmarks).
    struct Figures: Sendable, Equatable {
        var pending = 0
        var running = 0
        var peakPending = 0
        var peakRunning = 0
        var dropped = 0
        var steps = 0
    }

    private struct State {
        /// Oldest first.
        var pending: [any Job] = []
        var running: Set<String> = []
        /// Keys asked for while their job ran.
        var again: Set<String> = []
        /// Keys of jobs the loop already spent its own budget on.
        var tried: Set<String> = []
        var workers = 0
        var figures = Figures()

        /// Puts `job` back (a step did not finish it) or in; drops the oldest past the bound.
        mutating func enqueue(_ job: any Job, newest: Bool) {
            if newest { pending.append(job) } else { pending.insert(job, at: 0) }
            if pending.count > SuperSolving.maxPending {
                tried.remove(pending.removeFirst().key)
                figures.dropped += 1
            }
            figures.peakPending = max(figures.peakPending, pending.count)
        }
    }

    private let state = Mutex(State())
    /// Tests: runs each step on the worker (given the job's key and the
    /// step, which it must run and whose result it returns).
    let aroundStep = Mutex<(@Sendable (String, () -> Bool) -> Bool)?>(nil)

    init() {}

    /// Queues the job `make` builds unless its key is queued or running
    /// already (then it moves to the newest end); starts a worker if fewer
    /// than `threads` run. `waits: false` (the loop): gives up at once when
    /// a worker holds the queue's lock, and returns false. `tried`: the loop
    /// spent its own budget on it already (`wasTried`).
    @discardableResult
    func submit(_ key: String, waits: Bool, tried: Bool = false, _ make: () -> any Job) -> Bool {
        var start = false
        let queued = waits
            ? state.withLock { s in SuperSolving.request(&s, key, tried, make, start: &start) }
            : state.withLockIfAvailable { s in SuperSolving.request(&s, key, tried, make, start: &start) }
        if start { startWorker() }
        return queued ?? false
    }

    private static func request(_ s: inout State, _ key: String, _ tried: Bool, _ make: () -> any Job, start: inout Bool) -> Bool {
        if tried { s.tried.insert(key) }
        if s.running.contains(key) {
            s.again.insert(key)
        } else if let i = s.pending.firstIndex(where: { $0.key == key }) {
            let job = s.pending.remove(at: i)
            s.pending.append(job)
        } else {
            s.enqueue(make(), newest: true)
        }
        if s.workers < SuperSolving.threads, !s.pending.isEmpty {
            s.workers += 1
            start = true
        }
        return true
    }

    /// Whether `key` waits or runs after the loop spent its own budget on
    /// it (so the loop only reads until it is done); nil when a worker
    /// holds the lock (the loop does not wait).
    func wasTried(_ key: String) -> Bool? {
        state.withLockIfAvailable { $0.tried.contains(key) }
    }

    var figures: Figures {
        state.withLock { s in
            var f = s.figures
            f.pending = s.pending.count
            f.running = s.running.count
            return f
        }
    }

    /// Whether no job waits or runs.
    var isIdle: Bool { state.withLock { $0.workers == 0 && $0.pending.isEmpty } }

    /// A worker thread at nice `niceness` (elsewhere than Linux, a task of the system's pool).
    private func startWorker() {
        #if canImport(Glibc)
        var thread = pthread_t()
        let queue = Unmanaged.passRetained(self).toOpaque()
        let made = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let queue = Unmanaged<SuperSolving>.fromOpaque(argument).takeRetainedValue()
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, SuperSolving.niceness)
            queue.work()
            return nil
        }, queue)
        if made == 0 {
            pthread_detach(thread)
            return
        }
        Unmanaged<SuperSolving>.fromOpaque(queue).release()
        #endif
        DispatchQueue.global(qos: .utility).async { self.work() }
    }

    /// A worker: takes the newest job, runs a step, puts it back if not done; ends when none waits.
    private func work() {
        while true {
            let next: (any Job)? = state.withLock { s in
                guard let job = s.pending.popLast() else {
                    s.workers -= 1
                    return nil
                }
                s.running.insert(job.key)
                s.figures.peakRunning = max(s.figures.peakRunning, s.running.count)
                s.figures.steps += 1
                return job
            }
            guard let job = next else { return }
            let done = aroundStep.withLock { $0 }.map { $0(job.key, job.step) } ?? job.step()
            state.withLock { s in
                s.running.remove(job.key)
                let again = s.again.remove(job.key) != nil
                if done {
                    s.tried.remove(job.key)
                } else if !s.pending.contains(where: { $0.key == job.key }) {
                    s.enqueue(job, newest: again)
                }
            }
        }
    }
}

extension GhostKind {
    /// Solving a Superghost position of a language in the background, a
    /// step at a time; builds the language's solver first if need be.
    final class SolveJob: SuperSolving.Job, @unchecked Sendable {
        let key: String
        private let kind: GhostKind
        private let language: String
        private let fragment: [UInt8]
        private let goal: SuperSolver.Goal
        // Touched by one worker at a time (the queue runs a job on one worker).
        private var solver: SuperSolver?
        private var budget = SuperSolver.defaultBudget

        init(key: String, kind: GhostKind, language: String, fragment: String, goal: SuperSolver.Goal, solver: SuperSolver?) {
            self.key = key
            self.kind = kind
            self.language = language
            self.fragment = Array(fragment.utf8)
            self.goal = goal
            self.solver = solver
        }

        func step() -> Bool {
            guard let solver = solver ?? kind.buildSuperSolver(language: language) else { return true }
            self.solver = solver
            let (done, progressed) = solver.solveStep(fragment, goal: goal, budget: budget)
            // A step shorter than the deepest line of play settles nothing: grow it.
            if !done, !progressed { budget = budget > Int.max / 2 ? Int.max : 2 * budget }
            return done
        }
    }

    /// Adding the positions the loop's calls handed over to a solver's memory.
    final class MergeJob: SuperSolving.Job {
        let key: String
        private let solver: SuperSolver
        init(_ solver: SuperSolver) {
            self.solver = solver
            key = "merge " + solver.rules.language
        }
        func step() -> Bool {
            solver.mergeHandOffs()
            return true
        }
    }

    static func solveKey(_ fragment: String, language: String, goal: SuperSolver.Goal) -> String {
        language + " " + goal.rawValue + " " + fragment
    }

    /// Solves `fragment` of `language`'s Superghost toward `goal` off the
    /// caller's thread (building its solver first if need be), once however
    /// often asked; never waits (the loop calls it) unless `waits` (tests).
    /// `tried`: the loop spent its own budget on it already.
    func solveLater(_ fragment: String, language: String, goal: SuperSolver.Goal, solver: SuperSolver? = nil,
                    tried: Bool = false, waits: Bool = false) {
        let key = GhostKind.solveKey(fragment, language: language, goal: goal)
        solving.submit(key, waits: waits, tried: tried) {
            SolveJob(key: key, kind: self, language: language, fragment: fragment, goal: goal, solver: solver)
        }
    }

    /// Hard's judgement of a Superghost position on the event loop, never
    /// waiting for the solver's locks: the plays as far as they are settled
    /// (their replies counted only when no play wins or is unsettled), and
    /// whether Hard's play is settled. First only what is settled is read;
    /// if that does not settle it, and the loop has not spent its budget on
    /// this position since it was queued, at most `loopBudget` new
    /// positions are solved here; if it is still not settled, the position
    /// is queued (and later asks only read, until its solve is done).
    func judgeOnLoop(_ ghost: Superghost, solver: SuperSolver) -> (moves: [SuperSolver.Judged], settled: Bool) {
        let fragment = Array(ghost.fragment.utf8), language = ghost.rules.language
        func judge(_ budget: Int) -> (moves: [SuperSolver.Judged], settled: Bool) {
            solver.withSession(budget: budget, waits: false) { session in
                defer { loopAllowance.giveBack(session.budget) }
                let moves = session.moves(fragment, replies: false)
                let settled = SuperBot.isSettled(moves)
                guard !moves.contains(where: { $0.kind == .winning || $0.kind == nil }) else { return (moves, settled) }
                return (session.moves(fragment, replies: true), settled)
            }
        }
        var judged = judge(0)
        if judged.settled { return judged }
        let key = GhostKind.solveKey(ghost.fragment, language: language, goal: .choice)
        if solving.wasTried(key) == false {
            let granted = loopAllowance.take(GhostKind.loopBudget)
            if granted > 0 { judged = judge(granted) }
        }
        if !judged.settled { solveLater(ghost.fragment, language: language, goal: .choice, solver: solver, tried: true) }
        return judged
    }
}

/// The positions the event loop may solve itself, all games together: a
/// token bucket refilled at `perSecond`, holding at most `most`. Only
/// ever tried (a caller that finds its lock taken gets nothing).
final class LoopAllowance: Sendable {
    private struct State {
        var tokens: Double
        var at: ContinuousClock.Instant
    }
    private let state: Mutex<State>
    private let perSecond: Double
    private let most: Double

    init(perSecond: Double, most: Int) {
        self.perSecond = perSecond
        self.most = Double(most)
        state = Mutex(State(tokens: Double(most), at: .now))
    }

    /// Up to `want` positions (fewer, or none, when the bucket runs low).
    func take(_ want: Int) -> Int {
        state.withLockIfAvailable { s -> Int in
            let now = ContinuousClock.now
            let elapsed = now - s.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            s.tokens = min(most, s.tokens + seconds * perSecond)
            s.at = now
            let granted = max(0, min(want, Int(s.tokens)))
            s.tokens -= Double(granted)
            return granted
        } ?? 0
    }

    /// Returns what a call was granted and did not use.
    func giveBack(_ unused: Int) {
        guard unused > 0 else { return }
        _ = state.withLockIfAvailable { s in s.tokens = min(most, s.tokens + Double(unused)) }
    }
}
