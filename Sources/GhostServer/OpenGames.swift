/// The ids of the games anyone may watch, in order, for `GAMES`: kept up to
/// date as games start and end, so that listing the newest `n` costs
/// O(n + log N) instead of a sort of every game at each call.
///
/// Games get increasing ids, so a new game is nearly always appended; a game
/// put back (restored, or reloaded after a failed write) goes to its place by
/// binary search, and an ending game is found the same way.
struct OpenGames {
    /// Ascending, no duplicates.
    private(set) var ids: [Int] = []

    var count: Int { ids.count }

    /// Where `id` is, or would go.
    private func index(of id: Int) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func contains(_ id: Int) -> Bool {
        let i = index(of: id)
        return i < ids.count && ids[i] == id
    }

    mutating func insert(_ id: Int) {
        if let last = ids.last, last < id { return ids.append(id) }
        let i = index(of: id)
        guard i == ids.count || ids[i] != id else { return }
        ids.insert(id, at: i)
    }

    mutating func remove(_ id: Int) {
        if ids.last == id {
            ids.removeLast()
            return
        }
        let i = index(of: id)
        guard i < ids.count, ids[i] == id else { return }
        ids.remove(at: i)
    }

    /// The ids, newest first.
    var newestFirst: ReversedCollection<[Int]> { ids.reversed() }
}
