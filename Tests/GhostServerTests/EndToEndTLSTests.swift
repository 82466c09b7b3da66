import Foundation
import Testing
@testable import GhostServer
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// ghostd's TLS port against a real daemon and `openssl s_client`, with a
/// self-signed certificate each test makes: the same protocol byte for
/// byte, failed and unfinished handshakes, the caps and budgets by address,
/// SIGHUP's reload, and the refusals at start. Each test runs on its own
/// thread (they block on processes for seconds).
@Suite("EndToEnd: TLS", .ownThread, .hangLimit)
struct EndToEndTLSTests {
    /// A daemon with a TLS port and a certificate for /CN=first.
    struct TLSDaemon {
        let folder: DataDirectory
        let cert: String
        let key: String
        let daemon: DaemonProcess
        let tlsPort: Int
    }

    static func start(_ extra: [String] = []) throws -> TLSDaemon {
        let folder = try DataDirectory()
        let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "first", subject: "/CN=first")
        let daemon = try DaemonProcess.start(extraArguments: ["--tls-port", "0", "--tls-cert", cert, "--tls-key", key] + extra)
        return TLSDaemon(folder: folder, cert: cert, key: key, daemon: daemon, tlsPort: try TLSTest.port(of: daemon))
    }

    @Test("A whole Ghost game between openssl s_client on the TLS port and a plain client, every line of both; STATS counts the TLS connection")
    func gameOverTLS() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start()
            defer { t.daemon.kill() }
            let a = try SClient(port: t.tlsPort, label: "alice over TLS")
            defer { a.close() }
            let b = try LineClient(port: t.daemon.port, label: "bob")
            #expect(a.hello == "HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl")
            #expect(a.hello == b.hello)

            try a.send("NAME alice")
            try a.expect("OK NAME name=alice lang=en")
            try b.login("bob")
            try a.send("NEW")
            let ok = try a.readLine()
            let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
            #expect(ok == "OK NEW code=\(code) lang=en")
            try a.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).")

            try b.send("JOIN \(code)")
            try b.expect("OK JOIN code=\(code) lang=en")
            let gameLine = try a.readLine()
            let id = lineFields(gameLine)["id"] ?? "?"
            let g = "id=\(id)"
            let tokenA = lineFields(gameLine)["token"] ?? ""
            #expect(gameLine == "GAME \(g) game=ghost lang=en players=alice,bob token=\(tokenA) round=1" && isToken(tokenA), "\(gameLine)")
            try a.expect("TURN \(g) player=alice fragment=")
            let bobGame = try b.expectPrefix("GAME \(g) ")
            #expect(bobGame == "GAME \(g) game=ghost lang=en players=alice,bob token=\(lineFields(bobGame)["token"] ?? "") round=1")
            try b.expect("TURN \(g) player=alice fragment=")

            try a.send("p")
            try a.expect(lines: ["OK LETTER letter=p fragment=p", "MOVE \(g) player=alice letter=p fragment=p", "TURN \(g) player=bob fragment=p"])
            try b.expect(lines: ["MOVE \(g) player=alice letter=p fragment=p", "TURN \(g) player=bob fragment=p"])
            try b.send("e")
            try b.expect(lines: ["OK LETTER letter=e fragment=pe", "MOVE \(g) player=bob letter=e fragment=pe", "TURN \(g) player=alice fragment=pe"])
            try a.expect(lines: ["MOVE \(g) player=bob letter=e fragment=pe", "TURN \(g) player=alice fragment=pe"])
            try a.send("LETTER a")
            try a.expect(lines: ["OK LETTER letter=a fragment=pea", "MOVE \(g) player=alice letter=a fragment=pea", "TURN \(g) player=bob fragment=pea"])
            try b.expect(lines: ["MOVE \(g) player=alice letter=a fragment=pea", "TURN \(g) player=bob fragment=pea"])
            try b.send("r")
            try b.expect("OK LETTER letter=r fragment=pear")
            let end = ["MOVE \(g) player=bob letter=r fragment=pear",
                       "OVER \(g) winner=alice loser=bob reason=word fragment=pear",
                       "INFO \"pear\" is a word longer than 3 letters, so bob loses."]
            try b.expect(lines: end)
            try a.expect(lines: end)
            // The ranks: the same lines for both (a fresh daemon: alice first).
            let ranks = [try b.expectPrefix("RANK name=alice rank=1 "), try b.expectPrefix("RANK name=bob rank=2 ")]
            try a.expect(lines: ranks)

            let stats = try statFields(after: { try b.send("STATS") }, readLine: { try b.readLine() })
            #expect(stats["connections"] == "2" && stats["connections_tls"] == "1" && stats["tls_handshakes_failed"] == "0", "\(stats)")

            try a.send("QUIT")
            try a.expect(lines: ["OK QUIT", "BYE quit goodbye"])
            #expect(a.waitForEnd(), "the server did not close the TLS connection after QUIT")
            #expect(t.daemon.stderrLines.contains { $0.contains("opened from 127.0.0.1:") && $0.contains(" over TLSv1.3 ") })
        }
    }

    @Test("A plain-text client on the TLS port is closed without a reply, logged with OpenSSL's reason in one line; the daemon serves on")
    func plainTextOnTheTLSPort() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start()
            defer { t.daemon.kill() }
            let raw = try BareSocket(port: t.tlsPort)
            raw.send("NAME mallory\r\n")
            let (closed, received) = raw.waitForClose()
            #expect(closed, "the daemon kept a plain-text client on the TLS port")
            // At most a TLS alert, never a protocol line.
            #expect(!String(decoding: received, as: UTF8.self).contains("HELLO"))
            let logged = t.daemon.waitForStderrLine { $0.contains("TLS handshake from 127.0.0.1:") }
            #expect(logged?.hasSuffix("failed: wrong version number") == true, "\(logged ?? "nothing logged")")
            #expect(t.daemon.stderrLines.filter { $0.contains("TLS handshake") }.count == 1)

            // Everyone else is served, on both ports.
            let s = try SClient(port: t.tlsPort, label: "after")
            defer { s.close() }
            try s.send("PING")
            try s.expect("OK PING")
            let plain = try LineClient(port: t.daemon.port)
            let stats = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })
            // The failed handshake was never a connection of the lobby.
            #expect(stats["tls_handshakes_failed"] == "1" && stats["connections_total"] == "2" && stats["closed_peer"] == "0", "\(stats)")
        }
    }

    @Test("A handshake that never finishes is dropped after --tls-handshake-timeout, and logged")
    func unfinishedHandshake() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start(["--tls-handshake-timeout", "1"])
            defer { t.daemon.kill() }
            // Says nothing at all; then one that sends half a ClientHello record header.
            let silent = try BareSocket(port: t.tlsPort)
            let half = try BareSocket(port: t.tlsPort)
            half.send("\u{16}\u{03}\u{01}")
            #expect(silent.waitForClose(timeout: 30).closed, "a silent connection stayed past the handshake timeout")
            #expect(half.waitForClose(timeout: 30).closed, "a half handshake stayed past the handshake timeout")
            // (The log is written at the end of the loop's turn, after the close.)
            var lines: [String] = []
            let deadline = monotonicNow() + 10
            repeat {
                lines = t.daemon.stderrLines.filter { $0.contains("TLS handshake from") }
                if lines.count < 2 { usleep(20_000) }
            } while lines.count < 2 && monotonicNow() < deadline
            #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix("failed: not finished within 1 s") }, "\(lines)")
            let s = try SClient(port: t.tlsPort, label: "after")
            defer { s.close() }
            try s.send("PING")
            try s.expect("OK PING")
        }
    }

    @Test("Connections still in their handshake count against --max-clients-per-ip; the TLS port turns away past it without a word")
    func handshakesCountAgainstTheCaps() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start(["--max-clients-per-ip", "2"])
            defer { t.daemon.kill() }
            let first = try BareSocket(port: t.tlsPort)
            let second = try BareSocket(port: t.tlsPort)
            // Both are accepted (still in their handshakes): a third, plain, is turned away.
            let third = try LineClient(port: t.daemon.port, readHello: false)
            try third.expect("BYE full too many connections from 127.0.0.1 (at most 2)")
            // And on the TLS port, closed without a line in clear.
            let fourth = try BareSocket(port: t.tlsPort)
            let (closed, received) = fourth.waitForClose()
            #expect(closed && received.isEmpty, "\(received.count) bytes")
            withExtendedLifetime((first, second)) {}
        }
    }

    @Test("6,000 PINGs sent at once over TLS (several records, held by the budget on the way) get 6,000 OK PING: input OpenSSL has read ahead is served though epoll cannot see it")
    func pipelinedOverTLS() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start(["--max-commands-per-second", "5000", "--command-burst", "100"])
            defer { t.daemon.kill() }
            let s = try SClient(port: t.tlsPort, label: "pipeliner")
            defer { s.close() }
            try s.send(Array(repeating: "PING", count: 6000).joined(separator: "\n"))
            var count = 0
            while count < 6000, try s.readLine() == "OK PING" { count += 1 }
            #expect(count == 6000)
            try s.send("NAME done")
            try s.expect("OK NAME name=done lang=en")
        }
    }

    @Test("Over TLS, REGISTER with 6,000 lines sent behind it in one write, and logins: the later lines wait for the password's answer (OpenSSL reads some ahead meanwhile) and all come, in order")
    func passwordsPipelinedOverTLS() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start(["--max-commands-per-second", "5000", "--command-burst", "100"])
            defer { t.daemon.kill() }
            let s = try SClient(port: t.tlsPort, label: "owner")
            // Several TLS records: OpenSSL holds some of them while the password is hashed.
            try s.send((["NAME tlsowner", "REGISTER secret over tls"] + Array(repeating: "PING", count: 6000)).joined(separator: "\n"))
            try s.expect("OK NAME name=tlsowner lang=en")
            try s.expect("OK REGISTER name=tlsowner")
            var count = 0
            while count < 6000, try s.readLine() == "OK PING" { count += 1 }
            #expect(count == 6000)
            try s.send("QUIT")
            try s.expect("OK QUIT")
            try s.expect("BYE quit goodbye")
            s.close()
            let again = try SClient(port: t.tlsPort, label: "again")
            defer { again.close() }
            try again.send(["NAME tlsowner wrong password", "NAME tlsowner", "PING"].joined(separator: "\n"))
            try again.expect("ERR bad-password wrong password")
            try again.expect("ERR password-required tlsowner is registered: NAME tlsowner <password>")
            try again.expect("OK PING")
            #expect(!t.daemon.stderrText.contains("secret over tls"))
        }
    }

    @Test("--max-output-bytes holds for a TLS client that does not read: it is dropped with output-overflow, and the daemon serves on")
    func outputCapOverTLS() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start(["--max-output-bytes", "2048", "--send-buffer-bytes", "4096", "--max-commands-per-second", "0"])
            defer { t.daemon.kill() }
            let reader = try SClient(port: t.tlsPort, label: "reader")
            defer { reader.close() }
            try reader.send("NAME reader")
            try reader.expect("OK NAME name=reader lang=en")
            reader.stopReading()
            // About 3 MB of HELP, far beyond what the pipe and the sockets hold.
            try reader.send(Array(repeating: "HELP", count: 1500).joined(separator: "\n"))
            let closed = t.daemon.waitForStderrLine(timeout: 30) { $0.contains("closed: output-overflow") }
            #expect(closed?.hasSuffix("closed: output-overflow (more than 2048 bytes of replies unread)") == true, "\(t.daemon.stderrText.suffix(2000))")
            let plain = try LineClient(port: t.daemon.port)
            try plain.ping()
            let stats = try statFields(after: { try plain.send("STATS") }, readLine: { try plain.readLine() })
            #expect(stats["closed_output_overflow"] == "1" && stats["connections_tls"] == "0", "\(stats)")
        }
    }

    @Test("Handshakes are charged to their network's budget: past it, the network's lines wait")
    func handshakesCountAgainstTheBudget() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            // A network may spend 25 units at once and then almost nothing: three
            // handshakes (10 units each) spend it, and its next line waits.
            let t = try Self.start(["--max-commands-per-second-per-ip", "0.001", "--command-burst-per-ip", "25"])
            defer { t.daemon.kill() }
            // (HELLO costs nothing; a line's cost is its time if that is more, so
            // on a loaded machine one handshake may cost more than 10 units and
            // the next wait already: each HELLO is waited for, not required.)
            let plain = try LineClient(port: t.daemon.port)
            var sessions: [SClient] = []
            defer { for s in sessions { s.close() } }
            for i in 0..<3 { sessions.append(try SClient(port: t.tlsPort, label: "tls \(i)", readHello: false)) }
            for s in sessions { _ = s.nextLine(timeout: 10) }
            try plain.send("PING")
            try plain.expectNothing(within: 1)
            // Another network is served.
            let other = try LineClient(port: t.daemon.port, source: "127.0.0.2")
            try other.ping()
        }
    }

    @Test("SIGHUP reloads the certificate: a session made before keeps playing, new ones see the new certificate; a bad pair is logged and the old one kept; a daemon without TLS keeps running")
    func sighupReloads() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start()
            defer { t.daemon.kill() }
            #expect(try TLSTest.subject(port: t.tlsPort) == "subject=CN = first")
            let before = try SClient(port: t.tlsPort, label: "before")
            defer { before.close() }
            try before.send("NAME early")
            try before.expect("OK NAME name=early lang=en")
            try before.send("NEW bot=easy")
            _ = try before.readLine()   // OK NEW
            let gameLine = try before.readLine()
            #expect(gameLine.hasPrefix("GAME ") && gameLine.contains(" players=early,"), "\(gameLine)")
            let id = lineFields(gameLine)["id"] ?? "?"
            try before.expect("TURN id=\(id) player=early fragment=")

            // A new pair in the same files, then SIGHUP.
            let (cert2, key2) = try TLSTest.makeCertificate(in: t.folder.path, stem: "second", subject: "/CN=second")
            try FileManager.default.removeItem(atPath: t.cert)
            try FileManager.default.removeItem(atPath: t.key)
            try FileManager.default.copyItem(atPath: cert2, toPath: t.cert)
            try FileManager.default.copyItem(atPath: key2, toPath: t.key)
            t.daemon.signal(SIGHUP)
            #expect(t.daemon.waitForStderrLine { $0.contains("SIGHUP: reloaded the TLS certificate") } != nil, "\(t.daemon.stderrText)")
            #expect(try TLSTest.subject(port: t.tlsPort) == "subject=CN = second")
            // The session from before goes on playing.
            try before.send("p")
            try before.expect("OK LETTER letter=p fragment=p")
            try before.expect("MOVE id=\(id) player=early letter=p fragment=p")

            // A key that is not the certificate's: logged, the pair in use kept.
            let (_, key3) = try TLSTest.makeCertificate(in: t.folder.path, stem: "third", subject: "/CN=third")
            try FileManager.default.removeItem(atPath: t.key)
            try FileManager.default.copyItem(atPath: key3, toPath: t.key)
            t.daemon.signal(SIGHUP)
            let kept = t.daemon.waitForStderrLine { $0.contains("SIGHUP: kept the TLS certificate in use") }
            #expect(kept?.contains("is not the key of the certificate") == true, "\(t.daemon.stderrText)")
            // And a certificate file that is not PEM at all.
            try "not a certificate\n".write(toFile: t.cert, atomically: true, encoding: .utf8)
            t.daemon.signal(SIGHUP)
            #expect(t.daemon.waitForStderrLine { $0.contains("kept the TLS certificate in use: --tls-cert:") } != nil, "\(t.daemon.stderrText)")
            #expect(try TLSTest.subject(port: t.tlsPort) == "subject=CN = second")
            try before.send("PING")
            while try before.readLine() != "OK PING" {}   // after the computer's move
            #expect(!t.daemon.stderrLines.contains { $0.contains("shutting down") })

            // Without TLS, SIGHUP no longer stops the daemon.
            let plainDaemon = try DaemonProcess.start()
            defer { plainDaemon.kill() }
            let c = try LineClient(port: plainDaemon.port)
            plainDaemon.signal(SIGHUP)
            #expect(plainDaemon.waitForStderrLine { $0.contains("SIGHUP: no TLS certificate to reload") } != nil)
            try c.ping()
        }
    }

    @Test("SIGTERM: a TLS session gets BYE shutdown over TLS; a connection still in its handshake gets nothing in clear; exit status 0")
    func shutdownOverTLS() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try Self.start()
            defer { t.daemon.kill() }
            let s = try SClient(port: t.tlsPort, label: "session")
            defer { s.close() }
            try s.send("NAME stayer")
            try s.expect("OK NAME name=stayer lang=en")
            let raw = try BareSocket(port: t.tlsPort)
            raw.send("\u{16}\u{03}\u{01}")
            #expect(t.daemon.terminate() == .exited(0))
            try s.expect("BYE shutdown the server is stopping; games in progress are kept: RESUME them when it is back")
            #expect(s.waitForEnd())
            let (closed, received) = raw.waitForClose()
            #expect(closed && received.isEmpty, "\(received.count) bytes")
        }
    }

    @Test("ghostd refuses to start, exit status 2 and one line, with TLS options that cannot work")
    func startupRefusals() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let folder = try DataDirectory()
            let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "a", subject: "/CN=a")
            let (_, otherKey) = try TLSTest.makeCertificate(in: folder.path, stem: "b", subject: "/CN=b")
            let base = ["--port", "0", "--data", folder.path + "/data", "--dictionaries", DaemonProcess.dictionariesFolder]
            let cases: [([String], String)] = [
                (["--tls-port", "0"], "ghostd: --tls-port needs --tls-cert FILE and --tls-key FILE (see ghostd --help)"),
                (["--tls-port", "0", "--tls-cert", cert], "ghostd: --tls-port needs --tls-cert FILE and --tls-key FILE (see ghostd --help)"),
                (["--tls-cert", cert, "--tls-key", key], "ghostd: --tls-cert and --tls-key are for --tls-port or --web-tls-port, neither of which is given (see ghostd --help)"),
                (["--tls-port", "0", "--tls-cert", folder.path + "/none.pem", "--tls-key", key],
                 "ghostd: --tls-cert: cannot read \(folder.path)/none.pem: No such file or directory"),
                (["--tls-port", "0", "--tls-cert", cert, "--tls-key", otherKey],
                 "ghostd: --tls-key: \(otherKey) is not the key of the certificate in \(cert): key values mismatch"),
                (["--tls-port", "0", "--tls-cert", key, "--tls-key", key],
                 "ghostd: --tls-cert: \(key) is not a PEM certificate: no start line; PEM lib"),
            ]
            for (args, message) in cases {
                let r = try DaemonProcess.runToCompletion(base + args)
                #expect(r.status == .exited(2), "\(args): \(r.status)")
                #expect(r.stderr == message + "\n", "\(args)")
            }
        }
    }
}
