import Testing
@testable import GhostClient
import GhostProtocol

/// Bluff and challenge in the client: `v` on the main screen goes Ghost,
/// Superghost, challenge (saved, sent as `variant=challenge`); in a game `!`
/// challenges, and a challenged player types the answer (Enter sends
/// `WORD`, `-` concedes); the screens and the ends, in English and Dutch.
@Suite("Client: bluff and challenge")
struct ChallengeClientTests {
    static let header = "GAME id=7 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 variant=challenge"

    /// Game 7 of bluff and challenge at `fragment`, `toMove` to move.
    static func inChallenge(_ fragment: String = "jai", toMove: String = "alice", language: String = "en") -> ClientState {
        Fx.run(Fx.named("alice", language: language),
               Fx.keys("3") + Fx.lines("OK NEW code=4EG7R lang=en", header, "TURN id=7 player=\(toMove) fragment=\(fragment)")).0
    }

    /// alice challenged by bob at "jai".
    static func challenged(language: String = "en") -> ClientState {
        Fx.run(inChallenge(toMove: "bob", language: language),
               Fx.lines("MOVE id=7 player=bob challenge=yes fragment=jai", "TURN id=7 player=alice fragment=jai challenged=yes")).0
    }

    @Test("v goes Ghost, Superghost, challenge and back (saved), and new games carry variant=challenge")
    func variantOfNewGames() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("v")))
        #expect(s.config.challenge && !s.config.superghost)
        #expect(fx == [.saveConfig, .saveConfig])
        #expect(ClientConfig.parse(s.config.rendered).challenge)
        #expect(s.config.rendered.contains("variant=challenge\n"))
        (s, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK variant=challenge"])
        (_, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("v")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW variant=challenge"])
        (_, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("v")), .key(.char("2")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW variant=challenge bot=hard"])
        (s, fx) = Fx.run(Fx.named(), .key(.char("v")), .key(.char("v")), .key(.char("v")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        #expect(!s.config.challenge && !s.config.superghost)
        #expect(ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("v")), .key(.char("v"))).0)
            .contains { $0.contains("v Ghost Super [Bluff and challenge]") })
        #expect(ScreenTests.plainLines(Fx.run(Fx.named("alice", language: "nl"), .key(.char("v")), .key(.char("v"))).0)
            .contains { $0.contains("v Ghost Super [Bluffen en uitdagen]") })
        // A seeker hears of a queue of challenge seekers, by the variant's name.
        #expect(Strings.en.seekersVariant("challenge") == " They play Bluff and challenge.")
        #expect(Strings.nl.seekersVariant("challenge") == " Ze spelen Bluffen en uitdagen.")
    }

    @Test("! challenges; letters still play; Ghost and Superghost ignore !")
    func challengeKey() {
        let s = ChallengeClientTests.inChallenge()
        #expect(s.game?.ghost?.challenge == true)
        var (_, fx) = Fx.run(s, .key(.char("!")))
        #expect(Fx.sent(fx) == ["CHALLENGE"])
        (_, fx) = Fx.run(s, .key(.char("l")))
        #expect(Fx.sent(fx) == ["LETTER l"])
        (_, fx) = Fx.run(Fx.inGame(), .key(.char("!")))
        #expect(Fx.sent(fx) == [])
        (_, fx) = Fx.run(SuperghostClientTests.inSuper(), .key(.char("!")))
        #expect(Fx.sent(fx) == [])
    }

    @Test("Challenged: letters type the answer after the fragment, Backspace erases, Enter sends WORD, - concedes")
    func answerPrompt() {
        var s = ChallengeClientTests.challenged()
        #expect(s.game?.ghost?.challenged == true && s.game?.ghost?.challenger == "bob")
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == [])
        #expect(s.alert?.notice == .typeTheWord)
        (s, fx) = Fx.run(s, .key(.char("l")), .key(.char("x")), .key(.backspace), .key(.char("S")))
        #expect(Fx.sent(fx) == [])
        #expect(s.game?.ghost?.answer == "ls")
        (_, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["WORD jails"])
        (_, fx) = Fx.run(s, .key(.char("-")))
        #expect(Fx.sent(fx) == ["CONCEDE"])
        // The challenger waits: its letters go to the server (which refuses them).
        let waiting = Fx.run(ChallengeClientTests.inChallenge(toMove: "bob"),
                             Fx.lines("MOVE id=7 player=alice challenge=yes fragment=jai", "TURN id=7 player=bob fragment=jai challenged=yes")).0
        (_, fx) = Fx.run(waiting, .key(.char("l")))
        #expect(Fx.sent(fx) == ["LETTER l"])
        // The next TURN without challenged=yes ends the prompt.
        let after = Fx.run(s, Fx.lines("TURN id=7 player=alice fragment=jai")).0
        #expect(after.game?.ghost?.challenged == false && after.game?.ghost?.answer == "")
    }

    @Test("The screens: the challenge key, the prompt, who challenged, in English and Dutch")
    func screens() {
        let plain = ScreenTests.plainLines(ChallengeClientTests.inChallenge())
        #expect(plain.last?.contains("a–z letter · ! challenge · Esc menu") == true, "\(plain)")
        let en = ScreenTests.plainLines(Fx.run(ChallengeClientTests.challenged(), .key(.char("l"))).0)
        #expect(en.contains { $0.contains("Challenged: type a word that starts with “JAI”") }, "\(en)")
        #expect(en.contains { $0.contains("“JAI” · 3 letters · bob challenges") } && en.contains { $0.contains("Your word: JAIL_") }, "\(en)")
        #expect(en.last?.contains("Enter send · - concede") == true, "\(en)")
        let nl = ScreenTests.plainLines(Fx.run(ChallengeClientTests.challenged(language: "nl"), .key(.char("l"))).0)
        #expect(nl.contains { $0.contains("Uitgedaagd: typ een woord dat met “JAI” begint") }, "\(nl)")
        #expect(nl.contains { $0.contains("Jouw woord: JAIL_") }, "\(nl)")
        #expect(nl.last?.contains("Enter stuur · - geef op") == true, "\(nl)")
        // The opponent's side.
        let theirs = ScreenTests.plainLines(Fx.run(ChallengeClientTests.inChallenge(toMove: "bob"),
                                                   Fx.lines("MOVE id=7 player=alice challenge=yes fragment=jai",
                                                            "TURN id=7 player=bob fragment=jai challenged=yes")).0)
        #expect(theirs.contains { $0.contains("bob must name a word") }, "\(theirs)")
        // The smallest window still draws the prompt.
        let small = ScreenTests.plainLines(ChallengeClientTests.challenged(), 60, 20)
        #expect(small.contains { $0.contains("Your word: JAI_") }, "\(small)")
        #expect(small.allSatisfy { Layout.visibleWidth($0) <= 60 })
        #expect(small.suffix(2).joined(separator: " · ").contains("a–z type the word · Enter send · - concede · Esc menu"), "\(small)")
    }

    @Test("The ends: challenge-failed and bluff, in English and Dutch; refusals and hints in the screen's language")
    func ends() {
        /// The game-over screen's words, one space between each (paragraphs wrap).
        func over(_ line: String, language: String = "en") -> String {
            ScreenTests.plainLines(Fx.run(ChallengeClientTests.challenged(language: language), Fx.lines(line, "INFO server text")).0)
                .joined(separator: " ").split(whereSeparator: { $0 == " " }).joined(separator: " ")
        }
        let failed = "OVER id=7 winner=alice loser=bob reason=challenge-failed fragment=jai word=jail"
        #expect(over(failed).contains("bob challenged “JAI”, but you named “JAIL”."), "\(over(failed))")
        #expect(over(failed, language: "nl").contains("bob daagde “JAI” uit, maar jij noemde “JAIL”."),
                "\(over(failed, language: "nl"))")
        let bluff = "OVER id=7 winner=bob loser=alice reason=bluff fragment=jai word=jail"
        #expect(over(bluff).contains("You were challenged and named no word; “JAI” could have been “JAIL”."),
                "\(over(bluff))")
        #expect(!over(bluff).contains("could have led to"))
        let dead = "OVER id=7 winner=bob loser=alice reason=bluff fragment=qz"
        #expect(over(dead).contains("You were challenged and named no word: no word starts with “QZ”."))
        #expect(over(dead, language: "nl").contains("Je werd uitgedaagd en noemde geen woord: met “QZ” begint geen woord."),
                "\(over(dead, language: "nl"))")
        // Refusals, in the client's words.
        var s = Fx.run(ChallengeClientTests.inChallenge(), .key(.char("!"))).0
        s = Fx.run(s, Fx.lines("ERR empty-fragment there is nothing to challenge yet: play a letter")).0
        #expect(ScreenTests.plainLines(s).contains { $0.contains("Nothing to challenge yet: play a letter.") })
        // Hints.
        var h = Fx.run(ChallengeClientTests.inChallenge(), Fx.lines("OK HINT winning=yes challenge=yes")).0
        #expect(h.alert?.notice == .challengeHint)
        h = Fx.run(ChallengeClientTests.challenged(), Fx.lines("OK HINT winning=yes word=jail")).0
        #expect(ScreenTests.plainLines(h).contains { $0.contains("Hint: answer “JAIL”.") })
    }
}
