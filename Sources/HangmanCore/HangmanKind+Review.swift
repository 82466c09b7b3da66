#if canImport(Glibc)
import Glibc   // log2; no Foundation in the daemon (EndToEndConnectionTests checks its libraries)
#elseif canImport(Darwin)
import Darwin
#endif
import GameKit
import WordLists

/// What Hangman shows of a game afterwards (`MOVES`, `REVIEW`; issue #28).
extension HangmanKind {
    /// The setter's word (a duel's first move, the only move seat 0 makes)
    /// stays secret until the game is over. The computer's word is never a
    /// move: it is in the final state only, which only `OVER` shows.
    public func hidesMove(_ move: Move, by seat: Int) -> Bool { seat == 0 }

    /// The review of the game's last round (a round started over counts for
    /// nothing), one `PLY` per move, `play=<move>` and for each guess the
    /// pattern after it (`pattern=`), then:
    /// - evil: `family=<n> word=<w>`: how many words the computer still kept
    ///   open after the guess, and one of them it could have been "thinking
    ///   of" (the first alphabetically; the answer once there is one);
    /// - fair, and a duel's guesses: `candidates=<n> best=<letter>`: before
    ///   the guess, how many words of the list fitted what the guesser had
    ///   seen, and the best letter by expected information
    ///   (`HangmanKind.bestLetter`).
    /// A phrase has no review (the computer weighs letters against a word
    /// list; a phrase is in none). Work: the game's replay (what its moves
    /// cost when played), plus for fair and duel one pass over the words of
    /// the game's length per guess: O(guesses × words of that length ×
    /// length), at most 52 guesses.
    public func review(_ request: ReviewRequest) -> ReviewResult {
        guard let mode = request.variant.isEmpty ? .evil : HangmanMode(rawValue: request.variant) else {
            return .unavailable("no review of mode \(request.variant)")
        }
        guard mode != .phrase else { return .unavailable("a phrase game has no review: its letters are weighed against no word list") }
        guard let round = request.rounds.last, round.isLast,
              var game = newGame(language: request.language, variant: request.variant, settings: request.settings,
                                 seed: round.seed, starter: 0) as? HangmanGame else {
            return .reviewed(plies: [], fields: [])
        }
        var plies: [ReviewedPly] = []
        for (i, m) in round.moves.enumerated() {
            var fields = [Field(HangmanWire.Key.play, m.move.encoded)]
            let guessing = m.seat == 1 && mode != .evil
            let before: (candidates: Int, splits: [[Int]?]) = guessing ? game.letterSplits : (0, [])
            do { _ = try game.play(m.move, by: m.seat) } catch { break }
            if m.seat == 1 {
                fields.append(Field(HangmanWire.Key.pattern, game.pattern))
                if mode == .evil {
                    fields.append(Field(HangmanWire.Key.family, String(game.familySize)))
                    if let w = game.familyExample { fields.append(Field(HangmanWire.Key.word, w)) }
                } else {
                    fields.append(Field(HangmanWire.Key.candidates, String(before.candidates)))
                    if let best = HangmanKind.bestLetter(candidates: before.candidates, splits: before.splits) {
                        fields.append(Field(HangmanWire.Key.best, best.description))
                    }
                }
            }
            plies.append(ReviewedPly(round: round.round, ply: i + 1, seat: m.seat, fields: fields))
        }
        return .reviewed(plies: plies, fields: [])
    }

    /// The best letter by expected information among `candidates` equally
    /// likely words, from how each letter splits them (`splits[c]`: the sizes
    /// of the groups that hold letter c at the same positions; nil for a
    /// letter guessed): the largest entropy, in bits, of the split (the
    /// groups and the words without the letter), which is the expected
    /// reduction of the uncertainty about the word. Ties: the letter in more
    /// candidates, then the earlier. Nil when no candidate holds a letter not guessed.
    static func bestLetter(candidates n: Int, splits: [[Int]?]) -> Letter? {
        var best: (letter: Int, bits: Double, hits: Int)?
        for (c, groups) in splits.enumerated() {
            guard let groups else { continue }
            let hits = groups.reduce(0, +)
            guard hits > 0, n > 0 else { continue }
            var bits = 0.0
            for k in groups + [n - hits] where k > 0 {
                let p = Double(k) / Double(n)
                bits -= p * log2(p)
            }
            if let b = best {
                let better = bits > b.bits + 1e-9 || (abs(bits - b.bits) <= 1e-9 && hits > b.hits)
                guard better else { continue }
            }
            best = (c, bits, hits)
        }
        return best.flatMap { Letter(index: UInt8($0.letter)) }
    }
}
