import Testing
import TestSupport
@testable import GhostServer

/// The deadline index: the earliest deadline, updates, clears, and due games
/// in order, however many stale entries the heap holds.
struct DeadlinesTests {
    @Test func theEarliestDeadlineWins() {
        let d = IDDeadlines()
        #expect(d.next == nil)
        d.set(1, 30)
        d.set(2, 10)
        d.set(3, 20)
        #expect(d.next == 10)
        d.set(2, 40)          // moved later: its old entry is stale
        #expect(d.next == 20)
        d.set(3, nil)         // cleared
        #expect(d.next == 30)
        d.set(1, 5)           // moved earlier
        #expect(d.next == 5)
    }

    @Test func dueGamesComeOutEarliestFirstAndOnce() {
        let d = IDDeadlines()
        for (game, at) in [(1, 50.0), (2, 10), (3, 30), (4, 20), (5, 60)] { d.set(game, at) }
        d.set(3, 25)
        #expect(d.takeDue(5) == [])
        #expect(d.takeDue(30) == [2, 4, 3])
        #expect(d.takeDue(30) == [])
        #expect(d.next == 50)
        d.set(2, 70)          // a taken game can be set again
        #expect(d.takeDue(100) == [1, 5, 2])
        #expect(d.next == nil)
        #expect(d.isEmpty)
    }

    @Test func manyUpdatesKeepTheHeapSmallAndRight() {
        let d = IDDeadlines()
        // A computer game moves its deadline on every move; a thousand
        // adjourned games wait with theirs.
        for game in 1...1000 { d.set(game, 1000 + Double(game)) }
        for step in 0..<10_000 { d.set(0, Double(step) / 10) }
        #expect(d.next == 999.9)
        #expect(d.takeDue(1000.5) == [0])
        #expect(d.next == 1001)
        #expect(d.takeDue(1002) == [1, 2])
    }

    @Test func aGameSetBackToADeadlineItHadIsDueOnce() {
        // Its old entry, stale under another, is right again: two entries of
        // one game and one deadline; the game comes due once.
        let d = IDDeadlines()
        d.set(9, 3)
        d.set(1, 5)
        d.set(1, 12)              // (5, 1) stale under (3, 9)
        d.set(1, 5)               // (5, 1) twice, both right
        #expect(d.next == 3)
        #expect(d.takeDue(10) == [9, 1])
        #expect(d.next == nil)
        #expect(d.isEmpty)
        d.set(1, 20)
        #expect(!d.isEmpty)
        #expect(d.takeDue(20) == [1])
    }

    @Test func theTopKnownToBeRightIsForgottenWhenItCouldBeStale() {
        // `next` and `takeDue` remember that the top was looked up (the loop
        // asks both every turn); each change that can make the top stale forgets it.
        let d = IDDeadlines()
        d.set(1, 10)
        #expect(d.next == 10)
        d.set(1, 20)              // the top's game moved later: its entry goes
        #expect(d.next == 20)
        d.set(2, 15)
        #expect(d.next == 15)
        d.set(2, nil)             // the top cleared
        #expect(d.next == 20)
        d.set(9, 3)
        d.set(1, 5)
        d.set(1, 12)              // (5, 1) stays in the heap, stale, under (3, 9)
        #expect(d.next == 3)
        d.set(9, nil)             // the stale (5, 1) surfaces
        d.set(1, 7)               // pushed under it: the top is still the stale one
        #expect(d.next == 7)
        d.set(4, 6)
        #expect(d.takeDue(6) == [4])
        #expect(d.next == 7)
        d.set(5, 1)
        d.set(1, nil)             // (7, 1) stale under (1, 5)
        #expect(d.takeDue(1) == [5])   // the stale (7, 1) surfaces after the pop
        #expect(d.next == nil)
        #expect(d.isEmpty)
    }

    @Test func theTopMovedInPlaceSinksBelowEarlierOnes() {
        // The top's own entry takes its new deadline in place and sinks.
        let d = IDDeadlines()
        for (game, at) in [(1, 10.0), (2, 20), (3, 30), (4, 40)] { d.set(game, at) }
        #expect(d.next == 10)
        d.set(1, 35)
        #expect(d.next == 20)
        d.set(2, 5)               // moved earlier while not the top
        #expect(d.next == 5)
        d.set(2, 50)              // the top moved later, to the bottom
        #expect(d.takeDue(45) == [3, 1, 4])
        #expect(d.next == 50)
        d.set(2, 1)               // the top moved earlier: still the top
        #expect(d.next == 1)
        #expect(d.takeDue(100) == [2])
        #expect(d.isEmpty)
    }

    @Test func answersAsAPlainListThroughRandomChanges() {
        // Against a list of every game's deadline: sets, clears, moves of the
        // top and due games, distinct deadlines so that the order is defined.
        let d = IDDeadlines()
        var truth: [Int: Double] = [:]
        var mix: UInt64 = 29
        func next(_ n: Int) -> Int {
            mix = mix &* 6364136223846793005 &+ 1442695040888963407
            return Int((mix >> 33) % UInt64(n))
        }
        var now = 0.0, used = Set<Double>()
        for step in 0..<20_000 {
            let game = next(12)
            switch next(10) {
            case 0:
                d.set(game, nil)
                truth[game] = nil
            case 1:
                now += 1
                let due = truth.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
                #expect(d.takeDue(now) == due, "step \(step)")
                for g in due { truth[g] = nil }
            default:
                // The top's game more often than the others: it moves at every move.
                let target = next(2) == 0 ? (truth.min { $0.value < $1.value }?.key ?? game) : game
                var at = now + Double(next(4_000)) / 100 + 0.001
                while used.contains(at) { at += 0.0001 }
                used.insert(at)
                d.set(target, at)
                truth[target] = at
            }
            #expect(d.next == truth.values.min(), "step \(step)")
            #expect(d.isEmpty == truth.isEmpty, "step \(step)")
        }
    }
}

/// The deadlines by game id, for these tests: one entry per id, made at its first use.
final class IDDeadlines {
    final class Entry: DeadlineEntry {
        let id: Int
        var deadlineAt: Double?
        var deadlineTouched = false
        init(_ id: Int) { self.id = id }
    }
    let deadlines = Deadlines<Entry>()
    private var entries: [Int: Entry] = [:]

    func set(_ id: Int, _ at: Double?) {
        let entry = entries[id] ?? Entry(id)
        entries[id] = entry
        deadlines.set(entry, at)
    }
    var next: Double? { deadlines.next }
    func takeDue(_ now: Double) -> [Int] { deadlines.takeDue(now) }
    var isEmpty: Bool { deadlines.isEmpty }
}

/// `Room.listed` (Rooms.swift): the deadlines ask it, for every room a turn
/// touched, instead of looking the room up; it must say whether the room is
/// the one `rooms` holds under its id.
@Suite(.ownThread) struct RoomListedTests {
    @Test func aRoomIsListedWhileItIsTheOneInRooms() throws {
        var settings = Lobby.Settings()
        settings.unloadAfter = 10
        let h = try Harness(settings: settings)
        let (alice, _) = try h.pairAliceAndBob()
        let room = try #require(h.lobby.rooms[1])
        #expect(room.listed)
        h.send(1, "p")
        h.send(2, "e")
        h.disconnect(1)
        h.disconnect(2)
        _ = h.drain()
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 10)   // nobody is at it: unloaded then
        h.clock.advance(10)
        h.tick()
        #expect(h.lobby.rooms[1] == nil)
        #expect(!room.listed)
        #expect(h.lobby.nextDeadline == nil)
        // RESUME loads it again: a new room, listed; the old one stays out.
        h.connect(1)
        h.send(1, "RESUME \(alice)")
        let again = try #require(h.lobby.rooms[1])
        #expect(again !== room)
        #expect(again.listed)
        #expect(!room.listed)
        #expect(h.lobby.nextDeadline == nil)   // bob is away, alice to move: no clock runs
        // Added again (as a failed commit's undo does), it is listed; removed, not.
        h.lobby.rooms.add(room)
        #expect(room.listed)
        #expect(!again.listed)
        h.lobby.rooms.remove(1)
        #expect(!room.listed)
    }
}
