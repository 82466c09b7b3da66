import GameKit
import GhostProtocol

/// The seek queues (SEEK, WAITING): one per kind, language and game type
/// (`Lobby.seekKey`), each first come first served. The queues are only
/// changed through here, and every change marks them `changed`, so that the
/// seekers waiting in the other queues are told (`Matchmaking.tellSeekers`).
struct SeekQueues {
    /// Kind, language and game type (`seekKey`) → who waits, first come first.
    private(set) var queues: [SeekKey: SeekQueue] = [:]
    /// The seek queues changed since the waiting seekers were last told.
    var changed = false
    /// When they were last told (monotonic seconds).
    var toldAt = -Double.infinity

    subscript(key: SeekKey) -> SeekQueue? { queues[key] }

    /// `id` waits at the end of queue `key`, made as `queue` if it is new.
    mutating func append(_ id: ConnectionID, to key: SeekKey, _ queue: @autoclosure () -> SeekQueue) {
        queues[key, default: queue()].append(id)
        changed = true
    }

    /// `id` was paired: it leaves queue `key` (most often from its front).
    mutating func take(_ id: ConnectionID, from key: SeekKey) {
        if queues[key]?.first == id { queues[key]?.removeFirst() } else { queues[key]?.remove(id) }
        changed = true
    }

    /// `id` stopped seeking.
    mutating func remove(_ id: ConnectionID, from key: SeekKey) {
        queues[key]?.remove(id)
        changed = true
    }

    /// Whether anyone waits in any queue.
    var anyoneWaits: Bool { queues.values.contains(where: { $0.count > 0 }) }

    /// Every seek queue with players in it, by key (a few at most: kinds × languages × game types × clocks).
    func waitingQueues() -> [SeekKey: Lobby.WaitingQueue] {
        var waiting: [SeekKey: Lobby.WaitingQueue] = [:]
        for (key, q) in queues where q.count > 0 {
            waiting[key] = Lobby.WaitingQueue(game: q.game, lang: q.lang, rounds: q.rounds, count: q.count, clock: q.clock, variant: q.variant)
        }
        return waiting
    }
}

/// Which seek queue a seeker waits in: one per kind, language, number of
/// rounds, clock and variant (Superghost never meets Ghost); only seekers of
/// the same queue are paired. Ordered as its words (`ghost en one clock=60
/// super`), the order in which WAITING lines are sent.
struct SeekKey: Hashable, Comparable, CustomStringConvertible {
    let game: String
    let lang: String
    let rounds: Rounds
    let clock: Int?
    let variant: String?

    var description: String {
        game + " " + lang + " " + rounds.rawValue + (clock.map { " clock=\($0)" } ?? "") + (variant.map { " " + $0 } ?? "")
    }

    static func < (a: SeekKey, b: SeekKey) -> Bool { a.description < b.description }
}

/// One seek queue. Pairing takes from the front, so it keeps a head
/// index instead of shifting the array every time (with a thousand
/// seekers, `removeFirst` and copying the queue out of the dictionary to
/// change it were 8% of the daemon's CPU under the load benchmark).
struct SeekQueue {
    let game: String
    let lang: String
    let rounds: Rounds
    /// Seconds per move, nil for no clock.
    let clock: Int?
    /// Ghost's variant (`super`), nil for Ghost itself.
    let variant: String?
    private var ids: [ConnectionID] = []
    private var head = 0

    init(game: String, lang: String, rounds: Rounds, clock: Int?, variant: String? = nil) {
        self.game = game
        self.lang = lang
        self.rounds = rounds
        self.clock = clock
        self.variant = variant
    }

    var count: Int { ids.count - head }
    var first: ConnectionID? { head < ids.count ? ids[head] : nil }
    /// Who waits, first come first.
    var members: ArraySlice<ConnectionID> { ids[head...] }
    mutating func append(_ id: ConnectionID) { ids.append(id) }
    mutating func removeFirst() {
        guard head < ids.count else { return }
        head += 1
        if head == ids.count {
            ids.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= ids.count {
            ids.removeFirst(head)
            head = 0
        }
    }
    mutating func remove(_ id: ConnectionID) {
        if let i = ids[head...].firstIndex(of: id) { ids.remove(at: i) }
    }
}

