#if canImport(Glibc)
import Glibc   // log2; no Foundation in the daemon (EndToEndConnectionTests checks its libraries)
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import GameKit
import Synchronization
import WordLists
import HangmanWire

/// What Hangman shows of a game afterwards (`MOVES`, `REVIEW`).
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
    /// list; a phrase is in none).
    ///
    /// Work: the game's replay (what its moves cost
    /// when played), plus for fair and duel a pass per guess over the words
    /// that still fit (each pass keeps them for the next: what the guesser
    /// knows only grows), the second over every word of the game's length.
    /// The first guess, when nothing but the length is known, splits every
    /// word of the length the same way in every game: it is worked out once
    /// per length and kept (`ReviewStart`). A review that would do more than
    /// `reviewBudget` of work on the server's thread (counted in words ruled
    /// out, a word that fits costing 9: a first guess on a long list, or
    /// guesses that rule out few words) stops there and is worked out on a
    /// thread of its own, kept, and answered "later" meanwhile
    /// (`ReviewResult.later`).
    /// Before, every guess passed over every word of the length: 16–96 ms on
    /// the loop for a fair Dutch game, 10 ms of it the first guess's split.
    public func review(_ request: ReviewRequest) -> ReviewResult {
        if let done = offLoopReviews.result(for: request) { return done }
        let worked = review(request, budget: HangmanKind.reviewBudget)
        loopReviewWork.add(worked.work)
        if let result = worked.result { return result }
        offLoopReviews.start(request) { [self] in review(request, budget: Int.max).result ?? .reviewed(plies: [], fields: []) }
        return .later(seconds: HangmanKind.reviewRetrySeconds)
    }

    /// The most work one `REVIEW` does on the server's thread, in words
    /// ruled out (`HangmanGame.letterSplits`; one that fits costs 9): about
    /// 3 ms. A second guess's pass over the most words a length has (41,058
    /// Dutch words of 10 letters, a few thousand of them fitting), and what
    /// the later guesses leave; not the first guess's, where every word fits.
    public static let reviewBudget = 100_000
    /// When to ask again for a review worked out off the server's thread.
    public static let reviewRetrySeconds = 1.0

    /// The review within `budget` units of work (`HangmanGame.letterSplits`;
    /// nil result: it needs more), and the work it did.
    func review(_ request: ReviewRequest, budget: Int) -> (result: ReviewResult?, work: Int) {
        guard let mode = request.variant.isEmpty ? .evil : HangmanMode(rawValue: request.variant) else {
            return (.unavailable("no review of mode \(request.variant)"), 0)
        }
        guard mode != .phrase else { return (.unavailable("a phrase game has no review: its letters are weighed against no word list"), 0) }
        guard let round = request.rounds.last, round.isLast,
              var game = newGame(language: request.language, variant: request.variant, settings: request.settings,
                                 seed: round.seed, starter: 0) as? HangmanGame else {
            return (.reviewed(plies: [], fields: []), 0)
        }
        var plies: [ReviewedPly] = []
        var work = 0
        // The words that fitted at the last guess (nil: every word of the length).
        var fitting: [Int32]?
        for (i, m) in round.moves.enumerated() {
            var fields = [Field(HangmanWire.Key.play, m.move.encoded)]
            let guessing = m.seat == 1 && mode != .evil
            var before: (candidates: Int, splits: [[Int]?]) = (0, [])
            if guessing, fitting == nil, game.knowsOnlyTheLength, let start = game.reviewStart.value {
                // The first guess: every word of the length, split the same
                // way in every game on these words, worked out once.
                before = start
            } else if guessing {
                guard let found = game.letterSplits(among: fitting, work: &work, budget: budget) else { return (nil, work) }
                before = (found.candidates, found.splits)
                if fitting == nil, game.knowsOnlyTheLength { game.reviewStart.keep(before) }
                fitting = found.fitting
            }
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
        return (.reviewed(plies: plies, fields: []), work)
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

/// Reviews worked out off the server's thread (`HangmanKind.review`): one
/// at a time, on a thread of their own, each kept once done (the last
/// `kept` of them) until its game is reviewed again.
final class OffLoopReviews: Sendable {
    static let kept = 32
    private let state = Mutex<(done: [(request: ReviewRequest, result: ReviewResult)], working: [ReviewRequest])>(([], []))
    private let queue = DispatchQueue(label: "ghostd.hangman-review", qos: .utility)

    /// The review of `request` if it is done.
    func result(for request: ReviewRequest) -> ReviewResult? {
        state.withLock { s in s.done.last { $0.request == request }?.result }
    }

    /// Works `request` out with `work`, unless it is being worked out already.
    func start(_ request: ReviewRequest, _ work: @escaping @Sendable () -> ReviewResult) {
        let new = state.withLock { s in
            guard !s.working.contains(request) else { return false }
            s.working.append(request)
            return true
        }
        guard new else { return }
        queue.async { [self] in
            let result = work()
            state.withLock { s in
                s.done.append((request, result))
                if s.done.count > OffLoopReviews.kept { s.done.removeFirst() }
                s.working.removeAll { $0 == request }
            }
        }
    }

    /// Waits until every review started is done (tests).
    func settle() { queue.sync {} }
}

/// The work done by reviews on the server's thread, in all (tests).
final class WorkCounter: Sendable {
    private let count = Mutex(0)
    func add(_ n: Int) { count.withLock { $0 += n } }
    var total: Int { count.withLock { $0 } }
}

/// A review's first guess on a table of words (`HangmanKind.review`): the
/// candidates (every word) and how each letter splits them, kept once
/// worked out (about 10 ms for 41,058 Dutch words of 10 letters).
final class ReviewStart: Sendable {
    private let kept = Mutex<(candidates: Int, splits: [[Int]?])?>(nil)
    var value: (candidates: Int, splits: [[Int]?])? { kept.withLock { $0 } }
    func keep(_ start: (candidates: Int, splits: [[Int]?])) { kept.withLock { $0 = start } }
}
