import Foundation
import Testing
import WordLists
import HangmanCore
import GameKit

/// Not a test: times evil guesses against the largest English family. Runs
/// only when asked, in a release build:
///   HANGMAN_BENCH=1 swift test -c release --filter EvilBench
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["HANGMAN_BENCH"] != nil))
struct EvilBench {
    func percentiles(_ name: String, _ times: [Double]) {
        let t = times.sorted()
        func p(_ q: Double) -> Double { t[min(t.count - 1, Int(q * Double(t.count)))] * 1e6 }
        print(String(format: "%@: n=%d p50=%.1f µs p99=%.1f µs max=%.1f µs", name, t.count, p(0.5), p(0.99), t.last! * 1e6))
    }

    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    @Test func buildingTheKind() throws {
        let folder = packageRoot.appendingPathComponent("Dictionaries").path
        let dictionaries = try Dictionaries.load(folder: folder)
        let clock = ContinuousClock()
        let t = clock.now
        let kind = HangmanKind(dictionaries: dictionaries, phrases: [:])
        print("HangmanKind over \(kind.languages.joined(separator: "+")): \(seconds(clock.now - t) * 1e3) ms")
    }

    @Test func evilGuesses() throws {
        let kind = try #require(englishKind)
        let length = try #require((1...22).max { a, b in
            (kind.game(language: "en", mode: .evil, length: a, seed: 0)?.familySize ?? 0)
                < (kind.game(language: "en", mode: .evil, length: b, seed: 0)?.familySize ?? 0)
        })
        let start = try #require(kind.game(language: "en", mode: .evil, length: length, misses: 26, seed: 1))
        print("largest family: \(start.familySize) words of \(length) letters")
        let clock = ContinuousClock()
        let e = Letter("e")!
        var first: [Double] = []
        for _ in 0..<3000 {
            var g = start
            let t = clock.now
            try g.play(.letter(e), by: 1)
            first.append(seconds(clock.now - t))
        }
        percentiles("first guess e", first)

        var all: [Double] = []
        var random = SplitMix64(seed: 42)
        for run in 0..<300 {
            var g = start
            let order = run == 0 ? Letter.all : Letter.all.shuffled(using: &random)
            for l in order where !g.isOver {
                let t = clock.now
                try g.play(.letter(l), by: 1)
                all.append(seconds(clock.now - t))
            }
        }
        percentiles("every guess of 300 games (random letter orders)", all)
    }
}
