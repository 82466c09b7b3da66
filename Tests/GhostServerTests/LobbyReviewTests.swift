import Foundation
import Testing
import TestSupport
import GhostProtocol
import GhostServer
import GhostCore

/// `MOVES <id>` and `REVIEW <id>`, on the lobby's small word
/// lists (en: pea, pear, peach, cat, cats, dog, dogs). In Ghost on them the
/// first player wins by c or d, and p loses: p e a r is a game alice loses
/// by her first letter and bob throws away (r at "pea", where c won).
@Suite(.ownThread) struct LobbyReviewTests {
    /// alice p, bob e, alice a, bob r: bob makes "pear" and loses.
    private func pearGame(_ h: Harness) throws {
        try h.pairAliceAndBob()
        for (who, letter) in [(1, "p"), (2, "e"), (1, "a"), (2, "r")] { h.send(who, letter) }
        _ = h.drain()
    }

    private func code(_ lines: [String]?) throws -> String {
        let ok = try #require(lines?.first { $0.hasPrefix("OK NEW code=") })
        return try #require(Message.parse(ok)?["code"])
    }

    @Test("MOVES of a finished game: one PLAYED line per move, oldest first, then OK MOVES … status=over; anyone may ask")
    func movesOfAFinishedGame() throws {
        let h = try Harness()
        try pearGame(h)
        h.connect(5)
        _ = h.drain()
        h.send(5, "MOVES 1")
        #expect(h.drain() == [5: ["PLAYED n=1 round=1 player=alice play=p", "PLAYED n=2 round=1 player=bob play=e",
                                  "PLAYED n=3 round=1 player=alice play=a", "PLAYED n=4 round=1 player=bob play=r",
                                  "OK MOVES id=1 count=4 more=no status=over"]])
        h.send(5, "MOVES 2")
        #expect(h.drain() == [5: ["ERR no-such-game no game has the id 2 that you may see"]])
        h.send(5, "MOVES x")
        #expect(h.drain() == [5: ["ERR bad-arguments MOVES takes a game's id, a number"]])
        h.send(5, "MOVES")
        #expect(h.drain() == [5: ["ERR bad-arguments usage: MOVES <id>"]])
    }

    @Test("MOVES of a live game anyone may watch, from a third party and from a player; status=live")
    func movesOfALiveGame() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.named(3, "carol")
        _ = h.drain()
        let live = ["PLAYED n=1 round=1 player=alice play=p", "PLAYED n=2 round=1 player=bob play=e",
                    "OK MOVES id=1 count=2 more=no status=live"]
        h.send(3, "MOVES 1")
        #expect(h.drain() == [3: live])
        h.send(1, "MOVES 1")
        #expect(h.drain() == [1: live])
        // REVIEW waits for the end: it would be perfect play for sale.
        h.send(3, "REVIEW 1")
        #expect(h.drain() == [3: ["ERR not-over game 1 is in progress: it can be reviewed once it is over"]])
    }

    @Test("A private game (watch=no) is no-such-game to a third party, in progress and over; its players see it")
    func privateGames() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(4, "dave")
        h.send(4, "NEW bot=easy watch=no")
        h.send(4, "p")
        h.named(3, "carol")
        _ = h.drain()
        h.send(3, "MOVES 1")
        #expect(h.drain() == [3: ["ERR no-such-game no game has the id 1 that you may see"]])
        h.send(4, "MOVES 1")
        let dave = try #require(h.drain()[4])
        #expect(dave.first == "PLAYED n=1 round=1 player=dave play=p")
        #expect(dave.last?.hasPrefix("OK MOVES id=1 count=2 more=no status=live") == true)
        h.send(4, "LEAVE")
        _ = h.drain()
        h.send(3, "MOVES 1")
        h.send(3, "REVIEW 1")
        #expect(h.drain() == [3: ["ERR no-such-game no game has the id 1 that you may see",
                                  "ERR no-such-game no game has the id 1 that you may see"]])
        // The same name on another connection is that player (a guest's name is whoever holds it).
        h.send(4, "REVIEW 1")
        #expect(h.drain()[4]?.last?.hasPrefix("OK REVIEW id=1 ") == true)
    }

    @Test("REVIEW of a finished Ghost game: each ply's outcome under perfect play, better letters where a win was lost, the first mistake")
    func reviewAGhostGame() throws {
        let h = try Harness()
        try pearGame(h)
        h.connect(5)
        _ = h.drain()
        h.send(5, "REVIEW 1")
        #expect(h.drain() == [5: ["PLY n=1 player=alice play=p fragment=p outcome=loss better=c,d",
                                  "PLY n=2 player=bob play=e fragment=pe outcome=win",
                                  "PLY n=3 player=alice play=a fragment=pea outcome=loss",
                                  "PLY n=4 player=bob play=r fragment=pear outcome=loss better=c",
                                  "OK REVIEW id=1 mistake=1"]])
        h.send(5, "REVIEW 7")
        #expect(h.drain() == [5: ["ERR no-such-game no game has the id 7 that you may see"]])
    }

    @Test("REVIEW of a match names each ply's round, and the round of the first mistake")
    func reviewAMatch() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK rounds=ghost")
        h.send(2, "SEEK rounds=ghost")
        // Round 1, alice first: c a t s, bob makes "cats" (lost from his first letter on: no mistake).
        // Round 2, bob first: p, his mistake (c or d won); then he leaves.
        for (who, line) in [(1, "c"), (2, "a"), (1, "t"), (2, "s"), (2, "p"), (1, "e"), (2, "LEAVE")] { h.send(who, line) }
        _ = h.drain()
        h.send(1, "REVIEW 1")
        #expect(h.drain() == [1: ["PLY n=1 round=1 player=alice play=c fragment=c outcome=win",
                                  "PLY n=2 round=1 player=bob play=a fragment=ca outcome=loss",
                                  "PLY n=3 round=1 player=alice play=t fragment=cat outcome=win",
                                  "PLY n=4 round=1 player=bob play=s fragment=cats outcome=loss",
                                  "PLY n=1 round=2 player=bob play=p fragment=p outcome=loss better=c,d",
                                  "PLY n=2 round=2 player=alice play=e fragment=pe outcome=win",
                                  "OK REVIEW id=1 mistake=1 round=2"]])
    }

    @Test("REVIEW of a Superghost game: front letters written <c, outcomes by the Superghost solver")
    func reviewSuperghost() throws {
        let h = try Harness()
        try h.pairInVariant("super", spelled: "SUPER")
        // e, a, p at the front, r: bob makes "pear". At "e" the front p wins; at "ea" r; at "pea" c.
        for (who, line) in [(1, "e"), (2, "a"), (1, "LETTER p front"), (2, "r")] { h.send(who, line) }
        _ = h.drain()
        // Superghost's solver is built off the lobby's thread from the game's
        // start: until it is, REVIEW answers `ERR not-ready`. Wait for it (an
        // event, whatever the machine's speed), then ask.
        let until = Date().addingTimeInterval(60)
        while Date() < until {
            h.send(3, "REVIEW 1")
            guard h.drain()[3]?.first?.hasPrefix("ERR not-ready") == true else { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        h.send(3, "REVIEW 1")
        let list = try #require(lobbyLists["en"])
        let s = SuperSolver(rules: GhostRules(words: list, language: "en", infixes: Infixes(words: list)))
        let first = s.isWinning("")
            ? "PLY n=1 player=alice play=e fragment=e outcome=loss better=" + s.winningPlays("").map(\.description).joined(separator: ",")
            : "PLY n=1 player=alice play=e fragment=e outcome=loss"
        #expect(h.drain() == [3: [first,
                                  "PLY n=2 player=bob play=a fragment=ea outcome=loss better=<p",
                                  "PLY n=3 player=alice play=<p fragment=pea outcome=loss better=r",
                                  "PLY n=4 player=bob play=r fragment=pear outcome=loss better=c",
                                  s.isWinning("") ? "OK REVIEW id=1 mistake=1" : "OK REVIEW id=1 mistake=2"]])
    }

    @Test("A restarted round: MOVES lists it under its own round number; REVIEW leaves it out (it counts for nothing)")
    func restartedRound() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.named(3, "carol")
        for (who, line) in [(1, "p"), (1, "RESTART"), (2, "ACCEPT"), (1, "c"), (2, "a"), (1, "LEAVE")] { h.send(who, line) }
        _ = h.drain()
        h.send(3, "MOVES 1")
        #expect(h.drain() == [3: ["PLAYED n=1 round=1 player=alice play=p", "PLAYED n=1 round=2 player=alice play=c",
                                  "PLAYED n=2 round=2 player=bob play=a", "OK MOVES id=1 count=3 more=no status=over"]])
        h.send(3, "REVIEW 1")
        #expect(h.drain() == [3: ["PLY n=1 player=alice play=c fragment=c outcome=win",
                                  "PLY n=2 player=bob play=a fragment=ca outcome=loss", "OK REVIEW id=1 mistake=none"]])
    }

    @Test("MOVES and REVIEW read at most the last 600 moves (Replay.maxMoves): more=yes; a round cut at its start is not reviewed")
    func boundedByTheLimit() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW bot=easy")
        // Against the computer a restart is at once: each round here is alice's letter and the computer's.
        for _ in 0...(Replay.maxMoves / 2) {
            h.send(1, "c")
            h.send(1, "RESTART")
        }
        // The last round: d, the computer's o (the only letter that does not lose at once), and x: "dox" ends the game.
        h.send(1, "d")
        h.send(1, "x")
        _ = h.drain()
        h.send(1, "MOVES 1")
        let moves = try #require(h.drain()[1])
        #expect(moves.count == Replay.maxMoves + 1)
        #expect(moves.last == "OK MOVES id=1 count=600 more=yes status=over")
        // 605 moves: the newest 600 start with the computer's reply of round 3, whose first move is cut off.
        #expect(moves[0].hasPrefix("PLAYED n=2 round=3 player=bot-easy play="), "\(moves[0])")
        #expect(Array(moves.suffix(4)) == ["PLAYED n=1 round=302 player=alice play=d", "PLAYED n=2 round=302 player=bot-easy play=o",
                                          "PLAYED n=3 round=302 player=alice play=x", "OK MOVES id=1 count=600 more=yes status=over"])
        // The cut round and the restarted ones are left out: only the last is reviewed.
        h.send(1, "REVIEW 1")
        #expect(h.drain() == [1: ["PLY n=1 player=alice play=d fragment=d outcome=win",
                                  "PLY n=2 player=bot-easy play=o fragment=do outcome=loss",
                                  "PLY n=3 player=alice play=x fragment=dox outcome=loss better=g",
                                  "OK REVIEW id=1 mistake=3"]])
    }

    @Test("A Hangman duel: the setter's word is play=hidden in MOVES until the end, for everyone; then it is shown")
    func hangmanDuelWordHidden() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.send(1, "NEW game=hangman mode=duel length=4")
        h.send(2, "JOIN \(try code(h.drain()[1]))")
        h.send(1, "WORD pear")
        h.send(2, "e")
        _ = h.drain()
        let hidden = ["PLAYED n=1 round=1 player=alice play=hidden", "PLAYED n=2 round=1 player=bob play=e",
                      "OK MOVES id=1 count=2 more=no status=live"]
        for who in [1, 2, 3] {
            h.send(who, "MOVES 1")
            #expect(h.drain() == [who: hidden])
        }
        h.send(2, "SOLVE pear")
        _ = h.drain()
        h.send(3, "MOVES 1")
        #expect(h.drain() == [3: ["PLAYED n=1 round=1 player=alice play=word:pear", "PLAYED n=2 round=1 player=bob play=e",
                                  "PLAYED n=3 round=1 player=bob play=word:pear", "OK MOVES id=1 count=3 more=no status=over"]])
    }

    @Test("Hangman against the computer: MOVES holds only the guesses; the computer's word is in no line before the end")
    func hangmanComputerWordHidden() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(3, "carol")
        h.send(1, "NEW game=hangman mode=fair length=4")
        h.send(1, "e")
        _ = h.drain()
        h.send(3, "MOVES 1")
        let before = try #require(h.drain()[3])
        #expect(before == ["PLAYED n=1 round=1 player=alice play=e", "OK MOVES id=1 count=1 more=no status=live"])
        h.send(1, "LEAVE")
        let over = try #require(h.drain()[1]?.first { $0.hasPrefix("OVER ") })
        let word = try #require(Message.parse(over)?["word"])
        #expect(word.utf8.count == 4)
        #expect(!before.contains { $0.contains(word) })
    }
}
