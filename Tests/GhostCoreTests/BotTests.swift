import Testing
import GhostCore
import GameKit
import WordLists

/// The English list solved once for every test here (global lets are lazy and thread-safe).
private let englishSolver: Solver? = englishWords.map { Solver(rules: GhostRules(words: $0)) }

private func solver(_ words: [String]) -> Solver { Solver(rules: GhostRules(words: WordList(words: words))) }

/// What `letter` does for the player to move in `game`.
private func kind(_ s: Solver, _ game: PlainGhost, _ letter: Letter) -> Solver.MoveKind {
    s.moves(node: game.node, length: game.fragment.utf8.count)[Int(letter.index)].kind
}

/// A game replayed from `fragment` (seat 0 started), which must still be in play.
private func position(_ s: Solver, _ fragment: String) throws -> PlainGhost {
    try #require(PlainGhost(rules: s.rules, firstToMove: 0, replaying: fragment), "\(fragment)")
}

/// The distinct letters `level` picks at `fragment` over `seeds` seeds, a–z.
private func picks(_ s: Solver, _ level: BotLevel, at fragment: String, seeds: Range<UInt64> = 0..<200) throws -> String {
    let game = try position(s, fragment)
    let bot = Bot(level: level, solver: s)
    var seen = Set<Letter>()
    for seed in seeds {
        var rng = SeededRandom(seed: seed)
        seen.insert(bot.choose(in: game, using: &rng))
    }
    return spelled(Array(seen))
}

/// A random position in play on `s`: up to `maxLetters` letters, each one that does
/// not lose on the spot (nil if the walk ran into a position with no such letter).
private func randomPosition(_ s: Solver, maxLetters: Int, _ rng: inout SeededRandom) -> PlainGhost? {
    var game = PlainGhost(rules: s.rules, firstToMove: Int.random(in: 0...1, using: &rng))
    for _ in 0..<Int.random(in: 0...maxLetters, using: &rng) {
        let safe = s.moves(node: game.node, length: game.fragment.utf8.count).filter { $0.kind != .losesAtOnce }
        guard let m = safe.randomElement(using: &rng) else { return nil }
        _ = try? game.play(m.letter, by: game.toMove)
        if game.isOver { return nil }
    }
    return game
}

/// Plays `game` to its end with `bots[seat]` in each seat; returns the loser.
/// `check` sees every position before a move, with the mover's seat and letter.
private func playOut(_ game: inout PlainGhost, _ bots: [Bot], _ rng: inout SeededRandom,
                     check: (PlainGhost, Int, Letter) -> Void = { _, _, _ in }) -> Int {
    while !game.isOver {
        let seat = game.toMove
        let letter = bots[seat].choose(in: game, using: &rng)
        check(game, seat, letter)
        _ = try? game.play(letter, by: seat)
    }
    return game.outcome!.loser!
}

// Hand-made dictionaries for Hard's choice in a lost position. From a fragment of
// k letters whose only continuation is one word of n letters, the player to move
// adds letters k+1, k+3, … and loses iff n - k is odd.
//   a: am (amnop) and aq (aqrst) both leave 3 letters: lost for the mover, so the
//      2nd player has 2 winning replies at "a". Most letters after a: 4.
//   b: bm (bmnop) is lost for the mover (winning reply); bu (buvw: 2 left) is won for
//      the mover, not a winning reply. 1 winning reply; most letters after b: 4.
//   d: the same shape as b (dmnop, duvw).
//   c: cm (cmnop) a winning reply; cu (cuvwxyzs: 6 left) won for the mover. 1 winning
//      reply, but the game can last 7 more letters after c.
// Every first letter leaves the 2nd player a winning reply: the 1st player has lost.
private let trickyABD = ["amnop", "aqrst", "bmnop", "buvw", "dmnop", "duvw"]
private let trickyABCD = trickyABD + ["cmnop", "cuvwxyzs"]

@Suite struct BotTests {
    // MARK: Hard

    /// From many random winning positions on the English list, Hard (to move) plays
    /// against Easy, Medium, a random player and itself: every time it moves, its
    /// position is winning and its letter wins; it wins every game.
    @Test func hardNeverLosesFromAWinningPosition() throws {
        let s = try #require(englishSolver)
        var rng = SeededRandom(seed: 2024)
        var games = 0, hardMoves = 0
        var opponents: [String: Int] = [:]
        while games < 600 {
            guard var game = randomPosition(s, maxLetters: 6, &rng) else { continue }
            guard s.isWinning(node: game.node) else { continue }
            let hardSeat = game.toMove
            let level = [BotLevel.easy, .medium, .hard][games % 3]
            opponents[level.rawValue, default: 0] += 1
            var bots = [Bot(level: .hard, solver: s), Bot(level: .hard, solver: s)]
            bots[1 - hardSeat] = Bot(level: level, solver: s)
            let start = game.fragment
            let loser = playOut(&game, bots, &rng) { g, seat, letter in
                guard seat == hardSeat else { return }
                hardMoves += 1
                #expect(s.isWinning(node: g.node), "from \"\(start)\": Hard to move at \"\(g.fragment)\" is not winning")
                #expect(kind(s, g, letter) == .winning, "from \"\(start)\": Hard played \(letter) at \"\(g.fragment)\"")
            }
            #expect(loser == 1 - hardSeat, "from \"\(start)\" vs \(level): Hard lost at \"\(game.fragment)\"")
            games += 1
        }
        #expect(hardMoves >= games)
        #expect(opponents.values.allSatisfy { $0 >= 199 })
    }

    /// A purely random opponent (any letter a–z) too: Hard, starting from the empty
    /// fragment (a won position on en), wins every game.
    @Test func hardWinsFromTheStartAgainstRandomLetters() throws {
        let s = try #require(englishSolver)
        var rng = SeededRandom(seed: 7)
        for _ in 0..<300 {
            var game = PlainGhost(rules: s.rules)
            while !game.isOver {
                let letter: Letter
                if game.toMove == 0 {
                    letter = Bot(level: .hard, solver: s).choose(in: game, using: &rng)
                    #expect(kind(s, game, letter) == .winning, "at \"\(game.fragment)\"")
                } else {
                    letter = Letter.all.randomElement(using: &rng)!
                }
                _ = try? game.play(letter, by: game.toMove)
            }
            #expect(game.outcome?.loser == 1, "\"\(game.fragment)\"")
        }
    }

    /// When it can win, Hard picks at random among the winning letters.
    @Test func hardPicksAmongWinningLettersAtRandom() throws {
        let s = try #require(englishSolver)
        // The start of an English game: j and z win, and both get played.
        #expect(try picks(s, .hard, at: "") == "jz")
        // A position with several winning letters: every one of them gets picked, and nothing else.
        var found = 0
        for a in "abcdefghijklmnopqrstuvwxyz" {
            for b in "abcdefghijklmnopqrstuvwxyz" {
                let f = String([a, b])
                guard s.rules.verdict(f) == .alive, s.winningLetters(f).count >= 3 else { continue }
                #expect(try picks(s, .hard, at: f) == spelled(s.winningLetters(f)), "at \"\(f)\"")
                found += 1
            }
        }
        #expect(found >= 5)
        // A single word leaves one letter: always that one.
        #expect(try picks(solver(["pear"]), .hard, at: "") == "p")
    }

    /// When it cannot win, Hard plays the letter that leaves the fewest winning
    /// replies, then the one that lets the game last longest, then at random.
    @Test func hardWhenLosingLeavesTheFewestWinningReplies() throws {
        let abd = solver(trickyABD)
        #expect(!abd.isWinning(""))
        let root = abd.moves(node: WordList.root, length: 0)
        #expect(root[Int(L("a").index)].opponentWinningReplies == 2)
        #expect(root[Int(L("b").index)].opponentWinningReplies == 1)
        #expect(root[Int(L("d").index)].opponentWinningReplies == 1)
        #expect(root[Int(L("a").index)].reach == 4 && root[Int(L("b").index)].reach == 4)
        // b and d tie: both get played, a never.
        #expect(try picks(abd, .hard, at: "") == "bd")

        let abcd = solver(trickyABCD)
        #expect(!abcd.isWinning(""))
        #expect(abcd.moves(node: WordList.root, length: 0)[Int(L("c").index)].opponentWinningReplies == 1)
        #expect(abcd.moves(node: WordList.root, length: 0)[Int(L("c").index)].reach == 7)
        // c leaves one winning reply, like b and d, but the longest game.
        #expect(try picks(abcd, .hard, at: "") == "c")

        // Every first letter loses with one winning reply; quizzes lasts longest.
        #expect(try picks(solver(["cat", "dog", "zebra", "quizzes", "mat", "mop", "mops"]), .hard, at: "") == "q")
        // Easy, by contrast, plays every letter that starts a word.
        #expect(try picks(abcd, .easy, at: "") == "abcd")
    }

    // MARK: Easy

    /// Easy never plays a letter that loses on the spot when another one does not.
    @Test func easyAvoidsLettersThatLoseAtOnce() throws {
        let s = solver(["pea", "pear", "pearl", "xyzzy"])
        #expect(try picks(s, .easy, at: "") == "px")
        #expect(try picks(s, .easy, at: "pe") == "a")
        // At "pea" every letter loses ("pear" is a word, the rest start nothing): any letter will do.
        #expect(try picks(s, .easy, at: "pea").count >= 10)

        // On English, from random positions: never a letter that loses at once when a safe one
        // exists; and Easy is not perfect (it plays losing letters from winning positions).
        let en = try #require(englishSolver)
        var rng = SeededRandom(seed: 99)
        var blunders = 0, choices = 0
        for _ in 0..<400 {
            guard let game = randomPosition(en, maxLetters: 5, &rng) else { continue }
            let moves = en.moves(node: game.node, length: game.fragment.utf8.count)
            let letter = Bot(level: .easy, solver: en).choose(in: game, using: &rng)
            choices += 1
            if moves.contains(where: { $0.kind != .losesAtOnce }) {
                #expect(kind(en, game, letter) != .losesAtOnce, "Easy played \(letter) at \"\(game.fragment)\"")
            }
            if en.isWinning(node: game.node) && kind(en, game, letter) != .winning { blunders += 1 }
        }
        #expect(choices >= 300)
        #expect(blunders > 20)
        #expect(try picks(en, .easy, at: "").count >= 20)
    }

    // MARK: Medium

    /// Medium sits between Easy and Hard: over 2000 seeded games each, it beats Easy more
    /// often than it loses to it, and loses to Hard more often than it beats it.
    @Test func mediumIsBetweenEasyAndHard() throws {
        let s = try #require(englishSolver)
        func score(_ a: BotLevel, _ b: BotLevel, seed: UInt64) -> (aWins: Int, bWins: Int) {
            var rng = SeededRandom(seed: seed)
            var aWins = 0
            for i in 0..<2000 {
                // Alternate who starts, so the first player's advantage cancels out.
                let aSeat = i % 2
                var bots = [Bot(level: b, solver: s), Bot(level: b, solver: s)]
                bots[aSeat] = Bot(level: a, solver: s)
                var game = PlainGhost(rules: s.rules)
                if playOut(&game, bots, &rng) != aSeat { aWins += 1 }
            }
            return (aWins, 2000 - aWins)
        }
        let me = score(.medium, .easy, seed: 11)
        #expect(me.aWins > me.bWins, "medium \(me.aWins) vs easy \(me.bWins)")
        let hm = score(.hard, .medium, seed: 12)
        #expect(hm.aWins > hm.bWins, "hard \(hm.aWins) vs medium \(hm.bWins)")
        let he = score(.hard, .easy, seed: 13)
        #expect(he.aWins > hm.aWins, "hard beats easy (\(he.aWins)) more often than medium (\(hm.aWins))")
    }

    /// Medium's choices in winning positions: sometimes a losing letter (unlike Hard),
    /// more often a winning one than Easy. Over the same seeded positions.
    @Test func mediumBlundersSometimes() throws {
        let s = try #require(englishSolver)
        var rng = SeededRandom(seed: 31)
        var won: [BotLevel: Int] = [:]
        var positions = 0
        while positions < 1500 {
            guard let game = randomPosition(s, maxLetters: 6, &rng), s.isWinning(node: game.node) else { continue }
            // Only positions where some letter does not win, so a mistake is possible.
            let moves = s.moves(node: game.node, length: game.fragment.utf8.count)
            guard moves.contains(where: { $0.kind == .losing }) else { continue }
            positions += 1
            for level in BotLevel.allCases {
                var r = SeededRandom(seed: UInt64(positions))
                if kind(s, game, Bot(level: level, solver: s).choose(in: game, using: &r)) == .winning {
                    won[level, default: 0] += 1
                }
            }
        }
        let (easy, medium, hard) = (won[.easy] ?? 0, won[.medium] ?? 0, won[.hard] ?? 0)
        #expect(hard == positions)
        #expect(medium < positions, "medium always won: \(medium)")
        #expect(medium > easy, "medium \(medium) vs easy \(easy)")
        // About 0.6 of the time Medium plays like Hard: clearly above Easy, clearly below Hard.
        #expect(medium - easy > positions / 5, "medium \(medium) easy \(easy) of \(positions)")
    }

    // MARK: Hints

    @Test func hintSaysWhetherTheMoverWinsAndALetter() throws {
        // Hand-made: a won start (p) and a lost start (c, the trickiest letter).
        let pea = solver(["pea", "pear", "pearl"])
        let h1 = Bot(level: .easy, solver: pea).hint(for: try position(pea, ""))
        #expect(h1.winning && h1.letter == L("p"))
        let h2 = Bot(level: .easy, solver: pea).hint(for: try position(pea, "p"))
        #expect(!h2.winning && h2.letter == L("e"))
        let abcd = solver(trickyABCD)
        for _ in 0..<20 {
            let h = Bot(level: .hard, solver: abcd).hint(for: try position(abcd, ""))
            #expect(!h.winning && h.letter == L("c"))
        }

        // English: the hint agrees with the solver, and its letter is a winning one when there is one.
        let en = try #require(englishSolver)
        let start = Bot(level: .easy, solver: en).hint(for: PlainGhost(rules: en.rules))
        #expect(start.winning && "jz".contains(start.letter.character))
        var rng = SeededRandom(seed: 5)
        var losing = 0
        for _ in 0..<300 {
            guard let game = randomPosition(en, maxLetters: 6, &rng) else { continue }
            let h = Bot(level: .easy, solver: en).hint(for: game)
            #expect(h.winning == en.isWinning(game.fragment), "at \"\(game.fragment)\"")
            if h.winning {
                #expect(kind(en, game, h.letter) == .winning, "hint \(h.letter) at \"\(game.fragment)\"")
            } else {
                losing += 1
                let moves = en.moves(node: game.node, length: game.fragment.utf8.count)
                let alive = moves.filter { $0.kind == .losing }
                if let fewest = alive.map(\.opponentWinningReplies).min() {
                    let m = moves[Int(h.letter.index)]
                    #expect(m.kind == .losing && m.opponentWinningReplies == fewest, "hint \(h.letter) at \"\(game.fragment)\"")
                }
            }
        }
        #expect(losing > 10)
    }
}
