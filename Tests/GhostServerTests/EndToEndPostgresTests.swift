import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// ghostd with its state in PostgreSQL (`--store`, issue #48), against a
/// PostgreSQL of its own that these tests kill and start: a letter whose
/// commit met a dead server is refused and the game put back as stored;
/// the start refuses a newer schema and an unreachable server, never
/// showing a password. (Every other end-to-end suite runs on PostgreSQL
/// too under `GHOSTD_TEST_STORE=postgresql`, as CI's last pass does.)
@Suite("EndToEnd: ghostd on PostgreSQL, and PostgreSQL failing under it", .ownThread, storeIndependent, .hangLimit)
struct EndToEndPostgresTests {
    /// What everyone is told when the store is out of reach, what is refused meanwhile, and what everyone is told when it is back.
    static let outageTold = "INFO The server cannot reach its database. Games wait as they were last stored, with their clocks stopped; commands other than PING, HELP, STATS and QUIT get ERR store-failed until it is back."
    static let outageRefused = "ERR store-failed the server cannot reach its database; only PING, HELP, STATS and QUIT are served until it is back"
    static let outageOver = "INFO The server's database is back: play on."

    /// A PostgreSQL of the test's own (to kill), a ghostd keeping its state
    /// there (`--store`, its URL), and a game between ann and ben at "pe".
    static func withGameAtPe(_ extra: [String] = [], _ body: (PostgresServer, String, DaemonProcess, inout Game) throws -> Void) throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.createDatabase()
        let daemon = try DaemonProcess.start(extraArguments: ["--store", url] + extra)
        defer { daemon.kill() }
        var game = try Game.privateGame(host: try E2E.player(daemon, "ann"), guest: try E2E.player(daemon, "ben"))
        try game.play("pe")
        try body(server, url, daemon, &game)
    }

    @Test("PostgreSQL killed mid-game and started again: the next letter gets ERR store-failed and both players the stored game; play goes on; ghostd killed -9 and started: the game resumes from PostgreSQL")
    func postgresKilledMidGame() async throws {
        try await onOwnThread { try Self.withGameAtPe { server, url, daemon, game in
            #expect(daemon.stderrLines.contains { $0.contains("data: \(url) (schema ") }, "\(daemon.stderrText)")
            let ann = game.players[0], ben = game.players[1]

            // Killed and back before the letter: ghostd's connection is to the dead server.
            try server.kill9()
            try server.start()
            try ann.send("a")
            try ann.expect("ERR store-failed the server could not store this; nothing was done")
            for (seat, p) in [ann, ben].enumerated() {
                try p.expect("GAME id=\(game.id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(game.tokens[seat]) round=1")
                let turn = try p.client.readLine()
                #expect(turn.hasPrefix("TURN id=\(game.id) player=\(ann.name) fragment=pe last=\(ben.name)"), "\(turn)")
            }
            #expect(daemon.waitForStderrLine { $0.contains("a turn could not be committed") } != nil, "\(daemon.stderrText)")
            try game.play("a")   // the same letter, now stored

            // ghostd killed: what it acknowledged is in PostgreSQL.
            _ = daemon.kill()
            let again = try daemon.relaunch()
            defer { again.kill() }
            game.players[0] = try E2E.resume(again, game, seat: 0, extra: ["ADJOURNED id=\(game.id) player=\(game.players[1].name) grace=60"],
                                             opponentPresent: false)
            game.players[1] = try E2E.resume(again, game, seat: 1)
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        } }
    }

    @Test("PostgreSQL down for longer than ghostd waits for it: ghostd serves on without it (PING and STATS answered, every other command ERR store-failed, everyone told once); back, the game is put back as stored, its players get its state and everyone is told; play goes on")
    func postgresOutage() async throws {
        try await onOwnThread { try Self.withGameAtPe(["--store-reconnect-wait", "1"]) { server, _, daemon, game in
            let ann = game.players[0], ben = game.players[1]

            // Down, and not back: ghostd waits for it (--store-reconnect-wait: 1 s here, 10 by default), then serves on without it.
            try server.kill9()
            try ann.send("a")
            try ann.client.expect("ERR store-failed the server could not store this; nothing was done", timeout: 60)
            #expect(daemon.waitForStderrLine(timeout: 60) { $0.hasSuffix("; waiting up to 1 s for it") } != nil, "\(daemon.stderrText)")
            #expect(daemon.waitForStderrLine(timeout: 60) { $0.contains("is out of reach: serving on without it") } != nil, "\(daemon.stderrText)")
            let told = Self.outageTold
            let refused = Self.outageRefused
            try ann.expect(told)
            try ben.expect(told)
            try ben.send("PING")
            try ben.expect("OK PING")
            try ben.send("e")
            try ben.expect(refused)
            let carl = try LineClient(port: daemon.port, label: "carl")
            try carl.send("NAME carl")
            try carl.expect(refused)
            try carl.send("STATS")
            _ = try carl.readUntil(prefix: "OK STATS")
            try ann.client.expectNothing(within: 0.3)
            #expect(daemon.isRunning)

            // Back: the game as stored (before the refused letter), to both players, then everyone told.
            try server.start()
            for (seat, p) in [ann, ben].enumerated() {
                try p.client.expect("GAME id=\(game.id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(game.tokens[seat]) round=1", timeout: 60)
                let turn = try p.client.readLine()
                #expect(turn.hasPrefix("TURN id=\(game.id) player=\(ann.name) fragment=pe last=\(ben.name)"), "\(turn)")
                try p.expect(Self.outageOver)
            }
            try carl.expect(Self.outageOver)
            #expect(daemon.waitForStderrLine { $0.contains("is back after") } != nil, "\(daemon.stderrText)")
            try carl.send("NAME carl")
            try carl.expect("OK NAME name=carl lang=en")
            try game.play("a")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        } }
    }

    @Test("PostgreSQL's disk full (its tablespace on a small tmpfs, filled): writes get ERR store-failed, PING and reads go on, nothing else stops; with room again writes are taken; nothing acknowledged is lost")
    func postgresDiskFull() async throws {
        try await onOwnThread {
            guard geteuid() == 0 else {
                print("postgres disk full: needs root to mount a tmpfs; skipped")
                return
            }
            let server = try PostgresServer()
            defer { server.stop() }
            let small = server.folder + "/small"
            try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
            let mounted = try runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", small])
            guard mounted.status == 0 else {
                print("postgres disk full: cannot mount a tmpfs here (\(mounted.output)); skipped")
                return
            }
            defer { _ = try? runTool("/bin/umount", ["-l", small]) }
            if server.runsAsPostgresUser { _ = try runTool("/bin/chown", ["postgres:postgres", small]) }
            try server.psql("CREATE TABLESPACE small LOCATION '\(small)'", database: "postgres")
            try server.psql("CREATE DATABASE full_disk TABLESPACE small", database: "postgres")
            let url = "postgresql://\(server.superuser)@127.0.0.1:\(server.port)/full_disk"
            let daemon = try DaemonProcess.start(extraArguments: ["--store", url])
            defer { daemon.kill() }

            // Every page of the tablespace taken, while the store's tables are empty.
            try server.psql("""
                CREATE TABLE filler (x text) TABLESPACE small;
                DO $$ BEGIN LOOP INSERT INTO filler SELECT repeat(md5(random()::text), 32) FROM generate_series(1, 100); END LOOP;
                EXCEPTION WHEN disk_full THEN NULL; END $$;
                """, database: "full_disk")
            let c = try LineClient(port: daemon.port, label: "late")
            try c.send("NAME \(E2E.name("late"))")
            #expect(try c.readLine() == "ERR store-failed the server could not store this; nothing was done")
            try c.send("PING")
            #expect(try c.readLine() == "OK PING")
            #expect(daemon.isRunning)
            #expect(daemon.waitForStderrLine { $0.contains("53100") || $0.contains("No space left on device") } != nil, "\(daemon.stderrText)")

            // Room again: writes are taken, and a game is played and stored.
            try server.psql("DROP TABLE filler", database: "full_disk")
            let ann = try E2E.player(daemon, "ann"), ben = try E2E.player(daemon, "ben")
            var game = try Game.privateGame(host: ann, guest: ben)
            try game.play("pea")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            #expect(try server.psql("SELECT string_agg(move, '' ORDER BY ply) FROM moves WHERE game_id = \(game.id)", database: "full_disk") == "pear")
        }
    }

    @Test("The start refuses, with one line and exit status 1: a state of a newer schema or one that lacks a table (left as it was), and a server it cannot reach (its password never shown)")
    func startRefusals() async throws {
        try await onOwnThread {
            let server = try PostgresServer.shared()
            let url = try server.createDatabase()
            let first = try DaemonProcess.start(extraArguments: ["--store", url])
            #expect(first.terminate() == .exited(0))
            try server.psql("UPDATE ghostd_schema SET version = 99", database: url)
            let data = try DataDirectory()
            let newer = try runTool(try DaemonProcess.binaryPath(), ["--data", data.path, "--port", "0", "--store", url])
            #expect(newer.status == 1)
            #expect(newer.output.contains("is at schema 99, this ghostd's is 17"), "\(newer.output)")
            #expect(try server.psql("SELECT version FROM ghostd_schema", database: url) == "99")

            // A table gone (dropped by hand): damaged, refused, left as it was.
            let other = try server.createDatabase()
            let made = try DaemonProcess.start(extraArguments: ["--store", other])
            #expect(made.terminate() == .exited(0))
            try server.psql("DROP TABLE follows", database: other)
            let damaged = try runTool(try DaemonProcess.binaryPath(), ["--data", data.path, "--port", "0", "--store", other])
            #expect(damaged.status == 1)
            #expect(damaged.output.contains("holds a damaged state: it lacks the table(s) follows"), "\(damaged.output)")
            #expect(try server.psql("SELECT to_regclass('follows') IS NULL", database: other) == "t")

            let port = try PostgresServer.freePort()
            let unreachable = try runTool(try DaemonProcess.binaryPath(),
                                          ["--data", data.path, "--port", "0", "--store", "postgresql://ghost:s3cret@127.0.0.1:\(port)/ghostd"])
            #expect(unreachable.status == 1)
            #expect(unreachable.output.contains("cannot connect to postgresql://ghost:***@127.0.0.1:\(port)/ghostd"), "\(unreachable.output)")
            #expect(!unreachable.output.contains("s3cret"))
        }
    }
}
