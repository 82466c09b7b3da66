import Testing
import OptionKit

/// A made-up program's settings, with one option of every kind.
struct Settings: Equatable {
    enum Colour: String, CaseIterable { case red, green, blue }

    var port = 7777
    var rate = 1.5
    var seed: UInt64 = 1
    var mode = "normal"
    var colour = Colour.red
    var name = "anon"
    var file: String?
    var verbose = false
    var server: String?
    var target: String?

    static var table: OptionTable<Settings> { OptionTable([
        .value("--port", "N", "TCP port", .integer(0...65535), \.port),
        .value("--rate", "R", "commands per second; 0: no limit", .number(0...1000), \.rate),
        .value("--seed", "S", "random seed", .integer(0...UInt64.max), \.seed),
        .value("--mode", "full|normal", "how careful", .choice(["full", "normal"]), \.mode),
        .value("--colour", "C", "what colour", .choice, \.colour),
        .value("--name", "NAME", "who", .text("a name"), \.name),
        .value("--file", "PATH", "where", .text("a path"), \.file, defaultText: "none"),
        .value("--milli", "MS", "the rate in thousandths", .number(0...1_000_000),
               get: { $0.rate * 1000 }, set: { $0.rate = $1 / 1000 }),
        .flag("--verbose", "say more", \.verbose, aliases: ["-v"]),
        .help,
        .version,
    ], positionals: [
        .value("server", "where to connect", serverValue, defaultText: "localhost") { $0.server = $1 },
        .value("target", "what to do", .text(), required: false) { $0.target = $1 },
    ]) }

    /// `host:port` with a port of digits: stands for any value with its own check.
    static var serverValue: Value<String> {
        Value(allowed: "host:port", show: { $0 }) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }), parts.last?.allSatisfy(\.isNumber) == true else {
                return .failure(.invalid)
            }
            return .success(text)
        }
    }
}

func parse(_ args: [String], table: OptionTable<Settings> = Settings.table) -> Result<Parsed<Settings>, OptionError> {
    table.parse(args, into: Settings())
}

func settings(_ args: [String]) -> Settings? {
    if case .success(.run(let s)) = parse(args) { return s }
    return nil
}

func error(_ args: [String], table: OptionTable<Settings> = Settings.table) -> OptionError? {
    if case .failure(let e) = parse(args, table: table) { return e }
    return nil
}

func changed(_ change: (inout Settings) -> Void) -> Settings {
    var s = Settings()
    change(&s)
    return s
}

@Suite("OptionKit: parsing")
struct ParsingTests {
    @Test("No arguments: the initial settings")
    func empty() {
        #expect(parse([]) == .success(.run(Settings())))
    }

    @Test("`--name value` and `--name=value` give the same settings", arguments: [
        ("--port", "80", changed { $0.port = 80 }),
        ("--rate", "2.5", changed { $0.rate = 2.5 }),
        ("--seed", "18446744073709551615", changed { $0.seed = .max }),
        ("--mode", "full", changed { $0.mode = "full" }),
        ("--colour", "blue", changed { $0.colour = .blue }),
        ("--name", "zoe", changed { $0.name = "zoe" }),
        ("--file", "/tmp/x y", changed { $0.file = "/tmp/x y" }),
        ("--milli", "250", changed { $0.rate = 0.25 }),
    ])
    func bothForms(_ name: String, _ value: String, _ expected: Settings) {
        #expect(settings([name, value]) == expected, "\(name) \(value)")
        #expect(settings([name + "=" + value]) == expected, "\(name)=\(value)")
    }

    @Test("A value after `=` may hold `=`, start with `--`, or be a word that starts with `-`")
    func valuesAfterEquals() {
        #expect(settings(["--name=a=b"])?.name == "a=b")
        #expect(settings(["--name=--port"])?.name == "--port")
        #expect(settings(["--name", "-x"])?.name == "-x")
    }

    @Test("A repeated option: the last one wins")
    func repeated() {
        #expect(settings(["--port", "1", "--port=2"])?.port == 2)
        #expect(settings(["--verbose", "-v"])?.verbose == true)
    }

    @Test("Integers: decimal only, in range; too many digits is out of range")
    func integers() {
        for (text, value) in [("0", 0), ("65535", 65535), ("+80", 80), ("-0", 0), ("007", 7)] {
            #expect(settings(["--port", text])?.port == value, "\(text)")
        }
        for text in ["x", "80.5", "0x50", "1e3", " 80", "80 ", "8 0", "+", "٣", "１"] {
            #expect(error(["--port", text])?.kind == .badValue(.notAWholeNumber), "\(text)")
        }
        for text in ["-1", "65536", "99999999999999999999999"] {
            #expect(error(["--port", text])?.kind == .badValue(.outOfRange), "\(text)")
        }
        #expect(error(["--seed", "18446744073709551616"])?.kind == .badValue(.outOfRange))
        #expect(error(["--seed", "-1"])?.kind == .badValue(.outOfRange))
        #expect(error(["--port="])?.kind == .badValue(.empty))
    }

    @Test("Numbers: finite decimals in range; no nan, inf or hex")
    func numbers() {
        for (text, value) in [("0", 0.0), ("1000", 1000), (".5", 0.5), ("2.", 2), ("1e2", 100), ("1E-1", 0.1)] {
            #expect(settings(["--rate", text])?.rate == value, "\(text)")
        }
        for text in ["nan", "NaN", "inf", "infinity", "0x10", "1s", "soon", ".", "e5", "1..2", "--1"] {
            #expect(error(["--rate=" + text])?.kind == .badValue(.notANumber), "\(text)")
        }
        for text in ["-1", "1000.5", "1e999", "-1e999"] {
            #expect(error(["--rate", text])?.kind == .badValue(.outOfRange), "\(text)")
        }
        #expect(error(["--rate", ""])?.kind == .badValue(.empty))
    }

    @Test("Choices: exactly as written")
    func choices() {
        for text in ["Full", "off", " full", "full,normal"] {
            #expect(error(["--mode", text])?.kind == .badValue(.notAChoice), "\(text)")
        }
        #expect(error(["--colour", "RED"])?.kind == .badValue(.notAChoice))
        #expect(error(["--mode", ""])?.kind == .badValue(.empty))
        #expect(error(["--colour="])?.kind == .badValue(.empty))
    }

    @Test("Text: anything but empty")
    func text() {
        #expect(error(["--name", ""])?.kind == .badValue(.empty))
        #expect(error(["--file="])?.kind == .badValue(.empty))
        #expect(settings(["--name", " "])?.name == " ")
    }

    @Test("Flags take no value")
    func flags() {
        #expect(settings(["--verbose"])?.verbose == true)
        #expect(settings(["-v"])?.verbose == true)
        #expect(error(["--verbose=yes"]) == OptionError(.valueForFlag, subject: "--verbose"))
        #expect(error(["--verbose=", "x"])?.kind == .valueForFlag)
        // The word after a flag is not its value.
        #expect(settings(["--verbose", "h:1"]) == changed { $0.verbose = true; $0.server = "h:1" })
    }

    @Test("--help and --version stop parsing wherever they come before an error")
    func helpAndVersion() {
        #expect(parse(["--help"]) == .success(.help))
        #expect(parse(["-h"]) == .success(.help))
        #expect(parse(["--version"]) == .success(.version))
        #expect(parse(["-V"]) == .success(.version))
        #expect(parse(["--port", "1", "--help", "--bogus"]) == .success(.help))
        #expect(parse(["--version", "--help"]) == .success(.version))
        #expect(error(["--bogus", "--help"])?.kind == .unknownOption)
        #expect(error(["--port", "x", "--help"])?.kind == .badValue(.notAWholeNumber))
        #expect(error(["--help=1"]) == OptionError(.valueForFlag, subject: "--help"))
    }

    @Test("A missing value: at the end, or before another `--option`; never the next option taken as the value")
    func missingValue() {
        let expected = OptionError(.missingValue, subject: "--port", allowed: "a whole number from 0 to 65535")
        #expect(error(["--port"]) == expected)
        #expect(error(["--port", "--verbose"]) == expected)
        #expect(error(["--port", "--rate", "1"]) == expected)
        #expect(error(["--verbose", "--name"])?.kind == .missingValue)
        // A negative number is a value, refused for its range, not a missing one.
        #expect(error(["--port", "-1"])?.kind == .badValue(.outOfRange))
    }

    @Test("Positional arguments: in order, checked, at most as many as the table has")
    func positionals() {
        #expect(settings(["h:1"]) == changed { $0.server = "h:1" })
        #expect(settings(["h:1", "go", "--port", "2"]) == changed { $0.server = "h:1"; $0.target = "go"; $0.port = 2 })
        #expect(settings(["--port", "2", "h:1", "--verbose", "go"])
                == changed { $0.server = "h:1"; $0.target = "go"; $0.port = 2; $0.verbose = true })
        #expect(error(["h:1", "go", "more"])
                == OptionError(.unexpectedArgument, subject: "more", allowed: "options and server and target, once each"))
        #expect(error(["h:x"]) == OptionError(.badValue(.invalid), subject: "server", value: "h:x", allowed: "host:port"))
        #expect(error([""]) == OptionError(.badValue(.empty), subject: "server", value: "", allowed: "host:port"))

        let none = OptionTable<Settings>(Settings.table.options)
        #expect(error(["extra"], table: none) == OptionError(.unexpectedArgument, subject: "extra", allowed: "options only"))
        #expect(error(["--port", "1", ""], table: none)?.kind == .unexpectedArgument)
        let one = OptionTable<Settings>(Settings.table.options, positionals: Array(Settings.table.positionals.prefix(1)))
        #expect(error(["a:1", "b:2"], table: one)
                == OptionError(.unexpectedArgument, subject: "b:2", allowed: "options and one server"))
    }

    @Test("A required positional argument that is missing")
    func requiredPositional() {
        let table = OptionTable<Settings>([.help], positionals: [
            .value("server", "where", Settings.serverValue, required: true) { $0.server = $1 },
        ])
        #expect(error([], table: table) == OptionError(.missingArgument, subject: "server", allowed: "host:port"))
        #expect(table.parse(["--help"], into: Settings()) == .success(.help))
        #expect(table.parse(["a:1"], into: Settings()) == .success(.run(changed { $0.server = "a:1" })))
    }

    @Test("Unknown options: the whole word; the nearest name, else the list when it is short")
    func unknownOptions() {
        #expect(error(["--prot", "1"]) == OptionError(.unknownOption, subject: "--prot", suggestion: "--port"))
        #expect(error(["--Port=1"]) == OptionError(.unknownOption, subject: "--Port=1", suggestion: "--port"))
        #expect(error(["--colour_"])?.suggestion == "--colour")
        #expect(error(["---port"])?.suggestion == "--port")
        #expect(error(["-port"])?.suggestion == "--port")
        for word in ["--bogus", "-p", "-", "--", "--bogus=1", "--seeds-of-doubt"] {
            let e = error([word])
            #expect(e?.kind == .unknownOption && e?.subject == word && e?.suggestion == nil, "\(word): \(String(describing: e))")
            // More than 8 options: not listed.
            #expect(e?.allowed == "", "\(word)")
        }
        let small = Settings.table.only(["--port", "--verbose"])
        #expect(error(["--bogus"], table: small)
                == OptionError(.unknownOption, subject: "--bogus", allowed: "--port, --verbose, --help or --version"))
        // `only` drops the other options, whatever the spelling.
        #expect(error(["--rate", "1"], table: small)?.kind == .unknownOption)
        #expect(small.parse(["--port", "3", "-v"], into: Settings()) == .success(.run(changed { $0.port = 3; $0.verbose = true })))
    }
}

@Suite("OptionKit: messages")
struct MessageTests {
    @Test("Every kind of error: one line naming the option and what is allowed")
    func descriptions() {
        let cases: [([String], String)] = [
            (["--bogus"], "unknown option --bogus"),
            (["--prot=1"], "unknown option --prot=1; did you mean --port?"),
            (["a:1", "b", "c"], "unexpected argument c; allowed: options and server and target, once each"),
            (["--port"], "--port needs a value; allowed: a whole number from 0 to 65535"),
            (["--verbose=1"], "--verbose takes no value"),
            (["--port", "x"], "--port: x is not a whole number; allowed: a whole number from 0 to 65535"),
            (["--port", "70000"], "--port: 70000 is out of range; allowed: a whole number from 0 to 65535"),
            (["--rate", "fast"], "--rate: fast is not a number; allowed: a number from 0 to 1000"),
            (["--rate", "1000.5"], "--rate: 1000.5 is out of range; allowed: a number from 0 to 1000"),
            (["--milli", "-1"], "--milli: -1 is out of range; allowed: a number from 0 to 1000000"),
            (["--mode", "off"], "--mode: off is not one of the choices; allowed: full or normal"),
            (["--colour", "pink"], "--colour: pink is not one of the choices; allowed: red, green or blue"),
            (["--name="], "--name: the value is empty; allowed: a name"),
            (["h"], "server: h is not valid; allowed: host:port"),
        ]
        for (args, text) in cases {
            let e = error(args)
            #expect(e?.description == text, "\(args)")
            #expect(e?.description.contains("\n") == false)
        }
        #expect(OptionError(.missingArgument, subject: "mode", allowed: "a or b").description == "missing mode; allowed: a or b")
    }

    @Test("Values are shown as given, quoted when empty or odd, and cut when long")
    func quoting() {
        #expect(error(["--port", "a b"])?.description.hasPrefix("--port: \"a b\" is not") == true)
        #expect(error(["--port=\u{1B}[2J"])?.description.hasPrefix("--port: \"\\u{1B}[2J\" is not") == true)
        #expect(error(["--port=x\ny"])?.description.contains("\n") == false)
        #expect(error(["--mode", "é"])?.description.hasPrefix("--mode: é is not") == true)
        let long = String(repeating: "9", count: 10_000)
        let text = error(["--port", long])?.description ?? ""
        #expect(text.hasPrefix("--port: " + String(repeating: "9", count: 60) + "… is out of range"))
        #expect(text.count < 150)
        #expect(error([long])?.description.count ?? 0 < 150)
    }
}

@Suite("OptionKit: help")
struct HelpTests {
    @Test("Synopsis: positionals, then each option with its placeholder")
    func synopsis() {
        #expect(Settings.table.synopsis == "[server] [target] [--port N] [--rate R] [--seed S] [--mode full|normal] "
                + "[--colour C] [--name NAME] [--file PATH] [--milli MS] [--verbose] [--help] [--version]")
        let required = OptionTable<Settings>([.help], positionals: [.value("x", "", .text(), required: true) { _, _ in }])
        #expect(required.synopsis == "x [--help]")
    }

    @Test("Help: usage, about, arguments, sections, options with the defaults in brackets, footer")
    func layout() {
        var defaults = Settings()
        defaults.port = 99
        let text = Settings.table.help(usage: "prog [options]", about: ["About it."],
                                       sections: [(title: "Extra:", lines: ["  more"])],
                                       footer: ["The end."], defaults: defaults)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(12)) == [
            "Usage: prog [options]",
            "",
            "About it.",
            "",
            "Arguments (default in brackets):",
            "  server",
            "      where to connect [localhost]",
            "  target",
            "      what to do",
            "",
            "Extra:",
            "  more",
        ])
        #expect(Array(lines.dropFirst(12).prefix(4)) == ["", "Options (default in brackets):", "  --port N", "      TCP port [99]"])
        for entry in [["  --rate R", "      commands per second; 0: no limit [1.5]"],
                      ["  --seed S", "      random seed [1]"],
                      ["  --mode full|normal", "      how careful [normal]"],
                      ["  --colour C", "      what colour [red]"],
                      ["  --file PATH", "      where [none]"],
                      ["  --milli MS", "      the rate in thousandths [1500]"],
                      ["  --verbose", "      say more"],
                      ["  --help", "      show this help and exit"],
                      ["  --version", "      show the version and exit"]] {
            let at = lines.firstIndex(of: entry[0])
            #expect(at.map { Array(lines[$0..<min(lines.count, $0 + 2)]) } == entry, "\(entry)")
        }
        #expect(lines.suffix(2) == ["", "The end."])
        // Aliases are accepted but not shown.
        #expect(!lines.contains { $0.hasPrefix("  -v") || $0.hasPrefix("  -h") || $0.hasPrefix("  -V") || $0.contains(", -") })
    }

    @Test("Long help wraps at 72 columns under a 6-space indent; long words stand alone")
    func wrapping() {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let table = OptionTable<Settings>([.value("--long", "X", words, .integer(0...1), get: nil, set: { _, _ in })])
        let lines = table.optionLines(defaults: Settings())
        #expect(lines.first == "  --long X")
        for line in lines.dropFirst() {
            #expect(line.hasPrefix("      ") && line.count <= 78 && !line.hasSuffix(" "), "`\(line)`")
        }
        #expect(lines.dropFirst().map { $0.dropFirst(6) }.joined(separator: " ") == words)
        let long = String(repeating: "x", count: 100)
        #expect(HelpText.wrap("a \(long) b", width: 10) == ["a", long, "b"])
        #expect(HelpText.wrap("", width: 10) == [])
        #expect(HelpText.pack(["[--a A]", "[--b B]", "[--c C]"], width: 15) == ["[--a A] [--b B]", "[--c C]"])
    }

    @Test("Lists and numbers as help and errors write them")
    func formatting() {
        #expect(listed([]) == "" && listed(["a"]) == "a" && listed(["a", "b"]) == "a or b")
        #expect(listed(["a", "b", "c"]) == "a, b or c" && listed(["a", "b"], or: "and") == "a and b")
        #expect(formatNumber(60) == "60" && formatNumber(0.05) == "0.05" && formatNumber(-2) == "-2")
        #expect(formatNumber(1e20) == "1e+20")
        #expect(Value<Double>.number(0.1...86_400).allowed == "a number from 0.1 to 86400")
        #expect(Value<Int>.integer(1024...(1 << 30)).allowed == "a whole number from 1024 to 1073741824")
    }
}
