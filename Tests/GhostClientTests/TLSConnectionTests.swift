import Foundation
import Testing
@testable import GhostClient
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// ghost-client's TLS against `openssl s_server` with a certificate the test
/// makes: the bytes go both ways with `--tls-ca`; a certificate the system's
/// authorities do not vouch for, or one for another host, is refused with
/// the reason, and not as a drop to retry.
@Suite("TLS connection", .ownThread, .serialized)
struct TLSConnectionTests {
    @Test("With --tls-ca the client connects to a self-signed server and the bytes arrive both ways")
    func connectsWithTheCA() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let c = Connection(address: ServerAddress(host: "localhost", port: server.port), tls: TLSSettings(caFile: cert.cert))
        #expect(c.start() == nil)
        let up = drive(c) { $0.contains(.connected) || $0.contains { if case .refused = $0 { true } else { false } } }
        #expect(up == [.connected])
        c.send("PING")
        c.send("NAME ann two words")
        server.send("HELLO ghostd/0.4.0 protocol=2 languages=en\r\n")
        let lines = drive(c) { $0.contains(.line("HELLO ghostd/0.4.0 protocol=2 languages=en")) }
        #expect(lines == [.line("HELLO ghostd/0.4.0 protocol=2 languages=en")])
        let deadline = monotonicNow() + 10
        while !server.received.contains("NAME ann two words\n"), monotonicNow() < deadline { usleep(20_000) }
        #expect(server.received == "PING\nNAME ann two words\n")
        c.close()
    }

    @Test("Without --tls-ca (the system's authorities) a self-signed certificate is refused with the reason")
    func systemCAsRefuseSelfSigned() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let c = Connection(address: ServerAddress(host: "localhost", port: server.port), tls: TLSSettings())
        #expect(c.start() == nil)
        let events = drive(c) { !$0.isEmpty }
        #expect(events == [.refused(why: "the server's certificate could not be verified: self-signed certificate")])
        #expect(!c.isOpen)
        #expect(!server.received.contains("PING"))
    }

    @Test("A certificate for another host name, or a name where an IP address was asked, is refused")
    func wrongHostIsRefused() throws {
        let other = try TestCertificate.make(commonName: "ghost.example")
        defer { other.remove() }
        let server = try TLSServer(certificate: other)
        defer { server.stop() }
        let byName = Connection(address: ServerAddress(host: "localhost", port: server.port), tls: TLSSettings(caFile: other.cert))
        #expect(byName.start() == nil)
        #expect(drive(byName) { !$0.isEmpty } == [.refused(why: "the server's certificate could not be verified: hostname mismatch")])
        let byAddress = Connection(address: ServerAddress(host: "127.0.0.1", port: server.port), tls: TLSSettings(caFile: other.cert))
        #expect(byAddress.start() == nil)
        #expect(drive(byAddress) { !$0.isEmpty } == [.refused(why: "the server's certificate could not be verified: IP address mismatch")])
    }

    @Test("A --tls-ca file that cannot be read is refused with its name; a plain-text server is refused as no TLS")
    func badSettingsAreRefused() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let c = Connection(address: ServerAddress(host: "localhost", port: server.port), tls: TLSSettings(caFile: cert.dir + "/missing.pem"))
        #expect(c.start() == nil)
        let events = drive(c) { !$0.isEmpty }
        guard case .refused(let why)? = events.first else { Issue.record("\(events)"); return }
        #expect(why.hasPrefix("cannot read the certificates in \(cert.dir)/missing.pem (--tls-ca): "))

        // A listener that speaks plain text (a ghostd's --port) answers the handshake with its greeting.
        let plain = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(plain) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(plain, $0, len) == 0 && getsockname(plain, $0, &len) == 0 }
        }
        listen(plain, 4)
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let d = Connection(address: ServerAddress(host: "127.0.0.1", port: port), tls: TLSSettings(caFile: cert.cert))
        #expect(d.start() == nil)
        _ = drive(d, timeout: 0.5) { !$0.isEmpty }
        let peer = accept(plain, nil, nil)
        defer { if peer >= 0 { close(peer) } }
        let hello = Array("HELLO ghostd/0.4.0 protocol=2 languages=en\r\n".utf8)
        _ = hello.withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
        let refused = drive(d) { !$0.isEmpty }
        guard case .refused(let text)? = refused.first else { Issue.record("\(refused)"); return }
        #expect(text.hasPrefix("the TLS handshake with the server failed: "))
    }

    @Test("Line mode: ghost-client --tls prints the reason and exits 1; with --tls-ca it plays lines through")
    func lineMode() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let refused = try runClient(["--tls", "localhost:\(server.port)"], input: "PING\n")
        #expect(refused.status == 1)
        #expect(refused.stderr == "ghost-client: the server's certificate could not be verified: self-signed certificate\n")
        server.send("HELLO ghostd/0.4.0 protocol=2 languages=en\n")
        let ok = try runClient(["--tls-ca", cert.cert, "localhost:\(server.port)"], input: "PING\n", stopWhen: { server.received.contains("QUIT") }) {
            server.stop()
        }
        #expect(ok.stdout.hasPrefix("HELLO ghostd/0.4.0 protocol=2 languages=en\n"), "\(ok)")
        #expect(server.received == "PING\nQUIT\n")
    }

    @Test("--tls and --tls-ca are saved with the server; a start without a server uses them; a server without --tls is plain")
    func savedWithTheServer() throws {
        func opts(_ args: [String]) throws -> ClientOptions { try ClientOptions.parse(args).get() }
        // Saved once the server answered (HELLO), with the server.
        func answered(_ args: [String], _ config: ClientConfig) throws -> ClientConfig {
            let options = try opts(args)
            var state = ClientState(config: ClientApp.applying(options, to: config),
                                    serverAddress: (options.server ?? ServerAddress(host: "g.example", port: 7778)).description)
            let tls = ClientApp.tlsSettings(options, config)
            state.connectionTLS = ConnectionTLS(tls: tls != nil, caFile: tls?.caFile)
            return Fx.run(state, .connected, Fx.line(Fx.hello)).0.config
        }
        var config = try answered(["--tls-ca", "/etc/ghost.pem", "g.example:7778"], ClientConfig())
        #expect(config.tls && config.tlsCA == "/etc/ghost.pem")
        #expect(config.rendered.contains("tls=yes\ntls-ca=/etc/ghost.pem\n"))
        config = ClientConfig.parse(config.rendered)
        #expect(config.tls && config.tlsCA == "/etc/ghost.pem")
        #expect(ClientApp.tlsSettings(try opts([]), config) == TLSSettings(caFile: "/etc/ghost.pem"))
        #expect(ClientApp.tlsSettings(try opts(["--tls"]), config) == TLSSettings())
        #expect(ClientApp.tlsSettings(try opts(["other:1"]), config) == nil)
        config = try answered(["other:1"], config)
        #expect(!config.tls && config.tlsCA == nil && config.server == "other:1")
        #expect(!config.rendered.contains("tls"))
        #expect(ClientApp.tlsSettings(try opts([]), config) == nil)
        // --lang alone keeps what was saved.
        let kept = try answered(["--lang", "nl"], ClientConfig.parse("tls=yes\n"))
        #expect(kept.tls && kept.tlsCA == nil)
    }

    /// Runs ghost-client in line mode with `input` on stdin; `stopWhen` is
    /// polled while it runs and `then` called once when it turns true.
    func runClient(_ args: [String], input: String, stopWhen: @escaping () -> Bool = { false },
                   then: @escaping () -> Void = {}) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try ClientBinary.path())
        p.arguments = args
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))   // it may have ended already
        try stdin.fileHandleForWriting.close()
        var stopped = false
        let deadline = monotonicNow() + 20
        while p.isRunning, monotonicNow() < deadline {
            if !stopped, stopWhen() {
                stopped = true
                then()
            }
            usleep(20_000)
        }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        let status = p.waitForExit()
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, out, err)
    }
}
