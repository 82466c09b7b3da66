import CGhostSys
#if canImport(Glibc)
import Glibc
#endif

/// Client sockets for the attack benchmarks: IPv4, optionally from a chosen
/// source address. Linux accepts any 127.0.0.0/8 source on loopback, so one
/// machine can play many addresses against a ghostd on 127.0.0.1.
enum Sockets {
    /// The `k`th attacker address of `count`: 127.0.0.1 alone, else
    /// 127.0.0.10, 127.0.0.11 … (127.0.0.2 is the probe's).
    static func attackerAddress(_ k: Int, of count: Int) -> String {
        count <= 1 ? "127.0.0.1" : "127.0.0.\(10 + k % 240)"
    }

    /// The `k`th address of the web port's attackers (ghost-bench attack's
    /// third phase): networks of their own, so that they start with budgets
    /// of their own, not with the debt the plain port's attackers left on
    /// 127.0.0.1 (the lines a flood sent are charged when read): 127.0.0.4
    /// alone, else 127.0.1.10, 127.0.1.11 …
    static func webAttackerAddress(_ k: Int, of count: Int) -> String {
        count <= 1 ? "127.0.0.4" : "127.0.1.\(10 + k % 240)"
    }

    static let probeAddress = "127.0.0.2"
    /// The WebSocket probe's (ghost-bench attack with a web port).
    static let webProbeAddress = "127.0.0.3"

    /// A connected TCP socket to `host:port` (IPv4 dotted quad), bound to
    /// `source` first if given; TCP_NODELAY, non-blocking unless `blocking`.
    /// -1 with errno set on failure.
    static func connect(host: String, port: Int, source: String?, blocking: Bool = false) -> Int32 {
        guard let source else {
            let fd = ghost_connect(host, Int32(port))
            if fd >= 0 && blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
            return fd
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = 0
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1, inet_pton(AF_INET, host, &remote.sin_addr) == 1 else {
            close(fd)
            errno = EINVAL
            return -1
        }
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        let connected = bound == 0 && withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) }
        } == 0
        guard connected else {
            let saved = errno
            close(fd)
            errno = saved
            return -1
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if !blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return fd
    }

    /// Writes all of `bytes` to a blocking socket; false if it fails.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                return false
            }
            at += n
        }
        return true
    }
}

/// Reads lines from a blocking socket with a deadline.
final class LineReader {
    let fd: Int32
    var inbox: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var closed = false

    init(fd: Int32) { self.fd = fd }

    /// The next line (without CR LF), or nil at end of stream or at the deadline (monotonic seconds).
    func line(until deadline: Double) -> String? {
        while true {
            if let bytes = takeLine() { return String(decoding: bytes, as: UTF8.self) }
            if closed || !fill(until: deadline) { return nil }
        }
    }

    /// The first whole line held in `inbox` (without CR LF), taken out; nil if there is none.
    func takeLine() -> [UInt8]? {
        guard let nl = inbox.firstIndex(of: 0x0A) else { return nil }
        let end = nl > 0 && inbox[nl - 1] == 0x0D ? nl - 1 : nl
        let bytes = Array(inbox[..<end])
        inbox.removeSubrange(...nl)
        return bytes
    }

    /// Reads what the socket holds into `inbox` (waiting until the deadline);
    /// false at the end of the stream (`closed`) or the deadline.
    func fill(until deadline: Double) -> Bool {
        while true {
            let left = deadline - now()
            guard left > 0 else { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(1000, max(1, left * 1000))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else {
                closed = true
                return false
            }
            inbox += buffer[..<n]
            return true
        }
    }
}
