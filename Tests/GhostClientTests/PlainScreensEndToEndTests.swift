import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// `ghost-client --plain-screens` in tmux (80×24) against a real ghostd: Ghost
/// and Hangman played to their end through the generic screen, from VIEW.
@Suite("EndToEnd: Ghost and Hangman on the plain screen", .ownThread, .serialized)
struct PlainScreensEndToEndTests {
    @Test("Ghost against the computer, then Hangman against it, each to the end, drawn from VIEW")
    func ghostAndHangman() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("pia")
        try tmux.writeConfig("pia", name: "pia")
        try tmux.startClient("pia", port: daemon.port, extra: "--plain-screens")
        try tmux.waitFor("pia", text: "▶ pia")
        try tmux.keys("pia", "Enter")

        // Ghost against the computer (easy), pia first: a letter key plays at once.
        try tmux.waitFor("pia", text: "● Ghost")
        try tmux.type("pia", "c")
        try tmux.waitFor("pia", text: "e  Easy")
        try tmux.type("pia", "e")
        var screen = try tmux.waitFor("pia", text: "▶ LETTER <letter> · add a letter at the end")
        #expect(screen[0].contains("Ghost") && screen.contains { $0.contains("Fragment") })
        #expect(!screen.contains { $0.contains("██") })   // no big letters
        var ended = false
        for letter in "zyxwvutsrqpo" {
            try tmux.type("pia", String(letter))
            screen = try tmux.waitFor("pia", "the computer's answer or the end") { s in
                s.contains { $0.contains("Game over") } || s.contains { $0.contains("Your turn") }
                    && s.contains { $0.contains("The computer (easy) played") }
            }
            if screen.contains(where: { $0.contains("Game over") }) {
                ended = true
                break
            }
        }
        #expect(ended)
        print("Ghost on the plain screen, over:\n" + screen.joined(separator: "\n"))
        try tmux.type("pia", "m")

        // Hangman against the computer (evil): LETTER and SOLVE, so a letter is typed, then Enter.
        try tmux.keys("pia", "Right")
        try tmux.waitFor("pia", text: "● Hangman")
        try tmux.type("pia", "c")
        try tmux.waitFor("pia", text: "g  ")
        try tmux.type("pia", "g")
        screen = try tmux.waitFor("pia", text: "▶ LETTER <letter> · ")
        #expect(screen.contains { $0.contains("SOLVE <word>") })
        ended = false
        for letter in "etaoinshrdlucmfwypvbgkjqxz" {
            try tmux.type("pia", String(letter))
            try tmux.keys("pia", "Enter")
            screen = try tmux.waitFor("pia", "the guess played, or the end") { s in
                s.contains { $0.contains("Game over") } || s.contains { $0.contains("You played \(letter.uppercased())") }
            }
            if screen.contains(where: { $0.contains("Game over") }) {
                ended = true
                break
            }
        }
        #expect(ended)
        print("Hangman on the plain screen, over:\n" + screen.joined(separator: "\n"))
        try tmux.quit("pia")
    }
}
