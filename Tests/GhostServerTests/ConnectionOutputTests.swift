import Testing
@testable import GhostServer

/// When the loop asks the kernel how much of a connection's replies it still
/// holds (SIOCOUTQ, a system call) to check --max-output-bytes after a flush:
/// only when the socket did not take every byte that may be sent, and the
/// bytes ghostd holds plus all it ever sent could pass the limit.
@Suite("Connection: when the output limit needs the kernel's count")
struct ConnectionOutputTests {
    static func connection(queued: Int, released: Int, written: Int, trimmed: Int = 0) -> Connection {
        let c = Connection(id: 1, fd: -1, peer: "127.0.0.1:5000", now: 0)
        c.output = [UInt8](repeating: 0x41, count: queued)
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
