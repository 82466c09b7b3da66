import GameKit
import WordLists
import GhostWire
/// Bluff and challenge (`variant=challenge`): a dead fragment does not end
/// the round (only a word of 4+ letters does); the next player may
/// `CHALLENGE` it instead, and the challenged player answers with a word
/// that starts with it (`WORD`) or concedes.
public struct ChallengeGhost: GhostVariant {
    public private(set) var round: GhostRound
    /// The seat that challenged, while the challenged seat (the one to
    /// move) has not answered. Nil otherwise.
    public private(set) var challenger: Int? = nil
    /// The word that answered the challenge, once answered (in the list or not).
    public private(set) var answer: String? = nil

    /// The longest fragment; past it a letter is refused (no word is that
    /// long: the next player can only win by challenging).
    public static let maxFragment = 64

    public init(rules: GhostRules, firstToMove: Int = 0) { round = GhostRound(rules: rules, firstToMove: firstToMove) }

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

    /// A letter: only a word longer than 3 letters ends the round; a dead
    /// fragment goes on (the trie node becomes -1).
    @discardableResult
    public mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        guard challenger == nil else {
            throw .refused(code: "challenge-pending", message: "you are challenged: answer WORD <word> (a word that starts with \"\(fragment)\"), or CONCEDE")
        }
        guard fragment.utf8.count < ChallengeGhost.maxFragment else {
            throw .refused(code: "fragment-too-long", message: "no word is that long: CHALLENGE it")
        }
        return round.append(letter, by: seat, deadEnds: false)
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        switch move {
        case .letter(let letter): return try play(letter, by: seat)
        case .front: throw GhostRound.notAtTheFront
        case .word(let word): return try answer(word, by: seat)
        case .challenge: return try challenge(by: seat)
        case .concede: return try concede(by: seat)
        case .own: throw GhostRound.oneLetter
        }
    }

    /// The seat to move says no word starts with the fragment; the previous
    /// player must answer with one (`answer`) or concede.
    @discardableResult
    public mutating func challenge(by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        guard challenger == nil else {
            throw .refused(code: "challenge-pending", message: "you are challenged: answer WORD <word>, or CONCEDE")
        }
        guard !fragment.isEmpty else {
            throw .refused(code: "empty-fragment", message: "there is nothing to challenge yet: play a letter")
        }
        challenger = seat
        return round.moved(by: seat)
    }

    /// The challenged seat names a word: one of the list, longer than the
    /// fragment and starting with it, and the challenger loses
    /// (`challenge-failed`); a word of that shape not in the list loses
    /// (`bluff`). A word of another shape is refused (`bad-word`): nothing
    /// changes.
    @discardableResult
    public mutating func answer(_ word: String, by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        guard let challenger else { throw ChallengeGhost.noChallenge }
        let w = String(decoding: word.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        guard w.utf8.count > fragment.utf8.count, w.utf8.allSatisfy({ (0x61...0x7A).contains($0) }),
              w.utf8.starts(with: fragment.utf8) else {
            throw .refused(code: "bad-word", message: "answer with a word that starts with \"\(fragment)\" and is longer, or CONCEDE")
        }
        answer = w
        return rules.words.isWord(w) ? round.moved(by: seat, loser: challenger, reason: .challengeFailed, passes: false)
            : round.moved(by: seat, loser: seat, reason: .bluff, passes: false)
    }

    /// The challenged seat gives up: it loses (`bluff`).
    @discardableResult
    public mutating func concede(by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        guard challenger != nil else { throw ChallengeGhost.noChallenge }
        return round.moved(by: seat, loser: seat, reason: .bluff, passes: false)
    }

    private static let noChallenge = MoveError.refused(code: "no-challenge", message: "nobody challenged you: play a letter, or CHALLENGE")

    public mutating func end(_ outcome: Outcome) { round.end(outcome) }

    @discardableResult
    public mutating func resign(_ seat: Int) -> Outcome? { round.resign(seat) }

    /// `fragment=<f>`, then `challenged=yes` while a challenge awaits its answer.
    public var publicFields: [Field] {
        isChallenged ? [Field(GhostWire.Key.fragment, fragment), Field(GhostWire.Key.challenged, GhostWire.yes)] : [Field(GhostWire.Key.fragment, fragment)]
    }

    /// `last=<name>`; while challenged, the seat to move played the last letter.
    public func stateFields(names: [String]) -> [Field] { lastFields(names: names, last: isChallenged ? toMove : 1 - toMove) }

    /// A letter is `letter=<c>`, an answer `word=<w>`.
    public func moveFields(_ move: Move) -> [Field] {
        guard case .word(let w) = move else { return GhostRound.moveFields(move) }
        return [Field(GhostWire.Key.word, w)]
    }

    /// `variant=challenge` on GAME and on the reply to NEW.
    public var setupFields: [Field] { [Field(GhostWire.Key.variant, GhostKind.challengeVariant)] }

    /// After `challenge-failed`, the word that answered; after `bluff`, a
    /// word that starts with the fragment, if any.
    public var endFields: [Field] {
        switch outcome?.reason {
        case .challengeFailed?: return answer.map { [Field(GhostWire.Key.word, $0)] } ?? []
        case .bluff?: return continuation.map { [Field(GhostWire.Key.word, $0)] } ?? []
        default: return possibleWord.map { [Field(GhostWire.Key.word, $0)] } ?? []
        }
    }

    public func ownExplanation(loserName: String) -> String? {
        switch outcome?.reason {
        case .challengeFailed?:
            return "\"\(fragment)\" could be \"\(answer ?? "")\", so \(loserName) loses the challenge."
        case .bluff?:
            // What the fragment really is: a word that starts with it, or none.
            let truth = continuation.map { "\"\(fragment)\" could be \"\($0)\"" }
                ?? (rules.words.isWord(fragment) ? "\"\(fragment)\" is a word, but no longer word starts with it"
                    : "\"\(fragment)\" can't be extended: no word starts with it")
            if let answer { return "\"\(answer)\" is not a word, so \(loserName) loses; \(truth)." }
            return continuation == nil ? "\(loserName) conceded: \(truth)." : "\(loserName) conceded, though \(truth)."
        default: return nil
        }
    }

    /// Challenged: an answer exists iff the fragment is alive. A dead
    /// fragment: the player to move wins by challenging it.
    public var settledValue: Bool? {
        if isChallenged { return !GhostReview.isDead(fragment, rules) }
        return GhostReview.isDead(fragment, rules) ? true : nil
    }

    public var settledWinningMoves: [Move]? {
        if isChallenged { return continuation.map { [.word($0)] } ?? [] }
        return GhostReview.isDead(fragment, rules) ? [.challenge] : nil
    }
}
