import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer

/// Resume tokens that name their game and seat (schema 14): 12
/// hex digits of `id * 2 + seat`, then 80 random bits. RESUME finds the
/// game by the id and checks the secret: a token that differs in one digit,
/// or names another seat or game, is refused as an unknown token is.
@Suite(.ownThread) struct LobbyResumeTokenTests {
    /// `token` with its digit at `i` changed.
    private func changed(_ token: String, at i: Int) -> String {
        var bytes = Array(token.utf8)
        bytes[i] = bytes[i] == UInt8(ascii: "7") ? UInt8(ascii: "8") : UInt8(ascii: "7")
        return String(decoding: bytes, as: UTF8.self)
    }

    private let unknown = "ERR bad-token no game in progress has that token"

    @Test func eachTokenStartsWithItsGameAndSeat() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        #expect(t.alice.hasPrefix("000000000002") && t.bob.hasPrefix("000000000003"), "\(t)")
        #expect(t.alice.dropFirst(12) != t.bob.dropFirst(12))
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(3, "SEEK")
        h.send(4, "SEEK")
        let d = h.drain()
        #expect(try token(d[3]).hasPrefix("000000000004") && token(d[4]).hasPrefix("000000000005"))
    }

    @Test func aGameOutOfMemoryComesBackOnlyForItsExactToken() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        _ = h.drain()
        h.disconnect(1)
        h.disconnect(2)
        h.clock.advance(60)
        h.tick()
        _ = h.drain()
        #expect(h.lobby.activeGames == 0)
        h.connect(3)
        _ = h.drain()
        let bad = [changed(t.alice, at: 12), changed(t.alice, at: 20), changed(t.alice, at: 31),
                   "000000000003" + t.alice.dropFirst(12),   // bob's seat, alice's secret
                   "000000000002" + t.bob.dropFirst(12),     // alice's seat, bob's secret
                   "000000000004" + t.alice.dropFirst(12),   // a game that does not exist
                   t.alice.uppercased()]
        for token in bad {
            h.send(3, "RESUME \(token)")
            #expect(h.drain() == [3: [unknown]], "\(token)")
        }
        #expect(h.lobby.activeGames == 0)
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain()[3]?.first == "OK RESUME id=1")
    }

    @Test func aFinishedGameIsToldOnlyForItsExactToken() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "LEAVE")
        _ = h.drain()
        h.connect(3)
        _ = h.drain()
        for token in [changed(t.bob, at: 25), "000000000002" + t.bob.dropFirst(12)] {
            h.send(3, "RESUME \(token)")
            #expect(h.drain() == [3: [unknown]], "\(token)")
        }
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain()[3]?.first == "OK RESUME id=1 status=over")
    }
}
