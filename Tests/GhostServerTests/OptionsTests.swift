import Foundation
import Testing
import GhostServer
import GhostStore
import TestSupport

/// ghostd's command line, parsed without starting anything.
@Suite("Options: DaemonOptions.parse and --help")
struct OptionsTests {
    /// Every option with a good value (not the default), the text ghostd's
    /// `--help` shows as its default, and how the good value lands in the
    /// configuration.
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let value: String
        let defaultText: String
        let apply: @Sendable (inout ServerConfig) -> Void
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "--host", value: "::1", defaultText: "127.0.0.1") { $0.host = "::1" },
        Case(name: "--port", value: "4242", defaultText: "7777") { $0.port = 4242 },
        Case(name: "--dictionaries", value: "/tmp/dicts", defaultText: "./Dictionaries, else PREFIX/share/ghostd/Dictionaries for PREFIX/bin/ghostd") { $0.dictionaries = "/tmp/dicts" },
        Case(name: "--data", value: "/tmp/ghost data", defaultText: ServerConfig.defaultDataDirectory()) { $0.dataDirectory = "/tmp/ghost data" },
        Case(name: "--durability", value: "normal", defaultText: "full") { $0.durability = .normal },
        Case(name: "--max-db-pages", value: "500", defaultText: "0") { $0.maxDatabasePages = 500 },
        Case(name: "--node-name", value: "node-b.eu:2", defaultText: "the host's name and --port") { $0.nodeName = "node-b.eu:2" },
        Case(name: "--lease-seconds", value: "7.5", defaultText: "3") { $0.leaseSeconds = 7.5 },
        Case(name: "--relay-port", value: "7790", defaultText: "0") { $0.relayPort = 7790 },
        Case(name: "--grace", value: "2.5", defaultText: "60") { $0.graceSeconds = 2.5 },
        Case(name: "--bot-delay", value: "250", defaultText: "600") { $0.botDelay = 0.25 },
        Case(name: "--watch-batch", value: "0", defaultText: "50") { $0.watchBatchInterval = 0 },
        Case(name: "--watch-batch-per-watcher", value: "1000", defaultText: "250") { $0.watchBatchPerWatcher = 0.001 },
        Case(name: "--max-clients", value: "3", defaultText: "10000") { $0.maxClients = 3 },
        Case(name: "--max-clients-per-ip", value: "0", defaultText: "256") { $0.maxClientsPerIP = 0 },
        Case(name: "--name-timeout", value: "1.5", defaultText: "60") { $0.nameTimeout = 1.5 },
        Case(name: "--idle-timeout", value: "0", defaultText: "600") { $0.idleTimeout = 0 },
        Case(name: "--max-commands-per-second", value: "5", defaultText: "50") { $0.commandsPerSecond = 5 },
        Case(name: "--command-burst", value: "10", defaultText: "200") { $0.commandBurst = 10 },
        Case(name: "--max-output-bytes", value: "2048", defaultText: "262144") { $0.maxOutputBytes = 2048 },
        Case(name: "--max-new-names-per-minute", value: "0", defaultText: "10") { $0.newNamesPerMinute = 0 },
        Case(name: "--max-unnamed", value: "0", defaultText: "2000") { $0.maxUnnamed = 0 },
        Case(name: "--max-unnamed-per-ip", value: "5", defaultText: "128") { $0.maxUnnamedPerIP = 5 },
        Case(name: "--connects-per-second-per-ip", value: "0.5", defaultText: "20") { $0.connectsPerSecondPerIP = 0.5 },
        Case(name: "--connect-burst-per-ip", value: "3", defaultText: "200") { $0.connectBurstPerIP = 3 },
        Case(name: "--max-commands-per-second-per-ip", value: "7", defaultText: "5 × --max-commands-per-second: 250") { $0.commandsPerSecondPerIP = 7 },
        Case(name: "--command-burst-per-ip", value: "30", defaultText: "5 × --command-burst: 1000") { $0.commandBurstPerIP = 30 },
        Case(name: "--flood-seconds", value: "0", defaultText: "10") { $0.floodSeconds = 0 },
        Case(name: "--cost-unit-us", value: "250", defaultText: "1000") { $0.costUnitSeconds = 0.000_25 },
        Case(name: "--turn-slice", value: "0", defaultText: "5") { $0.turnSlice = 0 },
        Case(name: "--send-buffer-bytes", value: "0", defaultText: "65536") { $0.sendBufferBytes = 0 },
        Case(name: "--new-name-burst", value: "3", defaultText: "20") { $0.newNameBurst = 3 },
        Case(name: "--max-failed-joins-per-minute", value: "0", defaultText: "10") { $0.maxFailedJoinsPerMinute = 0 },
        Case(name: "--failed-join-burst", value: "3", defaultText: "10") { $0.failedJoinBurst = 3 },
        Case(name: "--unload-after", value: "0", defaultText: "60") { $0.unloadAfter = 0 },
        Case(name: "--first-move-timeout", value: "30", defaultText: "60") { $0.firstMoveTimeout = 30 },
        Case(name: "--move-timeout", value: "0", defaultText: "300") { $0.moveTimeout = 0 },
        Case(name: "--abandon-after", value: "86400", defaultText: "604800") { $0.abandonAfter = 86_400 },
        Case(name: "--max-games-per-name", value: "3", defaultText: "10") { $0.maxGamesPerName = 3 },
        Case(name: "--max-games-per-network", value: "0", defaultText: "100") { $0.maxGamesPerNetwork = 0 },
        Case(name: "--scores-for", value: "registered", defaultText: "all") { $0.scoresFor = .registered },
        Case(name: "--max-hashes-per-minute-per-ip", value: "0", defaultText: "12") { $0.hashesPerMinute = 0 },
        Case(name: "--hash-burst", value: "2", defaultText: "6") { $0.hashBurst = 2 },
    ]

    /// Values each option must refuse.
    static let badValues: [(name: String, values: [String])] = [
        ("--host", [""]),
        ("--port", ["", "x", "-1", "65536", "80.5", "0x50", "1e3", " 80"]),
        ("--dictionaries", [""]),
        ("--data", [""]),
        ("--durability", ["", "Full", "off", "fsync"]),
        ("--scores-for", ["", "Registered", "guests", "none"]),
        ("--max-db-pages", ["", "-1", "2147483648", "1.5", "lots"]),
        ("--grace", ["", "-1", "86401", "nan", "inf", "abc", "1s"]),
        ("--bot-delay", ["", "-1", "10001", "nan"]),
        ("--max-clients", ["", "0", "-3", "1.5", "1000001", "many"]),
        ("--max-clients-per-ip", ["", "-1", "1000001", "two"]),
        ("--name-timeout", ["", "-0.5", "86401", "infinity", "NaN"]),
        ("--idle-timeout", ["", "-1", "864001", "soon"]),
        ("--max-commands-per-second", ["", "-1", "1000001", "fast"]),
        ("--command-burst", ["", "0", "0.5", "-10", "1000001"]),
        ("--max-output-bytes", ["", "1023", "0", "-1", "1073741825", "1k"]),
        ("--max-new-names-per-minute", ["", "-1", "1000001", "some"]),
        ("--new-name-burst", ["", "0", "-2", "1000001"]),
        ("--max-failed-joins-per-minute", ["", "-1", "1000001", "some"]),
        ("--failed-join-burst", ["", "0", "-2", "1000001"]),
        ("--max-unnamed", ["", "-1", "1.5", "1000001"]),
        ("--max-unnamed-per-ip", ["", "-1", "many"]),
        ("--connects-per-second-per-ip", ["", "-1", "1000001", "nan"]),
        ("--connect-burst-per-ip", ["", "0", "-1"]),
        ("--max-commands-per-second-per-ip", ["", "-1", "1000001"]),
        ("--command-burst-per-ip", ["", "0", "0.5"]),
        ("--flood-seconds", ["", "-1", "86401", "never"]),
        ("--cost-unit-us", ["", "0", "-5", "1000001"]),
        ("--turn-slice", ["", "-1", "1001", "soon"]),
        ("--send-buffer-bytes", ["", "-1", "64k", "1073741825"]),
        ("--unload-after", ["", "-1", "86401", "soon"]),
        ("--first-move-timeout", ["", "-1", "86401", "soon"]),
        ("--move-timeout", ["", "-1", "864001", "soon"]),
        ("--abandon-after", ["", "-1", "1.5", "315360001", "week"]),
        ("--max-games-per-name", ["", "-1", "1.5", "1000001"]),
        ("--max-games-per-network", ["", "-1", "lots"]),
        ("--max-hashes-per-minute-per-ip", ["", "-1", "1000001", "fast"]),
        ("--hash-burst", ["", "0", "-1"]),
    ]

    static func config(_ change: (inout ServerConfig) -> Void) -> ServerConfig {
        var c = ServerConfig()
        change(&c)
        return c
    }

    static func ran(_ result: Result<DaemonCommand, OptionError>) -> ServerConfig? {
        if case .success(.run(let c)) = result { return c }
        return nil
    }

    // MARK: Parsing

    @Test("No arguments: every default, as documented in ServerConfig")
    func defaults() throws {
        let c = try #require(Self.ran(DaemonOptions.parse([])))
        #expect(c == ServerConfig())
        #expect(c.host == "127.0.0.1" && c.port == 7777 && c.dictionaries == nil)
        #expect(c.newNamesPerMinute == 10 && c.newNameBurst == 20)
        #expect(c.durability == .full && c.graceSeconds == 60 && c.botDelay == 0.6)
        #expect(c.maxClients == 10_000 && c.maxClientsPerIP == 256)
        #expect(c.nameTimeout == 60 && c.idleTimeout == 600)
        #expect(c.commandsPerSecond == 50 && c.commandBurst == 200)
        #expect(c.networkCommandsPerSecond == 250 && c.networkCommandBurst == 1000 && c.floodSeconds == 10 && c.costUnitSeconds == 0.001)
        #expect(c.maxUnnamed == 2000 && c.maxUnnamedPerIP == 128 && c.connectsPerSecondPerIP == 20 && c.connectBurstPerIP == 200)
        #expect(c.sendBufferBytes == 64 * 1024)
        // --max-commands-per-second 0 lifts the network's budget too, unless it is given.
        let open = try #require(Self.ran(DaemonOptions.parse(["--max-commands-per-second", "0"])))
        #expect(open.networkCommandsPerSecond == 0)
        let own = try #require(Self.ran(DaemonOptions.parse(["--max-commands-per-second", "0", "--max-commands-per-second-per-ip", "9"])))
        #expect(own.networkCommandsPerSecond == 9)
        #expect(c.maxOutputBytes == 256 * 1024 && c.readBudgetBytes == 64 * 1024 && c.acceptBackoff == 0.1)
    }

    @Test("Each option as `--opt value` and as `--opt=value` sets exactly its setting", arguments: cases)
    func eachOption(_ option: Case) throws {
        let expected = Self.config(option.apply)
        #expect(expected != ServerConfig(), "the test value of \(option.name) is its default")
        for args in [[option.name, option.value], [option.name + "=" + option.value]] {
            let c = try #require(Self.ran(DaemonOptions.parse(args)), "\(args) did not parse: \(DaemonOptions.parse(args))")
            #expect(c == expected, "\(args)")
        }
    }

    @Test("Exact values land in the configuration")
    func exactValues() throws {
        let args = ["--host", "0.0.0.0", "--port=0", "--dictionaries", "d", "--data=x/y", "--durability=full",
                    "--grace", "0", "--bot-delay=0", "--max-clients", "1", "--max-clients-per-ip=5000",
                    "--name-timeout", "86400", "--idle-timeout=864000", "--max-commands-per-second", "0.5",
                    "--command-burst=1", "--max-output-bytes", "1024"]
        let c = try #require(Self.ran(DaemonOptions.parse(args)))
        #expect(c.host == "0.0.0.0" && c.port == 0 && c.dictionaries == "d" && c.dataDirectory == "x/y")
        #expect(c.durability == .full && c.graceSeconds == 0 && c.botDelay == 0)
        #expect(c.maxClients == 1 && c.maxClientsPerIP == 5000)
        #expect(c.nameTimeout == 86_400 && c.idleTimeout == 864_000)
        #expect(c.commandsPerSecond == 0.5 && c.commandBurst == 1 && c.maxOutputBytes == 1024)
        // Untouched settings keep their defaults.
        #expect(c.backlog == 1024 && c.readBudgetBytes == 64 * 1024 && c.acceptBackoff == 0.1)

        // Upper ends of the ranges.
        let top = try #require(Self.ran(DaemonOptions.parse(
            ["--port", "65535", "--max-clients", "1000000", "--max-output-bytes", "1073741824", "--bot-delay", "10000",
             "--grace", "86400", "--max-commands-per-second", "1000000", "--command-burst", "1000000"])))
        #expect(top.port == 65535 && top.maxClients == 1_000_000 && top.maxOutputBytes == 1 << 30)
        #expect(top.botDelay == 10 && top.graceSeconds == 86_400 && top.commandsPerSecond == 1_000_000 && top.commandBurst == 1_000_000)
        // A value after `=` may itself hold `=`; the last of a repeated option wins.
        let eq = try #require(Self.ran(DaemonOptions.parse(["--data=/tmp/a=b", "--port", "1", "--port=2"])))
        #expect(eq.dataDirectory == "/tmp/a=b" && eq.port == 2)
    }

    @Test("All options at once, mixing both forms")
    func allAtOnce() throws {
        var args: [String] = []
        for (i, o) in Self.cases.enumerated() {
            args += i % 2 == 0 ? [o.name, o.value] : [o.name + "=" + o.value]
        }
        let c = try #require(Self.ran(DaemonOptions.parse(args)))
        #expect(c == Self.config { c in for o in Self.cases { o.apply(&c) } })
    }

    @Test("Bad values are refused with an OptionError naming the option, the value and what is allowed")
    func badValues() {
        for (name, values) in Self.badValues {
            for value in values {
                for args in [[name, value], [name + "=" + value]] {
                    switch DaemonOptions.parse(args) {
                    case .failure(let e):
                        guard case .badValue = e.kind else {
                            Issue.record("\(args): \(e)")
                            continue
                        }
                        #expect(e.subject == name && e.value == value, "\(args): \(e)")
                        #expect(e.description.hasPrefix("\(name): ") && e.description.contains("; allowed: "), "\(args): \(e)")
                    case .success(let c):
                        Issue.record("\(args) was accepted: \(c)")
                    }
                }
            }
        }
        // The exact messages: what is wrong, then what is allowed.
        #expect(Self.failure(["--port", "x"]) == "--port: x is not a whole number; allowed: a whole number from 0 to 65535")
        #expect(Self.failure(["--port", "65536"]) == "--port: 65536 is out of range; allowed: a whole number from 0 to 65535")
        #expect(Self.failure(["--max-clients=0"]) == "--max-clients: 0 is out of range; allowed: a whole number from 1 to 1000000")
        #expect(Self.failure(["--grace", "soon"]) == "--grace: soon is not a number; allowed: a number from 0 to 86400")
        #expect(Self.failure(["--bot-delay", "10001"]) == "--bot-delay: 10001 is out of range; allowed: a number from 0 to 10000")
        #expect(Self.failure(["--durability", "off"]) == "--durability: off is not one of the choices; allowed: full or normal")
        #expect(Self.failure(["--data="]) == "--data: the value is empty; allowed: a folder")
        #expect(Self.failure(["--node-name", "node b"]) == "--node-name: \"node b\" is not one of the choices; allowed: 1 to 64 letters, digits, '.', '_', ':' or '-'")
        #expect(Self.failure(["--lease-seconds", "0.5"]) == "--lease-seconds: 0.5 is out of range; allowed: a number from 1 to 600")
    }

    static func failure(_ args: [String]) -> String? {
        if case .failure(let e) = DaemonOptions.parse(args) { return e.description }
        return nil
    }

    @Test("A missing value is an OptionError; the next option is not silently skipped")
    func missingValue() {
        for o in Self.cases {
            guard case .failure(let e) = DaemonOptions.parse([o.name]) else {
                Issue.record("\(o.name) without a value was accepted")
                continue
            }
            #expect(e.kind == .missingValue && e.subject == o.name, "\(o.name): \(e)")
            #expect(e.description.hasPrefix("\(o.name) needs a value; allowed: "), "\(e)")
            // A later good option does not rescue an earlier bad one.
            if case .success(let c) = DaemonOptions.parse(["--port", "1", o.name]) {
                Issue.record("\(o.name) at the end without a value was accepted: \(c)")
            }
            // Nor is the next option taken as the value.
            #expect(Self.failure([o.name, "--port", "1"]) == e.description, "\(o.name) --port 1")
        }
        #expect(Self.failure(["--port"]) == "--port needs a value; allowed: a whole number from 0 to 65535")
    }

    static func valueName(_ option: String) -> String {
        switch option {
        case "--host": "ADDR"
        case "--dictionaries", "--data": "DIR"
        case "--durability": "MODE"
        case "--node-name": "NAME"
        case "--lease-seconds": "SECONDS"
        case "--scores-for": "WHO"
        case "--grace", "--name-timeout", "--idle-timeout", "--flood-seconds": "SECONDS"
        case "--grace", "--name-timeout", "--idle-timeout", "--unload-after", "--abandon-after", "--first-move-timeout",
             "--move-timeout": "SECONDS"
        case "--bot-delay", "--watch-batch", "--turn-slice": "MS"
        case "--watch-batch-per-watcher", "--cost-unit-us": "US"
        default: "N"
        }
    }

    @Test("Unknown options and stray words are OptionErrors")
    func unknownOptions() {
        for args in [["--bogus"], ["--bogus=1"], ["--Port", "1"], ["-p", "1"], ["--max-client", "3"],
                     ["--idle_timeout", "1"], ["--"], ["-"], ["--max-clients=3", "--nope"], ["--help=1", "--help"]] {
            guard case .failure(let e) = DaemonOptions.parse(args) else {
                Issue.record("\(args) was accepted")
                continue
            }
            #expect(e.kind == (args[0] == "--help=1" ? .valueForFlag : .unknownOption), "\(args): \(e)")
        }
        // ghostd takes no arguments but options.
        for args in [["port", "1"], [""], ["--port", "1", "extra"]] {
            guard case .failure(let e) = DaemonOptions.parse(args) else {
                Issue.record("\(args) was accepted")
                continue
            }
            #expect(e.kind == .unexpectedArgument && e.description.hasPrefix("unexpected argument "), "\(args): \(e)")
        }
        #expect(Self.failure(["--bogus=1"]) == "unknown option --bogus=1")
        #expect(Self.failure(["--max-client", "3"]) == "unknown option --max-client; did you mean --max-clients?")
        #expect(Self.failure(["--idle_timeout", "1"]) == "unknown option --idle_timeout; did you mean --idle-timeout?")
        #expect(Self.failure(["--port", "1", "extra"]) == "unexpected argument extra; allowed: options only")
    }

    @Test("--help, -h, --version and -V win wherever they appear before an error")
    func helpAndVersion() {
        #expect(DaemonOptions.parse(["--help"]) == .success(.help))
        #expect(DaemonOptions.parse(["-h"]) == .success(.help))
        #expect(DaemonOptions.parse(["--version"]) == .success(.version))
        #expect(DaemonOptions.parse(["-V"]) == .success(.version))
        #expect(DaemonOptions.parse(["--port", "1", "--help"]) == .success(.help))
        #expect(DaemonOptions.parse(["--help", "--bogus"]) == .success(.help))
    }

    // MARK: Usage

    @Test("--help names every option with its value and default, and --help/--version")
    func usageMentionsEverything() throws {
        let lines = DaemonOptions.usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for o in Self.cases {
            let header = "  \(o.name) \(Self.valueName(o.name))"
            let start = try #require(lines.firstIndex(of: header), "usage lacks the line `\(header)`")
            // The option's description: the indented lines up to the next option.
            let block = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
            let text = block.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(!block.isEmpty && text.hasSuffix("[\(o.defaultText)]"),
                    "\(o.name): expected its default [\(o.defaultText)] at the end of `\(text)`")
        }
        for flag in ["  --help", "  --version"] {
            #expect(lines.contains(flag), "usage lacks `\(flag)`")
        }
        #expect(lines.first == "Usage: ghostd [options]")
        #expect(DaemonOptions.usage.contains("`--name value` or `--name=value`"))
    }

    @Test("No usage line is longer than 80 characters (nor ends in a space)")
    func usageWidth() {
        for line in DaemonOptions.usage.split(separator: "\n") {
            #expect(line.count <= 80, "\(line.count) characters: `\(line)`")
            #expect(!line.hasSuffix(" "), "trailing space: `\(line)`")
        }
    }
}
