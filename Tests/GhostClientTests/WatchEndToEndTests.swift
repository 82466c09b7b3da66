import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// A real ghost-client watching a real game on a real ghostd: alice
/// plays in her own ghost-client, bob over a raw socket, and carol's
/// ghost-client lists the games in progress, watches theirs move by move,
/// never sees a token, and shows the end; alice's screen shows the count.
@Suite("EndToEnd: watching in ghost-client", .ownThread, .serialized)
struct WatchEndToEndTests {
    @Test("The list shows the game; watching shows each move and no token; the player sees “1 watching”; Esc stops; the end shows who won")
    func watchAGame() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("alice")
        try tmux.newSession("carol")
        try HangmanEndToEndTests.writeConfig(tmux, "alice", name: "alice")
        try HangmanEndToEndTests.writeConfig(tmux, "carol", name: "carol")

        // alice opens a private game; bob joins it over a raw socket.
        try HangmanEndToEndTests.signIn(tmux, "alice", port: daemon.port)
        try tmux.waitFor("alice", text: "Playing as alice")
        try tmux.keys("alice", "3")
        let hosting = try tmux.waitFor("alice", text: "Your private game code:")
        let codeLine = try #require(hosting.first { $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil })
        let code = codeLine.replacingOccurrences(of: " ", with: "")
        let bob = try LineClient(port: daemon.port, label: "bob")
        try bob.login("bob")
        try bob.send("JOIN \(code)")
        let game = try bob.readUntil(prefix: "GAME ").line
        let bobToken = try #require(game.split(separator: " ").first { $0.hasPrefix("token=") }).dropFirst("token=".count)
        try tmux.waitFor("alice", text: "Your turn: type a letter")
        let aliceToken = try #require(try String(contentsOfFile: tmux.folder + "/alice/config", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("token=") }).dropFirst("token=".count)

        // carol: w on the main screen lists it.
        try HangmanEndToEndTests.signIn(tmux, "carol", port: daemon.port)
        let main = try tmux.waitFor("carol", text: "Playing as carol")
        #expect(main.contains { $0.contains("w watch games") })
        try tmux.type("carol", "w")
        let list = try tmux.waitFor("carol", text: "▶ alice vs bob — Ghost")
        #expect(list[0].hasPrefix(" ghostd · Games in progress"))
        #expect(list.contains { $0.contains("English · 0 moves · nobody watching") })

        // Enter watches: the board, read-only; alice sees one watcher, bob is told too.
        try tmux.keys("carol", "Enter")
        var watching = try tmux.waitFor("carol", text: "Watching alice vs bob · Esc: stop watching")
        #expect(watching[0].hasPrefix(" ghostd · Watching · Ghost · English · round 1"))
        #expect(watching.contains { $0.contains("alice is thinking…") })
        try tmux.waitFor("alice", text: "alice · 1 watching")
        try bob.readUntil(prefix: "WATCHERS id=")

        // A move appears on the watcher's screen; the watcher's letters play nothing.
        try tmux.type("alice", "p")
        watching = try tmux.waitFor("carol", text: "“P” · 1 letter · alice played P")
        try tmux.type("carol", "x")
        try bob.readUntil(prefix: "TURN ")
        try bob.send("LETTER e")
        watching = try tmux.waitFor("carol", text: "“PE” · 2 letters · bob played E")
        try tmux.waitFor("alice", text: "Your turn: type a letter")
        #expect(!watching.joined().contains("“PEX”") && !watching.joined().contains("PEX"))
        var screens = [list, watching]

        // Esc stops watching: back on the list; alice's count goes.
        try tmux.keys("carol", "Escape")
        screens.append(try tmux.waitFor("carol", text: "▶ alice vs bob — Ghost"))
        try tmux.waitFor("alice", "the count gone") { !$0[0].contains("watching") }

        // Watch again, to the end: PEAR is a word, bob loses.
        try tmux.keys("carol", "Enter")
        screens.append(try tmux.waitFor("carol", text: "“PE” · 2 letters · bob played E"))
        try tmux.type("alice", "a")
        try tmux.waitFor("carol", text: "“PEA” · 3 letters · alice played A")
        try bob.readUntil(prefix: "TURN id=")
        try bob.send("LETTER r")
        let end = try tmux.waitFor("carol", text: "alice wins!")
        #expect(end.contains { $0.contains("The game is over · Enter or Esc: back to the list") })
        screens.append(end)
        for screen in screens {
            let text = screen.joined(separator: "\n")
            #expect(!text.contains(bobToken) && !text.contains(aliceToken), "\(text)")
        }
        #expect(!(try String(contentsOfFile: tmux.folder + "/carol/config", encoding: .utf8).contains("token=")))
        try tmux.keys("carol", "Enter")
        try tmux.waitFor("carol", text: "Games in progress")
        for who in ["alice", "carol"] {
            try tmux.quit(who)
            try ClientEndToEndTests.expectRestored(tmux, who)
        }
    }

    @Test("Hangman watched: the gallows and the pattern move with each guess, read-only; the end says why; Enter goes back to the list")
    func watchHangman() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("carol", width: 60, height: 20)
        try HangmanEndToEndTests.writeConfig(tmux, "carol", name: "carol", game: "hangman")
        // ann guesses the computer's word over a raw socket.
        let ann = try LineClient(port: daemon.port, label: "ann")
        try ann.login("ann")
        try ann.send("NEW game=hangman")
        try ann.readUntil(prefix: "TURN ")

        try HangmanEndToEndTests.signIn(tmux, "carol", port: daemon.port)
        try tmux.waitFor("carol", text: "● Hangman")
        try tmux.type("carol", "w")
        try tmux.waitFor("carol", text: "▶ Computer vs ann — Hangman (evil)")
        try tmux.keys("carol", "Enter")
        var screen = try tmux.waitFor("carol", text: "ann is guessing…")
        #expect(screen[0].hasPrefix(" ghostd · Watching · Hangman · evil · English"))
        #expect(screen.contains { $0.contains("Misses left: 8 of 8") })
        #expect(screen[19].hasPrefix(" Watching Computer vs ann · Esc: stop"), "\(screen[19])")
        try ann.send("LETTER e")
        screen = try tmux.waitFor("carol", text: "ann guessed E")
        #expect(screen.contains { $0.contains(" E✓") || $0.contains(" E✗") })
        // carol's letters guess nothing.
        try tmux.type("carol", "a")
        try ann.send("LETTER o")
        screen = try tmux.waitFor("carol", text: "ann guessed O")
        #expect(!screen.contains { $0.contains(" A✓") || $0.contains(" A✗") })
        try ann.send("LEAVE")
        screen = try tmux.waitFor("carol", text: "The game is over")
        #expect(screen.contains { $0.contains("ann left the game.") || $0.contains("Ann left the game.") }, "\(screen.joined(separator: "\n"))")
        try tmux.keys("carol", "Enter")
        try tmux.waitFor("carol", text: "No games in progress.")
        try tmux.quit("carol")
        try ClientEndToEndTests.expectRestored(tmux, "carol")
    }
}
