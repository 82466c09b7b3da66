import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A bare client socket to 127.0.0.1 that never records an issue and never
/// blocks without a timeout: for background threads (where Swift Testing has
/// no current test to attribute an issue to) and for many cheap sockets.
/// Every call reports what happened; the caller decides what is a failure.
final class RawSocket {
    enum SendOutcome: Equatable, CustomStringConvertible {
        /// Every byte was handed to the kernel.
        case sent
        /// The socket stayed full for the whole timeout.
        case timedOut(unsent: Int)
        /// send() failed (EPIPE, ECONNRESET ...) after `sent` bytes.
        case failed(errno: Int32, sent: Int)

        var description: String {
            switch self {
            case .sent: "sent"
            case .timedOut(let unsent): "timed out with \(unsent) bytes unsent"
            case .failed(let e, let sent): "failed after \(sent) bytes: \(String(cString: strerror(e)))"
            }
        }
    }

    private(set) var fd: Int32
    /// The client's own port (the daemon logs `opened from 127.0.0.1:<localPort>`).
    let localPort: Int
    /// EOF or a reset was seen.
    private(set) var sawEOF = false
    /// The connection was reset (ECONNRESET on recv).
    private(set) var wasReset = false
    private var buffer: [UInt8] = []

    private init(fd: Int32, localPort: Int) {
        self.fd = fd
        self.localPort = localPort
    }

    deinit { close() }

    /// Connects (non-blocking socket, CLOEXEC) to 127.0.0.1:`port`; a text on failure.
    /// `receiveBuffer` (SO_RCVBUF) and `maxSegment` (TCP_MAXSEG) shrink what
    /// the kernels on both ends buffer for this connection: a small segment
    /// keeps the daemon's send buffer small too, so that unread replies pile up
    /// in ghostd itself after a few KB instead of a few MB.
    /// `source`: the local address to connect from (any of 127.0.0.0/8: another network).
    static func connect(port: Int, timeout: Double = 5, receiveBuffer: Int32? = nil,
                        maxSegment: Int32? = nil, source: String? = nil) -> Result<RawSocket, DaemonError> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(DaemonError("socket: \(String(cString: strerror(errno)))")) }
        if let source {
            var from = sockaddr_in()
            from.sin_family = sa_family_t(AF_INET)
            from.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let e = errno
                Glibc.close(fd)
                return .failure(DaemonError("bind \(source): \(String(cString: strerror(e)))"))
            }
        }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if var mss = maxSegment {
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &mss, socklen_t(MemoryLayout<Int32>.size))
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if r != 0 {
            guard errno == EINPROGRESS else {
                let e = errno
                Glibc.close(fd)
                return .failure(DaemonError("connect: \(String(cString: strerror(e)))"))
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var soError: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            if RawSocket.poll(&pfd, timeout: timeout) <= 0 {
                Glibc.close(fd)
                return .failure(DaemonError("connect timed out after \(timeout) s"))
            }
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
            if soError != 0 {
                Glibc.close(fd)
                return .failure(DaemonError("connect: \(String(cString: strerror(soError)))"))
            }
        }
        var local = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return .success(RawSocket(fd: fd, localPort: Int(UInt16(bigEndian: local.sin_port))))
    }

    /// poll(2) on one descriptor, retrying on EINTR; the poll result.
    private static func poll(_ pfd: inout pollfd, timeout: Double) -> Int32 {
        let deadline = monotonicNow() + timeout
        while true {
            let ms = Int32(max(0, (deadline - monotonicNow()) * 1000).rounded(.up))
            let r = Glibc.poll(&pfd, 1, ms)
            if r >= 0 || errno != EINTR { return r }
        }
    }

    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes with an RST (SO_LINGER 0), like a crashed peer.
    func reset() {
        guard fd >= 0 else { return }
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    // MARK: Sending

    /// Sends every byte, waiting at most `timeout` seconds in all for room.
    func send(_ bytes: [UInt8], timeout: Double = 5) -> SendOutcome {
        guard fd >= 0 else { return .failed(errno: EBADF, sent: 0) }
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
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if remaining <= 0 || RawSocket.poll(&pfd, timeout: remaining) <= 0 {
                    return .timedOut(unsent: bytes.count - offset)
                }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return .failed(errno: n < 0 ? errno : EPIPE, sent: offset)
            }
        }
        return .sent
    }

    /// Sends `text` plus "\n" unless it ends with one.
    func send(_ text: String, timeout: Double = 5) -> SendOutcome {
        send(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), timeout: timeout)
    }

    // MARK: Receiving

    /// The next line without its CRLF, or nil on timeout or EOF. A line that
    /// does not end in CRLF comes back with ` <no CR>` appended, so that an
    /// exact comparison fails.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = monotonicNow() + timeout
        while true {
            if let lf = buffer.firstIndex(of: 0x0A) {
                var bytes = Array(buffer[..<lf])
                buffer.removeSubrange(...lf)
                let hadCR = bytes.last == 0x0D
                if hadCR { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self) + (hadCR ? "" : " <no CR>")
            }
            if sawEOF || fd < 0 { return nil }
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { return nil }
            receive(timeout: remaining)
        }
    }

    /// Reads until EOF (or reset) or the timeout; returns the complete lines
    /// received on the way and whether the connection ended.
    func readToEOF(timeout: Double = 5) -> (lines: [String], closed: Bool) {
        let deadline = monotonicNow() + timeout
        var lines: [String] = []
        while !sawEOF && fd >= 0 {
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { break }
            receive(timeout: remaining)
            while let line = readLine(timeout: 0) { lines.append(line) }
        }
        while let line = readLine(timeout: 0) { lines.append(line) }
        return (lines, sawEOF)
    }

    /// True if nothing (no byte, no EOF) arrives within `within` seconds.
    func staysQuiet(within: Double) -> Bool {
        guard buffer.isEmpty, !sawEOF else { return false }
        receive(timeout: within)
        return buffer.isEmpty && !sawEOF
    }

    /// Bytes received but not yet returned as a line.
    var pending: [UInt8] { buffer }

    /// Waits up to `timeout` for something to read, then reads what is there.
    private func receive(timeout: Double) {
        guard fd >= 0 else { return }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard RawSocket.poll(&pfd, timeout: timeout) > 0 else { return }
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
            } else {
                if errno == ECONNRESET { wasReset = true }
                sawEOF = true
                return
            }
        }
    }
}

/// Work on a thread of its own that reports problems as text instead of
/// recording issues (a plain thread has no current test); the test thread
/// checks `problems` after `wait`.
final class BackgroundJob: @unchecked Sendable {
    let name: String
    private let state = NSCondition()
    private var finished = false
    private var stopRequested = false
    private var problemList: [String] = []
    private var noteList: [String] = []
    private var flags: Set<String> = []

    init(_ name: String, _ body: @escaping @Sendable (BackgroundJob) -> Void) {
        self.name = name
        let thread = Thread { [self] in
            body(self)
            state.lock()
            finished = true
            state.broadcast()
            state.unlock()
        }
        thread.name = "job-" + name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Records something that went wrong.
    func problem(_ text: String) {
        state.lock()
        problemList.append("[\(name)] \(text)")
        state.unlock()
    }

    /// Records something worth reporting that is not a failure.
    func note(_ text: String) {
        state.lock()
        noteList.append("[\(name)] \(text)")
        state.unlock()
    }

    /// Raises a named flag (e.g. "holding"), for the test thread to see.
    func raise(_ flag: String) {
        state.lock()
        flags.insert(flag)
        state.broadcast()
        state.unlock()
    }

    func hasRaised(_ flag: String) -> Bool {
        state.lock()
        defer { state.unlock() }
        return flags.contains(flag)
    }

    /// Asks a long-running job to wind up.
    func requestStop() {
        state.lock()
        stopRequested = true
        state.broadcast()
        state.unlock()
    }

    var shouldStop: Bool {
        state.lock()
        defer { state.unlock() }
        return stopRequested
    }

    /// Waits until `requestStop` or the timeout; true if asked to stop.
    func waitForStop(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        defer { state.unlock() }
        while !stopRequested {
            if !state.wait(until: deadline) { break }
        }
        return stopRequested
    }

    var isFinished: Bool {
        state.lock()
        defer { state.unlock() }
        return finished
    }

    /// Waits for the body to return; false on timeout.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        defer { state.unlock() }
        while !finished {
            if !state.wait(until: deadline) { break }
        }
        return finished
    }

    var problems: [String] {
        state.lock()
        defer { state.unlock() }
        return problemList
    }

    var notes: [String] {
        state.lock()
        defer { state.unlock() }
        return noteList
    }
}

/// The whole of a /proc file (whose size stat reports as 0), or nil.
func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

extension DaemonProcess {
    /// The daemon's resident memory in KiB (VmRSS in /proc/<pid>/status), or nil.
    var residentKiB: Int? {
        guard let text = readProcFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Descriptors the daemon has open (entries of /proc/<pid>/fd), or nil.
    var openDescriptors: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// The daemon's CPU time so far (user + system), in seconds, from /proc/<pid>/stat.
    var cpuSeconds: Double? {
        guard let text = readProcFile("/proc/\(pid)/stat"),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Why the daemon closed the connection opened from local port `port`
    /// (the text after `connection N closed: `), waiting up to `timeout`; nil if
    /// it did not log that.
    func closeReason(localPort port: Int, from host: String = "127.0.0.1", timeout: Double = 5) -> String? {
        let start = monotonicNow()
        guard let opened = waitForStderrLine(timeout: timeout, where: { $0.hasSuffix("opened from \(host):\(port)") }),
              let r = opened.range(of: "connection "),
              let id = Int(opened[r.upperBound...].prefix(while: \.isNumber)) else { return nil }
        let marker = "connection \(id) closed: "
        let left = max(0.1, timeout - (monotonicNow() - start))
        guard let line = waitForStderrLine(timeout: left, where: { $0.contains(marker) }),
              let m = line.range(of: marker) else { return nil }
        return String(line[m.upperBound...])
    }
}
