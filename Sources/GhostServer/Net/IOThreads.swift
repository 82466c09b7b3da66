import CGhostSys
import Glibc
import GhostProtocol
import Synchronization

/// I/O threads, as Redis 6's `io-threads` (networking.c,
/// `handleClientsWithPendingReadsUsingThreads` and `…WritesUsingThreads`):
/// the loop hands a turn's socket work to `--io-threads` threads, itself
/// one of them, and waits until all of it is done before it goes on. Two
/// kinds of work are handed out, each in its own phase of the turn:
///
/// - `read`: read one chunk from each readable plain connection and frame
///   it into the connection's `pending` lines (after the loop has collected
///   the turn's events, before it serves any line);
/// - `write`: send each connection's releasable replies (after the turn's
///   commit, so only what the commit covers is sent, as before).
///
/// Everything else (serving lines, the budgets, the lobby, the store, TLS
/// sessions, closing) stays on the loop thread, so no lock enters the rules.
///
/// Why this is sound without a lock on `Connection`: during a phase each
/// connection of the job list is touched by exactly one thread, the one that
/// claimed its batch (an atomic add on `next`: each index is claimed once);
/// the loop thread touches no connection it did not claim, and nothing else
/// at all, until every worker that joined the phase has left it (`busy ==
/// 0`, read under `lock`). A worker joins and leaves under `lock`, so the
/// mutex orders every write the loop made before the phase before the
/// worker's jobs, and every write a worker made before the loop reads it.
/// The threads wait on a condition variable between phases (no spinning:
/// the machine's other core may be running the clients).
///
/// The loop also takes batches itself: if a worker is not scheduled, the loop
/// does the whole phase alone, as it did with one thread, and waits only for
/// workers that have joined the phase. After a phase no worker helped
/// with, the loop does the next ones alone for a while (`Backoff`): on a
/// machine whose other cores are busy, waking threads only costs.
final class IOThreads: WorkerPool, @unchecked Sendable {
    enum Phase { case read, write }

    /// A phase with fewer jobs than this is done by the loop alone: waking
    /// a thread costs about as much as a few sends (a game in lock step).
    static let minimumJobs = 4
    /// Bytes one read takes (the loop's own `Server.readChunk`).
    let chunk: Int
    /// The threads besides the loop.
    var workers: Int { threads.count }

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Workers wait here for a phase with jobs left.
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The loop waits here for the workers' last batches.
    private let idle = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The next job of the phase to claim: batches are claimed by adding to
    /// it, without the lock (the lock was taken once a batch, and the loop
    /// and a worker contending for it cost futex calls: about 12 a turn of
    /// 50 PINGs). What the jobs wrote is ordered by the lock all the same:
    /// a worker joins a phase and leaves it under `lock`.
    private let next = Atomic<Int>(0)
    // Guarded by `lock`:
    private var jobs: [Connection] = []
    private var phase = Phase.read
    private var batch = 1
    /// Counts phases: a worker joins each at most once.
    private var generation = 0
    /// Workers that joined the phase and have not left it.
    private var busy = 0
    private var stopping = false
    private var byWorkers = 0
    private var threads: [pthread_t] = []
    /// The loop thread's read buffer (each worker has its own).
    private let loopBuffer: UnsafeMutableRawBufferPointer

    /// `count` threads in all, the loop among them: `count - 1` are started.
    /// Nil when a thread cannot be started.
    init?(count: Int, chunk: Int) {
        self.chunk = chunk
        loopBuffer = .allocate(byteCount: chunk, alignment: 16)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(idle, nil)
        guard WorkerThreads.start(max(1, count) - 1, self, started: &threads) else {
            stop()
            return nil
        }
    }

    deinit {
        pthread_cond_destroy(idle)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        idle.deallocate()
        wake.deallocate()
        lock.deallocate()
        loopBuffer.deallocate()
    }

    /// Does `phase` for every connection of `list`, on the threads and the
    /// loop's own; returns when all of it is done. Loop thread only.
    func run(_ phase: Phase, _ list: [Connection]) {
        if threads.isEmpty || list.count < IOThreads.minimumJobs || oneCPU || !backoff.wake() {
            for conn in list { IOThreads.perform(phase, conn, loopBuffer) }
            return
        }
        pthread_mutex_lock(lock)
        jobs = list
        self.phase = phase
        next.store(0, ordering: .relaxed)
        generation &+= 1
        let before = byWorkers
        // Small batches, so that a thread that is slow to wake leaves the rest to the others.
        let size = max(1, min(16, list.count / (4 * (threads.count + 1))))
        batch = size
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(lock)
        while true {
            let start = next.add(size, ordering: .relaxed).oldValue
            guard start < list.count else { break }
            for conn in list[start..<min(list.count, start + size)] { IOThreads.perform(phase, conn, loopBuffer) }
        }
        pthread_mutex_lock(lock)
        while busy > 0 { pthread_cond_wait(idle, lock) }
        jobs.removeAll(keepingCapacity: true)
        let helped = byWorkers > before
        pthread_mutex_unlock(lock)
        backoff.woke(helped: helped)
    }

    /// When the loop wakes the threads for a phase (loop thread only).
    private var backoff = Backoff()

    /// The process may run on one CPU only (taskset, a cpuset): the threads
    /// would take turns with the loop on it, and handing them work only
    /// costs (with both servers pinned to one core, ghostd's CPU per PING
    /// was 0.89 of redis-server's with two threads, 1.12 with one). Checked
    /// by the loop once a second (`checkCPUs`), as the affinity can change
    /// while the daemon runs.
    private(set) var oneCPU = false

    /// Loop thread only: reads the process's CPU affinity (one system call).
    func checkCPUs() {
        oneCPU = IOThreads.usableCPUs() == 1
    }

    /// The CPUs this thread may run on (`taskset -a` sets them for every
    /// thread); nil if the system cannot say.
    static func usableCPUs() -> Int? {
        let n = Int(ghost_usable_cpus())
        return n > 0 ? n : nil
    }

    /// No thread got to a batch before the loop had done them all: the
    /// other cores are busy (the clients, another process, or the same core
    /// under taskset), and waking the threads only cost a system call and a
    /// context switch each, and the loop may even wait for a thread that
    /// claimed a batch and was then preempted. Then the loop does the next
    /// phase alone, twice as many after each further miss (up to
    /// `maximumRest`), and wakes the threads again: at once back to full use
    /// when a thread helps.
    struct Backoff {
        /// The most phases the loop does alone after a miss.
        static let maximumRest = 64
        /// Phases left to do alone; and how many after the last miss.
        private(set) var resting = 0
        private(set) var rest = 0

        /// Whether to wake the threads for this phase (else the loop does it alone).
        mutating func wake() -> Bool {
            guard resting > 0 else { return true }
            resting -= 1
            return false
        }

        /// The threads were woken for a phase: whether any took a batch.
        mutating func woke(helped: Bool) {
            if helped {
                rest = 0
            } else {
                rest = min(Backoff.maximumRest, max(1, rest * 2))
                resting = rest
            }
        }
    }

    /// Reads and writes done by the threads besides the loop's, since the start (STATS).
    var jobsByWorkers: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return byWorkers
    }

    /// Stops the threads (between phases) and waits for them.
    func stop() {
        WorkerThreads.stop(&threads, lock: lock, wake: wake) { stopping = true }
    }

    func work() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var seen = 0
        while true {
            pthread_mutex_lock(lock)
            while !stopping && generation == seen { pthread_cond_wait(wake, lock) }
            if stopping {
                pthread_mutex_unlock(lock)
                return
            }
            // Join the phase (unless the loop has already done it all and left it).
            seen = generation
            var list = jobs
            let phase = self.phase, size = batch
            if !list.isEmpty { busy += 1 }
            pthread_mutex_unlock(lock)
            guard !list.isEmpty else { continue }
            var done = 0
            while true {
                let start = next.add(size, ordering: .relaxed).oldValue
                guard start < list.count else { break }
                let end = min(list.count, start + size)
                for conn in list[start..<end] { IOThreads.perform(phase, conn, buffer) }
                done += end - start
            }
            list = []
            pthread_mutex_lock(lock)
            byWorkers += done
            busy -= 1
            if busy == 0 { pthread_cond_signal(idle) }
            pthread_mutex_unlock(lock)
        }
    }

    /// One job, on whichever thread claimed it: only `conn` is touched.
    private static func perform(_ phase: Phase, _ conn: Connection, _ buffer: UnsafeMutableRawBufferPointer) {
        switch phase {
        case .read: conn.readChunk(into: buffer)
        case .write: conn.sendReleased()
        }
    }
}

/// The parts of a plain (not TLS) connection's reading and writing that an
/// I/O thread does: system calls, framing, and the outcome left in the
/// connection for the loop (`ioRead`, `ioError`, `sentByThread`).
extension Connection {
    /// Reads once (up to `buffer.count` bytes) and frames what came into `pending`.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) {
        var count: Int
        repeat {
            count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        ioRead = count
        ioError = count < 0 ? errno : 0
        guard count > 0 else { return }
        framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { pending.append($0) }
    }

    /// Sends what may be sent without blocking (as `ConnectionIO.writeOut`);
    /// `ioError` is the errno of a failed send, 0 if none failed.
    func sendReleased() {
        sentByThread = true
        ioError = 0
        while sendableOutput > 0 {
            let sent = output.withUnsafeBytes { buf in
                ghost_send(fd, buf.baseAddress.map { $0 + written }, UInt(sendableOutput))
            }
            if sent > 0 {
                written += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                ioError = sent < 0 ? errno : EPIPE
                return
            }
        }
    }
}
