import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A `BYE` is readable: when ghostd closes a connection itself,
/// it shuts its sending side after the `BYE` and reads and discards the
/// client's input for up to 2 s (a lingering close), so the kernel does not
/// reset the connection under the `BYE`, even for a client that keeps
/// sending and reads late.
@Suite("EndToEnd: closing a connection without resetting it", .ownThread, .hangLimit)
struct EndToEndClosingTests {
    /// Whether `fd` has something to read (or its end), without reading it.
    static func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    @Test("Flooded until BYE flood and still sending after it, a client that reads late gets the whole BYE and the end of the stream, no reset")
    func floodedClientReadsItsBye() throws {
        let d = try DaemonProcess.start(extraArguments: ["--flood-seconds", "1"])
        defer { d.kill() }
        let s = try RawSocket.connect(port: d.port, source: "127.0.0.2").get()
        // The HELLO, read first, so that what is readable later is the BYE.
        #expect(s.readLine(timeout: 30)?.hasPrefix(LineClient.helloPrefix) == true)

        // Blank lines flat out, never reading, until the BYE is there to read;
        // then a bounded amount more (8 chunks, each as soon as the socket takes it),
        // which a daemon that closed with close(2) answers with a reset.
        let chunk = [UInt8](repeating: 0x0A, count: 4_096)
        let start = monotonicNow()
        var sawBye = false
        var sendFailure: String?
        var after = 0
        while monotonicNow() - start < 30 && after < 8 {
            let sent = chunk.withUnsafeBytes { send(s.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                sendFailure = String(cString: strerror(errno))
                break
            }
            if !sawBye, Self.readable(s.fd) { sawBye = true }
            if sawBye && sent > 0 { after += 1 }
            if sent < 0 { usleep(1_000) }
        }
        #expect(sawBye, "no BYE within 30 s")
        #expect(sendFailure == nil, "sending after the BYE failed: \(sendFailure ?? "")")
        #expect(after == 8, "\(after) chunks sent after the BYE")

        // Now read: the BYE, then the end of the stream, never a reset.
        let (lines, closed) = s.readToEOF(timeout: 10)
        #expect(lines == [EndToEndBudgetTests.floodLine], "\(lines)")
        #expect(closed && !s.wasReset, "closed \(closed), reset \(s.wasReset)")
        #expect(d.closeReason(localPort: s.localPort, from: "127.0.0.2") == "flood (over 50 command units a second for 1 s; slow down)")
    }
}
