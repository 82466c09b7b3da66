import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// contrib/haproxy.cfg (issue #49) in a real HAProxy in front of real
/// daemons (Tests/TestSupport/HAProxy.swift): its health check tells a
/// daemon that serves from a port nobody listens on (a standby), players
/// reach the one that serves, and a node HAProxy marks DOWN loses its
/// players, who reach the next one. Every wait is for an event (HAProxy's
/// servers' states on its stats socket, a line, the end of a stream); the
/// timeouts only bound a failure.
@Suite("HAProxy in front of ghostd (contrib/haproxy.cfg)", .ownThread, storeIndependent, .hangLimit)
struct HAProxyTests {
    /// HAProxy sends a PROXY line first on each plain connection
    /// (contrib/haproxy.cfg's send-proxy): every node trusts it.
    static let behindHAProxy = ["--trusted-proxy", "127.0.0.1"]

    /// ghostd on `port`, just freed: tried again while something else holds
    /// it for a moment (an outgoing connection given that port).
    static func start(port: Int, data: String) throws -> DaemonProcess {
        let deadline = monotonicNow() + 10
        while true {
            do {
                return try DaemonProcess.start(extraArguments: ["--data", data] + Self.behindHAProxy, port: port)
            } catch let error as DaemonError where error.description.contains("in use") && monotonicNow() < deadline {
                usleep(100_000)
            }
        }
    }

    @Test("contrib/haproxy.cfg as shipped passes haproxy -c")
    func shippedConfigurationIsValid() throws {
        // Its output into a file, not a pipe: a child another test starts
        // meanwhile would inherit the pipe and hold off its end.
        let folder = try DataDirectory()
        let outputPath = folder.path + "/output"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else { throw DaemonError("cannot create \(outputPath)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try HAProxy.binaryPath())
        p.arguments = ["-c", "-f", HAProxy.contribConfigPath]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = output
        p.standardError = output
        try p.run()
        try output.close()
        let status = p.waitForExit()
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        #expect(status == 0, "\(text)")
        #expect(text.contains("Configuration file is valid"), "\(text)")
        #expect(!text.contains("[WARNING]"), "\(text)")
    }

    @Test("Two nodes, one serving and one not listening: HAProxy marks them UP and DOWN, a player through it gets HELLO, OK NAME and OK PING; the node killed, HAProxy marks it DOWN and the player's connection ends; another ghostd on the second node's port (the same data) is marked UP and the player, connecting again through HAProxy, is served there")
    func failover() throws {
        // The second node's port: bound but not listening (connections refused,
        // as a standby's), until its ghostd starts there.
        let standby = try LoopbackPort.bound(listening: false)
        var standbyFD: Int32? = standby.fd
        defer { if let fd = standbyFD { close(fd) } }
        let first = try DaemonProcess.start(extraArguments: Self.behindHAProxy)
        defer { first.kill() }
        let haproxy = try HAProxy(backends: [first.port, standby.port])
        defer { haproxy.stop() }
        try haproxy.waitUntilUp(0)
        try haproxy.waitUntilDown(1)
        let states = try haproxy.serverStates()
        #expect(states.map(\.status) == ["UP", "DOWN"], "\(states)")

        let name = E2E.name("ha")
        let ann = try LineClient(port: haproxy.port, label: name, source: "127.0.0.5")
        try ann.login(name)
        try ann.ping()
        // The PROXY line (send-proxy) named the player's own address to ghostd.
        #expect(first.waitForStderrLine { $0.contains("carries 127.0.0.5 (PROXY line from 127.0.0.1:") } != nil, "\(first.stderrText)")
        try ann.send("LANG nl")
        try ann.expect("OK LANG lang=nl")
        // HAProxy's checks end with QUIT: ghostd logs them as quitting, never a reset.
        #expect(first.waitForStderrLine { $0.hasSuffix("closed: quit (goodbye)") } != nil, "\(first.stderrText)")
        #expect(!first.stderrLines.contains { $0.contains("read error") }, "\(first.stderrText)")

        // The first node dies: its players' connections through HAProxy end.
        first.kill()
        try haproxy.waitUntilDown(0)
        try ann.expectClosed(timeout: 10)

        // A new leader on the second node's port, with the same state (the
        // name's language preference).
        close(standby.fd)
        standbyFD = nil
        let second = try Self.start(port: standby.port, data: first.dataPath)
        defer { second.kill() }
        try haproxy.waitUntilUp(1)
        let again = try LineClient(port: haproxy.port, label: name + "'")
        try again.login(name, lang: "nl")
        try again.ping()
        #expect(second.waitForStderrLine { $0.contains("opened from 127.0.0.1:") } != nil, "\(second.stderrText)")
        let after = try haproxy.serverStates()
        #expect(after.map(\.status) == ["DOWN", "UP"], "\(after)")
    }

    @Test("TLS passes through: openssl s_client through HAProxy's TLS frontend gets ghostd's own certificate and HELLO, OK NAME and OK PING; the node killed, its TLS server (tracking the plain one's check) is marked DOWN and the TLS connection ends")
    func tlsPassesThrough() throws {
        let folder = try DataDirectory()
        let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "node", subject: "/CN=node1")
        let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", "0", "--tls-cert", cert, "--tls-key", key] + Self.behindHAProxy)
        defer { daemon.kill() }
        let haproxy = try HAProxy(backends: [daemon.port], tlsBackends: [try TLSTest.port(of: daemon)])
        defer { haproxy.stop() }
        try haproxy.waitUntilUp(0)
        let tlsPort = try #require(haproxy.tlsPort)
        #expect(try TLSTest.subject(port: tlsPort) == "subject=CN = node1")

        let name = E2E.name("tls")
        let ann = try SClient(port: tlsPort, label: name)
        defer { ann.close() }
        #expect(ann.hello.hasPrefix(LineClient.helloPrefix), "\(ann.hello)")
        try ann.send("NAME \(name)")
        try ann.expect("OK NAME name=\(name) lang=en")
        try ann.send("PING")
        try ann.expect("OK PING")

        daemon.kill()
        try haproxy.waitUntilDown(0)
        let tls = try haproxy.serverStates(backend: "ghostd-tls")
        #expect(tls.map(\.status) == ["DOWN"], "\(tls)")
        #expect(ann.waitForEnd(timeout: 10), "the TLS connection through HAProxy is still open")
    }

    @Test("A node that hangs (SIGSTOP: it accepts but never answers) fails its check by timeout and is marked DOWN; on-marked-down shutdown-sessions ends its players' connections, plain and WebSocket (the web backend tracks the plain one), while ghostd still holds them; woken (SIGCONT), it is marked UP and serves again")
    func hungNodeLosesItsPlayers() throws {
        let (daemon, webPort) = try DaemonProcess.startWithWeb(Self.behindHAProxy)
        defer { daemon.kill() }
        let haproxy = try HAProxy(backends: [daemon.port], webBackends: [webPort])
        defer { haproxy.stop() }
        try haproxy.waitUntilUp(0)
        let web0 = try haproxy.serverStates(backend: "ghostd-web")
        #expect(web0.map(\.status) == ["UP"], "\(web0)")

        let name = E2E.name("hang")
        let ann = try LineClient(port: haproxy.port, label: name)
        try ann.login(name)
        try ann.ping()
        let (web, hello) = try WebSocketClient.open(port: try #require(haproxy.webPort))
        #expect(hello.hasPrefix(LineClient.helloPrefix), "\(hello)")
        try web.sendLine("PING")
        #expect(try web.readText() == "OK PING")

        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        try haproxy.waitUntilDown(0, timeout: 30)
        let web1 = try haproxy.serverStates(backend: "ghostd-web")
        #expect(web1.map(\.status) == ["DOWN"], "\(web1)")
        try ann.expectClosed(timeout: 10)
        #expect(web.isClosed(timeout: 10), "the WebSocket through HAProxy is still open")
        #expect(Process.state(path: "/proc/\(daemon.pid)/stat") == "T", "ghostd is not stopped: it, not HAProxy, may have closed them")

        daemon.signal(SIGCONT)
        try haproxy.waitUntilUp(0)
        let benName = E2E.name("hangben")
        let ben = try LineClient(port: haproxy.port, label: benName)
        try ben.login(benName)
        try ben.ping()
    }
}
