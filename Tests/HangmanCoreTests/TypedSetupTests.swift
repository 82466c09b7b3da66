import Testing
import GameKit
@testable import HangmanCore

/// Hangman's setup is a typed value; the store's text is
/// only its stored form, written and read back once.
@Suite struct TypedSetupTests {
    @Test func storedFormRoundTrips() {
        for setup in [HangmanKind.Setup(mode: .evil, length: 5, misses: 8), HangmanKind.Setup(mode: .duel, length: nil, misses: 3),
                      HangmanKind.Setup(mode: .phrase, length: 12, misses: 26)] {
            #expect(HangmanKind.Setup(variant: setup.variant, settings: setup.settings) == setup)
            #expect(GameSetup(setup) == GameSetup(variant: setup.variant, settings: setup.settings))
        }
        #expect(HangmanKind.Setup(mode: .duel, length: nil, misses: 3).settings == "length=any misses=3")
        // What older rows hold: an empty variant is evil, missing settings their defaults.
        #expect(HangmanKind.Setup(variant: "", settings: "") == HangmanKind.Setup(mode: .evil, length: nil, misses: HangmanKind.defaultMisses))
        #expect(HangmanKind.Setup(variant: "nice", settings: "") == nil)
        #expect(HangmanKind.Setup(variant: "fair", settings: "length=x misses=8") == nil)
        #expect(HangmanKind.Setup(variant: "fair", settings: "length=5 misses=27") == nil)
    }

    /// The stored form is read by bytes when it is ASCII (every game's start),
    /// and splits as it did by Characters: the same pairs, quirks included.
    @Test func storedFormReadsAsByCharacters() {
        func read(_ settings: String) -> HangmanKind.Setup? { HangmanKind.Setup(variant: "evil", settings: settings) }
        #expect(read("  length=7   misses=3 ") == HangmanKind.Setup(mode: .evil, length: 7, misses: 3))
        // An empty piece before the first = does not count as the split: the key is misses.
        #expect(read("=misses=4 length=9") == HangmanKind.Setup(mode: .evil, length: 9, misses: 4))
        #expect(read("misses= length=5 colour=red") == HangmanKind.Setup(mode: .evil, length: 5, misses: 8))
        #expect(read("length==5") == nil)
        #expect(read("length=any misses=2 note=café") == HangmanKind.Setup(mode: .evil, length: nil, misses: 2))
        // A space with a combining accent is one Character, not a space: no split there.
        #expect(read("misses=4 \u{301}misses=5") == nil)
    }
}
