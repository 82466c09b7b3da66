import TestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--io-threads N` (Net/IOThreads.swift) against a real daemon: plain
/// connections are read, framed and written by N threads, the loop among
/// them, while the lobby and the store stay on the loop. Every reply is
/// checked line by line, in order, and STATS must show that threads other
/// than the loop did some of the reading and writing (`io_jobs_threaded`),
/// so a daemon that quietly does everything on the loop fails here. The
/// crash test under load with I/O threads is in CrashUnderLoadTests.
@Suite("EndToEnd: I/O threads", .ownThread, .hangLimit)
struct EndToEndIOThreadsTests {
    static func daemon(_ threads: Int, _ extra: [String] = []) throws -> DaemonProcess {
        try DaemonProcess.start(extraArguments: ["--io-threads", String(threads), "--max-commands-per-second", "0",
                                                 "--max-clients-per-ip", "0", "--max-unnamed-per-ip", "0",
                                                 "--connects-per-second-per-ip", "0"] + extra)
    }

    /// A blocking socket that sends `bytes`, then shuts down its writing
    /// side (half-closed: it could still read); its descriptor and local port.
    static func halfClosed(port: Int, _ bytes: [UInt8]) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { Glibc.close(fd); throw DaemonError("connect failed") }
        var local = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { Glibc.close(fd); throw DaemonError("send failed") }
        shutdown(fd, Int32(SHUT_WR))
        return (fd, Int(UInt16(bigEndian: local.sin_port)))
    }

    /// Lines whose replies tell them apart, so that order is checked: PING,
    /// LANG nl, LANG en, a line of 600 bytes (too long), a blank line (no reply).
    static let requests: [(line: String, reply: String?)] = [
        ("PING", "OK PING"),
        ("LANG nl", "OK LANG lang=nl"),
        ("lang en\r", "OK LANG lang=en"),
        (String(repeating: "x", count: 600),
         "ERR line-too-long a line is at most 512 bytes; it was discarded"),
        ("  ", nil),
    ]

    @Test("--io-threads 4: 40 connections each send 300 pipelined lines in one write (PING, LANG, over-long, blank), round after round; each gets exactly its replies, in order, and the threads did part of the work")
    func pipelinedLinesOnManyConnections() throws {
        let d = try Self.daemon(4)
        defer { d.kill() }
        let clients = try (0..<40).map { i in
            let c = try LineClient(port: d.port, label: "c\(i)")
            try c.login(E2E.name("pipe"))
            return c
        }
        var generator = SystemRandomNumberGenerator()
        let deadline = monotonicNow() + 60
        var threaded = 0
        var rounds = 0
        // Until a thread other than the loop has done some of it (at least
        // two rounds): on a busy machine the loop may do a round alone.
        while rounds < 2 || (threaded == 0 && monotonicNow() < deadline) {
            rounds += 1
            var expected: [[String]] = []
            for c in clients {
                var text = ""
                var replies: [String] = []
                for _ in 0..<300 {
                    let r = Self.requests[Int.random(in: 0..<Self.requests.count, using: &generator)]
                    text += r.line + "\n"
                    if let reply = r.reply { replies.append(reply) }
                }
                // The last line comes in two writes.
                text += "PI"
                replies.append("OK PING")
                try c.sendRaw(Array(text.utf8))
                expected.append(replies)
            }
            for (c, replies) in zip(clients, expected) {
                try c.sendRaw(Array("NG\n".utf8))
                try c.expect(lines: replies)
            }
            let stats = try EndToEndStatsTests.stats(clients[0])
            #expect(stats["io_threads"] == "4")
            threaded = Int(stats["io_jobs_threaded"] ?? "") ?? 0
        }
        #expect(threaded > 0, "in \(rounds) rounds no thread but the loop read or wrote a connection")
        for c in clients { try c.expectNothing(within: 0.05) }
    }

    @Test("--io-threads 2: eight Ghost games at once, every line of every move checked; with --io-threads 1 STATS says no thread did any of it")
    func gamesLineByLine() throws {
        for threads in [2, 1] {
            let d = try Self.daemon(threads)
            defer { d.kill() }
            var games = try (0..<8).map { _ in
                try Game.privateGame(host: try E2E.player(d, "host"), guest: try E2E.player(d, "guest"))
            }
            // The moves of all games go out before any reply is read.
            for letter in "pea" {
                for i in games.indices { try games[i].mover.send(String(letter)) }
                for i in games.indices {
                    let (m, w) = (games[i].mover, games[i].waiter)
                    let frag = games[i].fragment + String(letter)
                    try m.expect("OK LETTER letter=\(letter) fragment=\(frag)")
                    for p in [m, w] {
                        try p.expect(lines: ["MOVE id=\(games[i].id) player=\(m.name) letter=\(letter) fragment=\(frag)",
                                             "TURN id=\(games[i].id) player=\(w.name) fragment=\(frag)"])
                    }
                    games[i].fragment = frag
                    games[i].toMove = 1 - games[i].toMove
                }
            }
            for i in games.indices {
                try games[i].playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            }
            let check = try LineClient(port: d.port, label: "check")
            let stats = try EndToEndStatsTests.stats(check)
            #expect(stats["io_threads"] == String(threads))
            #expect(stats["games_finished"] == "8" && stats["moves"] == "32", "\(stats)")
            if threads == 1 { #expect(stats["io_jobs_threaded"] == "0") }
        }
    }

    @Test("The default is --io-threads 2 (STATS io_threads=2); --io-threads 0 and 17 are refused at start")
    func defaultAndBounds() throws {
        let d = try DaemonProcess.start()
        defer { d.kill() }
        let stats = try EndToEndStatsTests.stats(try LineClient(port: d.port, label: "check"))
        #expect(stats["io_threads"] == "2", "\(stats)")
        for bad in ["0", "17"] {
            #expect(throws: (any Error).self) { try DaemonProcess.start(extraArguments: ["--io-threads", bad], timeout: 5).kill() }
        }
    }

    @Test("--io-threads 4 --max-output-bytes 2048: a client that sends 100 HELPs and reads nothing is dropped (output-overflow) while 20 others are served every reply")
    func slowReaderDropped() throws {
        let d = try Self.daemon(4, ["--max-output-bytes", "2048"])
        defer { d.kill() }
        let others = try (0..<20).map { try LineClient(port: d.port, label: "other\($0)") }
        let lone = try LineClient(port: d.port, label: "lone")
        try lone.sendRaw(Array(String(repeating: "HELP\n", count: 100).utf8))
        for c in others { try c.sendRaw(Array(String(repeating: "PING\n", count: 50).utf8)) }
        for c in others { try c.expect(lines: Array(repeating: "OK PING", count: 50)) }
        #expect(lone.isClosed(timeout: 5), "a client with 100 HELPs unread was not dropped")
        let got = lone.takeBufferedLines()
        #expect(got.allSatisfy { $0.hasPrefix("HELP ") || $0 == "OK HELP" || $0 == LimitsTests.overflowLine }, "\(got.prefix(5))")
        #expect(d.closeReason(localPort: lone.localPort) == "output-overflow (more than 2048 bytes of replies unread)")
        for c in others { try c.ping() }
    }

    @Test("--io-threads 4: 30 connections send half a pipeline and reset, 30 half-close after their lines; the daemon logs each close, and serves on")
    func resetsAndHalfCloses() throws {
        let d = try Self.daemon(4)
        defer { d.kill() }
        let resets = try (0..<30).map { try LineClient(port: d.port, label: "reset\($0)") }
        for c in resets {
            try c.sendRaw(Array((String(repeating: "PING\n", count: 200) + "PI").utf8))
            c.reset()
        }
        // Half-closed: their lines, then the end of their input.
        let halves = try (0..<30).map { _ in try Self.halfClosed(port: d.port, Array(String(repeating: "PING\n", count: 20).utf8)) }
        for port in resets.map(\.localPort) + halves.map(\.port) {
            #expect(d.closeReason(localPort: port, timeout: 10) != nil, "no close logged for the client on port \(port)")
        }
        for h in halves { Glibc.close(h.fd) }
        let check = try LineClient(port: d.port, label: "check")
        try check.ping()
        let stats = try EndToEndStatsTests.stats(check)
        #expect(stats["connections"] == "1", "\(stats)")
        #expect(stats["closed_peer"] == "60", "\(stats)")
    }

    @Test("--io-threads 2 with a TLS port: a TLS client and a plain one play a game to its end (TLS stays on the loop), while plain clients pipeline")
    func tlsBesideThreads() async throws {
        try await EndToEndLargeServerTests.onOwnThread {
            let t = try EndToEndTLSTests.start(["--io-threads", "2", "--max-commands-per-second", "0"])
            defer { t.daemon.kill() }
            let a = try SClient(port: t.tlsPort, label: "alice over TLS")
            defer { a.close() }
            let busy = try (0..<8).map { try LineClient(port: t.daemon.port, label: "busy\($0)") }
            for c in busy { try c.sendRaw(Array(String(repeating: "PING\n", count: 100).utf8)) }
            let b = try LineClient(port: t.daemon.port, label: "bob")
            try a.send("NAME alice")
            try a.expect("OK NAME name=alice lang=en")
            try b.login("bob")
            try a.send("NEW")
            let ok = try a.readLine()
            let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
            try a.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).")
            try b.send("JOIN \(code)")
            try b.expect("OK JOIN code=\(code) lang=en")
            let id = lineFields(try a.readLine())["id"] ?? "?"
            try a.expect("TURN id=\(id) player=alice fragment=")
            _ = try b.expectPrefix("GAME id=\(id) ")
            try b.expect("TURN id=\(id) player=alice fragment=")
            for c in busy { try c.expect(lines: Array(repeating: "OK PING", count: 100)) }
            var fragment = ""
            for (i, letter) in "pea".enumerated() {
                let (mover, other) = i % 2 == 0 ? ("alice", "bob") : ("bob", "alice")
                fragment += String(letter)
                let lines = ["MOVE id=\(id) player=\(mover) letter=\(letter) fragment=\(fragment)",
                             "TURN id=\(id) player=\(other) fragment=\(fragment)"]
                if mover == "alice" {
                    try a.send(String(letter))
                    try a.expect(lines: ["OK LETTER letter=\(letter) fragment=\(fragment)"] + lines)
                    try b.expect(lines: lines)
                } else {
                    try b.send(String(letter))
                    try b.expect(lines: ["OK LETTER letter=\(letter) fragment=\(fragment)"] + lines)
                    try a.expect(lines: lines)
                }
            }
            try b.send("r")
            try b.expect("OK LETTER letter=r fragment=pear")
            for line in [try a.readLine(), try b.readLine()] {
                #expect(line == "MOVE id=\(id) player=bob letter=r fragment=pear")
            }
            for line in [try a.readLine(), try b.readLine()] {
                #expect(line.hasPrefix("OVER id=\(id) winner=alice loser=bob reason=word"), "\(line)")
            }
            let stats = try EndToEndStatsTests.stats(try LineClient(port: t.daemon.port, label: "check"))
            #expect(stats["connections_tls"] == "1" && stats["io_threads"] == "2", "\(stats)")
        }
    }
}
