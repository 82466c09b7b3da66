import GameKit
import WordLists
import GhostWire

/// The rule of record. The player who just appended a letter loses when the
/// fragment is a word longer than 3 letters, or when no word of the list
/// properly extends it (so a short word that nothing extends is dead too).
/// `Vocabulary.norvig` gives Norvig's rule instead (for the solver and its
/// tests; games are played under the rule of record).
public struct GhostRules: Sendable {
    /// Words of this many letters or more lose for the player who makes them.
    public static let losingWordLength = 4

    /// Which words exist, and which of them lose.
    public enum Vocabulary: Sendable, Equatable {
        /// This game's rule (the default): every word of the list counts as a
        /// continuation, so a word of 3 letters or fewer is allowed and play
        /// goes on while a longer word starts with it; a word of 4+ letters
        /// loses; a fragment no word properly extends is dead.
        case ownRule
        /// Norvig's (pytudes, Ghost.ipynb), with a limit of `minLength`
        /// letters: only the words of `minLength`+ letters exist. Each of
        /// them loses; a shorter word is neither a word nor a fragment, so a
        /// fragment must begin (in Superghost: occur in) a word of at least
        /// `minLength` letters.
        case norvig(minLength: Int)

        /// Words of this many letters or more lose.
        public var losingLength: Int {
            switch self {
            case .ownRule: GhostRules.losingWordLength
            case .norvig(let m): max(m, 1)
            }
        }
    }

    /// Under `.ownRule` the list as given; under `.norvig(m)` only its words
    /// of m+ letters (so every word of it loses, and every node is a fragment).
    public let words: WordList
    public let vocabulary: Vocabulary
    /// Words of this many letters or more lose (4 under the rule of record).
    public let losingLength: Int
    /// The language code of the list ("" when it does not matter).
    public let language: String
    /// Superghost's index (`variant=super`): which fragments some word
    /// contains. Nil for Ghost and bluff and challenge.
    public let infixes: Infixes?

    public init(words: WordList, language: String = "", infixes: Infixes? = nil) {
        self.words = words
        self.language = language
        self.infixes = infixes
        self.vocabulary = .ownRule
        self.losingLength = GhostRules.losingWordLength
    }

    /// Rules under `vocabulary`; with `superghost`, the infix index of the
    /// words that can end a round is built here (it takes a while on a large list).
    public init(words: WordList, vocabulary: Vocabulary, language: String = "", superghost: Bool = false) {
        let kept: WordList
        switch vocabulary {
        case .ownRule: kept = words
        case .norvig: kept = words.keeping(minLength: vocabulary.losingLength)
        }
        self.words = kept
        self.language = language
        self.infixes = superghost ? Infixes(words: kept, minLength: vocabulary.losingLength) : nil
        self.vocabulary = vocabulary
        self.losingLength = vocabulary.losingLength
    }

    /// Whether this is Superghost.
    public var isSuper: Bool { infixes != nil }

    /// Superghost's judgement of a fragment a player has just made: a word
    /// of 4+ letters loses, and so does a fragment that no word of 4+ letters
    /// contains (a shorter word leads nowhere, as in Ghost).
    public func superVerdict(_ fragment: [UInt8]) -> Verdict {
        if fragment.count >= losingLength && words.isWord(String(decoding: fragment, as: UTF8.self)) {
            return .word
        }
        return infixes?.contains(fragment) ?? false ? .alive : .dead
    }

    public enum Verdict: Sendable, Equatable {
        /// Play goes on.
        case alive
        /// The fragment is a word longer than 3 letters.
        case word
        /// No word properly extends the fragment.
        case dead
    }

    /// Judges a fragment that a player has just made.
    public func verdict(_ fragment: some StringProtocol) -> Verdict {
        guard let node = words.node(for: fragment) else { return .dead }
        return verdict(node: node, length: fragment.utf8.count)
    }

    /// A word the player who made a dead fragment could have been heading
    /// for: the shortest word that loses a round (longer than 3 letters)
    /// starting with `prefix`, the fragment before their letter; the first
    /// alphabetically among those of that length. Play reaches it: no shorter
    /// fragment on the way is a losing word or dead. Nil for an empty prefix
    /// (any word would do) and when every word after the prefix is short.
    public func possibleWord(after prefix: some StringProtocol) -> String? {
        guard !prefix.isEmpty else { return nil }
        return words.shortestWord(startingWith: prefix, minLength: max(losingLength, prefix.utf8.count + 1))
    }

    /// The same judgement for a trie node that stands for a fragment of `length` letters.
    public func verdict(node: Int, length: Int) -> Verdict {
        let n = words.nodes[node]
        if n.isWord && length >= losingLength { return .word }
        return n.hasChildren ? .alive : .dead
    }
}

