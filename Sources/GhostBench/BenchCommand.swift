import Foundation
import GhostCore

/// `ghost-bench`: benchmarks that are not tests. Each mode prints what it
/// measured; nothing here asserts on time.
public enum BenchCommand {
    public static let usage = """
    Usage: ghost-bench <mode> [options]

    Modes:
      solve [--dictionaries DIR] [--runs N]
            Solve the whole game for every word list: time per list (best of N
            runs), trie size, who wins from the empty fragment, winning first letters.
      bots [--dictionaries DIR] [--lang CODE] [--games N] [--seed S]
            Play every pair of players (random, easy, medium, hard) against each
            other, N games per pairing and per starting side; print win rates.
      ping [--host H] [--port P] [--connections N] [--seconds S] [--warmup S]
            PING on N connections, one request in flight each, against any line
            server (ghostd answers OK PING, redis-server +PONG): replies per
            second and round-trip latency percentiles.
      play [--host H] [--port P] [--connections N] [--seconds S] [--bad-share F]
           [--dictionaries DIR] [--lang CODE]
            N connections (N/2 games via SEEK) play random letters that keep the
            game alive as fast as the server answers, with a share F (default
            0.05) of turns followed by a bad line or an out-of-turn letter:
            acknowledged letters per second and letter round-trip latency.
      hold [--host H] [--port P] [--connections N] [--seconds S]
            Open N connections and PING each once a second for S seconds.
    """

    public static func main(_ args: [String]) -> Int32 {
        guard let mode = args.first else {
            print(usage)
            return 2
        }
        var options: [String: String] = [:]
        var rest = args.dropFirst()
        while let key = rest.popFirst() {
            guard key.hasPrefix("--"), let value = rest.popFirst() else {
                if key == "--help" { print(usage); return 0 }
                printError("ghost-bench: bad option \(key)")
                return 2
            }
            options[String(key.dropFirst(2))] = value
        }
        let folder = options["dictionaries"] ?? "./Dictionaries"
        do {
            switch mode {
            case "solve":
                try SolveBench.run(folder: folder, runs: Int(options["runs"] ?? "") ?? 5)
            case "bots":
                try BotsBench.run(folder: folder, lang: options["lang"] ?? "en",
                                  games: Int(options["games"] ?? "") ?? 1000,
                                  seed: UInt64(options["seed"] ?? "") ?? 42)
            case "ping", "play", "hold":
                var st = LoadBench.Settings()
                st.host = options["host"] ?? st.host
                st.port = Int(options["port"] ?? "") ?? st.port
                st.connections = Int(options["connections"] ?? "") ?? st.connections
                st.seconds = Double(options["seconds"] ?? "") ?? st.seconds
                st.warmup = Double(options["warmup"] ?? "") ?? st.warmup
                st.badShare = Double(options["bad-share"] ?? "") ?? st.badShare
                st.dictionaries = folder
                st.lang = options["lang"] ?? st.lang
                st.hold = mode == "hold"
                if st.hold { st.warmup = 0 }
                print(try LoadBench(mode: mode == "play" ? .play : .ping, settings: st).run())
            case "--help", "help":
                print(usage)
            default:
                printError("ghost-bench: unknown mode \(mode)\n\(usage)")
                return 2
            }
        } catch {
            printError("ghost-bench: \(error)")
            return 1
        }
        return 0
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

enum SolveBench {
    static func run(folder: String, runs: Int) throws {
        let dictionaries = try Dictionaries.load(folder: folder)
        for lang in dictionaries.languages {
            guard let words = dictionaries[lang] else { continue }
            let rules = GhostRules(words: words)
            var best = Double.infinity
            var solver = Solver(rules: rules)
            for _ in 0..<max(1, runs) {
                let t0 = now()
                solver = Solver(rules: rules)
                best = min(best, now() - t0)
            }
            let first = solver.winningLetters("").map(\.description).joined(separator: ",")
            let winner = solver.isWinning("") ? "the first player" : "the second player"
            let ms = String(format: "%.1f", best * 1000)
            print("solve \(lang): \(words.wordCount) words, \(words.nodes.count) trie nodes, best of \(runs): \(ms) ms; \(winner) wins; winning first letters: \(first.isEmpty ? "none" : first)")
        }
    }
}

typealias SeededGenerator = SplitMix64

enum BotsBench {
    enum Player: CustomStringConvertible {
        case random
        case bot(BotLevel)
        var description: String {
            switch self {
            case .random: return "random"
            case .bot(let l): return l.rawValue
            }
        }
    }

    static func run(folder: String, lang: String, games: Int, seed: UInt64) throws {
        let dictionaries = try Dictionaries.load(folder: folder)
        guard let words = dictionaries[lang] else {
            throw Dictionaries.LoadError.noLanguages("\(folder) (no \(lang).txt)")
        }
        let rules = GhostRules(words: words)
        let solver = Solver(rules: rules)
        var rng = SeededGenerator(seed: seed)
        let players: [Player] = [.random, .bot(.easy), .bot(.medium), .bot(.hard)]
        print("bots \(lang): \(games) games per pairing from each side (\(2 * games) in all), seed \(seed)")
        print("row's win rate against column (both starting sides together):")
        print("          " + players.map { $0.description.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined())
        for a in players {
            var row = a.description.padding(toLength: 10, withPad: " ", startingAt: 0)
            for b in players {
                var wins = 0
                for g in 0..<(2 * games) {
                    let aFirst = g % 2 == 0
                    let loser = play(first: aFirst ? a : b, second: aFirst ? b : a, rules: rules, solver: solver, rng: &rng)
                    let aLost = aFirst ? loser == 0 : loser == 1
                    if !aLost { wins += 1 }
                }
                row += String(format: "%5.1f%%   ", 100 * Double(wins) / Double(2 * games))
            }
            print(row)
        }
    }

    /// Plays one game; returns the losing seat.
    static func play(first: Player, second: Player, rules: GhostRules, solver: Solver,
                     rng: inout SeededGenerator) -> Int {
        var game = GhostGame(rules: rules)
        let seats = [first, second]
        while game.outcome == nil {
            let letter: Letter
            switch seats[game.toMove] {
            case .random: letter = Letter.all.randomElement(using: &rng) ?? Letter.all[0]
            case .bot(let level): letter = Bot(level: level, solver: solver).choose(in: game, using: &rng)
            }
            do { try game.play(letter, by: game.toMove) } catch { break }
        }
        return game.outcome?.loser ?? 0
    }
}
