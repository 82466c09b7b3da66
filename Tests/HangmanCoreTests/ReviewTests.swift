import Testing
import WordLists
import HangmanCore
import GameKit

/// Hangman's review, on six words of four letters: bear, beer,
/// deer, dear, pear, peer.
private let words = ["bear", "beer", "deer", "dear", "pear", "peer"]

private func lines(_ result: ReviewResult) -> [String] {
    guard case let .reviewed(plies, _) = result else { return ["\(result)"] }
    return plies.map { "n=\($0.ply) seat=\($0.seat) " + $0.fields.map(\.description).joined(separator: " ") }
}

private func guesses(_ letters: String) -> [SeatMove] {
    letters.map { SeatMove(seat: 1, move: .letter(Letter(String($0))!)) }
}

@Suite struct HangmanReviewTests {
    @Test("Evil: after each guess, how many words the computer kept open and one it could have been thinking of")
    func evil() {
        let request = ReviewRequest(language: "en", variant: "evil", settings: "length=4 misses=8",
                                    rounds: [ReviewRound(round: 1, seed: 1, moves: guesses("earb"), isLast: true)])
        // e splits them 3 (_e__) and 3 (_ee_): the one with fewer e's is kept; b leaves dear and pear.
        #expect(lines(kind(words).review(request)) == [
            "n=1 seat=1 play=e pattern=_e__ family=3 word=bear",
            "n=2 seat=1 play=a pattern=_ea_ family=3 word=bear",
            "n=3 seat=1 play=r pattern=_ear family=3 word=bear",
            "n=4 seat=1 play=b pattern=_ear family=2 word=dear",
        ])
    }

    @Test("Evil with common words: the family and its example word are the common words the computer keeps, not the whole list's")
    func evilWithCommonWords() {
        // The whole list starts with aber (not common): the example must be a common word.
        let d = Dictionaries(lists: ["en": WordList(words: ["aber"] + words)], common: ["en": WordList(words: words)])
        let request = ReviewRequest(language: "en", variant: "evil", settings: "length=4 misses=8",
                                    rounds: [ReviewRound(round: 1, seed: 1, moves: guesses("e"), isLast: true)])
        #expect(lines(HangmanKind(dictionaries: d, phrases: [:]).review(request)) == [
            "n=1 seat=1 play=e pattern=_e__ family=3 word=bear",
        ])
    }

    @Test("A duel's guesses (as fair's): the candidates before each guess and the best letter by expected information; the setter's word shown")
    func duel() {
        let moves = [SeatMove(seat: 0, move: .word("pear"))] + guesses("eapr")
        let request = ReviewRequest(language: "en", variant: "duel", settings: "length=4 misses=8",
                                    rounds: [ReviewRound(round: 1, seed: 1, moves: moves, isLast: true)])
        // Six candidates: e splits them 3/3 (1 bit), as a does, but e is in all six; r tells nothing.
        // Then bear, dear, pear: a and r tell nothing, b, d and p 0.92 bits: b, the earliest.
        #expect(lines(kind(words).review(request)) == [
            "n=1 seat=0 play=word:pear",
            "n=2 seat=1 play=e pattern=_e__ candidates=6 best=e",
            "n=3 seat=1 play=a pattern=_ea_ candidates=3 best=b",
            "n=4 seat=1 play=p pattern=pea_ candidates=3 best=b",
            "n=5 seat=1 play=r pattern=pear candidates=1 best=r",
        ])
    }

    @Test("Fair: the first guess's candidates are every word of the length; a round started over is not reviewed")
    func fair() {
        let request = ReviewRequest(language: "en", variant: "fair", settings: "length=4 misses=8", rounds: [
            ReviewRound(round: 1, seed: 1, moves: guesses("z"), isLast: false),
            ReviewRound(round: 2, seed: 9, moves: guesses("e"), isLast: true),
        ])
        let reviewed = lines(kind(words).review(request))
        #expect(reviewed.count == 1)
        #expect(reviewed.first?.hasPrefix("n=1 seat=1 play=e pattern=_e") == true)
        #expect(reviewed.first?.hasSuffix(" candidates=6 best=e") == true)
    }

    @Test("A phrase game has no review")
    func phrase() {
        let request = ReviewRequest(language: "en", variant: "phrase", settings: "", rounds: [])
        #expect(kind(words, phrases: ["a bear"]).review(request)
                == .unavailable("a phrase game has no review: its letters are weighed against no word list"))
    }
}
