import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: restarting the server", .ownThread) struct LobbyRestartTests {
    @Test func aSecondLobbyRestoresAnActiveGame() throws {
        let first = try Harness()
        let t = try first.pairAliceAndBob()
        first.send(1, "p")
        first.send(2, "e")
        _ = first.drain()

        // The server restarts: a new lobby on the same store. A game without
        // a clock is not loaded at start, only on RESUME (Lifecycle.swift).
        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.connectionCount == 0)
        #expect(h.lobby.nextDeadline == nil)
        h.connect(1)
        _ = h.drain()
        h.send(1, "RESUME \(t.alice)")
        #expect(h.drain() == [1: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "ADJOURNED id=1 player=bob grace=60",
                                  "TURN id=1 player=alice fragment=pe last=bob"]])
        #expect(h.lobby.activeGames == 1)
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t.bob)")
        #expect(h.drain() == [
            1: ["RETURNED id=1 player=bob"],
            2: ["OK RESUME id=1", game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment=pe last=bob"],
        ])
        h.send(1, "a")
        h.send(2, "r")
        let over = try #require(h.drain()[1])
        #expect(over.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear"))
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "a", "r"])
        // New games get new ids.
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.contains { $0.hasPrefix("GAME id=2 ") } == true)
    }

    @Test func aSecondLobbyRestoresRoundLanguageAndOffer() throws {
        let first = try Harness()
        let t = try first.pairAliceAndBob()
        first.send(1, "p")
        first.send(1, "LANG nl")
        first.send(2, "ACCEPT")
        first.send(1, "h")
        first.send(1, "RESTART")
        first.disconnect(1)
        _ = first.drain()

        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)   // loaded on RESUME
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t.bob)")
        #expect(h.drain() == [2: ["OK RESUME id=1", game(1, "alice,bob", t.bob, round: 2, lang: "nl"),
                                  "OFFER id=1 player=alice kind=restart", "ADJOURNED id=1 player=alice grace=60",
                                  "TURN id=1 player=bob fragment=h last=alice"]])
        // alice's offer survived the restart and can be accepted.
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=restart",
                                  game(1, "alice,bob", t.bob, round: 3, lang: "nl"),
                                  "ADJOURNED id=1 player=alice grace=60", "TURN id=1 player=alice fragment="]])
    }

    @Test func tooLongFrame() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.lobby.received(.tooLong, from: 1)
        let d = h.drain()
        #expect(d.keys.sorted() == [1])
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .lineTooLong))
    }

    @Test func parseErrorsAreReported() throws {
        let h = try Harness()
        h.named(1, "alice")
        let cases: [([UInt8], ErrorCode)] = [
            (Array("LETTER ab".utf8), .notALetter),
            ([0xFF, 0xFE], .badEncoding),
            (Array("\u{1B}[31m".utf8), .badCharacter),
            (Array("FROB".utf8), .unknownCommand),
            (Array("PING x".utf8), .badArguments),
            (Array("SCORES 101".utf8), .badArguments),
            (Array("SCORES x".utf8), .badArguments),
        ]
        for (bytes, code) in cases {
            h.lobby.received(.line(bytes), from: 1)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, code), "\(bytes)")
        }
    }
}
