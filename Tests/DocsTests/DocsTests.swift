import Foundation
import GhostBench
import GhostClient
import GhostProtocol
@testable import GhostServer
import TestKinds
import OptionKit
import Testing

/// The documentation a reader follows: README.md, Protocol.md, BENCHMARKS.md
/// and every page under docs/.
enum Docs {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Paths relative to the package root.
    static let files: [String] = {
        var files = ["README.md", "Protocol.md", "BENCHMARKS.md"]
        let docs = URL(fileURLWithPath: root + "/docs")
        if let walk = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
            let found = walk.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".md") }
            files += found.map { String($0.dropFirst(root.count + 1)) }.sorted()
        }
        return files
    }()

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    static func document(_ path: String) throws -> MarkdownDocument {
        MarkdownDocument(try read(path))
    }
}

/// Links: every relative link resolves to a file, and its `#anchor` to a
/// heading of that file (GitHub's anchors).
enum LinkCheck {
    /// What is wrong with the links of `document`, which is at `path`
    /// (relative to `root`), one message each.
    static func problems(in document: MarkdownDocument, at path: String, root: String) -> [String] {
        var problems: [String] = []
        let folder = (path as NSString).deletingLastPathComponent
        var anchorsOf: [String: Set<String>] = [:]
        for link in document.links {
            let target = link.target
            if target.isEmpty { problems.append("\(path):\(link.line): an empty link"); continue }
            // Absolute URLs (https:, mailto:) are not checked here.
            if target.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let anchor = parts.count > 1 ? String(parts[1]) : nil
            let targetPath = file.isEmpty ? path : normalise(folder.isEmpty ? file : folder + "/" + file)
            var isFolder: ObjCBool = false
            guard file.isEmpty || !targetPath.hasPrefix("../") && FileManager.default.fileExists(atPath: root + "/" + targetPath, isDirectory: &isFolder) else {
                problems.append("\(path):\(link.line): \(target): no such file \(targetPath)")
                continue
            }
            guard let anchor, !anchor.isEmpty else { continue }
            guard file.isEmpty || targetPath.hasSuffix(".md") && !isFolder.boolValue else {
                problems.append("\(path):\(link.line): \(target): an anchor into a file that is not Markdown")
                continue
            }
            let anchors = file.isEmpty ? document.anchors : anchorsOf[targetPath] ?? {
                let found = (try? String(contentsOfFile: root + "/" + targetPath, encoding: .utf8)).map { MarkdownDocument($0).anchors } ?? []
                anchorsOf[targetPath] = found
                return found
            }()
            if !anchors.contains(anchor.lowercased()) {
                problems.append("\(path):\(link.line): \(target): \(targetPath) has no heading #\(anchor)")
            }
        }
        return problems
    }

    /// `docs/../Protocol.md` → `Protocol.md`.
    static func normalise(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}

/// The options each program takes, from its option tables (the ones its
/// `--help`, manual page and completion are made from), subcommands' too.
enum ProgramOptions {
    static let specs: [String: CompletionSpec] = [
        "ghostd": DaemonManual.completion,
        "ghost-client": ClientManual.completion,
        "ghost-bench": BenchManual.completion,
    ]

    /// The options of `program`, or of its subcommand when `subcommand` names one.
    static func options(of program: String, subcommand: String?) -> Set<String> {
        guard let spec = specs[program] else { return [] }
        var names = Set(spec.options.flatMap(\.names))
        if let sub = spec.subcommands.first(where: { $0.name == subcommand }) {
            names.formUnion(sub.spec.options.flatMap(\.names))
        } else {
            names.formUnion(spec.subcommands.flatMap { $0.spec.options.flatMap(\.names) })
        }
        return names
    }

    static let all: Set<String> = specs.keys.reduce(into: []) { $0.formUnion(options(of: $1, subcommand: nil)) }

    /// Options the docs name that belong to other tools, written alone (not
    /// after the tool's name), each with its tool.
    static let otherTools: [String: String] = [
        "--filter": "swift test",
        "--scratch-path": "swift build and swift test",
        "--enable-code-coverage": "swift test",
        "--build-tests": "swift build",
        "--show-bin-path": "swift build",
        "--name": "the shape of every option, `--name value` or `--name=value`",
    ]

    /// Whether `program` takes `option`: one of its table's, or one of the
    /// hidden ones that write its manual and completion (`--generate-manual`).
    static func takes(_ program: String, _ option: String, subcommand: String?) -> Bool {
        options(of: program, subcommand: subcommand).contains(option)
            || GeneratedDocs.request([option]) != nil || GeneratedDocs.request([option, "bash"]) != nil
    }
}

/// Every `--option` a page names, and which program it is for.
enum FlagCheck {
    static let programs: Set<String> = ["ghostd", "ghost-client", "ghost-bench"]

    static func problems(in document: MarkdownDocument, at path: String) -> [String] {
        var problems: [String] = []
        for snippet in document.snippets {
            for segment in segments(snippet.text) {
                let words = segment.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
                let programAt = commandWord(words)
                for (i, word) in words.enumerated() {
                    for option in options(in: word) {
                        if let p = programAt, i > p, let name = program(of: words[p]) {
                            let sub = words.indices.contains(p + 1) ? words[p + 1] : nil
                            if !ProgramOptions.takes(name, option, subcommand: sub) {
                                problems.append("\(path):\(snippet.line): `\(name) \(option)`: \(name) has no option \(option) (\(snippet.text))")
                            }
                        } else if snippet.kind == .prose || words.first.map({ $0.hasPrefix("-") || $0.hasPrefix("[-") }) == true {
                            // Prose, or a code span that starts with the option:
                            // it must be one of the programs', or a known other tool's.
                            if !ProgramOptions.all.contains(option), ProgramOptions.otherTools[option] == nil,
                               !programs.contains(where: { ProgramOptions.takes($0, option, subcommand: nil) }) {
                                problems.append("\(path):\(snippet.line): \(option) is no option of ghostd, ghost-client or ghost-bench (\(snippet.text))")
                            }
                        }
                    }
                }
            }
        }
        return problems
    }

    /// A command line's commands: split at ` | `, `;`, `&&` and ` & `.
    static func segments(_ text: String) -> [String] {
        text.replacingOccurrences(of: "&&", with: ";").replacingOccurrences(of: " | ", with: ";")
            .replacingOccurrences(of: " & ", with: ";").split(separator: ";").map(String.init)
    }

    /// Where the program of a command line is, if it is one of ours: its
    /// first word after `$`, `sudo` and `VAR=value`s, or after `swift run`
    /// and its options. Another command's arguments (a script given
    /// `.build/release/ghostd`) are that command's.
    static func commandWord(_ words: [String]) -> Int? {
        var i = 0
        while i < words.count, words[i] == "$" || words[i] == "sudo" || words[i].hasPrefix("(")
                || words[i].range(of: #"^[A-Z_][A-Z0-9_]*="#, options: .regularExpression) != nil {
            if words[i].hasPrefix("("), words[i].count > 1 { break }
            i += 1
        }
        guard i < words.count else { return nil }
        if words[i] == "swift", words.indices.contains(i + 1), words[i + 1] == "run" {
            return words[(i + 2)...].firstIndex { program(of: $0) != nil }
        }
        return program(of: words[i]) != nil ? i : nil
    }

    /// `ghostd`, `.build/release/ghostd`, `(ghostd` → `ghostd`.
    static func program(of word: String) -> String? {
        let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: "`'\"()[]$"))
        let name = bare.split(separator: "/").last.map(String.init) ?? bare
        let plain = name.hasSuffix("'s") ? String(name.dropLast(2)) : name
        return programs.contains(plain) ? plain : nil
    }

    /// The long options in a word: `--port`, `[--tls-ca`, `--port=0`, `(--host` → the names.
    static let optionPattern = try? NSRegularExpression(pattern: #"(?<![A-Za-z0-9_-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*"#)

    static func options(in word: String) -> [String] {
        guard word.contains("--"), let regex = optionPattern else { return [] }
        return regex.matches(in: word, range: NSRange(word.startIndex..., in: word)).compactMap {
            Range($0.range, in: word).map { String(word[$0]) }
        }
    }
}

/// Every protocol command the docs name in a code span exists in the
/// server's command table, the one `HELP` lists.
enum CommandCheck {
    /// The first words of the lines the server sends (Protocol.md §2 and §4).
    static let serverLines: Set<String> = [
        "HELLO", "OK", "ERR", "INFO", "BYE", "GAME", "LIVE", "WATCHERS", "TURN", "MOVE", "OVER", "MATCH",
        "ABORTED", "ADJOURNED", "RETURNED", "CLAIMABLE", "OFFER", "ACCEPTED", "DECLINED", "REMATCH",
        "CANCELLED", "WAITING", "RANK", "NAME", "SCORE", "SETTING", "STAT", "HELP",
        "PLAYED", "PLY",                                  // MOVES, REVIEW
        "ROW", "CAN",                                     // VIEW
        "LEADER", "RATING", "VERSUS", "RESULT",           // TOP, PROFILE, HISTORY
        "FRIEND", "BLOCKED", "ONLINE", "OFFLINE", "WITHDRAWN", "SAID",   // between people (INVITE is also a verb)
    ]

    /// Capitalised words in code that are not the protocol's, with what they are.
    static let otherWords: [String: String] = [
        "PRAGMA": "SQLite", "BEGIN": "SQL", "COMMIT": "SQL", "INSERT": "SQL", "UPDATE": "SQL", "VALUES": "SQL",
        "LIKE": "SQL", "SAVEPOINT": "SQL", "RELEASE": "SQL", "VACUUM": "SQL", "SELECT": "SQL", "SQL": "SQL",
        "SIOCOUTQ": "an ioctl", "EMFILE": "an errno", "ENFILE": "an errno", "SIGTERM": "a signal",
        "SIGINT": "a signal", "SIGHUP": "a signal", "SIGKILL": "a signal", "TLS": "TLS",
        "PROXY": "a balancer's PROXY protocol line (a transport header, not a command)",
        "RELAY": "a standby's first line on the leader's relay port (docs/cluster.md)",
    ]

    /// The kinds' move verbs and error codes count too: the server's kinds'
    /// moves (`LETTER`, `SOLVE`), and what the docs show with the tests'
    /// kinds a kind declares (TestKinds' catalog).
    static let verbs = Set(CommandTable.specs.map(\.verb.rawValue)).union(GameCatalog.moveVerbs.map(\.name))
        .union(TestKinds.all.flatMap { $0.moveVerbs.map(\.name) })
    static let errorCodes = Set(ErrorCode.allCases.map(\.rawValue)).union(TestKinds.all.flatMap { $0.errorCodes.keys.map(\.rawValue) })
    static let byeCodes = Set(ByeCode.allCases.map(\.rawValue))

    static func problems(in document: MarkdownDocument, at path: String) -> [String] {
        var problems: [String] = []
        for snippet in document.snippets where snippet.kind == .codeSpan {
            let words = snippet.text.split(separator: " ").map(String.init)
            guard let first = words.first, first.range(of: #"^[A-Z]{2,}$"#, options: .regularExpression) != nil else { continue }
            if verbs.contains(first) || otherWords[first] != nil {
                continue
            }
            if !serverLines.contains(first) {
                problems.append("\(path):\(snippet.line): `\(snippet.text)`: \(first) is not a command HELP lists, nor a line the server sends")
            } else if first == "ERR", words.count > 1, words[1].range(of: #"^[a-z]+(-[a-z]+)*$"#, options: .regularExpression) != nil,
                      !errorCodes.contains(words[1]) {
                problems.append("\(path):\(snippet.line): `\(snippet.text)`: \(words[1]) is not an error code (Codes.swift)")
            } else if first == "BYE", words.count > 1, words[1].range(of: #"^[a-z]+(-[a-z]+)*$"#, options: .regularExpression) != nil,
                      !byeCodes.contains(words[1]) {
                problems.append("\(path):\(snippet.line): `\(snippet.text)`: \(words[1]) is not a BYE code (Codes.swift)")
            } else if first == "OK", words.count > 1, words[1].range(of: #"^[A-Z]{2,}$"#, options: .regularExpression) != nil,
                      !verbs.contains(words[1]) {
                problems.append("\(path):\(snippet.line): `\(snippet.text)`: OK answers a command, and HELP lists no \(words[1])")
            }
        }
        return problems
    }
}

@Suite("Documentation: links, options and commands")
struct DocsTests {
    @Test("The documentation files are there", arguments: ["README.md", "Protocol.md", "BENCHMARKS.md", "docs/operating.md"])
    func filesExist(path: String) {
        #expect(Docs.files.contains(path))
        #expect(FileManager.default.fileExists(atPath: Docs.root + "/" + path), "\(path) is missing")
    }

    @Test("Every relative link resolves: the file exists, and its #anchor is one of its headings", arguments: Docs.files)
    func linksResolve(path: String) throws {
        let problems = LinkCheck.problems(in: try Docs.document(path), at: path, root: Docs.root)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) broken link(s):\n" + problems.joined(separator: "\n")))
    }

    @Test("A broken link, or a link to a heading that is not there, is reported")
    func brokenLinksAreReported() {
        let page = """
            # A page

            ## Section `one`, two

            [fine](#section-one-two) [ok](../Protocol.md#9-an-annotated-session) [web](https://example.org/x#y)
            [gone](no-such-page.md) [lost](#section-three)
            [wrong heading](../Protocol.md#no-such-section)

            ```
            [in code](not-checked.md)
            ```
            `[in a span](not-checked-either.md)`
            """
        let problems = LinkCheck.problems(in: MarkdownDocument(page), at: "docs/page.md", root: Docs.root)
        #expect(problems == [
            "docs/page.md:6: no-such-page.md: no such file docs/no-such-page.md",
            "docs/page.md:6: #section-three: docs/page.md has no heading #section-three",
            "docs/page.md:7: ../Protocol.md#no-such-section: Protocol.md has no heading #no-such-section",
        ])
    }

    @Test("Anchors are GitHub's")
    func slugs() {
        #expect(MarkdownDocument.slug("This game's rule and Norvig's, on ENABLE") == "this-games-rule-and-norvigs-on-enable")
        #expect(MarkdownDocument.slug("9. An annotated session") == "9-an-annotated-session")
        #expect(MarkdownDocument.slug("Playing on a clock (`clock=<seconds>`)") == "playing-on-a-clock-clockseconds")
        #expect(MarkdownDocument.slug("Watching (`GAMES`, `WATCH`, `UNWATCH`)") == "watching-games-watch-unwatch")
        #expect(MarkdownDocument.slug("What `swift test` runs") == "what-swift-test-runs")
        #expect(MarkdownDocument.slug("The terminal client: ghost-client") == "the-terminal-client-ghost-client")
        #expect(MarkdownDocument.slug("Store look-ups on a million names") == "store-look-ups-on-a-million-names")
        #expect(MarkdownDocument.slug("PING over TLS against plain TCP") == "ping-over-tls-against-plain-tcp")
        #expect(MarkdownDocument("# A\n## A\n```\n# A\n```\n### A").anchors == ["a", "a-1", "a-2"])
    }

    @Test("Every ghostd, ghost-client and ghost-bench option the docs name is in that program's option table", arguments: Docs.files)
    func optionsExist(path: String) throws {
        let problems = FlagCheck.problems(in: try Docs.document(path), at: path)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) unknown option(s):\n" + problems.joined(separator: "\n")))
    }

    @Test("An option a program does not have is reported")
    func unknownOptionsAreReported() {
        let page = """
            Start `ghostd --port 0 --no-such-option`, or `ghost-client --tls-ca FILE` or `--grace`.
            `swift test --filter X` and `.build/release/ghost-bench bots --games 3`.
            ```sh
            swift run -c release ghost-client --gaem hangman
            ```
            In prose, --not-an-option is caught too.
            """
        #expect(FlagCheck.problems(in: MarkdownDocument(page), at: "p.md").map { String($0.prefix { $0 != "(" }) } == [
            "p.md:1: `ghostd --no-such-option`: ghostd has no option --no-such-option ",
            "p.md:4: `ghost-client --gaem`: ghost-client has no option --gaem ",
            "p.md:6: --not-an-option is no option of ghostd, ghost-client or ghost-bench ",
        ])
    }

    @Test("Every protocol command the docs name in code is one HELP lists, and every ERR and BYE code one Codes.swift has", arguments: Docs.files)
    func commandsExist(path: String) throws {
        let problems = CommandCheck.problems(in: try Docs.document(path), at: path)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) unknown command(s):\n" + problems.joined(separator: "\n")))
    }

    @Test("A command HELP does not list, or an error or BYE code Codes.swift does not have, is reported; a test kind's own verbs and codes are not")
    func unknownCommandsAreReported() {
        let page = """
            Send `SEEK clock=30`, `NEW bot=easy`, `WATHC 7`, then `OK JION code=X` and `PRAGMA quick_check`.
            `ERR not-your-turn`, `ERR no-such-code`, `ERR <code> <text>`, `BYE flood`, `BYE flod`.
            A test kind's own: `CHAIN <word>`, `ERR chain-broken the word must start with e`, `OK CHAIN word=olive`; not `CHAINS x`.
            """
        #expect(CommandCheck.problems(in: MarkdownDocument(page), at: "p.md") == [
            "p.md:1: `WATHC 7`: WATHC is not a command HELP lists, nor a line the server sends",
            "p.md:1: `OK JION code=X`: OK answers a command, and HELP lists no JION",
            "p.md:2: `ERR no-such-code`: no-such-code is not an error code (Codes.swift)",
            "p.md:2: `BYE flod`: flod is not a BYE code (Codes.swift)",
            "p.md:3: `CHAINS x`: CHAINS is not a command HELP lists, nor a line the server sends",
        ])
    }

    @Test("ghostd --help, and ghostd(8), open by naming both games; so does ghost-client's")
    func helpNamesBothGames() throws {
        let lines = DaemonOptions.usage.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Usage: ghostd [options]" && lines.dropFirst().first == "")
        let about = ManualPage.about(ofHelp: DaemonOptions.usage)
        #expect(about.hasPrefix("A server for the word games Ghost (with Superghost and bluffing) and Hangman: "), "\(about)")
        #expect(try Docs.read("docs/man/ghostd.8").contains("\n.SH \"DESCRIPTION\"\nA server for the word games Ghost (with Superghost and bluffing) and Hangman: "))
        let client = ManualPage.about(ofHelp: ClientOptions.usage)
        #expect(client.contains("Ghost") && client.contains("Hangman"), "\(client)")
    }

    @Test("docs/operating.md's \"ghostd options\" table has a row for each of ghostd's options, and only those")
    func optionsTableIsGhostds() throws {
        let lines = try Docs.read("docs/operating.md").split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "## ghostd options" }, "docs/operating.md has no \"## ghostd options\"")
        let rows = lines[start...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        let documented = rows.compactMap { row in
            row.split(separator: "|").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        }
        let table = DaemonManual.completion.options.filter { !$0.exclusive }.flatMap(\.names)
        #expect(Set(documented).subtracting(table).sorted() == [], "rows for options ghostd does not have")
        #expect(Set(table).subtracting(documented).sorted() == [], "ghostd options the table lacks")
        #expect(documented.count == Set(documented).count, "an option has two rows")
    }
}
