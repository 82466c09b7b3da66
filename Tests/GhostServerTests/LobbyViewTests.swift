import Foundation
import Testing
import GhostProtocol
import GhostServer
import GhostStore
import GhostCore
import WordLists

/// `VIEW <id>`: a game in progress as a client that does not
/// know its kind draws it, from the kind's own `view`. Exact lines: the
/// rows, the moves the asker may send now (none when it is not their turn
/// or they watch), never another seat's secret.
@Suite struct LobbyViewTests {
    static let lists: [String: WordList] = [
        "en": WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs", "kettle", "settle", "zephyr", "jail"]),
        "nl": WordList(words: ["huis", "huisje", "kat", "katten"]),
    ]

    private static func ok(id: Int = 1, game: String = "ghost", turn: String, rows: Int, moves: Int) -> String {
        "OK VIEW id=\(id) game=\(game) lang=en turn=\(turn) rows=\(rows) moves=\(moves)"
    }

    @Test("Ghost: the player to move gets the fragment and LETTER; the other player and a watcher the fragment only")
    func ghost() throws {
        let h = try Harness(lists: Self.lists)
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(2, "VIEW 1")
        #expect(h.drain() == [2: ["ROW key=fragment shape=cells value=p - Fragment",
                                  "CAN verb=LETTER takes=letter - add a letter at the end",
                                  Self.ok(turn: "bob", rows: 1, moves: 1)]])
        h.send(1, "view 1")
        #expect(h.drain() == [1: ["ROW key=fragment shape=cells value=p - Fragment", Self.ok(turn: "bob", rows: 1, moves: 0)]])
        h.named(5, "carol")
        h.send(5, "VIEW 1")
        #expect(h.drain() == [5: ["ROW key=fragment shape=cells value=p - Fragment", Self.ok(turn: "bob", rows: 1, moves: 0)]])
        // No such game, a bad id, none given.
        h.send(5, "VIEW 9")
        #expect(h.drain() == [5: ["ERR no-such-game no game in progress has the id 9 that you may see"]])
        h.send(5, "VIEW x")
        h.send(5, "VIEW")
        let bad = h.drain()[5] ?? []
        #expect(bad.count == 2 && bad.allSatisfy { $0.hasPrefix("ERR bad-arguments") }, "\(bad)")
    }

    @Test("A private game: its players view it, anyone else is told it does not exist")
    func privateGame() throws {
        let h = try Harness(lists: Self.lists)
        h.named(1, "alice")
        h.send(1, "NEW bot=easy watch=no")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1]?.last?.hasPrefix("OK VIEW id=1 game=ghost lang=en turn=alice rows=1 moves=1") == true)
        h.named(5, "carol")
        h.send(5, "VIEW 1")
        #expect(h.drain() == [5: ["ERR no-such-game no game in progress has the id 1 that you may see"]])
    }

    @Test("Ghost's variants: Superghost offers the front; bluff and challenge offers CHALLENGE, then WORD or CONCEDE to the challenged; a match shows each seat's letters")
    func ghostVariants() throws {
        var h = try Harness(lists: Self.lists)
        try h.pairInVariant("super", spelled: "super")
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=fragment shape=cells value= - Fragment",
                                 "CAN verb=LETTER takes=letter - add a letter at the end",
                                 "CAN verb=LETTER takes=letter then=front - add a letter at the front",
                                 Self.ok(turn: "alice", rows: 1, moves: 2)])

        h = try Harness(lists: Self.lists)
        try h.pairInVariant("challenge", spelled: "challenge")
        h.send(1, "j")
        h.send(2, "VIEW 1")
        #expect(h.drain()[2]?.suffix(3) == ["CAN verb=LETTER takes=letter - add a letter at the end",
                                            "CAN verb=CHALLENGE takes=none - challenge: no word starts with it",
                                            Self.ok(turn: "bob", rows: 1, moves: 2)])
        h.send(2, "CHALLENGE")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=fragment shape=cells value=j - Fragment",
                                 "CAN verb=WORD takes=word - name a word that starts with it",
                                 "CAN verb=CONCEDE takes=none - give up",
                                 Self.ok(turn: "alice", rows: 1, moves: 2)])

        h = try Harness(lists: Self.lists)
        h.named(1, "alice")
        h.send(1, "NEW rounds=ghost bot=easy")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=fragment shape=cells value= - Fragment",
                                 "ROW key=ghost shape=cells value= seat=alice - Letters of GHOST",
                                 "ROW key=ghost shape=cells value= seat=bot-easy - Letters of GHOST",
                                 "CAN verb=LETTER takes=letter - add a letter at the end",
                                 Self.ok(turn: "alice", rows: 3, moves: 1)])
    }

    @Test("A Hangman duel: the setter is offered WORD, then sees the word as their own row; the guesser and a watcher never do")
    func hangmanDuel() throws {
        let h = try Harness(lists: Self.lists)
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=hangman mode=duel misses=6")
        let code = try #require(Message.parse(h.drain()[1]?.first ?? "")?["code"])
        h.send(2, "JOIN \(code)")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=pattern shape=cells value= - To guess",
                                 "ROW key=missed shape=cells value= - Missed",
                                 "ROW key=left shape=count value=6 max=6 - Misses left",
                                 "CAN verb=WORD takes=word - choose the word the other player guesses",
                                 Self.ok(game: "hangman", turn: "alice", rows: 3, moves: 1)])
        h.send(1, "WORD kettle")
        h.send(2, "z")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=pattern shape=cells value=______ - To guess",
                                 "ROW key=missed shape=cells value=z - Missed",
                                 "ROW key=left shape=count value=5 max=6 - Misses left",
                                 "ROW key=word shape=cells value=kettle - Your word",
                                 Self.ok(game: "hangman", turn: "bob", rows: 4, moves: 0)])
        h.send(2, "VIEW 1")
        let guesser = h.drain()[2] ?? []
        #expect(guesser == ["ROW key=pattern shape=cells value=______ - To guess",
                            "ROW key=missed shape=cells value=z - Missed",
                            "ROW key=left shape=count value=5 max=6 - Misses left",
                            "CAN verb=LETTER takes=letter - guess a letter",
                            "CAN verb=SOLVE takes=word - guess the whole word (wrong costs a miss)",
                            Self.ok(game: "hangman", turn: "bob", rows: 3, moves: 2)])
        h.named(5, "carol")
        h.send(5, "VIEW 1")
        let watcher = h.drain()[5] ?? []
        #expect(watcher.count == 4 && !watcher.joined().contains("kettle"), "\(watcher)")
    }

    @Test("In Dutch the labels and moves are Dutch")
    func dutch() throws {
        let h = try Harness(lists: Self.lists)
        h.named(1, "alice")
        h.send(1, "LANG nl")
        h.send(1, "NEW bot=easy")
        _ = h.drain()
        h.send(1, "VIEW 1")
        #expect(h.drain()[1] == ["ROW key=fragment shape=cells value= - Fragment",
                                 "CAN verb=LETTER takes=letter - een letter achteraan",
                                 "OK VIEW id=1 game=ghost lang=nl turn=alice rows=1 moves=1"])
    }
}
