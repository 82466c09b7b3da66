import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import GhostClient

/// A new player's findings played as written: real ghost-clients in tmux (80×24)
/// against a real ghostd on an ephemeral port.
@Suite("EndToEnd: issue 44, a new player's findings", .ownThread, .serialized)
struct Issue44EndToEndTests {
    static let password = "Zq7 plover yacht"

    /// Item 1: `?` in a Hangman game showed Ghost's first page, and Esc then
    /// drew a Ghost board, where letters were sent and missed unseen.
    @Test("Item 1: ? in a Hangman game shows Hangman's rules; Esc returns to the Hangman screen, where a letter is a guess you see")
    func rulesInHangman() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("alice")
        try HangmanEndToEndTests.writeConfig(tmux, "alice", name: "alice", game: "hangman")
        try HangmanEndToEndTests.start(tmux, "alice", port: daemon.port, extra: "--game hangman")
        try tmux.waitFor("alice", text: "Your turn: guess a letter")
        try tmux.waitFor("alice", text: "Misses left: 8 of 8")

        try tmux.type("alice", "?")
        var screen = try tmux.waitFor("alice", text: "How to play (7/8)")
        #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "Hangman" }, "\(screen.joined(separator: "\n"))")
        try tmux.keys("alice", "Escape")
        screen = try tmux.waitFor("alice", text: "Misses left: 8 of 8")
        #expect(screen[0].hasPrefix(" ghostd · Hangman · evil · English"), "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("no letters yet") || $0.contains("Computer (hangman) vs") })
        // A letter is a guess, and the screen shows it.
        try tmux.type("alice", "e")
        screen = try tmux.waitFor("alice", text: "You guessed E")
        #expect(screen.contains { $0.contains(" E✓") || $0.contains(" E✗") }, "\(screen.joined(separator: "\n"))")
        try tmux.quit("alice")
    }

    /// A window signs in under a guest name (retrying Enter if the connection
    /// was not up yet), then logs in to the registered `bob` from the main
    /// screen's 9 (change name): never without a name, so the daemon's short
    /// `--name-timeout` closes neither window before the test means it to.
    static func logInAsBob(_ tmux: Tmux, _ label: String, port: Int) throws {
        try HangmanEndToEndTests.start(tmux, label, port: port)
        try AccountEndToEndTests.waitForNameScreen(tmux, label)
        try tmux.type(label, label)
        try tmux.keys(label, "Enter")
        while true {
            let s = try tmux.waitFor(label, "named, or not connected yet") { s in
                s.contains { $0.contains("Playing as \(label)") } || s.contains { $0.contains("Not connected to the server yet") }
            }
            if s.contains(where: { $0.contains("Playing as \(label)") }) { break }
            try AccountEndToEndTests.waitForNameScreen(tmux, label)
            try tmux.keys(label, "Enter")
        }
        try tmux.keys(label, "9")
        try AccountEndToEndTests.waitForNameScreen(tmux, label)
        try tmux.type(label, "bob")
        try tmux.keys(label, "Enter")
        try AccountEndToEndTests.typePassword(tmux, label, password)
        try tmux.waitFor(label, text: "Playing as bob")
    }

    /// Item 2: bob logged in from a second window silently un-named the first,
    /// and the two took the name from each other at every name-timeout.
    @Test("Item 2: bob logged in from a second window: the first says it is signed out, and does not log in again")
    func oneNameTwoWindows() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--name-timeout", "3"])
        defer { daemon.kill() }
        // bob is registered.
        let c = try LineClient(port: daemon.port)
        try c.login("bob")
        try c.send("REGISTER \(Self.password)")
        _ = try c.expectPrefix("OK REGISTER")
        c.close()

        let tmux = try Tmux()
        defer { tmux.kill() }
        for label in ["ann", "cat"] {
            try tmux.newSession(label)
            try AccountEndToEndTests.writeConfig(tmux, label)
        }
        try Self.logInAsBob(tmux, "ann", port: daemon.port)
        try Self.logInAsBob(tmux, "cat", port: daemon.port)
        // The first window says why it has no name now, on the name screen.
        let first = try tmux.waitFor("ann", "the name screen, saying why") { s in
            s.contains { $0.contains("You logged in from another window; this one is signed out.") } && s.contains { $0.contains("Name: ") }
        }
        #expect(!first.contains { $0.contains("Playing as bob") }, "\(first.joined(separator: "\n"))")
        // It connects again and sends no NAME: the daemon closes that
        // connection too for want of one, while the second window keeps bob.
        let timeouts = { daemon.stderrLines.filter { $0.contains("no NAME or RESUME within") }.count }
        let before = timeouts()
        #expect(before >= 1, "\(daemon.stderrText)")
        let deadline = monotonicNow() + 30
        while timeouts() == before, monotonicNow() < deadline { usleep(50_000) }
        #expect(timeouts() > before, "\(daemon.stderrText)")
        #expect(!(try tmux.capture("ann")).contains { $0.contains("Playing as bob") })
        let second = try tmux.capture("cat")
        #expect(second.contains { $0.contains("Playing as bob") }, "\(second.joined(separator: "\n"))")
        #expect(!second.contains { $0.contains("signed out") })
        try tmux.quit("ann")
        try tmux.quit("cat")
    }

    /// Item 3: a registered player whose game ended while away (lost on time)
    /// restarted the client, logged in, and landed on the main screen: no
    /// result, and the token gone. Now the result comes once logged in.
    @Test("Item 3: bob (registered) lost on time while away; the restarted client asks the password, then shows the result, and m goes to the main screen")
    func registeredResultAfterAway() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let bob = try LineClient(port: daemon.port, label: "bob")
        try bob.login("bob")
        try bob.send("REGISTER \(Self.password)")
        _ = try bob.expectPrefix("OK REGISTER")
        let alice = try LineClient(port: daemon.port, label: "alice")
        defer { alice.close() }
        try alice.login("alice")
        try bob.send("NEW clock=5")
        let code = try #require(try bob.expectPrefix("OK NEW code=").split(separator: " ").first { $0.hasPrefix("code=") }?.dropFirst(5))
        try alice.send("JOIN \(code)")
        let game = try bob.readUntil(prefix: "GAME id=").line
        let token = try #require(game.split(separator: " ").first { $0.hasPrefix("token=") }?.dropFirst(6))
        // bob goes away (as a client killed with -9 would) and loses on time.
        bob.close()
        _ = try alice.readUntil(prefix: "OVER id=", timeout: 30)

        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("bob")
        try FileManager.default.createDirectory(atPath: "\(tmux.folder)/bob", withIntermediateDirectories: true)
        try "language=en\ntutorial=seen\nname=bob\ngame=ghost\ntoken=\(token)\n"
            .write(toFile: "\(tmux.folder)/bob/config", atomically: true, encoding: .utf8)
        try HangmanEndToEndTests.start(tmux, "bob", port: daemon.port)
        try AccountEndToEndTests.typePassword(tmux, "bob", Self.password)
        let screen = try tmux.waitFor("bob", text: "This game ended while you were away")
        #expect(screen.contains { $0.contains("You ran out of time.") }, "\(screen.joined(separator: "\n"))")
        #expect(!(try String(contentsOfFile: "\(tmux.folder)/bob/config", encoding: .utf8)).contains("token="))
        try tmux.type("bob", "m")
        try tmux.waitFor("bob", text: "Playing as bob")
        try tmux.quit("bob")
    }
}
