import Testing
import Foundation
import GhostCore
import GameKit
import WordLists

private func rules(_ words: [String]) -> GhostRules {
    let list = WordList(words: words)
    return GhostRules(words: list, infixes: Infixes(words: list))
}

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Superghost straight from its rule, over strings: the live fragments are
/// the substrings of the words of 4+ letters that are not such words.
private struct BruteSuper {
    let words: Set<String>
    let substrings: Set<String>
    init(_ list: [String]) {
        words = Set(list.filter { $0.count >= 4 })
        var subs = Set<String>()
        for w in words {
            let a = Array(w)
            for i in a.indices { for j in i..<a.count { subs.insert(String(a[i...j])) } }
        }
        substrings = subs
    }
    func alive(_ f: String) -> Bool { substrings.contains(f) && !words.contains(f) }
    func children(_ f: String) -> [String] {
        "abcdefghijklmnopqrstuvwxyz".flatMap { c in [f + String(c), String(c) + f] }
    }
    func wins(_ f: String) -> Bool { children(f).contains { alive($0) && !wins($0) } }
    func winningPlays(_ f: String) -> Set<String> {
        Set("abcdefghijklmnopqrstuvwxyz".flatMap { c in
            [(f + String(c), String(c)), (String(c) + f, "<" + String(c))].filter { alive($0.0) && !wins($0.0) }.map(\.1)
        })
    }
}

@Suite struct SuperghostTests {
    // MARK: The infix index

    @Test func infixesFindFragmentsInsideWordsOfFourOrMoreLetters() {
        let ix = Infixes(words: WordList(words: ["crop", "acre", "era", "ab"]))
        for f in ["", "c", "cro", "crop", "rop", "op", "p", "acr", "cre", "re", "e"] { #expect(ix.contains(bytes(f)), "\(f)") }
        // "era" and "ab" are too short to lose, so only they contain "ab", "ra": dead.
        for f in ["ab", "ra", "crops", "pc", "x", "aa", "cropx"] { #expect(!ix.contains(bytes(f)), "\(f)") }
        #expect(ix.word(containing: bytes("ro")) == "crop")
        #expect(ix.word(containing: bytes("cr")) == "acre" || ix.word(containing: bytes("cr")) == "crop")
        #expect(ix.word(containing: bytes("zz")) == nil)
        #expect(ix.count == 8)
    }

    // MARK: The rules

    @Test func lettersGoAtEitherEndAndLiveFragmentsAreInfixes() throws {
        var g = Superghost(rules: rules(["crop", "acrobat"]))
        #expect(try g.play(.letter(L("r")), by: 0) == nil)
        #expect(try g.play(.front(L("c")), by: 1) == nil)
        #expect(g.fragment == "cr")
        #expect(g.moveFields(.front(L("c"))) == [Field("letter", "c"), Field("end", "front")])
        #expect(g.moveFields(.letter(L("o"))) == [Field("letter", "o"), Field("end", "back")])
        #expect(g.fields(after: .letter(L("o"))) == [Field("letter", "o"), Field("end", "back"), Field("fragment", "cr")])
        #expect(g.setupFields == [Field("variant", "super")])
        #expect(try g.play(.letter(L("o")), by: 0) == nil)
        #expect(try g.play(.front(L("a")), by: 1) == nil)
        #expect(g.fragment == "acro")
        #expect(throws: MoveError.notYourTurn) { try g.play(.letter(L("b")), by: 1) }
        // "acrop" is in no word: dead, on the player who made it.
        let outcome = try g.play(.letter(L("p")), by: 0)
        #expect(outcome == Outcome(loser: 0, reason: .dead))
        #expect(g.before == "acro")
        #expect(g.possibleWord == "acrobat")
        #expect(g.endFields == [Field("word", "acrobat")])
        #expect(g.explanation(loserName: "ann") == "No word contains \"acrop\", so ann loses; \"acro\" could have led to \"acrobat\".")
        #expect(g.moveCount == 5)
    }

    @Test func aWordOfFourLettersLosesAtEitherEnd() throws {
        var g = Superghost(rules: rules(["crop", "acrobat"]))
        _ = try g.play(.letter(L("r")), by: 0)
        _ = try g.play(.letter(L("o")), by: 1)
        _ = try g.play(.letter(L("p")), by: 0)
        #expect(try g.play(.front(L("c")), by: 1) == Outcome(loser: 1, reason: .word))
        #expect(g.explanation(loserName: "bob") == "\"crop\" is a word longer than 3 letters, so bob loses.")
        #expect(g.endFields.isEmpty)
        #expect(throws: MoveError.gameOver) { try g.play(.letter(L("s")), by: 0) }
    }

    @Test func ghostRefusesTheFront() {
        var g = PlainGhost(rules: GhostRules(words: WordList(words: ["crop"])))
        #expect(throws: MoveError.self) { try g.play(.front(L("c")), by: 0) }
        #expect(g.fragment == "")
        #expect(g.setupFields.isEmpty)
    }

    @Test func movesAreStoredAsText() {
        #expect(Move.front(L("q")).encoded == "<q")
        #expect(Move(encoded: "<q") == .front(L("q")))
        #expect(Move(encoded: "q") == .letter(L("q")))
        #expect(Move(encoded: "<") == nil)
        #expect(Move(encoded: "<qq") == nil)
    }

    // MARK: The solver

    /// 200 seeded random lists of 2–8 words of 1–6 letters over 3–4 letters:
    /// at every live fragment and the empty one, the memoized solver agrees with
    /// plain minimax over strings on who wins, which plays win, and each play's replies.
    @Test func agreesWithBruteForceOnRandomLists() {
        var rng = SeededRandom(seed: 0x50_9E7)
        var checked = 0, winning = 0
        for _ in 0..<200 {
            let alphabet = Array("abcd".prefix(Int.random(in: 3...4, using: &rng)))
            let words = (0..<Int.random(in: 2...8, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            let s = SuperSolver(rules: rules(words))
            let brute = BruteSuper(words)
            for f in [""] + brute.substrings.sorted() where f.isEmpty || brute.alive(f) {
                let expected = brute.wins(f)
                #expect(s.isWinning(f) == expected, "\(words.sorted()) at \"\(f)\"")
                #expect(Set(s.winningPlays(f).map(\.description)) == brute.winningPlays(f), "\(words.sorted()) at \"\(f)\"")
                for m in s.moves(f) {
                    let g = String(decoding: m.play.applied(to: bytes(f)), as: UTF8.self)
                    guard brute.alive(g) else {
                        #expect(m.kind == .losesAtOnce, "\(words.sorted()) at \"\(g)\"")
                        continue
                    }
                    #expect(m.kind == (brute.wins(g) ? .losing : .winning), "\(words.sorted()) at \"\(g)\"")
                    #expect(m.opponentWinningReplies == brute.winningPlays(g).count, "\(words.sorted()) at \"\(g)\"")
                }
                checked += 1
                if expected { winning += 1 }
            }
        }
        #expect(checked > 1000)
        #expect(winning > checked / 5 && winning < checked * 4 / 5, "\(winning) of \(checked)")
    }

    /// Hard never loses a won position; Easy never loses on the spot when it need not.
    @Test func theComputerPlaysTheVariant() throws {
        let s = SuperSolver(rules: rules(["crop", "acrobat", "probe", "bake"]))
        var rng = SeededRandom(seed: 9)
        for f in ["", "r", "ro", "cro", "ba"] where f.isEmpty || s.rules.superVerdict(bytes(f)) == .alive {
            var g = Superghost(rules: s.rules)
            for c in f { _ = try g.play(.letter(L(c)), by: g.toMove) }
            for _ in 0..<20 {
                let hard = SuperBot(level: .hard, solver: s).choose(in: g, using: &rng)
                if s.isWinning(f) { #expect(s.winningPlays(f).contains(hard), "\(f): \(hard)") }
                let easy = SuperBot(level: .easy, solver: s).choose(in: g, using: &rng)
                #expect(s.rules.superVerdict(easy.applied(to: bytes(f))) == .alive, "\(f): \(easy)")
            }
        }
    }

    /// Hard from a cold start (nothing solved, a budget of 16 positions a
    /// move, above the deepest fragment so that each step makes progress): it answers only once the position is solved, and then with a
    /// perfect play (a winning one whenever the position is won, checked
    /// against plain minimax), never a guess. Both seats are Hard, over
    /// whole games on seeded random lists.
    @Test func hardPlaysOnlySolvedMovesFromAColdStart() throws {
        var rng = SeededRandom(seed: 0xC01D)
        var deferred = 0, played = 0
        for _ in 0..<40 {
            let alphabet = Array("abcde")
            let words = (0..<Int.random(in: 6...12, using: &rng)).map { _ in
                String((0..<Int.random(in: 4...7, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            // The judge: the solver with no budget (checked against brute force above).
            let reference = SuperSolver(rules: rules(words))
            let solver = SuperSolver(rules: rules(words))
            let hard = SuperBot(level: .hard, solver: solver, budget: 16)
            var g = Superghost(rules: solver.rules)
            while !g.isOver {
                var play = hard.settledChoice(in: g, using: &rng)
                if play == nil {
                    deferred += 1
                    // What the server does off its thread before asking again.
                    solver.solve(g.fragment, step: 16)
                    play = hard.settledChoice(in: g, using: &rng)
                }
                let chosen = try #require(play, "\(words) at \"\(g.fragment)\": not settled after its solve")
                if reference.isWinning(g.fragment) {
                    #expect(reference.winningPlays(g.fragment).contains(chosen), "\(words) at \"\(g.fragment)\": \(chosen)")
                }
                played += 1
                _ = try g.play(chosen.move, by: g.toMove)
            }
        }
        // The cold start did defer: the budget is far below the openings.
        #expect(deferred > 10 && played > 40, "\(deferred) deferred of \(played)")
    }

    /// A step smaller than the deepest line of play used to settle nothing,
    /// so `solve` never returned; it now grows its step and ends. The solve
    /// runs on its own thread, bounded from when that thread starts: a time
    /// limit on the test itself also counted the time it waited for one of
    /// the test pool's threads while the suite's blocking tests held them
    /// (it failed at 132 s on a loaded machine, the solve taking
    /// milliseconds).
    @Test func solveEndsWithATinyStep() {
        let words = ["abcdefgh", "bcdefghi", "hgfedcba", "cdefghij"]
        let s = SuperSolver(rules: rules(words))
        let ended = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        Thread {
            started.signal()
            s.solve("", step: 1)
            ended.signal()
        }.start()
        started.wait()
        guard ended.wait(timeout: .now() + 120) == .success else {
            Issue.record("solve(step: 1) did not end within 120 s")
            return
        }
        #expect(s.isWinning("") == SuperSolver(rules: rules(words)).isWinning(""))
        #expect(s.solvedCount > 0)
    }

    /// GhostKind asks the lobby to come back while a Hard Superghost move's
    /// position is being solved (in the background), then plays a winning
    /// move; Easy never waits, and Ghost's computer never does.
    @Test func ghostKindDefersHardUntilSolved() throws {
        // A seeded random list whose opening takes several moves' budgets to solve.
        var rng = SeededRandom(seed: 77)
        let alphabet = Array("abcdefghij")
        var words: [String] = []
        var reference = SuperSolver(rules: rules(["abcd"]))
        var firstWins = false
        for size in [1_000, 3_000, 8_000, 20_000] {
            words = (0..<size).map { _ in
                String((0..<Int.random(in: 4...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            reference = SuperSolver(rules: rules(words))
            firstWins = reference.isWinning("")
            if reference.solvedCount > 3 * SuperSolver.defaultBudget { break }
        }
        #expect(reference.solvedCount > 3 * SuperSolver.defaultBudget, "the opening must not fit one move's budget")
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": WordList(words: words)]))
        let game = try #require(kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        guard case .move = kind.computerPlay(in: game, level: .easy) else { return #expect(Bool(false), "Easy waited") }
        var answer = kind.computerPlay(in: game, level: .hard)
        #expect(answer == .later(seconds: GhostKind.superRetrySeconds))
        let start = Date()
        while case .later = answer, Date().timeIntervalSince(start) < 60 {
            Thread.sleep(forTimeInterval: 0.05)
            answer = kind.computerPlay(in: game, level: .hard)
        }
        guard case .move(let move) = answer else { return #expect(Bool(false), "still \(answer)") }
        let winners = Set(reference.winningPlays("").map(\.move))
        if firstWins { #expect(winners.contains(move), "\(move) is not among \(winners)") }
        let ghost = try #require(kind.newGame(language: "en", variant: "", settings: "", seed: 0, starter: 0))
        guard case .move = kind.computerPlay(in: ghost, level: .hard) else { return #expect(Bool(false), "Ghost waited") }
    }

    // MARK: The real word lists

    /// Norvig's notebook finds that the first player wins Superghost on
    /// ENABLE (words of 4+ letters; NorvigTests checks it). On this English
    /// list (not ENABLE) the first player wins too.
    @Test func englishFirstPlayerWins() throws {
        let words = try #require(englishWords)
        let start = Date()
        let infixes = Infixes(words: words)
        let built = Date().timeIntervalSince(start)
        let s = SuperSolver(rules: GhostRules(words: words, language: "en", infixes: infixes))
        #expect(s.isWinning(""))
        let solved = Date().timeIntervalSince(start) - built
        let winners = s.winningPlays("").map(\.description).sorted()
        print("superghost en: \(infixes.count) suffixes, \(infixes.bytes) bytes, built in \(built) s; solved \"\" in \(solved) s over \(s.solvedCount) positions; winning first letters \(winners)")
        #expect(winners == ["<e", "<o", "<s", "e", "o", "s"])
    }
}
