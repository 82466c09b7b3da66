import Foundation
import Testing
@testable import GhostServer
import GhostWeb
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The web port against a real daemon over real sockets: the web client's
/// files with their security headers, the line protocol over WebSocket
/// (the same lines as TCP, one per text frame, BYE then a close frame),
/// and a hostile client's requests and frames: foreign origins, unknown
/// paths and methods, over-long heads, a slowloris, the caps by network.
@Suite("EndToEnd: web port", .ownThread, .hangLimit)
struct EndToEndWebTests {
    @Test("GET / serves the web client with its security headers; other paths, methods and malformed heads are refused")
    func files() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb()
        defer { daemon.kill() }
        func get(_ request: String) throws -> (String, [UInt8]) {
            let c = try WebSocketClient(port: port)
            try c.send(request)
            let head = try c.readResponse()
            return (head, try c.readToEnd())
        }
        let (head, body) = try get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(body == WebAssets.all["/index.html"]?.bytes)
        #expect(head.contains("\r\nContent-Type: text/html; charset=utf-8"))
        #expect(head.contains("\r\nContent-Security-Policy: \(HTTPResponse.contentSecurityPolicy)"))
        #expect(head.contains("\r\nX-Content-Type-Options: nosniff"))
        #expect(!head.contains("Strict-Transport-Security"))
        for asset in WebAssets.list {
            let (h, b) = try get("GET \(asset.path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(h.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(asset.path)")
            #expect(b == asset.bytes, "\(asset.path)")
        }
        #expect(try get("GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n").0.hasPrefix("HTTP/1.1 404 "))
        #expect(try get("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").0.hasPrefix("HTTP/1.1 405 "))
        #expect(try get("GET / HTTP/1.1\r\n\r\n").0.hasPrefix("HTTP/1.1 400 "))
        #expect(try get("\u{16}\u{03}\u{01}\u{02}\u{00}\r\n\r\n").0.hasPrefix("HTTP/1.1 400 "))
        let long = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 9000) + "\r\n\r\n"
        #expect(try get(long).0.hasPrefix("HTTP/1.1 431 "))
        let many = "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X: y\r\n", count: 70) + "\r\n"
        #expect(try get(many).0.hasPrefix("HTTP/1.1 431 "))
        // The daemon still serves everyone.
        let plain = try LineClient(port: daemon.port)
        try plain.ping()
    }

    @Test("A whole game over WebSocket against a TCP player: the same lines, one per text frame; QUIT gets BYE then close 1000")
    func gameOverWebSocket() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb()
        defer { daemon.kill() }
        let (web, hello) = try WebSocketClient.open(port: port)
        #expect(hello == "HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl")
        let tcp = try LineClient(port: daemon.port, label: "bob")
        try web.sendLine("NAME alice")
        #expect(try web.readText() == "OK NAME name=alice lang=en")
        try tcp.login("bob")
        try web.sendLine("SEEK")
        #expect(try web.readText().hasPrefix("OK SEEK"))
        try tcp.send("SEEK")
        _ = try tcp.readUntil(prefix: "GAME id=")
        let game = try web.readUntil("GAME id=")
        #expect(game.hasPrefix("GAME id=1 game=ghost lang=en players="))
        // Each side plays; the other sees every MOVE. Whoever is first plays.
        let first = try web.readUntil("TURN id=1 player=")
        let webFirst = first.hasPrefix("TURN id=1 player=alice")
        // A line with its LF is one line too (a netcat-like WebSocket client).
        if webFirst { try web.send(WebSocketClient.frame(1, Array("z\n".utf8))) } else { try tcp.send("z") }
        #expect(try web.readUntil("MOVE id=1 ").contains("letter=z"))
        try web.sendLine("PING")
        #expect(try web.readUntil("OK PING") == "OK PING")
        try web.sendLine("QUIT")
        #expect(try web.readUntil("BYE ") == "BYE quit goodbye")
        let close = try web.readFrame()
        #expect(close.opcode == 8 && close.closeCode == 1000, "\(close)")
        #expect(web.isClosed())
        // The game is adjourned for alice, as for a TCP player who quits.
        _ = try tcp.readUntil(prefix: "ADJOURNED id=1 player=alice")
    }

    @Test("A foreign Origin gets 403 and no session; a listed --web-origin is let in")
    func origins() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb(["--web-origin", "https://play.example.org"])
        defer { daemon.kill() }
        let evil = try WebSocketClient(port: port)
        try evil.send(WebSocketClient.upgradeRequest(origin: "https://evil.example"))
        #expect(try evil.readResponse().hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        #expect(String(decoding: try evil.readToEnd(), as: UTF8.self).contains("this origin may not open the WebSocket"))
        let (_, hello) = try WebSocketClient.open(port: port, origin: "https://play.example.org")
        #expect(hello.hasPrefix("HELLO "))
        #expect(daemon.waitForStderrLine { $0.contains("web request from 127.0.0.1:") } != nil, "\(daemon.stderrText)")
    }

    @Test("Frames against the RFC fail the connection with the RFC's close code, and everyone else is served")
    func badFrames() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb()
        defer { daemon.kill() }
        let cases: [([UInt8], Int)] = [
            (WebSocketClient.frame(1, Array("PING".utf8), masked: false), 1002),
            (WebSocketClient.frame(2, [1, 2, 3]), 1003),
            (WebSocketClient.frame(1, [0x50, 0xFF]), 1007),
            (WebSocketClient.frame(1, Array("PING\nHELP".utf8)), 1007),
            (WebSocketClient.frame(1, [UInt8](repeating: 0x61, count: 513)), 1009),
            (Array(WebSocketClient.frame(1, [UInt8](repeating: 0x61, count: 1_000_000)).prefix(14)), 1009),
            (WebSocketClient.frame(9, [UInt8](repeating: 0, count: 126)), 1002),
        ]
        for (bytes, code) in cases {
            let (c, _) = try WebSocketClient.open(port: port)
            try c.send(bytes)
            let frame = try c.readFrame()
            #expect(frame.opcode == 8 && frame.closeCode == code, "\(bytes.prefix(4)) got \(frame)")
            #expect(c.isClosed())
        }
        // Ping gets its pong; fragments with a ping between make one line.
        let (c, _) = try WebSocketClient.open(port: port)
        try c.send(WebSocketClient.frame(9, [1, 2, 3]))
        #expect(try c.readFrame() == WebSocketClient.Frame(opcode: 10, fin: true, payload: [1, 2, 3]))
        try c.send(WebSocketClient.frame(1, Array("PI".utf8), fin: false) + WebSocketClient.frame(9, []) + WebSocketClient.frame(0, Array("NG".utf8)))
        #expect(try c.readFrame().opcode == 10)
        #expect(try c.readText() == "OK PING")
        // The client's close: answered, then the connection ends.
        try c.send(WebSocketClient.frame(8, [0x03, 0xE8]))
        let close = try c.readFrame()
        #expect(close.opcode == 8 && close.closeCode == 1000, "\(close)")
        #expect(c.isClosed())
        let plain = try LineClient(port: daemon.port)
        try plain.ping()
    }

    @Test("A request not sent within --web-request-timeout is dropped (slowloris), and a session is not")
    func slowloris() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb(["--web-request-timeout", "1"])
        defer { daemon.kill() }
        let slow = try WebSocketClient(port: port)
        try slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let (session, _) = try WebSocketClient.open(port: port)
        // Dropped without a word once its time is up (the wait is for the close; 10 s bounds a failure).
        #expect(try slow.readToEnd(timeout: 10).isEmpty)
        try session.sendLine("PING")
        #expect(try session.readText() == "OK PING")
    }

    @Test("Web connections count against the caps by network, as TCP ones do: past --max-clients-per-ip, 503")
    func capsByNetwork() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb(["--max-clients-per-ip", "2"])
        defer { daemon.kill() }
        let (a, _) = try WebSocketClient.open(port: port)
        let b = try LineClient(port: daemon.port)
        let c = try WebSocketClient(port: port)
        let head = try c.readResponse()
        #expect(head.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(head)")
        #expect(String(decoding: try c.readToEnd(), as: UTF8.self).contains("too many connections from 127.0.0.1 (at most 2)"))
        try a.sendLine("PING")
        #expect(try a.readText() == "OK PING")
        try b.ping()
    }

    @Test("STATS counts WebSocket sessions and web requests; the daemon's stop closes a WebSocket with BYE shutdown and 1001")
    func statsAndShutdown() throws {
        let (daemon, port) = try DaemonProcess.startWithWeb()
        let (c, _) = try WebSocketClient.open(port: port)
        let page = try WebSocketClient(port: port)
        try page.send("GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try page.readResponse()
        _ = try page.readToEnd()
        try c.sendLine("STATS")
        var stats: [String] = []
        while true {
            let line = try c.readText()
            stats.append(line)
            if line.hasPrefix("OK STATS") { break }
        }
        #expect(stats.contains("STAT name=connections_web value=1"), "\(stats)")
        #expect(stats.contains("STAT name=web_requests value=2"), "\(stats)")
        _ = daemon.terminate()
        #expect(try c.readUntil("BYE shutdown").hasPrefix("BYE shutdown "))
        let close = try c.readFrame()
        #expect(close.opcode == 8 && close.closeCode == 1001, "\(close)")
    }

    @Test("The web port is on by default at 7780, and off with --web-port off", arguments: [["--web-port", "off"], ["--web-port", "0"]])
    func off(_ args: [String]) throws {
        #expect(ServerConfig().webPort == 7780)
        let daemon = try DaemonProcess.start(extraArguments: args)
        defer { daemon.kill() }
        #expect(daemon.webPort == nil)
        #expect(!daemon.stderrText.contains("web port"))
    }

    @Test("Behind a --trusted-proxy a WebSocket counts by the network of its X-Forwarded-For; from anyone else that field is ignored")
    func trustedProxy() throws {
        func open(_ port: Int, forwardedFor: String) throws -> (WebSocketClient, String) {
            let c = try WebSocketClient(port: port)
            try c.send(WebSocketClient.upgradeRequest(origin: "http://127.0.0.1", extra: ["X-Forwarded-For: 10.9.8.7, \(forwardedFor)"]))
            return (c, try c.readResponse())
        }
        let (daemon, port) = try DaemonProcess.startWithWeb(["--max-clients-per-ip", "1", "--trusted-proxy", "127.0.0.1"])
        defer { daemon.kill() }
        // Two clients behind the proxy (127.0.0.1), each its own network: both in, though the proxy has one connection's room.
        let (a, headA) = try open(port, forwardedFor: "203.0.113.5")
        #expect(headA.hasPrefix("HTTP/1.1 101 "), "\(headA)")
        #expect(try a.readText().hasPrefix("HELLO "))
        let (b, headB) = try open(port, forwardedFor: "198.51.100.7")
        #expect(headB.hasPrefix("HTTP/1.1 101 "), "\(headB)")
        // Many more from the proxy at once: none is refused for the proxy's own network.
        // (All five connected before any says whose it is.)
        let more = try (0..<5).map { _ in try WebSocketClient(port: port) }
        for (i, m) in more.enumerated() {
            try m.send(WebSocketClient.upgradeRequest(origin: nil, extra: ["X-Forwarded-For: 192.0.2.\(i + 1)"]))
            let head = try m.readResponse()
            #expect(head.hasPrefix("HTTP/1.1 101 "), "\(head)")
        }
        // A second one from the first client's network: over its cap.
        let (c, headC) = try open(port, forwardedFor: "203.0.113.5")
        #expect(headC.hasPrefix("HTTP/1.1 503 "), "\(headC)")
        #expect(String(decoding: try c.readToEnd(), as: UTF8.self).contains("too many connections from 203.0.113.5 (at most 1)"))
        try b.sendLine("PING")
        #expect(try b.readUntil("OK PING") == "OK PING")

        // Not a trusted proxy: the field means nothing, and the second connection from 127.0.0.1 is over the cap.
        let (plain, plainPort) = try DaemonProcess.startWithWeb(["--max-clients-per-ip", "1"])
        defer { plain.kill() }
        let (d, headD) = try open(plainPort, forwardedFor: "203.0.113.5")
        #expect(headD.hasPrefix("HTTP/1.1 101 "))
        let e = try WebSocketClient(port: plainPort)
        #expect(try e.readResponse().hasPrefix("HTTP/1.1 503 "))
        _ = d
    }
}
