import Foundation
import Testing
import GhostProtocol
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Many networks, each inside its budget, slowed
/// everyone: a loop turn served every ready network's lines, in epoll's
/// order, before a quiet network's one line (200 loopers on 40 addresses:
/// probe p99 112–271 ms). Now a turn serves the networks that spent least
/// first, and for at most `--turn-slice`; the rest wait for the next turn.
///
/// No time is measured. The daemon is stopped (SIGSTOP) while 80 connections
/// on 20 addresses, which have spent a lot lately, queue 25 STATS each, and
/// then a probe on another address queues one; once it runs again (SIGCONT),
/// all are readable in the same turn, and the probe's reply says how many
/// lines were served before its own (`input_served`).
@Suite("EndToEnd: networks are served fairly", .ownThread, .hangLimit)
struct EndToEndFairnessTests {
    static func served(_ client: LineClient) throws -> Int {
        try client.send("STATS")
        return try readStats(client)["input_served"].flatMap { Int($0) } ?? -1
    }

    /// Waits until every thread of `pid` is stopped (`T` in /proc); false
    /// after 30 s, a failure's bound only.
    static func waitUntilStopped(_ pid: Int32) -> Bool {
        let deadline = monotonicNow() + 30
        while monotonicNow() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let states = tasks.compactMap { Process.state(path: "/proc/\(pid)/task/\($0)/stat") }
            if !states.isEmpty, states.allSatisfy({ $0 == "T" || $0 == "t" }) { return true }
            usleep(1_000)
        }
        return false
    }

    /// Reads one STATS reply: name → value.
    static func readStats(_ client: LineClient) throws -> [String: String] {
        var out: [String: String] = [:]
        while true {
            let line = try client.readLine()
            if line.hasPrefix("OK STATS") { return out }
            let f = lineFields(line)
            if let n = f["name"] { out[n] = f["value"] }
        }
    }

    @Test("80 busy connections on 20 addresses queue 2,000 STATS while ghostd is stopped, then a quiet address's STATS: the quiet one is served first (input_served), and every busy one still gets all its replies")
    func quietNetworkFirst() throws {
        // Budgets that never hold anyone, but whose network clocks run far
        // ahead for the busy networks (1 unit a second): what they spent.
        let d = try DaemonProcess.start(extraArguments: [
            "--max-commands-per-second-per-ip", "1", "--command-burst-per-ip", "1000000",
            "--max-commands-per-second", "1000000", "--command-burst", "1000000"])
        defer {
            d.signal(SIGCONT)
            d.kill()
        }
        var busy: [LineClient] = []
        for network in 2...21 {
            for k in 0..<4 {
                busy.append(try LineClient(port: d.port, label: "busy\(network).\(k)", source: "127.0.0.\(network)"))
            }
        }
        let probe = try LineClient(port: d.port, label: "probe", source: "127.0.0.50")
        // Spending: 10 STATS each (40 units), read to the end.
        for client in busy { try client.send(Array(repeating: "STATS", count: 10).joined(separator: "\n")) }
        for client in busy {
            for _ in 0..<10 { try client.readUntil(prefix: "OK STATS") }
        }
        let before = try Self.served(probe)

        d.signal(SIGSTOP)
        // kill(2) returns before every thread has stopped: wait until each is (a
        // full run once served 75 of the lines below before the loop stopped).
        #expect(Self.waitUntilStopped(d.pid), "ghostd's threads did not all stop")
        for client in busy { try client.send(Array(repeating: "STATS", count: 25).joined(separator: "\n")) }
        try probe.send("STATS")
        d.signal(SIGCONT)

        // The probe's reply: how many lines had been served when its own was (itself included).
        let atProbe = try Self.readStats(probe)["input_served"].flatMap { Int($0) } ?? -1
        let servedFirst = atProbe - before - 1
        #expect(servedFirst >= 0 && servedFirst <= 10,
                "lines served before the probe's: \(servedFirst) of the 2,000 queued with it (at most 10 expected)")
        for client in busy {
            for _ in 0..<25 { try client.readUntil(prefix: "OK STATS") }
        }
        #expect(d.isRunning)
    }

    @Test("--turn-slice 0.001 (1 µs): three STATS sent at once are answered in order, over several turns (input_deferred counts the waits): a tiny slice still serves a line a turn")
    func sliceDefersAndProgresses() throws {
        let d = try DaemonProcess.start(extraArguments: ["--turn-slice", "0.001"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "sliced")
        try c.send("STATS\nSTATS\nPING\nSTATS")
        _ = try Self.readStats(c)
        _ = try Self.readStats(c)
        try c.expect("OK PING")
        let last = try Self.readStats(c)
        let deferred = last["input_deferred"].flatMap { Int($0) } ?? -1
        #expect(deferred >= 2, "input_deferred \(deferred)")
        #expect(last["input_served"] == "4", "\(last)")
    }
}
