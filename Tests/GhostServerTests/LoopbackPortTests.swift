import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// The ports the tests' services get (docs/testing.md "Ports"): outside the
/// kernel's ephemeral range, so that a service stopped and started again on
/// its port never finds it taken as an outgoing connection's local port.
@Suite(storeIndependent, .hangLimit)
struct LoopbackPortTests {
    @Test("free() gives ports outside the ephemeral range, none twice in 300 picks")
    func outsideTheRange() throws {
        let range = try #require(LoopbackPort.ephemeralRange)
        var seen = Set<Int>()
        for _ in 0..<300 {
            let port = try LoopbackPort.free()
            #expect(!range.contains(port), "\(port) is in the ephemeral range \(range)")
            #expect(port >= 20_000 && port <= 65_535)
            #expect(seen.insert(port).inserted, "\(port) twice")
        }
    }

    @Test("The kernel gives 200 outgoing connections local ports in the ephemeral range: never a port free() gives")
    func connectionsStayInTheRange() throws {
        let range = try #require(LoopbackPort.ephemeralRange)
        let (listener, port) = try LoopbackPort.bound(listening: true)
        defer { close(listener) }
        #expect(listen(listener, 256) == 0)
        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        for _ in 0..<200 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #expect(fd >= 0)
            clients.append(fd)
            var addr = Self.loopback(port)
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(connected == 0)
            var local = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            let localPort = Int(UInt16(bigEndian: local.sin_port))
            #expect(range.contains(localPort), "local port \(localPort) outside \(range)")
        }
    }

    static func loopback(_ port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        addr.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        return addr
    }
}
