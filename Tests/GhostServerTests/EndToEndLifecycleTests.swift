import Foundation
import Testing
import TestSupport

/// Every game ends against a real ghostd: a game nobody is at
/// leaves memory and comes back on RESUME over a socket, and a game whose
/// first move does not come is aborted. (The rules, with a manual clock, are
/// in LobbyLifecycleTests.)
@Suite("EndToEnd: unloading, reloading and aborting games", .ownThread, .hangLimit)
struct EndToEndLifecycleTests {
    /// Reads STATS on a fresh connection until `games_in_progress` is `value`.
    private func waitForGamesInProgress(_ daemon: DaemonProcess, _ value: Int) throws -> Bool {
        let probe = try LineClient(port: daemon.port, label: "stats")
        for _ in 0..<100 {
            try probe.send("STATS")
            let lines = try probe.readUntil(prefix: "OK STATS").skipped
            if lines.contains("STAT name=games_in_progress value=\(value)") { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test("A game nobody is at leaves memory (--unload-after) and RESUME brings it back from the database")
    func unloadAndReload() throws {
        try E2E.withDaemon(isolated: true, extraArguments: ["--bot-delay", "0", "--unload-after", "0.2"]) { daemon in
            let ann = try E2E.player(daemon, "unload")
            try ann.send("NEW bot=hard")
            try ann.expect("OK NEW bot=hard lang=en")
            let game = try ann.client.expectPrefix("GAME id=")
            let id = lineFields(game)["id"] ?? "", token = lineFields(game)["token"] ?? ""
            try ann.expect("TURN id=\(id) player=\(ann.name) fragment=")
            try ann.send("p")
            try ann.client.expectPrefix("OK LETTER letter=p fragment=p")
            let turn = try ann.client.readUntil(prefix: "TURN id=\(id) player=\(ann.name) ").line
            let fragment = lineFields(turn)["fragment"] ?? ""
            #expect(try waitForGamesInProgress(daemon, 1))
            try ann.send("QUIT")
            #expect(ann.client.isClosed())
            #expect(try waitForGamesInProgress(daemon, 0))
            #expect(daemon.waitForStderrLine { $0.hasSuffix("game \(id) unloaded: nobody is at it") } != nil)
            let back = try LineClient(port: daemon.port, label: ann.name + "'")
            try back.send("RESUME \(token)")
            try back.expect(lines: ["OK RESUME id=\(id)",
                                    "GAME id=\(id) game=ghost lang=en players=\(ann.name),bot-hard token=\(token) round=1 bot=hard",
                                    "TURN id=\(id) player=\(ann.name) fragment=\(fragment) last=bot-hard"])
            #expect(try waitForGamesInProgress(daemon, 1))
            try back.send("LEAVE")
            try back.expect("OK LEAVE")
        }
    }

    @Test("A first move that does not come (--first-move-timeout) aborts the game: ABORTED to both, no score")
    func firstMoveAbort() throws {
        try E2E.withDaemon(isolated: true, extraArguments: ["--first-move-timeout", "0.5"]) { daemon in
            let ann = try E2E.player(daemon, "stall-a"), ben = try E2E.player(daemon, "stall-b")
            try ann.send("SEEK")
            try ann.client.expectPrefix("OK SEEK")
            try ben.send("SEEK")
            try ben.client.expectPrefix("OK SEEK")
            let game = try ann.client.readUntil(prefix: "GAME id=").line
            let id = lineFields(game)["id"] ?? "", token = lineFields(game)["token"] ?? ""
            let aborted = ["ABORTED id=\(id) reason=no-first-move",
                           "INFO \(ann.name) did not make a first move in time: the game is aborted, nobody wins."]
            _ = try ann.client.readUntil(prefix: "TURN ")
            try ann.expect(lines: aborted)
            _ = try ben.client.readUntil(prefix: "TURN ")
            try ben.expect(lines: aborted)
            try ann.send("SCORES")
            try ann.expect("OK SCORES count=0 board=game")
            let late = try LineClient(port: daemon.port, label: "late")
            try late.send("RESUME \(token)")
            try late.expect("OK RESUME id=\(id) status=over")
            #expect(try late.expectPrefix("ABORTED id=\(id) reason=no-first-move ended=").isEmpty == false)
        }
    }
}
