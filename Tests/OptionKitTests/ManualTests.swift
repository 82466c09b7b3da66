import Foundation
import OptionKit
import Testing

/// The manual pages and completion scripts in docs/ are made from the option
/// tables (scripts/generate-docs.sh): the committed files are what the
/// programs generate now, every option `--help` shows is in them, and the
/// pages render without warnings.
@Suite("Manual pages and shell completion")
struct ManualTests {
    /// Each program, its manual page, and the help texts whose options the
    /// manual and completion must name.
    static let programs: [(name: String, page: String, helps: [[String]])] = [
        ("ghostd", "docs/man/ghostd.8", [["--help"], ["accounts", "--help"], ["journal", "--help"]]),
        ("ghost-client", "docs/man/ghost-client.1", [["--help"]]),
        ("ghost-bench", "docs/man/ghost-bench.1", [["--help"]]),
    ]

    static func committed(_ path: String) throws -> String {
        let full = Program.packageRoot + "/" + path
        guard let text = try? String(contentsOfFile: full, encoding: .utf8) else {
            throw ProgramError("\(path) is missing: run scripts/generate-docs.sh")
        }
        return text
    }

    /// The first line where `a` and `b` differ, for the failure message.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where (i < x.count ? x[i] : nil) != (i < y.count ? y[i] : nil) {
            return "line \(i + 1): committed `\(i < x.count ? String(x[i]) : "(end)")`, generated `\(i < y.count ? String(y[i]) : "(end)")`"
        }
        return "no difference"
    }

    @Test("docs/man and docs/completion are what the option tables generate now (else run scripts/generate-docs.sh)",
          arguments: ["ghostd", "ghost-client", "ghost-bench"])
    func committedFilesAreCurrent(program: String) throws {
        let page = try #require(Self.programs.first { $0.name == program }).page
        let files: [(String, [String])] = [
            (page, ["--generate-manual"]),
            ("docs/completion/\(program).bash", ["--generate-completion", "bash"]),
            ("docs/completion/\(program).zsh", ["--generate-completion", "zsh"]),
        ]
        for (path, args) in files {
            let run = try Program.run(program, args)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(program) \(args): \(run.status) \(run.stderr)")
            let text = try Self.committed(path)
            #expect(text == run.stdout,
                    "\(path) is not what `\(program) \(args.joined(separator: " "))` writes now: run scripts/generate-docs.sh and commit. \(Self.firstDifference(text, run.stdout))")
        }
    }

    @Test("Every option --help shows is in the manual page and in both completion scripts",
          arguments: ["ghostd", "ghost-client", "ghost-bench"])
    func everyHelpOptionIsDocumented(program: String) throws {
        let entry = try #require(Self.programs.first { $0.name == program })
        let manual = try Self.committed(entry.page)
        let bash = try Self.committed("docs/completion/\(program).bash")
        let zsh = try Self.committed("docs/completion/\(program).zsh")
        var names: Set<String> = []
        for args in entry.helps {
            let help = try Program.run(program, args)
            #expect(help.status == 0, "\(program) \(args): \(help.stderr)")
            // Option entries: `  --name VALUE` at the start of a line.
            for line in help.stdout.split(separator: "\n") where line.hasPrefix("  --") {
                let name = line.dropFirst(2).prefix { !$0.isWhitespace }
                names.insert(String(name))
            }
        }
        #expect(names.count >= (program == "ghostd" ? 40 : 8), "\(program): only \(names.sorted()) in --help")
        #expect(names.contains("--help"))
        // What bash offers after `--`: at the top, and in each subcommand
        // (ghostd accounts, ghost-bench's modes).
        let subcommands = program == "ghost-client" ? [] : try bashComplete(program, [""])
        var offered: Set<String> = []
        for words in [["--"]] + subcommands.map({ [$0, "--"] }) {
            offered.formUnion(try bashComplete(program, words))
        }
        for name in names {
            // In the page as an option entry: `\fB\-\-name\fR`.
            #expect(manual.contains("\\fB" + ManualPage.escape(name) + "\\fR"), "\(entry.page) does not describe \(name)")
            #expect(offered.contains(name), "\(program).bash does not complete \(name)")
            // In an _arguments spec: `'--name[…]` or `{-h,--help}`.
            #expect(zsh.contains("'" + name + "[") || zsh.contains("," + name + "}"), "\(program).zsh does not complete \(name)")
        }
        // Nothing hidden leaks into the documents.
        #expect(!manual.contains("generate\\-completion ") && !bash.contains("'--generate") && !zsh.contains("'--generate"))
    }

    @Test("The manual pages render without warnings (groff -man -ww -z)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed"),
          arguments: ["docs/man/ghostd.8", "docs/man/ghost-client.1", "docs/man/ghost-bench.1"])
    func pagesRender(page: String) throws {
        let r = try runTool("/usr/bin/groff", ["-man", "-ww", "-z", Program.packageRoot + "/" + page])
        #expect(r.status == 0 && r.output.isEmpty, "groff -man -ww -z \(page): \(r.output)")
        // And as text: the sections are there.
        let text = try runTool("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou", Program.packageRoot + "/" + page])
        #expect(text.status == 0)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO"] {
            #expect(text.output.contains("\n" + section + "\n"), "\(page): no \(section)")
        }
        if page.hasSuffix("ghostd.8") {
            for section in ["ACCOUNTS", "SIGNALS", "FILES"] {
                #expect(text.output.contains("\n" + section + "\n"), "\(page): no \(section)")
            }
            #expect(text.output.contains("SIGHUP"))
            #expect(text.output.contains("reset-password NAME"))
        }
    }

    @Test("bash completion: options, choices, subcommands and their options",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is not installed"))
    func bashCompletes() throws {
        let cases: [(String, [String], [String])] = [
            ("ghostd", ["--dur"], ["--durability"]),
            ("ghostd", ["--durability", ""], ["full", "normal"]),
            ("ghostd", ["--scores-for", "r"], ["registered"]),
            ("ghostd", ["--port", ""], []),
            ("ghostd", [""], ["accounts", "reports", "journal", "copy-store"]),
            ("ghostd", ["journal", ""], ["check", "salvage"]),
            ("ghostd", ["accounts", ""], ["list", "reset-password", "delete", "mute", "ban", "unban"]),
            ("ghostd", ["accounts", "--data", "/tmp", "re"], ["reset-password"]),
            ("ghostd", ["accounts", "--"], ["--data", "--store", "--days", "--network", "--help"]),
            ("ghostd", ["reports", "--"], ["--data", "--store", "--limit", "--help"]),
            ("ghostd", ["copy-store", "--"], ["--from", "--to", "--check", "--help"]),
            ("ghostd", ["accounts", "delete", ""], []),
            ("ghost-client", ["--lang", ""], ["en", "nl"]),
            ("ghost-client", ["--tls-c"], ["--tls-ca"]),
            ("ghost-bench", ["pl"], ["play", "play-hangman"]),
            ("ghost-bench", ["solve", "--"], ["--dictionaries", "--runs", "--help"]),
            ("ghost-bench", ["play-hangman", "--hangman-mode", ""], ["evil", "fair", "phrase"]),
        ]
        for (program, words, expected) in cases {
            let got = try bashComplete(program, words)
            #expect(got == expected, "\(program) \(words): \(got)")
        }
    }

    /// What the committed bash completion offers for `program words…` (the
    /// last word being completed).
    func bashComplete(_ program: String, _ words: [String]) throws -> [String] {
        let script = try Self.committed("docs/completion/\(program).bash")
        let all = [program] + words
        let shell = script + """

            COMP_WORDS=(\(all.map { "'\($0)'" }.joined(separator: " ")))
            COMP_CWORD=\(all.count - 1)
            _\(program.replacingOccurrences(of: "-", with: "_"))
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try runTool("/bin/bash", ["-c", shell])
        guard r.status == 0 else { throw ProgramError("bash completion of \(all): \(r.output)") }
        return r.output.split(separator: "\n").map(String.init)
    }

    @Test("zsh completion scripts parse and define their functions",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") || FileManager.default.isExecutableFile(atPath: "/bin/zsh"),
                   "zsh is not installed"),
          arguments: ["ghostd", "ghost-client", "ghost-bench"])
    func zshParses(program: String) throws {
        let zsh = FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") ? "/usr/bin/zsh" : "/bin/zsh"
        let path = Program.packageRoot + "/docs/completion/\(program).zsh"
        let syntax = try runTool(zsh, ["-n", path])
        #expect(syntax.status == 0 && syntax.output.isEmpty, "zsh -n \(program).zsh: \(syntax.output)")
        // Defining (not calling) the functions: the file without its last line.
        let function = "_" + program.replacingOccurrences(of: "-", with: "_")
        let r = try runTool(zsh, ["-f", "-c", "source <(sed '$d' \(path)) && whence -w \(function)"])
        #expect(r.status == 0 && r.output == "\(function): function\n", "\(r.output)")
    }

    @Test("roff escaping: backslashes, hyphens, leading dots and quotes, non-ASCII, backquotes in bold")
    func escaping() {
        #expect(ManualPage.escape(#"a\b"#) == #"a\eb"#)
        #expect(ManualPage.escape("--port") == #"\-\-port"#)
        #expect(ManualPage.escape(".start") == #"\&.start"#)
        #expect(ManualPage.escape("'quote") == #"\&'quote"#)
        #expect(ManualPage.escape("5 × 2 …") == #"5 \[u00D7] 2 \[u2026]"#)
        let page = ManualPage(program: "x", section: 1, source: "x 1", manual: "User Commands", summary: "a \"test\"",
                              synopsis: ["x [options]"], sections: [
                                  .init("Description", [.paragraph(".dot first, `bold \\ one`, 'quote'\n.next")]),
                              ], generatedBy: "x --generate-manual")
        let roff = page.roff
        #expect(roff.contains("\n\\&.dot first, \\fBbold \\e one\\fR, 'quote' \\&.next\n"), "\(roff)")
        #expect(roff.contains("\n.TH \"X\" 1 \"\" \"x 1\" \"User Commands\"\n"), "\(roff)")
        #expect(roff.contains("\nx \\- a \"test\"\n"), "\(roff)")
        // No line of text starts a request by accident.
        for line in roff.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect([".\\\"", ".TH", ".SH", ".PP", ".TP", ".br", ".ad", ".nh", ".RS", ".RE", ".nf", ".fi", ".ft"].contains { line.hasPrefix($0) },
                    "\(line)")
        }
    }

    /// Runs a tool with stdin from /dev/null; stdout and stderr together.
    func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
