/// What the deadlines keep their truth in: each entry (a room) holds its
/// own next deadline, so a change is a field write, not a dictionary update
/// (hashing the game id on every move).
protocol DeadlineEntry: AnyObject {
    var id: Int { get }
    /// Its next deadline (monotonic seconds), as `Deadlines.set` last made it.
    var deadlineAt: Double? { get set }
    /// Touched since the deadlines last looked (see `Deadlines.touch`).
    var deadlineTouched: Bool { get set }
}

/// When each game next needs the clock (the computer to play, a grace period
/// to end), kept so that the loop's two questions every turn, "when must I
/// wake?" and "which games are due?", cost the games that changed since the
/// last turn plus O(log n), not a walk over every game. A server with
/// thousands of adjourned games answers a PING as fast as an empty one.
///
/// A room reports its own changes (`touch`, from its properties' observers);
/// the lobby works out the new deadline of each touched room in `refresh`.
final class Deadlines<Entry: DeadlineEntry> {
    /// How many entries have a deadline (`Entry.deadlineAt`, the truth).
    private var count = 0
    /// A binary min-heap over (deadline, entry). An entry whose deadline no
    /// longer matches its `deadlineAt` is stale and is skipped when it reaches
    /// the top. (It holds the entry: a room taken out of play stays in memory
    /// until its stale entries go.)
    private var heap: [(at: Double, entry: Entry)] = []
    /// The heap's top entry is known to be right (it was just pushed
    /// there, or looked up since): the loop asks `next` and `takeDue` every
    /// turn, and each question would otherwise look the top up again.
    /// Forgotten whenever the top changes or its entry's deadline does.
    private var topValid = false
    /// Tables touched since the last refresh, each once.
    private var touched: [Entry] = []
    private var draining: [Entry] = []

    var isEmpty: Bool { count == 0 }

    /// A room's clock-related state changed: its deadline is worked out again
    /// at the next refresh.
    func touch(_ room: Entry) {
        guard !room.deadlineTouched else { return }
        room.deadlineTouched = true
        touched.append(room)
    }

    /// Calls `body` on each room touched since the last call (without
    /// copying the list: this runs several times a loop turn).
    func drainTouched(_ body: (Entry) -> Void) {
        guard !touched.isEmpty else { return }
        swap(&touched, &draining)
        for t in draining {
            t.deadlineTouched = false
            body(t)
        }
        // Emptied from the end, keeping the buffer: nearly always one room
        // (the generic `removeAll(keepingCapacity:)` goes through `replaceSubrange`).
        while !draining.isEmpty { draining.removeLast() }
    }

    /// Sets (or, with nil, clears) an entry's deadline.
    func set(_ entry: Entry, _ at: Double?) {
        let before = entry.deadlineAt
        guard before != at else { return }
        entry.deadlineAt = at
        if before == nil { count += 1 } else if at == nil { count -= 1 }
        if let top = heap.first, top.entry === entry {
            // The top was this entry's: now stale. It goes at once (a game
            // in play moves its deadline at every move), no look-up later.
            if top.at == before {
                if let at {
                    // Its new deadline takes its place, sifted down (a pop and
                    // a push each moved the entry in and out of the heap, on
                    // every move).
                    heap[0].at = at
                    siftDown(0)
                    // (Another entry of this one may have surfaced, stale.)
                    topValid = heap[0].entry === entry && heap[0].at == at
                    return
                }
                pop()
            }
            topValid = false
        }
        guard let at else { return }
        push((at, entry))
        if let top = heap.first, top.entry === entry, top.at == at { topValid = true }   // just pushed to the top: the truth
        // Stale entries are dropped as they surface; rebuild if they pile up.
        if heap.count > 64 + 4 * count {
            heap.removeAll { $0.entry.deadlineAt != $0.at }
            for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
            topValid = false
        }
    }

    /// The earliest deadline, if any.
    var next: Double? {
        dropStale()
        return heap.first?.at
    }

    /// Removes and returns the ids of the entries whose deadline is at or
    /// before `now`, earliest first. The lobby touches each again after handling it.
    func takeDue(_ now: Double) -> [Int] {
        var games: [Int] = []
        while true {
            dropStale()
            guard let top = heap.first, top.at <= now else { return games }
            pop()
            if top.entry.deadlineAt == top.at {   // (a second entry of the same deadline is stale now)
                top.entry.deadlineAt = nil
                count -= 1
                games.append(top.entry.id)
            }
        }
    }

    private func dropStale() {
        guard !topValid else { return }
        while let top = heap.first, top.entry.deadlineAt != top.at { pop() }
        topValid = !heap.isEmpty
    }

    private func push(_ entry: (at: Double, entry: Entry)) {
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].at < heap[parent].at else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private func pop() {
        guard !heap.isEmpty else { return }
        topValid = false
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(0)
    }

    private func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, heap[l].at < heap[m].at { m = l }
            if r < heap.count, heap[r].at < heap[m].at { m = r }
            guard m != i else { return }
            heap.swapAt(i, m)
            i = m
        }
    }
}
