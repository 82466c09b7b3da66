import Testing
import GameKit
import GhostProtocol
@testable import GhostCore

private let verbs = KindVerbs(GhostKind.verbs)
private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8), kindVerbs: verbs) }
private func code(_ s: String) -> ErrorCode? {
    if case .failure(let e) = parse(s) { return e.code }
    return nil
}
private func move(_ command: Result<Command?, CommandError>) -> Move? {
    guard case .success(.kindMove(let name, let arguments)?) = command,
          let verb = GhostKind.verbs.first(where: { $0.name == name }) else { return nil }
    return verb.move(arguments)
}

/// Ghost's moves are its kind's verbs, read by the protocol's parser from
/// the kind's declarations: `LETTER <c> [front]`, and bluff and
/// challenge's `CHALLENGE`, `CONCEDE` and `WORD <w>`.
@Suite struct GhostVerbsTests {
    @Test func letterAndFront() throws {
        let q = try #require(Letter("q"))
        #expect(move(parse("q")) == .letter(q))
        #expect(move(parse("LETTER q")) == .letter(q))
        #expect(move(parse("letter Q")) == .letter(q))
        #expect(parse("LETTER q front") == .success(.move("LETTER", "q", "front")))
        #expect(move(parse("letter Q FRONT")) == .front(q))
        #expect(move(parse("LETTER q\tfront")) == .front(q))
        // Anything else after the letter is not a move.
        #expect(code("LETTER q back") == .notALetter)
        #expect(code("LETTER q front front") == .notALetter)
        #expect(code("LETTER front") == .notALetter)
        #expect(code("LETTER") == .notALetter)
        #expect(code("1") == .notALetter)
    }

    @Test func challengeAndConcedeTakeNoArguments() {
        #expect(move(parse("CHALLENGE")) == .challenge)
        #expect(move(parse("challenge")) == .challenge)
        #expect(move(parse("Concede")) == .concede)
        #expect(move(parse("  CONCEDE\t")) == .concede)
        #expect(code("CHALLENGE jai") == .badArguments)
        #expect(code("CONCEDE now") == .badArguments)
        #expect(code("CHALLENGE x=y") == .badArguments)
        #expect(Command.move("CHALLENGE").rendered == "CHALLENGE")
        #expect(Command.move("CONCEDE").rendered == "CONCEDE")
    }

    @Test func theAnswerIsWord() {
        #expect(move(parse("WORD jail")) == .word("jail"))
        #expect(move(parse("word JAIL")) == .word("jail"))
        #expect(code("WORD") == .badArguments)
        #expect(code("WORD jail jails") == .badArguments)
        // Any word: the game says what it takes (Ghost's challenge answer:
        // bad-word; a Hangman setter's word: bad-arguments).
        #expect(move(parse("WORD j4il")) == .word("j4il"))
        #expect(move(parse("WORD qzÉr")) == .word("qzÉr"))
        #expect(code("WORD " + String(repeating: "a", count: 81)) == .badArguments)
    }

    @Test func renderedMovesParseBack() {
        for c: Command in [.move("LETTER", "q"), .move("LETTER", "q", "front"), .move("CHALLENGE"), .move("CONCEDE"), .move("WORD", "jail")] {
            #expect(parse(c.rendered) == .success(c), "\(c.rendered)")
        }
    }

    @Test func declaredInHelpOrder() {
        #expect(GhostKind.verbs.map(\.synopsis) == ["LETTER <c> [front]", "WORD <word>", "CHALLENGE", "CONCEDE"])
    }
}
