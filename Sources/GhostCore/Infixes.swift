/// Which fragments occur inside a word: Superghost's "alive".
///
/// A fragment occurs in a word iff it starts one of the word's suffixes. So
/// keep the words of `minLength`+ letters as one run of bytes (each word
/// ended by a newline, which sorts before every letter) and the offsets of
/// all their suffixes, sorted by the suffix they start: the suffixes that
/// start with a fragment then sit next to each other, and two binary
/// searches find them. Four bytes per letter of the list, plus the text; no
/// set of all substrings (tens of millions for a big list).
public struct Infixes: Sendable {
    /// The words, each followed by a newline.
    private let text: [UInt8]
    /// Every suffix's offset in `text`, sorted by the suffix (up to its newline).
    private let suffixes: [UInt32]

    public static let newline: UInt8 = 0x0A

    /// The suffix array of the words of `words` with at least `minLength`
    /// letters (the words that can end a round: a shorter word is too short
    /// to lose, and a fragment only it contains is dead).
    public init(words: WordList, minLength: Int = GhostRules.losingWordLength) {
        var text: [UInt8] = []
        var suffixes: [UInt32] = []
        words.forEachWord { word in
            guard word.count >= minLength else { return }
            for i in word.indices { suffixes.append(UInt32(text.count + i)) }
            text += word
            text.append(Infixes.newline)
        }
        text.withUnsafeBufferPointer { t in
            suffixes.sort { a, b in
                var i = Int(a), j = Int(b)
                while t[i] == t[j] && t[i] != Infixes.newline {
                    i += 1
                    j += 1
                }
                return t[i] < t[j]
            }
        }
        self.text = text
        self.suffixes = suffixes
    }

    /// How many suffixes the index holds (the letters of its words).
    public var count: Int { suffixes.count }
    /// Bytes the index takes, roughly.
    public var bytes: Int { text.count + suffixes.count * MemoryLayout<UInt32>.size }

    /// How many distinct fragments occur in the words of the index, the
    /// empty one and the words themselves included (Norvig's
    /// `len(vocab.fragments)` for Superghost). Each suffix adds the prefixes
    /// it does not share with the suffix before it in sorted order.
    public var distinctCount: Int {
        text.withUnsafeBufferPointer { t in
            var count = 1  // the empty fragment
            var previous = -1
            for s in suffixes {
                let start = Int(s)
                var length = 0
                while t[start + length] != Infixes.newline { length += 1 }
                var common = 0
                if previous >= 0 {
                    while common < length && t[previous + common] == t[start + common] { common += 1 }
                }
                count += length - common
                previous = start
            }
            return count
        }
    }

    /// Whether some word (of `minLength`+ letters) contains `fragment`
    /// (lowercase letters). The empty fragment is in every word.
    public func contains(_ fragment: some Collection<UInt8>) -> Bool {
        let f = Array(fragment)
        let i = lowerBound(f)
        return i < suffixes.count && compare(suffixes[i], f) == 0
    }

    /// A word of the index that contains `fragment`, the first in the
    /// suffix order (nil if none does).
    public func word(containing fragment: some Collection<UInt8>) -> String? {
        let f = Array(fragment)
        let i = lowerBound(f)
        guard i < suffixes.count, compare(suffixes[i], f) == 0 else { return nil }
        var start = Int(suffixes[i]), end = start
        while start > 0 && text[start - 1] != Infixes.newline { start -= 1 }
        while text[end] != Infixes.newline { end += 1 }
        return String(decoding: text[start..<end], as: UTF8.self)
    }

    /// The first suffix not ordered before `f` (comparing `f`'s length only).
    private func lowerBound(_ f: [UInt8]) -> Int {
        var lo = 0, hi = suffixes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if compare(suffixes[mid], f) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The suffix at `offset`, cut to `f`'s length, against `f`: -1, 0 or 1.
    private func compare(_ offset: UInt32, _ f: [UInt8]) -> Int {
        var i = Int(offset)
        for b in f {
            let t = text[i]
            if t != b { return t < b ? -1 : 1 }
            i += 1
        }
        return 0
    }
}
