import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Superghost's settled positions of one language (`SuperSolver`'s memory):
/// live fragment → whether the player to move wins. It holds settled values
/// only (a position the budget left unsettled is not remembered), so every
/// value in it is final.
///
/// Readers share it (a read-write lock): the event loop's look-ups and the
/// background solves' searches go on side by side. A writer takes it alone
/// only to add one batch of newly settled positions (at most
/// `SuperSolver.publishBatch`, or a loop call's budget): the work that can
/// take long (a bigger table when it fills up, the eviction at
/// `maxPositions`) is done beforehand, beside the readers, and swapped in.
/// The loop never waits for it: it tries the read lock, and without it goes
/// on as if nothing were settled (`SuperSolver.Session`), and it hands what
/// it settled to the next writer (`handOff`) instead of writing.
final class SuperMemo: @unchecked Sendable {
    /// A fragment of at most 24 letters a–z as two words, 5 bits a letter
    /// (1–26; 0 past the end), 12 letters each: 16 bytes, no allocation,
    /// where a byte array key cost about 60.
    struct Key: Hashable, Sendable {
        var high: UInt64
        var low: UInt64
        static let letters = 24

        init?(_ fragment: [UInt8]) {
            guard fragment.count <= Key.letters else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0
            for (i, c) in fragment.enumerated() {
                guard c >= 0x61, c <= 0x7A else { return nil }
                let code = UInt64(c - 0x60)
                if i < 12 { high |= code << UInt64(5 * i) } else { low |= code << UInt64(5 * (i - 12)) }
            }
            self.high = high
            self.low = low
        }

        /// The fragment's length: its letters are the non-zero groups.
        var count: Int {
            var n = 0
            for word in [high, low] {
                var w = word
                while w != 0 { n += 1; w >>= 5 }
            }
            return n
        }
    }

    /// Positions and their values: 24 letters or fewer by `Key`, longer
    /// ones (a few, in lists with long words) by their bytes.
    struct Table: Sendable {
        var short: [Key: Bool] = [:]
        var long: [[UInt8]: Bool] = [:]
        var count: Int { short.count + long.count }
        var isEmpty: Bool { short.isEmpty && long.isEmpty }

        subscript(fragment: [UInt8]) -> Bool? {
            get {
                if let key = Key(fragment) { return short[key] }
                return long[fragment]
            }
            set {
                if let key = Key(fragment) { short[key] = newValue } else { long[fragment] = newValue }
            }
        }
    }

    /// Batches a loop call may leave for the next writer (each at most
    /// `GhostKind.reviewBudget` positions); past it, a batch is dropped
    /// (work lost, never a wrong value).
    static let maxHandOffs = 16

    let maxPositions: Int
    let keptLetters: Int
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let table: UnsafeMutablePointer<Table>
    /// Writers one at a time (never the loop).
    private let writer = Mutex(())
    private let handOffs = Mutex<[Table]>([])
    /// Tests: called while a writer holds the lock.
    let whileWriting = Mutex<(@Sendable () -> Void)?>(nil)
    /// The longest a writer held the lock, in nanoseconds: of the clock,
    /// and of the writer's CPU (the rest is time the writer, at nice 10, was
    /// not running); for tests and benchmarks.
    private let longestWrite = Atomic<Int>(0)
    private let longestWriteCPU = Atomic<Int>(0)

    init(maxPositions: Int, keptLetters: Int) {
        self.maxPositions = maxPositions
        self.keptLetters = keptLetters
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        table = .allocate(capacity: 1)
        table.initialize(to: Table())
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    // MARK: Reading

    /// Takes the read lock, waiting while a writer holds it (off the loop only).
    func lockRead() { pthread_rwlock_rdlock(lock) }
    /// Takes the read lock if no writer holds it; false at once otherwise (the loop).
    func tryLockRead() -> Bool { pthread_rwlock_tryrdlock(lock) == 0 }
    func unlockRead() { pthread_rwlock_unlock(lock) }

    /// The value of `fragment` if settled; under the read lock only.
    func lookup(_ fragment: [UInt8]) -> Bool? { table.pointee[fragment] }

    /// How many positions are remembered (waits for the read lock).
    var count: Int {
        lockRead()
        defer { unlockRead() }
        return table.pointee.count
    }

    /// The longest the write lock was held so far, in seconds: of the clock, and of the writer's CPU.
    var longestWriteSeconds: (wall: Double, cpu: Double) {
        (Double(longestWrite.load(ordering: .relaxed)) / 1e9, Double(longestWriteCPU.load(ordering: .relaxed)) / 1e9)
    }

    // MARK: Writing

    /// Leaves `fresh` for the next writer, without waiting: false when it
    /// could not (the hand-offs are full or being taken), and the positions
    /// are not kept.
    func handOff(_ fresh: Table) -> Bool {
        guard !fresh.isEmpty else { return true }
        return handOffs.withLockIfAvailable { batches -> Bool in
            guard batches.count < SuperMemo.maxHandOffs else { return false }
            batches.append(fresh)
            return true
        } ?? false
    }

    /// Whether batches wait to be added.
    var hasHandOffs: Bool { handOffs.withLock { !$0.isEmpty } }

    /// Adds `fresh` and the batches handed off, one batch per hold of the
    /// write lock; waits for the locks (off the loop only).
    func publish(_ fresh: Table) {
        writer.withLock { _ in
            var batches = handOffs.withLock { batches -> [Table] in
                defer { batches.removeAll() }
                return batches
            }
            if !fresh.isEmpty { batches.append(fresh) }
            for batch in batches { add(batch) }
        }
    }

    /// One batch. Only the holder of `writer` writes, so it reads the table
    /// without the lock, beside the readers, to make a replacement when the
    /// batch would not fit (`replacement`); the write lock then covers the
    /// swap and the batch's insertions.
    private func add(_ batch: Table) {
        let (made, evicting) = self.replacement(for: batch)
        var replacement = made
        var oldLong: [[UInt8]: Bool] = [:]
        pthread_rwlock_wrlock(lock)
        let start = ContinuousClock.now, startCPU = SuperMemo.threadCPU()
        if var short = replacement {
            swap(&table.pointee.short, &short)
            replacement = short
        }
        if evicting { swap(&table.pointee.long, &oldLong) }
        whileWriting.withLock { $0 }?()
        for (key, value) in batch.short { table.pointee.short[key] = value }
        for (key, value) in batch.long { table.pointee.long[key] = value }
        let held = ContinuousClock.now - start, heldCPU = SuperMemo.threadCPU() - startCPU
        pthread_rwlock_unlock(lock)
        // The old storage is freed here, after the lock.
        withExtendedLifetime((replacement, oldLong)) {}
        SuperMemo.raise(longestWrite, to: Int(held.components.seconds) * 1_000_000_000 + Int(held.components.attoseconds / 1_000_000_000))
        SuperMemo.raise(longestWriteCPU, to: heldCPU)
    }

    private static func raise(_ figure: borrowing Atomic<Int>, to ns: Int) {
        var seen = figure.load(ordering: .relaxed)
        while ns > seen {
            let (exchanged, original) = figure.compareExchange(expected: seen, desired: ns, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    /// The calling thread's CPU time in nanoseconds (0 where unknown).
    private static func threadCPU() -> Int {
        #if canImport(Glibc)
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Int(t.tv_sec) * 1_000_000_000 + Int(t.tv_nsec)
        #else
        return 0
        #endif
    }

    /// A new table of the short positions when `batch` would not fit, and
    /// whether it evicts: past `maxPositions`, only the fragments of at most
    /// `keptLetters` letters are kept (the openings every game goes
    /// through; the rest is solved again when a game needs it), and the long
    /// positions go; when the table would have to grow, a copy twice as
    /// large (so no insertion under the lock grows it). Nil when the batch
    /// fits. Reads the table in place (a copy of it would make the writes
    /// under the lock copy it all).
    private func replacement(for batch: Table) -> ([Key: Bool]?, evicting: Bool) {
        let count = table.pointee.count, shortCount = table.pointee.short.count
        if count + batch.count > maxPositions {
            var kept: [Key: Bool] = [:]
            for (key, value) in table.pointee.short where key.count <= keptLetters { kept[key] = value }
            kept.reserveCapacity(max(2 * (kept.count + batch.short.count), 1024))
            return (kept, true)
        }
        let capacity = table.pointee.short.capacity
        guard shortCount + batch.short.count > capacity else { return (nil, false) }
        var grown: [Key: Bool] = [:]
        grown.reserveCapacity(max(2 * capacity, shortCount + batch.short.count, 1024))
        for (key, value) in table.pointee.short { grown[key] = value }
        return (grown, false)
    }
}
