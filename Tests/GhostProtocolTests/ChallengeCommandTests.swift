import Testing
@testable import GhostProtocol
import HangmanWire
import GhostWire

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }
private func code(_ s: String) -> ErrorCode? {
    if case .failure(let e) = parse(s) { return e.code }
    return nil
}

/// Bluff and challenge's options: `variant=challenge` on NEW and SEEK (its
/// verbs are Ghost's: GhostCoreTests' GhostVerbsTests).
@Suite struct ChallengeCommandTests {
    @Test func variantChallengeOnNewAndSeek() throws {
        var options = GameOptions()
        options.variant = "challenge"
        #expect(parse("NEW variant=challenge") == .success(.new(options)))
        #expect(parse("SEEK VARIANT=Challenge") == .success(.seek(options)))
        var bot = GameOptions(match: true, bot: .medium, botFirst: true)
        bot.variant = "challenge"
        #expect(Command.new(bot).rendered == "NEW variant=challenge bot=medium first=bot rounds=ghost")
        for c: Command in [.new(options), .seek(options), .new(bot)] {
            #expect(parse(c.rendered) == .success(c), "\(c.rendered)")
        }
        #expect(parse("NEW game=hangman variant=challenge") == .success(.new(GameOptions(game: .hangman, settings: ["variant": "challenge"]))))
    }

    @Test func theNewErrorCodesAreKnown() {
        for c in ["wrong-variant", "empty-fragment", "challenge-pending", "no-challenge", "bad-word", "fragment-too-long"] {
            #expect(ErrorCode.allCases.contains(ErrorCode(rawValue: c)), "\(c)")
        }
    }
}
