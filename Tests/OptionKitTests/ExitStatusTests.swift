import Foundation
import Testing

/// The built ghostd, ghost-client and ghost-bench: a bad option or value is
/// refused with exit status 2 and one line on stderr that names it and says
/// what is allowed; --help still works; good values still land.
@Suite("Programs: bad options exit with status 2")
struct ExitStatusTests {
    /// A refused command line: `subject` and `allowed` on one stderr line that
    /// starts with `prefix` and points to --help; nothing on stdout.
    func expectRefused(_ program: String, _ args: [String], prefix: String, subject: String, allowed: String,
                       helpCommand: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try Program.run(program, args)
        #expect(r.status == 2, "\(program) \(args): status \(r.status)\n\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(program) \(args) wrote to stdout: \(r.stdout)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines.last == "", "\(program) \(args): not one line: \(r.stderr)", sourceLocation: sourceLocation)
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix(prefix + ": "), "\(program) \(args): \(line)", sourceLocation: sourceLocation)
        #expect(line.contains(subject), "\(program) \(args): `\(subject)` not named: \(line)", sourceLocation: sourceLocation)
        #expect(line.contains(allowed), "\(program) \(args): `\(allowed)` not said: \(line)", sourceLocation: sourceLocation)
        #expect(line.hasSuffix("(see \(helpCommand ?? program) --help)"), "\(program) \(args): \(line)", sourceLocation: sourceLocation)
    }

    @Test("ghostd")
    func ghostd() throws {
        // A data folder of its own, in case an argument is wrongly accepted.
        let data = try TemporaryFolder()
        let cases: [([String], String, String)] = [
            (["--port", "70000"], "--port: 70000 is out of range", "allowed: a whole number from 0 to 65535"),
            (["--port=abc"], "--port: abc is not a whole number", "allowed: a whole number from 0 to 65535"),
            (["--grace", "soon"], "--grace: soon is not a number", "allowed: a number from 0 to 86400"),
            (["--bot-delay=-1"], "--bot-delay: -1 is out of range", "allowed: a number from 0 to 10000"),
            (["--durability", "sometimes"], "--durability: sometimes is not one of the choices", "allowed: full or normal"),
            (["--host="], "--host: the value is empty", "allowed: a name or an address"),
            (["--max-clients"], "--max-clients needs a value", "allowed: a whole number from 1 to 1000000"),
            (["--max-client", "3"], "unknown option --max-client", "did you mean --max-clients?"),
            (["extra"], "unexpected argument extra", "allowed: options only"),
        ]
        for (args, subject, allowed) in cases {
            try expectRefused("ghostd", ["--data", data.path, "--port", "0"] + args,
                              prefix: "ghostd", subject: subject, allowed: allowed)
        }
        let help = try Program.run("ghostd", ["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: ghostd [options]\n") && help.stderr.isEmpty)
        #expect(help.stdout.contains("ghostd accounts list|reset-password NAME|delete NAME [--data DIR]"))
    }

    @Test("ghostd accounts")
    func ghostdAccounts() throws {
        let data = try TemporaryFolder()
        let cases: [([String], String, String)] = [
            ([], "missing COMMAND", "allowed: list, reset-password, delete, mute, ban or unban"),
            (["rename", "ann"], "COMMAND: rename is not one of the choices", "allowed: list, reset-password, delete, mute, ban or unban"),
            (["list", "ann"], "unexpected argument ann", "allowed: list takes no NAME"),
            (["reset-password"], "missing NAME", "allowed: the registered name after reset-password"),
            (["delete", "a:b"], "NAME: a:b is not valid", "allowed: 1 to 16 letters, digits, - or _"),
            (["list", "--data"], "--data needs a value", "allowed: a folder"),
            (["list", "--port", "1"], "unknown option --port", "allowed: --data, --store, --days, --network or --help"),
            (["ban"], "missing NAME", "allowed: the name after ban, or --network ADDRESS"),
            (["mute", "ann", "--days", "0"], "--days: 0 is out of range", "allowed: a whole number from 1 to 36500"),
            (["unban", "--network", "example.org"], "--network: example.org is not valid", "allowed: an IPv4 or IPv6 address"),
        ]
        for (args, subject, allowed) in cases {
            try expectRefused("ghostd", ["accounts"] + args + (args.contains("--data") ? [] : ["--data", data.path]),
                              prefix: "ghostd accounts", subject: subject, allowed: allowed, helpCommand: "ghostd accounts")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
        let help = try Program.run("ghostd", ["accounts", "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        #expect(help.stdout.hasPrefix("Usage: ghostd accounts list|reset-password NAME|delete NAME|mute NAME|ban NAME|unban NAME [--days N] [--network ADDRESS] [--data DIR]\n"))
    }

    @Test("ghostd reports")
    func ghostdReports() throws {
        let data = try TemporaryFolder()
        let cases: [([String], String, String)] = [
            (["--limit", "0"], "--limit: 0 is out of range", "allowed: a whole number from 1 to 100000"),
            (["--limit"], "--limit needs a value", "allowed: a whole number from 1 to 100000"),
            (["ann"], "unexpected argument ann", "allowed: options only"),
            (["--port", "1"], "unknown option --port", "allowed: --data, --store, --limit or --help"),
        ]
        for (args, subject, allowed) in cases {
            try expectRefused("ghostd", ["reports"] + args + ["--data", data.path],
                              prefix: "ghostd reports", subject: subject, allowed: allowed, helpCommand: "ghostd reports")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
        let help = try Program.run("ghostd", ["reports", "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        #expect(help.stdout.hasPrefix("Usage: ghostd reports [--limit N] [--data DIR]\n"))
    }

    @Test("ghost-client")
    func client() throws {
        let folder = try TemporaryFolder()
        let config = ["--config", folder.path + "/config"]
        let cases: [([String], String, String)] = [
            (config + ["--lang", "fr"], "--lang: fr is not one of the choices", "allowed: en or nl"),
            (config + ["--lang"], "--lang needs a value", "allowed: en or nl"),
            (config + ["h:0"], "host[:port]: h:0 is not valid", "with a port from 1 to 65535"),
            (config + ["a:1", "b:2"], "unexpected argument b:2", "allowed: options and one host[:port]"),
            (["--config"], "--config needs a value", "allowed: a file path"),
            (config + ["--bogus"], "unknown option --bogus", "(see ghost-client --help)"),
            (config + ["--game", "chess"], "--game: chess is not one of the choices", "allowed: ghost or hangman"),
            // stdin and stdout are not a terminal here: line mode, which plays nothing by itself.
            (config + ["--game", "hangman", "127.0.0.1:9"], "--game hangman needs a terminal", "send the game's commands yourself"),
            (config + ["--game=ghost"], "--game ghost needs a terminal", "e.g. NEW game=hangman"),
        ]
        for (args, subject, allowed) in cases {
            try expectRefused("ghost-client", args, prefix: "ghost-client", subject: subject, allowed: allowed)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/config"))
        let help = try Program.run("ghost-client", ["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        // The usage line docs/client.md shows.
        #expect(help.stdout.hasPrefix("Usage: ghost-client [host[:port]] [--config PATH] [--lang en|nl] [--game ghost|hangman] [--clock SECONDS] [--tls] [--tls-ca FILE] [--insecure] [--plain-screens] [--help] [--version]\n"))
    }

    @Test("ghost-bench: a bad number is refused, not replaced by the default")
    func bench() throws {
        let cases: [([String], String, String, String)] = [
            (["solve", "--runs", "x"], "solve", "--runs: x is not a whole number", "allowed: a whole number from 1 to 1000000"),
            (["solve", "--runs=0"], "solve", "--runs: 0 is out of range", "allowed: a whole number from 1 to 1000000"),
            (["bots", "--games", "many"], "bots", "--games: many is not a whole number", "allowed: a whole number from 1 to 100000000"),
            (["bots", "--seed", "-1"], "bots", "--seed: -1 is out of range", "allowed: a whole number from 0 to 18446744073709551615"),
            (["ping", "--port", "70000"], "ping", "--port: 70000 is out of range", "allowed: a port from 1 to 65535, or a comma list of up to 64"),
            (["play", "--port", "7001,x"], "play", "--port: 7001,x is not a whole number", "allowed: a port from 1 to 65535, or a comma list of up to 64"),
            (["attack", "--port", "7001,7002"], "attack", "--port: 7001,7002 is not valid", "allowed: one port (a list: ping, play, play-hangman, hold and watch)"),
            (["ping", "--connections", "1.5"], "ping", "--connections: 1.5 is not a whole number", "allowed: a whole number from 1 to 1000000"),
            (["ping", "--warmup", "soon"], "ping", "--warmup: soon is not a number", "allowed: a number from 0 to 3600"),
            (["play", "--seconds", "5s"], "play", "--seconds: 5s is not a number", "allowed: a number from 0.1 to 86400"),
            (["play", "--bad-share", "1.5"], "play", "--bad-share: 1.5 is out of range", "allowed: a number from 0 to 1"),
            (["play-hangman", "--hangman-mode", "duel"], "play-hangman", "--hangman-mode: duel is not one of the choices",
             "allowed: evil, fair or phrase"),
            (["hold", "--seconds"], "hold", "--seconds needs a value", "allowed: a number from 0.1 to 86400"),
            (["hold", "--warmup", "1"], "hold", "unknown option --warmup", "allowed: --host, --port, --connections, --seconds, --stats or --help"),
            (["ping", "--runs", "3"], "ping", "unknown option --runs", "allowed: --host, --port, --connections, --seconds, --warmup, --stats or --help"),
        ]
        for (args, mode, subject, allowed) in cases {
            try expectRefused("ghost-bench", args, prefix: "ghost-bench \(mode)", subject: subject, allowed: allowed)
        }
        try expectRefused("ghost-bench", [], prefix: "ghost-bench", subject: "missing mode", allowed: "allowed: solve, bots, hangman, ping, play, play-hangman, hold, watch, fixture, attack, abandon, ws-ping or ws-hold")
        try expectRefused("ghost-bench", ["fly"], prefix: "ghost-bench", subject: "mode: fly is not one of the choices",
                          allowed: "allowed: solve, bots, hangman, ping, play, play-hangman, hold, watch, fixture, attack, abandon, ws-ping or ws-hold")
        for args in [["--help"], ["help"], ["solve", "--help"]] {
            let help = try Program.run("ghost-bench", args)
            #expect(help.status == 0 && help.stdout.hasPrefix("Usage: ghost-bench <mode> [options]\n") && help.stderr.isEmpty, "\(args)")
        }
    }

    @Test("ghost-bench: good values land")
    func benchValues() throws {
        let folder = try TemporaryFolder()
        let words = ["apple", "apply", "banana", "band", "bandit", "cat", "cattle", "dog", "dough", "zebra"]
        try (words.joined(separator: "\n") + "\n").write(toFile: folder.path + "/en.txt", atomically: true, encoding: .utf8)

        let solve = try Program.run("ghost-bench", ["solve", "--runs", "2", "--dictionaries=" + folder.path])
        #expect(solve.status == 0, "\(solve.stderr)")
        #expect(solve.stdout.hasPrefix("solve en: 10 words") && solve.stdout.contains("best of 2:"), "\(solve.stdout)")

        let bots = try Program.run("ghost-bench", ["bots", "--games=3", "--seed", "7", "--lang", "en", "--dictionaries", folder.path])
        #expect(bots.status == 0, "\(bots.stderr)")
        #expect(bots.stdout.hasPrefix("bots en: 3 games per pairing from each side (6 in all), seed 7"), "\(bots.stdout)")

        // A language without a list is an error, in play as in bots (play
        // used to fall back to random letters without a word).
        for args in [["bots", "--lang", "xx"], ["play", "--lang", "xx", "--port", "1"]] {
            let noList = try Program.run("ghost-bench", args + ["--dictionaries", folder.path])
            #expect(noList.status == 1 && noList.stderr.contains("no xx.txt"), "\(args): \(noList.stderr)")
        }
        // play-hangman sends --lang in a LANG line, so it must be a code, not a line of its own.
        let badLang = try Program.run("ghost-bench", ["play-hangman", "--lang", "en\r\nQUIT", "--port", "1"])
        #expect(badLang.status == 1 && badLang.stderr.contains("is not a language code"), "\(badLang.stderr)")
    }
}
