/// The evil computer's family: the words it still keeps open, as a set of
/// indices into the words of the game's length, always visited in ascending
/// order (the order the evil rule and the seeded reveal rely on).
///
/// Kept compact, in the smaller of two forms: a bitset, one bit per word of
/// that length, while the family is large (the first guesses: 41,058 Dutch
/// words of 10 letters take 5 KB instead of 160 KB as a list of indices), and
/// a list of 32-bit indices once that is smaller (4 bytes a word: under
/// `universe / 32` words).
struct Family: Sendable {
    private enum Storage: Sendable {
        case bits([UInt64])
        case list([Int32])
    }

    private var storage: Storage
    /// How many words are open.
    private(set) var count: Int
    /// How many words the game's length has: the indices are below it.
    let universe: Int

    /// Whether `size` words of `universe` are smaller as a list than as bits.
    static func prefersList(size: Int, universe: Int) -> Bool { size * 32 <= universe }

    /// The family of the words `ascending` (sorted, each below `universe`),
    /// in whichever form is smaller.
    init(universe: Int, ascending: [Int32]) {
        self.universe = universe
        self.count = ascending.count
        if Family.prefersList(size: ascending.count, universe: universe) {
            storage = .list(ascending)
        } else {
            var bits = [UInt64](repeating: 0, count: (universe + 63) / 64)
            bits.withUnsafeMutableBufferPointer { bits in
                ascending.withUnsafeBufferPointer { ids in
                    for w in ids { bits[Int(w) &>> 6] |= 1 &<< UInt64(w & 63) }
                }
            }
            storage = .bits(bits)
        }
    }

    /// The family of the words whose bits are set in `bits` (one bit per
    /// word of `universe`, `count` of them set), taken as they are: the caller
    /// has checked that bits are its smaller form (`prefersList` is false).
    init(universe: Int, bits: [UInt64], count: Int) {
        self.universe = universe
        self.count = count
        storage = .bits(bits)
    }

    /// Calls `body` with each open word of `family`, ascending; with every
    /// word below `universe` when `family` is nil (every word open). The evil
    /// guess's scan: no list is made of the family's bits.
    @inline(__always)
    static func forEach(_ family: Family?, universe: Int, _ body: (Int) -> Void) {
        switch family?.storage {
        case nil:
            for i in 0..<universe { body(i) }
        case .list(let list)?:
            list.withUnsafeBufferPointer { list in
                for w in list { body(Int(w)) }
            }
        case .bits(let bits)?:
            bits.withUnsafeBufferPointer { bits in
                for i in bits.indices {
                    var x = bits[i]
                    while x != 0 {
                        body(i &<< 6 | x.trailingZeroBitCount)
                        x &= x &- 1
                    }
                }
            }
        }
    }

    /// The open words, ascending, as a (transient) list.
    func indices() -> [Int32] {
        switch storage {
        case .list(let list): return list
        case .bits(let bits):
            return [Int32](unsafeUninitializedCapacity: count) { out, initialized in
                var k = 0
                bits.withUnsafeBufferPointer { bits in
                    for i in bits.indices {
                        var x = bits[i]
                        while x != 0 {
                            out[k] = Int32(truncatingIfNeeded: i &<< 6 | x.trailingZeroBitCount)
                            k += 1
                            x &= x &- 1
                        }
                    }
                }
                initialized = k
            }
        }
    }

    /// Every word of the length.
    static func all(universe: Int) -> Family {
        Family(universe: universe, ascending: (0..<Int32(truncatingIfNeeded: universe)).map { $0 })
    }

    /// Bytes its indices take (the arrays' contents), for accounting.
    var bytes: Int {
        switch storage {
        case .bits(let b): b.count * 8
        case .list(let l): l.count * 4
        }
    }

    /// The smallest open word.
    var first: Int? { count > 0 ? element(at: 0) : nil }

    /// The `k`-th open word in ascending order (0-based), nil past the end.
    func element(at k: Int) -> Int? {
        guard k >= 0, k < count else { return nil }
        switch storage {
        case .list(let list): return Int(list[k])
        case .bits(let bits):
            var left = k
            for i in bits.indices {
                var x = bits[i]
                let n = x.nonzeroBitCount
                guard left < n else {
                    left -= n
                    continue
                }
                for _ in 0..<left { x &= x &- 1 }
                return i &<< 6 | x.trailingZeroBitCount
            }
            return nil
        }
    }

    func contains(_ w: Int) -> Bool {
        guard w >= 0, w < universe else { return false }
        switch storage {
        case .bits(let bits): return bits[w >> 6] & (1 << UInt64(w & 63)) != 0
        case .list(let list): return Family.position(of: Int32(w), in: list) != nil
        }
    }

    mutating func remove(_ w: Int) {
        guard contains(w) else { return }
        switch storage {
        case .bits(var bits):
            storage = .list([])   // the array is uniquely referenced while it changes
            bits[w >> 6] &= ~(1 << UInt64(w & 63))
            storage = .bits(bits)
        case .list(var list):
            storage = .list([])
            if let i = Family.position(of: Int32(w), in: list) { list.remove(at: i) }
            storage = .list(list)
        }
        count -= 1
    }

    private static func position(of w: Int32, in list: [Int32]) -> Int? {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < w { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == w ? lo : nil
    }
}
