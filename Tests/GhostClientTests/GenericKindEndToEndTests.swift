import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Real ghost-client processes in tmux (80×24) against the test-kinds daemon
/// (ghostd with the tests' Word chain, a kind the client has no code for):
/// chosen on the main screen from HELP, played from VIEW on the generic
/// screen, its end, its replay, and a second client watching it.
@Suite("EndToEnd: a kind the client has no code for (Word chain)", .ownThread, .serialized)
struct GenericKindEndToEndTests {
    @Test("Word chain: chosen on the main screen, played against the computer (easy) to its end, replayed with h; a second client watches it")
    func wordChain() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"], binary: DaemonProcess.testKindsBinaryPath())
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("wynn")
        try tmux.newSession("vera")
        try HangmanEndToEndTests.writeConfig(tmux, "wynn", name: "wynn")
        try HangmanEndToEndTests.writeConfig(tmux, "vera", name: "vera")
        try HangmanEndToEndTests.start(tmux, "wynn", port: daemon.port)
        // The last name is preselected: Enter takes it.
        try tmux.waitFor("wynn", text: "▶ wynn")
        try tmux.keys("wynn", "Enter")

        // The kinds the server plays came with HELP: Word chain is named under the built-in games.
        try tmux.waitFor("wynn", text: "○ Word chain (tests only)")
        try tmux.keys("wynn", "Right")
        try tmux.waitFor("wynn", text: "● Hangman")
        // Then the kinds the server announced, in its order, whatever others it plays.
        var screen = try tmux.chooseGame("wynn", "Word chain (tests only)")
        #expect(screen.contains { $0.contains("name a word that starts with the last letter of the one before") })
        // Not saved as the default game: a server without it would have none.
        #expect(try !String(contentsOfFile: tmux.folder + "/wynn/config", encoding: .utf8).contains("wordchain"))

        // Play the computer: its levels are the ones the server announced.
        try tmux.type("wynn", "c")
        screen = try tmux.waitFor("wynn", text: "h  Hard")
        #expect(screen.contains { $0.contains("e  Easy") } && !screen.contains { $0.contains("Medium") })
        try tmux.type("wynn", "e")
        screen = try tmux.waitFor("wynn", text: "Your moves:")
        #expect(screen[0].contains("ghostd · Word chain (tests only) · English"))
        #expect(screen.contains { $0.contains("▶ CHAIN <word> · name a word") })
        #expect(screen.contains { $0.contains("CONCEDE · give up: you have no word") })
        try tmux.waitFor("wynn", text: "Your turn")

        // A second client watches the game from the list.
        try HangmanEndToEndTests.start(tmux, "vera", port: daemon.port)
        try tmux.waitFor("vera", text: "▶ vera")
        try tmux.keys("vera", "Enter")
        try tmux.waitFor("vera", text: "○ Word chain (tests only)")
        try tmux.type("vera", "w")
        try tmux.waitFor("vera", text: "wynn vs Computer (easy) — Word chain (tests only)")
        try tmux.keys("vera", "Enter")
        screen = try tmux.waitFor("vera", text: "Words so far  0")
        #expect(screen[0].contains("Watching · Word chain (tests only)"))
        #expect(!screen.contains { $0.contains("Your moves:") })

        // wynn names EGG; the computer answers GOAT (the first word that fits).
        try tmux.type("wynn", "egg")
        try tmux.waitFor("wynn", text: "Word: EGG_")
        try tmux.keys("wynn", "Enter")
        screen = try tmux.waitFor("wynn", text: "[G][O][A][T]")
        screen = try tmux.waitFor("wynn", text: "Words so far  2")
        #expect(screen.contains { $0.contains("The computer (easy) played GOAT") })
        print("A Word chain game at 80×24:\n" + screen.joined(separator: "\n"))
        try tmux.waitFor("vera", text: "[G][O][A][T]")
        // A word that breaks the chain: the kind's refusal, in the server's words.
        try tmux.type("wynn", "apple")
        try tmux.keys("wynn", "Enter")
        try tmux.waitFor("wynn", text: "Refused: the word must start with t")
        // TOAD: no word starts with D, so the computer gives up.
        try tmux.keys("wynn", "C-u")
        try tmux.type("wynn", "toad")
        try tmux.keys("wynn", "Enter")
        screen = try tmux.waitFor("wynn", text: "You win, wynn! Congratulations!")
        #expect(screen[0].contains("Game over · Word chain (tests only)"))
        #expect(screen.contains { $0.contains("bot-easy had no word: wynn wins.") })
        screen = try tmux.waitFor("vera", text: "wynn wins!")
        #expect(screen.contains { $0.contains("bot-easy had no word: wynn wins.") })

        // h: the replay, its moves as lines; Word chain has no review.
        try tmux.type("wynn", "h")
        screen = try tmux.waitFor("wynn", text: "This kind of game has no review.")
        #expect(screen.contains { $0.contains("1. wynn: the word “EGG”") })
        #expect(screen.contains { $0.contains("2. Computer (easy): the word “GOAT”") })
        #expect(screen.contains { $0.contains("3. wynn: the word “TOAD”") })
        // Esc: back to the game over; s: the kind's board of wins against the computer (easy).
        try tmux.keys("wynn", "Escape")
        try tmux.waitFor("wynn", text: "You win, wynn! Congratulations!")
        try tmux.type("wynn", "s")
        screen = try tmux.waitFor("wynn", text: "High scores · Word chain (tests only) · against the computer (easy)")
        try tmux.waitFor("wynn", "wynn's row with 1 win of 1") { $0.contains { $0.split(separator: " ") == ["▶", "1", "wynn", "1", "1"] } }
        try tmux.quit("wynn")
        try tmux.quit("vera")
    }
}
