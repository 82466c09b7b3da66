import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import GhostStore
import TestSupport

/// The operator's requests reach a cluster's leader through its relay port
/// (`ghostd accounts mute|ban|unban --store …` with any data folder, issue
/// #49, docs/cluster.md), and STATS gives the node a player came in through.
/// A leader (node-a) and a standby (node-b) on one PostgreSQL; players
/// connect through the standby. Nothing here waits for a time: each step
/// waits for a log line, a protocol line or a process's end.
@Suite("EndToEnd: operator requests and STATS in a cluster of two nodes", .ownThread, storeIndependent, .hangLimit)
struct EndToEndClusterOperatorTests {
    /// `ghostd accounts <arguments> --store url --data <a folder no ghostd holds>`.
    static func accounts(_ arguments: [String], store url: String) throws -> (status: ExitStatus, stdout: String, stderr: String) {
        let folder = try DataDirectory()
        return try DaemonProcess.runToCompletion(["accounts"] + arguments + ["--store", url, "--data", folder.path], timeout: 60)
    }

    /// node-a leading (its relay port's address returned), node-b standing by and carrying players to it.
    static func cluster(_ url: String) throws -> (a: DaemonProcess, b: DaemonProcess, relay: String) {
        try EndToEndClusterTests.leaderAndStandby(url)
    }

    /// STATS on `client` until `nodes` says `count` (the leader counts the
    /// standby's heartbeat within a second or two of its first).
    static func stats(_ client: LineClient, nodes count: Int) throws -> [String: String] {
        let deadline = monotonicNow() + 60
        while true {
            let figures = try CrashUnderLoadTests.stats(client)
            if figures["nodes"] == String(count) || monotonicNow() > deadline { return figures }
            usleep(50_000)
        }
    }

    @Test("STATS through the standby: entry_node is the standby's name, nodes 2, and entry_node_connections counts the connections it carries; on the leader, its own name and its own connections; the standby stopped, nodes 1")
    func statsByEntryNode() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, _) = try Self.cluster(url)
            defer { a.kill(); b.kill() }
            let ann = try E2E.player(b, "ann")
            let viaB = try LineClient(port: b.port, label: "stats-b")
            let figures = try Self.stats(viaB, nodes: 2)
            #expect(figures["node"] == "node-a" && figures["lease_epoch"] == "1", "\(figures)")
            #expect(figures["entry_node"] == "node-b" && figures["nodes"] == "2", "\(figures)")
            #expect(figures["entry_node_connections"] == "2", "\(figures)")
            let direct = try LineClient(port: a.port, label: "stats-a")
            let own = try CrashUnderLoadTests.stats(direct)
            #expect(own["entry_node"] == "node-a" && own["entry_node_connections"] == "1" && own["nodes"] == "2", "\(own)")
            #expect(own["connections"] == "3", "\(own)")
            // ann leaves: node-b carries one connection now.
            try ann.send("QUIT")
            #expect(ann.client.isClosed())
            #expect(a.waitForStderrLine { $0.contains("closed: quit") } != nil, "\(a.stderrText)")
            let after = try CrashUnderLoadTests.stats(viaB)
            #expect(after["entry_node"] == "node-b" && after["entry_node_connections"] == "1", "\(after)")
            // node-b stopped cleanly: its heartbeat's row goes, and the leader counts one node.
            #expect(b.terminate() == .exited(0))
            let alone = try Self.stats(direct, nodes: 1)
            #expect(alone["nodes"] == "1", "\(alone)")
        }
    }

    @Test("ghostd accounts with --store and a folder no ghostd holds: the leader mutes and bans a player carried by the standby (its BYE banned at once), unbans; stopped, the cluster has no live lease and the command writes to the store alone, and says so")
    func accountsThroughTheLeader() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, _) = try Self.cluster(url)
            defer { a.kill(); b.kill() }
            let ann = try E2E.player(b, "ann")
            let mute = try Self.accounts(["mute", ann.name], store: url)
            #expect(mute.status == .exited(0) && mute.stdout == "\(ann.name): muted until lifted\n" && mute.stderr == "", "\(mute)")
            #expect(a.waitForStderrLine { $0.contains("operator request from connection ") && $0.hasSuffix("): ok: \(ann.name): muted until lifted") } != nil,
                    "\(a.stderrText)")
            try ann.send("SAY hello")
            try ann.expect("ERR muted the server's operator muted you")
            let ban = try Self.accounts(["ban", ann.name], store: url)
            #expect(ban.status == .exited(0) && ban.stdout == "\(ann.name): banned until lifted\n" && ban.stderr == "", "\(ban)")
            #expect(ann.client.isClosed())
            #expect(ann.client.takeBufferedLines() == ["BYE banned the server's operator banned \(ann.name)"])
            let unban = try Self.accounts(["unban", ann.name], store: url)
            #expect(unban.status == .exited(0) && unban.stdout == "\(ann.name): mute and ban lifted\n", "\(unban)")
            // Both nodes stopped (the standby first, or it would take over): no live lease.
            #expect(b.terminate() == .exited(0))
            #expect(a.terminate() == .exited(0))
            let offline = try Self.accounts(["ban", ann.name], store: url)
            #expect(offline.status == .exited(0) && offline.stderr == "", "\(offline)")
            #expect(offline.stdout == "\(ann.name): banned until lifted\n"
                    + "no ghostd node leads the cluster now (no live lease): written to the store alone; the next node to lead applies it as it starts\n",
                    "\(offline)")
            let list = try Self.accounts(["list"], store: url)
            #expect(list.stdout.contains("\(ann.name) ban until=forever"), "\(list)")
        }
    }

    @Test("A network ban reaches a player the standby carries: the leader knows it by its own address (127.0.0.9), closes it with BYE banned, and a new connection from that network through the standby is refused the same way")
    func networkBanThroughTheStandby() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, _) = try Self.cluster(url)
            defer { a.kill(); b.kill() }
            let name = E2E.name("zed")
            let zed = try LineClient(port: b.port, label: name, source: "127.0.0.9")
            try zed.login(name)
            let ban = try Self.accounts(["ban", "--network", "127.0.0.9"], store: url)
            #expect(ban.status == .exited(0) && ban.stdout == "network 127.0.0.9 (from 127.0.0.9): banned until lifted; 1 connection(s) closed\n"
                    && ban.stderr == "", "\(ban)")
            try zed.expect("BYE banned the server's operator banned your network")
            try zed.expectClosed()
            let again = try LineClient(port: b.port, label: "zed again", readHello: false, source: "127.0.0.9")
            try again.expect("BYE banned the server's operator banned your network")
            try again.expectClosed()
        }
    }

    @Test("The relay port's operator requests: one line, parsed as untrusted input (error: for a bad one), one request per connection, the answer after the commit and then BYE quit; a wrong secret is refused as any relay's; a ban of the operator's own network is answered; a lease whose relay port does not answer is a clear error, nothing changed")
    func hostileOperatorRelays() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, relay) = try Self.cluster(url)
            defer { a.kill(); b.kill() }
            let secret = try #require(try ClusterLease.peek(conninfo: url)?.secret)
            let port = Int(relay.split(separator: ":").last ?? "") ?? 0
            let bad = try LineClient(port: port, label: "bad-request", readHello: false)
            try bad.send("RELAY \(secret) 127.0.0.1 operator operator")
            try bad.send("delete ann")
            try bad.expect(lines: ["error: request refused: unknown request \"delete\"", "BYE quit operator request answered"])
            try bad.expectClosed()
            // Two requests in one write: the first is done, the second never read.
            let two = try LineClient(port: port, label: "two-requests", readHello: false)
            try two.send("RELAY \(secret) 127.0.0.1 operator operator\r\nmute zed until=forever\r\nban zed until=forever")
            try two.expect(lines: ["ok: zed: muted until lifted", "BYE quit operator request answered"])
            try two.expectClosed()
            let list = try Self.accounts(["list"], store: url)
            #expect(list.status == .exited(0) && list.stdout == "zed mute until=forever\n", "\(list)")
            let stranger = try LineClient(port: port, label: "wrong-secret", readHello: false)
            try stranger.send("RELAY 0123 127.0.0.1 operator operator")
            try stranger.expect("BYE shutdown not a relay of this server")
            try stranger.expectClosed()
            // The operator's connection is no player: banning its own network, it gets its answer.
            let network = try Self.accounts(["ban", "--network", "127.0.0.1"], store: url)
            #expect(network.status == .exited(0) && network.stdout == "network 127.0.0.1 (from 127.0.0.1): banned until lifted; 0 connection(s) closed\n",
                    "\(network)")
            // A lease held by a node whose relay port does not answer: a clear error, nothing changed.
            #expect(b.terminate() == .exited(0))
            #expect(a.terminate() == .exited(0))
            let ghost = try ClusterLease(conninfo: url, node: "node-z", folder: "z-folder", address: "127.0.0.1:1", seconds: 600)
            defer { ghost.release(); ghost.close() }
            #expect(try ghost.take() == 2)
            let closedPort = try LoopbackPort.free()
            #expect(try ghost.advertise(relay: "127.0.0.1:\(closedPort)"))
            let refused = try Self.accounts(["ban", "zed"], store: url)
            #expect(refused.status == .exited(1) && refused.stdout == "", "\(refused)")
            // (Refused at once, or once the connection fails: the reason in either words.)
            #expect(refused.stderr.hasPrefix("ghostd accounts: node node-z leads, but its relay port 127.0.0.1:\(closedPort) cannot be reached (")
                    && refused.stderr.hasSuffix("Connection refused); nothing changed\n"), "\(refused)")
            let unchanged = try Self.accounts(["list"], store: url)
            #expect(unchanged.stdout == "network:127.0.0.1 ban until=forever\nzed mute until=forever\n", "\(unchanged)")
        }
    }
}
