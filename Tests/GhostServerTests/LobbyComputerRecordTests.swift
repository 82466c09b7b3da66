import Foundation
import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer

/// Against the computer the score was counted by the
/// client (and lost when it restarted). The server now keeps the person's
/// record against the computer, per level and variant, and sends it as GAME's
/// `record=` (the receiver's wins first), as between two people.
///
/// On the lobby's lists the first player wins with c (c, a, t, then the
/// computer must make "cats") and loses with p.
@Suite(.ownThread) struct LobbyComputerRecordTests {
    private func harness(directory: String? = nil, scoresFor: ScoresFor = .all) throws -> Harness {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        settings.scoresFor = scoresFor
        return try Harness(directory: directory, settings: settings)
    }

    /// The GAME line among `lines`, with its token replaced by `<t>`.
    private func gameLine(_ lines: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let line = try #require(lines?.first { $0.hasPrefix("GAME ") }, "no GAME in \(lines ?? [])", sourceLocation: sourceLocation)
        let token = try #require(Message.parse(line)?["token"], sourceLocation: sourceLocation)
        return line.replacingOccurrences(of: token, with: "<t>")
    }

    /// alice (connection 1) starts `new` and wins it (c, t).
    private func win(_ h: Harness, _ new: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        h.send(1, new)
        let game = try gameLine(h.drain()[1], sourceLocation: sourceLocation)
        h.send(1, "c")
        h.send(1, "t")
        let end = h.drain()[1] ?? []
        #expect(end.contains { $0.hasPrefix("OVER ") && $0.contains(" winner=alice ") }, "\(end)", sourceLocation: sourceLocation)
        return game
    }

    /// alice starts `new`, plays a letter and leaves: a loss (`reason=left`).
    private func lose(_ h: Harness, _ new: String, letter: String = "p",
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        h.send(1, new)
        let game = try gameLine(h.drain()[1], sourceLocation: sourceLocation)
        h.send(1, letter)
        h.send(1, "LEAVE")
        let end = h.drain()[1] ?? []
        #expect(end.contains { $0.hasPrefix("OVER ") && $0.contains(" loser=alice ") && $0.contains(" reason=left") }, "\(end)",
                sourceLocation: sourceLocation)
        return game
    }

    @Test("GAME against the computer carries the person's record against it at that level (record=), from the store; per level and variant; the receiver's wins first whichever seat; it survives a restart")
    func recordAgainstTheComputer() throws {
        let first = try harness()
        do {
            let h = first
            h.named(1, "alice")
            // The first game against Hard: no record yet.
            #expect(try win(h, "NEW bot=hard") == "GAME id=1 game=ghost lang=en players=alice,bot-hard token=<t> round=1 bot=hard")
            // The second: alice has won one.
            #expect(try lose(h, "NEW bot=hard") == "GAME id=2 game=ghost lang=en players=alice,bot-hard token=<t> round=1 bot=hard record=1-0")
            // The computer first: still alice's wins first (1-1).
            h.send(1, "NEW bot=hard first=bot")
            #expect(try gameLine(h.drain()[1]) == "GAME id=3 game=ghost lang=en players=bot-hard,alice token=<t> round=1 bot=hard record=1-1")
            h.send(1, "LEAVE")   // before any move of hers: aborted, not counted
            _ = h.drain()
            // Another level, another record: none yet against Easy.
            #expect(try lose(h, "NEW bot=easy") == "GAME id=4 game=ghost lang=en players=alice,bot-easy token=<t> round=1 bot=easy")
            // A match counts once, after the match fields.
            h.send(1, "NEW bot=easy rounds=ghost")
            #expect(try gameLine(h.drain()[1]) == "GAME id=5 game=ghost lang=en players=alice,bot-easy token=<t> round=1 bot=easy rounds=ghost ghost=, record=0-1")
            h.send(1, "LEAVE")
            _ = h.drain()
            // Another variant, another record.
            h.send(1, "NEW bot=hard variant=super")
            #expect(try gameLine(h.drain()[1]).hasSuffix(" bot=hard variant=super"))
            h.send(1, "LEAVE")
            _ = h.drain()
            // Nobody else's: bob has none against Hard.
            h.named(2, "bob")
            h.send(2, "NEW bot=hard")
            #expect(h.drain()[2]?.first { $0.hasPrefix("GAME ") }?.contains("record=") == false)
            h.send(2, "LEAVE")
            _ = h.drain()
            #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bot-hard") == (1, 1))
            #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bot-easy") == (0, 1))
        }
        // After a restart (a new lobby on the same store), and on RESUME.
        first.disconnect(1)
        first.disconnect(2)
        let h = try harness(directory: first.directory)
        h.named(1, "Alice")
        h.send(1, "NEW bot=hard")
        let start = h.drain()[1]
        #expect(try gameLine(start) == "GAME id=8 game=ghost lang=en players=Alice,bot-hard token=<t> round=1 bot=hard record=1-1")
        let startLine = try #require(start?.first { $0.hasPrefix("GAME ") })
        let token = try #require(Message.parse(startLine)?["token"])
        h.disconnect(1)
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(token)")
        #expect(try gameLine(h.drain()[3]) == "GAME id=8 game=ghost lang=en players=Alice,bot-hard token=<t> round=1 bot=hard record=1-1")
    }

    @Test("Hangman against the computer: the record is per mode (record= after the mode's fields)")
    func hangmanRecordPerMode() throws {
        let h = try harness()
        h.named(1, "alice")
        #expect(try lose(h, "NEW game=hangman mode=evil length=4 misses=6", letter: "e")
                == "GAME id=1 game=hangman lang=en players=bot-hangman,alice token=<t> round=1 mode=evil length=4 misses=6")
        h.send(1, "NEW game=hangman mode=evil length=4 misses=6")
        #expect(try gameLine(h.drain()[1])
                == "GAME id=2 game=hangman lang=en players=bot-hangman,alice token=<t> round=1 mode=evil length=4 misses=6 record=0-1")
        h.send(1, "LEAVE")
        _ = h.drain()
        // Fair is another board: no record there yet.
        h.send(1, "NEW game=hangman mode=fair length=4 misses=6")
        #expect(try gameLine(h.drain()[1])
                == "GAME id=3 game=hangman lang=en players=bot-hangman,alice token=<t> round=1 mode=fair length=4 misses=6")
    }

    @Test("--scores-for registered: a guest's games against the computer keep no record; a registered name's do")
    func registeredOnly() throws {
        let h = try harness(scoresFor: .registered)
        h.named(1, "alice")
        _ = try lose(h, "NEW bot=hard")
        h.send(1, "NEW bot=hard")
        #expect(try gameLine(h.drain()[1]) == "GAME id=2 game=ghost lang=en players=alice,bot-hard token=<t> round=1 bot=hard")
        h.send(1, "LEAVE")
        _ = h.drain()
        h.send(1, "REGISTER correct horse battery")
        #expect(h.drain()[1] == ["OK REGISTER name=alice"])
        _ = try lose(h, "NEW bot=hard")   // registered now: the record counts it (never rated)
        h.send(1, "NEW bot=hard")
        let line = try gameLine(h.drain()[1])
        #expect(line == "GAME id=4 game=ghost lang=en players=alice,bot-hard token=<t> round=1 bot=hard record=0-1", "\(line)")
    }
}
