import Testing
@testable import GhostProtocol
import HangmanWire
import GhostWire

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }
private func code(_ s: String) -> ErrorCode? {
    if case .failure(let e) = parse(s) { return e.code }
    return nil
}

/// Superghost's commands: `LETTER <c> front`, and `variant=super` on NEW and SEEK.
@Suite struct SuperghostCommandTests {
    @Test func letterFrontGoesThroughTheFullParser() throws {
        let q = try #require(Letter("q"))
        #expect(parse("LETTER q front") == .success(.front(q)))
        #expect(parse("letter Q FRONT") == .success(.front(q)))
        #expect(parse("LETTER q\tfront") == .success(.front(q)))
        // The byte-level fast path leaves it to the full parser, and still takes the plain ones.
        #expect(CommandParser.plainMove(Array("LETTER q front".utf8)) == nil)
        #expect(CommandParser.plainMove(Array("LETTER q".utf8)) == .letter(q))
        #expect(parse("q") == .success(.letter(q)))
        // Anything else after the letter is not a move.
        #expect(code("LETTER q back") == .notALetter)
        #expect(code("LETTER q front front") == .notALetter)
        #expect(code("LETTER front") == .notALetter)
        #expect(Command.front(q).verb == .letter)
    }

    @Test func renderedCommandsParseBack() throws {
        let q = try #require(Letter("q"))
        var superOptions = GameOptions()
        superOptions.variant = "super"
        var superMatch = GameOptions(match: true, bot: .hard, botFirst: true)
        superMatch.variant = "super"
        let commands: [Command] = [.front(q), .letter(q), .new(superOptions), .seek(superOptions), .new(superMatch)]
        for c in commands {
            #expect(parse(c.rendered) == .success(c), "\(c.rendered)")
        }
        #expect(Command.front(q).rendered == "LETTER q front")
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
