import Testing
@testable import GhostProtocol
import HangmanWire
import GhostWire

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }
private func code(_ s: String) -> ErrorCode? {
    if case .failure(let e) = parse(s) { return e.code }
    return nil
}

/// Bluff and challenge's commands: `CHALLENGE`, `CONCEDE`, `WORD <w>` as the
/// answer, and `variant=challenge` on NEW and SEEK.
@Suite struct ChallengeCommandTests {
    @Test func challengeAndConcedeTakeNoArguments() {
        #expect(parse("CHALLENGE") == .success(.challenge))
        #expect(parse("challenge") == .success(.challenge))
        #expect(parse("Concede") == .success(.concede))
        #expect(parse("  CONCEDE\t") == .success(.concede))
        #expect(code("CHALLENGE jai") == .badArguments)
        #expect(code("CONCEDE now") == .badArguments)
        #expect(code("CHALLENGE x=y") == .badArguments)
        #expect(Command.challenge.verb == .challenge)
        #expect(Command.concede.verb == .concede)
        #expect(Command.challenge.rendered == "CHALLENGE")
        #expect(Command.concede.rendered == "CONCEDE")
    }

    @Test func theAnswerIsWord() {
        #expect(parse("WORD jail") == .success(.word("jail")))
        #expect(parse("word JAIL") == .success(.word("jail")))
        #expect(code("WORD") == .badArguments)
        #expect(code("WORD jail jails") == .badArguments)
        // Any word: the game says what it takes (Ghost's challenge answer:
        // bad-word; a Hangman setter's word: bad-arguments).
        #expect(parse("WORD j4il") == .success(.word("j4il")))
        #expect(parse("WORD qzÉr") == .success(.word("qzÉr")))
        #expect(code("WORD " + String(repeating: "a", count: 81)) == .badArguments)
    }

    @Test func variantChallengeOnNewAndSeek() throws {
        var options = GameOptions()
        options.variant = "challenge"
        #expect(parse("NEW variant=challenge") == .success(.new(options)))
        #expect(parse("SEEK VARIANT=Challenge") == .success(.seek(options)))
        var bot = GameOptions(match: true, bot: .medium, botFirst: true)
        bot.variant = "challenge"
        #expect(Command.new(bot).rendered == "NEW variant=challenge bot=medium first=bot rounds=ghost")
        for c: Command in [.new(options), .seek(options), .new(bot), .challenge, .concede, .word("jail")] {
            #expect(parse(c.rendered) == .success(c), "\(c.rendered)")
        }
        #expect(parse("NEW game=hangman variant=challenge") == .success(.new(GameOptions(game: .hangman, settings: ["variant": "challenge"]))))
    }

    @Test func helpListsThem() {
        let help = Command.helpLines.map(\.usage)
        #expect(help.contains("CHALLENGE"))
        #expect(help.contains("CONCEDE"))
        #expect(help.contains("WORD <word>"))
        #expect(help.contains { $0.hasPrefix("SEEK") && $0.contains("variant=super|challenge") })
        #expect(help.contains { $0.hasPrefix("NEW") && $0.contains("variant=super|challenge") })
        // Right after WORD, in HELP's order.
        let verbs = Verb.allCases
        let word = try? #require(verbs.firstIndex(of: .word))
        #expect(word.map { verbs[$0 + 1] == .challenge && verbs[$0 + 2] == .concede } == true)
    }

    @Test func theNewErrorCodesAreKnown() {
        for c in ["wrong-variant", "empty-fragment", "challenge-pending", "no-challenge", "bad-word", "fragment-too-long"] {
            #expect(ErrorCode.allCases.contains(ErrorCode(rawValue: c)), "\(c)")
        }
    }
}
