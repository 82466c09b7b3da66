import Testing
import GhostCore
import GameKit
import WordLists

/// The English list solved once for the tests here.
private let englishSolver: Solver? = englishWords.map { Solver(rules: GhostRules(words: $0)) }

private func bluffRules(_ words: [String]) -> GhostRules { GhostRules(words: WordList(words: words)) }

private let small = ["jail", "jails", "pea", "pear", "quad", "xor"]

/// A bluff-variant game after `letters`, seats alternating from seat 0.
private func game(_ letters: String, rules: GhostRules = bluffRules(small)) throws -> ChallengeGhost {
    var g = ChallengeGhost(rules: rules)
    for c in letters { try g.play(L(c), by: g.toMove) }
    return g
}

/// The bluff variant solved straight from its rules over strings, with
/// every move a player has: a letter (also one that makes a dead fragment),
/// a challenge. The player to move at a dead fragment wins by challenging
/// (no word answers it); a challenge of a live fragment loses (a word
/// answers it); a word of 4+ letters loses for its maker.
private final class BruteBluff {
    let ghost: BruteGhost
    private var memo: [String: Bool] = [:]
    init(_ ghost: BruteGhost) { self.ghost = ghost }

    func wins(_ f: String) -> Bool {
        if !f.isEmpty && !ghost.properlyExtended(f) { return true }   // challenge: no word answers
        if let w = memo[f] { return w }
        // A challenge of a live fragment loses; so a win needs a letter.
        let w = BruteGhost.alphabet.contains { c in
            let g = f + String(c)
            if g.count >= 4 && ghost.words.contains(g) { return false }
            return !wins(g)
        }
        memo[f] = w
        return w
    }
}

@Suite struct BluffTests {
    // MARK: The rules

    @Test func aDeadFragmentDoesNotEndTheRound() throws {
        var g = try game("qz")
        #expect(g.outcome == nil)
        #expect(g.isDeadFragment)
        #expect(g.fragment == "qz")
        #expect(g.publicFields == [Field("fragment", "qz")])
        // Play may go on past it: every letter keeps it dead.
        #expect(try g.play(L("x"), by: 0) == nil)
        #expect(g.isDeadFragment && g.fragment == "qzx" && g.toMove == 1)
        // A short word nothing extends is dead too, and goes on.
        let xor = try game("xor")
        #expect(xor.outcome == nil && xor.isDeadFragment)
        #expect(!(try game("jai")).isDeadFragment)
        #expect(!ChallengeGhost(rules: bluffRules(small)).isDeadFragment)
    }

    @Test func aWordLongerThanThreeLettersStillEndsIt() throws {
        var g = try game("jai")
        let outcome = try g.play(L("l"), by: 1)
        #expect(outcome == Outcome(loser: 1, reason: .word))
        #expect(g.explanation(loserName: "bob") == "\"jail\" is a word longer than 3 letters, so bob loses.")
        #expect(g.endFields == [])
    }

    @Test func aChallengeAnsweredWithAWordLosesForTheChallenger() throws {
        var g = try game("jai")   // seat 0 played j and i, seat 1 a; seat 1 to move
        #expect(g.toMove == 1)
        #expect(try g.play(.challenge, by: 1) == nil)
        #expect(g.isChallenged && g.challenger == 1 && g.toMove == 0)
        #expect(g.fields(after: .challenge) == [Field("challenge", "yes"), Field("fragment", "jai")])
        #expect(g.publicFields == [Field("fragment", "jai"), Field("challenged", "yes")])
        // The full state names who played the last letter: the challenged seat.
        #expect(g.stateFields(names: ["ann", "bob"]) == [Field("last", "ann")])
        let outcome = try g.play(.word("jails"), by: 0)
        #expect(outcome == Outcome(loser: 1, reason: .challengeFailed))
        #expect(g.answer == "jails")
        #expect(g.fields(after: .word("jails")) == [Field("word", "jails"), Field("fragment", "jai")])
        #expect(g.publicFields == [Field("fragment", "jai")])
        #expect(g.endFields == [Field("word", "jails")])
        #expect(g.explanation(loserName: "bob") == "\"jai\" could be \"jails\", so bob loses the challenge.")
        #expect(g.moveCount == 5)
    }

    @Test func anAnswerNotInTheListLosesForTheChallenged() throws {
        var g = try game("jai")
        try g.challenge(by: 1)
        let outcome = try g.play(.word("JAIZ"), by: 0)
        #expect(outcome == Outcome(loser: 0, reason: .bluff))
        #expect(g.answer == "jaiz")
        #expect(g.endFields == [Field("word", "jail")])
        #expect(g.explanation(loserName: "ann") == "\"jaiz\" is not a word, so ann loses; \"jai\" could be \"jail\".")
    }

    @Test func concedingLoses() throws {
        var dead = try game("qz")
        try dead.challenge(by: 0)
        #expect(try dead.play(.concede, by: 1) == Outcome(loser: 1, reason: .bluff))
        #expect(dead.endFields == [])
        #expect(dead.fields(after: .concede) == [Field("concede", "yes"), Field("fragment", "qz")])
        #expect(dead.explanation(loserName: "bob") == "bob conceded: \"qz\" can't be extended: no word starts with it.")
        var xor = try game("xor")
        try xor.challenge(by: 1)
        try xor.concede(by: 0)
        #expect(xor.explanation(loserName: "ann") == "ann conceded: \"xor\" is a word, but no longer word starts with it.")
        // Conceding a live fragment loses too, and OVER names the word.
        var live = try game("pe")
        try live.challenge(by: 0)
        #expect(try live.play(.concede, by: 1) == Outcome(loser: 1, reason: .bluff))
        #expect(live.endFields == [Field("word", "pea")])
        #expect(live.explanation(loserName: "bob") == "bob conceded, though \"pe\" could be \"pea\".")
    }

    @Test func theAnswerMustStartWithTheFragmentAndBeLonger() throws {
        var g = try game("jai")
        try g.challenge(by: 1)
        let badWord = MoveError.refused(code: "bad-word", message: "answer with a word that starts with \"jai\" and is longer, or CONCEDE")
        for w in ["jai", "ja", "pear", "xjail", "jai'l", "jai-l"] {
            #expect(throws: badWord, "\(w)") { try g.play(.word(w), by: 0) }
        }
        // Refused answers change nothing: the challenge still waits.
        #expect(g.isChallenged && g.moveCount == 4 && g.toMove == 0)
        #expect(throws: MoveError.notYourTurn) { try g.play(.word("jail"), by: 1) }
        #expect(try g.play(.word("jail"), by: 0) == Outcome(loser: 1, reason: .challengeFailed))
    }

    @Test func refusals() throws {
        // In Ghost and Superghost a challenge is not a move.
        var ghost = PlainGhost(rules: GhostRules(words: WordList(words: small)))
        try ghost.play(L("j"), by: 0)
        let wrong = MoveError.refused(code: "wrong-variant", message: "CHALLENGE, and WORD or CONCEDE to answer one, are for variant=challenge: in Ghost the server ends a dead fragment itself")
        #expect(throws: wrong) { try ghost.play(.challenge, by: 1) }
        #expect(throws: wrong) { try ghost.play(.concede, by: 1) }
        #expect(throws: MoveError.notAMove("play one letter a-z")) { try ghost.play(.word("jail"), by: 1) }
        #expect(ghost.moveCount == 1)
        var superGame = Superghost(rules: GhostRules(words: WordList(words: small), infixes: Infixes(words: WordList(words: small))))
        try superGame.play(L("a"), by: 0)
        #expect(throws: wrong) { try superGame.play(.challenge, by: 1) }
        // Nothing to challenge before the first letter.
        var empty = ChallengeGhost(rules: bluffRules(small))
        #expect(throws: MoveError.refused(code: "empty-fragment", message: "there is nothing to challenge yet: play a letter")) {
            try empty.challenge(by: 0)
        }
        // Out of turn.
        var g = try game("ja")
        #expect(throws: MoveError.notYourTurn) { try g.play(.challenge, by: 1) }
        // WORD and CONCEDE need a challenge.
        let none = MoveError.refused(code: "no-challenge", message: "nobody challenged you: play a letter, or CHALLENGE")
        #expect(throws: none) { try g.play(.word("jail"), by: 0) }
        #expect(throws: none) { try g.play(.concede, by: 0) }
        // While challenged: no letter, no counter-challenge; the challenger waits.
        try g.challenge(by: 0)
        #expect(throws: MoveError.refused(code: "challenge-pending", message: "you are challenged: answer WORD <word> (a word that starts with \"ja\"), or CONCEDE")) {
            try g.play(.letter(L("i")), by: 1)
        }
        #expect(throws: MoveError.refused(code: "challenge-pending", message: "you are challenged: answer WORD <word>, or CONCEDE")) {
            try g.challenge(by: 1)
        }
        #expect(throws: MoveError.notYourTurn) { try g.play(.letter(L("i")), by: 0) }
        #expect(throws: MoveError.notYourTurn) { try g.play(.concede, by: 0) }
        #expect(g.moveCount == 3)
        // A finished game takes nothing.
        try g.concede(by: 1)
        #expect(throws: MoveError.gameOver) { try g.play(.challenge, by: 0) }
    }

    @Test func theFragmentHasALimit() throws {
        var g = try game("qz")
        while g.fragment.utf8.count < ChallengeGhost.maxFragment { try g.play(L("q"), by: g.toMove) }
        #expect(throws: MoveError.refused(code: "fragment-too-long", message: "no word is that long: CHALLENGE it")) {
            try g.play(L("q"), by: g.toMove)
        }
        #expect(try g.play(.challenge, by: g.toMove) == nil)
    }

    @Test func ghostLinesDoNotChange() throws {
        var ghost = PlainGhost(rules: GhostRules(words: WordList(words: small)))
        try ghost.play(L("p"), by: 0)
        #expect(ghost.fields(after: .letter(L("p"))) == [Field("letter", "p"), Field("fragment", "p")])
        #expect(ghost.setupFields == [])
        #expect(ghost.moveCount == 1)
        let g = try game("p")
        #expect(g.fields(after: .letter(L("p"))) == [Field("letter", "p"), Field("fragment", "p")])
        #expect(g.setupFields == [Field("variant", "challenge")])
        #expect(g.stateFields(names: ["ann", "bob"]) == [Field("last", "ann")])
    }

    // MARK: The store's moves

    @Test func movesAreStoredAndReplayWithAPendingChallenge() throws {
        #expect(Move.challenge.encoded == "challenge")
        #expect(Move.concede.encoded == "concede")
        #expect(Move.word("jail").encoded == "word:jail")
        for m in [Move.challenge, .concede, .word("jail"), .letter(L("c")), .front(L("c"))] {
            #expect(Move(encoded: m.encoded) == m)
        }
        var g = try game("qz")
        try g.challenge(by: 0)
        let played: [(String, Int)] = [("q", 0), ("z", 1), ("challenge", 0)]
        // Each move its own ply: 1, 2, 3.
        #expect(g.moveCount == 3)
        var replayed = ChallengeGhost(rules: bluffRules(small))
        for (text, seat) in played {
            let move = try #require(Move(encoded: text))
            _ = try replayed.play(move, by: seat)
        }
        #expect(replayed.isChallenged && replayed.challenger == 0 && replayed.toMove == 1)
        #expect(replayed.publicFields == g.publicFields)
        #expect(replayed.moveCount == g.moveCount)
        #expect(try replayed.play(.word("qzx"), by: 1) == Outcome(loser: 1, reason: .bluff))
    }

    // MARK: The computer

    /// Against the perfect challenger a bluff never pays: on random small
    /// lists, the bluff variant solved with every move (dead letters and
    /// challenges included) has Ghost's value at every live fragment; and on
    /// the English list, after every dead letter from random positions, Hard
    /// challenges and no word answers, so the bluffer loses.
    @Test func bluffingNeverPaysAgainstThePerfectChallenger() throws {
        var rng = SeededRandom(seed: 0xB1_0FF)
        var checked = 0
        for _ in 0..<200 {
            let alphabet = Array("abcd".prefix(Int.random(in: 3...4, using: &rng)))
            let words = (0..<Int.random(in: 3...12, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            }
            let ghost = BruteGhost(words)
            let bluff = BruteBluff(ghost)
            for f in ghost.fragments where f.isEmpty || ghost.alive(f) {
                #expect(bluff.wins(f) == ghost.wins(f), "\(words.sorted()) at \"\(f)\"")
                checked += 1
            }
        }
        #expect(checked > 1000)

        let solver = try #require(englishSolver)
        let rules = GhostRules(words: solver.rules.words, language: "en")
        let hard = BluffBot(level: .hard, solver: solver)
        var bluffs = 0
        for _ in 0..<300 {
            var g = ChallengeGhost(rules: rules, firstToMove: 0)
            // A random live position of up to 6 letters.
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let live = solver.moves(node: g.node, length: g.fragment.utf8.count).filter { $0.kind != .losesAtOnce }
                guard let m = live.randomElement(using: &rng) else { break }
                try g.play(m.letter, by: g.toMove)
            }
            for letter in hard.deadLetters(g) {
                var h = g
                let bluffer = h.toMove
                try h.play(letter, by: bluffer)
                #expect(h.outcome == nil && h.isDeadFragment)
                #expect(hard.choose(in: h, using: &rng) == .challenge, "\(h.fragment)")
                try h.challenge(by: 1 - bluffer)
                #expect(h.continuation == nil, "\(h.fragment)")
                // Whatever the bluffer answers, it loses.
                var answered = h
                #expect(try answered.play(.word(h.fragment + "e"), by: bluffer) == Outcome(loser: bluffer, reason: .bluff))
                #expect(try h.play(.concede, by: bluffer) == Outcome(loser: bluffer, reason: .bluff))
                bluffs += 1
            }
        }
        #expect(bluffs > 1000)
    }

    @Test func hardNeverBluffsChallengesExactlyTheDeadAndAnswersWithAWord() throws {
        let solver = try #require(englishSolver)
        let rules = GhostRules(words: solver.rules.words, language: "en")
        let hard = BluffBot(level: .hard, solver: solver)
        var rng = SeededRandom(seed: 0x4A_4D)
        var positions = 0
        for _ in 0..<400 {
            var g = ChallengeGhost(rules: rules)
            for _ in 0..<Int.random(in: 0...7, using: &rng) {
                let live = solver.moves(node: g.node, length: g.fragment.utf8.count).filter { $0.kind != .losesAtOnce }
                guard let m = live.randomElement(using: &rng) else { break }
                try g.play(m.letter, by: g.toMove)
            }
            let move = hard.choose(in: g, using: &rng)
            #expect(move != .challenge, "\(g.fragment)")   // never challenges a live fragment
            guard case .letter(let l) = move else {
                Issue.record("\(g.fragment): \(move)")
                continue
            }
            let moves = solver.moves(node: g.node, length: g.fragment.utf8.count)
            if moves.contains(where: { $0.kind == .winning }) {
                #expect(moves[Int(l.index)].kind == .winning, "\(g.fragment)")
            }
            if moves.contains(where: { $0.kind != .losesAtOnce }) {
                #expect(!hard.deadLetters(g).contains(l), "\(g.fragment)+\(l)")
            }
            // Challenged on a live fragment, it names a word that starts with it.
            if !g.fragment.isEmpty {
                var c = g
                try c.challenge(by: c.toMove)
                guard case .word(let w) = hard.choose(in: c, using: &rng) else {
                    Issue.record("\(g.fragment): no word")
                    continue
                }
                #expect(w.hasPrefix(g.fragment) && w.count > g.fragment.count && solver.rules.words.isWord(w))
                #expect(try c.play(.word(w), by: c.toMove)?.reason == .challengeFailed)
            }
            positions += 1
        }
        #expect(positions > 300)
        // A dead fragment: Hard always challenges.
        var dead = ChallengeGhost(rules: rules)
        try dead.play(L("q"), by: 0)
        try dead.play(L("z"), by: 1)
        for seed in 0..<50 as Range<UInt64> {
            var r = SeededRandom(seed: seed)
            #expect(hard.choose(in: dead, using: &r) == .challenge)
        }
    }

    @Test func mediumChallengesTheDeadAndBluffsOnlyFromLostPositions() throws {
        let solver = try #require(englishSolver)
        let rules = GhostRules(words: solver.rules.words, language: "en")
        let medium = BluffBot(level: .medium, solver: solver)
        var dead = ChallengeGhost(rules: rules)
        try dead.play(L("q"), by: 0)
        try dead.play(L("z"), by: 1)
        // The first player wins with j and only with j and z (SolverTests):
        // at "j" the player to move is lost, at "a" it wins.
        let lost = try #require(ChallengeGhost(rules: rules, firstToMove: 0, replaying: "j"))
        #expect(!solver.moves(node: lost.node, length: 1).contains { $0.kind == .winning })
        #expect(!medium.deadLetters(lost).isEmpty)
        // A winning position where bluffs are there to be played.
        let twoLetters = Letter.all.flatMap { a in Letter.all.map { String(a.character) + String($0.character) } }
        let won = try #require(twoLetters.lazy.compactMap { ChallengeGhost(rules: rules, firstToMove: 0, replaying: $0) }.first { g in
            solver.moves(node: g.node, length: 2).contains { $0.kind == .winning } && !medium.deadLetters(g).isEmpty
        })
        var bluffed = 0, honest = 0
        for seed in 0..<300 as Range<UInt64> {
            var r = SeededRandom(seed: seed)
            #expect(medium.choose(in: dead, using: &r) == .challenge)
            guard case .letter(let l) = medium.choose(in: lost, using: &r) else {
                Issue.record("not a letter")
                continue
            }
            if medium.deadLetters(lost).contains(l) { bluffed += 1 } else { honest += 1 }
            guard case .letter(let first) = medium.choose(in: won, using: &r) else { continue }
            #expect(!medium.deadLetters(won).contains(first))
        }
        #expect(bluffed > 60 && honest > 60, "\(bluffed) bluffs, \(honest) honest")
    }

    @Test func easyChallengesSometimesAndConcedesWithoutAWord() throws {
        let solver = try #require(englishSolver)
        let rules = GhostRules(words: solver.rules.words, language: "en")
        let easy = BluffBot(level: .easy, solver: solver)
        var dead = ChallengeGhost(rules: rules)
        try dead.play(L("q"), by: 0)
        try dead.play(L("z"), by: 1)
        var challenged = 0, played = 0
        let start = try #require(ChallengeGhost(rules: rules, firstToMove: 0, replaying: "pe"))
        for seed in 0..<200 as Range<UInt64> {
            var r = SeededRandom(seed: seed)
            switch easy.choose(in: dead, using: &r) {
            case .challenge: challenged += 1
            case .letter: played += 1
            default: Issue.record("neither")
            }
            // Like Easy in Ghost: a letter that neither ends the round nor bluffs.
            guard case .letter(let l) = easy.choose(in: start, using: &r) else { continue }
            #expect(solver.moves(node: start.node, length: 2)[Int(l.index)].kind != .losesAtOnce)
        }
        #expect(challenged > 40 && played > 40, "\(challenged) challenges, \(played) letters")
        // Challenged with no word: concede; with one: name it.
        var bluffer = dead
        try bluffer.challenge(by: 0)
        #expect(easy.choose(in: bluffer) == .concede)
        var honest = start
        try honest.challenge(by: 0)
        #expect(easy.choose(in: honest) == .word("pea"))
    }

    @Test func theKindSetsUpTheVariantAndPlaysAndHintsThroughIt() throws {
        let words = WordList(words: small)
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": words]))
        let setup = try kind.setup(options: ["variant": "challenge"], saved: [:], language: "en", seed: 1).get()
        #expect(setup.variant == "challenge")
        var g = try #require(kind.newGame(language: "en", variant: setup.variant, settings: setup.settings, seed: 1, starter: 0) as? ChallengeGhost)
        #expect(g.setupFields == [Field("variant", "challenge")])
        try g.play(L("q"), by: 0)
        try g.play(L("z"), by: 1)
        // Every level challenges here; Easy half the time, so only Hard and Medium are checked.
        #expect(kind.computerMove(in: g, level: .hard) == .challenge)
        #expect(kind.computerMove(in: g, level: .medium) == .challenge)
        #expect(kind.hint(in: g, against: .easy)?.fields == [Field("winning", "yes"), Field("challenge", "yes")])
        #expect(kind.hint(in: g, against: .hard) == nil)
        try g.challenge(by: 0)
        #expect(kind.computerMove(in: g, level: .easy) == .concede)
        // Ghost's hint where the fragment lives.
        let live = try #require(kind.newGame(language: "en", variant: "challenge", settings: "", seed: 1, starter: 0) as? ChallengeGhost)
        #expect(kind.hint(in: live, against: .easy)?.fields.first?.key == "winning")
        #expect(kind.hint(in: live, against: .easy)?.fields.last?.key == "letter")
    }

    @Test func hintsSuggestAChallengeOfADeadFragmentAndTheWordThatAnswers() throws {
        let dead = try game("qz")
        #expect(BluffBot.hint(for: dead) == Hint(winning: true, move: .challenge,
                                                 fields: [Field("winning", "yes"), Field("challenge", "yes")],
                                                 text: "No word starts with \"qz\": CHALLENGE, and you win."))
        #expect(BluffBot.hint(for: try game("pe")) == nil)   // Ghost's letter hint applies
        var challenged = try game("pe")
        try challenged.challenge(by: 0)
        #expect(BluffBot.hint(for: challenged)?.fields == [Field("winning", "yes"), Field("word", "pea")])
        var stuck = dead
        try stuck.challenge(by: 0)
        #expect(BluffBot.hint(for: stuck)?.move == .concede)
    }
}
