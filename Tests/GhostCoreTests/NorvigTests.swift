import Testing
import TestSupport
import Foundation
import GhostCore
import WordLists

/// ENABLE (enable1.txt, the list of Norvig's notebook): the file named by
/// GHOST_ENABLE_LIST, else `../shared/data/enable1.txt` beside the package.
/// Nil when neither is readable: the suite is then skipped.
let enablePath: String? = {
    if let named = ProcessInfo.processInfo.environment["GHOST_ENABLE_LIST"], !named.isEmpty { return named }
    let beside = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("data").appendingPathComponent("enable1.txt").path
    return FileManager.default.isReadableFile(atPath: beside) ? beside : nil
}()

/// The whole list, as this game loads any word file (loaded once).
let enableWords: WordList? = enablePath.flatMap { try? WordList(contentsOfFile: $0) }

/// Runs `body` on a thread of its own and waits for it without holding one
/// of the test runner's cooperative threads (two on a 2-core machine), so a
/// long solve does not stall the other suites' tests, some of which have
/// time limits. The stack is large for the Superghost solver's recursion.
private func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 64 << 20
        thread.start()
    }
}

private func seconds(since start: Date) -> String { String(format: "%.2f s", Date().timeIntervalSince(start)) }

/// Norvig's rule on small lists, without ENABLE (always run).
@Suite struct NorvigRuleTests {
    private func solver(_ words: String, limit: Int = 3) -> Solver {
        Solver(rules: GhostRules(words: WordList(words: words.split(separator: " ")), vocabulary: .norvig(minLength: limit)))
    }

    /// His notebook's four small vocabularies (limit 3), with his answers.
    @Test func notebookExamples() {
        // Every word has an odd number of letters: no winning play.
        #expect(!solver("cat camel gecko").isWinning(""))
        // g wins (c would lose).
        #expect(spelled(solver("cat camel goat gerbil").winningLetters("")) == "g")
        // Doomed to camel or gar.
        #expect(!solver("cat camel goat gecko gerbil gar").isWinning(""))
        // g wins: ga is answered with gan, ge with gec.
        #expect(spelled(solver("cat camel goat gecko gerbil gar gannet").winningLetters("")) == "g")
    }

    /// Shorter words are neither words nor fragments; the rule of record
    /// keeps them as continuations, and its 3-letter words do not lose.
    @Test func shortWordsDoNotExist() {
        let list = WordList(words: ["hmm", "hymn", "pea", "peach"])
        let four = GhostRules(words: list, vocabulary: .norvig(minLength: 4))
        #expect(four.words.wordCount == 2 && four.words.fragmentCount == 10)
        #expect(four.verdict("hm") == .dead)
        #expect(four.verdict("pea") == .alive)
        let three = GhostRules(words: list, vocabulary: .norvig(minLength: 3))
        #expect(three.verdict("hmm") == .word)
        #expect(three.verdict("pea") == .word)
        let own = GhostRules(words: list)
        #expect(own.vocabulary == .ownRule && own.losingLength == 4)
        #expect(own.verdict("hm") == .alive)
        #expect(own.verdict("hmm") == .dead)
        #expect(own.verdict("pea") == .alive)
        #expect(GhostRules(words: list, vocabulary: .ownRule).words.wordCount == 4)
    }

    /// Superghost's infixes under a limit, counted as Norvig counts them
    /// (the empty one included), against the set of every substring.
    @Test func infixCount() {
        let words = ["crop", "acre", "era", "ab", "cropper"]
        for limit in [3, 4] {
            let rules = GhostRules(words: WordList(words: words), vocabulary: .norvig(minLength: limit), superghost: true)
            var all: Set<String> = [""]
            for w in words where w.count >= limit {
                let a = Array(w)
                for i in a.indices { for j in i..<a.count { all.insert(String(a[i...j])) } }
            }
            #expect(rules.infixes?.distinctCount == all.count, "limit \(limit)")
            #expect(rules.superVerdict(Array("era".utf8)) == (limit == 3 ? .word : .dead))
        }
    }

    /// Outcomes against Norvig's definition, by brute force over strings, on
    /// seeded random lists, for both players.
    @Test func outcomesAgreeWithBruteForce() {
        var rng = SeededRandom(seed: 0x0DD5)
        for _ in 0..<200 {
            let alphabet = Array("abc")
            let words = (0..<Int.random(in: 2...7, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...5, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            let limit = Int.random(in: 2...4, using: &rng)
            let vocabulary = Set(words.filter { $0.count >= limit })
            guard !vocabulary.isEmpty else { continue }
            let fragments = Set(vocabulary.flatMap { w in (0...w.count).map { String(w.prefix($0)) } })
            func priority(_ set: Set<String>, _ player: Int) -> [Int] {
                let wins = set.filter { $0.count % 2 == player }.count
                return [wins == set.count ? 0 : (wins > 0 ? 1 : 2), set.count, set.map(\.count).reduce(0, +)]
            }
            func brute(_ f: String, _ player: Int) -> Set<String> {
                if vocabulary.contains(f) { return [f] }
                let cases = alphabet.map { f + String($0) }.filter(fragments.contains).map { brute($0, player) }
                if f.count % 2 == player {
                    return cases.min { priority($0, player).lexicographicallyPrecedes(priority($1, player)) } ?? []
                }
                return cases.reduce(into: Set<String>()) { $0.formUnion($1) }
            }
            let s = solver(words.joined(separator: " "), limit: limit)
            for player in [0, 1] {
                let expected = brute("", player)
                let got = s.outcomes(for: player)
                // Both take the first letter a–z among ties, so the sets are the same.
                #expect(Set(got) == expected, "\(words) limit \(limit) player \(player): \(got) against \(expected.sorted())")
                #expect(got.count == Set(got).count)
            }
        }
    }
}

/// Norvig's table (pytudes, ipynb/Ghost.ipynb, "Summary") reproduced on
/// ENABLE, with his vocabulary rule as `GhostRules.Vocabulary.norvig`: with a
/// limit of m letters only the words of m+ letters exist, each loses, and a
/// fragment must begin (Superghost: occur in) one of them. Then the same list
/// under this game's own rule. Serialized, each solve on a thread of its own:
/// it takes one core at most, and no thread of the test runner's pool.
@Suite(.serialized, .enabled(if: enablePath != nil, "no ENABLE list: ../shared/data/enable1.txt is absent and GHOST_ENABLE_LIST is unset"),
       .hangLimit)
struct NorvigTests {
    /// Limit 3: his 172,724 words and 387,878 fragments (the empty one
    /// counted); the second player wins; the first player's outcome words.
    @Test func ghostLimitThreeSecondPlayerWins() async throws {
        let words = try #require(enableWords)
        let report = await onOwnThread { () -> (Int, Int, Bool, [String], [String], String) in
            let start = Date()
            let rules = GhostRules(words: words, vocabulary: .norvig(minLength: 3))
            let solver = Solver(rules: rules)
            let solved = seconds(since: start)
            let first = solver.outcomes(for: 0)
            let second = solver.outcomes(for: 1)
            return (rules.words.wordCount, rules.words.fragmentCount, solver.isWinning(""), first, second,
                    "vocabulary and solve \(solved), both players' outcomes \(seconds(since: start))")
        }
        let (wordCount, fragments, firstWins, first, second, timing) = report
        print("norvig ghost, limit 3: \(wordCount) words, \(fragments) fragments; \(firstWins ? "first" : "second") player wins; \(timing)")
        print("norvig ghost, limit 3: first player's outcomes (\(first.count)): \(first.joined(separator: " "))  [Norvig: qaid qiviut qoph qursh qurush qwerty]")
        print("norvig ghost, limit 3: second player's outcomes (\(second.count)): \(second.joined(separator: " "))  [Norvig: 55 words]")
        #expect(wordCount == 172_724)
        #expect(fragments == 387_878)
        #expect(!firstWins)
        // His: qursh, of odd length, is the one the first player can lose.
        #expect(first == ["qaid", "qiviut", "qoph", "qursh", "qurush", "qwerty"])
        // His second player's 55, all won. Where a word differs from his
        // (drake for drave, llama for llano, …), the two tie on his priority
        // and Python's set order picked the other.
        #expect(second.count == 55)
        #expect(second.allSatisfy { $0.count % 2 == 1 })
    }

    /// Limit 4: his 387,844 fragments; the first player wins with n; his
    /// seven outcome words for the first player.
    @Test func ghostLimitFourFirstPlayerWins() async throws {
        let words = try #require(enableWords)
        let report = await onOwnThread { () -> (Int, Bool, String, [String], [String], String) in
            let start = Date()
            let rules = GhostRules(words: words, vocabulary: .norvig(minLength: 4))
            let solver = Solver(rules: rules)
            let solved = seconds(since: start)
            let first = solver.outcomes(for: 0)
            let second = solver.outcomes(for: 1)
            return (rules.words.fragmentCount, solver.isWinning(""), spelled(solver.winningLetters("")), first, second,
                    "vocabulary and solve \(solved), both players' outcomes \(seconds(since: start))")
        }
        let (fragments, firstWins, winners, first, second, timing) = report
        print("norvig ghost, limit 4: \(fragments) fragments; \(firstWins ? "first" : "second") player wins, with \(winners); \(timing)")
        print("norvig ghost, limit 4: first player's outcomes (\(first.count)): \(first.joined(separator: " "))  [Norvig: naan nene ngultrum nirvanic nolo null nyctalopia]")
        print("norvig ghost, limit 4: second player's outcomes (\(second.count)): \(second.joined(separator: " "))  [Norvig: 85 words]")
        #expect(fragments == 387_844)
        #expect(firstWins)
        #expect(winners.contains("n"))
        #expect(first == ["naan", "nene", "ngultrum", "nirvanic", "nolo", "null", "nyctalopia"])
        // His second player's 85, four of them lost (even length); the words
        // differ from his only where they tie on his priority, as above.
        #expect(second.count == 85)
        #expect(second.filter { $0.count % 2 == 0 }.count == 4)
    }

    /// This game's own rule (the default `GhostRules`) on the whole list,
    /// 172,823 words, 1 and 2 letters included: a word of 3 letters or fewer
    /// is allowed and play goes on while a longer word starts with it. The
    /// second player wins, as with Norvig's limit 3 and unlike his limit 4,
    /// whose winning first letters h and n lose here: the reply "hm" forces
    /// "hmm" and "nt" forces "nth", short words nothing extends, which the
    /// first player must make (his limit 4 has no such fragments).
    @Test func ghostOwnRuleSecondPlayerWins() async throws {
        let words = try #require(enableWords)
        let report = await onOwnThread { () -> (Bool, String, String, String, [String], String) in
            let start = Date()
            let solver = Solver(rules: GhostRules(words: words))
            let solved = seconds(since: start)
            return (solver.isWinning(""), spelled(solver.winningLetters("")), spelled(solver.winningLetters("h")),
                    spelled(solver.winningLetters("n")), solver.outcomes(for: 1), solved)
        }
        let (firstWins, winners, afterH, afterN, second, timing) = report
        print("own rule ghost: \(words.wordCount) words, \(words.fragmentCount) fragments; \(firstWins ? "first" : "second") player wins; "
              + "winning replies to h: \(afterH), to n: \(afterN); solved in \(timing)")
        print("own rule ghost: second player's outcomes (\(second.count)): \(second.joined(separator: " "))")
        #expect(words.wordCount == 172_823)
        #expect(!firstWins)
        #expect(winners == "")
        #expect(afterH == "m")
        #expect(afterN == "t")
        #expect(second.count == 67)
        #expect(second.allSatisfy { $0.count % 2 == 1 })
        #expect(second.contains("hmm") && second.contains("nth"))
    }

    /// Superghost, limit 3 and 4: his 1,076,434 and 1,076,431 infixes; the
    /// first player wins with u at either limit (the opponent loses from "u").
    @Test(arguments: [(3, 1_076_434), (4, 1_076_431)])
    func superghostFirstPlayerWinsWithU(limit: Int, infixes expected: Int) async throws {
        let words = try #require(enableWords)
        let report = await onOwnThread { () -> (Int, Bool, Int, String) in
            let start = Date()
            let rules = GhostRules(words: words, vocabulary: .norvig(minLength: limit), superghost: true)
            let built = seconds(since: start)
            let count = rules.infixes?.distinctCount ?? 0
            let solver = SuperSolver(rules: rules)
            let solveStart = Date()
            let uLoses = !solver.isWinning("u")
            return (count, uLoses, solver.solvedCount, "index \(built), \"u\" solved in \(seconds(since: solveStart))")
        }
        let (count, uWins, positions, timing) = report
        print("norvig superghost, limit \(limit): \(count) infixes; u \(uWins ? "wins" : "does not win") for the first player; \(positions) positions; \(timing)")
        #expect(count == expected)
        #expect(uWins)
    }

    /// Superghost under this game's own rule is Norvig's limit 4 already (a
    /// fragment lives while a word of 4+ letters contains it): the same
    /// infixes, and u wins.
    @Test func superghostOwnRuleIsLimitFour() async throws {
        let words = try #require(enableWords)
        let report = await onOwnThread { () -> (Int, Bool) in
            let rules = GhostRules(words: words, infixes: Infixes(words: words))
            return (rules.infixes?.distinctCount ?? 0, !SuperSolver(rules: rules).isWinning("u"))
        }
        #expect(report.0 == 1_076_431)
        #expect(report.1)
    }
}
