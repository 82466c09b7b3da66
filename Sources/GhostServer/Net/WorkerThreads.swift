import Glibc

/// A pool whose threads each run its `work()` until it stops: the hashing
/// threads (HashPool) and the I/O threads (IOThreads).
protocol WorkerPool: AnyObject {
    func work()
}

enum WorkerThreads {
    /// Starts `count` threads running `pool.work()`, each holding a retain
    /// on the pool until `work` returns. Nil when a thread cannot be
    /// started (the ones already started are returned to the caller through
    /// `started`, which it stops and joins).
    static func start(_ count: Int, _ pool: some WorkerPool, started: inout [pthread_t]) -> Bool {
        for _ in 0..<max(0, count) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(Box(pool)).toOpaque()
            let rc = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().pool.work()
                return nil
            }, context)
            guard rc == 0 else {
                Unmanaged<Box>.fromOpaque(context).release()
                return false
            }
            started.append(thread)
        }
        return true
    }

    /// Stops a pool's threads: under `lock`, `markStopping` (which each
    /// thread's `work` reads after its wait on `wake`) and a broadcast that
    /// wakes them; then joins them all.
    static func stop(_ threads: inout [pthread_t], lock: UnsafeMutablePointer<pthread_mutex_t>,
                     wake: UnsafeMutablePointer<pthread_cond_t>, _ markStopping: () -> Void) {
        pthread_mutex_lock(lock)
        markStopping()
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(lock)
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    private final class Box {
        let pool: any WorkerPool
        init(_ pool: any WorkerPool) { self.pool = pool }
    }
}
