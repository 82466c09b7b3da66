import Foundation
import Testing

/// Runs a long blocking test on a thread of its own, so that it does not hold
/// one of the few threads Swift Testing's other tests run on (a test with a
/// time limit then waits for one, and fails on a loaded machine). Unlike a bare
/// Thread, the body stays in the test's task (a task executor preference),
/// so what it records (#expect, Issue.record) is the test's.
public func onOwnThread(_ body: @escaping @Sendable () throws -> Void) async throws {
    try await withThreadOfItsOwn { try await runBlocking(body) }
}

/// Runs `operation` with a new thread of its own as the task's preferred
/// executor (its child tasks inherit it); the thread ends with it.
func withThreadOfItsOwn(_ operation: @Sendable () async throws -> Void) async throws {
    TestProcess.ignoreBrokenPipes()
    let executor = ThreadExecutor()
    defer { executor.stop() }
    try await withTaskExecutorPreference(executor) {
        try await operation()
    }
}

/// Nonisolated and async: runs on the task's preferred executor.
private func runBlocking(_ body: @Sendable () throws -> Void) async throws {
    try body()
}

/// A task executor with one thread of its own.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    public init() {
        let thread = Thread { [self] in run() }
        thread.name = "ghost-e2e"
        thread.stackSize = 8 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The thread ends once the jobs queued so far have run.
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}


/// A trait for a suite (each of its tests) or a test that blocks while it
/// waits for a process (a daemon's lines, a terminal, a browser). With
/// `GHOSTD_TEST_THREADS=own` in the environment each such test runs on a
/// thread of its own, as `onOwnThread` runs a body, instead of holding one of
/// the few threads Swift Testing's other tests run on; how many run at once
/// is then Swift Testing's to say (twice the cores by default; the
/// environment's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH), outside a
/// test's time limit. Off by default: on 2 cores, that many daemons, browsers
/// and disk writers at once starved daemons for 20 s and more (docs/testing.md).
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether the environment asks for it (`GHOSTD_TEST_THREADS=own`).
    public static let enabled = ProcessInfo.processInfo.environment["GHOSTD_TEST_THREADS"] == "own"

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        TestProcess.ignoreBrokenPipes()
        let started = ContinuousClock.now
        defer { TestTimes.note(test, since: started) }
        guard testCase != nil, OwnThreadTrait.enabled else { return try await function() }
        try await withThreadOfItsOwn(function)
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test on a thread of its own (`OwnThreadTrait`).
    public static var ownThread: Self { Self() }
}

/// A trait for a serialized suite: the whole suite, its tests one after
/// another, runs on one thread of its own from the start of the run, whatever
/// the environment says (its tests are the suite's child tasks, and inherit
/// the task executor preference). Each of its tests would otherwise wait
/// for one of the pool's threads behind the queue of every other test, one
/// test after the other, and the suite would end the pass alone
/// (docs/testing.md).
public struct SerialOnOwnThreadTrait: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withThreadOfItsOwn(function)
    }
}

extension Trait where Self == SerialOnOwnThreadTrait {
    /// A serialized suite on one thread of its own from the start of the run (`SerialOnOwnThreadTrait`).
    public static var serialOnOwnThread: Self { Self() }
}

/// The test process itself.
public enum TestProcess {
    /// A write to a pipe or socket whose reader is gone (an `openssl
    /// s_client`, a chromedriver or a daemon a test killed) fails with EPIPE
    /// instead of killing the whole test run with SIGPIPE (it did once, in
    /// the middle of a run). Idempotent; the programs the tests start get
    /// SIGPIPE's default back (posix_spawn's `setsigdefault`, Process).
    public static func ignoreBrokenPipes() { _ = ignored }

    private static let ignored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()
}

/// With `GHOSTD_TEST_TIMES=<file>`, each `.ownThread` test appends its
/// running time to that file (`seconds<TAB>suite/test`): the time its body
/// held a thread, without the wait for one, which Swift Testing's own
/// durations include. For finding what takes a pass's time (docs/testing.md).
enum TestTimes {
    static let path = ProcessInfo.processInfo.environment["GHOSTD_TEST_TIMES"]
    private static let lock = NSLock()

    static func note(_ test: Test, since start: ContinuousClock.Instant) {
        guard let path, !test.isSuite else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let line = String(format: "%.3f\t%@\n", seconds, test.id.description)
        lock.withLock {
            guard let handle = FileHandle(forWritingAtPath: path) ?? {
                FileManager.default.createFile(atPath: path, contents: nil)
                return FileHandle(forWritingAtPath: path)
            }() else { return }
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        }
    }
}
