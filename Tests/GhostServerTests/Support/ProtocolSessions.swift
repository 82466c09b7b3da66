import Foundation
import Testing
import TestSupport

/// Protocol.md's annotated sessions, replayed against a real ghostd.
///
/// A session in the document is everything between
/// `<!-- session: <name>` … `-->` and `<!-- /session -->`. The opening
/// comment says how to play it:
///
///     <!-- session: ghost-basic
///     terminals: alice bob           (the code blocks that follow, in order)
///     random: token code             (fields whose values are random)
///     hidden bob: NAME bob | JOIN 4EG7RK2M | e     (a player not shown)
///     steps: alice alice bob bob:drop alice:wait=ADJOURNED bob …
///     -->
///
/// In a terminal's block, `> ` starts a line the client types, a line in
/// parentheses is something that happens to the connection (it drops), an
/// indented line or the text from `←` on is an annotation; every other line
/// is what the server sends. `steps` orders the clients: `alice` sends
/// alice's next typed line (after a drop, from a new connection, which reads
/// its `HELLO` first), `alice:drop` closes her connection, and
/// `alice:wait=ADJOURNED` reads her lines until one starts with `ADJOURNED`
/// (for what the server does by itself: a dropped opponent, the computer).
/// After each step every open connection sends `PING` and reads up to its
/// `OK PING` (left out of the transcript), so what a step causes is in
/// every transcript before the next step: the run is the same every time.
///
/// A `random` field (`token=`, `code=`) matches any value; the document's
/// value stands for the run's wherever it appears later (a `RESUME` of the
/// token, the code in an `INFO` and a `JOIN`).
struct ProtocolSession {
    enum Kind: Equatable { case typed, server, action }

    struct Item {
        var kind: Kind
        var text: String
        /// The raw annotation, from `←` (nil: none), and where `←` stood.
        var note: String?
        var noteColumn: Int
        /// Indented lines that continue the annotation.
        var continuation: [String]
    }

    struct Block {
        var terminal: String
        /// Lines of the document inside the fence: [first, end).
        var first: Int
        var end: Int
        var items: [Item]
    }

    enum Step: Equatable {
        case send(String)
        case drop(String)
        case wait(String, prefix: String)
        /// What was received so far is not shown (the blocks start here).
        case reset
    }

    var name: String
    var random: Set<String> = []
    var hidden: [String: [String]] = [:]
    var hiddenOrder: [String] = []
    /// Lines a shown terminal types before its block starts (not shown).
    var before: [String: [String]] = [:]
    var steps: [Step] = []
    var blocks: [Block] = []

    // MARK: Reading the document

    /// Every session in `lines` (Protocol.md split on LF).
    static func parse(_ lines: [String]) throws -> [ProtocolSession] {
        var sessions: [ProtocolSession] = []
        var i = 0
        while i < lines.count {
            guard lines[i].hasPrefix("<!-- session:") else { i += 1; continue }
            var header: [String] = []
            var line = String(lines[i].dropFirst("<!-- session:".count))
            while true {
                let done = line.hasSuffix("-->")
                if done { line = String(line.dropLast(3)) }
                header.append(line.trimmingCharacters(in: .whitespaces))
                if done { break }
                i += 1
                guard i < lines.count else { throw SessionError("unterminated session header") }
                line = lines[i]
            }
            var s = ProtocolSession(name: header[0])
            var terminals: [String] = []
            for h in header.dropFirst() where !h.isEmpty {
                let colon = h.firstIndex(of: ":") ?? h.endIndex
                let key = h[..<colon].trimmingCharacters(in: .whitespaces)
                let value = colon < h.endIndex ? h[h.index(after: colon)...].trimmingCharacters(in: .whitespaces) : ""
                let words = value.split(separator: " ").map(String.init)
                if key == "terminals" { terminals = words }
                else if key == "random" { s.random = Set(words) }
                else if key == "steps" {
                    s.steps = words.map { w in
                        if w == "reset" { return .reset }
                        if w.hasSuffix(":drop") { return .drop(String(w.dropLast(5))) }
                        if let r = w.range(of: ":wait=") { return .wait(String(w[..<r.lowerBound]), prefix: String(w[r.upperBound...])) }
                        return .send(w)
                    }
                } else if key.hasPrefix("before ") {
                    s.before[String(key.dropFirst(7))] = value.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                } else if key.hasPrefix("hidden ") {
                    let t = String(key.dropFirst(7))
                    s.hiddenOrder.append(t)
                    s.hidden[t] = value.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                } else {
                    throw SessionError("session \(s.name): unknown header line \(h)")
                }
            }
            i += 1
            // The code blocks up to <!-- /session -->, one per terminal.
            while i < lines.count, !lines[i].hasPrefix("<!-- /session") {
                if lines[i].hasPrefix("```") {
                    let first = i + 1
                    var end = first
                    while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
                    guard s.blocks.count < terminals.count else { throw SessionError("session \(s.name): more blocks than terminals") }
                    s.blocks.append(Block(terminal: terminals[s.blocks.count], first: first, end: end,
                                          items: try items(lines[first..<end])))
                    i = end
                }
                i += 1
            }
            guard s.blocks.count == terminals.count else { throw SessionError("session \(s.name): \(terminals.count) terminals, \(s.blocks.count) blocks") }
            sessions.append(s)
            i += 1
        }
        return sessions
    }

    static func items(_ lines: ArraySlice<String>) throws -> [Item] {
        var out: [Item] = []
        for raw in lines {
            if raw.first == " " {
                guard !out.isEmpty else { throw SessionError("an annotation line before any line: \(raw)") }
                out[out.count - 1].continuation.append(raw)
                continue
            }
            var text = raw
            var note: String?
            var column = 0
            if let arrow = raw.range(of: "←") {
                column = raw.distance(from: raw.startIndex, to: arrow.lowerBound)
                note = String(raw[arrow.lowerBound...])
                text = String(raw[..<arrow.lowerBound])
                while text.last == " " { text.removeLast() }
            }
            let kind: Kind
            if text.hasPrefix("> ") { kind = .typed; text = String(text.dropFirst(2)) }
            else if text.hasPrefix("(") { kind = .action }
            else { kind = .server }
            out.append(Item(kind: kind, text: text, note: note, noteColumn: column, continuation: []))
        }
        return out
    }

    // MARK: Playing it

    /// What each visible terminal saw: typed lines as typed (the document's
    /// text), server lines with the run's random values written back as
    /// the document's.
    struct Transcript {
        var entries: [String: [(Kind, String)]] = [:]
    }

    /// Seconds to wait for a line: generous, as daemons of parallel tests share the CPU.
    static let timeout: Double = 30

    /// Plays the session against a daemon on `port`.
    func play(port: Int) throws -> Transcript {
        let visible = blocks.map(\.terminal)
        let order = visible + hiddenOrder
        var transcript = Transcript()
        var conns: [String: LineClient] = [:]
        var closed: Set<String> = []
        var nextTyped: [String: Int] = [:]
        /// Document value → the run's, and back.
        var bound: [(doc: String, run: String)] = []
        /// Every line each terminal received, and how far a `wait` has looked.
        var log: [String: [String]] = [:]
        var waited: [String: Int] = [:]

        func docItems(_ t: String) -> [Item]? { blocks.first { $0.terminal == t }?.items }

        func toRun(_ s: String) -> String {
            var s = s
            for b in bound where b.doc != b.run { s = Self.replace(b.doc, with: b.run, in: s) }
            return s
        }
        func toDoc(_ s: String) -> String {
            var s = s
            for b in bound where b.doc != b.run { s = Self.replace(b.run, with: b.doc, in: s) }
            return s
        }
        /// Records a line the server sent to `t`, learning random values
        /// from the document's line at the same place.
        func received(_ t: String, _ line: String) {
            log[t, default: []].append(line)
            if line.hasPrefix("BYE ") { closed.insert(t) }
            guard let items = docItems(t) else { return }
            let n = transcript.entries[t, default: []].count
            if n < items.count, items[n].kind == .server {
                let docFields = Self.fields(items[n].text), runFields = Self.fields(line)
                for key in random {
                    if let d = docFields[key], let r = runFields[key], !bound.contains(where: { $0.doc == d }) {
                        bound.append((d, r))
                    }
                }
            }
            transcript.entries[t, default: []].append((.server, toDoc(line)))
        }
        func connect(_ t: String) throws {
            let c = try LineClient(port: port, label: t, readHello: false, timeout: Self.timeout)
            conns[t] = c
            closed.remove(t)
            received(t, try c.readLine(timeout: Self.timeout))
        }
        func sync(_ t: String) throws {
            guard let c = conns[t], !closed.contains(t) else { return }
            guard c.trySend("PING") else { closed.insert(t); return }
            while !closed.contains(t) {
                let line = try c.readLine(timeout: Self.timeout)
                if line == "OK PING" { return }
                received(t, line)
            }
        }

        for t in order { try connect(t) }
        for step in steps {
            let t: String
            switch step {
            case .reset:
                for v in visible { transcript.entries[v] = [] }
                continue
            case .send(let who):
                t = who
                if conns[t] == nil { try connect(t) }
                let k = nextTyped[t, default: 0]
                let text: String
                let early = before[t] ?? []
                if k < early.count {
                    text = early[k]
                } else if let items = docItems(t) {
                    // The terminal's next typed line; an action on the way
                    // (its connection dropped) is recorded as it stands.
                    let typed = items.indices.filter { items[$0].kind == .typed }
                    let k = k - early.count
                    guard k < typed.count else { throw SessionError("\(name): \(t) has no typed line \(k + 1)") }
                    text = items[typed[k]].text
                } else {
                    guard let lines = hidden[t], k < lines.count else { throw SessionError("\(name): hidden \(t) has no line \(k + 1)") }
                    text = lines[k]
                }
                nextTyped[t] = k + 1
                if k >= early.count, docItems(t) != nil { transcript.entries[t, default: []].append((.typed, text)) }
                guard let c = conns[t] else { continue }
                try c.send(toRun(text), timeout: Self.timeout)
            case .drop(let who):
                t = who
                conns[t]?.close()
                conns[t] = nil
                closed.insert(t)
                if let items = docItems(t) {
                    let n = transcript.entries[t, default: []].count
                    let note = n < items.count && items[n].kind == .action ? items[n].text : "(the connection drops)"
                    transcript.entries[t, default: []].append((.action, note))
                }
            case .wait(let who, let prefix):
                t = who
                guard let c = conns[t] else { throw SessionError("\(name): \(t) waits, not connected") }
                // The line may have come already (read by the last step's PING).
                let seen = log[t, default: []]
                if let i = seen[min(waited[t, default: 0], seen.count)...].firstIndex(where: { $0.hasPrefix(prefix) }) {
                    waited[t] = i + 1
                } else {
                    while true {
                        let line = try c.readLine(timeout: Self.timeout)
                        received(t, line)
                        if line.hasPrefix(prefix) { break }
                    }
                    waited[t] = log[t, default: []].count
                }
            }
            try sync(t)
            for other in order where other != t { try sync(other) }
        }
        for t in order { conns[t]?.close() }
        return transcript
    }

    /// The `key=value` fields of a line (the first of each key).
    static func fields(_ line: String) -> [String: String] {
        var out: [String: String] = [:]
        for w in line.split(separator: " ") {
            guard let eq = w.firstIndex(of: "=") else { continue }
            let k = String(w[..<eq])
            if out[k] == nil { out[k] = String(w[w.index(after: eq)...]) }
        }
        return out
    }

    /// Replaces `value` as a whole word, in any case (a join code is typed in lowercase).
    static func replace(_ value: String, with other: String, in s: String) -> String {
        guard !value.isEmpty else { return s }
        let pattern = "(?<![A-Za-z0-9])" + NSRegularExpression.escapedPattern(for: value) + "(?![A-Za-z0-9])"
        guard let re = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return s }
        return re.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s),
                                           withTemplate: NSRegularExpression.escapedTemplate(for: other))
    }

    // MARK: Comparing and writing

    /// The differences between the document and a run, one line each (empty: none).
    func differences(_ run: Transcript) -> [String] {
        var out: [String] = []
        for b in blocks {
            let got = run.entries[b.terminal] ?? []
            let want = b.items.map { ($0.kind, $0.text) }
            for i in 0..<max(got.count, want.count) {
                let g = i < got.count ? Self.shown(got[i]) : "(nothing)"
                let w = i < want.count ? Self.shown(want[i]) : "(nothing)"
                if g != w {
                    out.append("\(name), \(b.terminal), line \(i + 1): the document has \"\(w)\", the server sent \"\(g)\"")
                    break
                }
            }
        }
        return out
    }

    static func shown(_ e: (Kind, String)) -> String { e.0 == .typed ? "> " + e.1 : e.1 }

    /// The block's lines written from the run, each keeping the document's
    /// annotation where the line at its place has the same keyword.
    func rendered(_ b: Block, _ run: Transcript) -> [String] {
        var out: [String] = []
        for (i, e) in (run.entries[b.terminal] ?? []).enumerated() {
            var line = Self.shown(e)
            let old = i < b.items.count ? b.items[i] : nil
            if let old, old.kind == e.0, Self.keyword(old.text) == Self.keyword(e.1) {
                if let note = old.note {
                    let column = line.count < old.noteColumn ? old.noteColumn : line.count + 3
                    line += String(repeating: " ", count: column - line.count) + note
                }
                out.append(line)
                out += old.continuation
            } else {
                out.append(line)
            }
        }
        return out
    }

    static func keyword(_ s: String) -> Substring { s.split(separator: " ").first ?? "" }
}

struct SessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
