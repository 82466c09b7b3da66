import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Real ghost-clients in tmux (80×24) against a real ghostd: a game on a
/// clock counts down on the play screen, and Superghost's ← puts the next
/// letter at the front of the fragment.
@Suite("EndToEnd: the clock and Superghost in ghost-client", .ownThread, .serialized)
struct ClockAndSuperghostEndToEndTests {
    /// The seconds of the first "m:ss left" on a screen.
    static func secondsLeft(_ screen: [String]) -> Int? {
        for line in screen {
            guard let r = line.range(of: "[0-9]+:[0-9][0-9] left", options: .regularExpression) else { continue }
            let parts = line[r].dropLast(" left".count).split(separator: ":")
            guard parts.count == 2, let m = Int(parts[0]), let s = Int(parts[1]) else { continue }
            return m * 60 + s
        }
        return nil
    }

    @Test("--clock 30 presets the clock; against the computer the play screen counts the seconds down")
    func clockCountsDown() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("cleo")
        try HangmanEndToEndTests.writeConfig(tmux, "cleo", name: "cleo")
        try HangmanEndToEndTests.start(tmux, "cleo", port: daemon.port, extra: "--clock 30")
        try tmux.waitFor("cleo", text: "Name: _")
        try tmux.type("cleo", "cleo")
        try tmux.keys("cleo", "Enter")
        try tmux.waitFor("cleo", text: "Clock: 0:30 a move (t)")
        #expect(try String(contentsOfFile: tmux.folder + "/cleo/config", encoding: .utf8).contains("\nclock=30\n"))
        // 2, then 1: the Easy computer, cleo first.
        try tmux.type("cleo", "2")
        try tmux.waitFor("cleo", text: "Play the computer")
        try tmux.type("cleo", "1")
        let first = try tmux.waitFor("cleo", "cleo's turn with the clock shown") { screen in
            screen.contains { $0.contains("Your turn: type a letter") } && Self.secondsLeft(screen) != nil
        }
        let start = try #require(Self.secondsLeft(first))
        #expect(start <= 30 && start >= 27, "\(first.joined(separator: "\n"))")
        // Two seconds later the screen shows less, with no key pressed.
        let later = try tmux.waitFor("cleo", "the countdown two seconds on", timeout: 10) { screen in
            (Self.secondsLeft(screen) ?? start) <= start - 2
        }
        #expect(later.contains { $0.contains("Your turn: type a letter") })
        // A move gives the computer its turn (untimed) and then cleo a full period again.
        try tmux.type("cleo", "q")
        try tmux.waitFor("cleo", "a fresh period after the computer's move") { screen in
            screen.contains { $0.contains("Your turn: type a letter") } && screen.contains { $0.contains("2 letters") }
                && (Self.secondsLeft(screen) ?? 0) >= 28
        }
        try tmux.quit("cleo")
        try ClientEndToEndTests.expectRestored(tmux, "cleo")
    }

    @Test("Superghost: ← sends the next letter to the front (LETTER <c> front), and both screens show the new fragment")
    func frontLetter() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("sam")
        try tmux.newSession("tess")
        for name in ["sam", "tess"] {
            try HangmanEndToEndTests.writeConfig(tmux, name, name: name)
            try HangmanEndToEndTests.signIn(tmux, name, port: daemon.port)
            try tmux.waitFor(name, text: "Playing as \(name)")
        }
        // v: Superghost for new Ghost games (saved); 3: a private game.
        try tmux.type("sam", "v")
        try tmux.waitFor("sam", text: "v Ghost [Super] Bluff")
        try tmux.type("sam", "3")
        let hosting = try tmux.waitFor("sam", text: "Your private game code:")
        let codeLine = try #require(hosting.first {
            $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil
        })
        let code = codeLine.replacingOccurrences(of: " ", with: "")
        try tmux.type("tess", "4")
        try tmux.waitFor("tess", text: "Code: _")
        try tmux.type("tess", code.lowercased())
        try tmux.keys("tess", "Enter")

        // sam's A goes at the end (the default).
        try tmux.waitFor("sam", text: "Your letter goes at the end (← front, → end)")
        try tmux.type("sam", "a")
        try tmux.waitFor("tess", text: "“A” · 1 letter · sam played A")
        // tess: ← then E: "EA", on both screens.
        try tmux.keys("tess", "Left")
        try tmux.waitFor("tess", text: "Your letter goes at the front (← front, → end)")
        try tmux.type("tess", "e")
        try tmux.waitFor("tess", text: "“EA” · 2 letters · You played E at the front")
        let sam = try tmux.waitFor("sam", text: "“EA” · 2 letters · tess played E at the front")
        #expect(sam.contains { $0.contains("Your turn: type a letter") })
        // sam: → keeps the end; T makes "EAT", a word too short to lose.
        try tmux.keys("sam", "Right")
        try tmux.type("sam", "t")
        try tmux.waitFor("tess", text: "“EAT” · 3 letters · sam played T at the end")
        try tmux.quit("sam")
        try ClientEndToEndTests.expectRestored(tmux, "sam")
        try tmux.quit("tess")
        try ClientEndToEndTests.expectRestored(tmux, "tess")
    }
}
