import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A blocking, line-oriented TCP client for end-to-end tests, over raw Glibc
/// sockets. Every wait has a timeout, so a broken server fails the test
/// instead of hanging it. Failing helpers record an issue at the caller's
/// line (with what was actually received) and throw, which ends the test.
public final class LineClient {
    /// Default seconds to wait for a line. Generous: daemons of parallel tests share the CPU.
    public static let defaultTimeout: Double = 20
    public static let helloPrefix = "HELLO ghostd/"

    public let label: String
    public let port: Int
    /// The client's own port, which the daemon logs as `opened from 127.0.0.1:<localPort>`.
    public private(set) var localPort: Int = 0
    /// The `HELLO` line, once read.
    public private(set) var hello: String?
    /// Every line received so far, in order (for failure messages).
    public private(set) var received: [String] = []
    /// True once the server closed the connection (EOF or reset).
    public private(set) var sawEOF = false

    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    // MARK: Connecting

    /// Connects and, unless `readHello` is false, reads and checks the greeting.
    /// `source`: the local address to connect from (any of 127.0.0.0/8 on
    /// Linux), so that one test can be several networks.
    public init(port: Int, host: String = "127.0.0.1", label: String = "client", readHello: Bool = true,
         timeout: Double = LineClient.defaultTimeout, source: String? = nil,
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.label = label
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { try fail("socket: \(errnoText())", sourceLocation) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))

        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else { try fail("bad IPv4 address \(source)", sourceLocation) }
            let b = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard b == 0 else { try fail("bind to \(source): \(errnoText())", sourceLocation) }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { try fail("bad IPv4 address \(host)", sourceLocation) }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if r != 0 {
            guard errno == EINPROGRESS else { try fail("connect to \(host):\(port): \(errnoText())", sourceLocation) }
            guard try waitFor(Int16(POLLOUT), timeout: timeout, sourceLocation) else {
                try fail("connect to \(host):\(port) timed out after \(timeout) s", sourceLocation)
            }
            var soError: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
            guard soError == 0 else { try fail("connect to \(host):\(port): \(String(cString: strerror(soError)))", sourceLocation) }
        }
        var local = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        localPort = Int(UInt16(bigEndian: local.sin_port))

        if readHello {
            let line = try readLine(timeout: timeout, sourceLocation: sourceLocation)
            guard line.hasPrefix(LineClient.helloPrefix), line.hasSuffix(" protocol=2 languages=en,nl") else {
                try fail("expected `HELLO ghostd/<version> protocol=2 languages=en,nl`, got `\(line)`", sourceLocation)
            }
            hello = line
        }
    }

    deinit { close() }

    /// Closes the socket (idempotent).
    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes with an RST instead of a FIN (SO_LINGER 0), like a crashed peer.
    public func reset() {
        guard fd >= 0 else { return }
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    // MARK: Sending

    /// Sends `text`, adding "\n" unless it already ends with one.
    public func send(_ text: String, timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        try sendRaw(Array(line.utf8), timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Sends bytes as they are.
    public func sendRaw(_ bytes: [UInt8], timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard fd >= 0 else { try fail("send on a closed client", sourceLocation) }
        var offset = 0
        let deadline = monotonicNow() + timeout
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                Glibc.send(fd, buf.baseAddress! + offset, buf.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                let remaining = deadline - monotonicNow()
                guard remaining > 0, try waitFor(Int16(POLLOUT), timeout: remaining, sourceLocation) else {
                    try fail("send timed out after \(timeout) s with \(bytes.count - offset) of \(bytes.count) bytes unsent", sourceLocation)
                }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                try fail("send failed after \(offset) of \(bytes.count) bytes: \(errnoText())", sourceLocation)
            }
        }
    }

    // MARK: Receiving

    /// The next line, without its CRLF. Fails if none arrives in time, on EOF, or if
    /// the line does not end in CRLF.
    @discardableResult
    public func readLine(timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let deadline = monotonicNow() + timeout
        while true {
            if let lf = buffer.firstIndex(of: 0x0A) {
                var bytes = Array(buffer[..<lf])
                buffer.removeSubrange(...lf)
                let hadCR = bytes.last == 0x0D
                if hadCR { bytes.removeLast() }
                let line = String(decoding: bytes, as: UTF8.self)
                received.append(line)
                if !hadCR { try fail("line does not end in CRLF: `\(line)`", sourceLocation) }
                return line
            }
            if sawEOF {
                try fail("connection closed while waiting for a line" + pendingNote(), sourceLocation)
            }
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else {
                try fail("no complete line within \(timeout) s" + pendingNote(), sourceLocation)
            }
            try receiveSome(timeout: remaining, sourceLocation)
        }
    }

    /// Reads the next line and checks it is exactly `line`.
    public func expect(_ line: String, timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try readLine(timeout: timeout, sourceLocation: sourceLocation)
        if got != line {
            try fail("expected `\(line)`\n     got `\(got)`", sourceLocation)
        }
    }

    /// Reads the next lines and checks they are exactly `lines`, in order.
    public func expect(lines: [String], timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for line in lines { try expect(line, timeout: timeout, sourceLocation: sourceLocation) }
    }

    /// Reads the next line, checks it starts with `prefix`, and returns it.
    @discardableResult
    public func expectPrefix(_ prefix: String, timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let got = try readLine(timeout: timeout, sourceLocation: sourceLocation)
        if !got.hasPrefix(prefix) {
            try fail("expected a line starting `\(prefix)`\n     got `\(got)`", sourceLocation)
        }
        return got
    }

    /// Reads the next line and checks it is `ERR <code> <some text>`; returns the line.
    @discardableResult
    public func expectError(_ code: String, timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let line = try expectPrefix("ERR \(code) ", timeout: timeout, sourceLocation: sourceLocation)
        if line.count <= "ERR \(code) ".count {
            try fail("ERR line without text: `\(line)`", sourceLocation)
        }
        return line
    }

    /// Reads lines until one starts with `prefix`; returns the lines skipped and that line.
    @discardableResult
    public func readUntil(prefix: String, timeout: Double = LineClient.defaultTimeout,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> (skipped: [String], line: String) {
        let deadline = monotonicNow() + timeout
        var skipped: [String] = []
        while true {
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else {
                try fail("no line starting `\(prefix)` within \(timeout) s; skipped \(skipped)", sourceLocation)
            }
            let line = try readLine(timeout: remaining, sourceLocation: sourceLocation)
            if line.hasPrefix(prefix) { return (skipped, line) }
            skipped.append(line)
        }
    }

    /// Checks that no byte (and no EOF) arrives within `within` seconds.
    public func expectNothing(within: Double = 0.3, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if !buffer.isEmpty {
            try fail("expected nothing, but already holding" + pendingNote(), sourceLocation)
        }
        let deadline = monotonicNow() + within
        while true {
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { return }
            guard try waitFor(Int16(POLLIN), timeout: remaining, sourceLocation) else { return }
            try receiveSome(timeout: 0, sourceLocation)
            if sawEOF || !buffer.isEmpty {
                // Give the rest of a burst a moment to arrive, for a useful message.
                usleep(50_000)
                if !sawEOF { try? receiveSome(timeout: 0, sourceLocation) }
                try fail("expected nothing within \(within) s, but received" + pendingNote(), sourceLocation)
            }
        }
    }

    /// Waits for the server to close the connection; bytes that arrive first stay
    /// readable. Returns false on timeout.
    public func isClosed(timeout: Double = LineClient.defaultTimeout) -> Bool {
        let deadline = monotonicNow() + timeout
        while !sawEOF {
            let remaining = deadline - monotonicNow()
            guard remaining > 0, (try? receiveSome(timeout: remaining, nil)) != nil else { return sawEOF }
        }
        return true
    }

    /// Takes the complete lines already received, without waiting and without
    /// failing (CR stripped if present). For reading what came before an EOF.
    public func takeBufferedLines(max: Int = Int.max) -> [String] {
        var lines: [String] = []
        while lines.count < max, let lf = buffer.firstIndex(of: 0x0A) {
            var bytes = Array(buffer[..<lf])
            buffer.removeSubrange(...lf)
            if bytes.last == 0x0D { bytes.removeLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            received.append(line)
            lines.append(line)
        }
        return lines
    }

    /// Checks that the server closes the connection without sending anything more.
    public func expectClosed(timeout: Double = LineClient.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if !isClosed(timeout: timeout) {
            try fail("the server did not close the connection within \(timeout) s" + pendingNote(), sourceLocation)
        }
        if !buffer.isEmpty {
            try fail("expected EOF, but received first" + pendingNote(), sourceLocation)
        }
    }

    // MARK: Protocol helpers

    /// `NAME <name>` → `OK NAME name=<name> lang=<lang>` (the name's stored
    /// language preference; `en` for a new name).
    public func login(_ name: String, lang: String = "en", sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send("NAME \(name)", sourceLocation: sourceLocation)
        try expect("OK NAME name=\(name) lang=\(lang)", sourceLocation: sourceLocation)
    }

    /// `PING` → `OK PING`.
    public func ping(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send("PING", sourceLocation: sourceLocation)
        try expect("OK PING", sourceLocation: sourceLocation)
    }

    // MARK: Without failing (for clients whose server may vanish)

    /// The socket, for poll(2) over many clients; -1 once closed.
    public var fileDescriptor: Int32 { fd }

    /// Sends `text` (plus "\n") without waiting and without recording an issue.
    /// Returns false if the connection is gone (EPIPE, ECONNRESET...) or the
    /// socket buffer is full. Never raises SIGPIPE (MSG_NOSIGNAL).
    @discardableResult
    public func trySend(_ text: String) -> Bool {
        guard fd >= 0 else { return false }
        let bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                Glibc.send(fd, buf.baseAddress! + offset, buf.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Sends bytes as they are, as far as the socket takes them now; false
    /// once the connection is gone. Never raises SIGPIPE.
    @discardableResult
    public func trySendRaw(_ bytes: [UInt8]) -> Bool {
        guard fd >= 0 else { return false }
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        return n >= 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
    }

    /// Reads whatever has arrived, without waiting and without recording an
    /// issue, and returns the complete lines (CR stripped). Sets `sawEOF` on
    /// EOF or a reset.
    public func readAvailable() -> [String] {
        if fd >= 0 && !sawEOF { try? receiveSome(timeout: 0, nil) }
        return takeBufferedLines()
    }

    /// The next line within `timeout`, or nil on EOF, reset or timeout; never
    /// records an issue.
    public func nextLine(timeout: Double) -> String? {
        let deadline = monotonicNow() + timeout
        while true {
            if buffer.contains(0x0A) { return takeBufferedLines(max: 1).first }
            if sawEOF || fd < 0 { return nil }
            let remaining = deadline - monotonicNow()
            guard remaining > 0, (try? receiveSome(timeout: remaining, nil)) != nil else { return nil }
        }
    }

    // MARK: Internals

    /// Records an issue at `sourceLocation` and throws an error Swift Testing does not record twice.
    public func fail(_ message: String, _ sourceLocation: SourceLocation?) throws -> Never {
        let text = "[\(label)] \(message)\n  lines received by \(label) so far: \(received.suffix(12))"
        if let sourceLocation {
            let serverBehavedAsExpected = false
            try #require(serverBehavedAsExpected, Comment(rawValue: text), sourceLocation: sourceLocation)
        }
        throw DaemonError(text)
    }

    private func pendingNote() -> String {
        var s = buffer.isEmpty ? "" : " pending bytes \(describe(buffer.prefix(300)))"
        if sawEOF { s += " [EOF]" }
        return s.isEmpty ? " nothing" : s
    }

    private func describe(_ bytes: ArraySlice<UInt8>) -> String {
        var out = "\""
        for b in bytes {
            switch b {
            case 0x0D: out += "\\r"
            case 0x0A: out += "\\n"
            case 0x20..<0x7F: out += String(UnicodeScalar(b))
            default: out += String(format: "\\x%02X", b)
            }
        }
        return out + "\""
    }

    /// Waits until the socket is ready for `events`; false on timeout.
    private func waitFor(_ events: Int16, timeout: Double, _ sourceLocation: SourceLocation?) throws -> Bool {
        guard fd >= 0 else { try fail("the client socket is closed", sourceLocation) }
        let deadline = monotonicNow() + timeout
        while true {
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let ms = Int32(max(0, (deadline - monotonicNow()) * 1000).rounded(.up))
            let r = poll(&pfd, 1, ms)
            if r > 0 { return true }
            if r == 0 { return false }
            if errno != EINTR { try fail("poll: \(errnoText())", sourceLocation) }
        }
    }

    /// Reads what is available (waiting up to `timeout` for something) into the buffer.
    private func receiveSome(timeout: Double, _ sourceLocation: SourceLocation?) throws {
        guard try waitFor(Int16(POLLIN), timeout: timeout, sourceLocation) else { return }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return
            } else if n == 0 {
                sawEOF = true
                return
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else if errno == ECONNRESET {
                sawEOF = true
                return
            } else {
                try fail("recv: \(errnoText())", sourceLocation)
            }
        }
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
