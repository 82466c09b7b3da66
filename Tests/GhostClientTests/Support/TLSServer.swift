import Foundation
import Testing
@testable import GhostClient
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A self-signed certificate made for a test (`openssl req`), in a
/// temporary folder that `remove()` deletes.
struct TestCertificate {
    let dir: String
    var cert: String { dir + "/c.pem" }
    var key: String { dir + "/k.pem" }

    /// A P-256 certificate for `commonName`, valid for a day.
    static func make(commonName: String = "localhost") throws -> TestCertificate {
        var template = Array("/tmp/ghost-tls-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TLSTestError("mkdtemp failed") }
        let c = TestCertificate(dir: String(cString: made))
        // Through `Spawn` (Tmux.swift), not Foundation's Process: its
        // `waitUntilExit` hung here once under `faketime '+400 days'` (the
        // whole suite waited, no openssl left), as it did in `stop`.
        let status = try Spawn.run([try TLSServer.openssl(), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                    "-nodes", "-days", "1", "-subj", "/CN=\(commonName)", "-keyout", c.key, "-out", c.cert],
                                   output: c.dir + "/openssl-req.out")
        guard status == 0 else { throw TLSTestError("openssl req failed (\(status))") }
        return c
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }
}

struct TLSTestError: Error, CustomStringConvertible {
    let description: String
    /// A server process that exited at start (its port taken meanwhile).
    var exited = false
    init(_ d: String, exited: Bool = false) {
        description = d
        self.exited = exited
    }
}

/// `openssl s_server -quiet -accept <port> -cert c.pem -key k.pem`: the
/// netcat of TLS. What a client sends shows up on its stdout (`received`);
/// what is written to its stdin (`send`) goes to the client.
final class TLSServer: @unchecked Sendable {
    private(set) var process = Process()
    private(set) var port = 0
    private var input = Pipe()
    private var output = Pipe()
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    static func openssl() throws -> String {
        for p in ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"] where FileManager.default.isExecutableFile(atPath: p) {
            return p
        }
        throw TLSTestError("openssl is not installed (.ci/run installs it)")
    }

    /// Starts it on a free port and waits until it accepts connections. The
    /// port is free when picked, but something else may take it before
    /// s_server binds it (a busy machine, other tests' connections): then
    /// s_server exits at once, and another port is tried.
    init(certificate: TestCertificate) throws {
        var attempts = 0
        while true {
            attempts += 1
            do {
                try start(certificate)
                return
            } catch let e as TLSTestError where e.exited && attempts < 5 {
                continue
            }
        }
    }

    private func start(_ certificate: TestCertificate) throws {
        port = try TLSServer.freePort()
        process = Process()
        input = Pipe()
        output = Pipe()
        process.executableURL = URL(fileURLWithPath: try TLSServer.openssl())
        process.arguments = ["s_server", "-quiet", "-accept", String(port), "-cert", certificate.cert, "-key", certificate.key]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.bytes += data
            self.lock.unlock()
        }
        try process.run()
        // Listening once a TCP connection is accepted (that probe is not a TLS client: s_server drops it).
        let deadline = monotonicNow() + 10
        while !TLSServer.accepts(port) {
            guard process.isRunning else {
                stop()
                throw TLSTestError("openssl s_server exited at start on port \(port)", exited: true)
            }
            guard monotonicNow() < deadline else {
                stop()
                throw TLSTestError("openssl s_server did not start on port \(port)")
            }
            usleep(20_000)
        }
    }

    /// Sends bytes to the connected client (through the server's stdin; one
    /// that has ended is not an error here: EPIPE, not a trap).
    func send(_ text: String) { try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

    /// What clients have sent so far.
    var received: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            // SIGKILL: s_server may have inherited SIGTERM ignored.
            kill(process.processIdentifier, SIGKILL)
            // Not Foundation's `waitUntilExit`: after a SIGKILL it sometimes
            // never returned (the whole faketime suite hung here once).
            _ = process.waitForExit()
        }
    }

    deinit { stop() }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TLSTestError("socket failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw TLSTestError("bind failed") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// Drives a `Connection` as the client's poll loop does, until `done` says
/// so or `timeout` passes; returns every event.
func drive(_ c: Connection, timeout: Double = 10, until done: ([Connection.Event]) -> Bool) -> [Connection.Event] {
    var events: [Connection.Event] = []
    let deadline = monotonicNow() + timeout
    while !done(events), monotonicNow() < deadline, c.isOpen {
        var p = pollfd(fd: c.fd, events: c.pollEvents, revents: 0)
        let r = poll(&p, 1, 100)
        if r > 0 { events += c.handle(revents: p.revents) }
    }
    return events
}
