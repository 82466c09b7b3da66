import Testing
import GhostCore
import WordLists

private func solver(_ words: [String]) -> Solver { Solver(rules: GhostRules(words: WordList(words: words))) }

/// The judged moves at a fragment, by letter.
private func moves(_ s: Solver, _ fragment: String) throws -> [Character: Solver.Move] {
    let node = try #require(s.rules.words.node(for: fragment))
    var out: [Character: Solver.Move] = [:]
    for m in s.moves(node: node, length: fragment.count) { out[m.letter.character] = m }
    return out
}

/// The letters whose move has `kind`, a–z.
private func letters(_ s: Solver, _ fragment: String, _ kind: Solver.MoveKind) throws -> String {
    String(try moves(s, fragment).filter { $0.value.kind == kind }.keys.sorted())
}

@Suite struct SolverTests {
    // MARK: The public code-golf case

    /// {abbot, eager, eagle, eaglet, earful, earring}, words of 4+ letters lose.
    @Test func codeGolfCase() throws {
        let s = solver(["abbot", "eager", "eagle", "eaglet", "earful", "earring"])
        // The published answers, for the player to move.
        #expect(!s.isWinning(""))
        #expect(s.isWinning("a"))
        #expect(s.isWinning("eag"))
        #expect(!s.isWinning("eagl"))
        #expect(s.isWinning("ear"))
        #expect(s.isWinning("earf"))
        // Why, letter by letter:
        // "a": b, b, o, t is forced; the mover at "a" adds b and o, the other player
        // b and t, and t makes "abbot" (5 letters) on the other player.
        #expect(spelled(s.winningLetters("a")) == "b")
        // "eagl": only e, making "eagle" (5 letters): the mover loses.
        #expect(spelled(s.winningLetters("eagl")) == "")
        #expect(try letters(s, "eagl", .losesAtOnce) == "abcdefghijklmnopqrstuvwxyz")
        // "eag": l leaves the opponent at "eagl" (lost); e leaves "eage", where r is forced and makes "eager".
        #expect(spelled(s.winningLetters("eag")) == "el")
        // "ear": f leaves "earf" (won by the opponent: u, then l makes "earful" on the mover);
        // r leaves "earr": i, n, g makes "earring" on whoever plays the 7th letter = the mover at "earr".
        #expect(spelled(s.winningLetters("ear")) == "r")
        #expect(try letters(s, "ear", .losing) == "f")
        #expect(spelled(s.winningLetters("earf")) == "u")
        // "ea": g and r both leave the opponent winning, so "ea" is lost, "e" won with a.
        #expect(!s.isWinning("ea"))
        #expect(s.isWinning("e"))
        #expect(spelled(s.winningLetters("e")) == "a")
        // "": a and e both hand the opponent a won position; every other letter is dead.
        #expect(spelled(s.winningLetters("")) == "")
        #expect(try letters(s, "", .losing) == "ae")
        #expect(try letters(s, "", .losesAtOnce).count == 24)
    }

    // MARK: Hand-checked small dictionaries

    /// Words that are prefixes of other words: "pea" (3 letters, extended) is safe, "pear" loses.
    @Test func peaPearPearl() throws {
        let s = solver(["pea", "pear", "pearl"])
        // 1st p, 2nd e, 1st a ("pea": allowed, pear extends it), 2nd r ("pear": a 4-letter word, loses).
        // "pearl" can never be reached.
        #expect(s.isWinning(""))
        #expect(!s.isWinning("p"))
        #expect(s.isWinning("pe"))
        #expect(!s.isWinning("pea"))
        #expect(spelled(s.winningLetters("")) == "p")
        #expect(spelled(s.winningLetters("pe")) == "a")
        #expect(spelled(s.winningLetters("pea")) == "")
        let pea = try moves(s, "pea")
        #expect(pea[L("r").character]?.kind == .losesAtOnce)
        #expect(try letters(s, "pea", .losesAtOnce).count == 26)
        let root = try moves(s, "")
        // After p: the opponent has no winning reply, and at most 3 more letters can be
        // added (e, a, r: r ends the game).
        #expect(root["p"]?.kind == .winning)
        #expect(root["p"]?.opponentWinningReplies == 0)
        #expect(root["p"]?.reach == 3)
    }

    /// Rule 2 read literally: a short word that nothing extends is dead.
    @Test func shortWordsNothingExtendsAreDead() throws {
        // {cat}: 1st c, 2nd a, 1st t: "cat" is a word, but no word properly extends it,
        // so the maker loses (the other reading would drop "cat" and leave no words at all).
        let cat = solver(["cat"])
        #expect(!cat.isWinning(""))
        #expect(cat.isWinning("c"))
        #expect(!cat.isWinning("ca"))
        #expect(try letters(cat, "ca", .losesAtOnce).count == 26)
        #expect(cat.rules.verdict("cat") == .dead)

        // {cat, cats}: now "cat" is alive and "cats" (4 letters) loses: the 2nd player makes it.
        let cats = solver(["cat", "cats"])
        #expect(cats.isWinning(""))
        #expect(cats.isWinning("ca"))
        #expect(!cats.isWinning("cat"))
        #expect(spelled(cats.winningLetters("")) == "c")

        // {ox}: 1st o, 2nd x: "ox" is dead, so the 2nd player loses.
        let ox = solver(["ox"])
        #expect(ox.isWinning(""))
        #expect(!ox.isWinning("o"))
        // {ox, oxen}: o, x ("ox" alive: oxen extends it), e, n: "oxen" is made by the 2nd player.
        let oxen = solver(["ox", "oxen"])
        #expect(oxen.isWinning(""))
        #expect(oxen.isWinning("ox"))
        #expect(!oxen.isWinning("oxe"))

        // {a}: every first letter loses at once ("a" is a word nothing extends; the rest start nothing).
        let a = solver(["a"])
        #expect(!a.isWinning(""))
        #expect(try letters(a, "", .losesAtOnce).count == 26)

        // {at, ate}: a, t ("at" alive), e: "ate" is a 3-letter word nothing extends: the 1st player loses.
        // Add "ates": then "ate" is alive and s, made by the 2nd player, makes a 4-letter word.
        #expect(!solver(["at", "ate"]).isWinning(""))
        #expect(solver(["at", "ate", "ates"]).isWinning(""))

        // {abc, abde}: at "ab" (1st player to move) c makes "abc", dead; d leaves "abd",
        // where e is forced and makes "abde" (4 letters). So "ab" is won with d only,
        // "a" is lost (b is forced), and "" is won with a.
        let ab = solver(["abc", "abde"])
        #expect(spelled(ab.winningLetters("ab")) == "d")
        #expect(try letters(ab, "ab", .losesAtOnce).count == 25)
        #expect(!ab.isWinning("a"))
        #expect(ab.isWinning(""))
    }

    /// A word of 4+ letters ends the game even when longer words start with it.
    @Test func longWordEndsTheGameEvenIfExtended() throws {
        // {tree, treetops}: t, r, e, e: "tree" loses for the 2nd player; "treetops" is never reached.
        let s = solver(["tree", "treetops"])
        #expect(s.isWinning(""))
        #expect(!s.isWinning("tre"))
        #expect(s.rules.verdict("tree") == .word)
        #expect(try moves(s, "tre")["e"]?.kind == .losesAtOnce)
    }

    /// One long word: the letters are forced, and whoever adds the last one loses.
    /// The first player adds the odd letters, so they lose iff the word's length is odd.
    @Test(arguments: 1...12)
    func singleWord(length: Int) throws {
        let word = String("abcdefghijkl".prefix(length))
        let s = solver([word])
        #expect(s.isWinning("") == (length % 2 == 0), "\(word)")
        #expect(spelled(s.winningLetters("")) == (length % 2 == 0 ? "a" : ""), "\(word)")
        // Every proper prefix: the player to move adds letters k+1, k+3, …; they lose iff
        // they add the last, i.e. iff length - k is odd.
        for k in 0..<length {
            let prefix = String(word.prefix(k))
            #expect(s.isWinning(prefix) == ((length - k) % 2 == 0), "\(word) at \"\(prefix)\"")
        }
        // How long the game can last from the start: every letter of the word.
        let root = try moves(s, "")
        if length > 1 {
            #expect(root["a"]?.reach == length - 1, "\(word)")
        } else {
            #expect(root["a"]?.kind == .losesAtOnce)
        }
    }

    /// Every first letter loses, each for its own reason.
    @Test func everyFirstLetterLoses() throws {
        // cat, dog: 3-letter words nothing extends, made by the 1st player.
        // zebra (5), quizzes (7): odd lengths, the last letter is the 1st player's.
        // m: the 2nd player answers a (then "mat" is forced and dead); o would lose for
        // them ("mop" is alive, then s makes "mops" on the 2nd player).
        let s = solver(["cat", "dog", "zebra", "quizzes", "mat", "mop", "mops"])
        #expect(!s.isWinning(""))
        #expect(spelled(s.winningLetters("")) == "")
        #expect(try letters(s, "", .losing) == "cdmqz")
        #expect(try letters(s, "", .losesAtOnce).count == 21)
        #expect(spelled(s.winningLetters("m")) == "a")
        #expect(s.isWinning("mo"))
        for first in ["c", "d", "m", "q", "z"] { #expect(s.isWinning(first), "\(first)") }
        // Each leaves exactly one winning reply; how long the game can last differs.
        let root = try moves(s, "")
        #expect(root.filter { $0.value.kind == .losing }.allSatisfy { $0.value.opponentWinningReplies == 1 })
        #expect(root["c"]?.reach == 2)
        #expect(root["m"]?.reach == 3)   // m, o, p, s
        #expect(root["z"]?.reach == 4)
        #expect(root["q"]?.reach == 6)
    }

    /// A fragment that ended the game by rule 1 has no player to move, so nobody wins
    /// it, although longer words extend it ("tree" in {tree, treetops}).
    @Test func finishedWordFragmentsAreNotWinning() {
        let s = solver(["tree", "treetops"])
        #expect(s.rules.verdict("tree") == .word)
        #expect(!s.isWinning("tree"))
        #expect(s.winningLetters("tree").isEmpty)
    }

    @Test func emptyListAndUnknownFragments() {
        let s = solver([])
        #expect(!s.isWinning(""))
        #expect(s.winningLetters("").isEmpty)
        let p = solver(["pea", "pear"])
        #expect(!p.isWinning("qz"))           // no word starts with it: a finished game
        #expect(p.winningLetters("qz").isEmpty)
        #expect(!p.isWinning(node: -1))
        #expect(!p.isWinning(node: 1_000_000))
    }

    // MARK: Against a brute-force solver written from the rule

    /// 300 seeded random dictionaries of 3–12 words, 1–6 letters, over 3–4 letters:
    /// for every fragment where play goes on, the solver agrees with plain minimax over
    /// strings on who wins, which letters win, and what each letter does.
    @Test func agreesWithBruteForceOnRandomDictionaries() throws {
        var rng = SeededRandom(seed: 0x5EED_6057)
        var checked = 0, winning = 0
        for _ in 0..<300 {
            let alphabet = Array("abcd".prefix(Int.random(in: 3...4, using: &rng)))
            let count = Int.random(in: 3...12, using: &rng)
            let words = (0..<count).map { _ in
                String((0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            let s = solver(words)
            let brute = BruteGhost(words)
            for f in brute.fragments where f.isEmpty || brute.alive(f) {
                let expected = brute.wins(f)
                #expect(s.isWinning(f) == expected, "\(words.sorted()) at \"\(f)\"")
                #expect(spelled(s.winningLetters(f)) == brute.winningLetters(f), "\(words.sorted()) at \"\(f)\"")
                let node = try #require(s.rules.words.node(for: f))
                #expect(s.isWinning(node: node) == expected)
                for m in s.moves(node: node, length: f.count) {
                    let g = f + String(m.letter.character)
                    guard brute.alive(g) else {
                        #expect(m.kind == .losesAtOnce, "\(words.sorted()) at \"\(g)\"")
                        continue
                    }
                    #expect(m.kind == (brute.wins(g) ? .losing : .winning), "\(words.sorted()) at \"\(g)\"")
                    #expect(m.opponentWinningReplies == brute.winningLetters(g).count, "\(words.sorted()) at \"\(g)\"")
                    #expect(m.reach == brute.reach(g), "\(words.sorted()) reach at \"\(g)\"")
                }
                checked += 1
                if expected { winning += 1 }
            }
        }
        // The sample is not trivial: many positions, both outcomes.
        #expect(checked > 2000)
        #expect(winning > checked / 5 && winning < checked * 4 / 5, "\(winning) of \(checked)")
    }

    // MARK: The real word lists

    @Test func englishFirstPlayerWinsWithJAndZ() throws {
        let s = Solver(rules: GhostRules(words: try #require(englishWords)))
        #expect(s.isWinning(""))
        #expect(spelled(s.winningLetters("")) == "jz")
        // And the assignment's worked example: after "peaf" o is forced.
        let peaf = try letters(s, "peaf", .losesAtOnce)
        #expect(peaf.count == 25 && !peaf.contains("o"))
        #expect(try moves(s, "peafow")["l"]?.kind == .losesAtOnce)
    }

    @Test func dutchFirstPlayerWinsWithJ() throws {
        let s = Solver(rules: GhostRules(words: try #require(dutchWords)))
        #expect(s.isWinning(""))
        #expect(spelled(s.winningLetters("")) == "j")
    }
}
