import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Your games against a real ghostd, with a real client in tmux: a
/// game against the computer, then its history, replay and review.
@Suite("EndToEnd: your games, their replay and review (#28)", .ownThread, .serialized)
struct RecordEndToEndTests {
    @Test("After a game against the computer: h lists it (HISTORY), Enter replays it (MOVES, ←/→ step), r reviews it (REVIEW)")
    func historyReplayReview() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("gina")
        try HangmanEndToEndTests.writeConfig(tmux, "gina", name: "gina")
        try HangmanEndToEndTests.start(tmux, "gina", port: daemon.port)
        try tmux.waitFor("gina", text: "Name: _")
        try tmux.type("gina", "gina")
        try tmux.keys("gina", "Enter")
        try tmux.waitFor("gina", text: "Playing as gina")
        // 2, then 1: the Easy computer, gina first. She plays until the game ends.
        try tmux.type("gina", "2")
        try tmux.waitFor("gina", text: "Play the computer")
        try tmux.type("gina", "1")
        var over = false
        for turn in 0..<30 where !over {
            let letters = 2 * turn
            let screen = try tmux.waitFor("gina", "gina's turn \(turn) or the end") { s in
                s.contains { $0.contains("Play again") }
                    || (s.contains { $0.contains("Your turn: type a letter") }
                        && (letters == 0 || s.contains { $0.contains("\(letters) letters") }))
            }
            over = screen.contains { $0.contains("Play again") }
            if !over { try tmux.type("gina", turn == 0 ? "q" : "x") }
        }
        #expect(over)
        // Back to the main screen, then h: the game on the history list.
        try tmux.keys("gina", "Escape")
        try tmux.waitFor("gina", text: "Playing as gina")
        try tmux.type("gina", "h")
        let list = try tmux.waitFor("gina", text: "vs Computer (easy)")
        #expect(list.contains { $0.contains("▶ ") && $0.contains("Ghost · vs Computer (easy)") })
        // Enter: the replay, at its end; ← one move back.
        try tmux.keys("gina", "Enter")
        let end = try tmux.waitFor("gina", "the replay at its last move") { s in
            s.contains { $0.range(of: #"Move (\d+) of \1"#, options: .regularExpression) != nil }
        }
        #expect(end.contains { $0.contains("Press r for the review") })
        try tmux.keys("gina", "Home")
        try tmux.waitFor("gina", text: "The start · ")
        try tmux.keys("gina", "Right")
        try tmux.waitFor("gina", text: "You played Q")
        // r: the review of that move, and the verdict on the game.
        try tmux.type("gina", "r")
        let review = try tmux.waitFor("gina", "the review") { s in
            s.contains { $0.contains("From here you could") }
                && s.contains { $0.contains("mistake was move") || $0.contains("Nobody threw a win away.") }
        }
        #expect(review.contains { $0.contains("Move 1 of ") })
        try tmux.quit("gina")
        try ClientEndToEndTests.expectRestored(tmux, "gina")
    }
}
