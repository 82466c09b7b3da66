import Foundation
import Testing
import TestSupport
import GhostProtocol
import GhostServer

/// Settings for watching tests: each line to watchers at once (no batches),
/// so that a test sees them without ticking; WATCHERS once a second.
private func unbatched() -> Lobby.Settings {
    var s = Lobby.Settings()
    s.watchBatchInterval = 0
    return s
}

/// The join code of an `OK NEW code=…` line among `lines`.
private func joinCode(_ lines: [String]?) throws -> String {
    let ok = try #require(lines?.first { $0.hasPrefix("OK NEW code=") })
    return try #require(Message.parse(ok)?["code"])
}

/// The first token on a line among `lines`.
private func firstToken(_ lines: [String]) -> String? {
    for line in lines {
        if let t = Message.parse(line)?["token"] { return t }
    }
    return nil
}

private let notPlaying = "ERR not-in-game you are watching game 1: watchers cannot play; UNWATCH to stop watching"

@Suite(.ownThread) struct LobbyWatchTests {
    @Test("GAMES lists the games anyone may watch, most recent first, with their setup; private ones (watch=no) are left out")
    func gamesLists() throws {
        let h = try Harness(settings: unbatched())
        try h.pairAliceAndBob()                          // game 1
        h.named(3, "carol")
        h.send(3, "NEW bot=easy watch=no")               // game 2, private
        h.named(4, "dave")
        h.named(6, "erin")
        h.send(4, "NEW rounds=ghost clock=30")
        let code = try joinCode(h.drain()[4])
        h.send(6, "JOIN \(code)")                        // game 3
        h.send(1, "p")
        h.connect(5)
        _ = h.drain()
        h.send(5, "GAMES")
        #expect(h.drain() == [5: [
            "LIVE id=3 game=ghost players=dave,erin lang=en moves=0 watchers=0 rounds=ghost ghost=, clock=30",
            "LIVE id=1 game=ghost players=alice,bob lang=en moves=1 watchers=0",
            "OK GAMES count=2 more=no",
        ]])
        h.send(5, "GAMES 1")
        #expect(h.drain() == [5: ["LIVE id=3 game=ghost players=dave,erin lang=en moves=0 watchers=0 rounds=ghost ghost=, clock=30",
                                  "OK GAMES count=1 more=yes"]])
        h.send(5, "WATCH 1")
        _ = h.drain()
        h.send(5, "GAMES 1 ")
        h.send(5, "GAMES 2")
        #expect(h.drain()[5]?.contains("LIVE id=1 game=ghost players=alice,bob lang=en moves=1 watchers=1") == true)
    }

    @Test("WATCH: the state without a token, then every broadcast event; WATCHERS to players and watchers; watching ends at OVER")
    func watchAGhostGame() throws {
        let h = try Harness(settings: unbatched())
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.connect(5)
        _ = h.drain()
        h.send(5, "WATCH 1")
        #expect(h.drain() == [5: ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=1 watching=yes",
                                  "TURN id=1 player=bob fragment=p last=alice"]])
        h.tick()
        #expect(h.drain() == [1: ["WATCHERS id=1 count=1"], 2: ["WATCHERS id=1 count=1"], 5: ["WATCHERS id=1 count=1"]])
        h.send(2, "e")
        let move = ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"]
        #expect(h.drain() == [1: move, 2: ["OK LETTER letter=e fragment=pe"] + move, 5: move])
        // A player's GAME says who watches (RESUME on the same connection sends the state again).
        h.send(1, "a")
        h.disconnect(2)
        let away = h.drain()
        #expect(away[5] == ["MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea",
                            "ADJOURNED id=1 player=bob grace=60",
                            "INFO bob is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it."])
        // A second watcher sees who is away.
        h.connect(6)
        _ = h.drain()
        h.send(6, "WATCH 1")
        #expect(h.drain()[6] == ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=2 watching=yes",
                                 "ADJOURNED id=1 player=bob grace=60", "TURN id=1 player=bob fragment=pea last=alice"])
        h.send(6, "UNWATCH")
        #expect(h.drain()[6] == ["OK UNWATCH id=1"])
        h.send(6, "UNWATCH")
        #expect(h.drain()[6] == ["ERR not-watching you are not watching a game"])
        h.connect(2)
        let bobToken = try #require(firstToken(h.outbox.all(to: 2)))
        h.send(2, "RESUME \(bobToken)")
        let back = h.drain()
        #expect(back[2]?.contains("GAME id=1 game=ghost lang=en players=alice,bob token=\(bobToken) round=1 watchers=1") == true)
        #expect(back[5] == ["RETURNED id=1 player=bob"])
        #expect(back[1] == ["RETURNED id=1 player=bob"])
        h.send(2, "r")
        let over = ["MOVE id=1 player=bob letter=r fragment=pear", "OVER id=1 winner=alice loser=bob reason=word fragment=pear",
                    "INFO \"pear\" is a word longer than 3 letters, so bob loses.",
                    "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain()[5] == over)
        // Watching ended with the game.
        h.send(5, "UNWATCH")
        #expect(h.drain()[5] == ["ERR not-watching you are not watching a game"])
        h.tick()
        #expect(h.drain() == [:])
        h.send(5, "GAMES")
        #expect(h.drain()[5] == ["OK GAMES count=0 more=no"])
        // No watcher ever got a token.
        #expect(!h.outbox.all(to: 5).contains { $0.contains("token=") })
        #expect(!h.outbox.all(to: 6).contains { $0.contains("token=") })
    }

    @Test("A watcher cannot act in the game; WATCH errors: unknown id, busy players, switching games, SEEK stops watching")
    func watcherCannotAct() throws {
        let h = try Harness(settings: unbatched())
        try h.pairAliceAndBob()
        h.named(3, "carol")
        h.send(3, "WATCH 1")
        _ = h.drain()
        for line in ["p", "LETTER p", "SOLVE pear", "WORD pear", "LEAVE", "RESTART", "ACCEPT", "DECLINE", "CLAIM", "HINT", "CHALLENGE", "CONCEDE"] {
            h.send(3, line)
            #expect(h.drain() == [3: [notPlaying]], "\(line)")
        }
        #expect(h.lobby.activeGames == 1)
        h.send(3, "WATCH 9")
        #expect(h.drain() == [3: ["ERR no-such-game no game in progress has the id 9; GAMES lists them"]])
        h.send(1, "WATCH 1")
        #expect(h.drain() == [1: ["ERR busy you are in a game; players cannot watch"]])
        // Another game: WATCH switches.
        h.named(4, "dave")
        h.send(4, "NEW bot=easy")
        _ = h.drain()
        h.send(3, "WATCH 2")
        #expect(h.drain()[3] == ["OK WATCH id=2", "GAME id=2 game=ghost lang=en players=dave,bot-easy round=1 bot=easy watchers=1 watching=yes",
                                 "TURN id=2 player=dave fragment="])
        h.send(1, "p")
        #expect(h.drain()[3] == nil)
        h.tick()
        #expect(h.drain() == [3: ["WATCHERS id=2 count=1"], 4: ["WATCHERS id=2 count=1"]])
        // SEEK stops watching first.
        h.send(3, "SEEK")
        #expect(h.drain()[3]?.first == "OK SEEK lang=en")
        h.send(3, "UNWATCH")
        #expect(h.drain()[3] == ["ERR not-watching you are not watching a game"])
        h.send(3, "WATCH 1")
        #expect(h.drain()[3] == ["ERR busy you are seeking a game; LEAVE to stop, then WATCH"])
        h.tick()
        #expect(h.drain() == [:])   // within the second
        h.clock.advance(1)
        h.tick()
        #expect(h.drain()[4] == ["WATCHERS id=2 count=0"])
    }

    @Test("NEW watch=no: private for GAMES and WATCH, said on the players' GAME, kept by JOIN, REMATCH and a restart")
    func privateGames() throws {
        let h = try Harness(settings: unbatched())
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW watch=no")
        let code = try joinCode(h.drain()[1])
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        #expect(d[1]?.first?.hasPrefix("GAME id=1 game=ghost lang=en players=alice,bob token=") == true)
        #expect(d[1]?.first?.hasSuffix(" round=1 watch=no") == true)
        #expect(d[2]?.dropFirst().first?.hasSuffix(" round=1 watch=no") == true)
        h.connect(5)
        _ = h.drain()
        h.send(5, "GAMES")
        h.send(5, "WATCH 1")
        #expect(h.drain() == [5: ["OK GAMES count=0 more=no", "ERR no-such-game no game in progress has the id 1; GAMES lists them"]])

        // A restart keeps it private (once a player's RESUME has loaded it).
        let again = try Harness(directory: h.directory, settings: unbatched())
        let token = try #require(d[1]?.first.flatMap { Message.parse($0)?["token"] })
        again.connect(1)
        again.send(1, "RESUME \(token)")
        again.connect(5)
        _ = again.drain()
        again.send(5, "GAMES")
        again.send(5, "WATCH 1")
        #expect(again.drain() == [5: ["OK GAMES count=0 more=no", "ERR no-such-game no game in progress has the id 1; GAMES lists them"]])

        // REMATCH keeps it private.
        h.send(1, "p")   // a move first: LEAVE before any aborts
        h.send(1, "LEAVE")
        h.send(1, "REMATCH")
        h.send(2, "REMATCH")
        let r = h.drain()
        #expect(r[1]?.contains { $0.hasPrefix("GAME id=2 ") && $0.hasSuffix(" watch=no") } == true)
        h.send(5, "WATCH 2")
        #expect(h.drain()[5] == ["ERR no-such-game no game in progress has the id 2; GAMES lists them"])
        // Against the computer too.
        h.named(3, "carol")
        h.send(3, "NEW bot=hard watch=no")
        #expect(h.drain()[3]?.contains { $0.hasPrefix("GAME id=3 ") && $0.hasSuffix(" watch=no") } == true)
        h.send(5, "GAMES")
        #expect(h.drain()[5] == ["OK GAMES count=0 more=no"])
    }

    @Test("WATCHERS: at most once a second per game, the last count (0 when the last one left); a disconnected watcher is removed")
    func watchersThrottled() throws {
        var settings = unbatched()
        settings.firstMoveTimeout = ServerConfig().firstMoveTimeout
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        for v in 5...7 { h.connect(v) }
        _ = h.drain()
        // Only alice's first move is due (--first-move-timeout, Lifecycle.swift).
        let firstMove = h.clock.monotonic + 60
        #expect(h.lobby.nextDeadline == firstMove)
        h.send(5, "WATCH 1")
        h.send(6, "WATCH 1")
        #expect(h.lobby.nextDeadline != nil)
        _ = h.drain()
        h.tick()
        #expect(h.drain() == [1: ["WATCHERS id=1 count=2"], 2: ["WATCHERS id=1 count=2"], 5: ["WATCHERS id=1 count=2"],
                              6: ["WATCHERS id=1 count=2"]])
        #expect(h.lobby.nextDeadline == firstMove)
        h.send(7, "WATCH 1")
        #expect(h.drain()[7]?.dropFirst().first == "GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=3 watching=yes")
        h.disconnect(5)
        h.tick()
        #expect(h.drain() == [:])   // within the second
        h.clock.advance(0.5)
        h.send(6, "UNWATCH")
        h.tick()
        _ = h.drain()
        h.clock.advance(0.5)
        h.tick()
        #expect(h.drain() == [1: ["WATCHERS id=1 count=1"], 2: ["WATCHERS id=1 count=1"], 7: ["WATCHERS id=1 count=1"]])
        h.send(1, "STATS")
        #expect(h.drain()[1]?.contains("STAT name=watchers value=1") == true)
        h.disconnect(7)
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [1: ["WATCHERS id=1 count=0"], 2: ["WATCHERS id=1 count=0"]])
        h.clock.advance(5)
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.lobby.nextDeadline == firstMove)
        h.send(1, "STATS")
        #expect(h.drain()[1]?.contains("STAT name=watchers value=0") == true)
    }

    @Test("A Hangman duel watched: no token, and never the setter's word before OVER; the setter's own GAME has it")
    func watchAHangmanDuel() throws {
        let h = try Harness(settings: unbatched())
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=hangman mode=duel length=5 misses=6")
        let code = try joinCode(h.drain()[1])
        h.send(2, "JOIN \(code)")
        h.connect(5)
        _ = h.drain()
        h.send(5, "GAMES")
        #expect(h.drain()[5] == ["LIVE id=1 game=hangman players=alice,bob lang=en moves=0 watchers=0 mode=duel length=5 misses=6",
                                 "OK GAMES count=1 more=no"])
        h.send(5, "WATCH 1")
        h.send(1, "WORD peach")
        let d = h.drain()
        #expect(d[5] == ["OK WATCH id=1", "GAME id=1 game=hangman lang=en players=alice,bob round=1 mode=duel length=5 misses=6 watchers=1 watching=yes",
                         "TURN id=1 player=alice pattern= missed=- left=6",
                         "MOVE id=1 player=alice length=5 pattern=_____ missed=- left=6",
                         "TURN id=1 player=bob pattern=_____ missed=- left=6"])
        // Watching again: the state, without the setter's word.
        h.send(5, "WATCH 1")
        #expect(h.drain()[5] == ["OK WATCH id=1", "GAME id=1 game=hangman lang=en players=alice,bob round=1 mode=duel length=5 misses=6 watchers=1 watching=yes",
                                 "TURN id=1 player=bob pattern=_____ missed=- left=6"])
        // The setter's own state has it.
        h.disconnect(1)
        h.connect(1)
        let aliceToken = try #require(firstToken(h.outbox.all(to: 1)))
        h.send(1, "RESUME \(aliceToken)")
        #expect(h.drain()[1]?.contains { $0.contains("word=peach") } == true)
        for letter in ["e", "a", "x"] { h.send(2, letter) }
        _ = h.drain()
        #expect(!h.outbox.all(to: 5).contains { $0.contains("peach") })
        h.send(2, "SOLVE peach")
        let end = h.drain()[5] ?? []
        #expect(end.first == "MOVE id=1 player=bob word=peach hit=yes pattern=peach missed=x left=5")
        #expect(end.dropFirst().first == "OVER id=1 winner=bob loser=alice reason=solved word=peach mistakes=1 pattern=peach")
        #expect(!h.outbox.all(to: 5).contains { $0.contains("token=") })
        #expect(!h.outbox.all(to: 5).contains { $0.hasPrefix("OK ") && !$0.hasPrefix("OK WATCH") && !$0.hasPrefix("OK GAMES") })
    }

    @Test("Batched: watchers get a game's lines from tick, at most one batch per watchBatchInterval, in order; a late watcher only what follows its state")
    func batches() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        h.connect(5)
        h.send(5, "WATCH 1")
        _ = h.drain()
        h.tick()
        #expect(h.drain() == [1: ["WATCHERS id=1 count=1"], 2: ["WATCHERS id=1 count=1"], 5: ["WATCHERS id=1 count=1"]])
        h.send(1, "p")
        #expect(h.drain()[5] == nil)
        h.tick()
        #expect(h.drain()[5] == nil)   // the last batch went out less than 50 ms ago
        h.send(2, "e")
        h.connect(6)
        _ = h.drain()
        h.send(6, "WATCH 1")
        #expect(h.drain()[6] == ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=2 watching=yes",
                                 "TURN id=1 player=alice fragment=pe last=bob"])
        h.send(1, "a")
        #expect(h.lobby.nextDeadline.map { $0 <= h.clock.monotonic + 0.05 } == true)
        h.clock.advance(0.05)
        h.tick()
        let d = h.drain()
        #expect(d[5] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p",
                         "MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe",
                         "MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"])
        #expect(d[6] == ["MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"])
        // The end goes out at the next tick, whatever the interval, and watching ends.
        h.send(2, "r")
        h.tick()
        #expect(h.drain()[6]?.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear") == true)
        #expect(h.lobby.nextDeadline == nil)
    }

    @Test("A large audience's batches wait longer: watchBatchPerWatcher for each watcher, so the sends a second do not grow with it")
    func largerAudienceWaitsLonger() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        settings.watchBatchPerWatcher = 0.02   // 5 watchers: 0.1 s
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        for w in 5...9 {
            h.connect(w)
            h.send(w, "WATCH 1")
        }
        _ = h.drain()
        h.tick()
        #expect(h.drain()[5] == ["WATCHERS id=1 count=5"])
        h.send(1, "p")
        h.clock.advance(0.05)
        h.tick()
        #expect(h.drain()[5] == nil)   // 50 ms would do for one watcher; five wait 100 ms
        h.clock.advance(0.06)
        h.tick()
        #expect(h.drain()[9] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"])
    }

    @Test("A game faster than anyone can watch: past maxWatchBatchLines lines in a batch, its watchers get its state instead")
    func tooFastToWatch() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        h.connect(5)
        h.send(5, "WATCH 1")
        _ = h.drain()
        h.tick()
        _ = h.drain()
        // 33 offers and refusals: 66 lines for the watchers in one batch.
        for _ in 0..<33 {
            h.send(1, "RESTART")
            h.send(2, "DECLINE")
        }
        _ = h.drain()
        h.clock.advance(0.06)
        h.tick()
        #expect(h.drain()[5] == ["GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=1 watching=yes",
                                 "TURN id=1 player=alice fragment="])
        // A game that ends with too many lines waiting: the last of them, its end among them.
        for _ in 0..<40 {
            h.send(1, "RESTART")
            h.send(2, "DECLINE")
        }
        h.send(2, "LEAVE")
        _ = h.drain()
        h.tick()
        let last = h.drain()[5] ?? []
        #expect(last.count == 64)
        // No move was made: LEAVE aborts it, and ABORTED is its end.
        #expect(last.contains("ABORTED id=1 reason=left"))
    }

    @Test("WATCH again while a batch is half on its way: the state, and none of that older batch after it")
    func watchAgainMidBatch() throws {
        var settings = Lobby.Settings()
        settings.watchBatchInterval = 0.05
        settings.watchBatchPerWatcher = 0
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        let watchers = Array(10..<140)   // two more than a slice (Lobby.watchSlice, 128)
        for w in watchers {
            h.connect(w)
            h.send(w, "WATCH 1")
        }
        h.tick()
        h.tick()   // WATCHERS, in two slices
        _ = h.drain()
        h.clock.advance(0.06)
        h.send(1, "p")
        h.tick()   // the first slice of the batch
        let first = h.drain()
        #expect(first[watchers[0]] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"])
        let late = 139
        #expect(first[late] == nil)
        h.send(late, "WATCH 1")
        #expect(h.drain()[late] == ["OK WATCH id=1", "GAME id=1 game=ghost lang=en players=alice,bob round=1 watchers=\(watchers.count) watching=yes",
                                    "TURN id=1 player=bob fragment=p last=alice"])
        h.tick()   // the rest of the batch
        let rest = h.drain()
        #expect(rest[watchers[watchers.count - 2]] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"])
        #expect(rest[late] == nil)
    }
}
