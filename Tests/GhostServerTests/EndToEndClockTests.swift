import Foundation
import Testing
import TestSupport

/// Games on a clock (`clock=<seconds per move>`) against a real
/// ghostd: a Ghost game and a Hangman game lost on time with the smallest
/// clock allowed (5 s), and a restart that keeps each game's clock and gives
/// the player to move a fresh full period. (The rule itself, with a manual
/// clock, is in LobbyClockTests.)
@Suite("EndToEnd: playing on a clock", .ownThread, .hangLimit)
struct EndToEndClockTests {
    /// Seconds to wait for an OVER that a 5 s clock brings: it only bounds a
    /// failure (a loaded machine may be late, never early).
    static let overWait = 30.0

    @Test("Ghost: GAME and TURN carry the clock, a move in time gets a full period, then time runs out")
    func ghostLostOnTime() throws {
        try E2E.withDaemon { daemon in
            let alice = try E2E.player(daemon, "clocka"), bob = try E2E.player(daemon, "clockb")
            try alice.send("NEW clock=4")
            try alice.expect("ERR bad-value clock= is the seconds per move, 5 to 3600")
            try alice.send("NEW clock=5")
            let ok = try alice.client.expectPrefix("OK NEW code=")
            let code = lineFields(ok)["code"] ?? ""
            #expect(ok == "OK NEW code=\(code) lang=en clock=5")
            _ = try alice.client.expectPrefix("INFO ")
            try bob.send("JOIN \(code)")
            try bob.expect("OK JOIN code=\(code) lang=en clock=5")
            var tokens: [String] = []
            for p in [alice, bob] {
                let game = try p.client.expectPrefix("GAME ")
                let token = lineFields(game)["token"] ?? ""
                tokens.append(token)
                #expect(game.hasSuffix(" players=\(alice.name),\(bob.name) token=\(token) round=1 clock=5"), "\(game)")
                try p.expect("TURN id=\(lineFields(game)["id"] ?? "") player=\(alice.name) fragment= clock=5")
            }
            // bob's 5 s start when ghostd takes alice's letter, which is
            // certainly after this: the loss cannot be seen sooner than 5 s
            // after it, however fast or slow the machine.
            let started = monotonicNow()
            try alice.send("p")
            try alice.client.expectPrefix("OK LETTER letter=p fragment=p")
            let move = try alice.client.readLine()
            let gameID = lineFields(move)["id"] ?? ""
            try alice.expect("TURN id=\(gameID) player=\(bob.name) fragment=p clock=5")
            try bob.expect(lines: ["MOVE id=\(gameID) player=\(alice.name) letter=p fragment=p",
                                   "TURN id=\(gameID) player=\(bob.name) fragment=p clock=5"])
            // bob does not move: 5 s later he has lost.
            for p in [alice, bob] {
                let over = try p.client.readLine(timeout: EndToEndClockTests.overWait)
                #expect(over == "OVER id=\(gameID) winner=\(alice.name) loser=\(bob.name) reason=time fragment=p")
                try p.expect("INFO \(bob.name) ran out of time.")
                _ = try p.client.expectPrefix("RANK name=\(alice.name) ")
                _ = try p.client.expectPrefix("RANK name=\(bob.name) ")
            }
            let waited = monotonicNow() - started
            #expect(waited >= 5, "the time loss came \(waited) s after alice's letter was sent, before bob's 5 s were up")
            #expect(waited < 30, "the time loss came only \(waited) s after alice's letter")
            try bob.send("e")
            try bob.expectError("not-in-game")
            // The finished game's token says how it ended.
            let other = try LineClient(port: daemon.port, label: "other")
            try other.send("RESUME \(tokens[1])")
            try other.expect("OK RESUME id=\(gameID) status=over")
            #expect(try other.expectPrefix("OVER id=\(gameID) ").contains(" reason=time fragment=p ended="))
        }
    }

    @Test("Hangman against the computer: the guesser loses on time, and the word is revealed")
    func hangmanLostOnTime() throws {
        try E2E.withDaemon { daemon in
            let ann = try E2E.player(daemon, "clockh")
            try ann.send("NEW game=hangman mode=fair length=5 misses=8 clock=5")
            try ann.client.expect("OK NEW game=hangman mode=fair lang=en length=5 misses=8 clock=5", timeout: 30)
            let game = try ann.client.expectPrefix("GAME ")
            let id = lineFields(game)["id"] ?? ""
            #expect(game.hasSuffix(" round=1 mode=fair length=5 misses=8 clock=5"), "\(game)")
            try ann.expect("TURN id=\(id) player=\(ann.name) pattern=_____ missed=- left=8 clock=5")
            let over = try ann.client.readLine(timeout: EndToEndClockTests.overWait)
            #expect(over.hasPrefix("OVER id=\(id) winner=bot-hangman loser=\(ann.name) reason=time word="), "\(over)")
            #expect(over.hasSuffix(" mistakes=0 pattern=_____"), "\(over)")
            let word = EndToEndHangmanTests.field("word", over)
            #expect(word.count == 5)
            try ann.expect("INFO \(ann.name) ran out of time; the word was \"\(word)\".")
        }
    }

    @Test("A restart keeps each game's clock and gives the player to move a fresh full period (Ghost and Hangman)")
    func restartGivesAFreshPeriod() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let alice = try E2E.player(daemon, "rclocka"), bob = try E2E.player(daemon, "rclockb")
        try alice.send("NEW clock=60")
        let code = lineFields(try alice.client.expectPrefix("OK NEW code="))["code"] ?? ""
        _ = try alice.client.expectPrefix("INFO ")
        try bob.send("JOIN \(code)")
        try bob.expect("OK JOIN code=\(code) lang=en clock=60")
        let aliceGame = try alice.client.expectPrefix("GAME ")
        let bobGame = try bob.client.expectPrefix("GAME ")
        let ghostID = lineFields(aliceGame)["id"] ?? ""
        let bobToken = lineFields(bobGame)["token"] ?? ""
        _ = try alice.client.readLine()
        try alice.send("p")
        try alice.client.expectPrefix("OK LETTER letter=p fragment=p")

        let ann = try E2E.player(daemon, "rclockh")
        try ann.send("NEW game=hangman mode=fair length=5 misses=8 clock=45")
        try ann.client.expect("OK NEW game=hangman mode=fair lang=en length=5 misses=8 clock=45", timeout: 30)
        let annGame = try ann.client.expectPrefix("GAME ")
        let hangmanID = lineFields(annGame)["id"] ?? ""
        let annToken = lineFields(annGame)["token"] ?? ""
        try ann.expect("TURN id=\(hangmanID) player=\(ann.name) pattern=_____ missed=- left=8 clock=45")
        try ann.send("q")
        let guess = try ann.client.expectPrefix("OK LETTER letter=q ")
        try ann.client.expectPrefix("MOVE id=\(hangmanID) ")
        let turn = try ann.client.expectPrefix("TURN id=\(hangmanID) ")
        #expect(turn.hasSuffix(" clock=45"))

        // Some of the period goes by; then the daemon is killed (a crash) and started again.
        Thread.sleep(forTimeInterval: 2)
        #expect(daemon.kill() == .signaled(SIGKILL))
        let restarted = monotonicNow()
        let again = try daemon.relaunch()
        defer { again.kill() }
        // A fresh period runs from the start: at least its length less the
        // whole seconds since then (the old one had at most 58 s left).
        func fresh(_ period: Int, _ line: String) -> Bool {
            guard let clock = Int(EndToEndHangmanTests.field("clock", line)) else { return false }
            return clock <= period && clock >= period - Int((monotonicNow() - restarted).rounded(.up))
        }

        // bob is to move: his whole 60 s again (alice is away).
        let bob2 = try LineClient(port: again.port, label: "bob2")
        try bob2.send("RESUME \(bobToken)")
        try bob2.expect(lines: ["OK RESUME id=\(ghostID)",
                                "GAME id=\(ghostID) game=ghost lang=en players=\(alice.name),\(bob.name) token=\(bobToken) round=1 clock=60",
                                "ADJOURNED id=\(ghostID) player=\(alice.name) grace=60"])
        let bobTurn = try bob2.expectPrefix("TURN id=\(ghostID) player=\(bob.name) fragment=p last=\(alice.name) clock=")
        #expect(fresh(60, bobTurn), "\(bobTurn)")
        // ann's Hangman game: the same position, the whole 45 s.
        let ann2 = try LineClient(port: again.port, label: "ann2")
        try ann2.send("RESUME \(annToken)")
        try ann2.expect("OK RESUME id=\(hangmanID)", timeout: 30)
        let game2 = try ann2.expectPrefix("GAME id=\(hangmanID) ")
        #expect(game2.hasSuffix(" mode=fair length=5 misses=8 clock=45"), "\(game2)")
        let pattern = EndToEndHangmanTests.field("pattern", guess), missed = EndToEndHangmanTests.field("missed", guess)
        let left = EndToEndHangmanTests.field("left", guess)
        let annTurn = try ann2.expectPrefix("TURN id=\(hangmanID) player=\(ann.name) pattern=\(pattern) missed=\(missed) left=\(left) clock=")
        #expect(fresh(45, annTurn), "\(annTurn)")
    }
}
