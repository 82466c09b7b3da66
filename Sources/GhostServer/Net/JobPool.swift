import CGhostSys
import Glibc

/// Jobs run on threads of their own, never on the event loop, and their
/// results handed back to it: a finished job's result is kept until
/// `takeFinished`, and the loop is woken through an eventfd in its epoll
/// set, as the WAL syncer wakes it (ghost_syncer.c). The password hashes
/// (HashPool) and the TLS handshakes' steps (TLSHandshakes) run on one each.
///
/// The queue and the results are guarded by the pool's mutex, which also
/// orders a thread's writes (the result) before the loop's reads.
final class JobPool<Job, Result>: WorkerPool, @unchecked Sendable {
    /// Jobs queued at most (`submit` refuses more).
    let capacity: Int
    /// Woken (readable) when results are waiting.
    let eventFD: Int32
    private let run: (Job) -> Result
    /// Run first on each thread (its priority).
    private let onStart: () -> Void
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `lock`:
    private var queued: [Job] = []
    private var queuedHead = 0
    private var finished: [Result] = []
    private var stopping = false
    private var threads: [pthread_t] = []

    /// `count` threads (1 at least); nil when the eventfd or a thread cannot be made.
    init?(threads count: Int, capacity: Int = .max, onStart: @escaping () -> Void = {}, run: @escaping (Job) -> Result) {
        self.capacity = max(1, capacity)
        self.run = run
        self.onStart = onStart
        eventFD = ghost_eventfd_open()
        guard eventFD >= 0 else { return nil }
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        guard WorkerThreads.start(max(1, count), self, started: &threads) else {
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

    /// Queues a job (loop thread). False, queuing nothing, when `capacity`
    /// jobs wait or the pool is stopping.
    func submit(_ job: Job) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !stopping, queued.count - queuedHead < capacity else { return false }
        queued.append(job)
        pthread_cond_signal(wake)
        return true
    }

    /// The results of the jobs finished since the last call, in the order they finished (loop thread).
    func takeFinished() -> [Result] {
        ghost_eventfd_drain(eventFD)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let out = finished
        finished.removeAll(keepingCapacity: true)
        return out
    }

    /// Jobs waiting for a thread.
    var waiting: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return queued.count - queuedHead
    }

    /// Stops the threads once their current job is done, and waits for
    /// them; queued jobs are not run.
    func stop() {
        WorkerThreads.stop(&threads, lock: lock, wake: wake) { stopping = true }
    }

    func work() {
        onStart()
        pthread_mutex_lock(lock)
        while true {
            while !stopping && queuedHead == queued.count { pthread_cond_wait(wake, lock) }
            if stopping { break }
            let job = queued[queuedHead]
            queuedHead += 1
            if queuedHead == queued.count { queued.removeAll(keepingCapacity: true); queuedHead = 0 }
            pthread_mutex_unlock(lock)
            let result = run(job)
            pthread_mutex_lock(lock)
            finished.append(result)
            ghost_eventfd_signal(eventFD)
        }
        pthread_mutex_unlock(lock)
    }
}
