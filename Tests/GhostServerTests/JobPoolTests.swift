import Glibc
import Testing
import TestSupport
@testable import GhostServer

/// The threads the password hashes and the TLS handshake steps run on
/// (Net/JobPool.swift), with jobs that are plain numbers: each runs on a
/// pool thread (never the caller's), its result waits until taken, the
/// eventfd says when, the queue is bounded, and a stopped pool takes none.
@Suite(.ownThread) struct JobPoolTests {
    private func awaitWake<J, R>(_ pool: JobPool<J, R>) -> Bool {
        var fds = [pollfd(fd: pool.eventFD, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 10_000) == 1
    }

    @Test("Jobs run on the pool's threads and their results come back, each once, after the eventfd wakes")
    func runsJobs() throws {
        let caller = pthread_self()
        let pool = try #require(JobPool<Int, (Int, Bool)>(threads: 2) { n in (n * n, pthread_equal(pthread_self(), caller) == 0) })
        defer { pool.stop() }
        for n in 1...5 { #expect(pool.submit(n)) }
        var results: [(Int, Bool)] = []
        while results.count < 5, awaitWake(pool) { results += pool.takeFinished() }
        #expect(results.map { $0.0 }.sorted() == [1, 4, 9, 16, 25])
        #expect(results.allSatisfy { $0.1 }, "a job ran on the caller's thread")
        #expect(pool.takeFinished().isEmpty)
    }

    @Test("At most `capacity` jobs wait; onStart runs on each thread first; a stopped pool takes none and runs no queued job")
    func boundedAndStopped() throws {
        // The one thread blocks on the first job until the test lets it go.
        let gate = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(gate, nil)
        pthread_mutex_lock(gate)
        defer { pthread_mutex_destroy(gate); gate.deallocate() }
        let started = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        started.initialize(to: 0)
        defer { started.deallocate() }
        let pool = try #require(JobPool<Int, Int>(threads: 1, capacity: 2, onStart: { started.pointee += 1 }) { n in
            if n == 0 { pthread_mutex_lock(gate); pthread_mutex_unlock(gate) }
            return n
        })
        #expect(pool.submit(0))
        // Until the thread has taken job 0, it counts among the waiting: wait for that.
        while pool.waiting > 0 { usleep(1000) }
        #expect(pool.submit(1) && pool.submit(2))
        #expect(!pool.submit(3), "a third waiting job is refused")
        #expect(pool.waiting == 2)
        pthread_mutex_unlock(gate)
        var results: [Int] = []
        while results.count < 3, awaitWake(pool) { results += pool.takeFinished() }
        #expect(results.sorted() == [0, 1, 2])
        pool.stop()
        #expect(!pool.submit(4))
        #expect(started.pointee == 1)
    }
}
