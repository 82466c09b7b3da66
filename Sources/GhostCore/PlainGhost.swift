import GameKit
import WordLists
import GhostWire
/// Ghost: letters go at the end; a word of 4+ letters or a fragment no word
/// properly extends loses the round for the player who made it.
public struct PlainGhost: GhostVariant {
    public private(set) var round: GhostRound

    public init(rules: GhostRules, firstToMove: Int = 0) { round = GhostRound(rules: rules, firstToMove: firstToMove) }

    @discardableResult
    public mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        try round.check(seat)
        return round.append(letter, by: seat, deadEnds: true)
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        switch move {
        case .letter(let letter): return try play(letter, by: seat)
        case .front: throw GhostRound.notAtTheFront
        case .word, .own: throw GhostRound.oneLetter
        case .challenge, .concede: throw GhostRound.wrongVariant
        }
    }

    public mutating func end(_ outcome: Outcome) { round.end(outcome) }

    @discardableResult
    public mutating func resign(_ seat: Int) -> Outcome? { round.resign(seat) }
}
