/// The TLS handshakes whose next step is on the handshake threads, and the
/// first-come line of those waiting for a place there (at most `capacity`
/// steps are away at once). Kept apart from the loop, which hands steps out
/// and takes them back, so that its order can be tested without sockets
/// (HandshakeLineTests). A connection closed while it waited stays in the
/// line until its turn comes, and is skipped then by the loop.
struct HandshakeLine {
    let capacity: Int
    /// The connections whose step is on a thread, by id.
    private(set) var away: [ConnectionID: Connection] = [:]
    private var waiting: [Connection] = []
    private var head = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Whether a step may go to the threads now.
    var hasRoom: Bool { away.count < capacity }

    /// `conn`'s step went to a thread.
    mutating func sent(_ conn: Connection) { away[conn.id] = conn }

    /// The step of connection `id` came back: its connection, if it was away.
    mutating func cameBack(_ id: ConnectionID) -> Connection? { away.removeValue(forKey: id) }

    /// `conn` waits for a place, after those already waiting.
    mutating func wait(_ conn: Connection) { waiting.append(conn) }

    /// The connection that has waited longest, while there is room; nil when
    /// none waits or there is no room. The caller skips one closed meanwhile.
    mutating func next() -> Connection? {
        guard hasRoom, head < waiting.count else { return nil }
        let conn = waiting[head]
        head += 1
        return conn
    }

    /// Drops what was taken from the line's front: all of it once the line
    /// is empty; under a steady flood, which never empties it, once half of
    /// it (and at least 1,024) was taken.
    mutating func compact() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: waiting.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }

    /// Those still in the line that `counts` (STATS: not closed, still waiting).
    func waitingCount(where counts: (Connection) -> Bool) -> Int {
        waiting[head...].reduce(0) { $0 + (counts($1) ? 1 : 0) }
    }

    /// Stopping: every connection away, and the line emptied.
    mutating func removeAll() -> [Connection] {
        let out = Array(away.values)
        away.removeAll()
        waiting.removeAll()
        head = 0
        return out
    }
}
