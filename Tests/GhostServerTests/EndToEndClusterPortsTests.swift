import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A standby's TLS and web ports (issue #49, docs/cluster.md): they carry
/// their clients to the leader as its plain port does, bytes unread, after
/// a RELAY line that names the port and the leader's `OK RELAY`; the
/// leader does the TLS handshake (with its own certificate) and the HTTP
/// and WebSocket work, and counts those clients as its own ports' (STATS).
/// A port the leader does not serve is refused, and so is a relay that
/// sends its client's bytes before the answer. Real daemons on a real
/// PostgreSQL, real sockets, `openssl s_client`; each step waits for a log
/// line, a protocol line or a connection's end, never for a time.
@Suite("EndToEnd: a standby's TLS and web ports carry their clients to the leader", .ownThread, storeIndependent, .hangLimit)
struct EndToEndClusterPortsTests {
    /// node-a leading with `leader` options, node-b standing by with
    /// `standby` options, on a fresh database (`url`), once node-b carries
    /// its clients to node-a's relay port (`relayPort`). The lease is long:
    /// nothing here takes over.
    struct Cluster {
        let url: String
        let leader: DaemonProcess
        let standby: DaemonProcess
        let relayPort: Int

        func kill() {
            _ = standby.kill()
            _ = leader.kill()
        }

        /// The cluster's secret, as every node reads it from the lease.
        func secret() throws -> String {
            try PostgresServer.shared().psql("SELECT secret FROM ghostd_lease", database: url)
        }
    }

    /// `standbyShellPrefix`: run node-b under it (`ulimit -n 64`).
    static func cluster(leader: [String], standby: [String], standbyShellPrefix: String? = nil) throws -> Cluster {
        let url = try PostgresServer.shared().createDatabase()
        let common = ["--store", url, "--lease-seconds", "600"]
        let a = try DaemonProcess.start(extraArguments: common + ["--node-name", "node-a"] + leader, port: try LoopbackPort.free())
        let relayLine = try #require(a.waitForStderrLine(timeout: 60) { $0.contains("relay port: 127.0.0.1:") }, "\(a.stderrText)")
        let relayAddress = String(relayLine.split(separator: " ").first { $0.hasPrefix("127.0.0.1:") } ?? "")
        let b: DaemonProcess
        do {
            b = try DaemonProcess.start(extraArguments: common + ["--node-name", "node-b"] + standby, port: try LoopbackPort.free(),
                                        shellPrefix: standbyShellPrefix, standby: true)
        } catch {
            _ = a.kill()
            throw error
        }
        let cluster = Cluster(url: url, leader: a, standby: b, relayPort: Int(relayAddress.split(separator: ":").last ?? "") ?? 0)
        let carrying = b.waitForStderrLine(timeout: 60) { $0.hasSuffix("standby: players who connect here are carried to node node-a at \(relayAddress)") }
        guard carrying != nil else {
            cluster.kill()
            throw DaemonError("node-b never carried to node-a:\n\(b.stderrText)")
        }
        return cluster
    }

    /// STATS over any line client: its figures by name.
    static func figures(_ lines: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for line in lines { out[EndToEndHangmanTests.field("name", line)] = EndToEndHangmanTests.field("value", line) }
        return out
    }

    @Test("A TLS client on the standby's TLS port is served by the leader: the leader's certificate, its HELLO, a game with a player on the leader; STATS says node-a and counts one TLS connection; connections_total counts each connection once; node-a stopped, node-b serves that TLS port itself (its own certificate) and ann RESUMEs there")
    func tlsClientCarried() async throws {
        try await onOwnThread {
            let folder = try DataDirectory()
            let mine = try TLSTest.makeCertificate(in: folder.path, stem: "leader", subject: "/CN=leader")
            let other = try TLSTest.makeCertificate(in: folder.path, stem: "standby", subject: "/CN=standby")
            let standbyTLS = try LoopbackPort.free()
            let c = try Self.cluster(leader: ["--tls-port", "0", "--tls-cert", mine.cert, "--tls-key", mine.key],
                                     standby: ["--tls-port", String(standbyTLS), "--tls-cert", other.cert, "--tls-key", other.key])
            defer { c.kill() }
            let ann = try SClient(port: standbyTLS, label: "ann over TLS through node-b")
            defer { ann.close() }
            #expect(ann.hello.hasPrefix("HELLO ghostd/"), "\(ann.hello)")
            #expect(c.leader.waitForStderrLine(timeout: 60) { $0.contains("relays 127.0.0.1 (from 127.0.0.1:") && $0.hasSuffix(", node node-b) to this node's tls port") } != nil,
                    "\(c.leader.stderrText)")
            try ann.send("NAME ann")
            try ann.expect("OK NAME name=ann lang=en")
            let ben = try LineClient(port: c.leader.port, label: "ben on node-a")
            try ben.login("ben")
            try ann.send("NEW")
            let ok = try ann.readLine()
            let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
            #expect(ok == "OK NEW code=\(code) lang=en")
            _ = try ann.readLine()   // INFO: give the code
            try ben.send("JOIN \(code)")
            try ben.expect("OK JOIN code=\(code) lang=en")
            let gameLine = try ann.readLine()
            let g = "id=" + (lineFields(gameLine)["id"] ?? "?")
            #expect(gameLine.hasPrefix("GAME \(g) game=ghost lang=en players=ann,ben "), "\(gameLine)")
            try ann.expect("TURN \(g) player=ann fragment=")
            _ = try ben.expectPrefix("GAME \(g) ")
            try ben.expect("TURN \(g) player=ann fragment=")
            try ann.send("p")
            try ann.expect(lines: ["OK LETTER letter=p fragment=p", "MOVE \(g) player=ann letter=p fragment=p", "TURN \(g) player=ben fragment=p"])
            try ben.expect(lines: ["MOVE \(g) player=ann letter=p fragment=p", "TURN \(g) player=ben fragment=p"])
            try ann.send("STATS")
            var lines: [String] = []
            while let line = ann.nextLine(timeout: 30), !line.hasPrefix("OK STATS") { lines.append(line) }
            let figures = Self.figures(lines)
            // ann and ben, each once (a relay counts as its port's client, once).
            #expect(figures["node"] == "node-a" && figures["connections_tls"] == "1" && figures["connections_total"] == "2", "\(figures)")
            #expect(c.leader.stderrLines.contains { $0.contains("opened from 127.0.0.1:") && $0.contains(" over TLS") }, "\(c.leader.stderrText)")
            // The standby does not end TLS: the certificate is the leader's.
            #expect(try TLSTest.subject(port: standbyTLS) == "subject=CN = leader")

            // node-a stopped: node-b leads, on the TLS port it carried from (its own certificate now), and ann RESUMEs there.
            let token = lineFields(gameLine)["token"] ?? ""
            #expect(c.leader.terminate() == .exited(0), "\(c.leader.stderrText)")
            #expect(ann.waitForEnd(timeout: 60))
            #expect(c.standby.waitForStderrLine(timeout: 60) { DaemonProcess.parseListening($0)?.1 == c.standby.port } != nil, "\(c.standby.stderrText)")
            #expect(try TLSTest.subject(port: standbyTLS) == "subject=CN = standby")
            let back = try SClient(port: standbyTLS, label: "ann back over TLS on node-b")
            defer { back.close() }
            try back.send("RESUME \(token)")
            #expect(try back.readLine().hasPrefix("OK RESUME id="))
        }
    }

    @Test("A web client on the standby's web port is served by the leader: GET / gets the page, /ws upgrades, a protocol line is answered; STATS says node-a and counts one WebSocket")
    func webClientCarried() async throws {
        try await onOwnThread {
            let standbyWeb = try LoopbackPort.free()
            let c = try Self.cluster(leader: ["--web-port", String(try LoopbackPort.free())], standby: ["--web-port", String(standbyWeb)])
            defer { c.kill() }
            let page = try WebSocketClient(port: standbyWeb)
            try page.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try page.readResponse()
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.contains("\r\nContent-Type: text/html; charset=utf-8"), "\(head)")
            let (web, hello) = try WebSocketClient.open(port: standbyWeb)
            #expect(hello.hasPrefix("HELLO ghostd/"), "\(hello)")
            try web.sendLine("NAME wendy")
            #expect(try web.readText() == "OK NAME name=wendy lang=en")
            try web.sendLine("STATS")
            var lines: [String] = []
            while case let line = try web.readText(), !line.hasPrefix("OK STATS") { lines.append(line) }
            let figures = Self.figures(lines)
            #expect(figures["node"] == "node-a" && figures["connections_web"] == "1", "\(figures)")
            #expect(c.leader.stderrLines.contains { $0.hasSuffix(", node node-b) to this node's web port") }, "\(c.leader.stderrText)")
            #expect(c.leader.stderrLines.contains { $0.contains("opened from 127.0.0.1:") && $0.hasSuffix(" over WebSocket") }, "\(c.leader.stderrText)")

            // The wire itself: a web relay is answered OK RELAY, then its client's request is the leader's web port's.
            let relay = try LineClient(port: c.relayPort, label: "a web relay", readHello: false)
            try relay.send("RELAY \(try c.secret()) 127.0.0.1 web node-x")
            try relay.expect("OK RELAY")
            try relay.sendRaw(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            try relay.expect("HTTP/1.1 200 OK")
            // A relay that sends its client's bytes before the answer is closed: they would be framed as lines.
            let hasty = try LineClient(port: c.relayPort, label: "a hasty relay", readHello: false)
            try hasty.sendRaw(Array("RELAY \(try c.secret()) 127.0.0.1 web node-x\r\nGET / HTTP/1.1\r\n".utf8))
            try hasty.expect("BYE shutdown a relay's web client speaks after OK RELAY")
            try hasty.expectClosed()
        }
    }

    @Test("An HTTPS client on the standby's web TLS port is served by the leader: its certificate, its page with HSTS")
    func webTLSClientCarried() async throws {
        try await onOwnThread {
            let folder = try DataDirectory()
            let mine = try TLSTest.makeCertificate(in: folder.path, stem: "leader", subject: "/CN=leader")
            let other = try TLSTest.makeCertificate(in: folder.path, stem: "standby", subject: "/CN=standby")
            let standbyWebTLS = try LoopbackPort.free()
            let c = try Self.cluster(leader: ["--web-tls-port", "0", "--tls-cert", mine.cert, "--tls-key", mine.key],
                                     standby: ["--web-tls-port", String(standbyWebTLS), "--tls-cert", other.cert, "--tls-key", other.key])
            defer { c.kill() }
            let page = try SClient(port: standbyWebTLS, label: "HTTPS through node-b", readHello: false)
            defer { page.close() }
            // s_client ends each line with LF alone: CR before it makes HTTP's CRLF.
            for line in ["GET / HTTP/1.1\r", "Host: localhost\r", "\r"] { try page.send(line) }
            try page.expect("HTTP/1.1 200 OK")
            var head: [String] = []
            while let line = page.nextLine(timeout: 30), !line.isEmpty { head.append(line) }
            #expect(head.contains { $0.hasPrefix("Strict-Transport-Security: ") }, "\(head)")
            #expect(c.leader.stderrLines.contains { $0.hasSuffix(", node node-b) to this node's web-tls port") }, "\(c.leader.stderrText)")
            #expect(try TLSTest.subject(port: standbyWebTLS) == "subject=CN = leader")
        }
    }

    @Test("A relayed client counts by its own network, even the standby's: with --max-clients-per-ip 1 and ben on the leader from 127.0.0.1, a plain client through the standby gets BYE full and a TLS one is closed without a word (the standby logs the leader's BYE full)")
    func relayedClientsMeetTheirNetworksLimits() async throws {
        try await onOwnThread {
            let folder = try DataDirectory()
            let mine = try TLSTest.makeCertificate(in: folder.path, stem: "leader", subject: "/CN=leader")
            let standbyTLS = try LoopbackPort.free()
            let c = try Self.cluster(leader: ["--max-clients-per-ip", "1", "--tls-port", "0", "--tls-cert", mine.cert, "--tls-key", mine.key],
                                     standby: ["--tls-port", String(standbyTLS), "--tls-cert", mine.cert, "--tls-key", mine.key])
            defer { c.kill() }
            let ben = try LineClient(port: c.leader.port, label: "ben on node-a")
            try ben.login("ben")
            let full = "BYE full too many connections from 127.0.0.1 (at most 1)"
            let plain = try LineClient(port: c.standby.port, label: "plain through node-b", readHello: false)
            try plain.expect(full)
            try plain.expectClosed()
            let tls = try BareSocket(port: standbyTLS)
            tls.send("\u{16}\u{03}\u{01}\u{00}\u{05}hello")
            let ended = tls.waitForClose(timeout: 30)
            #expect(ended.closed && ended.received.isEmpty, "\(ended)")
            #expect(c.standby.waitForStderrLine(timeout: 60) { $0.hasSuffix("standby: the leader did not take a tls client: \(full)") } != nil,
                    "\(c.standby.stderrText)")
            // ben gone, one client of 127.0.0.1 fits again, through the standby too.
            ben.close()
            #expect(c.leader.waitForStderrLine(timeout: 60) { $0.contains("closed: closed by peer") } != nil, "\(c.leader.stderrText)")
            let again = try LineClient(port: c.standby.port, label: "plain through node-b again")
            try again.ping()
        }
    }

    @Test("A port the leader does not serve: the standby's TLS client is closed without a word and its web client gets a 503 (both logged on each node); a RELAY line naming tls gets BYE shutdown")
    func portNotServedIsRefused() async throws {
        try await onOwnThread {
            let folder = try DataDirectory()
            let other = try TLSTest.makeCertificate(in: folder.path, stem: "standby", subject: "/CN=standby")
            let standbyTLS = try LoopbackPort.free(), standbyWeb = try LoopbackPort.free()
            let c = try Self.cluster(leader: [], standby: ["--tls-port", String(standbyTLS), "--tls-cert", other.cert, "--tls-key", other.key,
                                                           "--web-port", String(standbyWeb)])
            defer { c.kill() }
            let tls = try BareSocket(port: standbyTLS)
            tls.send("\u{16}\u{03}\u{01}\u{00}\u{05}hello")
            let ended = tls.waitForClose(timeout: 30)
            #expect(ended.closed && ended.received.isEmpty, "\(ended)")
            #expect(c.leader.waitForStderrLine(timeout: 60) { $0.contains("relays a tls client, which this node does not serve: closed") } != nil, "\(c.leader.stderrText)")
            #expect(c.standby.waitForStderrLine(timeout: 60) { $0.hasSuffix("standby: the leader did not take a tls client: BYE shutdown this node does not serve tls clients") } != nil,
                    "\(c.standby.stderrText)")
            let page = try WebSocketClient(port: standbyWeb)
            try page.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try page.readResponse()
            #expect(head.hasPrefix("HTTP/1.1 503 "), "\(head)")
            #expect(String(decoding: try page.readToEnd(), as: UTF8.self).contains("this node does not serve web clients"))
            // The wire: a RELAY line naming tls, on a leader without --tls-port.
            let relay = try LineClient(port: c.relayPort, label: "a tls relay", readHello: false)
            try relay.send("RELAY \(try c.secret()) 127.0.0.1 tls node-x")
            try relay.expect("BYE shutdown this node does not serve tls clients")
            try relay.expectClosed()
            // The standby's plain port still carries its players.
            let plain = try LineClient(port: c.standby.port, label: "plain through node-b")
            try plain.ping()
        }
    }

    @Test("A standby out of descriptors (`ulimit -n 64`): 100 connections make its accept fail; it pauses accepting (100 ms at a time) instead of spinning, carries the players it has, and carries new ones once they leave")
    func standbyOutOfDescriptors() async throws {
        try await onOwnThread {
            let c = try Self.cluster(leader: [], standby: [], standbyShellPrefix: "ulimit -n 64")
            defer { c.kill() }
            let limits = readProcFile("/proc/\(c.standby.pid)/limits") ?? ""
            #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max open files") && $0.contains(" 64 ") }, "\(limits)")
            let early = try LineClient(port: c.standby.port, label: "early through node-b")
            try early.login("early")
            // Each client carried holds two of node-b's descriptors: it runs out long before 100.
            var extra: [LineClient] = []
            for i in 0..<100 { extra.append(try LineClient(port: c.standby.port, label: "x\(i)", readHello: false)) }
            let failed = c.standby.waitForStderrLine(timeout: 30) { $0.contains("standby: accept failed: ") }
            #expect(failed?.hasSuffix("Too many open files; pausing accept for 100 ms") == true, "\(c.standby.stderrText)")
            // The players it carries are served meanwhile.
            try early.ping()
            var hellos = 0
            for x in extra where x.readAvailable().first?.hasPrefix(LineClient.helloPrefix) == true { hellos += 1 }
            #expect(hellos < 100, "\(hellos) of 100 got HELLO under ulimit -n 64")
            // They leave: the ones waiting in the backlog are carried (and found gone), then a newcomer plays.
            for x in extra { x.close() }
            let late = try LineClient(port: c.standby.port, label: "late through node-b", timeout: 30)
            try late.login("late")
            try late.ping()
            try early.ping()
            #expect(c.standby.isRunning && c.leader.isRunning)
            print("standby out of descriptors: \(hellos) of 100 extra connections carried; "
                  + "\(c.standby.stderrLines.filter { $0.contains("pausing accept") }.count) `pausing accept` lines")
        }
    }

    @Test("The leader frozen (SIGSTOP) while a web client reaches the standby: no OK RELAY comes, so after --relay-answer-timeout (1 s) the client gets a 503 and the standby logs it; once the leader continues, the next one is served")
    func leaderSilentPastTheAnswerTimeout() async throws {
        try await onOwnThread {
            let standbyWeb = try LoopbackPort.free()
            let c = try Self.cluster(leader: ["--web-port", String(try LoopbackPort.free())],
                                     standby: ["--web-port", String(standbyWeb), "--relay-answer-timeout", "1"])
            defer { c.kill() }
            c.leader.signal(SIGSTOP)
            let page = try WebSocketClient(port: standbyWeb)
            try page.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try page.readResponse(timeout: 30)
            c.leader.signal(SIGCONT)
            #expect(head.hasPrefix("HTTP/1.1 503 "), "\(head)")
            #expect(String(decoding: try page.readToEnd(), as: UTF8.self).contains("the server cannot take this connection now"))
            #expect(c.standby.waitForStderrLine(timeout: 30) { $0.hasSuffix("standby: the leader did not take a web client: no answer") } != nil,
                    "\(c.standby.stderrText)")
            let again = try WebSocketClient(port: standbyWeb)
            try again.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try again.readResponse().hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }
}
