import Foundation
import Testing
import GhostServer
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Leaving games, disconnects, signals and the command line of a real ghostd.
@Suite("EndToEnd: connections and process", .ownThread, .hangLimit)
struct EndToEndConnectionTests {
    static let byeShutdown = "BYE shutdown the server is stopping; games in progress are kept: RESUME them when it is back"
    /// The 40 MB memory target with Hangman (BENCHMARKS.md, Startup) is met by not
    /// loading Foundation in the daemon: about 9 MB of resident libraries.
    @Test("ghostd's binary links no Foundation library (ldd)")
    func noFoundation() throws {
        let (status, text) = try runTool("/usr/bin/ldd", [try DaemonProcess.binaryPath()])
        #expect(status == 0)
        #expect(text.contains("libswiftCore"), "\(text)")
        #expect(!text.contains("Foundation"), "\(text)")
        // libpq (and Kerberos, LDAP, GnuTLS behind it) is loaded only for a store in PostgreSQL.
        #expect(!text.contains("libpq"), "\(text)")
    }

    @Test("Closing the socket mid-game adjourns it: the opponent gets ADJOURNED and INFO and stays in the game")
    func disconnectMidGame() throws {
        try E2E.withDaemon { daemon in
            for abrupt in [false, true] {
                var game = try Game.privateGame(host: try E2E.player(daemon, "stay"), guest: try E2E.player(daemon, "gone"))
                try game.play("pe")
                let (stayer, gone) = (game.players[0], game.players[1])
                // FIN, then RST (a crashed client).
                if abrupt { gone.client.reset() } else { gone.client.close() }
                try stayer.expect(lines: [
                    "ADJOURNED id=\(game.id) player=\(gone.name) grace=60",
                    "INFO \(gone.name) is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it.",
                ])
                try stayer.expectNothing(within: 0.2)

                // Still in the game: no new game, no claim while it is the stayer's turn.
                try stayer.send("NEW")
                try stayer.expectError("busy")
                try stayer.send("CLAIM")
                try stayer.expectError("not-claimable")
                // Play goes on without the absent player; the claim waits for the grace period.
                try game.play("a", present: [0])
                try stayer.send("CLAIM")
                try stayer.expectError("not-claimable")

                // LEAVE still resigns: the absent player wins.
                try stayer.send("LEAVE")
                try stayer.expect("OK LEAVE")
                try game.expectLeft(by: 0, to: [0])
                try stayer.expectNothing(within: 0.2)

                // The finished game's tokens no longer resume it; they tell how it ended.
                let late = try LineClient(port: daemon.port, label: "late")
                try late.send("RESUME \(game.tokens[1])")
                #expect(try late.expectPrefix("OK RESUME id=").hasSuffix(" status=over"))
                _ = try late.expectPrefix("OVER id=")

                // The stayer is back in the lobby and starts a new game.
                var next = try Game.privateGame(host: stayer, guest: try E2E.player(daemon, "next"))
                try next.play("d")
                try next.play("o")
                #expect(next.id != game.id)
            }
        }
    }

    @Test("QUIT mid-game adjourns it: the quitter gets only OK QUIT and BYE quit, then EOF; the opponent gets ADJOURNED")
    func quitMidGame() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "quit"))
            try game.play("p")
            let quitter = game.players[1]
            try quitter.send("QUIT")
            // Everything the quitter gets before the server closes.
            #expect(quitter.client.isClosed(), "the server did not close the quitter's connection")
            let got = quitter.client.takeBufferedLines()
            #expect(got == ["OK QUIT", "BYE quit goodbye"], "the quitter got \(got) before EOF; expected only OK QUIT and BYE quit")

            let host = game.players[0]
            try host.expect(lines: [
                "ADJOURNED id=\(game.id) player=\(quitter.name) grace=60",
                "INFO \(quitter.name) is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it.",
            ])
            try host.expectNothing(within: 0.2)
            try host.client.ping()
            try host.send("e")
            try host.expectError("not-your-turn")

            // The quitter comes back and the game goes on.
            game.players[1] = try E2E.resume(daemon, game, seat: 1)
            try game.play("e")
            try game.play("a")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        }
    }

    @Test("LEAVE mid-game: OK LEAVE, then both see OVER reason=left and RANK; both can play again")
    func leaveMidGame() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "leaver"))
            try game.play("q")
            // The leaver need not be the one to move.
            let (host, leaver) = (game.players[0], game.players[1])
            #expect(game.mover.name == leaver.name)
            try game.play("u")
            try leaver.send("LEAVE")
            try leaver.expect("OK LEAVE")
            try game.expectLeft(by: 1)
            for p in game.players { try p.expectNothing(within: 0.15) }
            try leaver.send("LEAVE")
            try leaver.expectError("not-in-game")

            // Swap roles for a new game; LEAVE while hosting just closes it.
            let code = try Game.openGame(leaver)
            try leaver.send("LEAVE")
            try leaver.expect("OK LEAVE")
            try host.send("JOIN \(code)")
            try host.expectError("no-such-game")
            var again = try Game.privateGame(host: leaver, guest: host)
            #expect(again.id != game.id)
            try again.play("x")
        }
    }

    @Test("SIGTERM: exit status 0; every client gets BYE shutdown; stderr has one line per connection opened/closed and per game start/end; games in progress survive")
    func sigterm() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }

        // Game 1 is played to the end, game 2 is in progress, one client idles, one quits.
        var g1 = try Game.privateGame(host: try E2E.player(daemon, "a1"), guest: try E2E.player(daemon, "b1"))
        try g1.play("pea")
        try g1.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        var g2 = try Game.privateGame(host: try E2E.player(daemon, "a2"), guest: try E2E.player(daemon, "b2"))
        try g2.play("c")
        let idle = try LineClient(port: daemon.port, label: "idle")
        let quitter = try LineClient(port: daemon.port, label: "quitter")
        try quitter.send("QUIT")
        try quitter.expect(lines: ["OK QUIT", "BYE quit goodbye"])
        try quitter.expectClosed()
        let clients = g1.players.map(\.client) + g2.players.map(\.client) + [idle, quitter]
        #expect(g1.id == 1 && g2.id == 2)

        let status = daemon.terminate()
        #expect(status == .exited(0), "stderr:\n\(daemon.stderrText)")
        for c in clients { #expect(c.isClosed(timeout: 2), "\(c.label) was not disconnected") }
        // Each client still connected got BYE shutdown as its last line, and nothing else.
        for c in clients where c !== quitter {
            #expect(c.takeBufferedLines() == [EndToEndConnectionTests.byeShutdown], "\(c.label)")
        }

        let lines = daemon.stderrLines
        let log = lines.joined(separator: "\n")
        #expect(lines.filter { $0.contains(" listening on 127.0.0.1:\(daemon.port) ") }.count == 1, "\(log)")
        var ids: [Int] = []
        for c in clients {
            let opened = lines.filter { $0.hasSuffix("opened from 127.0.0.1:\(c.localPort)") }
            #expect(opened.count == 1, "\(c.label): \(opened)\n\(log)")
            if let line = opened.first, let id = EndToEndBadInputTests.connectionID(in: line) { ids.append(id) }
        }
        #expect(Set(ids).count == clients.count)
        #expect(lines.filter { $0.contains("connection ") && $0.contains(" opened from ") }.count == clients.count, "\(log)")
        // docs/operating.md: one log line per connection opened and closed, also for those
        // the shutdown closes.
        let unlogged = ids.filter { id in lines.filter { $0.contains("connection \(id) closed") }.count != 1 }
        #expect(unlogged.isEmpty && lines.filter { $0.contains("connection ") && $0.contains(" closed") }.count == clients.count,
                "connections without exactly one `closed` log line: \(unlogged)\n\(log)")
        for g in [g1, g2] {
            let names = g.players.map(\.name)
            #expect(lines.filter { $0.hasSuffix("game \(g.id) started: en \(names[0]) vs \(names[1])") }.count == 1, "\(log)")
        }
        #expect(lines.filter { $0.contains("game 1 over: ") }.count == 1, "\(log)")
        #expect(lines.contains { $0.hasSuffix("game 1 over: \(g1.players[0].name) beat \(g1.players[1].name) (word, fragment \"pear\")") }, "\(log)")
        // Game 2 was in progress: a shutdown neither ends nor adjourns it (Protocol.md §7, §8).
        #expect(!lines.contains { $0.contains("game 2 over: ") || $0.contains("game 2 adjourned") }, "\(log)")
        #expect(lines.filter { $0.contains("game ") && $0.contains(" started: ") }.count == 2, "\(log)")
        #expect(lines.filter { $0.contains("game ") && $0.contains(" over: ") }.count == 1, "\(log)")
        #expect(lines.last?.hasSuffix(" stopped") == true, "\(log)")

        // On the same data, game 2 comes back adjourned.
        let again = try daemon.relaunch()
        defer { again.kill() }
        #expect(again.waitForStderrLine { $0.hasSuffix("restored 0 adjourned game(s) on a clock; the others load on RESUME") } != nil, "\(again.stderrText)")
        #expect(again.terminate() == .exited(0), "\(again.stderrText)")
    }

    @Test("SIGKILL and relaunch on the same port (the harness's restart path)")
    func killAndRelaunch() throws {
        let first = try DaemonProcess.start()
        defer { first.kill() }
        let c = try LineClient(port: first.port, label: "before")
        try c.ping()
        #expect(first.kill() == .signaled(SIGKILL))
        #expect(!first.isRunning)
        #expect(c.isClosed(timeout: 2))

        let second = try first.relaunch()
        defer { second.kill() }
        #expect(second.port == first.port && second.pid != first.pid)
        // The same private data folder, never the user's.
        #expect(second.dataPath == first.dataPath && first.dataPath.contains("ghostd-e2e-"))
        if DaemonProcess.onPostgres {
            #expect(second.stderrLines.contains { $0.contains("data: postgresql://") }, "\(second.stderrText)")
        } else {
            #expect(FileManager.default.fileExists(atPath: first.dataPath + "/ghostd.sqlite3"))
            #expect(second.stderrLines.contains { $0.contains("data: \(first.dataPath)/ghostd.sqlite3 ") }, "\(second.stderrText)")
        }
        let d = try LineClient(port: second.port, label: "after")
        try d.ping()
        #expect(second.terminate() == .exited(0))
    }

    @Test("A daemon that cannot start reports its stderr")
    func startFailure() throws {
        do {
            let d = try DaemonProcess.start(dictionaries: "/nonexistent/ghostd-dictionaries")
            d.kill()
            Issue.record("ghostd started without dictionaries")
        } catch let error as DaemonError {
            #expect(error.description.contains("exited (exit status 1)"), "\(error)")
            #expect(error.description.contains("ghostd: "), "\(error)")
        }
    }

    @Test("--help, --version and bad options")
    func commandLine() throws {
        for flag in ["--help", "-h"] {
            let r = try DaemonProcess.runToCompletion([flag])
            #expect(r.status == .exited(0))
            for word in ["Usage: ghostd", "--host", "--port", "--dictionaries", "--data", "--grace", "--durability", "--version"] {
                #expect(r.stdout.contains(word), "\(flag) output lacks \(word):\n\(r.stdout)")
            }
        }
        for flag in ["--version", "-V"] {
            let r = try DaemonProcess.runToCompletion([flag])
            #expect(r.status == .exited(0))
            let out = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(out == "ghostd \(Lobby.version) (protocol 2)", "\(flag) printed `\(out)`")
        }
        for args in [["--bogus"], ["--port"], ["--port", "70000"], ["--port=abc"], ["--max-output-bytes", "1"], ["extra"],
                     ["--grace", "-1"], ["--grace", "soon"], ["--durability", "sometimes"], ["--data"]] {
            let r = try DaemonProcess.runToCompletion(args)
            #expect(r.status == .exited(2), "\(args): \(r.status)\n\(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args) wrote to stdout: \(r.stdout)")
            #expect(r.stderr.contains("ghostd: ") && r.stderr.contains("--help"), "\(args): \(r.stderr)")
        }
    }
}
