import GhostProtocol

/// The hashing threads: a password's yescrypt hash takes tens of
/// milliseconds by design, so the lobby's `PasswordJob`s run here, on
/// `threads` threads of a `JobPool`, never on the event loop. At most
/// `capacity` jobs wait (`submit` refuses more: `ERR server-busy`).
final class HashPool: PasswordChecker, @unchecked Sendable {
    private let pool: JobPool<PasswordJob, PasswordOutcome>

    /// Nil when the eventfd or a thread cannot be made.
    init?(threads count: Int, capacity: Int) {
        guard let pool = JobPool<PasswordJob, PasswordOutcome>(threads: count, capacity: capacity, run: { $0.run() }) else { return nil }
        self.pool = pool
    }

    var capacity: Int { pool.capacity }
    /// Woken (readable) when outcomes are waiting.
    var eventFD: Int32 { pool.eventFD }
    func submit(_ job: PasswordJob) -> Bool { pool.submit(job) }
    func takeFinished() -> [PasswordOutcome] { pool.takeFinished() }
    /// Jobs waiting for a thread.
    var waiting: Int { pool.waiting }
    /// Stops the threads once their current job is done (queued jobs are dropped) and waits for them.
    func stop() { pool.stop() }
}
