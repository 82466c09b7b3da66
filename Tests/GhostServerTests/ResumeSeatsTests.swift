@testable import GhostServer
import Testing

/// `Rooms.tokens` (Rooms.swift): a token that names its own game and seat is
/// found through its room, not kept; only tokens of another form are kept.
@Suite struct ResumeSeatsTests {
    private func seat(_ h: Harness, _ token: String) -> [Int]? {
        h.lobby.rooms.tokens[token].map { [$0.game, $0.seat] }
    }

    @Test func aTokenThatNamesItsSeatLeadsThereWithoutBeingKept() throws {
        let h = try Harness()
        let (alice, bob) = try h.pairAliceAndBob()
        #expect(h.lobby.rooms.otherTokens.isEmpty)
        #expect(seat(h, alice) == [1, 0])
        #expect(seat(h, bob) == [1, 1])
        // The same first digits with another secret lead nowhere; nor do bob's digits with alice's secret.
        let forged = String(alice.prefix(12)) + String(repeating: "0", count: 20)
        #expect(forged != alice)
        #expect(seat(h, forged) == nil)
        #expect(seat(h, String(bob.prefix(12)) + String(alice.dropFirst(12))) == nil)
        // The game ends: its tokens lead nowhere.
        h.send(1, "p")
        h.send(1, "LEAVE")
        _ = h.drain()
        #expect(h.lobby.rooms[1] == nil)
        #expect(seat(h, alice) == nil)
        #expect(seat(h, bob) == nil)
    }

    @Test func aTokenOfAnotherFormIsKeptUntilCleared() throws {
        let h = try Harness()
        _ = try h.pairAliceAndBob()
        // Its first digits name game 9's seat 0, not game 1's seat 1.
        let old = "0000000000120123456789abcdef0123"
        h.lobby.rooms.tokens[old] = (1, 1)
        #expect(seat(h, old) == [1, 1])
        #expect(h.lobby.rooms.otherTokens.count == 1)
        h.lobby.rooms.tokens[old] = nil
        #expect(seat(h, old) == nil)
        #expect(h.lobby.rooms.otherTokens.isEmpty)
    }

    @Test func theFirstDigitsNameAGameAndSeat() {
        #expect(Rooms.named("000000000002" + String(repeating: "f", count: 20)).map { [$0.game, $0.seat] } == [1, 0])
        #expect(Rooms.named("00000000002b" + String(repeating: "0", count: 20)).map { [$0.game, $0.seat] } == [21, 1])
        #expect(Rooms.named("000000000001" + String(repeating: "0", count: 20)) == nil)   // no game 0
        #expect(Rooms.named("00000000000G" + String(repeating: "0", count: 20)) == nil)
        #expect(Rooms.named("00000000002") == nil)
    }
}
