import Testing
import CGhostSys
@testable import GhostServer

/// When the loop asks the kernel how much of a connection's replies it still
/// holds (SIOCOUTQ, a system call) to check --max-output-bytes after a flush:
/// only when the socket did not take every byte that may be sent, and the
/// bytes ghostd holds plus all it ever sent could pass the limit.
@Suite("Connection: when the output limit needs the kernel's count")
struct ConnectionOutputTests {
    static func connection(queued: Int, released: Int, written: Int, trimmed: Int = 0) -> Connection {
        let c = Connection(id: 1, fd: -1, peer: "127.0.0.1:5000", now: 0)
        c.output.append(contentsOf: [UInt8](repeating: 0x41, count: queued))
        c.trimmed = trimmed
        c.releasedUpTo = trimmed + released
        c.written = written
        return c
    }

    @Test("Replies that wait for a sync, with everything released sent: no kernel count, however much was sent before")
    func heldOnly() {
        // 1,000 bytes queued, 400 released and sent, 600 wait for the disk.
        let c = Self.connection(queued: 1000, released: 400, written: 400, trimmed: 10_000_000)
        #expect(c.sendableOutput == 0 && c.pendingOutput == 600 && c.heldOutput == 600)
        #expect(!c.mayBeOverLimit(100))
    }

    @Test("Released bytes the socket did not take: the kernel is asked once they and all sent could pass the limit")
    func socketFull() {
        let c = Self.connection(queued: 1000, released: 1000, written: 300)
        #expect(c.sendableOutput == 700)
        #expect(c.mayBeOverLimit(999))
        // 700 unsent here and at most 300 in the kernel: never over 1,000.
        #expect(!c.mayBeOverLimit(1000))
        let long = Self.connection(queued: 1000, released: 1000, written: 300, trimmed: 5000)
        #expect(long.mayBeOverLimit(1000))
    }
}

/// IOThreads.Backoff: after a phase no I/O thread helped with, the loop does
/// the next ones alone, 1, 2, 4 ... up to 64 phases, and is back to waking
/// the threads at every phase as soon as one helps.
@Suite("IOThreads: the loop stops waking threads that do not help")
struct IOThreadsBackoffTests {
    /// The phases done alone before the threads are woken again.
    static func alone(_ b: inout IOThreads.Backoff) -> Int {
        var n = 0
        while !b.wake() { n += 1 }
        return n
    }

    @Test("Misses double the phases done alone, up to 64; a help resets it")
    func doubling() {
        var b = IOThreads.Backoff()
        #expect(b.wake() && b.wake())   // never missed: every phase
        var seen: [Int] = []
        for _ in 0..<9 {
            b.woke(helped: false)
            seen.append(Self.alone(&b))
        }
        #expect(seen == [1, 2, 4, 8, 16, 32, 64, 64, 64])
        b.woke(helped: true)
        #expect(b.wake() && b.wake() && b.wake())
        b.woke(helped: false)
        #expect(Self.alone(&b) == 1)
    }
}

/// IOThreads.oneCPU: a process confined to one CPU does every phase on the
/// loop (the threads would only take turns with it on that CPU).
@Suite("IOThreads: one CPU, no hand-off")
struct IOThreadsOneCPUTests {
    @Test("The affinity is read: pinned to one CPU it says one, and IOThreads.oneCPU follows it")
    func affinity() throws {
        let all = try #require(IOThreads.usableCPUs())
        let io = try #require(IOThreads(count: 2, chunk: 64))
        defer { io.stop() }
        io.checkCPUs()
        #expect(io.oneCPU == (all == 1))
        // The check reads the calling thread's affinity (the loop's; taskset -a sets every thread's).
        let saved = try #require(ghost_affinity_save())
        #expect(ghost_pin_to_one_cpu() == 0)
        let pinned = IOThreads.usableCPUs()
        io.checkCPUs()
        let oneCPU = io.oneCPU
        #expect(ghost_affinity_restore(saved) == 0)
        #expect(pinned == 1)
        #expect(oneCPU)
        #expect(IOThreads.usableCPUs() == all)
    }
}
