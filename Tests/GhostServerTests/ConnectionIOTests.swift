import Foundation
import Glibc
import Testing
import TestSupport
@testable import GhostServer
import GhostCore
import GhostStore
import WordLists

/// The connections' output apart from the loop (Net/ConnectionIO.swift):
/// what a flush sends, what it keeps for a sync, when it trims, and when it
/// says the connection must go. One end of a socket pair stands for the
/// client; nothing listens and no epoll set is open.
@Suite("ConnectionIO: a flush's accounting", .ownThread)
final class ConnectionIOTests {
    let rig: ConnectionIORig
    var io: ConnectionIO { rig.io }

    init() throws {
        rig = try ConnectionIORig("ghostd-io")
    }

    private static func connection(fd: Int32, queued: Int) -> Connection {
        let c = Connection(id: 3, fd: fd, peer: "127.0.0.1:5000", now: 0)
        c.output.append(contentsOf: [UInt8](repeating: 0x41, count: queued))
        return c
    }

    @Test("Only released bytes are sent; the rest waits for its sync; all sent, the buffer is trimmed; closing, it lingers")
    func sendsReleasedThenTrims() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { for fd in fds { close(fd) } }
        let c = Self.connection(fd: fds[0], queued: 1000)
        c.releasedUpTo = 400
        #expect(io.flush(c) == nil)
        #expect(c.written == 400 && c.pendingOutput == 600 && c.heldOutput == 600)
        var got = [UInt8](repeating: 0, count: 2000)
        #expect(got.withUnsafeMutableBytes { read(fds[1], $0.baseAddress, $0.count) } == 400)

        c.releaseAll()
        #expect(io.flush(c) == nil)
        #expect(c.pendingOutput == 0 && c.output.count == 0 && c.trimmed == 1000 && c.written == 0)
        #expect(got.withUnsafeMutableBytes { read(fds[1], $0.baseAddress, $0.count) } == 600)

        c.closeAfterFlush = true
        c.closeReason = "quit"
        let end = io.flush(c)
        #expect(end?.reason == "quit" && end?.linger == true)
    }

    @Test("A failed send, or one an I/O thread reports, is why the connection goes, without lingering")
    func failures() {
        let bad = Self.connection(fd: -1, queued: 10)
        bad.releaseAll()
        let end = io.flush(bad)
        #expect(end?.reason.hasPrefix("write error: ") == true && end?.linger == false)

        let threaded = Self.connection(fd: -1, queued: 0)
        threaded.sentByThread = true
        threaded.ioError = EPIPE
        #expect(io.flush(threaded)?.reason == "write error: \(String(cString: strerror(EPIPE)))")
        #expect(!threaded.sentByThread)
    }
}
