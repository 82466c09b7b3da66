import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Ready means ready: ghostd listens on every port before it
/// says it is ready, in its log or to systemd (`NOTIFY_SOCKET`), and the
/// plain port listens last, so a client that connects to the TLS port the
/// instant the plain one answers is never refused.
@Suite("EndToEnd: ready means ready", .ownThread, .hangLimit)
struct EndToEndReadyTests {
    /// A TCP connect to 127.0.0.1:port, closed at once: whether it was accepted.
    static func connects(_ port: Int) -> Bool {
        guard case .success(let s) = RawSocket.connect(port: port, timeout: 5) else { return false }
        s.close()
        return true
    }

    /// A port nobody listens on now (bound to 0, read, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw DaemonError("bind: \(String(cString: strerror(errno)))") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    final class Probe: @unchecked Sendable {
        let lock = NSLock()
        var plainAnswered = false
        var tlsAnswered = false
    }

    @Test("A client that connects to the TLS port the instant the plain port answers is accepted")
    func tlsListensBeforeThePlainPort() throws {
        let folder = try DataDirectory()
        let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "ready")
        for round in 0..<3 {
            // Two ports found one after the other can be the same one (the
            // first was closed before the second was asked): ask again until not.
            let plain = try Self.freePort()
            var other = try Self.freePort()
            while other == plain { other = try Self.freePort() }
            let tls = other
            let probe = Probe()
            let done = DispatchSemaphore(value: 0)
            // Polls the plain port flat out from before the start; at its first answer, the TLS port at once.
            let poller = Thread {
                let deadline = monotonicNow() + 60
                while monotonicNow() < deadline {
                    if Self.connects(plain) {
                        let tlsToo = Self.connects(tls)
                        probe.lock.lock()
                        probe.plainAnswered = true
                        probe.tlsAnswered = tlsToo
                        probe.lock.unlock()
                        break
                    }
                }
                done.signal()
            }
            poller.start()
            let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", String(tls), "--tls-cert", cert, "--tls-key", key],
                                                 port: plain)
            defer { daemon.kill() }
            done.wait()
            probe.lock.lock()
            defer { probe.lock.unlock() }
            #expect(probe.plainAnswered, "round \(round): the plain port never answered")
            #expect(probe.tlsAnswered, "round \(round): the TLS port refused a connection made right after the plain port answered")
        }
    }

    @Test("With NOTIFY_SOCKET, ghostd sends READY=1 (and MAINPID) once every port listens, and STOPPING=1 when it stops")
    func notifiesTheServiceManager() throws {
        let folder = try DataDirectory()
        let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "notify")
        let notify = NotifySocket(in: folder.path)
        let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", "0", "--tls-cert", cert, "--tls-key", key],
                                             environment: notify.environment)
        defer { daemon.kill() }
        let ready = notify.message()
        #expect(ready == "READY=1\nMAINPID=\(daemon.pid)\nSTATUS=listening on 127.0.0.1:\(daemon.port)", "\(ready)")
        #expect(Self.connects(daemon.port))
        #expect(Self.connects(try TLSTest.port(of: daemon)))
        #expect(daemon.terminate() == .exited(0))
        #expect(notify.message() == "STOPPING=1")
    }
}
