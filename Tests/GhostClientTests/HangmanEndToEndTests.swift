import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Real ghost-client processes playing Hangman in tmux (80×24) against a real
/// ghostd: what the screens show, the settings, a duel's secrecy, resuming.
@Suite("EndToEnd: Hangman in ghost-client", .ownThread, .serialized)
struct HangmanEndToEndTests {
    /// A returning player's settings file (language, tutorial, name), so the client starts on its own.
    static func writeConfig(_ tmux: Tmux, _ label: String, name: String, game: String = "ghost") throws {
        try tmux.writeConfig(label, name: name, game: game)
    }

    static func start(_ tmux: Tmux, _ label: String, port: Int, extra: String = "") throws {
        try tmux.startClient(label, port: port, extra: extra)
    }

    /// Starts a client and signs in on the name screen.
    static func signIn(_ tmux: Tmux, _ label: String, port: Int) throws {
        try start(tmux, label, port: port)
        try tmux.waitFor(label, text: "Name: _")
        try tmux.type(label, label)
        try tmux.keys(label, "Enter")
    }

    @Test("--game hangman plays at once; settings apply to the next game only; an evil game lost; a fair game won")
    func againstTheComputer() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("hana")
        try Self.writeConfig(tmux, "hana", name: "hana")
        try Self.start(tmux, "hana", port: daemon.port, extra: "--game hangman")
        var screen = try tmux.waitFor("hana", text: "Your turn: guess a letter")
        #expect(screen[0].hasPrefix(" ghostd · Hangman · evil · English"))
        #expect(screen.contains { $0.contains("Misses left: 8 of 8") })
        #expect(screen.contains { $0.contains("[Q] [W] [E] [R] [T] [Y] [U] [I] [O] [P]") })
        #expect(try String(contentsOfFile: tmux.folder + "/hana/config", encoding: .utf8).contains("game=hangman"))

        // The flipside: length 5, 1 miss allowed; the game in progress keeps its 8.
        try tmux.keys("hana", "Tab")
        try tmux.waitFor("hana", text: "Word length     ◀ any ▶")
        for _ in 0..<5 { try tmux.keys("hana", "Right") }
        try tmux.waitFor("hana", text: "Word length     ◀ 5 ▶")
        try tmux.keys("hana", "Down")
        for _ in 0..<7 { try tmux.keys("hana", "Left") }
        try tmux.waitFor("hana", text: "Misses allowed  ◀ 1 ▶")
        try tmux.keys("hana", "Left")
        screen = try tmux.waitFor("hana", text: "Refused: the server does not allow 0 here; your saved value stays.")
        // The row is back at the saved 1, never past the limit.
        #expect(screen.contains { $0.contains("Misses allowed  ◀ 1 ▶") })
        #expect(!screen.contains { $0.contains("◀ 0 ▶") })
        try tmux.keys("hana", "Tab")
        try tmux.waitFor("hana", text: "Misses left: 8 of 8")
        // A new game (it asks first, since this one is given up) has the new settings.
        try tmux.keys("hana", "Enter")
        try tmux.waitFor("hana", text: "Nobody has moved yet")
        try tmux.keys("hana", "Enter")
        screen = try tmux.waitFor("hana", text: "Misses left: 1 of 1")
        #expect(screen.contains { $0.contains("evil · 5 letters") })

        // Evil, one miss allowed: the computer dodges Q, and the figure is complete.
        try tmux.type("hana", "q")
        screen = try tmux.waitFor("hana", text: "Hanged! The computer kept changing its word; in the end it was")
        // The sentence names the word; no "The word:" line repeats it.
        #expect(!screen.contains { $0.contains("The word: ") })
        #expect(screen.contains { $0.contains("_/   \\_") } && screen.contains { $0.contains("/|\\") })
        try tmux.waitFor("hana", text: "No solved games on this list yet.")
        // Letters do nothing now; the keys still work.
        try tmux.type("hana", "e")
        try tmux.waitFor("hana", text: "The game is over: Enter starts a new one")

        // Fair, 26 misses: every letter in turn solves it.
        try tmux.keys("hana", "Tab")
        try tmux.waitFor("hana", text: "Settings for your next game")
        try tmux.keys("hana", "Down", "Right")
        try tmux.waitFor("hana", text: "Mode            ◀ fair")
        try tmux.keys("hana", "Up")
        for _ in 0..<25 { try tmux.keys("hana", "Right") }
        try tmux.waitFor("hana", text: "Misses allowed  ◀ 26 ▶")
        try tmux.keys("hana", "Enter")
        screen = try tmux.waitFor("hana", text: "Misses left: 26 of 26")
        #expect(screen[0].hasPrefix(" ghostd · Hangman · fair · English"))
        for letter in "etaoinshrdlucmfwypvbgkjqxz" {
            let now = try tmux.capture("hana")
            if now.contains(where: { $0.contains("Congratulations!") }) { break }
            try tmux.type("hana", String(letter))
            try tmux.waitFor("hana", "\(letter) marked") { s in
                s.contains { $0.contains(" \(letter.uppercased())✓") || $0.contains(" \(letter.uppercased())✗") }
                    || s.contains { $0.contains("Congratulations!") }
            }
        }
        screen = try tmux.waitFor("hana", text: "Congratulations!")
        #expect(screen.contains { $0.contains("You found it with") })
        screen = try tmux.waitFor("hana", text: "Best games · fair")
        try tmux.waitFor("hana", "this game highlighted on the list") { $0.contains { $0.contains("▶    1  hana") } }
        #expect(screen.contains { $0.contains("This game is #1 on the list below.") })
        try tmux.quit("hana")
        try ClientEndToEndTests.expectRestored(tmux, "hana")
    }

    @Test("A client quit mid-game resumes it; the marks and the misses come back (in a 60×20 terminal)")
    func quitAndResume() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("rita", width: 60, height: 20)
        try Self.writeConfig(tmux, "rita", name: "rita", game: "hangman")
        try Self.signIn(tmux, "rita", port: daemon.port)
        // Without --game the main screen offers Hangman (saved); 2 then 1: against the computer.
        try tmux.waitFor("rita", text: "● Hangman")
        try tmux.type("rita", "2")
        try tmux.waitFor("rita", text: "You guess the computer's word")
        try tmux.type("rita", "1")
        try tmux.waitFor("rita", text: "Your turn: guess a letter")
        try tmux.type("rita", "e")
        let before = try tmux.waitFor("rita", text: "You guessed E")
        let misses = try #require(before.first { $0.contains("Misses left:") }).trimmingCharacters(in: .whitespaces)
        try tmux.quit("rita")
        try tmux.waitFor("rita", text: "Your game waits for you")
        try ClientEndToEndTests.expectRestored(tmux, "rita")
        #expect(try String(contentsOfFile: tmux.folder + "/rita/config", encoding: .utf8).contains("token="))

        try Self.start(tmux, "rita", port: daemon.port)
        let after = try tmux.waitFor("rita", text: "Your turn: guess a letter")
        // The key help takes two rows at 60 columns: the quit key on the second.
        #expect(after.count >= 20 && after[18].hasPrefix(" a–z guess · = answer · Enter new · Tab settings · Esc menu")
                && after[19].hasPrefix(" Ctrl-C quit"), "\(after)")
        #expect(after.contains { $0.contains(misses.components(separatedBy: "   ").last ?? misses) })
        #expect(after.contains { $0.contains(" E✓") || $0.contains(" E✗") })
        // Leaving from the menu ends it: the token goes.
        try tmux.keys("rita", "Escape")
        try tmux.waitFor("rita", text: "Leave")
        let menu = try tmux.capture("rita")
        // Its letter, l, the same in every game.
        #expect(menu.contains { $0.contains("l  Leave") }, "\(menu)")
        try tmux.type("rita", "l")
        try tmux.keys("rita", "Enter")
        try tmux.waitFor("rita", text: "You gave up. The word was")
        #expect(!(try String(contentsOfFile: tmux.folder + "/rita/config", encoding: .utf8).contains("token=")))
        try tmux.quit("rita")
        try ClientEndToEndTests.expectRestored(tmux, "rita")
    }

    @Test("A duel: the setter's word is typed hidden and checked; the guesser's screen never shows it before the end; the computer guesses too")
    func duel() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("frank")
        try tmux.newSession("gina")
        try Self.writeConfig(tmux, "frank", name: "frank", game: "hangman")
        try Self.writeConfig(tmux, "gina", name: "gina", game: "hangman")
        try Self.signIn(tmux, "frank", port: daemon.port)
        try Self.signIn(tmux, "gina", port: daemon.port)
        try tmux.waitFor("frank", text: "● Hangman")
        try tmux.waitFor("gina", text: "● Hangman")
        // A saved length is for the computer's games (5 letters here): a duel's
        // length is the setter's word's, ZEPHYR's 6.
        try tmux.type("frank", "2")
        try tmux.waitFor("frank", text: "The computer guesses your word")
        try tmux.type("frank", "3")
        try tmux.waitFor("frank", text: "Word length     ◀ any ▶")
        for _ in 0..<5 { try tmux.keys("frank", "Right") }
        try tmux.waitFor("frank", text: "Word length     ◀ 5 ▶")
        try tmux.keys("frank", "Tab")
        try tmux.waitFor("frank", text: "The computer guesses your word")
        try tmux.keys("frank", "Escape")
        try tmux.waitFor("frank", text: "● Hangman")
        try tmux.type("frank", "3")
        let hosting = try tmux.waitFor("frank", text: "Your private game code:")
        let codeLine = try #require(hosting.first { $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil })
        let code = codeLine.replacingOccurrences(of: " ", with: "")
        try tmux.type("gina", "4")
        try tmux.waitFor("gina", text: "Code: _")
        try tmux.type("gina", code)
        try tmux.keys("gina", "Enter")

        var secrets: [[String]] = []
        secrets.append(try tmux.waitFor("gina", text: "frank is choosing a word…"))
        try tmux.waitFor("frank", text: "Choose a word for gina to guess:")
        try tmux.type("frank", "zzzz")
        try tmux.waitFor("frank", text: "Word: ****_")
        try tmux.keys("frank", "Enter")
        try tmux.waitFor("frank", text: "“ZZZZ” is not a word in English.")
        for _ in 0..<4 { try tmux.keys("frank", "BSpace") }
        try tmux.type("frank", "zephyr")
        let typed = try tmux.waitFor("frank", text: "Word: ******_")
        #expect(!typed.joined().lowercased().contains("zephyr"))
        secrets.append(try tmux.capture("gina"))
        try tmux.keys("frank", "Enter")
        try tmux.waitFor("frank", text: "Your word: ZEPHYR")
        secrets.append(try tmux.waitFor("gina", text: "Your turn: guess a letter"))
        try tmux.type("gina", "e")
        try tmux.waitFor("frank", text: "gina guessed E: hit")
        secrets.append(try tmux.waitFor("gina", text: "You guessed E: hit"))
        try tmux.type("gina", "q")
        secrets.append(try tmux.waitFor("gina", text: "Wrong: Q"))
        for screen in secrets {
            #expect(!screen.joined().uppercased().contains("ZEPHYR"), "\(screen.joined(separator: "\n"))")
        }
        try tmux.type("gina", "=zephyr")
        try tmux.waitFor("gina", text: "Your answer: ZEPHYR_")
        try tmux.keys("gina", "Enter")
        try tmux.waitFor("gina", text: "You found it with 1 mistake. Congratulations!")
        try tmux.waitFor("gina", text: "The word: ZEPHYR")
        try tmux.waitFor("frank", text: "gina found your word with 1 mistake.")

        // frank lets the computer guess a word of his.
        try tmux.keys("frank", "Escape")
        try tmux.waitFor("frank", text: "● Hangman")
        try tmux.type("frank", "2")
        try tmux.waitFor("frank", text: "The computer guesses your word")
        try tmux.type("frank", "2")
        try tmux.waitFor("frank", text: "Choose a word for the computer to guess:")
        try tmux.type("frank", "pepper")
        try tmux.keys("frank", "Enter")
        try tmux.waitFor("frank", "the computer's end") { s in
            s.contains { $0.contains("The computer found your word") || $0.contains("The computer is hanged: your word held!") }
        }
        for who in ["frank", "gina"] {
            try tmux.quit(who)
            try ClientEndToEndTests.expectRestored(tmux, who)
        }
    }
}
