import Testing
import GhostServer

/// `--game-log`: `all` logs a game's start and end as before;
/// `none` leaves those lines out and nothing else.
@Suite struct GameLogTests {
    private final class Lines: @unchecked Sendable { var all: [String] = [] }

    private func playAGame(_ level: GameLog) throws -> [String] {
        let lines = Lines()
        var settings = Lobby.Settings()
        settings.gameLog = level
        let h = try Harness(settings: settings, log: { lines.all.append($0) })
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "a")
        h.send(2, "r")
        #expect(h.drain()[1]?.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear") == true)
        return lines.all
    }

    @Test("all: a line when the game starts and one when it ends; none: neither")
    func gameLines() throws {
        let all = try playAGame(.all), none = try playAGame(.none)
        #expect(all.filter { $0.hasPrefix("game ") } == ["game 1 started: en alice vs bob", "game 1 over: alice beat bob (word, fragment \"pear\")"],
                "\(all)")
        // The other lines (names taken, ...) are the same.
        #expect(none == all.filter { !$0.hasPrefix("game ") }, "\(none)")
    }

    @Test("--game-log takes all or none; all by default")
    func option() throws {
        #expect(ServerConfig().gameLog == .all)
        guard case .success(.run(let config)) = DaemonOptions.parse(["--game-log", "none"]) else {
            Issue.record("--game-log none was refused")
            return
        }
        #expect(config.gameLog == .none)
        guard case .failure = DaemonOptions.parse(["--game-log", "some"]) else {
            Issue.record("--game-log some was taken")
            return
        }
    }
}
