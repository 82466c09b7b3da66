/// The seats of every game in progress, in memory: who plays in
/// it and from which network, for the caps on games in progress
/// (`activeGameCount(player:)`, `(network:)`) and a guest's NAME
/// (`activeSeats(player:)`). SQLite kept them in four partial indexes
/// (`games_active_player0/1`, `games_active_net0/1`) that every game
/// entered at its start and left at its end: eight b-tree writes and four
/// more pages in two commits, about a third of the SQL of a game. Schema
/// 12 drops them; this is read at start from the index of games in
/// progress (`games_untouched`), then kept in step with every statement
/// that starts or ends one (`createGame`, `noteStarted`, `finish`,
/// `abortGame`). Each change is journalled until the commit, so that a
/// rolled-back command or turn puts back exactly what it changed.
///
/// Every answer costs what the bounded SQL look-ups cost, or less: a
/// dictionary look-up, and at most `limit` games per seat. Memory: one
/// entry per game in progress (ids, names and networks).
struct ActiveSeats {
    /// A game's seats: the names as stored, and the networks ("" for none);
    /// and whether it is on a clock (`clockedGames`, at start).
    struct Seats: Equatable {
        var player0: String, player1: String
        var net0: String, net1: String
        var clocked = false
        var networks: [String] { [net0, net1] }
    }

    /// Every game in progress, by id.
    private(set) var games: [Int: Seats] = [:]
    /// Per seat, the ids of a name's games in progress, in increasing order.
    private struct PlayerGames {
        var ids = (SeatGames(), SeatGames())
        var isEmpty: Bool { ids.0.isEmpty && ids.1.isEmpty }
        subscript(seat: Int) -> SeatGames {
            get { seat == 0 ? ids.0 : ids.1 }
        }
        /// Adds or removes `id` in `seat`'s games (mutated in place: no
        /// copy); whether none are left then.
        mutating func change(_ id: Int, seat: Int, add: Bool, sorted: Bool) -> Bool {
            if seat == 0 { ids.0.change(id, add: add, sorted: sorted) } else { ids.1.change(id, add: add, sorted: sorted) }
            return isEmpty
        }
        mutating func sort() { ids.0.sort(); ids.1.sort() }
    }
    /// A seat's games of a name, in increasing order: one (nearly always)
    /// held inline, two or more in an array. (An array for one cost an
    /// allocation at the game's start and a free at its end, a seat.)
    struct SeatGames {
        /// The only game, when `many` is empty.
        private var one: Int?
        /// Every game when there are two or more, else empty.
        private var many: [Int] = []

        var isEmpty: Bool { one == nil && many.isEmpty }
        var count: Int { many.isEmpty ? (one == nil ? 0 : 1) : many.count }
        func prefix(_ n: Int) -> ArraySlice<Int> {
            if let one, many.isEmpty { return ArraySlice(n > 0 ? [one] : []) }
            return many.prefix(n)
        }
        /// After loading unsorted (`sorted: false`).
        mutating func sort() { many.sort() }

        mutating func change(_ id: Int, add: Bool, sorted: Bool) {
            if many.isEmpty {
                if add {
                    if let first = one {
                        many = sorted && first > id ? [id, first] : [first, id]
                        one = nil
                    } else {
                        one = id
                    }
                } else if one == id {
                    one = nil
                }
                return
            }
            Self.change(&many, id, add: add, sorted: sorted)
            if many.count == 1 {
                one = many[0]
                many = []
            }
        }
        private static func change(_ ids: inout [Int], _ id: Int, add: Bool, sorted: Bool) {
            if add {
                if sorted, let last = ids.last, last > id {
                    ids.insert(id, at: ids.partitioningIndex { $0 >= id })
                } else {
                    ids.append(id)
                }
            } else if ids.last == id {
                ids.removeLast()
            } else {
                let i = ids.partitioningIndex { $0 >= id }
                if i < ids.count, ids[i] == id { ids.remove(at: i) }
            }
        }
    }
    /// Per name (ASCII letters folded, as SQLite's NOCASE folds them).
    private var byPlayer: [String: PlayerGames] = [:]
    /// Per network: how many games in progress have seat 0 from it, and how
    /// many have seat 1 from it but not seat 0.
    private var byNetwork: [String: (Int, Int)] = [:]

    private enum Change {
        case added(Int)
        case removed(Int, Seats)
        case changed(Int, Seats)
    }
    /// Since the last commit, in order (see `undo(from:)`).
    private var journal: [Change] = []

    /// The name as NOCASE compares it.
    /// (The check reads the bytes in place: `name.utf8.contains` walked the
    /// view index by index, a call and a check for every byte.)
    static func folded(_ name: String) -> String {
        let upper = name.utf8.withContiguousStorageIfAvailable { $0.contains { $0 &- 0x41 < 26 } }
            ?? name.utf8.contains { $0 &- 0x41 < 26 }
        guard upper else { return name }
        return String(decoding: name.utf8.map { $0 &- 0x41 < 26 ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: Answers

    /// How many games in progress `name` (any case) has a seat in, counting
    /// at most `limit` per seat (a name in both seats of a game counts twice).
    func count(player name: String, limit: Int) -> Int {
        guard let seats = byPlayer[Self.folded(name)] else { return 0 }
        let limit = max(0, limit)
        return min(seats[0].count, limit) + min(seats[1].count, limit)
    }

    /// How many games in progress have a seat from `network` (a game with
    /// both seats from it counts once), counting at most `limit` by seat 0
    /// and `limit` by seat 1 alone.
    func count(network: String, limit: Int) -> Int {
        guard !network.isEmpty, let n = byNetwork[network] else { return 0 }
        let limit = max(0, limit)
        return min(n.0, limit) + min(n.1, limit)
    }

    /// The games in progress on a clock, by id (at start: every game in progress is looked at).
    var clockedGames: [Int] { games.filter { $0.value.clocked }.map(\.key).sorted() }

    /// The games in progress `name` (any case) has a seat in, with the seat:
    /// at most `limit` per seat, seat 0's first, each seat's by id.
    func seats(player name: String, limit: Int) -> [(game: Int, seat: Int)] {
        guard let seats = byPlayer[Self.folded(name)] else { return [] }
        let limit = max(0, limit)
        return seats[0].prefix(limit).map { (game: $0, seat: 0) } + seats[1].prefix(limit).map { (game: $0, seat: 1) }
    }

    // MARK: Changes

    /// A game in progress, as read at start (any order: `loaded()` sorts).
    mutating func load(_ id: Int, _ seats: Seats) {
        games[id] = seats
        index(id, seats, by: 1, sorted: false)
    }

    /// After the last `load`: each name's games in increasing order.
    mutating func loaded() {
        for i in byPlayer.indices { byPlayer.values[i].sort() }
    }

    /// A new game in progress (`createGame`).
    mutating func add(_ id: Int, _ seats: Seats) {
        if let old = games.updateValue(seats, forKey: id) {   // not expected: an id is new
            index(id, old, by: -1)
            journal.append(.removed(id, old))
        }
        index(id, seats, by: 1)
        journal.append(.added(id))
    }

    /// A game is no longer in progress (it ended, or was aborted).
    mutating func remove(_ id: Int) {
        guard let old = games.removeValue(forKey: id) else { return }
        index(id, old, by: -1)
        journal.append(.removed(id, old))
    }

    /// A game in progress got its networks (`noteStarted`).
    mutating func setNetworks(_ id: Int, _ net0: String, _ net1: String) {
        guard let old = games[id], old.net0 != net0 || old.net1 != net1 else { return }
        index(id, old, by: -1)
        var seats = old
        seats.net0 = net0
        seats.net1 = net1
        games[id] = seats
        index(id, seats, by: 1)
        journal.append(.changed(id, old))
    }

    // MARK: Rollbacks

    /// Where the journal stands now (a command's start, for `undo(from:)`).
    var journalMark: Int { journal.count }

    /// After a rollback: undoes the changes journalled from `start` on, the
    /// latest first.
    mutating func undo(from start: Int) {
        guard start < journal.count else { return }
        for change in journal[start...].reversed() {
            switch change {
            case .added(let id):
                if let seats = games.removeValue(forKey: id) { index(id, seats, by: -1) }
            case .removed(let id, let seats):
                games[id] = seats
                index(id, seats, by: 1)
            case .changed(let id, let old):
                if let seats = games[id] { index(id, seats, by: -1) }
                games[id] = old
                index(id, old, by: 1)
            }
        }
        journal.removeSubrange(start...)
    }

    /// Nothing changed so far can be rolled back any more.
    mutating func committed() {
        if !journal.isEmpty { journal.removeAll(keepingCapacity: true) }
    }

    // MARK: The indexes by name and network

    /// Each change finds its dictionary entry once (`subscript(_:default:)`
    /// or `index(forKey:)`) and changes it in place: a game's start or end
    /// hashes each name and network once.
    private mutating func index(_ id: Int, _ seats: Seats, by delta: Int, sorted: Bool = true) {
        countPlayer(Self.folded(seats.player0), id, seat: 0, add: delta > 0, sorted: sorted)
        countPlayer(Self.folded(seats.player1), id, seat: 1, add: delta > 0, sorted: sorted)
        if !seats.net0.isEmpty { countNetwork(seats.net0, seat0: true, delta) }
        if !seats.net1.isEmpty && seats.net1 != seats.net0 { countNetwork(seats.net1, seat0: false, delta) }
    }

    private mutating func countPlayer(_ key: String, _ id: Int, seat: Int, add: Bool, sorted: Bool) {
        if add {
            _ = byPlayer[key, default: PlayerGames()].change(id, seat: seat, add: true, sorted: sorted)
        } else if let i = byPlayer.index(forKey: key), byPlayer.values[i].change(id, seat: seat, add: false, sorted: sorted) {
            byPlayer.remove(at: i)
        }
    }

    private mutating func countNetwork(_ network: String, seat0: Bool, _ delta: Int) {
        if delta > 0 {
            _ = Self.count(&byNetwork[network, default: (0, 0)], seat0: seat0, delta)
        } else if let i = byNetwork.index(forKey: network), Self.count(&byNetwork.values[i], seat0: seat0, delta) {
            byNetwork.remove(at: i)
        }
    }

    /// Changes a network's counts in place; whether both are zero then.
    private static func count(_ n: inout (Int, Int), seat0: Bool, _ delta: Int) -> Bool {
        if seat0 { n.0 += delta } else { n.1 += delta }
        return n.0 <= 0 && n.1 <= 0
    }
}

extension Array {
    /// The first index whose element satisfies `belongs` (which must be
    /// false, then true, along the array): a binary search.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
