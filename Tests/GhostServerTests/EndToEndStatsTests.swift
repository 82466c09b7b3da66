import Foundation
import Testing
import TestSupport

/// STATS against a real ghostd: every figure in the documented order, and
/// the counters moving with what happened (connections, closes by reason,
/// commits, games, moves).
@Suite("EndToEnd: STATS", .ownThread, .hangLimit)
struct EndToEndStatsTests {
    static let names = [
        "version", "protocol", "uptime_seconds", "connections", "connections_total", "connections_tls", "tls_handshakes_failed", "tls_handshakes_queued", "connections_web", "web_requests",
        "closed_peer", "closed_quit", "closed_flood", "closed_name_timeout", "closed_idle_timeout", "closed_full",
        "closed_output_overflow", "closed_shutdown", "closed_replaced", "closed_banned",
        "input_throttled", "input_paused", "input_waiting", "input_served", "input_deferred",
        "commits", "syncs", "commit_p50_us", "commit_p99_us", "durability", "node", "lease_epoch", "entry_node", "entry_node_connections", "nodes", "db_bytes", "wal_bytes", "rss_bytes",
        "io_threads", "io_jobs_threaded",
        "games_in_progress", "games_in_progress_ghost", "games_in_progress_hangman", "games_finished", "games_aborted", "moves",
        "names_connected", "watchers", "registrations", "logins", "logins_failed", "passwords_changed", "hashes_refused", "passwords_pending", "invitations_open",
    ]

    static func stats(_ c: LineClient, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
        try c.send("STATS", sourceLocation: sourceLocation)
        let (lines, ok) = try c.readUntil(prefix: "OK STATS ", sourceLocation: sourceLocation)
        #expect(ok == "OK STATS count=\(names.count)", sourceLocation: sourceLocation)
        #expect(lines.map { EndToEndHangmanTests.field("name", $0) } == names, "\(lines)", sourceLocation: sourceLocation)
        var out: [String: String] = [:]
        for line in lines {
            #expect(line.hasPrefix("STAT name="), sourceLocation: sourceLocation)
            out[EndToEndHangmanTests.field("name", line)] = EndToEndHangmanTests.field("value", line)
        }
        return out
    }

    @Test("STATS lists every figure in order; connections, closes by reason, commits, games and moves count up")
    func figures() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--max-clients-per-ip", "4"])
        defer { daemon.kill() }
        let watcher = try LineClient(port: daemon.port, label: "watcher")
        let before = try Self.stats(watcher)
        #expect(before["version"] == "0.4.0" && before["protocol"] == "2" && before["durability"] == "full")
        #expect(before["connections"] == "1" && before["connections_total"] == "1")
        // One node: every connection came in through it (no name on SQLite).
        #expect(before["entry_node_connections"] == "1" && before["nodes"] == "1", "\(before)")
        #expect(DaemonProcess.onPostgres || before["entry_node"] == "", "\(before)")
        #expect(before["games_in_progress"] == "0" && before["games_finished"] == "0" && before["moves"] == "0")
        #expect(Int(before["rss_bytes"] ?? "") ?? 0 > 1_000_000)
        #expect(DaemonProcess.onPostgres || Int(before["db_bytes"] ?? "") ?? 0 > 0)   // the SQLite file's size; 0 on PostgreSQL

        let a = try E2E.player(daemon, "ann"), b = try E2E.player(daemon, "ben")
        var game = try Game.privateGame(host: a, guest: b)
        try game.play("pe")
        let mid = try Self.stats(watcher)
        #expect(mid["games_in_progress"] == "1" && mid["games_in_progress_ghost"] == "1" && mid["games_in_progress_hangman"] == "0")
        #expect(mid["moves"] == "2" && mid["names_connected"] == "2")
        #expect(Int(mid["commits"] ?? "") ?? 0 >= 4, "\(mid)")   // two names, the game, two letters
        #expect(Int(mid["commit_p99_us"] ?? "") ?? 0 >= Int(mid["commit_p50_us"] ?? "") ?? 0)
        try LimitsTests.finishPear(&game, from: 2)

        // Closes by reason: a QUIT, a client that just goes, one turned away (per-IP limit 4).
        try a.send("QUIT")
        try a.client.expect(lines: ["OK QUIT", "BYE quit goodbye"])
        try a.client.expectClosed()
        b.client.close()
        // Ben's close must be seen before the next three connect, or one of them is the fifth.
        var after = try Self.stats(watcher)
        let deadline = Date().addingTimeInterval(LineClient.defaultTimeout)
        while after["closed_peer"] != "1" && Date() < deadline {
            usleep(20_000)
            after = try Self.stats(watcher)
        }
        let c1 = try LineClient(port: daemon.port, label: "c1"), c2 = try LineClient(port: daemon.port, label: "c2")
        let c3 = try LineClient(port: daemon.port, label: "c3")
        let turned = try LineClient(port: daemon.port, label: "turned away", readHello: false)
        _ = try turned.expectPrefix("BYE full ")
        try turned.expectClosed()
        _ = [c1, c2, c3]
        after = try Self.stats(watcher)
        #expect(after["games_in_progress"] == "0" && after["games_finished"] == "1" && after["moves"] == "4")
        #expect(after["closed_quit"] == "1" && after["closed_peer"] == "1" && after["closed_full"] == "1", "\(after)")
        #expect(after["connections"] == "4" && after["connections_total"] == "6", "\(after)")
    }
}
