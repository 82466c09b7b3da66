import CGhostSys
import COpenSSL
import Glibc

/// The TLS handshake threads: each step of a
/// handshake (`SSL_accept` on the non-blocking socket, the server's
/// private-key operation among them: an RSA-4096 signature takes
/// milliseconds) runs here, never on the event loop, which meanwhile serves
/// everyone else. A finished step comes back to the loop through an eventfd
/// in its epoll set, as the hashing pool's answers do: both run on a
/// `JobPool` (JobPool.swift; TLSPort.swift's `handshakesDone`).
///
/// Who owns a connection's SSL object, and when: the loop, always, except
/// while a step of its handshake is "away". The loop hands the SSL pointer
/// over in a `Job` (`TLSSession.handOff`, which sets `away`) and from then
/// on neither reads nor writes nor frees it, nor closes its socket; one
/// thread takes the job, runs one `SSL_accept` and touches nothing else
/// (the outcome and its CPU time go back in a `Finished`, never into the
/// session); the loop takes the outcome in `takeFinished` (under this
/// pool's mutex, which orders the thread's writes before the loop's reads)
/// and only then owns the SSL object again (`TLSSession.takeBack`). A
/// connection closed while away (its handshake timed out, it was evicted
/// for a newcomer) leaves the server's tables at once, but its SSL object
/// is freed, and its socket closed, only when its step comes back: a
/// socket closed under the thread could be reused by the next client
/// accepted, and the step would read and write that client's bytes.
///
/// The threads run at nice 10, below the loop (nice 0): on a busy machine
/// the loop is scheduled first and handshakes wait, as the Superghost
/// solvers do. At most `capacity` steps are away at once (queued here or
/// running); a handshake whose socket is ready while they are waits on the
/// loop's first-come line, unread, its bytes in the kernel, and its
/// `--tls-handshake-timeout` runs on (`Server.dispatchHandshake`).
final class TLSHandshakes: @unchecked Sendable {
    struct Job {
        let id: ConnectionID
        let ssl: OpaquePointer
    }

    struct Finished {
        let id: ConnectionID
        let step: TLSSession.Step
        /// CPU time the thread spent in the step, charged to the budgets.
        let seconds: Double
    }

    /// Steps away at once at most: enough to keep the threads busy between
    /// two turns of the loop, few enough that a handshake closed while
    /// waiting for a thread costs none of their time.
    static let capacity = 16
    /// The threads' nice value (Linux: per thread): the loop goes first.
    static let niceness: Int32 = 10

    /// One thread for each CPU beyond the loop's, 1 at least and 2 at most:
    /// on a 2-CPU machine the loop keeps one to itself.
    static func threadCount(cpus: Int?) -> Int {
        min(2, max(1, (cpus ?? 2) - 1))
    }

    let threadCount: Int
    private let pool: JobPool<Job, Finished>

    /// Nil when the eventfd or a thread cannot be made.
    init?(threads count: Int) {
        threadCount = max(1, count)
        // No capacity of the pool's own: the loop keeps at most `capacity` steps away.
        guard let pool = JobPool<Job, Finished>(
            threads: threadCount,
            onStart: { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TLSHandshakes.niceness) },
            run: { job in
                let started = TLSHandshakes.threadCPUSeconds()
                let step = TLSSession.acceptStep(job.ssl)
                return Finished(id: job.id, step: step, seconds: max(0, TLSHandshakes.threadCPUSeconds() - started))
            }) else { return nil }
        self.pool = pool
    }

    /// Woken (readable) when steps are finished.
    var eventFD: Int32 { pool.eventFD }

    /// Queues a step (loop thread; the loop keeps at most `capacity` away).
    /// False once stopping: the job was not taken, the SSL object stays the loop's.
    func submit(_ job: Job) -> Bool { pool.submit(job) }

    /// The steps finished since the last call (loop thread): their SSL objects are the loop's again.
    func takeFinished() -> [Finished] { pool.takeFinished() }

    /// Stops the threads once their current step is done, and waits for
    /// them; queued steps are not run. Afterwards no thread touches any SSL object.
    func stop() { pool.stop() }

    /// This thread's CPU time: what a step cost, whatever else ran meanwhile.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
