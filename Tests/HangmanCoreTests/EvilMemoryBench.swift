import Foundation
import Testing
import WordLists
import HangmanCore
import GameKit

/// Not a test: what 1,000 evil Dutch 10-letter games hold after a guess of
/// `q` (the abandoned games: nearly the whole list stays open), by
/// the process's resident memory, and the time per guess. Runs only when asked:
///   HANGMAN_BENCH=1 swift test --filter EvilMemoryBench
/// (HangmanCore is optimised in debug builds too.)
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["HANGMAN_BENCH"] != nil))
struct EvilMemoryBench {
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    @Test func dutchTenLetterGames() throws {
        let list = try WordList(contentsOfFile: packageRoot.appendingPathComponent("Dictionaries/nl.txt").path)
        let kind = HangmanKind(dictionaries: Dictionaries(lists: ["nl": list]), phrases: [:])
        let start = try #require(kind.game(language: "nl", mode: .evil, length: 10, seed: 1))
        print("Dutch 10-letter words: \(start.familySize)")
        let q = try #require(Letter("q"))
        var warm = start
        try warm.play(.letter(q), by: 1)
        let before = Self.residentBytes()
        var games: [HangmanGame] = []
        games.reserveCapacity(1000)
        let clock = ContinuousClock()
        let t = clock.now
        for _ in 0..<1000 {
            var g = start
            try g.play(.letter(q), by: 1)
            games.append(g)
        }
        let elapsed = clock.now - t
        let after = Self.residentBytes()
        print("after q: family \(games[0].familySize) words; RSS +\((after - before) / 1000) bytes per game; \(elapsed / 1000) per first guess")
        // A whole game's guesses, for the time per guess.
        var times: [Duration] = []
        for run in 0..<50 {
            var g = start
            var random = SplitMix64(seed: UInt64(run))
            for l in Letter.all.shuffled(using: &random) where !g.isOver {
                let t = clock.now
                try g.play(.letter(l), by: 1)
                times.append(clock.now - t)
            }
        }
        times.sort()
        print("every guess of 50 games: n=\(times.count) p50=\(times[times.count / 2]) p99=\(times[times.count * 99 / 100]) max=\(times.last!)")
        #expect(games.count == 1000)
    }
}
