import GameKit
import WordLists
import GhostWire
/// Superghost (`variant=super`): a letter goes at either end, and a fragment
/// is alive while some word of 4+ letters contains it (`GhostRules.infixes`).
public struct Superghost: GhostVariant {
    public private(set) var round: GhostRound
    /// The last letter played and where it went, so the end of a round can
    /// say what came before.
    public private(set) var lastMove: (letter: Letter, front: Bool)? = nil

    public init(rules: GhostRules, firstToMove: Int = 0) { round = GhostRound(rules: rules, firstToMove: firstToMove) }

    /// The seat `seat` adds `letter` at the front (`front`) or the back of
    /// the fragment. Returns the outcome if this move ended the round.
    @discardableResult
    public mutating func play(_ letter: Letter, front: Bool, by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        if front { round.fragment.insert(letter.character, at: round.fragment.startIndex) } else { round.fragment.append(letter.character) }
        lastMove = (letter, front)
        switch rules.superVerdict(Array(fragment.utf8)) {
        case .alive: return round.moved(by: seat)
        case .word: return round.moved(by: seat, loser: seat, reason: .word)
        case .dead: return round.moved(by: seat, loser: seat, reason: .dead)
        }
    }

    @discardableResult
    public mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        try play(letter, front: false, by: seat)
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        switch move {
        case .letter(let letter): return try play(letter, front: false, by: seat)
        case .front(let letter): return try play(letter, front: true, by: seat)
        case .word, .own: throw GhostRound.oneLetter
        case .challenge, .concede: throw GhostRound.wrongVariant
        }
    }

    public mutating func end(_ outcome: Outcome) { round.end(outcome) }

    @discardableResult
    public mutating func resign(_ seat: Int) -> Outcome? { round.resign(seat) }

    /// Once over: the fragment before the last letter (nil if none was played).
    public var before: String? {
        lastMove.map { String($0.front ? fragment.dropFirst() : fragment.dropLast()) }
    }

    /// After a dead fragment: a word of 4+ letters that contains what came before.
    public var possibleWord: String? {
        guard outcome?.reason == .dead, fragment.utf8.count >= 2 else { return nil }
        return before.flatMap { rules.infixes?.word(containing: Array($0.utf8)) }
    }

    /// `letter=<c> end=front|back`.
    public func moveFields(_ move: Move) -> [Field] {
        guard case .letter(let l) = move else { return GhostRound.moveFields(move) }
        return [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.end, GhostWire.End.back.rawValue)]
    }

    public func fields(after move: Move) -> [Field] { moveFields(move) + publicFields }

    /// `variant=super` on GAME and on the reply to NEW.
    public var setupFields: [Field] { [Field(GhostWire.Key.variant, GhostKind.superVariant)] }

    public func ownExplanation(loserName: String) -> String? {
        guard outcome?.reason == .dead else { return nil }
        let hint = possibleWord.map { w in before.map { "; \"\($0)\" could have led to \"\(w)\"" } ?? "" } ?? ""
        return "No word contains \"\(fragment)\", so \(loserName) loses\(hint)."
    }
}
