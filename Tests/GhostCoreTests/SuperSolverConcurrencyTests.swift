import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GameKit
import Testing
import TestSupport
@testable import GhostCore
import WordLists

/// Superghost's solving and the event loop: the
/// loop's calls (the computer's move, a hint, REVIEW) never wait for a lock
/// a background solve holds; the background runs at most
/// `SuperSolving.threads` solves at once with at most
/// `SuperSolving.maxPending` waiting; the memory stays within its cap and
/// Hard stays perfect. Waits are semaphores; a timeout only bounds a
/// failure (five minutes, as the other suites that wait on threads: a full
/// run on two cores can hold a test's start for minutes).
@Suite("Superghost's solving: the loop never waits, the background is bounded", .hangLimit)
struct SuperSolverConcurrencyTests {
    /// A seeded random list whose opening takes several of the loop's
    /// budgets to solve (as `SuperghostTests.ghostKindDefersHardUntilSolved`).
    static let bigList: [String] = {
        var rng = SeededRandom(seed: 77)
        let alphabet = Array("abcdefghij")
        var words: [String] = []
        for size in [1_000, 3_000, 8_000, 20_000] {
            words = (0..<size).map { _ in
                String((0..<Int.random(in: 4...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            let reference = SuperSolver(rules: rules(words))
            _ = reference.isWinning("")
            if reference.solvedCount > 3 * GhostKind.reviewBudget { break }
        }
        return words
    }()

    private static func kind(_ words: [String]) -> GhostKind {
        GhostKind(dictionaries: Dictionaries(lists: ["en": WordList(words: words)]))
    }

    /// A finished Superghost game of one move, `a`, for REVIEW.
    private static let oneMove = ReviewRequest(language: "en", variant: GhostKind.superVariant, settings: "", rounds: [
        ReviewRound(round: 1, seed: 0, moves: [SeatMove(seat: 0, move: .letter(L("a")))], isLast: true),
    ])

    @Test("while a background solve holds the solver's lock, the computer's move, a hint and REVIEW answer at once")
    func theLoopDoesNotWaitForAWriter() throws {
        let kind = Self.kind(Self.bigList)
        let game = try #require(kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        let solver = try #require(kind.superSolver(language: "en"))
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let writes = Counter()
        // The first background write keeps the lock until the test lets go.
        solver.whileLocked {
            if writes.add() == 1 {
                held.signal()
                release.wait()
            }
        }
        // The first ask: the opening is not settled within the loop's budget; its solve is queued.
        #expect(kind.computerPlay(in: game, level: .hard) == .later(seconds: GhostKind.superRetrySeconds))
        guard held.wait(timeout: .now() + 120) == .success else {
            Issue.record("no background write within 120 s")
            return
        }
        // The lock is held now. The loop's calls, on a thread of their own:
        let answers = Answers()
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answers.set(play: kind.computerPlay(in: game, level: .hard),
                        hint: kind.hint(in: game, against: .easy),
                        review: kind.review(Self.oneMove))
            answered.signal()
        }
        let returned = answered.wait(timeout: .now() + 60) == .success
        #expect(returned, "the loop's calls waited for the lock a background solve holds")
        #expect(writes.value == 1, "the lock was let go before the calls returned")
        release.signal()
        if !returned { _ = answered.wait(timeout: .now() + 120) }
        solver.whileLocked(nil)
        let (play, hint, review) = answers.get()
        #expect(play == .later(seconds: GhostKind.superRetrySeconds))
        #expect(hint != nil)
        #expect(review == .later(seconds: GhostKind.reviewRetrySeconds))
        // Let go, the background solve goes on, and Hard then plays a solved, winning move.
        let reference = SuperSolver(rules: rules(Self.bigList))
        var answer = kind.computerPlay(in: game, level: .hard)
        let start = Date()
        while case .later = answer, Date().timeIntervalSince(start) < 120 {
            Thread.sleep(forTimeInterval: 0.02)
            answer = kind.computerPlay(in: game, level: .hard)
        }
        guard case .move(let move) = answer else { return #expect(Bool(false), "still \(answer)") }
        if reference.isWinning("") { #expect(Set(reference.winningPlays("").map(\.move)).contains(move)) }
    }

    @Test("a background search reading the memory does not keep the loop from reading it: a settled move is played at once")
    func theLoopReadsBesideABackgroundSearch() throws {
        let words = ["crop", "acrobat", "probe", "bake", "baker", "broke"]
        let kind = Self.kind(words)
        let game = try #require(kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        let solver = try #require(kind.superSolver(language: "en"))
        solver.solve("")
        // A reader holds the read lock, as a background step does for its length.
        let reading = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0), answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            solver.memo.lockRead()
            reading.signal()
            done.wait()
            solver.memo.unlockRead()
        }
        reading.wait()
        let answers = Answers()
        Thread.detachNewThread {
            answers.set(play: kind.computerPlay(in: game, level: .hard), hint: nil, review: nil)
            answered.signal()
        }
        let returned = answered.wait(timeout: .now() + 60) == .success
        done.signal()
        #expect(returned)
        guard case .move(let move) = answers.get().play else { return #expect(Bool(false), "\(answers.get().play)") }
        if solver.isWinning("") { #expect(Set(solver.winningPlays("").map(\.move)).contains(move)) }
    }

    @Test("many positions asked for at once: at most SuperSolving.threads solves run, at most maxPending wait")
    func theBackgroundIsBounded() throws {
        let kind = Self.kind(Self.bigList)
        _ = try #require(kind.superSolver(language: "en"))
        let active = Counter(), peak = Counter(), parked = Counter()
        let entered = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let open = Counter()
        kind.solving.aroundStep.withLock {
            $0 = { _, step in
                peak.raise(to: active.add())
                defer { _ = active.add(-1) }
                // The first `threads` steps wait, so the queue is seen full.
                if open.value == 0, parked.add() <= SuperSolving.threads {
                    entered.signal()
                    gate.wait()
                }
                return step()
            }
        }
        // 3-letter fragments over the list's letters: 1,000, most of them live.
        let letters = Array("abcdefghij")
        let fragments = letters.flatMap { a in letters.flatMap { b in letters.map { c in String([a, b, c]) } } }
        for f in fragments.prefix(SuperSolving.threads) { kind.solveLater(f, language: "en", goal: .value, waits: true) }
        for _ in 0..<SuperSolving.threads {
            guard entered.wait(timeout: .now() + 120) == .success else {
                Issue.record("the workers did not start")
                return
            }
        }
        // Both workers are busy: every later position waits, up to the bound.
        for f in fragments.dropFirst(SuperSolving.threads).prefix(200) { kind.solveLater(f, language: "en", goal: .value, waits: true) }
        let full = kind.solving.figures
        #expect(full.running == SuperSolving.threads)
        #expect(full.pending == SuperSolving.maxPending)
        #expect(full.dropped == 200 - SuperSolving.maxPending)
        // Asking again for a waiting position does not queue it twice.
        kind.solveLater(fragments[SuperSolving.threads + 199], language: "en", goal: .value, waits: true)
        #expect(kind.solving.figures.pending == SuperSolving.maxPending)
        _ = open.add()
        for _ in 0..<SuperSolving.threads { gate.signal() }
        let start = Date()
        while !kind.solving.isIdle, Date().timeIntervalSince(start) < 240 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(kind.solving.isIdle)
        let figures = kind.solving.figures
        #expect(peak.value <= SuperSolving.threads && peak.value >= 1, "\(peak.value) solves at once")
        #expect(figures.peakRunning <= SuperSolving.threads)
        #expect(figures.peakPending <= SuperSolving.maxPending)
        kind.solving.aroundStep.withLock { $0 = nil }
    }

    @Test("what the loop settles is handed over and merged off the loop")
    func theLoopsPositionsAreMerged() throws {
        let kind = Self.kind(["pear", "peach", "cats", "dogs", "crop", "acrobat"])
        let game = try #require(kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        let solver = try #require(kind.superSolver(language: "en"))
        guard case .move = kind.computerPlay(in: game, level: .hard) else { return #expect(Bool(false), "the loop's budget covers this list") }
        let start = Date()
        while solver.solvedCount == 0 || !kind.solving.isIdle, Date().timeIntervalSince(start) < 120 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(solver.solvedCount > 0)
        #expect(!solver.memo.hasHandOffs)
    }

    /// The memory stays within its cap (plus one batch) and the answers stay
    /// right: past the cap, only fragments of up to `keptLetters` letters stay.
    @Test("the memory stays within maxPositions, and the values stay those of plain minimax")
    func theMemoryIsBounded() {
        let cap = 2_000
        let small = SuperSolver(rules: rules(Self.bigList), maxPositions: cap)
        let reference = SuperSolver(rules: rules(Self.bigList))
        #expect(small.isWinning("") == reference.isWinning(""))
        #expect(reference.solvedCount > cap)
        #expect(small.solvedCount <= cap + SuperSolver.publishBatch)
        for f in ["a", "bc", "<d"] {
            let fragment = f.hasPrefix("<") ? String(f.dropFirst()) : f
            guard small.rules.superVerdict(Array(fragment.utf8)) == .alive else { continue }
            #expect(Set(small.winningPlays(fragment)) == Set(reference.winningPlays(fragment)), "\(fragment)")
            #expect(small.solvedCount <= cap + SuperSolver.publishBatch)
        }
    }

    /// `SuperghostTests.hardPlaysOnlySolvedMovesFromAColdStart` with a memory
    /// of 60 positions, so that it forgets: Hard still plays only settled,
    /// perfect moves.
    @Test("Hard stays perfect when the memory forgets")
    func hardStaysPerfectWithASmallMemory() throws {
        var rng = SeededRandom(seed: 0xCA9)
        var played = 0
        for _ in 0..<30 {
            let alphabet = Array("abcde")
            let words = (0..<Int.random(in: 6...12, using: &rng)).map { _ in
                String((0..<Int.random(in: 4...7, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            let reference = SuperSolver(rules: rules(words))
            let solver = SuperSolver(rules: rules(words), maxPositions: 60)
            let hard = SuperBot(level: .hard, solver: solver, budget: 16)
            var g = Superghost(rules: solver.rules)
            while !g.isOver {
                var play = hard.settledChoice(in: g, using: &rng)
                var tries = 0
                while play == nil, tries < 100 {
                    solver.solve(g.fragment, step: 16)
                    play = hard.settledChoice(in: g, using: &rng)
                    tries += 1
                }
                let chosen = try #require(play, "\(words) at \"\(g.fragment)\": not settled")
                if reference.isWinning(g.fragment) {
                    #expect(reference.winningPlays(g.fragment).contains(chosen), "\(words) at \"\(g.fragment)\": \(chosen)")
                }
                played += 1
                _ = try g.play(chosen.move, by: g.toMove)
            }
        }
        #expect(played > 30)
    }

    /// A measurement, not a bound (it depends on the machine): the English
    /// opening solved by the background queue while a "loop" thread asks
    /// for the computer's move and a hint over and over, without waiting.
    @Test("measured: the loop's calls while the English opening is solved in the background")
    func measureTheLoopBesideTheOpening() throws {
        let words = try #require(englishWords)
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": words]))
        let game = try #require(kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        let solver = try #require(kind.superSolver(language: "en"))
        var calls = 0, later = 0
        var first = Duration.zero, longest = Duration.zero, total = Duration.zero, longestCPU = 0.0
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            var answer = ComputerPlay.none
            let cpu = threadCPU()
            let took = clock.measure { answer = kind.computerPlay(in: game, level: .hard) }
            if calls == 0 { first = took } else {
                longest = max(longest, took)
                longestCPU = max(longestCPU, threadCPU() - cpu)
            }
            calls += 1
            total += took
            guard case .later = answer else { break }
            later += 1
            if clock.now - start > .seconds(240) { break }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let elapsed = clock.now - start
        print("superghost en through the queue: Hard's first move after \(elapsed); \(calls) loop calls (\(later) later): the first (with its budget) \(first), the others at most \(longest) (CPU \(longestCPU * 1e6) µs: the rest is waiting for a core), mean \(total / max(calls, 1)); longest hold of the write lock \(solver.memo.longestWriteSeconds.wall * 1e6) µs (CPU \(solver.memo.longestWriteSeconds.cpu * 1e6) µs); \(solver.solvedCount) positions; queue \(kind.solving.figures)")
        #expect(later < calls)
    }
}

/// The calling thread's CPU time, in seconds.
private func threadCPU() -> Double {
    #if canImport(Glibc)
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    #else
    return 0
    #endif
}

private func rules(_ words: [String]) -> GhostRules {
    let list = WordList(words: words)
    return GhostRules(words: list, infixes: Infixes(words: list))
}

/// What the loop's calls answered, from another thread.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var play: ComputerPlay = .none
    private var hint: Hint?
    private var review: ReviewResult?
    func set(play: ComputerPlay, hint: Hint?, review: ReviewResult?) {
        lock.lock(); defer { lock.unlock() }
        (self.play, self.hint, self.review) = (play, hint, review)
    }
    func get() -> (play: ComputerPlay, hint: Hint?, review: ReviewResult?) {
        lock.lock(); defer { lock.unlock() }
        return (play, hint, review)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    /// Adds `k`; returns the count with it.
    func add(_ k: Int = 1) -> Int { lock.lock(); defer { lock.unlock() }; n += k; return n }
    /// Keeps the larger of the count and `k`.
    func raise(to k: Int) { lock.lock(); defer { lock.unlock() }; n = max(n, k) }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
