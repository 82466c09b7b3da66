import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for the services the tests start themselves (ghostd,
/// PostgreSQL, HAProxy, chromedriver) and for a port held busy.
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A socket bound to 127.0.0.1 on a port the kernel picked, listening if
    /// `listen`: its descriptor (the caller closes it) and the port.
    public static func bound(listening: Bool) throws -> (fd: Int32, port: Int) {
        try bind(port: 0, listening: listening)
    }

    /// A loopback port free now, and outside the kernel's ephemeral range
    /// (`/proc/sys/net/ipv4/ip_local_port_range`), for a service that a test
    /// stops and starts again on the same port.
    ///
    /// A port from the ephemeral range (the kernel's pick for port 0) can be
    /// handed out while its server is down: to anything on the machine that
    /// binds port 0, or to an outgoing connection as its local port, even to
    /// a client trying to reach that very port, which then connects to
    /// itself (TCP's simultaneous open). A CI run once found PostgreSQL's
    /// port (46475) taken when it started again ("could not bind IPv4
    /// address: Address already in use"). A port outside the range is never
    /// handed out, so only a process that binds it by number can take it.
    /// The ports are taken in turn from a random place, so that the tests of
    /// one process never pick the same one twice in a run; each is checked by
    /// a bind without SO_REUSEADDR (which a connection in TIME_WAIT also
    /// refuses).
    public static func free() throws -> Int {
        let candidates = outsideEphemeral
        guard !candidates.isEmpty else { return try kernelPick() }
        for _ in 0..<min(candidates.count, 4_096) {
            let port = nextLock.withLock { () -> Int in
                let index = next % candidates.count
                next = index + 1
                return candidates[index]
            }
            if let (fd, _) = try? bind(port: port, listening: false) {
                Glibc.close(fd)
                return port
            }
        }
        return try kernelPick()
    }

    /// The kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`),
    /// or nil when it cannot be read.
    public static let ephemeralRange: ClosedRange<Int>? = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }()

    /// The ports this machine's kernel never hands out: 20000 up to the
    /// ephemeral range, and from its end to 65535 (none if the range covers
    /// them or cannot be read).
    static let outsideEphemeral: [Int] = {
        guard let range = ephemeralRange else { return [] }
        let below = 20_000 < range.lowerBound ? Array(20_000..<range.lowerBound) : []
        let above = range.upperBound < 65_535 ? Array((range.upperBound + 1)...65_535) : []
        return below + above
    }()

    /// Where the next pick starts: a random place, then in turn.
    private static let nextLock = NSLock()
    nonisolated(unsafe) private static var next = Int.random(in: 0..<max(1, outsideEphemeral.count))

    private static func kernelPick() throws -> Int {
        let (fd, port) = try bound(listening: false)
        Glibc.close(fd)
        return port
    }

    private static func bind(port: Int, listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        addr.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, length) == 0 && (!listening || Glibc.listen(fd, 1) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "bind: \(why)")
        }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }
}
