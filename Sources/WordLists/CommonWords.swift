/// A language's list of common words (Dictionaries/common/xx.txt), kept as
/// marks on the trie of the language's word list: one bit per node, set
/// where the node ends a common word. About 18 KB for English and 143 KB for
/// Dutch, where a trie of their own took 0.7 and 1.0 MB for the daemon's
/// whole life (BENCHMARKS.md, "What the common words cost at start").
/// Common words that are not words of the language's list (normally none:
/// the lists are cut to it) are kept as a small list of their own.
public struct CommonWords: Sendable {
    /// Bit `n % 64` of `marks[n / 64]`: node `n` of the language's list ends a common word.
    private let marks: [UInt64]
    /// The common words outside the language's list, if any.
    let outside: WordList?
    /// How many distinct common words, those outside the language's list included.
    public let wordCount: Int
    /// How many lines of the source were skipped as not being words a–z.
    public let rejected: Int

    /// Whether node `node` of the language's list ends a common word.
    public func isCommon(node: Int) -> Bool {
        node >= 0 && node >> 6 < marks.count && marks[node >> 6] & (1 << UInt64(node & 63)) != 0
    }

    /// The bytes of a word file (one word per line, any case, LF or CRLF; the
    /// rules of `WordList(text:)`) as marks on `list`, without building a trie.
    init(folding text: inout [UInt8], on list: WordList) {
        self.init(folding: &text, on: list, rejected: nil)
    }

    private init(folding text: inout [UInt8], on list: WordList, rejected given: Int?) {
        var marks = [UInt64](repeating: 0, count: (list.nodes.count + 63) / 64)
        var outsideText: [UInt8] = []
        var marked = 0, rejected = 0
        var start = 0, i = 0
        let n = text.count
        while i <= n {
            if i == n || text[i] == 0x0A {
                var end = i
                if end > start && text[end - 1] == 0x0D { end -= 1 }
                if end > start {
                    var node: Int? = WordList.root
                    var ok = true
                    for j in start..<end {
                        let b = text[j] | 0x20  // ASCII fold to lowercase
                        guard b >= 0x61 && b <= 0x7A else { ok = false; break }
                        text[j] = b
                        node = node.flatMap { list.child($0, b - 0x61) }
                    }
                    if !ok {
                        rejected += 1
                    } else if let node, list.nodes[node].isWord {
                        if marks[node >> 6] & (1 << UInt64(node & 63)) == 0 { marked += 1 }
                        marks[node >> 6] |= 1 << UInt64(node & 63)
                    } else {
                        outsideText += text[start..<end]
                        outsideText.append(0x0A)
                    }
                }
                start = i + 1
            }
            i += 1
        }
        let outside = outsideText.isEmpty ? nil : WordList(folding: &outsideText)
        self.marks = marks
        self.outside = outside
        self.wordCount = marked + (outside?.wordCount ?? 0)
        self.rejected = given ?? rejected
    }

    /// `common` (a list built in memory) as marks on `list`.
    init(_ common: WordList, on list: WordList) {
        var text: [UInt8] = []
        common.forEachWord { word in
            text += word
            text.append(0x0A)
        }
        self.init(folding: &text, on: list, rejected: common.rejected)
    }

    /// The common words as a list of their own: a trie built on each call,
    /// one walk of `list` (the language's list these marks are on).
    public func wordList(on list: WordList) -> WordList {
        var text: [UInt8] = []
        list.forEachWordAndNode { word, node in
            guard isCommon(node: node) else { return }
            text += word
            text.append(0x0A)
        }
        outside?.forEachWord { word in
            text += word
            text.append(0x0A)
        }
        return WordList(WordList(folding: &text), rejected: rejected)
    }
}
