import GameKit
import WordLists

/// The words of one length as one flat array, in alphabetical order: row `r`
/// is `bytes[r * length ..< (r + 1) * length]` (lowercase ASCII; 8 zero
/// bytes follow the last row), and bit `c`
/// of `letters[r]` says whether it holds letter `c` (0 = a). Evil Hangman
/// scans these arrays once per guess, so they hold nothing per word but bytes.
///
/// Some of them (`rows`, ascending: the common words) can be a table of their
/// own that shares the arrays: word `i` is then row `rows[i]`, 4 bytes a word
/// instead of a copy of its bytes. Index with `row(i)` before reading `bytes`
/// or `letters`.
struct WordsOfLength: Sendable {
    let length: Int
    fileprivate(set) var bytes: [UInt8] = []
    fileprivate(set) var letters: [UInt32] = []
    /// The rows of the words, ascending; nil for every row.
    private(set) var rows: [Int32]?
    /// The evil first guesses on these words (their rows), by letter.
    private(set) var firstSplits = FirstSplits()
    /// A review's first guess on these words (HangmanKind+Review.swift).
    private(set) var reviewStart = ReviewStart()

    init(length: Int) { self.length = length }

    /// The words of `rows` (ascending rows of `all`), sharing its arrays.
    init(_ all: WordsOfLength, rows: [Int32]) {
        self = all
        self.rows = rows
        self.firstSplits = FirstSplits()  // other words: not `all`'s splits
        self.reviewStart = ReviewStart()
    }

    var count: Int { rows?.count ?? letters.count }

    /// The row of word `i`.
    @inline(__always) func row(_ i: Int) -> Int { rows.map { Int($0[i]) } ?? i }

    func word(_ i: Int) -> [UInt8] {
        let r = row(i)
        return Array(bytes[r * length ..< (r + 1) * length])
    }

    func string(_ i: Int) -> String {
        let r = row(i)
        return String(decoding: bytes[r * length ..< (r + 1) * length], as: UTF8.self)
    }

    /// The index of `word`, by binary search, or nil when it is not one of these words.
    func index(of word: [UInt8]) -> Int? {
        guard word.count == length else { return nil }
        var lo = 0, hi = letters.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let base = mid * length
            var order = 0
            for k in 0..<length where bytes[base + k] != word[k] {
                order = bytes[base + k] < word[k] ? -1 : 1
                break
            }
            if order == 0 { return rows.map { WordsOfLength.position(of: Int32(mid), in: $0) } ?? mid }
            if order < 0 { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    private static func position(of r: Int32, in rows: [Int32]) -> Int? {
        var lo = 0, hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid] < r { lo = mid + 1 } else { hi = mid }
        }
        return lo < rows.count && rows[lo] == r ? lo : nil
    }
}

/// A language's words for Hangman, by length. Words longer than
/// `Lexicon.longest` letters are left out: evil play keys a family by a
/// 64-bit mask of positions.
struct Lexicon: Sendable {
    static let longest = 64

    /// Index `n` holds the words of `n` letters (index 0 is empty).
    let byLength: [WordsOfLength]

    init(byLength: [WordsOfLength]) { self.byLength = byLength }

    /// The words of `list`, and those of them that `common` marks (the
    /// computer's words: all of them without `common`), sharing the words'
    /// arrays. One walk of the trie.
    static func tables(_ list: WordList, common: CommonWords?) -> (words: Lexicon, secrets: Lexicon) {
        var byLength = (0...Lexicon.longest).map { WordsOfLength(length: $0) }
        var rows = [[Int32]](repeating: [], count: Lexicon.longest + 1)
        list.forEachWordAndNode { word, node in
            guard word.count <= Lexicon.longest else { return }
            var mask: UInt32 = 0
            for b in word { mask |= 1 << UInt32(b - 0x61) }
            if let common, common.isCommon(node: node) {
                rows[word.count].append(Int32(truncatingIfNeeded: byLength[word.count].letters.count))
            }
            byLength[word.count].bytes.append(contentsOf: word)
            byLength[word.count].letters.append(mask)
        }
        // 8 bytes after the last row: an evil guess reads a row 8 letters
        // at a time, up to 7 bytes past its end (`EvilSplit`).
        for n in byLength.indices { byLength[n].bytes.append(contentsOf: repeatElement(0, count: 8)) }
        let words = Lexicon(byLength: byLength)
        guard common != nil else { return (words, words) }
        return (words, Lexicon(byLength: zip(byLength, rows).map { WordsOfLength($0, rows: $1) }))
    }

    func words(length: Int) -> WordsOfLength? {
        byLength.indices.contains(length) && length > 0 ? byLength[length] : nil
    }

    /// The longest length that has a word.
    var maxLength: Int? { byLength.lastIndex { $0.count > 0 }.flatMap { $0 > 0 ? $0 : nil } }
}

extension WordList {
    /// Whether `word` (lowercase ASCII letters) is a word of the list.
    func contains(_ word: [UInt8]) -> Bool {
        var node = WordList.root
        for b in word {
            guard b >= 0x61, b <= 0x7A, let next = child(node, b - 0x61) else { return false }
            node = next
        }
        return nodes[node].isWord
    }
}

/// Phrases as Hangman plays them: lowercase words of letters a–z, apostrophes
/// and hyphens, one space between words, and a letter in every word.
enum Phrase {
    /// `text` as a phrase (case folded, spaces trimmed and collapsed), or nil.
    static func normalized(_ text: some StringProtocol) -> String? {
        guard let bytes = folded(text, slashIsSpace: false),
              bytes.split(separator: 0x20).allSatisfy({ $0.contains(where: isLetter) }),
              !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A guess of a word or phrase: like `normalized`, but `/` separates words
    /// too and a word need not hold a letter (a guess of the wrong shape is
    /// simply wrong). Nil when it holds anything else, or no letter at all.
    static func guess(_ text: some StringProtocol) -> String? {
        guard let bytes = folded(text, slashIsSpace: true), bytes.contains(where: isLetter) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Folds case, turns runs of spaces (and slashes) into one space, trims.
    private static func folded(_ text: some StringProtocol, slashIsSpace: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        var pendingSpace = false
        for b in text.utf8 {
            let lower = b | 0x20
            if b == 0x20 || b == 0x09 || (slashIsSpace && b == 0x2F) {
                pendingSpace = !out.isEmpty
                continue
            }
            guard isLetter(lower) || b == 0x27 || b == 0x2D else { return nil }  // ' and -
            if pendingSpace { out.append(0x20); pendingSpace = false }
            out.append(isLetter(lower) ? lower : b)
        }
        return out
    }

    static func isLetter(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }

    /// How many letters the guesser has to find.
    static func letterCount(_ phrase: String) -> Int { phrase.utf8.count(where: isLetter) }

    /// The phrase or word as the wire writes it: `/` between words.
    static func slashed(_ phrase: String) -> String { String(phrase.map { $0 == " " ? "/" : $0 }) }
}

/// A language's phrase list, in the order given (duplicates dropped).
struct PhraseBook: Sendable {
    let all: [String]
    let byLetters: [Int: [String]]

    init(_ lines: [String]) {
        var seen = Set<String>()
        all = lines.compactMap(Phrase.normalized).filter { seen.insert($0).inserted }
        byLetters = Dictionary(grouping: all, by: Phrase.letterCount)
    }
}

/// A pick in 0..<n from the game's seed. Each use of the seed has its own
/// salt, so the length, the answer and the word revealed do not follow each other.
func seededPick(_ n: Int, seed: UInt64, salt: UInt64) -> Int {
    var random = SplitMix64(seed: seed ^ (salt &* 0xD1B5_4A32_D192_ED03))
    return Int(random.next().multipliedFullWidth(by: UInt64(n)).high)
}

enum Salt {
    static let length: UInt64 = 1
    static let answer: UInt64 = 2
    static let reveal: UInt64 = 3
    static let setter: UInt64 = 4
}
