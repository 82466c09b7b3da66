/// A dictionary as a compact trie over the letters a–z.
///
/// Each node is 8 bytes: a 26-bit child mask plus an end-of-word bit, and the
/// index of its first child. A node's children sit next to each other in
/// letter order, so the child for letter `c` is `first + popcount(mask below c)`.
/// Looking up a fragment therefore costs one step per letter, whatever the size
/// of the list, and a node stands for exactly one fragment (handy for solving).
public struct WordList: Sendable {
    public struct Node: Sendable, Equatable {
        /// Bits 0–25: which letters a–z continue this fragment; bit 31: it is a word.
        public let bits: UInt32
        /// Index of the child for the lowest letter in `bits`.
        public let first: UInt32

        static let wordBit: UInt32 = 1 << 31
        static let letterMask: UInt32 = (1 << 26) - 1

        public var isWord: Bool { bits & Node.wordBit != 0 }
        public var hasChildren: Bool { bits & Node.letterMask != 0 }
        /// The letters (0 = a … 25 = z) that continue this fragment.
        public var childLetters: [UInt8] {
            (0..<26).compactMap { bits & (1 << UInt32($0)) != 0 ? UInt8($0) : nil }
        }
    }

    /// Node 0 is the root, the empty fragment.
    public private(set) var nodes: [Node]
    /// How many distinct words the list holds.
    public let wordCount: Int

    public static let root = 0

    /// Builds a list from words; case is folded, entries that are not made of
    /// letters a–z only are skipped (see `rejected`). Order does not matter.
    public init<S: Sequence>(words: S) where S.Element: StringProtocol {
        var bytes: [UInt8] = []
        for w in words {
            bytes.append(contentsOf: w.utf8)
            bytes.append(0x0A)
        }
        self.init(text: bytes)
    }

    /// Builds a list from the bytes of a word file: one word per line (LF or
    /// CRLF), any case. Lines holding anything but letters a–z are skipped and
    /// counted in `rejected`; duplicates are merged.
    public init(text: [UInt8]) {
        var folded = text
        self.init(folding: &folded)
    }

    /// As `init(text:)`, but folds the case of `folded` in place instead of copying it.
    public init(folding folded: inout [UInt8]) {
        var spans: [(start: Int32, count: Int32)] = []
        spans.reserveCapacity(folded.count / 8)
        var rejected = 0
        var sorted = true
        var start = 0
        var i = 0
        let n = folded.count
        while i <= n {
            if i == n || folded[i] == 0x0A {
                var end = i
                if end > start && folded[end - 1] == 0x0D { end -= 1 }
                if end > start {
                    var ok = true
                    for j in start..<end {
                        let b = folded[j] | 0x20  // ASCII fold to lowercase
                        if b >= 0x61 && b <= 0x7A { folded[j] = b } else { ok = false; break }
                    }
                    if ok {
                        let span = (start: Int32(start), count: Int32(end - start))
                        if sorted, let last = spans.last,
                           WordList.compare(folded, last, span) > 0 {
                            sorted = false
                        }
                        spans.append(span)
                    } else {
                        rejected += 1
                    }
                }
                start = i + 1
            }
            i += 1
        }
        if !sorted {
            spans.sort { WordList.compare(folded, $0, $1) < 0 }
        }
        var builder = Builder(text: folded, spans: spans)
        builder.build()
        self.nodes = builder.nodes
        self.wordCount = builder.words
        self.rejected = rejected
    }

    /// How many lines of the source were skipped as not being words a–z.
    public let rejected: Int

    /// `list` with `rejected` set: a list rebuilt from another form (`CommonWords`).
    init(_ list: WordList, rejected: Int) {
        self.nodes = list.nodes
        self.wordCount = list.wordCount
        self.rejected = rejected
    }

    /// Three-way byte comparison of two spans of `text`.
    private static func compare(_ text: [UInt8], _ a: (start: Int32, count: Int32), _ b: (start: Int32, count: Int32)) -> Int {
        let la = Int(a.count), lb = Int(b.count)
        let sa = Int(a.start), sb = Int(b.start)
        for k in 0..<min(la, lb) {
            let x = text[sa + k], y = text[sb + k]
            if x != y { return x < y ? -1 : 1 }
        }
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }

    // MARK: Queries

    /// The child of `node` for letter index `letter` (0–25), if any.
    public func child(_ node: Int, _ letter: UInt8) -> Int? {
        guard letter < 26, node >= 0, node < nodes.count else { return nil }
        let n = nodes[node]
        let bit: UInt32 = 1 << UInt32(letter)
        guard n.bits & bit != 0 else { return nil }
        return Int(n.first) + (n.bits & (bit - 1)).nonzeroBitCount
    }

    /// The node for a fragment, or nil when no word starts with it.
    /// Case-insensitive; anything but a–z has no node.
    public func node(for fragment: some StringProtocol) -> Int? {
        var node = WordList.root
        for b in fragment.utf8 {
            let lower = b | 0x20
            guard lower >= 0x61, lower <= 0x7A, let next = child(node, lower - 0x61) else { return nil }
            node = next
        }
        return node
    }

    /// Whether the fragment is a word of the list.
    public func isWord(_ fragment: some StringProtocol) -> Bool {
        node(for: fragment).map { nodes[$0].isWord } ?? false
    }

    /// Whether some word of the list is longer than the fragment and starts with it.
    public func isProperlyExtended(_ fragment: some StringProtocol) -> Bool {
        node(for: fragment).map { nodes[$0].hasChildren } ?? false
    }
}

/// Builds the node array depth-first from sorted, deduplicated-on-the-fly spans,
/// reserving a node's children as one contiguous block before descending.
private struct Builder {
    let text: [UInt8]
    let spans: [(start: Int32, count: Int32)]
    var nodes: [WordList.Node] = []
    var words = 0

    init(text: [UInt8], spans: [(start: Int32, count: Int32)]) {
        self.text = text
        self.spans = spans
        nodes.reserveCapacity(spans.count * 2 + 1)
    }

    mutating func build() {
        nodes.append(WordList.Node(bits: 0, first: 0))
        fill(node: 0, lo: 0, hi: spans.count, depth: 0)
    }

    private func letter(_ i: Int, _ depth: Int) -> UInt8 {
        text[Int(spans[i].start) + depth] - 0x61
    }

    /// All spans in lo..<hi share their first `depth` letters, and those with
    /// exactly `depth` letters come first.
    private mutating func fill(node: Int, lo: Int, hi: Int, depth: Int) {
        var i = lo
        var bits: UInt32 = 0
        if i < hi && Int(spans[i].count) == depth {
            bits |= WordList.Node.wordBit
            words += 1
            while i < hi && Int(spans[i].count) == depth { i += 1 }  // duplicates
        }
        let childStart = i
        var groups = 0
        var j = i
        while j < hi {
            let c = letter(j, depth)
            bits |= 1 << UInt32(c)
            groups += 1
            while j < hi && letter(j, depth) == c { j += 1 }
        }
        let first = nodes.count
        nodes[node] = WordList.Node(bits: bits, first: UInt32(first))
        for _ in 0..<groups { nodes.append(WordList.Node(bits: 0, first: 0)) }
        var k = 0
        j = childStart
        while j < hi {
            let c = letter(j, depth)
            let groupStart = j
            while j < hi && letter(j, depth) == c { j += 1 }
            fill(node: first + k, lo: groupStart, hi: j, depth: depth + 1)
            k += 1
        }
    }
}
