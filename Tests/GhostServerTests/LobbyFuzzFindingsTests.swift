import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

/// Regression tests for what the lobby fuzzer found (LobbyFuzzTests.swift),
/// each as the shortest trail it shrank to, written out by hand.
@Suite struct LobbyFuzzFindingsTests {
    /// LANG in a Hangman game whose length the other language has no word
    /// of: the round cannot restart there. It was answered `ERR store-failed`
    /// (the store had not failed); it is refused as a value that does not fit.
    @Test func langToALanguageWithoutTheGamesLength() throws {
        let h = try Harness()
        h.named(1, "carol")
        h.send(1, "NEW game=hangman mode=fair length=5")
        _ = h.drain()
        h.send(1, "LANG nl")
        #expect(h.drain() == [1: ["ERR bad-value this game cannot be played in nl as it is set up (length=5 misses=8); LEAVE it and start one in nl"]])
        // The game goes on in English.
        h.send(1, "e")
        #expect(h.drain()[1]?.first == "OK LETTER letter=e hit=yes pattern=_e___ missed=- left=8")
    }
}
