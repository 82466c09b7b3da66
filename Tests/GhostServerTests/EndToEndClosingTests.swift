import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A `BYE` is readable (issue #42): when ghostd closes a connection itself,
/// it shuts its sending side after the `BYE` and reads and discards the
/// client's input for up to 2 s (a lingering close), so the kernel does not
/// reset the connection under the `BYE`, even for a client that keeps
/// sending and reads late.
@Suite("EndToEnd: closing a connection without resetting it", .timeLimit(.minutes(3)))
struct EndToEndClosingTests {
    /// A raw non-blocking socket from `source` to 127.0.0.1:port.
    static func open(port: Int, source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket: \(String(cString: strerror(errno)))") }
        var from = sockaddr_in()
        from.sin_family = sa_family_t(AF_INET)
        from.sin_addr.s_addr = inet_addr(source)
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = in_port_t(UInt16(port).bigEndian)
        to.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0 && withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard ok else {
            close(fd)
            throw DaemonError("connect: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Whether `fd` has something to read (or its end), without reading it.
    static func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    @Test("Flooded until BYE flood and still sending after it, a client that reads late gets the whole BYE and the end of the stream, no reset")
    func floodedClientReadsItsBye() throws {
        let d = try DaemonProcess.start(extraArguments: ["--flood-seconds", "1"])
        defer { d.kill() }
        let fd = try Self.open(port: d.port, source: "127.0.0.2")
        defer { close(fd) }
        // The HELLO, read first, so that what is readable later is the BYE.
        let start = monotonicNow()
        while !Self.readable(fd) && monotonicNow() - start < 10 { usleep(1_000) }
        var buf = [UInt8](repeating: 0, count: 65_536)
        var received: [UInt8] = []
        let hello = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if hello > 0 { received += buf[0..<hello] }

        // Blank lines flat out, never reading, until the BYE is there to read:
        // ghostd has a flood of input it has not read when it says BYE (a
        // close(2) then would make the kernel reset the connection).
        let chunk = [UInt8](repeating: 0x0A, count: 4_096)
        var byeAt: Double?
        var sendFailure: String?
        while byeAt == nil && monotonicNow() - start < 30 {
            let sent = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                sendFailure = String(cString: strerror(errno))
                break
            }
            if Self.readable(fd) { byeAt = monotonicNow() }
            else if sent < 0 { usleep(1_000) }
        }
        #expect(byeAt != nil, "no BYE within 30 s")
        // Then it keeps sending after the BYE, a bounded amount (8 chunks of
        // 4 KiB) that a slow ghostd drains within its 2 s lingering close as
        // well as a fast one: each chunk as soon as the socket takes it.
        var afterBye = 0
        let sendDeadline = monotonicNow() + 10   // bounds a failure only
        while byeAt != nil && sendFailure == nil && afterBye < 8 && monotonicNow() < sendDeadline {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, 100)
            let sent = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                afterBye += 1
            } else if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                sendFailure = String(cString: strerror(errno))
            }
        }
        #expect(sendFailure == nil, "sending (\(afterBye) chunks after the BYE) failed: \(sendFailure ?? "")")
        #expect(byeAt == nil || afterBye == 8, "only \(afterBye) chunks of 4 KiB could be sent after the BYE")

        // Now read: the BYE, then the end of the stream (0), never a reset.
        var end: String?
        let readStart = monotonicNow()
        while end == nil && monotonicNow() - readStart < 10 {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += buf[0..<n]
            } else if n == 0 {
                end = "end of stream"
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                usleep(1_000)
            } else {
                end = String(cString: strerror(errno))
            }
        }
        let lines = String(decoding: received, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.dropFirst() == [EndToEndBudgetTests.floodLine], "\(lines)")
        #expect(end == "end of stream")
        #expect(d.closeReason(localPort: Self.localPort(fd), from: "127.0.0.2") == "flood (over 50 command units a second for 1 s; slow down)")
    }

    static func localPort(_ fd: Int32) -> Int {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
