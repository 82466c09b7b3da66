import Testing
@testable import GhostServer

/// The deadline index: the earliest deadline, updates, clears, and due games
/// in order, however many stale entries the heap holds.
struct DeadlinesTests {
    @Test func theEarliestDeadlineWins() {
        let d = Deadlines()
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
        let d = Deadlines()
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
        let d = Deadlines()
        // A computer game moves its deadline on every move; a thousand
        // adjourned games wait with theirs.
        for game in 1...1000 { d.set(game, 1000 + Double(game)) }
        for step in 0..<10_000 { d.set(0, Double(step) / 10) }
        #expect(d.next == 999.9)
        #expect(d.takeDue(1000.5) == [0])
        #expect(d.next == 1001)
        #expect(d.takeDue(1002) == [1, 2])
    }
}
