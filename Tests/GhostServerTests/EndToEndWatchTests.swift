import Foundation
import Testing
import TestSupport

/// Watching over real sockets: GAMES, WATCH (the state without a token,
/// then the game's events in batches), WATCHERS to players and watchers, a
/// watcher that cannot play, UNWATCH, the end of watching at OVER, and a game
/// made private with `NEW watch=no` that stays private across a restart.
@Suite("EndToEnd: watching games", .ownThread, .hangLimit)
struct EndToEndWatchTests {
    @Test("GAMES, WATCH, WATCHERS, a watcher cannot play, UNWATCH, and watching ends at OVER; exact lines")
    func watchAGame() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let ann = try E2E.player(daemon, "ann")
        let ben = try E2E.player(daemon, "ben")
        let game = try Game.privateGame(host: ann, guest: ben)
        let players = "\(ann.name),\(ben.name)"
        #expect(game.id == 1)
        try ann.send("p")
        try ann.expect(lines: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=\(ann.name) letter=p fragment=p",
                               "TURN id=1 player=\(ben.name) fragment=p"])
        try ben.expect(lines: ["MOVE id=1 player=\(ann.name) letter=p fragment=p", "TURN id=1 player=\(ben.name) fragment=p"])

        // A watcher needs no name.
        let v = try LineClient(port: daemon.port, label: "watcher")
        try v.send("GAMES")
        try v.expect(lines: ["LIVE id=1 game=ghost players=\(players) lang=en moves=1 watchers=0", "OK GAMES count=1 more=no"])
        try v.send("WATCH 1")
        try v.expect(lines: ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=\(players) round=1 watchers=1 watching=yes",
                             "TURN id=1 player=\(ben.name) fragment=p last=\(ann.name)"])
        for c in [ann.client, ben.client, v] { try c.expect("WATCHERS id=1 count=1") }

        try ben.send("e")
        try ben.expect(lines: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=\(ben.name) letter=e fragment=pe",
                               "TURN id=1 player=\(ann.name) fragment=pe"])
        let move = ["MOVE id=1 player=\(ben.name) letter=e fragment=pe", "TURN id=1 player=\(ann.name) fragment=pe"]
        try ann.expect(lines: move)
        try v.expect(lines: move)

        // A watcher cannot play.
        try v.send("a")
        try v.expect("ERR not-in-game you are watching game 1: watchers cannot play; UNWATCH to stop watching")
        try v.send("LEAVE")
        try v.expect("ERR not-in-game you are watching game 1: watchers cannot play; UNWATCH to stop watching")
        // Nor can a player watch.
        try ann.send("WATCH 1")
        try ann.expect("ERR busy you are in a game; players cannot watch")

        try v.send("UNWATCH")
        try v.expect("OK UNWATCH id=1")
        for c in [ann.client, ben.client] { try c.expect("WATCHERS id=1 count=0", timeout: 5) }
        try v.send("UNWATCH")
        try v.expect("ERR not-watching you are not watching a game")

        // Watching again, to the end: OVER and what follows, then watching ends.
        try v.send("WATCH 1")
        try v.expect(lines: ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=\(players) round=1 watchers=1 watching=yes",
                             "TURN id=1 player=\(ann.name) fragment=pe last=\(ben.name)"])
        for c in [ann.client, ben.client, v] { try c.expect("WATCHERS id=1 count=1", timeout: 5) }
        try ann.send("LEAVE")
        try ann.expect("OK LEAVE")
        let over = ["OVER id=1 winner=\(ben.name) loser=\(ann.name) reason=left fragment=pe",
                    "INFO \(ann.name) left the game.",
                    "RANK name=\(ben.name) rank=1 wins=1", "RANK name=\(ann.name) rank=2 wins=0"]
        try v.expect(lines: over)
        try v.send("UNWATCH")
        try v.expect("ERR not-watching you are not watching a game")
        try v.send("GAMES")
        try v.expect("OK GAMES count=0 more=no")
        try v.send("WATCH 1")
        try v.expect("ERR no-such-game no game in progress has the id 1; GAMES lists them")
    }

    @Test("NEW watch=no: the players' GAME says so, GAMES leaves it out, WATCH is refused, and a restart keeps it private")
    func privateGame() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        let ann = try E2E.player(daemon, "ann")
        try ann.send("NEW bot=easy watch=no")
        try ann.expect("OK NEW bot=easy lang=en")
        let game = try ann.client.expectPrefix("GAME id=1 game=ghost lang=en players=\(ann.name),bot-easy token=")
        let token = lineFields(game)["token"] ?? ""
        #expect(isToken(token))
        #expect(game == "GAME id=1 game=ghost lang=en players=\(ann.name),bot-easy token=\(token) round=1 bot=easy watch=no")
        try ann.expect("TURN id=1 player=\(ann.name) fragment=")
        let v = try LineClient(port: daemon.port, label: "watcher")
        try v.send("GAMES")
        try v.expect("OK GAMES count=0 more=no")
        try v.send("WATCH 1")
        try v.expect("ERR no-such-game no game in progress has the id 1; GAMES lists them")
        try v.send("STATS")
        #expect(try v.readUntil(prefix: "OK STATS").skipped.contains("STAT name=watchers value=0"))

        #expect(daemon.terminate() == .exited(0))
        let again = try daemon.relaunch()
        defer { again.kill() }
        // Loaded again by its player's RESUME (a game without a clock is not loaded at start).
        let owner = try LineClient(port: again.port, label: "ann'")
        try owner.send("RESUME \(token)")
        try owner.expect("OK RESUME id=1")
        let w = try LineClient(port: again.port, label: "watcher'")
        try w.send("GAMES")
        try w.expect("OK GAMES count=0 more=no")
        try w.send("WATCH 1")
        try w.expect("ERR no-such-game no game in progress has the id 1; GAMES lists them")
        let back = try LineClient(port: again.port, label: ann.name + "'")
        try back.send("RESUME \(token)")
        try back.expect(lines: ["OK RESUME id=1", "GAME id=1 game=ghost lang=en players=\(ann.name),bot-easy token=\(token) round=1 bot=easy watch=no",
                                "TURN id=1 player=\(ann.name) fragment="])
    }
}
