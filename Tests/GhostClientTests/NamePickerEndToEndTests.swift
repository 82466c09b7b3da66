import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// The rename-30,000-times attack leaves NAMES and
/// ghost-client's name picker working. A real ghostd, the attack over a raw
/// socket, then a real ghost-client in tmux (80×24).
@Suite("EndToEnd: the name picker after a rename flood", .ownThread, .serialized)
struct NamePickerEndToEndTests {
    /// The names of a NAMES reply (`NAME name=<n>` lines), in order.
    static func names(_ c: LineClient, _ command: String) throws -> (names: [String], ok: String) {
        try c.send(command)
        let reply = try c.readUntil(prefix: "OK NAMES ")
        return (reply.skipped.compactMap { $0.hasPrefix("NAME name=") ? String($0.dropFirst(10)) : nil }, reply.line)
    }

    /// The screen's rows after the one that is exactly `heading` (margins trimmed).
    static func rows(after heading: String, in screen: [String]) -> [String] {
        let trimmed = screen.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let i = trimmed.firstIndex(of: heading) else { return [] }
        return Array(trimmed[(i + 1)...])
    }

    @Test("After 30,000 renames from one connection, the picker lists this client's name first, then the server's most recent; typing u2999 finds the server's; a name picked reaches the main screen")
    func afterRenameFlood() throws {
        // DaemonProcess passes --max-new-names-per-minute 0: every rename takes a new name.
        let daemon = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "0", "--durability", "normal"])
        defer { daemon.kill() }
        let attacker = try LineClient(port: daemon.port, label: "attacker")
        let started = monotonicNow()
        let taken = try RenameFlood.rename30000(attacker)
        #expect(taken.ok == 30_000 && taken.limited == 0, "\(taken)")
        let attack = monotonicNow() - started
        // Gone, so that its last name (u29999) is free to take.
        try attacker.send("QUIT")
        try attacker.expect(lines: ["OK QUIT", "BYE quit goodbye"])
        try attacker.expectClosed()

        // What the server holds now, as a plain NAMES client sees it.
        let asker = try LineClient(port: daemon.port, label: "asker")
        let recent = try Self.names(asker, "NAMES")
        #expect(recent.ok == "OK NAMES count=20 more=yes")
        // The attacker's names (last_seen has whole seconds, and names seen in
        // the same second are listed by name, so which u-names come first
        // depends on where a second's boundary fell).
        #expect(recent.names.count == 20 && recent.names.allSatisfy { $0.hasPrefix("u") }, "\(recent.names)")
        let found = try Self.names(asker, "NAMES prefix=u2999")
        #expect(found.ok == "OK NAMES count=10 more=no")
        #expect(found.names.sorted() == (0...9).map { "u2999\($0)" })

        // A returning player whose settings file holds the name zoe (an older file: name= only).
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("zoe")
        try HangmanEndToEndTests.writeConfig(tmux, "zoe", name: "zoe")
        try HangmanEndToEndTests.start(tmux, "zoe", port: daemon.port)
        let first = try tmux.waitFor("zoe", "the server's most recent names") { $0.contains { $0.hasSuffix(" " + recent.names[0]) } }
        // This client's name first (picked), then the server's, in the server's order, as many as fit.
        let mine = Self.rows(after: "Used from this computer:", in: first)
        #expect(mine.first == "▶ zoe", "\(first.joined(separator: "\n"))")
        #expect(mine.dropFirst().first == "Recently used on this server:")
        let listed = Array(mine.dropFirst(2).prefix(while: { !$0.isEmpty && !$0.hasPrefix("…") }))
        #expect(listed.count >= 10 && listed == Array(recent.names.prefix(listed.count)), "\(first.joined(separator: "\n"))")

        // Typing searches the server: the ten names that start with u2999, in its order.
        try tmux.type("zoe", "u2999")
        let search = try tmux.waitFor("zoe", "the names starting with u2999") { screen in
            Self.rows(after: "On this server, starting with “u2999”:", in: screen).prefix(while: { !$0.isEmpty }) == ArraySlice(found.names)
        }
        #expect(search.contains { $0.hasPrefix("  ▶ Name: u2999_") })
        #expect(!search.contains { $0.contains("zoe") || $0.contains("and more") })

        // ↓ picks the first of them; Enter takes it: the main screen, and the settings file remembers it first.
        try tmux.keys("zoe", "Down", "Enter")
        try tmux.waitFor("zoe", text: "Playing as \(found.names[0])")
        let config = try String(contentsOfFile: tmux.folder + "/zoe/config", encoding: .utf8)
        #expect(config.contains("\nname=\(found.names[0])\n") && config.contains("\nnames=\(found.names[0]),zoe\n"), "\(config)")
        try asker.ping()
        #expect(daemon.isRunning)
        print("picker after a rename flood: 30,000 renames in \(String(format: "%.1f", attack)) s; the picker listed \(listed.count) of the server's 20")
    }
}
