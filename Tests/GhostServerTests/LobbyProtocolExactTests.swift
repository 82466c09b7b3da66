import Foundation
import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

// Protocol.md exact: where the document and the server
// disagreed and the server changed, on `lobbyLists` (en: pea, pear, peach,
// cat, cats, dog, dogs; nl: huis, huisje, kat, katten; no phrase lists).

@Suite struct LobbyProtocolExactTests {
    /// A challenge answer that is not letters is Ghost's `bad-word` (it was
    /// the parser's `bad-arguments`, with Hangman's text), and nothing changes.
    @Test func aChallengeAnswerThatIsNotLettersIsBadWord() throws {
        let h = try Harness()
        _ = try h.pairInVariant("challenge", spelled: "challenge")
        h.send(1, "c")
        h.send(2, "q")
        h.send(1, "CHALLENGE")
        _ = h.drain()
        h.send(2, "WORD qz1r")
        h.send(2, "WORD qzér")
        h.send(2, "WORD cq1r")
        let badWord = "ERR bad-word answer with a word that starts with \"cq\" and is longer, or CONCEDE"
        #expect(h.drain() == [2: [badWord, badWord, badWord]])
        h.send(2, "CONCEDE")
        #expect(h.drain()[2]?.first == "OK CONCEDE fragment=cq")
    }

    /// A Hangman setter's WORD is still checked as an answer: bad-arguments.
    @Test func aHangmanSettersWordOfOtherCharactersIsBadArguments() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.named(2, "ben")
        h.send(1, "NEW game=hangman mode=duel length=3")
        let code = try #require(h.drain()[1]?.first?.split(separator: " ").first { $0.hasPrefix("code=") }?.dropFirst(5))
        h.send(2, "JOIN \(code)")
        _ = h.drain()
        h.send(1, "WORD c4t")
        h.send(1, "WORD cat")
        #expect(h.drain()[1]?.prefix(2) == ["ERR bad-arguments an answer is letters a-z, with / between the words of a phrase",
                                            "OK WORD length=3 pattern=___ missed=- left=8"])
    }

    /// rounds=ghost with Hangman, on NEW and SEEK alike: refused as
    /// variant= is, and no seek queue is made.
    @Test func roundsGhostWithHangmanIsRefused() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.send(1, "NEW game=hangman rounds=ghost")
        h.send(1, "NEW game=hangman mode=duel rounds=ghost")
        h.send(1, "SEEK game=hangman rounds=ghost")
        h.send(1, "PING")
        let refused = "ERR bad-arguments rounds=ghost plays a match; hangman plays single games"
        #expect(h.drain() == [1: [refused, refused, refused, "OK PING"]])
    }

    /// A saved length that the language no longer has is refused at NEW
    /// with bad-value, naming the setting (it was silently re-picked); an
    /// explicit length= still plays.
    @Test func aSavedLengthThatNoLongerFitsIsRefusedAtNew() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.send(1, "LANG nl")
        h.send(1, "SET hangman-length 6")
        h.send(1, "LANG en")
        _ = h.drain()
        h.send(1, "NEW game=hangman")
        #expect(h.drain() == [1: ["ERR bad-value your saved hangman-length 6 does not fit here (no word of 6 letters in the en list): give length= or SET hangman-length"]])
        h.send(1, "NEW game=hangman length=5")
        #expect(h.drain()[1]?.first == "OK NEW game=hangman mode=evil lang=en length=5 misses=8")
    }

    /// SET hangman-mode phrase in a language without phrases: no-phrases,
    /// as NEW game=hangman mode=phrase there is; nothing is saved.
    @Test func phraseModeIsRefusedWhereThereAreNoPhrases() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.send(1, "SET hangman-mode phrase")
        h.send(1, "NEW game=hangman mode=phrase")
        #expect(h.drain() == [1: ["ERR no-phrases no phrase list for en", "ERR no-phrases no phrase list for en"]])
        #expect(try h.store.preferences(for: "ann")["hangman-mode"] == nil)
        h.send(1, "SET hangman-mode fair")
        #expect(h.drain() == [1: ["OK SET key=hangman-mode value=fair"]])
    }
}
