import Foundation
import Testing
import WordLists
import HangmanCore
import GameKit

/// 125 words of 5 letters (the only length with at least 100), and a few shorter ones.
let manyFives: [String] = "abcde".flatMap { a in "fghij".flatMap { b in "klmno".map { c in "\(a)\(b)\(c)st" } } }
    + ["cat", "dog", "bird"]

@Suite struct SetupTests {
    let k = kind(manyFives, phrases: phrases)

    func settings(_ options: [String: String], saved: [String: String] = [:], seed: UInt64 = 1, language: String = "en") -> Result<GameSetup, SetupError> {
        k.setup(options: options, saved: saved, language: language, seed: seed)
    }

    @Test func defaults() throws {
        let setup = try settings([:]).get()
        #expect(setup == GameSetup(variant: "evil", settings: "length=5 misses=8", computerSeat: 0, computerName: "bot-hangman"))
        #expect(HangmanKind.defaultMisses == 8)
        #expect(k.name == "hangman")
        #expect(k.matchRounds == nil)
        #expect(k.maxLength(language: "en") == 5)
        #expect(k.maxLength(language: "xx") == nil)
    }

    @Test func optionsWinOverSaved() throws {
        #expect(try settings(["mode": "fair"], saved: ["mode": "duel", "misses": "5"]).get()
            == GameSetup(variant: "fair", settings: "length=5 misses=5", computerSeat: 0, computerName: "bot-hangman"))
        #expect(try settings(["length": "3", "misses": "26"], saved: ["mode": "duel", "length": "4"]).get()
            == GameSetup(variant: "duel", settings: "length=3 misses=26"))
        #expect(try settings(["misses": "1", "length": "any"], saved: ["length": "3"]).get().settings == "length=5 misses=1")
        // A saved value that does not hold here is refused, naming the
        // setting (Protocol.md §3, SET), never replaced; an option given
        // instead of it plays.
        for (saved, code, text) in [(["length": "9"], "bad-value", "your saved hangman-length 9 does not fit here (no word of 9 letters in the en list): give length= or SET hangman-length"),
                                    (["misses": "99"], "bad-value", "your saved hangman-misses 99 does not fit here (misses is a number from 1 to 26): give misses= or SET hangman-misses"),
                                    (["mode": "nonsense"], "bad-value", "your saved hangman-mode nonsense does not fit here (mode is one of evil, fair, phrase, duel): give mode= or SET hangman-mode")]
                                    as [([String: String], KindErrorCode, String)] {
            #expect(settings([:], saved: saved) == .failure(SetupError(code: code, message: text)))
        }
        #expect(try settings(["length": "4", "misses": "3", "mode": "fair"], saved: ["length": "9", "misses": "99", "mode": "nonsense"]).get().settings
            == "length=4 misses=3")
    }

    @Test func badValuesAreRefused() {
        for options in [["length": "6"], ["length": "0"], ["length": "65"], ["length": "five"], ["length": ""],
                        ["misses": "0"], ["misses": "27"], ["misses": "x"], ["mode": "nice"], ["mode": "EVIL"],
                        ["mode": "phrase", "length": "5"]] {
            guard case .failure(let e) = settings(options) else { Issue.record("\(options) accepted"); continue }
            #expect(e.code == "bad-value", "\(options)")
        }
        guard case .failure(let e) = settings([:], language: "nl") else { Issue.record("nl accepted"); return }
        #expect(e.code == "bad-value")
    }

    @Test func phrasesNeedAList() throws {
        let noPhrases = kind(manyFives)
        #expect(noPhrases.setup(options: ["mode": "phrase"], saved: [:], language: "en", seed: 1)
            == .failure(SetupError(code: "no-phrases", message: "no phrase list for en")))
        #expect(try settings(["mode": "phrase", "length": "12"]).get().settings == "length=12 misses=8")
        // `any` takes a phrase's length: one of the four phrases.
        var lengths = Set<String>()
        for seed in UInt64(0)..<40 { lengths.insert(try settings(["mode": "phrase"], seed: seed).get().settings) }
        #expect(lengths == ["length=9 misses=8", "length=11 misses=8", "length=12 misses=8", "length=13 misses=8"])
    }

    @Test func anyLengthDependsOnTheSeedAndIsConcrete() throws {
        let english = try #require(englishKind)
        var lengths = Set<Int>()
        for seed in UInt64(0)..<50 {
            let setup = try english.setup(options: ["length": "any"], saved: [:], language: "en", seed: seed).get()
            #expect(setup == (try english.setup(options: [:], saved: [:], language: "en", seed: seed).get()))
            let n = try #require(Int(setup.settings.split(separator: " ")[0].dropFirst("length=".count)))
            let game = try #require(english.newGame(language: "en", variant: setup.variant, settings: setup.settings, seed: seed, starter: 1) as? HangmanGame)
            #expect(game.familySize >= HangmanKind.anyLengthMinimumWords)
            #expect(game.length == n)
            lengths.insert(n)
        }
        #expect(lengths.count > 5)
        #expect(english.maxLength(language: "en") == 22)
    }

    @Test func newGameRebuildsTheSetup() throws {
        for options in [["mode": "evil"], ["mode": "fair", "misses": "3"], ["mode": "duel", "length": "3"], ["mode": "phrase"]] {
            let setup = try settings(options, seed: 77).get()
            let g = try #require(k.newGame(language: "en", variant: setup.variant, settings: setup.settings, seed: 77, starter: 1) as? HangmanGame)
            #expect(line(g.setupFields) == "mode=\(setup.variant) \(setup.settings)")
            #expect(g.toMove == (setup.variant == "duel" ? 0 : 1))
        }
        #expect(k.newGame(language: "en", variant: "nice", settings: "", seed: 1, starter: 0) == nil)
        #expect(k.newGame(language: "en", variant: "evil", settings: "length=6 misses=8", seed: 1, starter: 0) == nil)
        #expect(k.newGame(language: "en", variant: "evil", settings: "length=5 misses=30", seed: 1, starter: 0) == nil)
        #expect(k.newGame(language: "nl", variant: "evil", settings: "length=5 misses=8", seed: 1, starter: 0) == nil)
    }

    @Test func theKindOffersNoHintsNorMatches() throws {
        let g = try #require(k.game(language: "en", mode: .evil, length: 5, seed: 1))
        #expect(!k.allowsHints(against: .easy) && !k.allowsHints(against: nil))
        #expect(k.hint(in: g, against: .easy) == nil)
        #expect(k.matchFields(Match(target: 1)) == [] && k.gameFields(Match(target: 1)) == [])
        #expect(EndReason.solved.rawValue == "solved" && EndReason.hanged.rawValue == "hanged")
        #expect(HangmanMode.allCases.map(\.rawValue) == ["evil", "fair", "phrase", "duel"])
    }
}

@Suite struct ReplayTests {
    /// Plays `moves` (encoded) on a game made from the setup, as the server restores one.
    func restore(_ k: HangmanKind, _ setup: GameSetup, seed: UInt64, moves: [String]) throws -> HangmanGame {
        var g = try #require(k.newGame(language: "en", variant: setup.variant, settings: setup.settings, seed: seed, starter: 0) as? HangmanGame)
        for text in moves {
            let move = try #require(Move(encoded: text))
            try g.play(move, by: g.toMove)
        }
        return g
    }

    func state(_ g: HangmanGame) -> String {
        "\(g.line) family=\(g.familySize) answer=\(g.answer ?? "-") over=\(g.outcome.map { "\($0.loser.map(String.init) ?? "draw") \($0.reason)" } ?? "-")"
    }

    @Test func evilReplaysToTheSameFamily() throws {
        let k = try #require(englishKind)
        for seed in [UInt64(1), 2, 3] {
            let setup = try k.setup(options: ["misses": "10"], saved: [:], language: "en", seed: seed).get()
            var g = try restore(k, setup, seed: seed, moves: [])
            var halfway: (moves: [String], state: String)?
            var n = 0
            while !g.isOver, let l = g.likeliestLetter {
                // A wrong SOLVE on the way: it costs a miss, and is stored.
                if n == 3 { try g.play(.word(String(repeating: "e", count: g.length)), by: 1) }
                try g.play(.letter(l), by: 1)
                n += 1
                if n == 4 { halfway = (g.moves.map(\.encoded), state(g)) }
            }
            let encoded = g.moves.map(\.encoded)
            #expect(state(try restore(k, setup, seed: seed, moves: encoded)) == state(g))
            let half = try #require(halfway)
            let h = try restore(k, setup, seed: seed, moves: half.moves)
            #expect(state(h) == half.state)
            #expect(h.familySize > 1)
        }
    }

    @Test func evilSolveReplays() throws {
        let k = kind(["cat", "cot", "cut", "dog"])
        let setup = try k.setup(options: ["length": "3", "misses": "3"], saved: [:], language: "en", seed: 4).get()
        var g = try restore(k, setup, seed: 4, moves: [])
        try g.guess("c")
        try g.guess("cut")
        try g.guess("dog")
        try g.guess("cot")
        #expect(g.outcome == Outcome(loser: 1, reason: .hanged))
        #expect(g.answer == "cat")
        let h = try restore(k, setup, seed: 4, moves: g.moves.map(\.encoded))
        #expect(state(h) == state(g))
        #expect(state(h) == "pattern=c__ missed=- left=0 family=1 answer=cat over=1 hanged")
    }

    @Test func everyModeReplays() throws {
        let k = kind(manyFives, phrases: phrases)
        for (options, moves) in [
            (["mode": "fair"], ["e", "a", "word:abkst", "s", "t"]),
            (["mode": "phrase", "length": "11"], ["e", "word:piece/of/pie", "o"]),
            (["mode": "phrase", "length": "11"], ["e", "word:piece/of/cake"]),
            (["mode": "duel"], ["word:bgmst", "a", "word:bgnst", "b"]),
        ] {
            let setup = try k.setup(options: options, saved: [:], language: "en", seed: 8).get()
            let g = try restore(k, setup, seed: 8, moves: moves)
            #expect(g.moves.map(\.encoded) == moves)
            let again = try restore(k, setup, seed: 8, moves: g.moves.map(\.encoded))
            #expect(state(again) == state(g))
        }
    }
}

@Suite struct GuesserTests {
    @Test func theMostFrequentLetterAlphabeticalOnTies() throws {
        // c: cat cot cut (3); t: cat cot cut (3); o: cot dog (2). c and t tie: c.
        var g = try game(["cat", "cot", "cut", "dog"], .fair, length: 3, seed: 1)
        #expect(g.likeliestLetter == Letter("c"))
        try g.guess("c")
        if g.pattern == "c__" {
            #expect(g.likeliestLetter == Letter("t"))   // every word left holds t
        } else {
            #expect(g.answer == "dog")
            #expect(g.likeliestLetter == Letter("d"))   // only dog fits: d first
        }
        // A missed letter rules words out: without c, only dog is left.
        var h = try game(["cat", "cot", "cut", "dog", "dig"], .fair, length: 3, seed: 2)
        let answer = try #require(h.answer)
        if !answer.hasPrefix("c") {
            try h.guess("c")
            try h.guess("d")
            try h.guess("g")
            #expect(h.likeliestLetter == (answer == "dog" ? Letter("o") : Letter("i")))
        }
    }

    @Test func countsEachWordOncePerLetter() throws {
        // e twice in eee, once in abe, abf: e counts 2 words; a and b 2 each: a wins the tie, not e.
        let g = try game(["eee", "abe", "abf"], .fair, length: 3)
        #expect(g.likeliestLetter == Letter("a"))
    }

    @Test func phrasesFallBackOnLetterFrequency() throws {
        var g = try game(fiveLetters, .phrase, length: 11, phrases: phrases)
        #expect(g.likeliestLetter == Letter("e"))
        try g.guess("e")
        #expect(g.likeliestLetter == Letter("t"))
    }

    @Test func winsMostFairGamesOfEnglish() throws {
        let k = try #require(englishKind)
        var wins = 0
        let games = 40
        for seed in UInt64(0)..<UInt64(games) {
            var g = try #require(k.game(language: "en", mode: .fair, length: 7, misses: 8, seed: seed))
            while !g.isOver, let l = g.likeliestLetter { try g.play(.letter(l), by: 1) }
            if g.outcome?.reason == .solved { wins += 1 }
        }
        #expect(wins >= games * 9 / 10, "won \(wins) of \(games)")
    }
}
