import Foundation
import Testing
import TestSupport

/// Protocol.md's annotated sessions are real runs: each is played against a
/// fresh ghostd, and every line the server sends must be the document's,
/// but for the fields a session marks `random:` (Support/ProtocolSessions.swift
/// says how a session is written). `scripts/protocol-sessions.sh` writes the
/// runs into the document (GHOSTD_WRITE_SESSIONS=1), keeping its annotations;
/// without it the test checks that writing them would change no byte.
@Suite(.ownThread) struct ProtocolSessionTests {
    static var documentPath: String { DaemonProcess.packageRoot + "/Protocol.md" }

    /// No durability wait, watchers' lines at once, the computer at once:
    /// the lines are those of the defaults, only sooner.
    static let arguments = ["--durability", "normal", "--watch-batch", "0", "--bot-delay", "0"]

    @Test func everyAnnotatedSessionIsWhatTheServerSends() throws {
        let text = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let sessions = try ProtocolSession.parse(lines)
        #expect(sessions.count >= 7, "Protocol.md's sessions: \(sessions.map(\.name))")
        let write = ProcessInfo.processInfo.environment["GHOSTD_WRITE_SESSIONS"] == "1"
        var rewritten: [(range: Range<Int>, lines: [String])] = []
        for session in sessions {
            let daemon = try DaemonProcess.start(extraArguments: Self.arguments)
            let run = try session.play(port: daemon.port)
            rewritten += session.blocks.map { ($0.first..<$0.end, session.rendered($0, run)) }
            if !write {
                for d in session.differences(run) { Issue.record(Comment(rawValue: d)) }
            }
            _ = daemon.terminate()
        }
        for r in rewritten.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            lines.replaceSubrange(r.range, with: r.lines)
        }
        let written = lines.joined(separator: "\n")
        guard write else {
            // What scripts/protocol-sessions.sh would write is the document,
            // byte for byte: its annotations, spacing and random values kept.
            if written != text {
                let old = text.components(separatedBy: "\n"), new = written.components(separatedBy: "\n")
                let first = old.indices.first { !new.indices.contains($0) || old[$0] != new[$0] } ?? old.count
                Issue.record("rewriting the sessions would change Protocol.md from line \(first + 1): “\(old.indices.contains(first) ? old[first] : "")” → “\(new.indices.contains(first) ? new[first] : "")”")
            }
            return
        }
        try written.write(toFile: Self.documentPath, atomically: true, encoding: .utf8)
    }

    /// The reader of sessions itself: annotations, actions and random values.
    @Test func aSessionIsReadAsItIsWritten() throws {
        let doc = """
        <!-- session: demo
        terminals: ann
        random: token
        hidden bob: NAME bob | SEEK
        steps: ann bob ann:drop
        -->
        ```
        HELLO x
        > NAME ann                                        ← she names herself
        OK NAME name=ann lang=en
                                                          which is kept
        (ann's connection drops)
        ```
        <!-- /session -->
        """
        let s = try #require(try ProtocolSession.parse(doc.components(separatedBy: "\n")).first)
        #expect(s.name == "demo")
        #expect(s.random == ["token"])
        #expect(s.hidden["bob"] == ["NAME bob", "SEEK"])
        #expect(s.steps == [.send("ann"), .send("bob"), .drop("ann")])
        #expect(s.blocks.map(\.terminal) == ["ann"])
        #expect(s.blocks[0].items.map(\.kind) == [.server, .typed, .server, .action])
        #expect(s.blocks[0].items[1].text == "NAME ann")
        #expect(s.blocks[0].items[1].note == "← she names herself")
        #expect(s.blocks[0].items[2].continuation.count == 1)
        #expect(ProtocolSession.replace("4EG7RK2M", with: "ABCD1234", in: "JOIN 4eg7rk2m") == "JOIN ABCD1234")
        #expect(ProtocolSession.replace("pea", with: "x", in: "pear pea") == "pear x")
    }
}
