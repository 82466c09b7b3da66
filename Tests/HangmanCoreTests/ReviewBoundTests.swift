import Foundation
import Testing
import GameKit
import WordLists
@testable import HangmanCore

/// A Hangman review's work on the server's thread is bounded
/// (a fair Dutch review took 16–96 ms on the loop). Counted in
/// work (words ruled out; a word that fits costs 9), never in time: each
/// guess's pass now covers the words that still fit, not every word of the
/// game's length, the first guess is worked out once per length, and a
/// review that would do more than `HangmanKind.reviewBudget` of work is
/// worked out off the thread (`later`), its content the same.
@Suite("Hangman: REVIEW's bound", .serialized)
struct ReviewBoundTests {
    static let dutch: HangmanKind? = (try? WordList(contentsOfFile: packageRoot.appendingPathComponent("Dictionaries/nl.txt").path))
        .map { HangmanKind(dictionaries: Dictionaries(lists: ["nl": $0]), phrases: [:]) }

    static func request(_ letters: String, mode: String = "fair") -> ReviewRequest {
        ReviewRequest(language: "nl", variant: mode, settings: "length=10 misses=26",
                      rounds: [ReviewRound(round: 1, seed: 7, moves: letters.map { SeatMove(seat: 1, move: .letter(Letter(String($0))!)) },
                                           isLast: true)])
    }

    /// The review as it was worked out before the bound: every guess's
    /// candidates and best letter from a pass over every word of the length.
    /// Returns its lines and the words it examined.
    static func unbounded(_ kind: HangmanKind, _ request: ReviewRequest) throws -> (lines: [String], words: Int) {
        let round = try #require(request.rounds.last)
        var game = try #require(kind.newGame(language: request.language, variant: request.variant, settings: request.settings,
                                             seed: round.seed, starter: 0) as? HangmanGame)
        var lines: [String] = []
        var words = 0
        for (i, m) in round.moves.enumerated() {
            guard m.seat == 1 else {   // a duel's setter's word
                do { _ = try game.play(m.move, by: m.seat) } catch { break }
                lines.append("n=\(i + 1) play=\(m.move.encoded)")
                continue
            }
            var work = 0
            let before = try #require(game.letterSplits(among: nil, work: &work))
            words += work
            do { _ = try game.play(m.move, by: m.seat) } catch { break }
            let best = HangmanKind.bestLetter(candidates: before.candidates, splits: before.splits).map { " best=\($0)" } ?? ""
            lines.append("n=\(i + 1) play=\(m.move.encoded) pattern=\(game.pattern) candidates=\(before.candidates)\(best)")
        }
        return (lines, words)
    }

    static func lines(_ result: ReviewResult) -> [String] {
        guard case let .reviewed(plies, _) = result else { return ["\(result)"] }
        return plies.map { "n=\($0.ply) " + $0.fields.map(\.description).joined(separator: " ") }
    }

    @Test("A fair Dutch game of 10 letters: the first review of the length works its first guess out off the thread; then each is reviewed on it within the budget, each guess's line as a pass over every word gives it")
    func fairWithinTheBudget() throws {
        let kind = try #require(Self.dutch)
        let first = Self.request("enatirodslgkmuphbvwjczfxyq")
        let before = kind.loopReviewWork.total
        let answer = kind.review(first)
        #expect(kind.loopReviewWork.total - before <= HangmanKind.reviewBudget)
        if answer == .later(seconds: HangmanKind.reviewRetrySeconds) {
            // The length's first guess is not worked out yet (another test may have done it).
            kind.offLoopReviews.settle()
        }
        #expect(Self.lines(kind.review(first)) == (try Self.unbounded(kind, first).lines))

        // Another game on the same words: on the thread, within the budget.
        let request = ReviewRequest(language: "nl", variant: "fair", settings: "length=10 misses=26",
                                    rounds: [ReviewRound(round: 1, seed: 8, moves: first.rounds[0].moves, isLast: true)])
        let reference = try Self.unbounded(kind, request)
        let start = kind.loopReviewWork.total
        let result = kind.review(request)
        let words = kind.loopReviewWork.total - start
        #expect(Self.lines(result) == reference.lines)
        #expect(words <= HangmanKind.reviewBudget, "\(words) of work on the thread")
        print("ReviewBoundTests: a fair Dutch review of \(reference.lines.count) guesses did \(reference.words) of work before (words ruled out, 9 a word that fits), \(words) now")
    }

    @Test("Guesses that rule out few words (the rarest letters first): at most the budget on the thread, then `later`; worked out off it, the same lines")
    func rareLettersOffTheThread() throws {
        let kind = try #require(Self.dutch)
        let request = Self.request("qxyzcjfwvhb", mode: "duel")
        // (A duel's review is a fair one's: its first move, the setter's word, aside.)
        let duel = ReviewRequest(language: "nl", variant: "duel", settings: request.settings,
                                 rounds: [ReviewRound(round: 1, seed: 7, moves: [SeatMove(seat: 0, move: .word("aardbeving"))] + request.rounds[0].moves,
                                                      isLast: true)])
        // The length's first guess worked out (as the test above does).
        if kind.review(Self.request("e")) != .later(seconds: HangmanKind.reviewRetrySeconds) {} else { kind.offLoopReviews.settle() }
        let before = kind.loopReviewWork.total
        let first = kind.review(duel)
        let words = kind.loopReviewWork.total - before
        #expect(first == .later(seconds: HangmanKind.reviewRetrySeconds), "\(Self.lines(first))")
        #expect(words <= HangmanKind.reviewBudget, "\(words) of work on the thread")
        kind.offLoopReviews.settle()
        let done = kind.review(duel)
        #expect(kind.loopReviewWork.total - before == words, "the second REVIEW examined words again")
        // The same as a pass over every word per guess.
        let reference = try Self.unbounded(kind, duel)
        #expect(Self.lines(done) == reference.lines)
        #expect(reference.lines.first == "n=1 play=word:aardbeving")
        print("ReviewBoundTests: rare letters first, \(reference.words) of work before, \(words) on the thread now, the rest off it")
    }
}
