import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// A new player's findings against a real ghostd, with real clients in tmux.
@Suite("EndToEnd: issue 27 (fixed keys, 60×20, two windows)", .ownThread, .serialized)
struct Issue27EndToEndTests {
    /// Starts `label`'s client (settings file of `configOf`) and signs in.
    static func signIn(_ tmux: Tmux, _ label: String, port: Int) throws {
        try HangmanEndToEndTests.writeConfig(tmux, label, name: label)
        try HangmanEndToEndTests.start(tmux, label, port: port)
        try tmux.waitFor(label, text: "Name: _")
        try tmux.type(label, label)
        try tmux.keys(label, "Enter")
        try tmux.waitFor(label, text: "Playing as \(label)")
    }

    @Test("Found 1 and 7 at 60×20: the game menu shows its fixed letters (l leave, b back) and is modal, leaving asks first, Ctrl-C is in the key help, and the end-of-game menu shows all five entries with their letters")
    func fixedKeysAt60x20() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        for who in ["carol", "dave"] {
            try tmux.newSession(who, width: 60, height: 20)
            try Self.signIn(tmux, who, port: daemon.port)
            try tmux.type(who, "1")
        }
        // One letter played by whoever starts (a game left before any letter ends with no score).
        let started = try tmux.waitFor("carol", "the game") { s in s.contains { $0.contains("Your turn: type a letter") || $0.contains("is thinking") } }
        let first = started.contains { $0.contains("Your turn: type a letter") } ? "carol" : "dave"
        try tmux.waitFor(first == "carol" ? "dave" : "carol", text: "is thinking")
        try tmux.type(first, "p")
        try tmux.waitFor("carol", text: "“P” · 1 letter")
        try tmux.keys("carol", "Escape")
        let menu = try tmux.waitFor("carol", text: "l  Leave the game (you lose)")
        #expect(menu.contains { $0.contains("b  Back to the game") })
        #expect(menu.contains { $0.contains("r  Restart the round") })
        #expect(menu.contains { $0.contains("n  Play in Dutch") })
        #expect(menu.contains { $0.contains("Ctrl-C quit") })
        // The menu is modal: a letter no entry has plays nothing; l leaves, asking first.
        try tmux.type("carol", "z")
        try tmux.type("carol", "l")
        try tmux.waitFor("carol", text: "Leave and lose this game? y: yes · n: no")
        #expect(!(try tmux.capture("carol")).contains { $0.contains("“PZ”") })
        try tmux.type("carol", "y")
        // Both see the end at 60×20, every entry of its menu drawn with its letter, each in their own words.
        let over = try tmux.waitFor("carol", text: "s  High scores")
        #expect(over.contains { $0.contains("You left the game.") })
        #expect(over.contains { $0.contains("▶ r  Rematch") })
        #expect(over.contains { $0.contains("Ctrl-C quit") })
        let winner = try tmux.waitFor("dave", text: "s  High scores")
        #expect(winner.contains { $0.contains("carol left the game.") })
        #expect(winner.contains { $0.contains("r  Rematch") })
        #expect(winner.allSatisfy { $0.count <= 60 })
    }

    @Test("Found 11: a second window on the same settings file takes the game; once it quits, the first window's player picks the name and the game resumes, its token kept")
    func twoWindowsOneConfig() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        for who in ["erin", "fred"] {
            try tmux.newSession(who)
            try Self.signIn(tmux, who, port: daemon.port)
            try tmux.type(who, "1")
        }
        try tmux.waitFor("erin", text: " vs ")
        let config = tmux.folder + "/erin/config"
        let token = try #require(try String(contentsOfFile: config, encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("token=") })
        // A second window with erin's settings file resumes her game there.
        try tmux.newSession("erin2")
        try tmux.waitFor("erin2", "the shell prompt") { $0.last(where: { !$0.isEmpty }) == "$" }
        let command = try ClientEndToEndTests.clientCommand(tmux, "erin", port: daemon.port, noColour: true)
            .replacingOccurrences(of: "/erin.pid", with: "/erin2.pid")
        // The first connection opened from here on is the second window's.
        let logged = daemon.stderrLines.count
        try tmux.shell("erin2", command)
        try tmux.waitFor("erin2", text: " vs ")
        try tmux.waitFor("erin", text: "Your game was resumed in another window")
        let opened = try #require(daemon.stderrLines.dropFirst(logged).first { $0.contains(" opened from ") },
                                  "no connection of the second window in the log")
        let r = try #require(opened.range(of: "connection "))
        let erin2 = opened[r.upperBound...].prefix(while: \.isNumber)
        // The second window quits (the game waits); once ghostd has closed its
        // connection, the first picks the name: the game comes back.
        try tmux.quit("erin2")
        try tmux.waitFor("erin2", text: "Your game waits for you")
        #expect(daemon.waitForStderrLine(timeout: 30) { $0.contains("connection \(erin2) closed") } != nil,
                "ghostd did not log closing the second window's connection \(erin2)")
        try tmux.keys("erin", "Enter")
        let back = try tmux.waitFor("erin", "the game back, or a refusal") { s in
            s.contains { $0.contains(" vs ") } || s.contains { $0.contains("in use") || $0.contains("Playing as") }
        }
        #expect(back.contains { $0.contains(" vs ") }, "\(back.joined(separator: "\n"))")
        #expect(back.contains { $0.contains("erin (you)") })
        #expect(try String(contentsOfFile: config, encoding: .utf8).contains(String(token)))
    }
}
