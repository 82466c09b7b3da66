import Testing
import GameKit
import WordLists
@testable import HangmanCore

/// Hangman's tables are built once, in the background or by the first use:
/// a use that has to wait for them notes a one-off wait, which
/// the server does not charge to the command that met it (`OneOffWork`,
/// `LineMeter`); a use once they are built notes nothing and takes no lock
/// it has to wait for.
@Suite("Hangman's tables: a one-off wait, noted; none once built")
struct TablesWaitTests {
    @Test("After the tables are built, a use notes no wait; before, at most one per use")
    func noWaitOnceBuilt() {
        let d = Dictionaries(lists: ["en": WordList(words: ["cat", "cog", "dog"])], common: [:])
        let kind = HangmanKind(dictionaries: d, phrases: [:])
        let before = OneOffWork.waits
        #expect(kind.secretWordCount(language: "en") == 3)   // built now, by the background thread or this use
        #expect(OneOffWork.waits - before <= 1)
        let built = OneOffWork.waits
        for _ in 0..<10 { #expect(kind.maxLength(language: "en") == 3) }
        #expect(OneOffWork.waits == built)
    }
}
