import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A service manager's notification socket, as systemd's `NOTIFY_SOCKET`
/// (a unix datagram socket in `folder`): what a daemon started with
/// `environment` tells it, one message at a time.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(in folder: String) {
        path = folder + "/notify.sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(fd >= 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0, "\(String(cString: strerror(errno)))")
        var wait = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// For the daemon's environment.
    var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    /// The next message (waiting up to 30 s), or what went wrong.
    func message() -> String {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : "(nothing: \(String(cString: strerror(errno))))"
    }
}
