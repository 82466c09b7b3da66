import Foundation
import Testing
import TestSupport

/// Hangman against a real ghostd over real sockets: every mode to both
/// endings, bad input, settings for the next game only, scores across a
/// restart, a duel's secrecy (every byte the guesser gets before OVER), the
/// computer guessing, and kill -9 mid-game.
/// The first Hangman command after a start may wait for the word tables,
/// which the daemon builds in the background (seconds in a debug build):
/// those replies get 30 s.
@Suite("EndToEnd: Hangman", .ownThread, .hangLimit)
struct EndToEndHangmanTests {
    /// Letters in a fixed order, for playing a game to its end.
    static let order = Array("eaoiuyrstlndmpcgbhfwkvjxqz").map(String.init)

    /// Guesses letters in `order` (skipping those already tried) until OVER;
    /// returns the OVER line and every line read.
    static func playOut(_ c: LineClient, id: Int, tried: Set<String> = []) throws -> (over: String, lines: [String]) {
        var lines: [String] = []
        for letter in order where !tried.contains(letter) {
            try c.send(letter)
            let ok = try c.expectPrefix("OK LETTER letter=\(letter) ")
            lines.append(ok)
            let move = try c.readLine()
            lines.append(move)
            #expect(move.hasPrefix("MOVE id=\(id) player=") && move.hasSuffix(" " + ok.dropFirst("OK LETTER ".count)), "\(move)")
            let next = try c.readLine()
            lines.append(next)
            if next.hasPrefix("OVER ") { return (next, lines) }
            #expect(next.hasPrefix("TURN id=\(id) "))
        }
        throw HangmanTestError.noEnd(lines)
    }

    enum HangmanTestError: Error { case noEnd([String]) }

    /// The value of `key=` on a line ("" if absent).
    static func field(_ key: String, _ line: String) -> String {
        line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } ?? ""
    }

    @Test("Evil: exact lines (the family is deterministic), solved with 26 misses, RANK, SCORES across a restart")
    func evilSolvedAndScores() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let alice = try LineClient(port: daemon.port, label: "alice")
        try alice.login("alice")
        try alice.send("NEW game=hangman mode=evil length=3 misses=26")
        try alice.expect("OK NEW game=hangman mode=evil lang=en length=3 misses=26", timeout: 30)
        let game = try alice.expectPrefix("GAME id=1 game=hangman lang=en players=bot-hangman,alice token=")
        #expect(game.hasSuffix(" round=1 mode=evil length=3 misses=26"))
        try alice.expect("TURN id=1 player=alice pattern=___ missed=- left=26")
        // Every vowel but u misses: the largest family has none of them.
        try alice.send("e")
        try alice.expect(lines: ["OK LETTER letter=e hit=no pattern=___ missed=e left=25",
                                 "MOVE id=1 player=alice letter=e hit=no pattern=___ missed=e left=25",
                                 "TURN id=1 player=alice pattern=___ missed=e left=25"])
        for (letter, missed, left) in [("a", "ae", 24), ("o", "aeo", 23), ("i", "aeio", 22)] {
            try alice.send(letter)
            try alice.expect(lines: ["OK LETTER letter=\(letter) hit=no pattern=___ missed=\(missed) left=\(left)",
                                     "MOVE id=1 player=alice letter=\(letter) hit=no pattern=___ missed=\(missed) left=\(left)",
                                     "TURN id=1 player=alice pattern=___ missed=\(missed) left=\(left)"])
        }
        try alice.send("LETTER U")
        try alice.expect(lines: ["OK LETTER letter=u hit=yes pattern=_u_ missed=aeio left=22",
                                 "MOVE id=1 player=alice letter=u hit=yes pattern=_u_ missed=aeio left=22",
                                 "TURN id=1 player=alice pattern=_u_ missed=aeio left=22"])
        // Nothing is penalised, nothing changes.
        try alice.send("e")
        _ = try alice.expectError("already-guessed")
        try alice.send("ab")
        _ = try alice.expectError("unknown-command")
        try alice.send("7")
        _ = try alice.expectError("not-a-letter")
        try alice.send("SOLVE r2d2")
        _ = try alice.expectError("bad-arguments")
        try alice.expectNothing()

        let (over, _) = try Self.playOut(alice, id: 1, tried: ["e", "a", "o", "i", "u"])
        #expect(over.hasPrefix("OVER id=1 winner=alice loser=bot-hangman reason=solved word="), "\(over)")
        let word = String(over.split(separator: " ")[5].dropFirst(5))
        let mistakes = String(over.split(separator: " ")[6].dropFirst(9))
        #expect(over == "OVER id=1 winner=alice loser=bot-hangman reason=solved word=\(word) mistakes=\(mistakes) pattern=\(word)")
        try alice.expect("INFO alice found \"\(word)\" with \(mistakes) mistakes.")
        try alice.expect("RANK board=hangman-evil rank=1 word=\(word) mistakes=\(mistakes) misses=26 mode=evil lang=en")
        // After OVER, letters are not moves any more.
        try alice.send("q")
        _ = try alice.expectError("not-in-game")

        let row = "SCORE rank=1 name=alice word=\(word) mistakes=\(mistakes) misses=26 mode=evil lang=en"
        try alice.send("SCORES game=hangman")
        try alice.expect(lines: [row, "OK SCORES count=1 board=hangman-evil"])
        try alice.send("SCORES game=hangman mode=fair")
        try alice.expect("OK SCORES count=0 board=hangman-fair")
        // Ghost's boards do not count Hangman games.
        try alice.send("SCORES bot=hard")
        try alice.expect("OK SCORES count=0 board=hard")

        alice.close()
        #expect(daemon.terminate() == .exited(0))
        let again = try daemon.relaunch()
        defer { again.kill() }
        let bob = try LineClient(port: again.port, label: "bob")
        try bob.send("SCORES game=hangman 5")
        try bob.expect(lines: [row, "OK SCORES count=1 board=hangman-evil"])
    }

    @Test("Evil hanged with one miss: OVER reveals a word of the family, and the INFO consoles")
    func evilHanged() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "carol")
        try c.login("carol")
        try c.send("NEW game=hangman length=5 misses=1")
        try c.expect("OK NEW game=hangman mode=evil lang=en length=5 misses=1", timeout: 30)
        _ = try c.expectPrefix("GAME id=1 ")
        try c.expect("TURN id=1 player=carol pattern=_____ missed=- left=1")
        try c.send("q")
        try c.expect(lines: ["OK LETTER letter=q hit=no pattern=_____ missed=q left=0",
                             "MOVE id=1 player=carol letter=q hit=no pattern=_____ missed=q left=0"])
        let over = try c.expectPrefix("OVER id=1 winner=bot-hangman loser=carol reason=hanged word=")
        let word = String(over.split(separator: " ")[5].dropFirst(5))
        #expect(word.count == 5 && !word.contains("q"), "\(over)")
        #expect(over.hasSuffix(" mistakes=1 pattern=_____"))
        try c.expect("INFO carol is hanged: the word was \"\(word)\".")
        try c.expectNothing()   // a lost game makes no list
    }

    @Test("Fair and phrase: both endings; a phrase shows its gaps; a wrong SOLVE costs a miss")
    func fairAndPhrase() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "dora")
        try c.login("dora")
        // Fair, won by letters with every miss allowed.
        try c.send("NEW game=hangman mode=fair length=4 misses=26")
        try c.expect("OK NEW game=hangman mode=fair lang=en length=4 misses=26", timeout: 30)
        _ = try c.expectPrefix("GAME id=1 ")
        try c.expect("TURN id=1 player=dora pattern=____ missed=- left=26")
        let (won, _) = try Self.playOut(c, id: 1)
        #expect(won.hasPrefix("OVER id=1 winner=dora loser=bot-hangman reason=solved word="), "\(won)")
        _ = try c.expectPrefix("INFO dora found ")
        _ = try c.expectPrefix("RANK board=hangman-fair rank=1 ")
        // Fair, lost by wrong answers.
        try c.send("NEW game=hangman mode=fair length=4 misses=2")
        try c.expect("OK NEW game=hangman mode=fair lang=en length=4 misses=2", timeout: 30)
        _ = try c.expectPrefix("GAME id=2 ")
        try c.expect("TURN id=2 player=dora pattern=____ missed=- left=2")
        try c.send("SOLVE zzzz")
        try c.expect(lines: ["OK SOLVE word=zzzz hit=no pattern=____ missed=- left=1",
                             "MOVE id=2 player=dora word=zzzz hit=no pattern=____ missed=- left=1",
                             "TURN id=2 player=dora pattern=____ missed=- left=1"])
        try c.send("SOLVE zzzz")
        _ = try c.expectError("already-guessed")
        try c.send("SOLVE qqqq")
        _ = try c.expectPrefix("OK SOLVE word=qqqq hit=no ")
        _ = try c.expectPrefix("MOVE id=2 ")
        _ = try c.expectPrefix("OVER id=2 winner=bot-hangman loser=dora reason=hanged word=")
        _ = try c.expectPrefix("INFO dora is hanged: the word was ")
        // A phrase: words separated by /, solved by SOLVE after the letters.
        try c.send("NEW game=hangman mode=phrase misses=26")
        let ok = try c.expectPrefix("OK NEW game=hangman mode=phrase lang=en length=", timeout: 30)
        _ = try c.expectPrefix("GAME id=3 ")
        let turn = try c.expectPrefix("TURN id=3 player=dora pattern=")
        let pattern = String(turn.split(separator: " ")[3].dropFirst(8))
        #expect(pattern.contains("/") && pattern.allSatisfy { "_/'-".contains($0) }, "\(turn)")
        #expect(ok.hasSuffix(" misses=26"))
        let (phraseOver, _) = try Self.playOut(c, id: 3)
        #expect(phraseOver.hasPrefix("OVER id=3 winner=dora loser=bot-hangman reason=solved word="), "\(phraseOver)")
        let answer = String(phraseOver.split(separator: " ")[5].dropFirst(5))
        #expect(answer.contains("/") && phraseOver.hasSuffix(" pattern=\(answer)"))
    }

    @Test("Settings: SET during a game applies to the next one only, and fills what NEW leaves out")
    func settingsApplyToTheNextGame() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "erin")
        try c.login("erin")
        try c.send("NEW game=hangman length=6")
        try c.expect("OK NEW game=hangman mode=evil lang=en length=6 misses=8", timeout: 30)
        _ = try c.expectPrefix("GAME id=1 ")
        try c.expect("TURN id=1 player=erin pattern=______ missed=- left=8")
        try c.send("SET hangman-misses 3")
        try c.expect("OK SET key=hangman-misses value=3")
        try c.send("SET hangman-misses 30")
        _ = try c.expectError("bad-value")
        try c.send("x")
        try c.expect("OK LETTER letter=x hit=no pattern=______ missed=x left=7")   // still 8 allowed here
        try c.send("LEAVE")
        _ = try c.readUntil(prefix: "OK LEAVE")
        _ = try c.readUntil(prefix: "INFO erin left")
        try c.send("NEW game=hangman length=6")
        try c.expect("OK NEW game=hangman mode=evil lang=en length=6 misses=3", timeout: 30)
    }

    @Test("Duel: the guesser's socket never carries the word before OVER; roles swap on REMATCH")
    func duelSecrecy() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let setter = try LineClient(port: daemon.port, label: "setter")
        let guesser = try LineClient(port: daemon.port, label: "guesser")
        try setter.login("frank")
        try guesser.login("gina")
        try setter.send("NEW game=hangman mode=duel length=6 misses=10")
        let ok = try setter.expectPrefix("OK NEW code=", timeout: 30)
        let code = String(ok.split(separator: " ")[2].dropFirst(5))
        #expect(ok == "OK NEW code=\(code) game=hangman mode=duel lang=en length=6 misses=10")
        _ = try setter.expectPrefix("INFO ")
        try guesser.send("JOIN \(code)")
        var seen: [String] = [try guesser.expectPrefix("OK JOIN code=\(code) ")]
        let token = try guesser.expectPrefix("GAME id=1 game=hangman lang=en players=frank,gina token=")
        seen.append(token)
        try guesser.expect("TURN id=1 player=frank pattern= missed=- left=10")
        _ = try setter.expectPrefix("GAME id=1 ")
        try setter.expect("TURN id=1 player=frank pattern= missed=- left=10")
        // Only the setter sets, and only a word of the list, of the game's length.
        try guesser.send("e")
        _ = try guesser.expectError("not-your-turn")
        try setter.send("WORD qzqzqz")
        _ = try setter.expectError("not-a-word")
        try setter.send("WORD Zephyr")
        try setter.expect(lines: ["OK WORD length=6 pattern=______ missed=- left=10",
                                  "MOVE id=1 player=frank length=6 pattern=______ missed=- left=10",
                                  "TURN id=1 player=gina pattern=______ missed=- left=10"])
        seen += [try guesser.expectPrefix("MOVE id=1 player=frank length=6 "), try guesser.expectPrefix("TURN id=1 player=gina ")]
        try setter.send("e")
        _ = try setter.expectError("not-your-turn")
        // The guesser drops and resumes: the state it gets back has no word either.
        let tokenValue = Self.field("token", token)
        guesser.close()
        _ = try setter.readUntil(prefix: "ADJOURNED id=1 player=gina")
        let back = try LineClient(port: daemon.port, label: "guesser again")
        try back.send("RESUME \(tokenValue)")
        seen += try (0..<3).map { _ in try back.readLine() }
        #expect(seen.contains("TURN id=1 player=gina pattern=______ missed=- left=10"), "\(seen)")
        for letter in ["a", "o", "i"] {
            try back.send(letter)
            seen += try (0..<3).map { _ in try back.readLine() }
        }
        // Everything the guesser got before it typed the answer itself.
        for line in seen { #expect(!line.lowercased().contains("zephyr"), "before OVER: \(line)") }
        #expect(seen.count == 16, "\(seen)")
        try back.send("SOLVE zephyr")
        try back.expect(lines: ["OK SOLVE word=zephyr hit=yes pattern=zephyr missed=aio left=7",
                                "MOVE id=1 player=gina word=zephyr hit=yes pattern=zephyr missed=aio left=7"])
        let over = try back.readLine()
        #expect(over == "OVER id=1 winner=gina loser=frank reason=solved word=zephyr mistakes=3 pattern=zephyr")
        try back.expect("INFO gina found \"zephyr\" with 3 mistakes.")
        try back.expect("RANK board=hangman-duel rank=1 word=zephyr mistakes=3 misses=10 mode=duel lang=en")
        // REMATCH: gina sets this time.
        try back.send("REMATCH")
        try back.expect("OK REMATCH status=asked")
        _ = try setter.readUntil(prefix: "REMATCH id=1 player=gina")
        try setter.send("REMATCH")
        _ = try setter.readUntil(prefix: "OK REMATCH status=started")
        _ = try setter.expectPrefix("GAME id=2 game=hangman lang=en players=gina,frank ")
        try setter.expect("TURN id=2 player=gina pattern= missed=- left=10")
    }

    @Test("Duel with the computer guessing: it finds the word; SEEK game=hangman pairs two people into a duel")
    func computerGuesserAndSeek() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "hana")
        try c.login("hana")
        try c.send("NEW game=hangman mode=duel bot=guesser length=4 misses=26")
        try c.expect("OK NEW game=hangman mode=duel lang=en length=4 misses=26", timeout: 30)
        _ = try c.expectPrefix("GAME id=1 game=hangman lang=en players=hana,bot-hangman ")
        try c.expect("TURN id=1 player=hana pattern= missed=- left=26")
        try c.send("WORD ring")
        try c.expect("OK WORD length=4 pattern=____ missed=- left=26")
        let (_, line) = try c.readUntil(prefix: "OVER id=1 ")
        #expect(line.hasPrefix("OVER id=1 winner=bot-hangman loser=hana reason=solved word=ring mistakes="), "\(line)")

        let a = try LineClient(port: daemon.port, label: "ivan")
        let b = try LineClient(port: daemon.port, label: "jo")
        try a.login("ivan")
        try b.login("jo")
        try a.send("SEEK game=hangman mode=evil")
        _ = try a.expectError("bad-arguments")   // evil is played against the computer
        try a.send("SEEK game=hangman length=5")
        _ = try a.expectPrefix("OK SEEK ")
        try b.send("SEEK game=hangman length=5")
        _ = try b.expectPrefix("OK SEEK ")
        _ = try b.expectPrefix("GAME id=2 game=hangman lang=en players=ivan,jo ")
        try b.expect("TURN id=2 player=ivan pattern= missed=- left=8")
    }

    @Test("A language without a phrase list refuses mode=phrase; HELLO lists only word lists")
    func noPhrases() throws {
        let folder = try DataDirectory()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/en.txt",
                                                   withDestinationPath: DaemonProcess.dictionariesFolder + "/en.txt")
        try "cat\ndog\nfish\n".write(toFile: folder.path + "/xx.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.path + "/phrases", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/phrases/en.txt",
                                                   withDestinationPath: DaemonProcess.dictionariesFolder + "/phrases/en.txt")
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"], dictionaries: folder.path)
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "kim", readHello: false)
        try c.expect("HELLO ghostd/0.4.0 protocol=2 languages=en,xx")
        try c.login("kim")
        try c.send("LANG xx")
        try c.expect("OK LANG lang=xx")
        try c.send("NEW game=hangman mode=phrase")
        try c.expect("ERR no-phrases no phrase list for xx", timeout: 30)
        try c.send("NEW game=hangman mode=fair length=4")
        try c.expect("OK NEW game=hangman mode=fair lang=xx length=4 misses=8", timeout: 30)
        _ = try c.expectPrefix("GAME id=1 ")
        try c.expect("TURN id=1 player=kim pattern=____ missed=- left=8")
        try c.send("SOLVE fish")
        try c.expect("OK SOLVE word=fish hit=yes pattern=fish missed=- left=8")
    }

    @Test("kill -9 mid-game: RESUME gives the same pattern, misses and family")
    func killNineAndResume() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        let c = try LineClient(port: daemon.port, label: "lena")
        try c.login("lena")
        try c.send("NEW game=hangman length=3 misses=26")
        _ = try c.expectPrefix("OK NEW ", timeout: 30)
        let game = try c.expectPrefix("GAME id=1 ")
        let token = Self.field("token", game)
        _ = try c.expectPrefix("TURN ")
        for letter in ["e", "a", "o", "i", "u"] {
            try c.send(letter)
            _ = try c.expectPrefix("OK LETTER letter=\(letter) ")
            _ = try c.expectPrefix("MOVE ")
            _ = try c.expectPrefix("TURN ")
        }
        #expect(daemon.kill() == .signaled(SIGKILL))
        let again = try daemon.relaunch()
        defer { again.kill() }
        let back = try LineClient(port: again.port, label: "lena again")
        try back.send("RESUME \(token)")
        try back.expect(lines: ["OK RESUME id=1", game, "TURN id=1 player=lena pattern=_u_ missed=aeio left=22"], timeout: 30)
        // The family is the same: a second game played the same way answers the next guess alike.
        let twin = try LineClient(port: again.port, label: "max")
        try twin.login("max")
        try twin.send("NEW game=hangman length=3 misses=26")
        _ = try twin.expectPrefix("OK NEW ", timeout: 30)
        _ = try twin.expectPrefix("GAME id=2 ")
        _ = try twin.expectPrefix("TURN ")
        for letter in ["e", "a", "o", "i", "u"] {
            try twin.send(letter)
            _ = try twin.expectPrefix("OK LETTER letter=\(letter) ")
            _ = try twin.expectPrefix("MOVE ")
            _ = try twin.expectPrefix("TURN ")
        }
        for letter in ["g", "b", "s"] {
            try back.send(letter)
            try twin.send(letter)
            #expect(try back.expectPrefix("OK LETTER ") == twin.expectPrefix("OK LETTER "))
            _ = try back.readLine(); _ = try back.readLine()
            _ = try twin.readLine(); _ = try twin.readLine()
        }
    }
}
