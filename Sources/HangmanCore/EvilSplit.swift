import Synchronization

/// An evil guess of letter `c`: the family split by the positions where `c`
/// occurs (a bitmask, bit 0 the first letter), and the part the computer
/// keeps (see `beats`): its positions and its words.
///
/// One pass over the family computes each word's mask (8 letters at a time)
/// and counts the parts in an open-addressed table; a second keeps the words
/// of the best part, straight into the compact form `Family` takes for its size.
struct EvilSplit: Sendable {
    /// Where the kept words hold the letter (0: they do not).
    let positions: UInt64
    /// The kept words, indices into the length's words.
    let family: Family

    /// The split of `family` (nil: every word of `words`) by letter `c` (a–z).
    static func split(_ words: WordsOfLength, family: Family?, letter c: UInt8) -> EvilSplit {
        let universe = words.count
        let n = family?.count ?? universe
        let length = words.length
        // One word left: it is its own best part, and the family stays.
        if let family, n == 1, let only = family.first {
            return EvilSplit(positions: words.positions(of: c, in: only), family: family)
        }
        let bit: UInt32 = 1 << UInt32(c &- 0x61)
        let pattern = UInt64(c) &* 0x0101_0101_0101_0101
        // At most 2^length masks: a small table for short words.
        let distinct = length < 20 ? min(n, 1 << length) : n
        var bits = 4
        while 1 << bits < 2 * distinct { bits += 1 }
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var sizes = [Int](repeating: 0, count: 1 << bits)
        var without = 0
        let shift = UInt64(64 - bits), wrap = keys.count - 1
        let masks = [UInt64](unsafeUninitializedCapacity: n) { out, initialized in
            words.bytes.withUnsafeBufferPointer { bytes in
                words.letters.withUnsafeBufferPointer { letters in
                    (words.rows ?? []).withUnsafeBufferPointer { rows in
                        keys.withUnsafeMutableBufferPointer { keys in
                            sizes.withUnsafeMutableBufferPointer { sizes in
                                let common = words.rows != nil
                                var k = 0
                                Family.forEach(family, universe: universe) { i in
                                    let w = common ? Int(rows[i]) : i  // the word's row in the length's table
                                    var mask: UInt64 = 0
                                    if letters[w] & bit != 0 {
                                        mask = WordsOfLength.positions(of: c, pattern: pattern, row: w, length: length, bytes: bytes)
                                    }
                                    out[k] = mask
                                    k += 1
                                    guard mask != 0 else { without += 1; return }
                                    var slot = Int((mask &* 0x9E37_79B9_7F4A_7C15) >> shift)
                                    while keys[slot] != mask && keys[slot] != 0 { slot = (slot + 1) & wrap }
                                    keys[slot] = mask
                                    sizes[slot] += 1
                                }
                            }
                        }
                    }
                }
            }
            initialized = n
        }
        var best = (positions: UInt64(0), size: without)
        for slot in keys.indices where keys[slot] != 0 {
            let part = (positions: keys[slot], size: sizes[slot])
            if beats(part, best) { best = part }
        }
        return EvilSplit(positions: best.positions,
                         family: kept(masks, equal: best.positions, size: best.size, of: family, universe: universe))
    }

    /// The members of `family` (nil: all of `universe`) whose mask is `positions`, `size` of them.
    private static func kept(_ masks: [UInt64], equal positions: UInt64, size: Int, of family: Family?, universe: Int) -> Family {
        var k = 0
        if Family.prefersList(size: size, universe: universe) {
            var kept: [Int32] = []
            kept.reserveCapacity(size)
            masks.withUnsafeBufferPointer { masks in
                Family.forEach(family, universe: universe) { i in
                    if masks[k] == positions { kept.append(Int32(truncatingIfNeeded: i)) }
                    k += 1
                }
            }
            return Family(universe: universe, ascending: kept)
        }
        var bits = [UInt64](repeating: 0, count: (universe + 63) / 64)
        bits.withUnsafeMutableBufferPointer { bits in
            masks.withUnsafeBufferPointer { masks in
                Family.forEach(family, universe: universe) { i in
                    if masks[k] == positions { bits[i &>> 6] |= 1 &<< UInt64(i & 63) }
                    k += 1
                }
            }
        }
        return Family(universe: universe, bits: bits, count: size)
    }

    /// Whether part `a` beats part `b` (words split by where one letter
    /// occurs): the larger wins; on a tie, (1) the one without the letter,
    /// (2) the one with fewer occurrences, (3) the one whose rightmost
    /// occurrence lies further right, then its next rightmost, and so on —
    /// with as many bits set, that is the larger mask.
    static func beats(_ a: (positions: UInt64, size: Int), _ b: (positions: UInt64, size: Int)) -> Bool {
        if a.size != b.size { return a.size > b.size }
        if (a.positions == 0) != (b.positions == 0) { return a.positions == 0 }
        let (na, nb) = (a.positions.nonzeroBitCount, b.positions.nonzeroBitCount)
        if na != nb { return na < nb }
        return a.positions > b.positions
    }
}

/// The first guess's splits of a table of words, by letter, made once and
/// shared by every game on that table: an evil game starts from every word
/// of its length, so its first guess of a letter always splits the same
/// words the same way (the common first letters, e, a, s, split thousands).
/// At most 26 families a table, each at most a bit per word of its length:
/// about 130 KB for all of the English common words, made as letters come.
final class FirstSplits: Sendable {
    private let made = Mutex<[EvilSplit?]>([EvilSplit?](repeating: nil, count: 26))

    /// The split of all of `words` by `c`: kept from an earlier game, or made
    /// now (outside the lock: two games that race make the same split).
    func split(_ words: WordsOfLength, letter c: UInt8) -> EvilSplit {
        let l = Int(c &- 0x61)
        guard l < 26 else { return EvilSplit.split(words, family: nil, letter: c) }
        if let done = made.withLock({ $0[l] }) { return done }
        let split = EvilSplit.split(words, family: nil, letter: c)
        made.withLock { $0[l] = split }
        return split
    }
}

extension WordsOfLength {
    /// An evil guess of `c` on `family` of these words (nil: all of them,
    /// whose split by each letter is made once, `FirstSplits`).
    func split(_ family: Family?, letter c: UInt8) -> EvilSplit {
        family == nil ? firstSplits.split(self, letter: c) : EvilSplit.split(self, family: family, letter: c)
    }

    /// Where letter `c` occurs in word `i` (bit 0: its first letter).
    func positions(of c: UInt8, in i: Int) -> UInt64 {
        bytes.withUnsafeBufferPointer { bytes in
            WordsOfLength.positions(of: c, pattern: UInt64(c) &* 0x0101_0101_0101_0101, row: row(i), length: length, bytes: bytes)
        }
    }

    /// Where `c` occurs in row `r` of `bytes` (`pattern`: `c` in every byte
    /// of a word), 8 letters at a time: the bytes equal to `c` found without
    /// a branch on each (hits are unpredictable), their high bits gathered
    /// into one byte by a multiply. The last chunk reads up to 7 bytes past
    /// the row (the next row's, or the table's padding: `Lexicon.tables`),
    /// and drops them; a row too near the end of an unpadded table is read
    /// byte by byte.
    @inline(__always)
    static func positions(of c: UInt8, pattern: UInt64, row r: Int, length: Int, bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let base = r &* length
        guard let raw = UnsafeRawPointer(bytes.baseAddress), base &+ length &+ 7 < bytes.count else {
            var mask: UInt64 = 0
            for i in 0..<length where bytes[base &+ i] == c { mask |= 1 &<< UInt64(i) }
            return mask
        }
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func chunk(_ at: Int) -> UInt64 {
            let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) ^ pattern
            // Bit 7 of each byte set exactly where the byte of x is 0.
            let zero = ~(((x & low7) &+ low7) | x | low7)
            return ((zero &>> 7) &* 0x0102_0408_1020_4080) &>> 56
        }
        var mask: UInt64 = 0
        var i = 0
        while i &+ 8 <= length {
            mask |= chunk(base &+ i) &<< UInt64(i)
            i &+= 8
        }
        if i < length { mask |= (chunk(base &+ i) & ((1 &<< UInt64(length &- i)) &- 1)) &<< UInt64(i) }
        return mask
    }
}
