import CGhostSys
import COpenSSL
import Glibc

/// The TLS handshake threads (issue #43, finding 11): each step of a
/// handshake (`SSL_accept` on the non-blocking socket, the server's
/// private-key operation among them: an RSA-4096 signature takes
/// milliseconds) runs here, never on the event loop, which meanwhile serves
/// everyone else. A finished step comes back to the loop through an eventfd
/// in its epoll set, as the hashing pool's answers do (HashPool.swift,
/// EventLoop+TLS.swift's `handshakesDone`).
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
final class TLSHandshakes: WorkerPool, @unchecked Sendable {
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

    /// Woken (readable) when steps are finished.
    let eventFD: Int32
    let threadCount: Int
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `lock`:
    private var queued: [Job] = []
    private var queuedHead = 0
    private var finished: [Finished] = []
    private var stopping = false
    private var threads: [pthread_t] = []

    /// Nil when the eventfd or a thread cannot be made.
    init?(threads count: Int) {
        threadCount = max(1, count)
        eventFD = ghost_eventfd_open()
        guard eventFD >= 0 else { return nil }
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        guard WorkerThreads.start(threadCount, self, started: &threads) else {
            stop()
            return nil
        }
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        wake.deallocate()
        lock.deallocate()
        if eventFD >= 0 { Glibc.close(eventFD) }
    }

    /// Queues a step (loop thread; the loop keeps at most `capacity` away).
    /// False once stopping: the job was not taken, the SSL object stays the loop's.
    func submit(_ job: Job) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !stopping else { return false }
        queued.append(job)
        pthread_cond_signal(wake)
        return true
    }

    /// The steps finished since the last call (loop thread): their SSL objects are the loop's again.
    func takeFinished() -> [Finished] {
        ghost_eventfd_drain(eventFD)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let out = finished
        finished.removeAll(keepingCapacity: true)
        return out
    }

    /// Stops the threads once their current step is done, and waits for
    /// them; queued steps are not run. Afterwards no thread touches any SSL object.
    func stop() {
        WorkerThreads.stop(&threads, lock: lock, wake: wake) { stopping = true }
    }

    func work() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TLSHandshakes.niceness)
        pthread_mutex_lock(lock)
        while true {
            while !stopping && queuedHead == queued.count { pthread_cond_wait(wake, lock) }
            if stopping { break }
            let job = queued[queuedHead]
            queuedHead += 1
            if queuedHead == queued.count { queued.removeAll(keepingCapacity: true); queuedHead = 0 }
            pthread_mutex_unlock(lock)
            let started = TLSHandshakes.threadCPUSeconds()
            let step = TLSSession.acceptStep(job.ssl)
            let seconds = max(0, TLSHandshakes.threadCPUSeconds() - started)
            pthread_mutex_lock(lock)
            finished.append(Finished(id: job.id, step: step, seconds: seconds))
            ghost_eventfd_signal(eventFD)
        }
        pthread_mutex_unlock(lock)
    }

    /// This thread's CPU time: what a step cost, whatever else ran meanwhile.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
