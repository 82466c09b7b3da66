import Foundation
import GhostStore
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Issue #49's "done when", the short version: three ghostd nodes on one
/// PostgreSQL state behind HAProxy (contrib/haproxy.cfg, spreading the
/// players over the nodes: a standby carries its players to the leader),
/// ghost-bench playing flat out through it, and the
/// leaders failing in turn: the first killed -9; the second frozen
/// (SIGSTOP) past its lease and woken once the third took over (it exits 4);
/// then a rolling restart, every node stopped cleanly and started again in
/// turn. After each failure a standby takes over and a new ghost-bench run
/// plays on it. At the end, every letter any run saw acknowledged is in
/// PostgreSQL. (`scripts/chaos-cluster.sh` is the long version, with its
/// figures in BENCHMARKS.md.)
@Suite("Crash: three ghostd nodes on one PostgreSQL under load, leaders killed, frozen and restarted in turn", .ownThread, storeIndependent,
       .hangLimit)
struct CrashClusterUnderLoadTests {
    static let lease = "5"
    static let connections = 200

    final class Cluster {
        let url: String
        var nodes: [DaemonProcess] = []
        init(url: String) { self.url = url }

        static let limits = ["--max-commands-per-second", "0", "--max-clients", "5000", "--max-clients-per-ip", "0", "--max-games-per-network", "0",
                             "--idle-timeout", "0", "--name-timeout", "0", "--max-unnamed", "0", "--max-unnamed-per-ip", "0",
                             "--connects-per-second-per-ip", "0", "--trusted-proxy", "127.0.0.1"]

        func start(_ name: String, standby: Bool) throws {
            nodes.append(try DaemonProcess.start(extraArguments: ["--store", url, "--node-name", name, "--lease-seconds", CrashClusterUnderLoadTests.lease] + Cluster.limits,
                                                 port: try LoopbackPort.free(), standby: standby))
        }

        /// The node that leads: the one running whose last lease line says so
        /// (a started leader's `listening on`), waited for.
        func leader(after epoch: Int) -> Int? {
            let deadline = monotonicNow() + 90
            while monotonicNow() < deadline {
                for (i, node) in nodes.enumerated() where node.isRunning {
                    if node.stderrLines.contains(where: { $0.hasSuffix("this node leads now (epoch \(epoch + 1)): taking over the games in progress") }),
                       node.stderrLines.contains(where: { DaemonProcess.parseListening($0) != nil }) {
                        return i
                    }
                }
                usleep(20_000)
            }
            return nil
        }

        func killAll() { for node in nodes { _ = node.kill() } }
    }

    /// One ghost-bench run against `port`, recording what it saw acknowledged.
    final class Run {
        let process = Process()
        let output = Pipe()
        let record: String

        init(port: Int, record: String) throws {
            self.record = record
            process.executableURL = URL(fileURLWithPath: try CrashUnderLoadTests.benchPath())
            process.arguments = ["play", "--port", String(port), "--connections", String(CrashClusterUnderLoadTests.connections),
                                 "--seconds", "600", "--warmup", "0", "--record", record]
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }

        /// Waits for ghost-bench to end (its server gone), returning what it printed.
        func finish() -> (Int32, String) {
            let status = process.waitForExit()
            return (status, String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    /// Waits until `node` has stored `more` moves (STATS) after the run began; how many it stored.
    static func movesStored(_ node: DaemonProcess, more: Int, since base: Int, while run: Run) throws -> Int {
        let watcher = try LineClient(port: node.port, label: "stats", timeout: 30)
        let deadline = monotonicNow() + 120
        var stored = 0
        while stored < more && monotonicNow() < deadline && run.process.isRunning && node.isRunning {
            usleep(50_000)
            stored = (Int(try CrashUnderLoadTests.stats(watcher)["moves"] ?? "") ?? 0) - base
        }
        return stored
    }

    static func moves(_ node: DaemonProcess) throws -> Int {
        let watcher = try LineClient(port: node.port, label: "stats", timeout: 30)
        return Int(try CrashUnderLoadTests.stats(watcher)["moves"] ?? "") ?? 0
    }

    @Test("ghost-bench through HAProxy on the leader of three nodes: the leader killed -9, the next frozen past its lease, then a rolling restart of all three; every acknowledged letter is in PostgreSQL")
    func leadersFailInTurn() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let cluster = Cluster(url: url)
            defer { cluster.killAll() }
            try cluster.start("node-a", standby: false)
            try cluster.start("node-b", standby: true)
            try cluster.start("node-c", standby: true)
            // contrib/haproxy.cfg, but spreading the players over every node
            // (roundrobin, not first): most games have players on two nodes.
            let records = try DataDirectory()
            let contrib = try String(contentsOfFile: HAProxy.contribConfigPath, encoding: .utf8)
            #expect(contrib.contains("balance first"))
            let spread = records.path + "/haproxy-roundrobin.cfg"
            try contrib.replacingOccurrences(of: "balance first", with: "balance roundrobin").write(toFile: spread, atomically: true, encoding: .utf8)
            let balancer = try HAProxy(backends: cluster.nodes.map(\.port), source: spread)
            defer { balancer.stop() }
            var runs: [Run] = []
            var epoch = 1
            var leader = 0

            /// A ghost-bench run through HAProxy (to the leader, or to a standby
            /// that carries it there), until the leader stored 500 moves more.
            func play() throws -> Run {
                // Every running node up (a standby carries its players to the
                // leader), the others down.
                for i in cluster.nodes.indices {
                    if cluster.nodes[i].isRunning { try balancer.waitUntilUp(i, timeout: 60) } else { try balancer.waitUntilDown(i, timeout: 60) }
                }
                let base = try Self.moves(cluster.nodes[leader])
                let run = try Run(port: balancer.port, record: records.path + "/run\(runs.count).txt")
                runs.append(run)
                let stored = try Self.movesStored(cluster.nodes[leader], more: 500, since: base, while: run)
                #expect(stored >= 500, "only \(stored) moves stored by \(cluster.nodes[leader].arguments)")
                return run
            }
            /// The next leader, after the current one failed.
            func takeOver() throws {
                let started = monotonicNow()
                let next = try #require(cluster.leader(after: epoch), "no node took over from epoch \(epoch)")
                print("cluster under load: epoch \(epoch + 1) on node \(next), \(Int((monotonicNow() - started) * 1000)) ms after the failure was seen")
                epoch += 1
                leader = next
            }

            // 1. The leader killed -9, after it served players of every node.
            var run = try play()
            for standby in ["node-b", "node-c"] {
                #expect(cluster.nodes[0].waitForStderrLine { $0.contains("relays a client of the trusted proxy 127.0.0.1") && $0.hasSuffix(", node \(standby))") } != nil,
                        "\(cluster.nodes[0].stderrText.suffix(2000))")
            }
            #expect(cluster.nodes[leader].kill() == .signaled(SIGKILL))
            try takeOver()
            #expect(run.finish().0 == 0)

            // 2. The new leader frozen past its lease; woken after the takeover, it stops (4).
            run = try play()
            let frozen = leader
            cluster.nodes[frozen].signal(SIGSTOP)
            try takeOver()
            cluster.nodes[frozen].signal(SIGCONT)
            #expect(cluster.nodes[frozen].waitForExit(timeout: 60) == .exited(4), "\(cluster.nodes[frozen].stderrText.suffix(2000))")
            #expect(run.finish().0 == 0)

            // 3. A rolling restart: the dead nodes back as standbys, then each
            //    node in turn stopped cleanly (the leader hands over) and started again.
            for i in cluster.nodes.indices where !cluster.nodes[i].isRunning {
                cluster.nodes[i] = try cluster.nodes[i].relaunch(standby: true)
            }
            run = try play()
            for stopping in cluster.nodes.indices {
                #expect(cluster.nodes[stopping].terminate() == .exited(0), "\(cluster.nodes[stopping].stderrText.suffix(2000))")
                let wasLeader = stopping == leader
                if wasLeader {
                    try takeOver()   // handed over at once
                    #expect(run.finish().0 == 0)
                }   // else a standby: the run plays on
                cluster.nodes[stopping] = try cluster.nodes[stopping].relaunch(standby: true)
                if wasLeader { run = try play() }
            }
            cluster.killAll()
            _ = run.finish()

            let store = try Store(postgres: url, directory: records.path)
            defer { store.close() }
            var total = 0
            for (i, r) in runs.enumerated() {
                let (recorded, missing) = try CrashUnderLoadTests.notStored(record: r.record, store: store)
                total += recorded
                #expect(recorded >= 100, "run \(i): only \(recorded) acknowledged moves recorded")
                #expect(missing.isEmpty, "run \(i): \(missing.count) of \(recorded) acknowledged moves are not in PostgreSQL, e.g. \(missing.prefix(5))")
            }
            print("cluster under load: \(runs.count) runs, \(total) acknowledged letters, every one in PostgreSQL")
        }
    }
}
