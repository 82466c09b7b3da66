#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports the kernel picks (port 0), for the services the tests
/// start themselves (chromedriver, PostgreSQL) and for a port held busy.
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A socket bound to 127.0.0.1 on a port the kernel picked, listening if
    /// `listen`: its descriptor (the caller closes it) and the port.
    public static func bound(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (!listening || Glibc.listen(fd, 1) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "bind: \(why)")
        }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// A loopback port free now.
    public static func free() throws -> Int {
        let (fd, port) = try bound(listening: false)
        Glibc.close(fd)
        return port
    }
}
