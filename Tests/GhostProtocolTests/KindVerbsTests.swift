import Testing
import GameKit
@testable import GhostProtocol

/// A game kind's own move verbs: the parser reads the verbs the
/// server hands it (GameKit's `MoveVerb`), checks their arguments' shape and
/// gives `Command.kindMove`; without them, a line is what it always was.
@Suite struct KindVerbsTests {
    static let verbs = KindVerbs([
        MoveVerb(name: "LINK", arguments: .word, usage: "<word>", help: "link a word") { .word($0.first ?? "") },
        MoveVerb(name: "PASS", arguments: .none, usage: "", help: "pass") { _ in .concede },
        // A protocol verb and a malformed name are never a kind's.
        MoveVerb(name: "LEAVE", arguments: .none, usage: "", help: "not a kind's") { _ in .concede },
        MoveVerb(name: "X1", arguments: .none, usage: "", help: "not a name") { _ in .concede },
    ])

    private func parse(_ line: String, _ verbs: KindVerbs = KindVerbsTests.verbs) -> Result<Command?, CommandError> {
        CommandParser.parse(Array(line.utf8), kindVerbs: verbs)
    }

    @Test func aDeclaredVerbIsAKindMoveInAnyCaseWithItsArgumentsLowercase() {
        #expect(parse("LINK Apple") == .success(.kindMove(verb: "LINK", arguments: ["apple"])))
        #expect(parse("link\tapple") == .success(.kindMove(verb: "LINK", arguments: ["apple"])))
        #expect(parse("Pass") == .success(.kindMove(verb: "PASS", arguments: [])))
        #expect(Command.kindMove(verb: "LINK", arguments: ["apple"]).rendered == "LINK apple")
        #expect(Command.kindMove(verb: "LINK", arguments: ["apple"]).verb == .kindMove)
    }

    @Test func theShapeIsChecked() {
        let link = CommandError(.badArguments, "usage: LINK <word>")
        #expect(parse("LINK") == .failure(link))
        #expect(parse("LINK a b") == .failure(link))
        #expect(parse("LINK a1") == .failure(link))
        #expect(parse("LINK " + String(repeating: "a", count: MoveVerb.maxWordBytes + 1)) == .failure(link))
        #expect(parse("LINK " + String(repeating: "a", count: MoveVerb.maxWordBytes)) != .failure(link))
        #expect(parse("PASS now") == .failure(CommandError(.badArguments, "usage: PASS")))
    }

    @Test func everyOtherLineIsAsWithoutKindVerbs() {
        for line in ["LEAVE apple", "LEAVE", "X1", "LINKS a", "FOO", "a", "LETTER a", "PING", "", "LINK\u{1} a", "NAME ann"] {
            #expect(parse(line) == CommandParser.parse(Array(line.utf8)), "\(line)")
        }
        #expect(parse("LINK apple", .none) == .failure(CommandParser.unknownCommand))
        #expect(parse("FOO") == .failure(CommandError(.unknownCommand, "unknown command; play one letter per line, or send HELP for the commands")))
    }

    @Test func kindMoveIsNoVerbOfHelpAndNoClientCanSpellIt() {
        #expect(!Verb.allCases.contains(.kindMove))
        #expect(Verb(spelled: Verb.kindMove.rawValue) == nil)
        #expect(CommandTable.specs.allSatisfy { $0.verb != .kindMove })
        #expect(CommandParser.parse(Array(Verb.kindMove.rawValue.utf8)) == .failure(CommandParser.unknownCommand))
    }
}

/// A kind's error codes are typed (GameKit's `KindErrorCode`) and become the
/// protocol's as they are; the protocol's own that kinds use are spelt alike.
@Suite struct KindErrorCodeTests {
    @Test func kindCodesAreTheProtocols() {
        #expect(ErrorCode(KindErrorCode.badValue) == .badValue)
        #expect(ErrorCode(KindErrorCode.badArguments) == .badArguments)
        #expect(ErrorCode(KindErrorCode.notALetter) == .notALetter)
        let own: KindErrorCode = "chain-broken"
        #expect(ErrorCode(own).rawValue == "chain-broken" && own.description == "chain-broken")
    }
}
