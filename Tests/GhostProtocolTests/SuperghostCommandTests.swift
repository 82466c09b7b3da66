import Testing
@testable import GhostProtocol
import HangmanWire
import GhostWire
import GameKit

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }
private func code(_ s: String) -> ErrorCode? {
    if case .failure(let e) = parse(s) { return e.code }
    return nil
}

/// A line of one letter, and Superghost's `variant=super` on NEW and SEEK
/// (`LETTER <c> front` is Ghost's verb: GhostVerbsTests).
@Suite struct SuperghostCommandTests {
    @Test func aLetterLineIsTheLetterVerb() throws {
        let q = try #require(Letter("q"))
        // The byte-level fast path takes the plain ones; anything after the
        // letter is the kinds' (GhostVerbsTests).
        #expect(CommandParser.plainMove(Array("LETTER q front".utf8)) == nil)
        #expect(CommandParser.plainMove(Array("LETTER q".utf8)) == .letter(q))
        #expect(parse("q") == .success(.letter(q)))
        #expect(parse("Q") == .success(.letter(q)))
        #expect(Command.letter(q) == .kindMove(verb: "LETTER", arguments: ["q"]))
        #expect(Command.letter(q).verb == .kindMove)
        #expect(code("LETTER q front") == .unknownCommand)
    }

    @Test func renderedCommandsParseBack() throws {
        let q = try #require(Letter("q"))
        var superOptions = GameOptions()
        superOptions.variant = "super"
        var superMatch = GameOptions(match: true, bot: .hard, botFirst: true)
        superMatch.variant = "super"
        let commands: [Command] = [.letter(q), .new(superOptions), .seek(superOptions), .new(superMatch)]
        for c in commands {
            #expect(parse(c.rendered) == .success(c), "\(c.rendered)")
        }
        #expect(Command.move("LETTER", "q", "front").rendered == "LETTER q front")
        #expect(Command.new(superOptions).rendered == "NEW variant=super")
        #expect(Command.new(superMatch).rendered == "NEW variant=super bot=hard first=bot rounds=ghost")
    }

    @Test func variantIsForGhost() {
        #expect(parse("SEEK variant=super") == .success(.seek(GameOptions(settings: ["variant": "super"]))))
        // Another kind's variant= is its own option: the protocol passes it on, the server
        // refuses it for a kind that has none (LobbySuperghostTests).
        #expect(parse("NEW game=hangman variant=super") == .success(.new(GameOptions(game: .hangman, settings: ["variant": "super"]))))
        #expect(code("NEW variant=super variant=super") == .badArguments)
        #expect(code("NEW variant=") == .badArguments)
    }
}
