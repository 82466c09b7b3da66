@_exported import GameKit
@_exported import WordLists
@_exported import GhostWire

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
    /// Superghost (`variant=super`): letters go at either end, and a
    /// fragment is alive while some word contains it. Nil: Ghost.
    public let infixes: Infixes?
    /// Bluff and challenge (`variant=challenge`): a dead fragment does not
    /// end the round; the next player may `CHALLENGE` it instead.
    public let challenge: Bool

    public init(words: WordList, language: String = "", infixes: Infixes? = nil, challenge: Bool = false) {
        self.words = words
        self.language = language
        self.infixes = infixes
        self.challenge = challenge && infixes == nil
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
        self.challenge = false
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

/// A round of Ghost between seat 0 and seat 1, as a pure value: no names, no
/// sockets, no clocks. `firstToMove` (seat 0 by default) starts.
public struct GhostGame: Game {
    public let rules: GhostRules
    public private(set) var fragment: String = ""
    /// Trie node of the fragment; valid while the game is alive.
    public private(set) var node: Int = WordList.root
    /// The seat to move next (0 or 1).
    public private(set) var toMove: Int = 0
    /// Set once the game is over.
    public private(set) var outcome: Outcome?

    public typealias Outcome = GameKit.Outcome
    public typealias MoveError = GameKit.MoveError

    public init(rules: GhostRules, firstToMove: Int = 0) {
        self.rules = rules
        self.toMove = firstToMove == 1 ? 1 : 0
    }

    /// Moves played: letters, and in the bluff variant a challenge and its
    /// answer too, so each has a ply of its own in the store. 0: nobody moved.
    public var moveCount: Int { plies }
    private var plies = 0

    /// Bluff variant: the seat that challenged, while the challenged seat
    /// (the one to move) has not answered. Nil otherwise.
    public private(set) var challenger: Int? = nil
    /// Bluff variant: the word that answered the challenge, once answered
    /// (in the list or not).
    public private(set) var answer: String? = nil

    /// Bluff variant: the longest fragment; past it a letter is refused (no
    /// word is that long: the next player can only win by challenging).
    public static let maxFragment = 64

    /// Whether a challenge awaits its answer.
    public var isChallenged: Bool { challenger != nil && outcome == nil }

    /// Whether no word properly extends the fragment (what a challenge
    /// claims); false for the empty fragment.
    public var isDeadFragment: Bool {
        guard !fragment.isEmpty else { return false }
        guard node >= 0, node < rules.words.nodes.count else { return true }
        return !rules.words.nodes[node].hasChildren
    }

    /// A word longer than the fragment that starts with it: the shortest,
    /// the first alphabetically among those (nil if none; the fragment is dead).
    public var continuation: String? {
        guard !fragment.isEmpty else { return nil }
        return rules.words.shortestWord(startingWith: fragment, minLength: fragment.utf8.count + 1)
    }

    /// Superghost: the seat `seat` adds `letter` at the front (`front`) or
    /// the back of the fragment. Returns the outcome if this move ended the game.
    @discardableResult
    public mutating func play(_ letter: Letter, front: Bool, by seat: Int) throws(MoveError) -> Outcome? {
        guard rules.isSuper else {
            if front { throw .notAMove("in Ghost letters go at the end: LETTER <c> front is for variant=super") }
            return try play(letter, by: seat)
        }
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        if front { fragment.insert(letter.character, at: fragment.startIndex) } else { fragment.append(letter.character) }
        plies += 1
        lastMove = (letter, front)
        switch rules.superVerdict(Array(fragment.utf8)) {
        case .alive: break
        case .word: outcome = Outcome(loser: seat, reason: .word)
        case .dead: outcome = Outcome(loser: seat, reason: .dead)
        }
        toMove = 1 - seat
        return outcome
    }

    /// The seat `seat` appends `letter`. Returns the outcome if this move ended the game.
    @discardableResult
    public mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        if rules.isSuper { return try play(letter, front: false, by: seat) }
        if rules.challenge { return try playLetterInBluff(letter, by: seat) }
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        fragment.append(letter.character)
        plies += 1
        if let next = rules.words.child(node, letter.index) {
            node = next
            switch rules.verdict(node: next, length: fragment.utf8.count) {
            case .alive: break
            case .word: outcome = Outcome(loser: seat, reason: .word)
            case .dead: outcome = Outcome(loser: seat, reason: .dead)
            }
        } else {
            outcome = Outcome(loser: seat, reason: .dead)
        }
        toMove = 1 - seat
        return outcome
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        switch move {
        case .letter(let letter): return try play(letter, by: seat)
        case .front(let letter): return try play(letter, front: true, by: seat)
        case .word(let word):
            guard rules.challenge else { throw .notAMove("play one letter a-z") }
            return try answer(word, by: seat)
        case .challenge: return try challenge(by: seat)
        case .concede: return try concede(by: seat)
        }
    }

    // MARK: Bluff and challenge (variant=challenge)

    /// The refusal of a challenge's moves outside the bluff variant.
    private static let wrongVariant = MoveError.refused(
        code: "wrong-variant", message: "CHALLENGE, and WORD or CONCEDE to answer one, are for variant=challenge: in Ghost the server ends a dead fragment itself")

    /// A letter in the bluff variant: only a word longer than 3 letters ends
    /// the round; a dead fragment goes on (the trie node becomes -1).
    private mutating func playLetterInBluff(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        guard challenger == nil else {
            throw .refused(code: "challenge-pending", message: "you are challenged: answer WORD <word> (a word that starts with \"\(fragment)\"), or CONCEDE")
        }
        guard fragment.utf8.count < GhostGame.maxFragment else {
            throw .refused(code: "fragment-too-long", message: "no word is that long: CHALLENGE it")
        }
        fragment.append(letter.character)
        plies += 1
        if node >= 0, let next = rules.words.child(node, letter.index) {
            node = next
            if rules.verdict(node: next, length: fragment.utf8.count) == .word {
                outcome = Outcome(loser: seat, reason: .word)
            }
        } else {
            node = -1
        }
        toMove = 1 - seat
        return outcome
    }

    /// The seat to move says no word starts with the fragment; the previous
    /// player must answer with one (`answer`) or concede.
    @discardableResult
    public mutating func challenge(by seat: Int) throws(MoveError) -> Outcome? {
        guard rules.challenge else { throw GhostGame.wrongVariant }
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        guard challenger == nil else {
            throw .refused(code: "challenge-pending", message: "you are challenged: answer WORD <word>, or CONCEDE")
        }
        guard !fragment.isEmpty else {
            throw .refused(code: "empty-fragment", message: "there is nothing to challenge yet: play a letter")
        }
        challenger = seat
        plies += 1
        toMove = 1 - seat
        return nil
    }

    /// The challenged seat names a word: one of the list, longer than the
    /// fragment and starting with it, and the challenger loses
    /// (`challenge-failed`); a word of that shape not in the list loses
    /// (`bluff`). A word of another shape is refused (`bad-word`): nothing
    /// changes.
    @discardableResult
    public mutating func answer(_ word: String, by seat: Int) throws(MoveError) -> Outcome? {
        guard rules.challenge else { throw GhostGame.wrongVariant }
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        guard let challenger else {
            throw .refused(code: "no-challenge", message: "nobody challenged you: play a letter, or CHALLENGE")
        }
        let w = String(decoding: word.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        guard w.utf8.count > fragment.utf8.count, w.utf8.allSatisfy({ (0x61...0x7A).contains($0) }),
              w.utf8.starts(with: fragment.utf8) else {
            throw .refused(code: "bad-word", message: "answer with a word that starts with \"\(fragment)\" and is longer, or CONCEDE")
        }
        answer = w
        plies += 1
        outcome = rules.words.isWord(w) ? Outcome(loser: challenger, reason: .challengeFailed) : Outcome(loser: seat, reason: .bluff)
        return outcome
    }

    /// The challenged seat gives up: it loses (`bluff`).
    @discardableResult
    public mutating func concede(by seat: Int) throws(MoveError) -> Outcome? {
        guard rules.challenge else { throw GhostGame.wrongVariant }
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        guard challenger != nil else {
            throw .refused(code: "no-challenge", message: "nobody challenged you: play a letter, or CHALLENGE")
        }
        plies += 1
        outcome = Outcome(loser: seat, reason: .bluff)
        return outcome
    }

    public mutating func end(_ outcome: Outcome) {
        guard self.outcome == nil, outcome.loser == 0 || outcome.loser == 1 else { return }
        self.outcome = outcome
    }

    /// The seat `seat` gives up (left the game). No effect on a finished game.
    @discardableResult
    public mutating func resign(_ seat: Int) -> Outcome? {
        guard outcome == nil, seat == 0 || seat == 1 else { return nil }
        end(Outcome(loser: seat, reason: .left))
        return outcome
    }

    /// `fragment=<f>`; in the bluff variant `challenged=yes` after it while
    /// a challenge awaits its answer.
    public var publicFields: [Field] {
        isChallenged ? [Field(GhostWire.Key.fragment, fragment), Field(GhostWire.Key.challenged, GhostWire.yes)] : [Field(GhostWire.Key.fragment, fragment)]
    }

    /// `last=<name>`: who played the fragment's last letter (the seat not to
    /// move: seats alternate), so a client that missed the moves (a daemon
    /// restart) still says who played it. Nothing while the fragment is empty.
    public func stateFields(names: [String]) -> [Field] {
        // While challenged, the seat to move played the last letter.
        let last = isChallenged ? toMove : 1 - toMove
        guard !fragment.isEmpty, outcome == nil, names.indices.contains(last) else { return [] }
        return [Field(GhostWire.Key.last, names[last])]
    }

    /// When the round was lost by a dead fragment: a word the loser could
    /// have been heading for (`GhostRules.possibleWord`) from the fragment
    /// before their letter, if there is one.
    public var possibleWord: String? {
        guard outcome?.reason == .dead, fragment.utf8.count >= 2 else { return nil }
        guard rules.isSuper else { return rules.possibleWord(after: fragment.dropLast()) }
        return before.flatMap { rules.infixes?.word(containing: Array($0.utf8)) }
    }

    /// Superghost, once over: the fragment before the last letter (which
    /// went at the front or the back; nil if that cannot be told).
    public var before: String? {
        guard rules.isSuper, let last = lastMove else { return nil }
        return String(last.front ? fragment.dropFirst() : fragment.dropLast())
    }

    /// The last letter played and where it went; Superghost keeps it so the
    /// end of a round can say what came before.
    public private(set) var lastMove: (letter: Letter, front: Bool)? = nil

    /// OVER, after a dead fragment: `word=<w>`, a word the loser could have
    /// been heading for.
    /// In the bluff variant: after `challenge-failed`, the word that
    /// answered; after `bluff`, a word that starts with the fragment, if any.
    public var endFields: [Field] {
        switch outcome?.reason {
        case .challengeFailed?: return answer.map { [Field(GhostWire.Key.word, $0)] } ?? []
        case .bluff?: return continuation.map { [Field(GhostWire.Key.word, $0)] } ?? []
        default:
            guard let word = possibleWord else { return [] }
            return [Field(GhostWire.Key.word, word)]
        }
    }

    /// `letter=<c>`, and in Superghost the end it went to: `end=front|back`.
    public func moveFields(_ move: Move) -> [Field] {
        switch move {
        case .letter(let l): return rules.isSuper ? [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.end, GhostWire.End.back.rawValue)] : [Field(GhostWire.Key.letter, l.description)]
        case .front(let l): return [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.end, GhostWire.End.front.rawValue)]
        case .word(let w): return rules.challenge ? [Field(GhostWire.Key.word, w)] : []
        case .challenge: return [Field(GhostWire.Key.challenge, GhostWire.yes)]
        case .concede: return [Field(GhostWire.Key.concede, GhostWire.yes)]
        }
    }

    /// The MOVE of a challenge is `challenge=yes fragment=<f>`: the TURN
    /// after it says `challenged=yes`.
    public func fields(after move: Move) -> [Field] {
        switch move {
        case .letter(let l) where !rules.isSuper: return [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.fragment, fragment)]
        case .challenge: return [Field(GhostWire.Key.challenge, GhostWire.yes), Field(GhostWire.Key.fragment, fragment)]
        default: return moveFields(move) + publicFields
        }
    }

    /// Superghost and the bluff variant say so on GAME and on the reply to
    /// NEW: `variant=super`, `variant=challenge`.
    public var setupFields: [Field] {
        rules.isSuper ? [Field(GhostWire.Key.variant, GhostKind.superVariant)]
            : rules.challenge ? [Field(GhostWire.Key.variant, GhostKind.challengeVariant)] : []
    }

    public func explanation(loser: String, winner: String) -> String { explanation(loserName: loser) }

    /// A sentence that says why the game ended, for people.
    public func explanation(loserName: String) -> String {
        guard let outcome else { return "The game is not over." }
        switch outcome.reason {
        case .word:
            return "\"\(fragment)\" is a word longer than \(rules.losingLength - 1) letters, so \(loserName) loses."
        case .dead where rules.isSuper:
            let hint = possibleWord.map { w in before.map { "; \"\($0)\" could have led to \"\(w)\"" } ?? "" } ?? ""
            return "No word contains \"\(fragment)\", so \(loserName) loses\(hint)."
        case .dead:
            // The word the loser could have been heading for, if there is one.
            let hint = possibleWord.map { "; \"\(fragment.dropLast())\" could have led to \"\($0)\"" } ?? ""
            if rules.words.isWord(fragment) {
                return "\"\(fragment)\" is a word, but no longer word starts with it, so \(loserName) loses\(hint)."
            }
            return "No word starts with \"\(fragment)\", so \(loserName) loses\(hint)."
        case .challengeFailed:
            return "\"\(fragment)\" could be \"\(answer ?? "")\", so \(loserName) loses the challenge."
        case .bluff:
            // What the fragment really is: a word that starts with it, or none.
            let truth = continuation.map { "\"\(fragment)\" could be \"\($0)\"" }
                ?? (rules.words.isWord(fragment) ? "\"\(fragment)\" is a word, but no longer word starts with it"
                    : "\"\(fragment)\" can't be extended: no word starts with it")
            if let answer { return "\"\(answer)\" is not a word, so \(loserName) loses; \(truth)." }
            return continuation == nil ? "\(loserName) conceded: \(truth)." : "\(loserName) conceded, though \(truth)."
        case .left:
            return "\(loserName) left the game."
        case .abandoned:
            return "\(loserName) stayed away past the grace period; the game was claimed."
        case .time:
            return "\(loserName) ran out of time."
        default:
            return "\(loserName) lost."
        }
    }
}
