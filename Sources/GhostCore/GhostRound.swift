import GameKit
import WordLists
import GhostWire
/// What every variant of Ghost shares: a round between seat 0 and seat 1 as
/// a pure value (no names, no sockets, no clocks), its fragment, whose turn
/// it is, the moves counted, and the guards every move passes first. The
/// variants (`PlainGhost`, `Superghost`, `ChallengeGhost`) add only what is
/// theirs on top of it.
public struct GhostRound: Sendable {
    public let rules: GhostRules
    public internal(set) var fragment: String = ""
    /// Trie node of the fragment (Ghost, bluff and challenge); -1 once no
    /// word starts with it (bluff and challenge).
    public internal(set) var node: Int = WordList.root
    /// The seat to move next (0 or 1).
    public internal(set) var toMove: Int
    /// Set once the round is over.
    public internal(set) var outcome: Outcome?
    /// Moves played (each its own ply in the store). 0: nobody moved.
    public internal(set) var moveCount = 0

    init(rules: GhostRules, firstToMove: Int) {
        self.rules = rules
        self.toMove = firstToMove == 1 ? 1 : 0
    }

    /// The guards of every move: the round goes on, and it is `seat`'s turn.
    func check(_ seat: Int) throws(MoveError) {
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
    }

    /// Counts a move by `seat`: `loser` (if any) loses it for `reason`;
    /// `passes`: the turn goes to the other seat.
    mutating func moved(by seat: Int, loser: Int? = nil, reason: EndReason = .dead, passes: Bool = true) -> Outcome? {
        moveCount += 1
        if let loser { outcome = Outcome(loser: loser, reason: reason) }
        if passes { toMove = 1 - seat }
        return outcome
    }

    /// A Ghost letter at the back, judged by the trie: a losing word or a
    /// dead fragment (`deadEnds`) ends the round; otherwise the node is -1
    /// once no word starts with the fragment.
    mutating func append(_ letter: Letter, by seat: Int, deadEnds: Bool) -> Outcome? {
        fragment.append(letter.description)
        let next = node >= 0 ? rules.words.child(node, letter.index) : nil
        node = next ?? -1
        let verdict = next.map { rules.verdict(node: $0, length: fragment.utf8.count) } ?? .dead
        switch verdict {
        case .alive: return moved(by: seat)
        case .word: return moved(by: seat, loser: seat, reason: .word)
        case .dead: return deadEnds ? moved(by: seat, loser: seat, reason: .dead) : moved(by: seat)
        }
    }

    /// Ends the round for a reason from outside the rules; no effect once over.
    mutating func end(_ outcome: Outcome) {
        guard self.outcome == nil, outcome.loser == 0 || outcome.loser == 1 else { return }
        self.outcome = outcome
    }

    /// The seat `seat` gives up (left the game). No effect once over.
    mutating func resign(_ seat: Int) -> Outcome? {
        guard outcome == nil, seat == 0 || seat == 1 else { return nil }
        end(Outcome(loser: seat, reason: .left))
        return outcome
    }

    // The refusals of moves that are another variant's.
    static let notAtTheFront = MoveError.notAMove("in Ghost letters go at the end: LETTER <c> front is for variant=super")
    static let oneLetter = MoveError.notAMove("play one letter a-z")
    static let wrongVariant = MoveError.refused(
        code: "wrong-variant", message: "CHALLENGE, and WORD or CONCEDE to answer one, are for variant=challenge: in Ghost the server ends a dead fragment itself")

    /// `letter=<c>` and what else each move says on MOVE, as Ghost says it;
    /// a variant changes the moves that are its own.
    static func moveFields(_ move: Move) -> [Field] {
        switch move {
        case .letter(let l): return [Field(GhostWire.Key.letter, l.description)]
        case .front(let l): return [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.end, GhostWire.End.front.rawValue)]
        case .word, .own: return []
        case .challenge: return [Field(GhostWire.Key.challenge, GhostWire.yes)]
        case .concede: return [Field(GhostWire.Key.concede, GhostWire.yes)]
        }
    }
}

/// A variant of Ghost: a `Game` over a `GhostRound`. The shared state, the
/// end of a round from outside the rules, the fields and sentences every
/// variant says alike come from here; a variant supplies its moves and what
/// it says differently.
public protocol GhostVariant: Game {
    var round: GhostRound { get }
    init(rules: GhostRules, firstToMove: Int)
    /// The seat `seat` appends `letter`. Returns the outcome if it ended the round.
    mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome?
    /// The seat `seat` gives up (left the game). No effect on a finished round.
    mutating func resign(_ seat: Int) -> Outcome?
    /// After a dead fragment: a word the loser could have been heading for.
    var possibleWord: String? { get }
    /// The sentence for an end that is this variant's own; nil: the shared one.
    func ownExplanation(loserName: String) -> String?
    /// What the player to move can force when this variant's own rules
    /// settle it with no solver (bluff and challenge: a dead fragment, a
    /// pending challenge); nil: ask the solved game (`GhostReview`).
    var settledValue: Bool? { get }
    /// The moves that win when `settledValue` says so; nil: ask the solved game.
    var settledWinningMoves: [Move]? { get }
}

extension GhostVariant {
    public typealias Outcome = GameKit.Outcome
    public typealias MoveError = GameKit.MoveError

    public init(rules: GhostRules) { self.init(rules: rules, firstToMove: 0) }

    public var rules: GhostRules { round.rules }
    public var fragment: String { round.fragment }
    /// Trie node of the fragment; valid while the round is alive.
    public var node: Int { round.node }
    public var toMove: Int { round.toMove }
    public var outcome: Outcome? { round.outcome }
    public var moveCount: Int { round.moveCount }

    public func ownExplanation(loserName: String) -> String? { nil }
    public var settledValue: Bool? { nil }
    public var settledWinningMoves: [Move]? { nil }

    /// `fragment=<f>`.
    public var publicFields: [Field] { [Field(GhostWire.Key.fragment, fragment)] }

    /// `last=<name>`: who played the fragment's last letter (the seat not to
    /// move: seats alternate), so a client that missed the moves (a daemon
    /// restart) still says who played it. Nothing while the fragment is empty.
    public func stateFields(names: [String]) -> [Field] { lastFields(names: names, last: 1 - toMove) }

    func lastFields(names: [String], last: Int) -> [Field] {
        guard !fragment.isEmpty, outcome == nil, names.indices.contains(last) else { return [] }
        return [Field(GhostWire.Key.last, names[last])]
    }

    public func moveFields(_ move: Move) -> [Field] { GhostRound.moveFields(move) }

    /// A letter's MOVE is `letter=<c> fragment=<f>`; a challenge's
    /// `challenge=yes fragment=<f>` (the TURN after it says `challenged=yes`).
    public func fields(after move: Move) -> [Field] {
        switch move {
        case .letter(let l): return [Field(GhostWire.Key.letter, l.description), Field(GhostWire.Key.fragment, fragment)]
        case .challenge: return [Field(GhostWire.Key.challenge, GhostWire.yes), Field(GhostWire.Key.fragment, fragment)]
        default: return moveFields(move) + publicFields
        }
    }

    /// When the round was lost by a dead fragment: a word the loser could
    /// have been heading for (`GhostRules.possibleWord`) from the fragment
    /// before their letter, if there is one.
    public var possibleWord: String? {
        guard outcome?.reason == .dead, fragment.utf8.count >= 2 else { return nil }
        return rules.possibleWord(after: fragment.dropLast())
    }

    /// OVER, after a dead fragment: `word=<w>`, a word the loser could have
    /// been heading for.
    public var endFields: [Field] { possibleWord.map { [Field(GhostWire.Key.word, $0)] } ?? [] }

    public func explanation(loser: String, winner: String) -> String { explanation(loserName: loser) }

    /// A sentence that says why the round ended, for people.
    public func explanation(loserName: String) -> String {
        guard let outcome else { return "The game is not over." }
        if let own = ownExplanation(loserName: loserName) { return own }
        switch outcome.reason {
        case .word:
            // Most games end so: built in one buffer (GhostRound.sentence), same text.
            return GhostRound.sentence("\"", fragment, "\" is a word longer than ", String(rules.losingLength - 1),
                                       " letters, so ", loserName, " loses.")
        case .dead:
            // The word the loser could have been heading for, if there is one.
            let hint = possibleWord.map { "; \"\(fragment.dropLast())\" could have led to \"\($0)\"" } ?? ""
            if rules.words.isWord(fragment) {
                return "\"\(fragment)\" is a word, but no longer word starts with it, so \(loserName) loses\(hint)."
            }
            return "No word starts with \"\(fragment)\", so \(loserName) loses\(hint)."
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

extension GhostRound {
    /// The pieces of a sentence as one string: their UTF-8 bytes copied into
    /// one buffer, then made a string once. An interpolation appends each
    /// piece to a growing String, which checks the join of every two pieces
    /// (at every piece; a game's end writes several sentences).
    static func sentence(_ parts: String...) -> String {
        var count = 0
        for part in parts { count += part.utf8.count }
        // Straight into the string's storage (no byte array first).
        return String(unsafeUninitializedCapacity: count) { out in
            var at = 0
            for var part in parts {
                part.withUTF8 { src in
                    guard let from = src.baseAddress, let to = out.baseAddress, at + src.count <= count else { return }
                    (to + at).update(from: from, count: src.count)
                    at += src.count
                }
            }
            return at
        }
    }
}
