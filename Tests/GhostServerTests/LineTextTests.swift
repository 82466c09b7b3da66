import Testing
import GameKit
@testable import GhostServer

/// The game path's log lines, built as bytes (LineText.swift), say exactly
/// what the interpolated strings they replace said.
@Suite struct LineTextTests {
    @Test("A game's start: the default kind or another, a single game or a match")
    func started() {
        for names in [["ann", "bob"], ["bot-hard", "Zed_9"], ["a-b", "?"]] {
            for kind in [nil, ("hangman", "fair"), ("ghost", "super")] as [(String, String)?] {
                for rounds in [nil, 3] as [Int?] {
                    let id = names.count * 1_000 + (rounds ?? 0)
                    let old = "game \(id) started: en \(names.joined(separator: " vs "))"
                        + (kind == nil ? "" : " (\(kind!.0) \(kind!.1))")
                        + (rounds != nil ? " (a match of \(rounds!) rounds)" : "")
                    #expect(LineText.started(id, lang: "en", names: names, kind: kind.map { (name: $0.0, variant: $0.1) }, rounds: rounds) == old)
                }
            }
        }
    }

    @Test("A game's end: its reason and the final fields, none, one or several, any text in them")
    func over() {
        let samples: [[Field]] = [[], [Field("fragment", "pear")], [Field("word", "peach"), Field("fragment", "peach")],
                                  [Field("word", "caf\u{E9}"), Field("note", "two words \"quoted\"")]]
        for fields in samples {
            let old = "game 12 over: ann beat bob (\((["word"] + fields.map { "\($0.key) \"\($0.value)\"" }).joined(separator: ", ")))"
            #expect(LineText.over(12, names: ["bob", "ann"], loser: 0, reason: "word", fields: fields) == old)
        }
    }

    @Test("NEW's INFO to a private game's host")
    func giveTheCode() {
        for code in ["ABCD1234", "0000000Z", ""] {
            #expect(LineText.giveTheCode(code) == "Give the code \(code) to your opponent: they send JOIN \(code).")
        }
    }

    @Test("Numbers written as digits, without a String: every length, zero, negatives, the extremes")
    func numbers() {
        var samples = [0, 1, 9, 10, 99, 100, -1, -9, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var p = 1
        for _ in 0..<18 { p *= 10; samples += [p - 1, p, p + 1, -p] }
        for n in samples {
            var line = LineText()
            line.add(n)
            #expect(line.text == String(n))
            #expect(LineText.started(n, lang: "en", names: ["a", "b"], kind: nil, rounds: n) == "game \(n) started: en a vs b (a match of \(n) rounds)")
        }
    }

    @Test("A line longer than the stack buffer goes on in an array: the same text, across every boundary")
    func longLines() {
        // The builders write their first 256 bytes on the stack (`LineText.build`);
        // each length here crosses that boundary at another piece (a name, a number, a literal).
        for length in [1, 200, 230, 240, 250, 255, 256, 257, 300, 600, 2_000] {
            let a = String(repeating: "a", count: length), b = "b\u{E9}" + String(repeating: "b", count: length / 2)
            for id in [7, 123_456_789] {
                let old = "game \(id) started: en \(a) vs \(b) (ghost super) (a match of \(length) rounds)"
                #expect(LineText.started(id, lang: "en", names: [a, b], kind: (name: "ghost", variant: "super"), rounds: length) == old)
                let fields = [Field("word", b), Field("fragment", a)]
                #expect(LineText.over(id, names: [a, b], loser: 1, reason: "word", fields: fields)
                        == "game \(id) over: \(a) beat \(b) (word, word \"\(b)\", fragment \"\(a)\")")
            }
            #expect(LineText.giveTheCode(a) == "Give the code \(a) to your opponent: they send JOIN \(a).")
        }
    }
}
