import Foundation
import Testing
@testable import GhostClient

/// The layout test: every screen, in every state the reducer and
/// screen tests reach, in both languages, at 60×20, 80×24 and 120×40. It
/// fails when a line is wider than the terminal, when text is cut (dropped
/// because it did not fit: `LayoutAudit` records every such cut), when a menu
/// entry, the cursor or a key hint is not drawn whole, or when the screen has
/// not exactly `height` lines. Below 60×20: one "make the window larger" screen.
@Suite("Layout: every screen, every state, both languages, three sizes", .serialized)
struct LayoutTests {
    static let sizes = [(60, 20), (80, 24), (120, 40)]
    static let languages = ["en", "nl"]

    /// The states every reducer and screen test reaches (through `Fx.run`
    /// or `Screens.render`), each once: two states that draw the same six
    /// screens count once. Collected once for the tests that use it.
    static func corpus() async throws -> [ClientState] {
        try await collected.value
    }

    private static let collected = Task { try await collect() }

    private static func collect() async throws -> [ClientState] {
        let log = StateLog()
        try await StateLog.$current.withValue(log) {
            try await LayoutCorpus.runAll()
        }
        // Two states that draw the same at the smallest and largest size, in
        // both languages, are one. The first screen sorts them into buckets;
        // a state equal to one already in its bucket draws the same and needs
        // no more drawing, so most of the thousands of repeats cost one render.
        var buckets: [String: [(state: ClientState, key: String)]] = [:]
        var unique: [ClientState] = []
        var last: ClientState?
        for s in log.states {
            // A run of events that changes nothing adds nothing.
            if s == last { continue }
            last = s
            let first = Screens.render(s, width: 60, height: 20, strings: .en).joined(separator: "\n")
            let bucket = buckets[first] ?? []
            if bucket.contains(where: { $0.state == s }) { continue }
            let key = Screens.render(s, width: 120, height: 40, strings: .nl).joined(separator: "\n")
                + Screens.render(s, width: 60, height: 20, strings: .nl).joined(separator: "\n")
            if bucket.contains(where: { $0.key == key }) { continue }
            buckets[first, default: []].append((s, key))
            unique.append(s)
        }
        return unique
    }

    /// What is wrong with one screen, in words (empty: nothing).
    static func problems(_ s: ClientState, width: Int, height: Int, language: String, longNames: Bool = false) -> [String] {
        let audit = LayoutAudit(longNames: longNames)
        let lines = LayoutAudit.$current.withValue(audit) {
            Screens.render(s, width: width, height: height, strings: .forLanguage(language))
        }
        let plain = lines.map(Layout.plain)
        var out: [String] = []
        if lines.count != height { out.append("\(lines.count) lines, not \(height)") }
        for line in lines where Layout.visibleWidth(line) > width {
            out.append("wider than \(width): “\(Layout.plain(line))”")
        }
        out += audit.cuts
        for menu in audit.menus {
            for label in menu.labels where !plain.contains(where: { $0.contains(label) }) {
                out.append("menu entry not drawn: “\(label)”")
            }
            if menu.labels.indices.contains(menu.selected) {
                let label = menu.labels[menu.selected]
                if !plain.contains(where: { $0.contains(Screens.marker + " " + label) }) {
                    out.append("cursor not drawn on “\(label)”")
                }
            } else if !menu.labels.isEmpty {
                out.append("cursor on entry \(menu.selected + 1) of \(menu.labels.count)")
            }
        }
        // One key style in every menu: each entry's key a
        // letter (or the rules' ?), no two alike.
        for keys in audit.menuKeys {
            if let bad = keys.first(where: { !($0.count == 1 && ($0.first?.isLetter == true || $0 == "?")) }) {
                out.append("menu key “\(bad)” is not a letter: \(keys)")
            }
            if Set(keys).count != keys.count { out.append("two menu entries share a key: \(keys)") }
        }
        for hint in audit.hints where !plain.contains(where: { $0.contains(hint) }) {
            out.append("key hint not drawn whole: “\(hint)”")
        }
        // One quit key everywhere, in every screen's key help.
        if !audit.hints.contains(where: { $0.hasPrefix("Ctrl-C") }) {
            out.append("the quit key (Ctrl-C) is not in the key help")
        }
        return out
    }

    /// Every state at `sizes` in both languages: each problem once, with
    /// the first screen that shows it (`label` names where the state came
    /// from), and the number of renders.
    static func audit(_ states: [(label: String, state: ClientState)], sizes: [(Int, Int)] = sizes,
                      longNames: Bool = false) -> (failures: [String: String], renders: Int) {
        var failures: [String: String] = [:]
        var renders = 0
        for (label, s) in states {
            for language in languages {
                for (w, h) in sizes {
                    renders += 1
                    for p in problems(s, width: w, height: h, language: language, longNames: longNames) {
                        let screen = LayoutAudit.$current.withValue(LayoutAudit(longNames: longNames)) {
                            Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
                        }
                        failures[p] = failures[p] ?? "\(label)\(s.screen) at \(w)×\(h) in \(language):\n" + screen.joined(separator: "\n")
                    }
                }
            }
        }
        return (failures, renders)
    }

    /// Records the first 40 problems, each with its screen.
    static func record(_ failures: [String: String]) {
        for (problem, screen) in failures.sorted(by: { $0.key < $1.key }).prefix(40) {
            Issue.record("\(problem)\n\(screen)")
        }
    }

    @Test("Every screen in every state fits 60×20, 80×24 and 120×40 in English and Dutch: nothing cut, every menu entry, cursor and key hint drawn")
    func everyScreenFits() async throws {
        let states = try await LayoutTests.corpus()
        let screens = Set(states.map { "\($0.screen)" })
        let (failures, renders) = LayoutTests.audit(states.map { ("", $0) })
        print("Layout test: \(screens.count) screens, \(states.count) states × \(LayoutTests.sizes.count) sizes × \(LayoutTests.languages.count) languages = \(renders) renders")
        #expect(renders == states.count * 6)
        #expect(states.count > 300, "too few states collected: \(states.count)")
        LayoutTests.record(failures)
        #expect(failures.isEmpty, "\(failures.count) layout problems")
    }

    /// The reducer tests' names are short (alice, bob),
    /// so a screen that cut a real player's name never failed above. Every
    /// state again at 60×20, each player's name drawn 16 characters long
    /// (the longest a name may be, padded with W).
    @Test("Every state again at 60×20 with every player's name 16 characters long, in English and Dutch: nothing cut")
    func longNamesFit() async throws {
        let states = try await LayoutTests.corpus()
        let (failures, _) = LayoutTests.audit(states.map { ("", $0) }, sizes: [(60, 20)], longNames: true)
        LayoutTests.record(failures)
        #expect(failures.isEmpty, "\(failures.count) layout problems with long names")
    }

    @Test("Below 60×20, one screen: make the window larger (both languages), whatever the state")
    func tooSmall() {
        for language in LayoutTests.languages {
            let s = Fx.inGame(fragment: "pe", language: language)
            for (w, h) in [(59, 20), (60, 19), (40, 12), (20, 6)] {
                let lines = Screens.render(s, width: w, height: h, strings: .forLanguage(language)).map(Layout.plain)
                #expect(lines.count == h)
                #expect(lines.allSatisfy { Layout.visibleWidth($0) <= w })
                let text = lines.joined(separator: " ")
                #expect(text.contains(language == "en" ? "larger" : "groter"), "\(w)×\(h) \(language): \(lines)")
                #expect(!text.contains("bob"))
            }
        }
    }

    @Test("Every reducer and screen test is in the layout corpus (run scripts/layout-corpus.py after adding one)")
    func corpusIsComplete() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        var missing: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where file.hasSuffix(".swift") {
            if ["EndToEnd", "TLS", "KeyDecoder", "ConfigAndOptions", "LayoutTests", "LayoutCorpus"].contains(where: file.contains) { continue }
            let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var suite = ""
            var afterTest = false
            for line in lines {
                let t = line.trimmingCharacters(in: .whitespaces)
                if let r = t.range(of: #"(struct|class|enum) \w+"#, options: .regularExpression), !line.hasPrefix(" ") {
                    suite = String(t[r].split(separator: " ")[1])
                }
                if t.hasPrefix("@Test") { afterTest = true }
                if afterTest, let r = t.range(of: #"func \w+"#, options: .regularExpression) {
                    let name = t[r].dropFirst(5)
                    let key = "\(file): \(suite).\(name)"
                    if !LayoutCorpus.called.contains(key) { missing.append(key) }
                    afterTest = false
                }
            }
        }
        #expect(missing.isEmpty, "not in LayoutCorpus.swift: \(missing)")
    }
}
