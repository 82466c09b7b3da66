import Testing
import OptionKit
@testable import GhostBench

/// ghost-bench's command line, parsed without running anything.
@Suite("ghost-bench: modes and options")
struct BenchCommandTests {
    typealias Settings = BenchCommand.Settings

    static func run(_ args: [String]) -> (BenchCommand.Mode, Settings)? {
        if case .success(.run(let mode, let settings)) = BenchCommand.parse(args) { return (mode, settings) }
        return nil
    }

    static func failure(_ args: [String]) -> OptionError? {
        if case .failure(let e) = BenchCommand.parse(args) { return e }
        return nil
    }

    static func changed(_ change: (inout Settings) -> Void) -> Settings {
        var s = Settings()
        change(&s)
        return s
    }

    @Test("Each mode alone: the defaults, which are the load generator's")
    func defaults() {
        for mode in BenchCommand.Mode.allCases {
            let parsed = Self.run([mode.rawValue])
            #expect(parsed?.0 == mode && parsed?.1 == Settings(), "\(mode)")
        }
        let s = Settings()
        #expect(s.dictionaries == "./Dictionaries" && s.runs == 5 && s.lang == "en" && s.games == 1000 && s.seed == 42)
        #expect(s.host == "127.0.0.1" && s.port == 7777 && s.connections == 50)
        #expect(s.seconds == 5 && s.warmup == 1 && s.badShare == 0.05 && s.hangmanMode == "evil")
    }

    @Test("Every option of every mode, in both forms")
    func everyOption() {
        let values: [String: (String, Settings)] = [
            "--dictionaries": ("/d", Self.changed { $0.dictionaries = "/d" }),
            "--runs": ("3", Self.changed { $0.runs = 3 }),
            "--lang": ("nl", Self.changed { $0.lang = "nl" }),
            "--games": ("10", Self.changed { $0.games = 10 }),
            "--seed": ("18446744073709551615", Self.changed { $0.seed = .max }),
            "--host": ("::1", Self.changed { $0.host = "::1" }),
            "--port": ("6379", Self.changed { $0.port = 6379 }),
            "--connections": ("1000", Self.changed { $0.connections = 1000 }),
            "--seconds": ("0.5", Self.changed { $0.seconds = 0.5 }),
            "--warmup": ("0", Self.changed { $0.warmup = 0 }),
            "--bad-share": ("0.25", Self.changed { $0.badShare = 0.25 }),
            "--hangman-mode": ("fair", Self.changed { $0.hangmanMode = "fair" }),
            "--record": ("/tmp/acks.txt", Self.changed { $0.record = "/tmp/acks.txt" }),
            "--players": ("0", Self.changed { $0.players = 0 }),
            "--watchers": ("10", Self.changed { $0.watchers = 10 }),
            "--watch-games": ("1", Self.changed { $0.watchGames = 1 }),
            "--data": ("/tmp/fixture", Self.changed { $0.data = "/tmp/fixture" }),
            "--names": ("1000", Self.changed { $0.names = 1000 }),
            "--active": ("0", Self.changed { $0.active = 0 }),
            "--rounds": ("2", Self.changed { $0.rounds = 2 }),
            "--lookups": ("0", Self.changed { $0.lookups = 0 }),
            "--floods": ("5", Self.changed { $0.floods = 5 }),
            "--addresses": ("40", Self.changed { $0.addresses = 40 }),
            "--probe-interval": ("0.01", Self.changed { $0.probeInterval = 0.01 }),
            "--web-port": ("7781", Self.changed { $0.webPort = 7781 }),
            "--ws-floods": ("5", Self.changed { $0.wsFloods = 5 }),
            "--slowloris": ("5", Self.changed { $0.slowloris = 5 }),
            "--pings": ("100", Self.changed { $0.pings = 100 }),
            "--pid": ("1234", Self.changed { $0.pid = 1234 }),
            "--transport": ("tcp", Self.changed { $0.transport = "tcp" }),
            // Issue #47's attackers and fixture.
            "--chatters": ("8", Self.changed { $0.chatters = 8 }),
            "--inviters": ("6", Self.changed { $0.inviters = 6 }),
            "--stars": ("2", Self.changed { $0.stars = 2 }),
            "--fans": ("40", Self.changed { $0.fans = 40 }),
            "--social": ("10000", Self.changed { $0.social = 10000 }),
            "--heavy": ("40", Self.changed { $0.heavy = 40 }),
            "--listers": ("40", Self.changed { $0.listers = 40 }),
            "--star-session": ("40", Self.changed { $0.starSession = 40 }),
        ]
        for mode in BenchCommand.Mode.allCases {
            for name in mode.optionNames {
                if name == "--stats" {   // a flag: no value
                    let parsed = Self.run([mode.rawValue, name])
                    #expect(parsed?.0 == mode && parsed?.1 == Self.changed { $0.stats = true }, "\(mode) --stats")
                    continue
                }
                if name == "--chat-bot" {   // a flag too
                    let parsed = Self.run([mode.rawValue, name])
                    #expect(parsed?.0 == mode && parsed?.1 == Self.changed { $0.chatBot = true }, "\(mode) --chat-bot")
                    continue
                }
                guard let (value, expected) = values[name] else {
                    Issue.record("\(mode) takes \(name), which this test does not know")
                    continue
                }
                for args in [[mode.rawValue, name, value], [mode.rawValue, name + "=" + value]] {
                    let parsed = Self.run(args)
                    #expect(parsed?.0 == mode && parsed?.1 == expected, "\(args): \(String(describing: Self.failure(args)))")
                }
            }
        }
    }

    @Test("The options each mode takes, as today's scripts use them")
    func modeOptions() {
        #expect(BenchCommand.Mode.solve.optionNames == ["--dictionaries", "--runs"])
        #expect(BenchCommand.Mode.bots.optionNames == ["--dictionaries", "--lang", "--games", "--seed"])
        #expect(BenchCommand.Mode.hangman.optionNames == ["--dictionaries", "--games", "--seed"])
        #expect(BenchCommand.Mode.hold.optionNames == ["--host", "--port", "--connections", "--seconds", "--stats"])
        #expect(Self.failure(["solve", "--stats"])?.kind == .unknownOption)
        let play = Self.run(["play", "--port", "7000", "--connections", "1000", "--seconds", "10", "--bad-share", "0", "--warmup", "2"])
        #expect(play?.0 == .play && play?.1 == Self.changed {
            $0.port = 7000; $0.connections = 1000; $0.seconds = 10; $0.badShare = 0; $0.warmup = 2
        })
        let hangman = Self.run(["play-hangman", "--port", "7000", "--connections", "1000", "--seconds", "10", "--hangman-mode", "phrase",
                                "--lang", "nl"])
        #expect(hangman?.0 == .playHangman && hangman?.1 == Self.changed {
            $0.port = 7000; $0.connections = 1000; $0.seconds = 10; $0.hangmanMode = "phrase"; $0.lang = "nl"
        })
        #expect(Self.failure(["play-hangman", "--dictionaries", "/d"])?.kind == .unknownOption)
        #expect(Self.failure(["play", "--hangman-mode", "fair"])?.kind == .unknownOption)
        // An option of another mode is refused, naming the ones this mode takes.
        let e = Self.failure(["solve", "--port", "1"])
        #expect(e?.kind == .unknownOption && e?.allowed == "--dictionaries, --runs or --help")
    }

    @Test("--port: a comma list for the load modes, connection i to the (i mod n)-th port; one port elsewhere; each port checked")
    func portLists() {
        let play = Self.run(["play", "--port", "7001,7002,7003", "--connections", "2"])
        #expect(play?.1.ports == [7001, 7002, 7003] && play?.1.port == 7001)
        for mode in ["ping", "play", "play-hangman", "hold", "watch"] {
            #expect(Self.run([mode, "--port=7001,7001"])?.1.ports == [7001, 7001], "\(mode)")
        }
        #expect(Self.run(["play", "--port", "7001"])?.1 == Self.changed { $0.port = 7001 })
        for mode in ["attack", "abandon", "ws-ping", "ws-hold"] {
            let e = Self.failure([mode, "--port", "7001,7002"])
            #expect(e?.kind == .badValue(.invalid) && e?.subject == "--port" && e?.value == "7001,7002", "\(mode): \(String(describing: e))")
            #expect(Self.run([mode, "--port", "7001"])?.1.ports == [7001], "\(mode)")
        }
        for (value, problem) in [("7001,", OptionError.Problem.empty), (",7001", .empty), ("7001,,7002", .empty), ("7001,http", .notAWholeNumber),
                                 ("7001,0", .outOfRange), ("7001;7002", .notAWholeNumber), ("7001, 7002", .notAWholeNumber),
                                 (Array(repeating: "7001", count: 65).joined(separator: ","), .outOfRange)] {
            let e = Self.failure(["play", "--port", value])
            #expect(e?.kind == .badValue(problem) && e?.subject == "--port", "\(value): \(String(describing: e))")
        }
        let settings = LoadBench.Settings()
        #expect(settings.ports == [7777])
    }

    @Test("The modes of #24: fixture, attack and abandon, as scripts/bench-attack.sh, bench-abandon.sh and the end-to-end test use them")
    func largeServerModes() {
        #expect(BenchCommand.Mode.fixture.optionNames == ["--data", "--names", "--games", "--active", "--seed", "--social", "--stars", "--heavy"])
        #expect(BenchCommand.Mode.attack.optionNames == ["--host", "--port", "--seconds", "--rounds", "--lookups", "--floods", "--addresses",
                                                          "--probe-interval", "--web-port", "--ws-floods", "--slowloris",
                                                          "--chatters", "--chat-bot", "--inviters", "--stars", "--fans", "--social", "--star-session",
                                                          "--listers"])
        #expect(BenchCommand.Mode.wsPing.optionNames == ["--host", "--port", "--web-port", "--pings", "--rounds", "--pid"])
        #expect(BenchCommand.Mode.wsHold.optionNames == ["--host", "--port", "--web-port", "--transport", "--connections", "--addresses", "--seconds"])
        #expect(BenchCommand.Mode.abandon.optionNames == ["--host", "--port", "--games", "--names", "--addresses", "--connections"])
        let s = Settings()
        #expect(s.data == "" && s.names == 200_000 && s.active == 0 && s.rounds == 3 && s.lookups == 20 && s.floods == 20
                && s.addresses == 1 && s.probeInterval == 0.025)
        let fixture = Self.run(["fixture", "--data", "/tmp/big", "--names", "200000", "--games", "200000", "--active", "10000"])
        #expect(fixture?.0 == .fixture && fixture?.1 == Self.changed {
            $0.data = "/tmp/big"; $0.names = 200_000; $0.games = 200_000; $0.active = 10_000
        })
        let attack = Self.run(["attack", "--port", "7000", "--seconds", "5", "--rounds", "3", "--addresses", "40", "--probe-interval", "0.01"])
        #expect(attack?.0 == .attack && attack?.1 == Self.changed {
            $0.port = 7000; $0.seconds = 5; $0.rounds = 3; $0.addresses = 40; $0.probeInterval = 0.01
        })
        let abandon = Self.run(["abandon", "--port", "7000", "--games", "10000", "--names", "4800", "--addresses", "240", "--connections", "8"])
        #expect(abandon?.0 == .abandon && abandon?.1 == Self.changed {
            $0.port = 7000; $0.games = 10_000; $0.names = 4800; $0.addresses = 240; $0.connections = 8
        })
        // Each takes only its own options.
        #expect(Self.failure(["fixture", "--port", "1"])?.kind == .unknownOption)
        #expect(Self.failure(["attack", "--data", "/d"])?.kind == .unknownOption)
        #expect(Self.failure(["attack", "--connections", "40"])?.kind == .unknownOption)
        #expect(Self.failure(["abandon", "--lookups", "1"])?.kind == .unknownOption)
        #expect(Self.failure(["ping", "--addresses", "40"])?.kind == .unknownOption)
        let bad: [(String, String, String, OptionError.Problem)] = [
            ("fixture", "--names", "0", .outOfRange), ("fixture", "--names", "2e5", .notAWholeNumber),
            ("fixture", "--active", "-1", .outOfRange), ("fixture", "--data", "", .empty),
            ("attack", "--rounds", "0", .outOfRange), ("attack", "--lookups", "-1", .outOfRange), ("attack", "--floods", "x", .notAWholeNumber),
            ("attack", "--addresses", "0", .outOfRange), ("attack", "--addresses", "241", .outOfRange),
            ("attack", "--probe-interval", "0", .outOfRange), ("attack", "--probe-interval", "10ms", .notANumber),
            ("abandon", "--games", "0", .outOfRange), ("abandon", "--connections", "0", .outOfRange),
        ]
        for (mode, name, value, problem) in bad {
            let e = Self.failure([mode, name, value])
            #expect(e?.kind == .badValue(problem) && e?.subject == name, "\(mode) \(name) \(value): \(String(describing: e))")
        }
    }

    @Test("Bad numbers are refused, never replaced by the default")
    func badNumbers() {
        let bad: [(String, String, [String], OptionError.Problem)] = [
            ("solve", "--runs", ["x", "1.5", "", "5 "], .notAWholeNumber),
            ("solve", "--runs", ["0", "-1", "1000001"], .outOfRange),
            ("bots", "--games", ["many", "1e3"], .notAWholeNumber),
            ("bots", "--games", ["0"], .outOfRange),
            ("bots", "--seed", ["0x2a", "forty-two"], .notAWholeNumber),
            ("bots", "--seed", ["-1", "18446744073709551616"], .outOfRange),
            ("ping", "--port", ["http"], .notAWholeNumber),
            ("ping", "--port", ["0", "65536"], .outOfRange),
            ("ping", "--connections", ["lots"], .notAWholeNumber),
            ("ping", "--connections", ["0"], .outOfRange),
            ("ping", "--seconds", ["5s", "nan", "inf"], .notANumber),
            ("ping", "--seconds", ["0", "-1", "86401"], .outOfRange),
            ("ping", "--warmup", ["soon"], .notANumber),
            ("ping", "--warmup", ["-1", "3601"], .outOfRange),
            ("play", "--bad-share", ["5%", "half"], .notANumber),
            ("play", "--bad-share", ["1.01", "-0.1"], .outOfRange),
        ]
        for (mode, name, values, problem) in bad {
            for value in values {
                let e = Self.failure([mode, name + "=" + value])
                let expected: OptionError.Problem = value.isEmpty ? .empty : problem
                #expect(e?.kind == .badValue(expected) && e?.subject == name && e?.value == value, "\(mode) \(name)=\(value): \(String(describing: e))")
            }
        }
        for mode in ["bots", "play", "play-hangman"] {
            #expect(Self.failure([mode, "--lang="])?.kind == .badValue(.empty))
        }
        // Only the modes played against the computer, exactly as the protocol spells them.
        for value in ["duel", "Evil", "evil ", "hard", ""] {
            let e = Self.failure(["play-hangman", "--hangman-mode", value])
            #expect(e?.kind == .badValue(value.isEmpty ? .empty : .notAChoice) && e?.subject == "--hangman-mode"
                    && e?.allowed == "evil, fair or phrase", "\(value): \(String(describing: e))")
        }
        #expect(Self.failure(["ping", "--host", ""])?.kind == .badValue(.empty))
    }

    @Test("The mode comes first; help in any of its spellings")
    func modesAndHelp() {
        #expect(Self.failure([]) == OptionError(.missingArgument, subject: "mode", allowed: "solve, bots, hangman, ping, play, play-hangman, hold, watch, fixture, attack, abandon, ws-ping or ws-hold"))
        #expect(Self.failure(["--runs", "3", "solve"]) == OptionError(.missingArgument, subject: "mode", allowed: "solve, bots, hangman, ping, play, play-hangman, hold, watch, fixture, attack, abandon, ws-ping or ws-hold"))
        #expect(Self.failure(["Solve"]) == OptionError(.badValue(.notAChoice), subject: "mode", value: "Solve",
                                                       allowed: "solve, bots, hangman, ping, play, play-hangman, hold, watch, fixture, attack, abandon, ws-ping or ws-hold"))
        #expect(Self.failure(["solve", "bots"])?.kind == .unexpectedArgument)
        for args in [["--help"], ["-h"], ["help"], ["solve", "--help"], ["play", "--port", "1", "-h"]] {
            #expect(BenchCommand.parse(args) == .success(.help), "\(args)")
        }
        #expect(Self.failure(["solve", "--runs", "x", "--help"])?.kind == .badValue(.notAWholeNumber))
    }

    @Test("Usage: every mode with its options, every option once with its default, within 80 columns")
    func usage() {
        let text = BenchCommand.usage
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Usage: ghost-bench <mode> [options]")
        for mode in BenchCommand.Mode.allCases {
            #expect(lines.contains { $0.hasPrefix("  \(mode.rawValue) [") }, "\(mode)")
        }
        #expect(lines.contains("  solve [--dictionaries DIR] [--runs N]"))
        #expect(lines.contains("  bots [--dictionaries DIR] [--lang CODE] [--games N] [--seed N]"))
        for name in ["--dictionaries DIR", "--runs N", "--lang CODE", "--games N", "--seed N", "--host HOST", "--port PORT",
                     "--connections N", "--seconds SECONDS", "--warmup SECONDS", "--bad-share F", "--hangman-mode MODE", "--help"] {
            #expect(lines.filter { $0 == "  " + name }.count == 1, "\(name)")
        }
        for (name, value) in [("--runs N", "[5]"), ("--games N", "[1000]"), ("--seed N", "[42]"), ("--bad-share F", "[0.05]"),
                              ("--seconds SECONDS", "[5]"), ("--port PORT", "[7777]"), ("--hangman-mode MODE", "[evil]")] {
            let at = lines.firstIndex(of: "  " + name) ?? 0
            let block = lines[(at + 1)...].prefix { $0.hasPrefix("      ") }.joined(separator: " ")
            #expect(block.hasSuffix(value), "\(name): \(block)")
        }
        for line in lines {
            #expect(line.count <= 80 && !line.hasSuffix(" "), "`\(line)`")
        }
    }
}
