import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Two ghostd nodes on one PostgreSQL, and PostgreSQL down under them for
/// longer than the lease (issue #49: "PostgreSQL down: every node answers
/// `ERR store-failed` to what it cannot store and recovers when it
/// returns, as for one node"). The leader's lease lapses by PostgreSQL's
/// clock meanwhile, yet when PostgreSQL is back the leader keeps it: it
/// renews within a tenth of a second of the return, and a standby takes a
/// lapsed lease only after a whole lease of reaching the store again. So
/// nobody's connection is cut, and the game goes on where it was stored.
/// Each step waits for a log line or a protocol line, never for a time.
@Suite("EndToEnd: PostgreSQL down under a leader and a standby", .ownThread, storeIndependent, .hangLimit)
struct EndToEndClusterOutageTests {
    @Test("PostgreSQL down past the lease under two nodes: a player on the standby and one on the leader get ERR store-failed and the outage's INFO; back, the game as stored, the same leader (epoch 1), no takeover, play goes on to the end")
    func postgresOutageKeepsTheLeader() async throws {
        try await onOwnThread {
            let server = try PostgresServer()
            defer { server.stop() }
            let url = try server.createDatabase()
            let (a, b, _) = try EndToEndClusterTests.leaderAndStandby(url)
            defer { b.kill(); a.kill() }
            // ann through node-b, ben on node-a: one game, on node-a.
            var game = try Game.privateGame(host: try E2E.player(b, "ann"), guest: try E2E.player(a, "ben"))
            try game.play("pe")
            let ann = game.players[0], ben = game.players[1]

            // Down past ghostd's wait (10 s), twice the lease: it lapses by PostgreSQL's clock.
            try server.kill9()
            try ann.send("a")
            try ann.client.expect("ERR store-failed the server could not store this; nothing was done", timeout: 60)
            #expect(a.waitForStderrLine(timeout: 60) { $0.contains("is out of reach: serving on without it") } != nil, "\(a.stderrText)")
            let told = EndToEndPostgresTests.outageTold
            try ann.expect(told)
            try ben.expect(told)
            #expect(b.waitForStderrLine(timeout: 60) { $0.contains("standby: cannot reach the store to take the lease") } != nil, "\(b.stderrText)")
            try ann.send("e")
            try ann.expect(EndToEndPostgresTests.outageRefused)

            // Back: the game as stored, to both players, on the same leader.
            try server.start()
            for (seat, p) in [ann, ben].enumerated() {
                try p.client.expect("GAME id=\(game.id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(game.tokens[seat]) round=1", timeout: 60)
                let turn = try p.client.readLine()
                #expect(turn.hasPrefix("TURN id=\(game.id) player=\(ann.name) fragment=pe last=\(ben.name)"), "\(turn)")
                try p.expect(EndToEndPostgresTests.outageOver)
            }
            try game.play("a")
            let stats = try LineClient(port: b.port, label: "stats")
            let figures = try CrashUnderLoadTests.stats(stats)
            #expect(figures["node"] == "node-a" && figures["lease_epoch"] == "1", "\(figures)")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            #expect(a.isRunning)
            #expect(!b.stderrLines.contains { $0.contains("this node leads now") }, "\(b.stderrText)")
        }
    }
}
