@testable import GhostServer
import GameKit
import Testing

/// `SeatPair` (SeatPair.swift): a room's per-seat facts held in place, read
/// and changed by seat as the arrays it replaces were.
@Suite struct SeatPairTests {
    @Test func eachSeatHoldsItsOwnValue() {
        var moved = SeatPair(false, false)
        #expect(!moved.contains(true))
        moved[1] = true
        #expect(moved[0] == false && moved[1] == true)
        #expect(Array(moved) == [false, true])
        #expect(moved.contains(true))
        moved[0] = true
        #expect(moved == SeatPair(true, true))
        #expect(moved.indices == 0..<2)
        #expect(!moved.indices.contains(2))
    }

    @Test func aRoomAsksItsOccupantsBySeat() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        _ = h.drain()
        let room = try #require(h.lobby.rooms[1])
        #expect(room.occupants == SeatPair(.person, .computer(.hard)))
        #expect(room.bot(0) == nil && room.bot(1) == .hard && room.bot(2) == nil)
        #expect(room.computerLevel == .hard)
        #expect(!room.moved.contains(true))
        h.send(1, "a")
        _ = h.drain()
        #expect(room.moved[0] && !room.moved[1])   // the computer's moves are not a person's
    }
}
