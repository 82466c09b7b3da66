import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real ghostd with a TLS port, for the client's end-to-end tests.
enum TLSDaemon {
    /// `ghostd --tls-port 0 --tls-cert --tls-key` (plus `extra`) with the
    /// test's certificate; returns the daemon and its TLS port.
    static func start(_ cert: TestCertificate, extra: [String] = []) throws -> (DaemonProcess, Int) {
        let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", "0", "--tls-cert", cert.cert, "--tls-key", cert.key] + extra)
        return (daemon, try port(of: daemon))
    }

    /// The TLS port a daemon logged (`TLS port: HOST:PORT`, before `listening on`),
    /// as GhostServerTests' `TLSTest.port(of:)` reads it.
    static func port(of daemon: DaemonProcess) throws -> Int {
        guard let port = TestSupport.tlsPort(inLog: daemon.stderrLines) else {
            throw DaemonError("no TLS port in the log:\n\(daemon.stderrText)")
        }
        return port
    }
}

/// An IPv4 address of this machine that is not loopback (up, not 127/8),
/// or nil when it has none.
func nonLoopbackIPv4() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var p = list
    while let entry = p {
        defer { p = entry.pointee.ifa_next }
        let flags = Int32(entry.pointee.ifa_flags)
        guard let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == sa_family_t(AF_INET),
              flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
        let v4 = addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        guard UInt32(bigEndian: v4.s_addr) >> 24 != 127 else { continue }
        var buf = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var a = v4
        guard inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count)) != nil else { continue }
        return String(cString: buf)
    }
    return nil
}
