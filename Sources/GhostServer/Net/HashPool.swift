import CGhostSys
import Glibc
import GhostProtocol

/// The hashing threads of issue #26: a password's yescrypt hash takes tens of
/// milliseconds by design, so the lobby's `PasswordJob`s run here, on
/// `threads` threads, never on the event loop. At most `capacity` jobs wait
/// (`submit` refuses more: `ERR server-busy`). A finished job's outcome is
/// kept until `takeFinished`, and the loop is woken through an eventfd in
/// its epoll set, as the WAL syncer wakes it (ghost_syncer.c).
final class HashPool: PasswordChecker, WorkerPool, @unchecked Sendable {
    let capacity: Int
    /// Woken (readable) when outcomes are waiting.
    let eventFD: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queued: [PasswordJob] = []
    private var queuedHead = 0
    private var finished: [PasswordOutcome] = []
    private var stopping = false
    private var threads: [pthread_t] = []

    /// Nil when the eventfd or a thread cannot be made.
    init?(threads count: Int, capacity: Int) {
        self.capacity = max(1, capacity)
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

    func submit(_ job: PasswordJob) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !stopping, queued.count - queuedHead < capacity else { return false }
        queued.append(job)
        pthread_cond_signal(wake)
        return true
    }

    func takeFinished() -> [PasswordOutcome] {
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

    /// Stops the threads once their current job is done (queued jobs are dropped) and waits for them.
    func stop() {
        WorkerThreads.stop(&threads, lock: lock, wake: wake) { stopping = true }
    }

    func work() {
        pthread_mutex_lock(lock)
        while true {
            while !stopping && queuedHead == queued.count { pthread_cond_wait(wake, lock) }
            if stopping { break }
            let job = queued[queuedHead]
            queuedHead += 1
            if queuedHead == queued.count { queued.removeAll(keepingCapacity: true); queuedHead = 0 }
            pthread_mutex_unlock(lock)
            let outcome = job.run()
            pthread_mutex_lock(lock)
            finished.append(outcome)
            ghost_eventfd_signal(eventFD)
        }
        pthread_mutex_unlock(lock)
    }
}
