import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Whichever node a player reaches, it is one server (issue #49: names,
/// registered owners, resume tokens, SEEK, GAMES and WATCH across nodes).
/// A leader and a standby on one PostgreSQL; each step has one player on
/// each node, and every line is asserted exactly. Nothing waits for a time.
@Suite("EndToEnd: a leader and a standby are one server", .ownThread, storeIndependent, .hangLimit)
struct EndToEndClusterOneServerTests {
    static let password = "champ's long password"

    @Test("Across nodes: a name in use on one is in use on the other; the owner's login on the standby takes the name from the leader's connection; SEEK pairs a player on each node; GAMES and WATCH on the standby see the game on the leader; a seat left on the leader is RESUMEd on the standby and the game ends there")
    func oneServer() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, _) = try EndToEndClusterTests.leaderAndStandby(url)
            defer { b.kill(); a.kill() }

            // A name in use through the standby is in use on the leader.
            let ann = try E2E.player(b, "ann")
            let impostor = try LineClient(port: a.port, label: "impostor")
            try impostor.send("NAME \(ann.name)")
            try impostor.expect("ERR name-taken another player is using that name")

            // A registered owner's login through the standby takes the name from its connection on the leader.
            let champ = try E2E.player(a, "champ")
            try champ.send("REGISTER \(Self.password)")
            try champ.expect("OK REGISTER name=\(champ.name)")
            let back = try LineClient(port: b.port, label: "champ on node-b")
            try back.send("NAME \(champ.name) \(Self.password)")
            try back.expect("OK NAME name=\(champ.name) lang=en registered=yes")
            try champ.expect("INFO \(champ.name) logged in on another connection; send NAME to pick a name.")

            // SEEK pairs ann (through node-b) with ben (on node-a).
            let ben = try E2E.player(a, "ben")
            try ann.send("SEEK")
            try ann.expect("OK SEEK lang=en")
            _ = try ann.client.expectPrefix("INFO Waiting for another player")
            try ben.send("SEEK")
            try ben.expect("OK SEEK lang=en")
            let header = try ann.client.expectPrefix("GAME id=")
            let id = try #require(lineFields(header)["id"])
            #expect(header == "GAME id=\(id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(lineFields(header)["token"] ?? "") round=1")
            try ann.expect("TURN id=\(id) player=\(ann.name) fragment=")
            _ = try ben.client.expectPrefix("GAME id=\(id) ")
            try ben.expect("TURN id=\(id) player=\(ann.name) fragment=")

            // A watcher on node-b lists and watches the game; a move on node-a reaches it.
            let watcher = try LineClient(port: b.port, label: "watcher")
            try watcher.send("GAMES")
            try watcher.expect(lines: ["LIVE id=\(id) game=ghost players=\(ann.name),\(ben.name) lang=en moves=0 watchers=0", "OK GAMES count=1 more=no"])
            try watcher.send("WATCH \(id)")
            try watcher.expect(lines: ["OK WATCH id=\(id)", "GAME id=\(id) game=ghost lang=en players=\(ann.name),\(ben.name) round=1 watchers=1 watching=yes",
                                       "TURN id=\(id) player=\(ann.name) fragment="])
            for c in [ann.client, ben.client, watcher] { try c.expect("WATCHERS id=\(id) count=1") }
            try ann.send("p")
            try ann.expect(lines: ["OK LETTER letter=p fragment=p", "MOVE id=\(id) player=\(ann.name) letter=p fragment=p",
                                   "TURN id=\(id) player=\(ben.name) fragment=p"])
            for c in [ben.client, watcher] {
                try c.expect(lines: ["MOVE id=\(id) player=\(ann.name) letter=p fragment=p", "TURN id=\(id) player=\(ben.name) fragment=p"])
            }

            // A private game on node-a; its host leaves and RESUMEs through node-b, and the game ends there.
            var game = try Game.privateGame(host: try E2E.player(a, "cat"), guest: try E2E.player(b, "dan"))
            try game.play("pe")
            game.players[0].client.close()
            try game.expectAdjourned(absent: 0)
            #expect(a.waitUntilClosed(game.players[0].client))
            game.players[0] = try E2E.resume(b, game, seat: 0)
            try game.play("a")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        }
    }
}

/// A balancer in front of the nodes (contrib/haproxy.cfg's `send-proxy`)
/// may send a player to a standby: the standby's relay names the balancer,
/// and the PROXY line after it names the player, as on the leader's own port.
@Suite("EndToEnd: a balancer's PROXY line through a standby", .ownThread, storeIndependent, .hangLimit)
struct EndToEndClusterProxyTests {
    @Test("Through a standby, a trusted proxy's PROXY line names the player to the leader (each its own network, one client each under --max-clients-per-ip 1; a third from a used network gets BYE full); no ERR for the PROXY line")
    func proxyLineThroughAStandby() async throws {
        try await onOwnThread {
            let url = try PostgresServer.shared().createDatabase()
            let (a, b, _) = try EndToEndClusterTests.leaderAndStandby(url, extra: ["--trusted-proxy", "127.0.0.1", "--max-clients-per-ip", "1"])
            defer { b.kill(); a.kill() }
            let ann = try LineClient(port: b.port, label: "ann")
            try ann.send("PROXY TCP4 203.0.113.7 127.0.0.1 40001 7777")
            try ann.send("PING")
            try ann.expect("OK PING")
            let ben = try LineClient(port: b.port, label: "ben")
            try ben.send("PROXY TCP4 203.0.113.8 127.0.0.1 40002 7777")
            try ben.send("NAME \(E2E.name("ben"))")
            _ = try ben.expectPrefix("OK NAME name=")
            #expect(a.waitForStderrLine { $0.contains("relays a client of the trusted proxy 127.0.0.1 (from 127.0.0.1:") && $0.hasSuffix(", node node-b)") } != nil,
                    "\(a.stderrText)")
            #expect(a.waitForStderrLine { $0.contains("carries 203.0.113.8 (PROXY line from 127.0.0.1:") } != nil, "\(a.stderrText)")
            let cat = try LineClient(port: b.port, label: "cat")
            try cat.send("PROXY TCP4 203.0.113.7 127.0.0.1 40003 7777")
            try cat.expect("BYE full too many connections from 203.0.113.7 (at most 1)")
            try cat.expectClosed()
        }
    }
}
