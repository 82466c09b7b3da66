import Foundation
import Testing
import TestSupport

/// A Hangman duel keeps Ghost's guarantees between two people: RESTART and
/// LANG offers (at once before anything is played, offered afterwards), the
/// grace period and CLAIM whichever seat is away, and a token that is dead
/// once the game is over. Every line of both players is checked.
@Suite("EndToEnd: Hangman duel offers and claims", .ownThread, .hangLimit)
struct EndToEndHangmanDuelTests {
    /// ann hosts a duel (she sets), ben joins; both have read up to the first TURN.
    struct Duel {
        let ann: LineClient
        let ben: LineClient
        let tokens: [String]
    }

    static func duel(_ daemon: DaemonProcess, length: Int = 5, misses: Int = 6) throws -> Duel {
        let ann = try LineClient(port: daemon.port, label: "ann")
        let ben = try LineClient(port: daemon.port, label: "ben")
        try ann.login("ann")
        try ben.login("ben")
        try ann.send("NEW game=hangman mode=duel length=\(length) misses=\(misses)")
        let ok = try ann.expectPrefix("OK NEW code=", timeout: 30)
        let code = EndToEndHangmanTests.field("code", ok)
        #expect(ok == "OK NEW code=\(code) game=hangman mode=duel lang=en length=\(length) misses=\(misses)")
        try ann.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).")
        try ben.send("JOIN \(code)")
        try ben.expect("OK JOIN code=\(code) lang=en")
        let header = "GAME id=1 game=hangman lang=en players=ann,ben token="
        let benGame = try ben.expectPrefix(header)
        let annGame = try ann.expectPrefix(header)
        let tokens = [annGame, benGame].map { EndToEndHangmanTests.field("token", $0) }
        for (line, token) in zip([annGame, benGame], tokens) {
            #expect(line == header + "\(token) round=1 mode=duel length=\(length) misses=\(misses)")
        }
        #expect(tokens[0] != tokens[1])
        for c in [ann, ben] { try c.expect("TURN id=1 player=ann pattern= missed=- left=\(misses)") }
        return Duel(ann: ann, ben: ben, tokens: tokens)
    }

    /// Both players read the same lines.
    static func both(_ d: Duel, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try d.ann.expect(lines: lines, sourceLocation: sourceLocation)
        try d.ben.expect(lines: lines, sourceLocation: sourceLocation)
    }

    @Test("RESTART and LANG in a duel: at once before the word is set; afterwards offered, cancelled by a guess, accepted (round 2, same setter) or declined; the guesser never sees the word")
    func offers() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let d = try Self.duel(daemon)
        func game(round: Int, lang: String = "en") -> [String] {
            ["GAME id=1 game=hangman lang=\(lang) players=ann,ben token=\(d.tokens[0]) round=\(round) mode=duel length=5 misses=6",
             "GAME id=1 game=hangman lang=\(lang) players=ann,ben token=\(d.tokens[1]) round=\(round) mode=duel length=5 misses=6"]
        }

        // Nothing played yet: RESTART is done at once.
        try d.ann.send("RESTART")
        try d.ann.expect(lines: ["OK RESTART status=done", game(round: 1)[0], "TURN id=1 player=ann pattern= missed=- left=6"])
        try d.ben.expect(lines: [game(round: 1)[1], "TURN id=1 player=ann pattern= missed=- left=6"])

        try d.ann.send("WORD apple")
        try d.ann.expect("OK WORD length=5 pattern=_____ missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ann length=5 pattern=_____ missed=- left=6",
                          "TURN id=1 player=ben pattern=_____ missed=- left=6"])

        // Afterwards it is an offer, and the offerer's own guess withdraws it.
        try d.ben.send("RESTART")
        try d.ben.expect(lines: ["OK RESTART status=offered", "OFFER id=1 player=ben kind=restart"])
        try d.ann.expect(lines: ["OFFER id=1 player=ben kind=restart", "INFO ben offers to restart the round: ACCEPT or DECLINE."])
        try d.ben.send("e")
        try d.ben.expect("OK LETTER letter=e hit=yes pattern=____e missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ben letter=e hit=yes pattern=____e missed=- left=6",
                          "CANCELLED id=1 player=ben kind=restart",
                          "TURN id=1 player=ben pattern=____e missed=- left=6"])
        try d.ann.send("ACCEPT")
        _ = try d.ann.expectError("no-offer")

        // Offered again and accepted: round 2, ann sets again, nothing guessed.
        try d.ben.send("RESTART")
        try d.ben.expect(lines: ["OK RESTART status=offered", "OFFER id=1 player=ben kind=restart"])
        try d.ann.expect(lines: ["OFFER id=1 player=ben kind=restart", "INFO ben offers to restart the round: ACCEPT or DECLINE."])
        try d.ann.send("ACCEPT")
        try d.ann.expect(lines: ["OK ACCEPT", "ACCEPTED id=1 player=ann kind=restart", game(round: 2)[0],
                                 "TURN id=1 player=ann pattern= missed=- left=6"])
        try d.ben.expect(lines: ["ACCEPTED id=1 player=ann kind=restart", game(round: 2)[1],
                                 "TURN id=1 player=ann pattern= missed=- left=6"])

        // LANG before the new word: at once; the word must now be Dutch.
        try d.ann.send("LANG nl")
        try d.ann.expect(lines: ["OK LANG lang=nl status=done", game(round: 2, lang: "nl")[0], "TURN id=1 player=ann pattern= missed=- left=6"])
        try d.ben.expect(lines: [game(round: 2, lang: "nl")[1], "TURN id=1 player=ann pattern= missed=- left=6"])
        try d.ann.send("WORD apple")
        _ = try d.ann.expectError("not-a-word")
        try d.ann.send("WORD appel")
        try d.ann.expect("OK WORD length=5 pattern=_____ missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ann length=5 pattern=_____ missed=- left=6",
                          "TURN id=1 player=ben pattern=_____ missed=- left=6"])

        // LANG en offered by the guesser and declined: play goes on in Dutch.
        try d.ben.send("LANG en")
        try d.ben.expect(lines: ["OK LANG lang=en status=offered", "OFFER id=1 player=ben kind=lang lang=en"])
        try d.ann.expect(lines: ["OFFER id=1 player=ben kind=lang lang=en", "INFO ben offers to switch to en and restart: ACCEPT or DECLINE."])
        try d.ann.send("DECLINE")
        try d.ann.expect("OK DECLINE")
        try Self.both(d, ["DECLINED id=1 player=ann kind=lang"])
        try d.ben.send("p")
        try d.ben.expect("OK LETTER letter=p hit=yes pattern=_pp__ missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ben letter=p hit=yes pattern=_pp__ missed=- left=6",
                          "TURN id=1 player=ben pattern=_pp__ missed=- left=6"])
        try d.ben.send("x")
        try d.ben.expect("OK LETTER letter=x hit=no pattern=_pp__ missed=x left=5")
        try Self.both(d, ["MOVE id=1 player=ben letter=x hit=no pattern=_pp__ missed=x left=5",
                          "TURN id=1 player=ben pattern=_pp__ missed=x left=5"])
        // Every line ben read up to here is written out above: none holds a word.
        try d.ben.send("SOLVE appel")
        try d.ben.expect("OK SOLVE word=appel hit=yes pattern=appel missed=x left=5")
        try Self.both(d, ["MOVE id=1 player=ben word=appel hit=yes pattern=appel missed=x left=5",
                          "OVER id=1 winner=ben loser=ann reason=solved word=appel mistakes=1 pattern=appel"])
        try d.ben.expect("INFO ben found \"appel\" with 1 mistake.")
    }

    @Test("CLAIM in a duel (--grace 1): the guesser away on their turn, and the setter away before setting the word; a claimed game's token only tells how it ended")
    func claims() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0", "--grace", "1"])
        defer { daemon.kill() }
        let d = try Self.duel(daemon)
        try d.ann.send("WORD apple")
        try d.ann.expect("OK WORD length=5 pattern=_____ missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ann length=5 pattern=_____ missed=- left=6",
                          "TURN id=1 player=ben pattern=_____ missed=- left=6"])
        try d.ben.send("e")
        try d.ben.expect("OK LETTER letter=e hit=yes pattern=____e missed=- left=6")
        try Self.both(d, ["MOVE id=1 player=ben letter=e hit=yes pattern=____e missed=- left=6",
                          "TURN id=1 player=ben pattern=____e missed=- left=6"])

        // The guesser leaves on their own turn: the setter may claim after 1 s.
        d.ben.close()
        try d.ann.expect(lines: ["ADJOURNED id=1 player=ben grace=1",
                                 "INFO ben is away. The game waits; if they are still away 1 s into their turn, you may CLAIM it."])
        try d.ann.expect(lines: ["CLAIMABLE id=1 player=ben",
                                 "INFO ben has been away past the grace period: send CLAIM to take the win, or keep waiting."])
        try d.ann.send("CLAIM")
        try d.ann.expect(lines: ["OK CLAIM",
                                 "OVER id=1 winner=ann loser=ben reason=abandoned word=apple mistakes=0 pattern=____e",
                                 "INFO ben stayed away past the grace period; ann claimed the game."])
        let late = try LineClient(port: daemon.port, label: "ben late")
        try late.send("RESUME \(d.tokens[1])")
        // The token no longer resumes the game: it tells how it ended.
        try late.expect("OK RESUME id=1 status=over game=hangman")
        #expect(try late.expectPrefix("OVER id=1 winner=ann loser=ben reason=abandoned word=apple mistakes=0 pattern=____e ended=") != "")

        // The setter leaves before setting a word: it is their turn, so the guesser may claim.
        try late.login("ben")
        try d.ann.send("NEW game=hangman mode=duel length=5 misses=6")
        let ok = try d.ann.expectPrefix("OK NEW code=")
        let code = EndToEndHangmanTests.field("code", ok)
        _ = try d.ann.expectPrefix("INFO ")
        try late.send("JOIN \(code)")
        try late.expect("OK JOIN code=\(code) lang=en")
        _ = try late.expectPrefix("GAME id=2 game=hangman lang=en players=ann,ben token=")
        try late.expect("TURN id=2 player=ann pattern= missed=- left=6")
        d.ann.close()
        try late.expect(lines: ["ADJOURNED id=2 player=ann grace=1",
                                "INFO ann is away. The game waits; if they are still away 1 s into their turn, you may CLAIM it.",
                                "CLAIMABLE id=2 player=ann",
                                "INFO ann has been away past the grace period: send CLAIM to take the win, or keep waiting."])
        try late.send("CLAIM")
        try late.expect(lines: ["OK CLAIM",
                                "OVER id=2 winner=ben loser=ann reason=abandoned word= mistakes=0 pattern=",
                                "INFO ann stayed away past the grace period; ben claimed the game."])
        try late.expectNothing(within: 0.2)
    }

    @Test("SEEK game=hangman: two seekers with different options get the first seeker's game, and the first seeker sets")
    func seekersGetTheFirstSeekersGame() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let ivan = try LineClient(port: daemon.port, label: "ivan")
        let jo = try LineClient(port: daemon.port, label: "jo")
        try ivan.login("ivan")
        try jo.login("jo")
        try ivan.send("SEEK game=hangman length=5 misses=6")
        try ivan.expect("OK SEEK lang=en", timeout: 30)
        _ = try ivan.expectPrefix("INFO ")
        try jo.send("SEEK game=hangman length=7 misses=3")
        try jo.expect("OK SEEK lang=en")
        for c in [jo, ivan] {
            let game = try c.expectPrefix("GAME id=1 game=hangman lang=en players=ivan,jo token=")
            #expect(game.hasSuffix(" round=1 mode=duel length=5 misses=6"), "\(game)")
            try c.expect("TURN id=1 player=ivan pattern= missed=- left=6")
        }
    }
}
