import Foundation
import Testing
@testable import GhostClient
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Real ghost-client processes in real terminals (tmux, 80×24) against a real
/// ghostd: what each screen shows, resuming after a client restart and after a
/// daemon crash, and the terminal put back after every way out.
@Suite("EndToEnd: ghost-client in tmux", .ownThread, .serialized)
struct ClientEndToEndTests {
    /// The command that starts a client in a pane, recording its pid.
    static func clientCommand(_ tmux: Tmux, _ label: String, port: Int, noColour: Bool, extra: String = "") throws -> String {
        try tmux.clientCommand(label, port: port, noColour: noColour, extra: extra)
    }

    static func pid(_ tmux: Tmux, _ label: String) -> Int32? {
        (try? String(contentsOfFile: "\(tmux.folder)/\(label).pid", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// After the client has exited: the pane is back on the normal screen, and
    /// the terminal is in its cooked mode again (stty shows isig, icanon, echo).
    static func expectRestored(_ tmux: Tmux, _ session: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.waitFor(session, "the shell prompt after the client exits", sourceLocation: sourceLocation) { screen in
            // A fresh prompt at the end ("$"; "$ $" when the shell's prompt
            // lands after a line it had not finished drawing when the command was typed).
            screen.last(where: { !$0.isEmpty }).map { $0 == "$" || $0.hasSuffix(" $") } ?? false
        }
        #expect(try tmux.display(session, "#{alternate_on}") == "0", sourceLocation: sourceLocation)
        #expect(try tmux.display(session, "#{cursor_flag}") == "1", sourceLocation: sourceLocation)
        // The answer starts with "==", which the command line itself does not contain.
        try tmux.shell(session, "clear; echo \"=\"\"=\"$(stty -a | tr ' ' '\\n' | grep -xE -- '-?(isig|icanon|echo|opost)' | tr '\\n' ' ')")
        let screen = try tmux.waitFor(session, "stty's answer", sourceLocation: sourceLocation) { $0.contains { $0.hasPrefix("==") } }
        #expect(screen.contains("==opost isig icanon echo"), sourceLocation: sourceLocation)
        try tmux.shell(session, "clear")
        // Wait for the cleared screen, so that the next command typed is not
        // echoed before `clear` runs and then half wiped by it.
        try tmux.waitFor(session, "a cleared screen", sourceLocation: sourceLocation) { screen in
            screen.filter { !$0.isEmpty } == ["$"]
        }
    }

    @Test("Two clients play a whole game; a client restart and a daemon crash both resume; Ctrl-C restores the terminal")
    func wholeGame() throws {
        var daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("alice")
        try tmux.newSession("bob")

        // alice: first start in English, without colour.
        try tmux.shell("alice", try Self.clientCommand(tmux, "alice", port: daemon.port, noColour: true))
        try tmux.waitFor("alice", text: "Choose your language · Kies je taal")
        try tmux.keys("alice", "Enter")
        try tmux.waitFor("alice", text: "How to play (1/8)")
        try tmux.keys("alice", "Right")
        try tmux.waitFor("alice", text: "How you lose")
        try tmux.keys("alice", "Escape")
        try tmux.waitFor("alice", text: "Name: _")
        try tmux.type("alice", "alice")
        try tmux.keys("alice", "Enter")
        try tmux.waitFor("alice", text: "Playing as alice")
        try tmux.keys("alice", "i")
        let hosting = try tmux.waitFor("alice", text: "Your private game code:")
        let codeLine = try #require(hosting.first { $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil })
        let code = codeLine.replacingOccurrences(of: " ", with: "")

        // bob: first start in Dutch, with colour; joins with the code.
        try tmux.shell("bob", try Self.clientCommand(tmux, "bob", port: daemon.port, noColour: false))
        try tmux.waitFor("bob", text: "Choose your language · Kies je taal")
        try tmux.keys("bob", "Down", "Enter")
        try tmux.waitFor("bob", text: "Zo speel je (1/8)")
        try tmux.keys("bob", "Escape")
        try tmux.waitFor("bob", text: "Naam: _")
        try tmux.type("bob", "bob")
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("bob", text: "Je speelt als bob")
        try tmux.keys("bob", "j")
        try tmux.waitFor("bob", text: "Code: _")
        try tmux.type("bob", code.lowercased())
        try tmux.keys("bob", "Enter")

        // Both see the game: whose turn, in their own language.
        var a = try tmux.waitFor("alice", text: "Your turn: type a letter")
        #expect(a.contains { $0.contains("▶ alice (you)") && $0.contains("bob") })
        #expect(a.contains { $0.contains("— no letters yet —") })
        #expect(a.contains { $0.contains("[Q] [W] [E] [R] [T] [Y] [U] [I] [O] [P]") })
        var b = try tmux.waitFor("bob", text: "alice denkt na…")
        #expect(b.contains { $0.contains("▶  alice") && $0.contains("bob (jij)") })
        #expect(b[0].contains("Engels · ronde 1"))

        // A letter that is not a-z is refused locally; out of turn, by the server.
        try tmux.type("alice", "7")
        try tmux.waitFor("alice", text: "Letters only: type a letter a–z")
        try tmux.type("bob", "x")
        try tmux.waitFor("bob", text: "Je bent niet aan de beurt")

        try tmux.type("alice", "p")
        a = try tmux.waitFor("alice", text: "“P” · 1 letter · You played P")
        #expect(a.contains { $0.contains("████") })
        try tmux.waitFor("bob", text: "Jij bent aan de beurt: typ een letter")
        try tmux.type("bob", "e")
        try tmux.waitFor("alice", text: "“PE” · 2 letters · bob played E")
        b = try tmux.waitFor("bob", text: "“PE” · 2 letters · Jij speelde E")

        // bob quits with Ctrl-C mid-game, which asks first (j: yes); his terminal is restored, the game waits.
        try tmux.keys("bob", "C-c")
        try tmux.waitFor("bob", text: "Het programma stoppen? j: ja · n: nee")
        try tmux.type("bob", "j")
        b = try tmux.waitFor("bob", text: "Je spel wacht op je")
        try Self.expectRestored(tmux, "bob")
        try tmux.waitFor("alice", text: "bob is away; the game waits")
        #expect(try String(contentsOfFile: tmux.folder + "/bob/config", encoding: .utf8).contains("token="))

        // bob starts again: the stored token resumes his seat.
        try tmux.shell("bob", try Self.clientCommand(tmux, "bob", port: daemon.port, noColour: false))
        b = try tmux.waitFor("bob", text: "“PE” · 2 letters")
        #expect(b.contains { $0.contains("alice denkt na…") })
        try tmux.waitFor("alice", "bob back") { !$0.contains { $0.contains("bob is away") } }

        // The daemon crashes and comes back on the same port: both clients reconnect and resume.
        daemon.kill()
        try tmux.waitFor("alice", text: "Connection lost: reconnecting to 127.0.0.1:")
        try tmux.waitFor("bob", text: "Verbinding verbroken: opnieuw verbinden met 127.0.0.1:")
        daemon = try daemon.relaunch()
        try tmux.waitFor("alice", "the game back after the restart") { s in
            s.contains { $0.contains("Your turn: type a letter") } && !s.contains { $0.contains("reconnecting") }
                && s.contains { $0.contains("“PE” · 2 letters") }
        }
        try tmux.waitFor("bob", "the game back after the restart") { s in
            s.contains { $0.contains("alice denkt na…") } && !s.contains { $0.contains("opnieuw verbinden") }
        }

        // Play on to the end: PEA is fine, PEAR is a word of 4 letters and bob loses.
        try tmux.type("alice", "a")
        try tmux.waitFor("bob", text: "“PEA” · 3 letters · alice speelde A")
        try tmux.type("bob", "r")
        a = try tmux.waitFor("alice", text: "You win, alice! Congratulations!")
        #expect(a.contains("  bob completed “PEAR”, a word of more than 3 letters."))
        #expect(!a.contains { $0.contains("Server:") })
        #expect(a.contains("  ▶ #1  alice  (1 win)"))
        #expect(a.contains("    #2  bob  (0 wins)"))
        #expect(a.contains("  ▶ r  Rematch"))
        b = try tmux.waitFor("bob", text: "alice wint dit spel. Volgende keer beter!")
        #expect(b.contains("  Je maakte “PEAR”, een woord van meer dan 3 letters."))
        #expect(b.contains { $0.contains("#2  bob  (0 overwinningen)") })

        // The token is gone from both configs: the game is over.
        for who in ["alice", "bob"] {
            let config = ClientConfig.parse(try String(contentsOfFile: tmux.folder + "/\(who)/config", encoding: .utf8))
            #expect(config.token == nil)
            #expect(config.lastName == who)
            #expect(config.tutorialSeen)
        }
        #expect(ClientConfig.parse(try String(contentsOfFile: tmux.folder + "/bob/config", encoding: .utf8)).language == "nl")

        // High scores from the game-over screen.
        try tmux.keys("alice", "5")
        a = try tmux.waitFor("alice", text: "Rank  Name")
        #expect(a.contains { $0.contains("1  alice") && $0.hasSuffix("1        1") })

        // alice leaves with Ctrl-C: the terminal is restored.
        try tmux.quit("alice")
        try Self.expectRestored(tmux, "alice")
        try tmux.quit("bob")
        try Self.expectRestored(tmux, "bob")
    }

    @Test("SIGTERM, SIGHUP and a dead server: the client restores the terminal every time")
    func signalsAndDeadServer() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("t")
        for (label, sig) in [("term", SIGTERM), ("hup", SIGHUP), ("int", SIGINT)] {
            try tmux.shell("t", try Self.clientCommand(tmux, label, port: daemon.port, noColour: false, extra: "--lang en"))
            try tmux.waitFor("t", text: "How to play (1/8)")
            let pid = try #require(Self.pid(tmux, label))
            #expect(Glibc.kill(pid, sig) == 0)
            try Self.expectRestored(tmux, "t")
        }

        // No server at all: the address it tries and how to pick another, never a crash; Ctrl-C still restores.
        let dead = 1  // port 1 refuses connections
        let bin = try ClientBinary.path()
        try tmux.shell("t", "\(bin) --config \(tmux.folder)/dead/config --lang en 127.0.0.1:\(dead)")
        try tmux.waitFor("t", text: "How to play (1/8)")
        try tmux.keys("t", "Escape")
        try tmux.waitFor("t", text: "No server at 127.0.0.1:1; trying again. Another: ghost-client HOST:PORT")
        try tmux.type("t", "zed")
        try tmux.keys("t", "Enter")
        try tmux.waitFor("t", text: "Not connected to the server yet")
        try tmux.quit("t")
        try Self.expectRestored(tmux, "t")

        // A resize redraws at the new size.
        try tmux.shell("t", try Self.clientCommand(tmux, "wide", port: daemon.port, noColour: true, extra: "--lang nl"))
        try tmux.waitFor("t", text: "Zo speel je (1/8)")
        try tmux.run(["resize-window", "-t", "t", "-x", "120", "-y", "30"])
        try tmux.waitFor("t", "the help line on row 30") { $0.count >= 30 && $0[29].contains("Esc klaar") }
        try tmux.quit("t")
        try Self.expectRestored(tmux, "t")
    }

    @Test("Line mode: with stdin a pipe it prints the server's lines and sends each line read, then QUIT")
    func lineMode() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        let out = tmux.folder + "/out.txt", err = tmux.folder + "/err.txt"
        // CRLF and LF lines, a line over the protocol's 512 bytes (not sent: a note on stderr), and a last
        // line without its LF, framed as the server frames them.
        let input = "NAME zoe\\r\\nNAMES\\nLETTER a\\n" + String(repeating: "x", count: 600) + "\\nSCORES mode=match 3"
        let script = "printf \"\(input)\" | \(try ClientBinary.path()) 127.0.0.1:\(daemon.port) > \(out) 2> \(err); echo \"rc=$?\" >> \(out)"
        let status = try Spawn.run(["/bin/sh", "-c", script], output: tmux.folder + "/sh.txt")
        #expect(status == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\n")
        #expect(lines.first?.hasPrefix("HELLO ghostd/") == true && lines.first?.hasSuffix(" protocol=2 languages=en,nl") == true)
        #expect(Array(lines.dropFirst()) == ["OK NAME name=zoe lang=en", "NAME name=zoe", "OK NAMES count=1 more=no",
                                              "ERR not-in-game you are not in a game; SEEK, NEW or JOIN one",
                                              "OK SCORES count=0 board=match", "OK QUIT", "BYE quit goodbye", "rc=0", ""])
        #expect(try String(contentsOfFile: err, encoding: .utf8)
                == "ghost-client: a line longer than 512 bytes (with its line end) was not sent\n")
    }
}
