import Testing
@testable import GhostCore
import WordLists
import GameKit

/// Ghost's variants are separate types over one `GhostRound`: the kind builds
/// the variant's type from `variant=`, and each refuses the moves that are
/// another variant's before the shared guards.
@Suite struct VariantTests {
    static let words = WordList(words: ["pear", "pears", "jail", "acrobat", "crop"])
    static let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": words]))

    @Test func theKindBuildsEachVariantsType() throws {
        let plain = VariantTests.kind.newGame(language: "en", variant: "", settings: "", seed: 1, starter: 1)
        let superghost = VariantTests.kind.newGame(language: "en", variant: "super", settings: "", seed: 1, starter: 0)
        let challenge = VariantTests.kind.newGame(language: "en", variant: "challenge", settings: "", seed: 1, starter: 0)
        #expect(try #require(plain as? PlainGhost).toMove == 1)
        #expect(try #require(superghost as? Superghost).setupFields == [Field("variant", "super")])
        #expect(try #require(challenge as? ChallengeGhost).setupFields == [Field("variant", "challenge")])
        #expect(VariantTests.kind.newGame(language: "en", variant: "other", settings: "", seed: 1, starter: 0) == nil)
    }

    @Test func aVariantsOwnRefusalComesBeforeTheSharedGuards() throws {
        let rules = GhostRules(words: VariantTests.words)
        var plain = PlainGhost(rules: rules)
        // Out of turn, a move of another variant is still refused as such.
        #expect(throws: MoveError.notAMove("in Ghost letters go at the end: LETTER <c> front is for variant=super")) {
            try plain.play(.front(L("p")), by: 1)
        }
        #expect(throws: MoveError.notYourTurn) { try plain.play(.letter(L("p")), by: 1) }
        var bluff = ChallengeGhost(rules: rules)
        #expect(throws: MoveError.notYourTurn) { try bluff.play(.challenge, by: 1) }
        #expect(throws: MoveError.notAMove("in Ghost letters go at the end: LETTER <c> front is for variant=super")) {
            try bluff.play(.front(L("p")), by: 0)
        }
        #expect(plain.moveCount == 0 && bluff.moveCount == 0)
    }

    @Test func theSameLettersEndPlainGhostButNotTheBluff() throws {
        let rules = GhostRules(words: VariantTests.words)
        var plain = PlainGhost(rules: rules)
        var bluff = ChallengeGhost(rules: rules)
        try plain.play(L("q"), by: 0)
        try bluff.play(L("q"), by: 0)
        #expect(plain.outcome == Outcome(loser: 0, reason: .dead))
        #expect(bluff.outcome == nil && bluff.isDeadFragment && bluff.node == -1 && bluff.toMove == 1)
        #expect(plain.fields(after: .letter(L("q"))) == bluff.fields(after: .letter(L("q"))))
    }
}
