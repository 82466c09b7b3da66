import Foundation
import Testing
@testable import GhostCore
import WordLists
import GameKit

/// The agreement test: `REVIEW`'s outcome (GhostReview, with the
/// solvers the server uses) on every ply of 200 random games, seeded, on the
/// repository's English and Dutch lists, in every variant, agrees with an
/// independent brute force written here: a plain recursive minimax over the
/// words with a memo, which shares nothing with Solver or SuperSolver (no
/// trie, no infix index: sets of the words' prefixes, or of their pieces).
///
/// The brute force is built lazily: it only ever visits the positions the
/// games lead to and what lies below them, remembered across all 200 games.
/// Even so a full Dutch list (348,000 words, a million fragments) is more
/// than a debug build walks in seconds, so each list is thinned to every
/// `stride`-th word (the same thinned list for the review and the brute
/// force): the English one whole for Ghost and bluff, to a twentieth for
/// Superghost, whose positions are far more (every piece of every word).
@Suite struct ReviewAgreementTests {
    /// A list as the review and the brute force both see it.
    struct Sample {
        let name: String
        let list: WordList
        let words: [[UInt8]]
    }

    static func sample(_ name: String, _ full: WordList?, stride: Int) -> Sample? {
        guard let full else { return nil }
        var words: [[UInt8]] = []
        var i = 0
        full.forEachWord { w in
            if i % stride == 0 { words.append(w) }
            i += 1
        }
        let list = WordList(words: words.map { String(decoding: $0, as: UTF8.self) })
        return Sample(name: "\(name)/\(stride)", list: list, words: words)
    }

    // MARK: The brute force

    /// Ghost under the rule of record, from nothing but the words: a letter
    /// loses for its mover if the fragment is a word of 4+ letters or no word
    /// is longer and starts with it; the player to move wins iff some letter
    /// leaves a fragment from which the opponent loses.
    final class BruteGhost {
        var words: Set<[UInt8]> = []
        var properPrefixes: Set<[UInt8]> = []
        var memo: [[UInt8]: Bool] = [:]

        init(_ list: [[UInt8]]) {
            for w in list {
                words.insert(w)
                for n in 0..<w.count { properPrefixes.insert(Array(w[0..<n])) }
            }
        }

        func extended(_ f: [UInt8]) -> Bool { properPrefixes.contains(f) }
        func alive(_ f: [UInt8]) -> Bool { extended(f) && !(f.count >= 4 && words.contains(f)) }

        func wins(_ f: [UInt8]) -> Bool {
            if let known = memo[f] { return known }
            var result = false
            for c in UInt8(0x61)...0x7A {
                let g = f + [c]
                if alive(g) && !wins(g) {
                    result = true
                    break
                }
            }
            memo[f] = result
            return result
        }
    }

    /// Superghost from nothing but the words: a fragment lives while some
    /// word of 4+ letters contains it and it is not itself such a word; the
    /// 52 plays are each letter at either end.
    final class BruteSuper {
        var words: Set<[UInt8]> = []
        var pieces: Set<[UInt8]> = []
        var memo: [[UInt8]: Bool] = [:]

        init(_ list: [[UInt8]]) {
            for w in list where w.count >= 4 {
                words.insert(w)
                for i in 0..<w.count {
                    for j in (i + 1)...w.count { pieces.insert(Array(w[i..<j])) }
                }
            }
        }

        func alive(_ f: [UInt8]) -> Bool { pieces.contains(f) && !(f.count >= 4 && words.contains(f)) }

        func wins(_ f: [UInt8]) -> Bool {
            if let known = memo[f] { return known }
            var result = false
            outer: for c in UInt8(0x61)...0x7A {
                for g in [f + [c], [c] + f] where alive(g) && !wins(g) {
                    result = true
                    break outer
                }
            }
            memo[f] = result
            return result
        }
    }

    // MARK: Random games

    enum Variant: String, CaseIterable {
        case ghost, challenge, superghost

        func game(rules: GhostRules, firstToMove: Int) -> any GhostVariant {
            switch self {
            case .ghost: PlainGhost(rules: rules, firstToMove: firstToMove)
            case .challenge: ChallengeGhost(rules: rules, firstToMove: firstToMove)
            case .superghost: Superghost(rules: rules, firstToMove: firstToMove)
            }
        }
    }

    /// A random round: mostly letters that keep the fragment in the list, sometimes any letter;
    /// in bluff and challenge, challenges (mostly of dead fragments) and answers of every kind.
    static func randomRound(_ rules: GhostRules, _ variant: Variant, _ rng: inout SplitMix64) -> [SeatMove] {
        var game = variant.game(rules: rules, firstToMove: Int(rng.next() % 2))
        var moves: [SeatMove] = []
        func roll(_ p: Double) -> Bool { Double(rng.next() % 10_000) / 10_000 < p }
        while !game.isOver && moves.count < 80 {
            let seat = game.toMove
            var move: Move
            let bluff = game as? ChallengeGhost
            if let bluff, bluff.isChallenged {
                if let w = bluff.continuation, roll(0.6) {
                    move = .word(w)
                } else if roll(0.5) {
                    move = .word(game.fragment + "qzx")
                } else {
                    move = .concede
                }
            } else if let bluff, !bluff.fragment.isEmpty && (bluff.isDeadFragment ? roll(0.7) : roll(0.08)) {
                move = .challenge
            } else {
                let letters = Letter.all.shuffled(using: &rng)
                let front = variant == .superghost && roll(0.5)
                let keeps = letters.first { l in
                    let f = front ? String(l.character) + game.fragment : game.fragment + String(l.character)
                    return variant == .superghost ? rules.superVerdict(Array(f.utf8)) == .alive : rules.words.isProperlyExtended(f)
                }
                let letter = roll(0.9) ? keeps ?? letters[0] : letters[0]
                move = front ? .front(letter) : .letter(letter)
            }
            do { _ = try game.play(move, by: seat) } catch { continue }
            moves.append(SeatMove(seat: seat, move: move))
        }
        return moves
    }

    /// What the brute force says each move of `moves` is worth to its mover.
    static func bruteOutcomes(_ moves: [SeatMove], variant: Variant, ghost: BruteGhost?, superghost: BruteSuper?) -> [Bool] {
        var fragment: [UInt8] = []
        var out: [Bool] = []
        for m in moves {
            switch m.move {
            case .letter(let l):
                fragment.append(l.character.asciiValue ?? 0)
                out.append(variant == .superghost
                           ? superghost!.alive(fragment) && !superghost!.wins(fragment)
                           : ghost!.alive(fragment) && !ghost!.wins(fragment))
            case .front(let l):
                fragment.insert(l.character.asciiValue ?? 0, at: 0)
                out.append(superghost!.alive(fragment) && !superghost!.wins(fragment))
            case .challenge:
                out.append(!ghost!.extended(fragment))
            case .word(let w):
                out.append(ghost!.words.contains(Array(w.utf8)))
            case .concede, .own:
                out.append(false)
            }
        }
        return out
    }

    @Test("REVIEW's outcome on every ply of 200 random games (en and nl, Ghost, bluff and challenge, Superghost) agrees with a brute-force minimax")
    func agreesWithBruteForce() throws {
        let start = Date()
        let en = try #require(ReviewAgreementTests.sample("en", englishWords, stride: 1))
        let nl = try #require(ReviewAgreementTests.sample("nl", dutchWords, stride: 10))
        let enSuper = try #require(ReviewAgreementTests.sample("en", englishWords, stride: 20))
        let nlSuper = try #require(ReviewAgreementTests.sample("nl", dutchWords, stride: 100))
        var rng = SplitMix64(seed: 28)
        var plies = 0, games = 0
        for (lists, variant) in [([en, nl], Variant.ghost), ([en, nl], .challenge), ([enSuper, nlSuper], .superghost)] {
            for sample in lists {
                let ghost = variant == .superghost ? nil : BruteGhost(sample.words)
                let superghost = variant == .superghost ? BruteSuper(sample.words) : nil
                let solver = Solver(rules: GhostRules(words: sample.list, language: sample.name))
                let rules: GhostRules
                let judge: GhostReview.Judge
                switch variant {
                case .ghost:
                    rules = solver.rules
                    judge = .ghost(solver)
                case .challenge:
                    rules = GhostRules(words: sample.list, language: sample.name)
                    judge = .ghost(solver)
                case .superghost:
                    let s = SuperSolver(rules: GhostRules(words: sample.list, language: sample.name, infixes: Infixes(words: sample.list)))
                    rules = s.rules
                    judge = .superghost(s, budget: GhostReview.Budget(Int.max))
                }
                // 200 games in all: 34 on each list of Ghost, 33 on each of the others.
                for _ in 0..<(variant == .ghost ? 34 : 33) {
                    let moves = ReviewAgreementTests.randomRound(rules, variant, &rng)
                    let start = variant.game(rules: rules, firstToMove: moves.first?.seat ?? 0)
                    let reviewed = try GhostReview.review(start, moves: moves, judge: judge).get()
                    let expected = ReviewAgreementTests.bruteOutcomes(moves, variant: variant, ghost: ghost, superghost: superghost)
                    #expect(reviewed.map(\.wins) == expected, "\(variant) \(sample.name): \(moves.map(\.move.encoded))")
                    // A mistake lists better moves, each of which the brute force says wins.
                    for p in reviewed where p.isMistake { #expect(!p.better.isEmpty) }
                    plies += moves.count
                    games += 1
                }
            }
        }
        #expect(games == 200)
        print("review agreement: \(games) games, \(plies) plies in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    }
}
