import Foundation
import TestSupport
import Testing

/// Over real sockets, on the real English list: a duel
/// without `length=` is open until the setter's word sets its length, across
/// a crash of the daemon, and again after REMATCH.
@Suite("EndToEnd: a Hangman duel's length is the setter's word's", .ownThread, .hangLimit)
struct EndToEndHangmanOpenDuelTests {
    @Test("NEW game=hangman mode=duel: length=any; WORD kettle gives the guesser 6 letters; after kill -9 the duel resumes on 6 letters; REMATCH is open again")
    func openDuel() async throws {
        try await onOwnThread { try Self.play() }
    }

    static func play() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        var running = daemon
        defer { running.kill() }
        let ann = try LineClient(port: daemon.port, label: "ann")
        let ben = try LineClient(port: daemon.port, label: "ben")
        try ann.login("ann")
        try ben.login("ben")
        try ann.send("NEW game=hangman mode=duel")
        let ok = try ann.expectPrefix("OK NEW code=", timeout: 30)
        let code = EndToEndHangmanTests.field("code", ok)
        #expect(ok == "OK NEW code=\(code) game=hangman mode=duel lang=en length=any misses=8")
        try ann.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).")
        try ben.send("JOIN \(code)")
        try ben.expect("OK JOIN code=\(code) lang=en")
        let header = "GAME id=1 game=hangman lang=en players=ann,ben token="
        let benGame = try ben.expectPrefix(header), annGame = try ann.expectPrefix(header)
        let tokens = [annGame, benGame].map { EndToEndHangmanTests.field("token", $0) }
        for (line, token) in zip([annGame, benGame], tokens) {
            #expect(line == header + "\(token) round=1 mode=duel length=any misses=8")
        }
        for c in [ann, ben] { try c.expect("TURN id=1 player=ann pattern= missed=- left=8") }

        // The word sets the length: no length to guess.
        try ann.send("WORD kettle")
        try ann.expect("OK WORD length=6 pattern=______ missed=- left=8")
        for c in [ann, ben] {
            try c.expect(lines: ["MOVE id=1 player=ann length=6 pattern=______ missed=- left=8",
                                 "TURN id=1 player=ben pattern=______ missed=- left=8"])
        }
        try ben.send("e")
        try ben.expect("OK LETTER letter=e hit=yes pattern=_e___e missed=- left=8")
        for c in [ann, ben] {
            try c.expect(lines: ["MOVE id=1 player=ben letter=e hit=yes pattern=_e___e missed=- left=8",
                                 "TURN id=1 player=ben pattern=_e___e missed=- left=8"])
        }

        // A crash: the duel is replayed from its stored moves, on 6 letters.
        _ = daemon.kill()
        running = try daemon.relaunch()
        let ben2 = try LineClient(port: running.port, label: "ben2")
        try ben2.send("RESUME \(tokens[1])")
        try ben2.expect(lines: ["OK RESUME id=1", header + "\(tokens[1]) round=1 mode=duel length=6 misses=8",
                                "ADJOURNED id=1 player=ann grace=60", "TURN id=1 player=ben pattern=_e___e missed=- left=8"])
        let ann2 = try LineClient(port: running.port, label: "ann2")
        try ann2.send("RESUME \(tokens[0])")
        try ann2.expect(lines: ["OK RESUME id=1", header + "\(tokens[0]) round=1 mode=duel length=6 misses=8 word=kettle",
                                "TURN id=1 player=ben pattern=_e___e missed=- left=8"])
        try ben2.expect("RETURNED id=1 player=ann")
        try ben2.send("SOLVE kettle")
        try ben2.expect("OK SOLVE word=kettle hit=yes pattern=kettle missed=- left=8")
        for c in [ann2, ben2] {
            try c.expect(lines: ["MOVE id=1 player=ben word=kettle hit=yes pattern=kettle missed=- left=8",
                                 "OVER id=1 winner=ben loser=ann reason=solved word=kettle mistakes=0 pattern=kettle",
                                 "INFO ben found \"kettle\" without a mistake."])
        }
        try ben2.expect("RANK board=hangman-duel rank=1 word=kettle mistakes=0 misses=8 mode=duel lang=en")

        // REMATCH: ben sets, and the length is open again.
        try ben2.send("REMATCH")
        try ben2.expect("OK REMATCH status=asked", timeout: 10)
        _ = try ann2.readUntil(prefix: "REMATCH id=1 player=ben")
        try ann2.send("REMATCH")
        _ = try ann2.readUntil(prefix: "OK REMATCH status=started")
        let again = "GAME id=2 game=hangman lang=en players=ben,ann token="
        let annAgain = try ann2.expectPrefix(again)
        #expect(annAgain == again + EndToEndHangmanTests.field("token", annAgain) + " round=1 mode=duel length=any misses=8 record=0-1")
        try ann2.expect("TURN id=2 player=ben pattern= missed=- left=8")
        _ = try ben2.readUntil(prefix: "TURN id=2 player=ben pattern= missed=- left=8")
        try ben2.send("WORD zephyr")
        try ben2.expect("OK WORD length=6 pattern=______ missed=- left=8")
        try ann2.expect(lines: ["MOVE id=2 player=ben length=6 pattern=______ missed=- left=8",
                                "TURN id=2 player=ann pattern=______ missed=- left=8"])
    }
}
