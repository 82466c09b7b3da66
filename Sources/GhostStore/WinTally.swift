/// How many names on one board have each number of wins, kept so that a
/// name's rank (1 + the names with more wins) is found in O(log W) steps and
/// changed in O(log W), W being the board's most wins: a Fenwick tree (binary
/// indexed tree) over the number of wins. A game's end asks two ranks; before
/// this, each walked every distinct number of wins on the board, and
/// no command may do work that grows with the data.
///
/// Memory: one Int per number of wins up to the board's most, rounded up to a
/// power of two (a board whose leader has a million wins holds 8 MiB). Wins
/// below 0 (not written by ghostd) count as 0.
struct WinTally: Equatable {
    /// 1-based: `tree[i]` holds the names whose wins + 1 is in
    /// (i - lowbit(i), i]; `tree[0]` is unused. `size` (tree.count - 1) is
    /// always a power of two, so `tree[size]` is every name on the board.
    private var tree: [Int] = [0, 0]
    private var size: Int { tree.count - 1 }

    init() {}

    /// Every name counted on the board.
    var names: Int { tree[size] }

    /// Counts `n` more names (fewer if negative) with `wins` wins.
    mutating func add(_ wins: Int, _ n: Int = 1) {
        var i = max(0, wins) + 1
        while i > size { grow() }
        while i <= size {
            tree[i] += n
            i += i & -i
        }
    }

    /// One name's wins went from `old` (nil: it was not counted) to `new`.
    mutating func move(from old: Int?, to new: Int) {
        if let old { add(old, -1) }
        add(new)
    }

    /// How many names have more than `wins` wins.
    func above(_ wins: Int) -> Int {
        var i = min(max(0, wins) + 1, size)
        var atMost = 0
        while i > 0 {
            atMost += tree[i]
            i -= i & -i
        }
        return names - atMost
    }

    /// Doubles the tree: the new half's nodes cover only the new (empty)
    /// numbers of wins, except the new top, which covers them all.
    private mutating func grow() {
        let old = size
        tree.append(contentsOf: repeatElement(0, count: old))
        tree[2 * old] = tree[old]
    }
}
