@_exported import GameKit

/// The rule of record. The player who just appended a letter loses when the
/// fragment is a word longer than 3 letters, or when no word of the list
/// properly extends it (so a short word that nothing extends is dead too).
public struct GhostRules: Sendable {
    /// Words of this many letters or more lose for the player who makes them.
    public static let losingWordLength = 4

    public let words: WordList
    /// The language code of the list ("" when it does not matter).
    public let language: String

    public init(words: WordList, language: String = "") {
        self.words = words
        self.language = language
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
        return words.shortestWord(startingWith: prefix, minLength: max(GhostRules.losingWordLength, prefix.utf8.count + 1))
    }

    /// The same judgement for a trie node that stands for a fragment of `length` letters.
    public func verdict(node: Int, length: Int) -> Verdict {
        let n = words.nodes[node]
        if n.isWord && length >= GhostRules.losingWordLength { return .word }
        return n.hasChildren ? .alive : .dead
    }
}

/// Ghost's own reasons for the end of a round (left and abandoned come from GameKit).
extension EndReason {
    /// The loser made a word longer than 3 letters.
    public static let word = EndReason(rawValue: "word")
    /// The loser made a fragment that no word extends.
    public static let dead = EndReason(rawValue: "dead")
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

    /// A round replayed from its letters, or nil if they do not make a
    /// position still in play (for restoring saved games).
    public init?(rules: GhostRules, firstToMove: Int, replaying fragment: String) {
        self.init(rules: rules, firstToMove: firstToMove)
        for ch in fragment {
            guard let letter = Letter(String(ch)) else { return nil }
            do { try play(letter, by: toMove) } catch { return nil }
            if isOver { return nil }
        }
    }

    public var moveCount: Int { fragment.utf8.count }

    /// The seat `seat` appends `letter`. Returns the outcome if this move ended the game.
    @discardableResult
    public mutating func play(_ letter: Letter, by seat: Int) throws(MoveError) -> Outcome? {
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        fragment.append(letter.character)
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
        guard case .letter(let letter) = move else { throw .notAMove("play one letter a-z") }
        return try play(letter, by: seat)
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

    /// The seat `seat` loses by staying away past the grace period.
    @discardableResult
    public mutating func abandon(_ seat: Int) -> Outcome? {
        guard outcome == nil, seat == 0 || seat == 1 else { return nil }
        end(Outcome(loser: seat, reason: .abandoned))
        return outcome
    }

    public var publicFields: [Field] { [Field("fragment", fragment)] }

    /// `last=<name>`: who played the fragment's last letter (the seat not to
    /// move: seats alternate), so a client that missed the moves (a daemon
    /// restart) still says who played it. Nothing while the fragment is empty.
    public func stateFields(names: [String]) -> [Field] {
        guard !fragment.isEmpty, outcome == nil, names.indices.contains(1 - toMove) else { return [] }
        return [Field("last", names[1 - toMove])]
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
    public var endFields: [Field] {
        guard let word = possibleWord else { return [] }
        return [Field("word", word)]
    }

    public func moveFields(_ move: Move) -> [Field] {
        guard case .letter(let l) = move else { return [] }
        return [Field("letter", l.description)]
    }

    public func fields(after move: Move) -> [Field] {
        guard case .letter(let l) = move else { return publicFields }
        return [Field("letter", l.description), Field("fragment", fragment)]
    }

    public func explanation(loser: String, winner: String) -> String { explanation(loserName: loser) }

    /// A sentence that says why the game ended, for people.
    public func explanation(loserName: String) -> String {
        guard let outcome else { return "The game is not over." }
        switch outcome.reason {
        case .word:
            return "\"\(fragment)\" is a word longer than 3 letters, so \(loserName) loses."
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
