import GameKit
@testable import GhostServer
import Testing

/// A kind that declares the verbs and settings it is given, and plays nothing.
private final class DeclaringKind: GameDefinition {
    let name: String
    let languages = ["en"]
    let moveVerbs: [MoveVerb]
    let settingKeys: [SettingSpec]
    init(_ name: String, verbs: [(String, MoveVerb.Arguments)] = [], settings: [String] = []) {
        self.name = name
        moveVerbs = verbs.map { MoveVerb(name: $0.0, arguments: $0.1, usage: $0.1 == .word ? "<word>" : "", help: "a move") }
        settingKeys = settings.map { SettingSpec(key: $0, option: "x", defaultValue: "1") { value, _ in .success(value) } }
    }
    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any GameKit.Game)? { nil }
    func computerMove(in game: any GameKit.Game, level: BotLevel) -> Move? { nil }
}

/// A kind's declaration that the server could only drop or shadow stops it
/// at start, naming the kind; kinds that share a verb of one shape are fine.
@Suite struct KindDeclarationsTests {
    private func conflict(_ kinds: [any GameDefinition]) -> String? {
        do throws(KindDeclarations.Conflict) {
            try KindDeclarations.check(kinds)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a protocol verb, a malformed verb, one verb of two shapes, a setting twice, a name twice")
    func conflicts() {
        #expect(conflict([DeclaringKind("a", verbs: [("LEAVE", .word)])]) == "game kind a declares the verb LEAVE, which is the protocol's")
        #expect(conflict([DeclaringKind("a", verbs: [("GO2", .none)])]) == "game kind a declares the verb GO2: a kind's verb is 2 to 16 letters A-Z")
        #expect(conflict([DeclaringKind("a", verbs: [("PASS", .none)]), DeclaringKind("b", verbs: [("PASS", .word)])])
                == "game kinds a and b both declare PASS, taking different arguments")
        #expect(conflict([DeclaringKind("a", settings: ["a-x"]), DeclaringKind("b", settings: ["a-x"])])
                == "game kinds a and b both declare the setting a-x")
        #expect(conflict([DeclaringKind("a"), DeclaringKind("a")]) == "two game kinds are named a")
        #expect(conflict([DeclaringKind("a", verbs: [("PASS", .none)]), DeclaringKind("b", verbs: [("PASS", .none)])]) == nil)
    }

    @Test("the lobby refuses to start with such a kind beside ghostd's, whose LETTER and WORD take other arguments, and which name a hangman- setting themselves")
    func lobbyRefuses() throws {
        #expect(throws: KindDeclarations.Conflict(description: "game kind clash declares the verb LEAVE, which is the protocol's")) {
            _ = try Harness(extraKinds: [DeclaringKind("clash", verbs: [("LEAVE", .word)])])
        }
        #expect(throws: KindDeclarations.Conflict(description: "game kinds hangman and clash both declare LETTER, taking different arguments")) {
            _ = try Harness(extraKinds: [DeclaringKind("clash", verbs: [("LETTER", .word)])])
        }
        #expect(throws: KindDeclarations.Conflict(description: "game kinds hangman and clash both declare the setting hangman-mode")) {
            _ = try Harness(extraKinds: [DeclaringKind("clash", settings: ["hangman-mode"])])
        }
    }
}
