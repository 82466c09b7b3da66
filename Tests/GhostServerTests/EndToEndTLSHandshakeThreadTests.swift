import Foundation
import Testing
@testable import GhostServer
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// TLS handshakes run off the event loop. A real
/// daemon whose first handshake step is held, mid-handshake, by the
/// test-only gate (`HandshakeGate`: `GHOSTD_TEST_HANDSHAKE_GATE`) until the
/// test lets it go; what the daemon does meanwhile is seen by events (lines,
/// log lines, closes), never by time.
@Suite("EndToEnd: TLS handshakes off the loop", .ownThread, storeIndependent, .hangLimit)
struct EndToEndTLSHandshakeThreadTests {
    /// The gate's two FIFOs in a folder of the test's.
    final class Gate {
        let folder: String
        private let entered: Int32
        private let release: Int32

        init(in parent: String) throws {
            folder = parent + "/gate"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard mkfifo(folder + "/entered", 0o600) == 0, mkfifo(folder + "/release", 0o600) == 0 else {
                throw DaemonError("mkfifo: \(String(cString: strerror(errno)))")
            }
            // Read-write: neither open waits for the daemon's.
            entered = open(folder + "/entered", O_RDWR | O_CLOEXEC)
            release = open(folder + "/release", O_RDWR | O_CLOEXEC)
            guard entered >= 0, release >= 0 else { throw DaemonError("open the gate: \(String(cString: strerror(errno)))") }
        }

        deinit {
            Glibc.close(entered)
            Glibc.close(release)
        }

        var environment: [String: String] { [HandshakeGate.environmentName: folder] }

        /// Waits until the daemon's first handshake step has started (the
        /// timeout only bounds a failure).
        func waitEntered(timeout: Double = 30) -> Bool {
            var p = pollfd(fd: entered, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(timeout * 1000)) == 1 else { return false }
            var byte: UInt8 = 0
            return read(entered, &byte, 1) == 1
        }

        /// Lets the held step go on.
        func letGo() {
            var byte: UInt8 = 0x72
            _ = write(release, &byte, 1)
        }
    }

    static func start(_ gate: Gate, folder: DataDirectory, _ extra: [String] = []) throws -> (DaemonProcess, Int) {
        let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "gate", subject: "/CN=gate")
        let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", "0", "--tls-cert", cert, "--tls-key", key] + extra,
                                             environment: gate.environment)
        return (daemon, try TLSTest.port(of: daemon))
    }

    @Test("While a TLS handshake is held mid-step, a client on the plain port is greeted and its PING answered; let go, the handshake ends and the TLS client plays")
    func plainClientsServedDuringAHandshake() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let folder = try DataDirectory()
            let gate = try Gate(in: folder.path)
            let (daemon, tlsPort) = try Self.start(gate, folder: folder)
            defer { daemon.kill() }
            let tls = try SClient(port: tlsPort, label: "held handshake", readHello: false)
            defer { tls.close() }
            #expect(gate.waitEntered(), "the handshake's first step never started")
            // The step is held: on the loop, nothing else would be served until it ends.
            let plain = try LineClient(port: daemon.port, label: "plain", timeout: 30)
            try plain.send("PING")
            try plain.expect("OK PING", timeout: 30)
            gate.letGo()
            #expect(try tls.readLine(timeout: 30).hasPrefix(LineClient.helloPrefix))
            try tls.send("PING")
            try tls.expect("OK PING")
            let stats = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })
            #expect(stats["connections_tls"] == "1" && stats["tls_handshakes_failed"] == "0", "\(stats)")
        }
    }

    @Test("A handshake that times out while its step is held on the thread is closed only once the thread hands it back: a plain client that connects meanwhile gets its own lines only, and its socket is never the handshake's")
    func closedOnlyAfterTheThreadHandsItBack() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let folder = try DataDirectory()
            let gate = try Gate(in: folder.path)
            let (daemon, tlsPort) = try Self.start(gate, folder: folder, ["--tls-handshake-timeout", "1"])
            defer { daemon.kill() }
            let tls = try SClient(port: tlsPort, label: "held handshake", readHello: false)
            defer { tls.close() }
            #expect(gate.waitEntered(), "the handshake's first step never started")
            let timedOut = daemon.waitForStderrLine(timeout: 30) { $0.contains("TLS handshake from 127.0.0.1:") }
            #expect(timedOut?.hasSuffix("failed: not finished within 1 s") == true, "\(timedOut ?? "nothing logged")")
            // Had the socket been closed already, this client would likely get its
            // descriptor, and the held step would read its line and answer it in TLS.
            let plain = try LineClient(port: daemon.port, label: "plain", timeout: 30)
            try plain.send("PING")
            try plain.expect("OK PING", timeout: 30)
            gate.letGo()
            #expect(tls.waitForEnd(timeout: 30), "the timed-out handshake was not closed once handed back")
            try plain.send("PING")
            try plain.expect("OK PING")
            let stats = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })
            #expect(stats["connections"] == "1" && stats["tls_handshakes_failed"] == "1" && stats["connections_tls"] == "0", "\(stats)")
            #expect(daemon.stderrLines.filter { $0.contains("TLS handshake from") }.count == 1, "\(daemon.stderrText)")
        }
    }

    @Test("At --max-unnamed, a newcomer from another network is let in while a handshake of the network holding the most is held on its thread (one of that network's is closed for it); let go, the daemon serves on")
    func newcomerLetInWhileAHandshakeIsHeld() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let folder = try DataDirectory()
            let gate = try Gate(in: folder.path)
            let (daemon, tlsPort) = try Self.start(gate, folder: folder, ["--max-unnamed", "2"])
            defer { daemon.kill() }
            let held = try SClient(port: tlsPort, label: "held handshake", readHello: false)
            defer { held.close() }
            #expect(gate.waitEntered(), "the handshake's first step never started")
            // A named watcher from a third network counts the connections, by STATS.
            let watcher = try LineClient(port: daemon.port, label: "watcher", timeout: 30, source: "127.0.0.3")
            try watcher.login("watcher")
            let second = try SClient(port: tlsPort, label: "second handshake", readHello: false)
            defer { second.close() }
            var connections = ""
            for _ in 0..<500 where connections != "3" {
                connections = try statFields(after: { try watcher.send("STATS") }, readLine: { try watcher.readLine() })["connections"] ?? ""
            }
            #expect(connections == "3", "the second TLS connection was not accepted")
            // 127.0.0.1 holds both unnamed places (the held handshake, and the
            // second one's, queued behind it or done): one of them goes for the newcomer.
            let newcomer = try LineClient(port: daemon.port, label: "newcomer", timeout: 30, source: "127.0.0.2")
            try newcomer.login("newcomer")
            // A client after it: had the closed handshake's socket been closed
            // already, this one would likely get its descriptor.
            let late = try LineClient(port: daemon.port, label: "late", timeout: 30, source: "127.0.0.4")
            try late.ping()
            gate.letGo()
            // The other one ends its handshake (HELLO) and the one closed ends
            // (once its step is handed back); with one handshake thread, the
            // steps run in order, so by then every step is back. Waits for
            // those events (the 30 s only bound a failure).
            var greeted = false, ended = false
            let deadline = monotonicNow() + 30
            while !(greeted && ended), monotonicNow() < deadline {
                for client in [held, second] {
                    if let line = client.nextLine(timeout: 0.05), line.hasPrefix(LineClient.helloPrefix) { greeted = true }
                    if client.waitForEnd(timeout: 0) { ended = true }
                }
            }
            #expect(greeted && ended, "greeted: \(greeted), ended: \(ended)")
            // Neither's socket was ever the closed handshake's.
            try late.ping()
            try newcomer.ping()
            try watcher.ping()
        }
    }

    @Test("More handshakes than may be on the threads at once, behind a held one: those past the 16 wait on the loop's line, and once let go every one ends, in a session")
    func handshakesBeyondTheBoundWaitTheirTurn() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let folder = try DataDirectory()
            let gate = try Gate(in: folder.path)
            // The handshakes wait behind the held one for as long as the
            // STATS below take on a loaded machine: not dropped meanwhile.
            let (daemon, tlsPort) = try Self.start(gate, folder: folder, ["--tls-handshake-timeout", "120"])
            defer { daemon.kill() }
            let held = try SClient(port: tlsPort, label: "held handshake", readHello: false)
            defer { held.close() }
            #expect(gate.waitEntered(), "the handshake's first step never started")
            // With one handshake thread (a 2-CPU machine) the others queue behind
            // the held step: 15 on the threads' queue, the rest on the loop's line.
            let others = try (0..<(TLSHandshakes.capacity + 3)).map { try SClient(port: tlsPort, label: "tls \($0)", readHello: false) }
            defer { for c in others { c.close() } }
            let plain = try LineClient(port: daemon.port, label: "plain", timeout: 30)
            // Until every ClientHello has been read and its step queued (STATS
            // says so; each answer is an event).
            var queued = ""
            for _ in 0..<2000 where queued != String(others.count + 1) {
                queued = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })["tls_handshakes_queued"] ?? ""
            }
            #expect(queued == String(others.count + 1), "\(queued) handshakes queued")
            gate.letGo()
            for c in [held] + others {
                #expect(try c.readLine(timeout: 30).hasPrefix(LineClient.helloPrefix), "\(c.label)")
            }
            let stats = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })
            #expect(stats["connections_tls"] == String(others.count + 1) && stats["tls_handshakes_failed"] == "0"
                    && stats["tls_handshakes_queued"] == "0", "\(stats)")
        }
    }
}
