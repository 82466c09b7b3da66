import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore
import WordLists

/// A duel's setter had to guess the word's length.
/// `NEW game=hangman mode=duel` picked one at random (12 or 16 letters in
/// English) and `WORD kettle` was `ERR not-a-word the word must have 16
/// letters`. Now a duel without `length=` is open (`length=any`) until the
/// setter's word sets it; `length=<n>` still fixes it. alice (1) sets, bob (2)
/// guesses; the English list has words of 3 to 6 letters.
@Suite(.ownThread) struct LobbyHangmanDuelLengthTests {
    static let lists: [String: WordList] = [
        "en": WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs", "kettle", "settle", "zephyr"]),
        "nl": WordList(words: ["huis", "huisje", "kat", "katten"]),
    ]

    private func harness(directory: String? = nil) throws -> Harness {
        try Harness(directory: directory, lists: Self.lists)
    }

    /// alice hosts `NEW game=hangman mode=duel <options>`, bob joins; checks
    /// every line up to the first TURN and returns the tokens (alice's, bob's).
    private func duel(_ h: Harness, _ options: String = "", id: Int = 1, length: String = "any", misses: Int = 8,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (alice: String, bob: String) {
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=hangman mode=duel" + (options.isEmpty ? "" : " " + options))
        let hosted = h.drain()[1] ?? []
        let code = try #require(Message.parse(hosted.first ?? "")?["code"], "\(hosted)", sourceLocation: sourceLocation)
        #expect(hosted == ["OK NEW code=\(code) game=hangman mode=duel lang=en length=\(length) misses=\(misses)",
                           "INFO Give the code \(code) to your opponent: they send JOIN \(code)."], sourceLocation: sourceLocation)
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        let tokens = (alice: try gameToken(d[1], sourceLocation: sourceLocation), bob: try gameToken(d[2], sourceLocation: sourceLocation))
        let turn = "TURN id=\(id) player=alice pattern= missed=- left=\(misses)"
        #expect(d[1] == [game(tokens.alice, id: id, length: length, misses: misses), turn], sourceLocation: sourceLocation)
        #expect(d[2] == ["OK JOIN code=\(code) lang=en", game(tokens.bob, id: id, length: length, misses: misses), turn],
                sourceLocation: sourceLocation)
        return tokens
    }

    private func game(_ token: String, id: Int = 1, players: String = "alice,bob", length: String, misses: Int = 8,
                      extra: String = "") -> String {
        "GAME id=\(id) game=hangman lang=en players=\(players) token=\(token) round=1 mode=duel length=\(length) misses=\(misses)" + extra
    }

    @Test("A duel without length= is open (length=any); the setter's WORD kettle sets 6 letters and the guesser sees ______")
    func theWordSetsTheLength() throws {
        let h = try harness()
        let t = try duel(h)
        h.send(1, "WORD kettle")
        let set = h.drain()
        let moved = ["MOVE id=1 player=alice length=6 pattern=______ missed=- left=8",
                     "TURN id=1 player=bob pattern=______ missed=- left=8"]
        #expect(set == [1: ["OK WORD length=6 pattern=______ missed=- left=8"] + moved, 2: moved])
        h.send(2, "e")
        #expect(h.drain()[2]?.first == "OK LETTER letter=e hit=yes pattern=_e___e missed=- left=8")
        // The state sent again (RESUME on a new connection) says the length now.
        h.disconnect(2)
        _ = h.drain()
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(t.bob)")
        #expect(h.drain()[4] == ["OK RESUME id=1", game(t.bob, length: "6"), "TURN id=1 player=bob pattern=_e___e missed=- left=8"])
        h.send(1, "SOLVE kettle")
        h.send(4, "SOLVE kettle")
        let solved = h.drain()
        #expect(solved[1]?.first == "ERR not-your-turn SOLVE is the guesser's; the setter sets the word with WORD")
        #expect(solved[4]?.prefix(3) == ["OK SOLVE word=kettle hit=yes pattern=kettle missed=- left=8",
                                         "MOVE id=1 player=bob word=kettle hit=yes pattern=kettle missed=- left=8",
                                         "OVER id=1 winner=bob loser=alice reason=solved word=kettle mistakes=0 pattern=kettle"])
    }

    @Test("An open duel refuses a word the list lacks, whatever its length, and changes nothing: WORD of another length then sets that one")
    func anOpenDuelRefusesNonWords() throws {
        let h = try harness()
        _ = try duel(h, "length=any")
        h.send(1, "WORD kettel")
        h.send(1, "WORD " + String(repeating: "a", count: 70))
        h.send(1, "WORD pear")
        let d = h.drain()
        #expect(d[1]?.prefix(3) == ["ERR not-a-word \"kettel\" is not a word of the en list",
                                    "ERR not-a-word \"\(String(repeating: "a", count: 70))\" is not a word of the en list",
                                    "OK WORD length=4 pattern=____ missed=- left=8"])
        #expect(d[2] == ["MOVE id=1 player=alice length=4 pattern=____ missed=- left=8", "TURN id=1 player=bob pattern=____ missed=- left=8"])
    }

    @Test("An explicit length= still fixes a duel's length: WORD kettle in a duel of 4 letters is refused")
    func anExplicitLengthStillHolds() throws {
        let h = try harness()
        _ = try duel(h, "length=4 misses=5", length: "4", misses: 5)
        h.send(1, "WORD kettle")
        h.send(1, "WORD dogs")
        #expect(h.drain()[1]?.prefix(2) == ["ERR not-a-word the word must have 4 letters",
                                            "OK WORD length=4 pattern=____ missed=- left=5"])
    }

    @Test("A saved hangman-length is for the computer's games: it fixes NEW game=hangman, not a duel's length")
    func aSavedLengthIsNotADuels() throws {
        let h = try harness()
        h.named(1, "alice")
        h.send(1, "SET hangman-length 4")
        h.send(1, "NEW game=hangman mode=fair")
        #expect(h.drain()[1]?.prefix(2) == ["OK SET key=hangman-length value=4",
                                            "OK NEW game=hangman mode=fair lang=en length=4 misses=8"])
        h.send(1, "LEAVE")
        _ = h.drain()
        _ = try duel(h, id: 2)
    }

    @Test("Restored after a restart of the server mid-duel: before the word, still open; after WORD kettle, 6 letters from the stored move (the stored settings stay length=any)")
    func restartRecovery() throws {
        let h = try harness()
        let t = try duel(h)
        // A restart before the word is set: still open.
        h.disconnect(1)
        h.disconnect(2)
        let before = try harness(directory: h.directory)
        before.connect(1)
        _ = before.drain()
        before.send(1, "RESUME \(t.alice)")
        #expect(before.drain()[1] == ["OK RESUME id=1", game(t.alice, length: "any"), "ADJOURNED id=1 player=bob grace=60",
                                      "TURN id=1 player=alice pattern= missed=- left=8"])
        before.send(1, "WORD kettle")
        #expect(before.drain()[1]?.first == "OK WORD length=6 pattern=______ missed=- left=8")
        before.connect(2)
        before.send(2, "RESUME \(t.bob)")
        _ = before.drain()
        before.send(2, "t")
        #expect(before.drain()[2]?.first == "OK LETTER letter=t hit=yes pattern=__tt__ missed=- left=8")
        #expect(try before.store.activeGame(id: 1)?.settings == "length=any misses=8")
        before.disconnect(1)
        before.disconnect(2)

        // Restarted after the word: the game is replayed on the 6-letter words.
        let after = try harness(directory: h.directory)
        after.connect(1)
        _ = after.drain()
        after.send(1, "RESUME \(t.alice)")
        #expect(after.drain()[1] == ["OK RESUME id=1", game(t.alice, length: "6", extra: " word=kettle"),
                                     "ADJOURNED id=1 player=bob grace=60", "TURN id=1 player=bob pattern=__tt__ missed=- left=8"])
        after.connect(2)
        _ = after.drain()
        after.send(2, "RESUME \(t.bob)")
        let resumed = after.drain()
        #expect(resumed[2] == ["OK RESUME id=1", game(t.bob, length: "6"), "TURN id=1 player=bob pattern=__tt__ missed=- left=8"])
        after.send(2, "z")
        after.send(2, "SOLVE settle")
        after.send(2, "SOLVE kettle")
        let d = after.drain()
        #expect(d[2]?.first == "OK LETTER letter=z hit=no pattern=__tt__ missed=z left=7")
        #expect(d[2]?.contains("OK SOLVE word=settle hit=no pattern=__tt__ missed=z left=6") == true)
        #expect(d[2]?.contains("OVER id=1 winner=bob loser=alice reason=solved word=kettle mistakes=2 pattern=kettle") == true)
    }

    @Test("REMATCH of an open duel: the roles swap and the length is open again; bob's WORD cat sets 3")
    func rematchIsOpenAgain() throws {
        let h = try harness()
        _ = try duel(h)
        h.send(1, "WORD kettle")
        h.send(2, "SOLVE kettle")
        _ = h.drain()
        h.send(2, "REMATCH")
        h.send(1, "REMATCH")
        let d = h.drain()
        let ta = try gameToken(d[1]), tb = try gameToken(d[2])
        let turn = "TURN id=2 player=bob pattern= missed=- left=8"
        #expect(d[1]?.suffix(3) == ["OK REMATCH status=started", game(ta, id: 2, players: "bob,alice", length: "any", extra: " record=0-1"), turn])
        #expect(d[2]?.suffix(2) == [game(tb, id: 2, players: "bob,alice", length: "any", extra: " record=1-0"), turn])
        h.send(2, "WORD cat")
        let moved = ["MOVE id=2 player=bob length=3 pattern=___ missed=- left=8", "TURN id=2 player=alice pattern=___ missed=- left=8"]
        #expect(h.drain() == [2: ["OK WORD length=3 pattern=___ missed=- left=8"] + moved, 1: moved])
    }

    @Test("SEEK game=hangman pairs two people into an open duel: the first seeker's WORD zephyr sets 6 letters")
    func seekIsOpen() throws {
        let h = try harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK game=hangman")
        h.send(2, "SEEK game=hangman")
        let d = h.drain()
        let ta = try gameToken(d[1]), tb = try gameToken(d[2])
        let turn = "TURN id=1 player=alice pattern= missed=- left=8"
        #expect(d[1]?.suffix(2) == [game(ta, length: "any"), turn])
        #expect(d[2] == ["OK SEEK lang=en", game(tb, length: "any"), turn])
        h.send(1, "WORD zephyr")
        #expect(h.drain()[2] == ["MOVE id=1 player=alice length=6 pattern=______ missed=- left=8",
                                 "TURN id=1 player=bob pattern=______ missed=- left=8"])
    }
}

private func gameToken(_ lines: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let game = try #require(lines?.first { $0.hasPrefix("GAME ") }, sourceLocation: sourceLocation)
    return try #require(Message.parse(game)?["token"], "no token in \(game)", sourceLocation: sourceLocation)
}
