import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Friends, invitations, chat and blocking (#47) in real ghost-client
/// processes in tmux against a real ghostd: each step waits for what the
/// other window shows, never for a time.
@Suite("EndToEnd: friends, invitations, chat and blocking in ghost-client (#47)", .ownThread, .serialized)
struct SocialEndToEndTests {
    /// ann and bob, each registered (following needs it) and on the main
    /// screen; ann follows bob from her friends screen, which shows him online.
    static func friends(_ tmux: Tmux, port: Int, width: Int = 80, height: Int = 24) throws {
        for label in ["ann", "bob"] {
            try tmux.newSession(label, width: width, height: height)
            try HangmanEndToEndTests.writeConfig(tmux, label, name: label)
            try HangmanEndToEndTests.start(tmux, label, port: port)
            // Connected first: a name sent before the greeting is refused.
            try AccountEndToEndTests.pickName(tmux, label, label)
            try tmux.waitFor(label, text: "Playing as \(label)")
            try AccountEndToEndTests.register(tmux, label, label)
        }
        try tmux.keys("ann", "f")
        try tmux.waitFor("ann", text: "You follow nobody yet")
        try tmux.keys("ann", "a")
        try tmux.waitFor("ann", text: "Name to follow: _")
        try tmux.type("ann", "bob")
        try tmux.keys("ann", "Enter")
        try tmux.waitFor("ann", text: "You follow bob.")
        try tmux.waitFor("ann", "bob on the list, online") { $0.contains { $0.contains("▶ bob") && $0.contains("online") } }
    }

    @Test("ann invites bob from her friends: he declines with -, she reads it; invited again he accepts with +, and the game starts; chat both ways, its letters never played")
    func inviteDeclinedAcceptedAndChat() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try Self.friends(tmux, port: daemon.port)

        try tmux.keys("ann", "i")
        try tmux.waitFor("ann", text: "You invited bob; waiting for the answer.")
        try tmux.waitFor("bob", text: "ann invites you: Ghost (English) · + accept · - decline")
        try tmux.type("bob", "-")
        try tmux.waitFor("bob", text: "You declined ann's invitation.")
        let declined = try tmux.waitFor("ann", text: "bob declined your invitation.")
        #expect(declined.contains { $0.contains("▶ bob") }, "\(declined)")

        try tmux.keys("ann", "i")
        try tmux.waitFor("bob", text: "ann invites you: Ghost (English)")
        try tmux.type("bob", "+")
        try tmux.waitFor("ann", text: "Your turn: type a letter")
        try tmux.waitFor("bob", text: "ann is thinking")

        // bob says something: : opens the line, Enter sends it.
        try tmux.type("bob", ":")
        try tmux.waitFor("bob", text: "Say: _")
        try tmux.type("bob", "good luck")
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("ann", text: "bob: good luck")
        try tmux.waitFor("bob", text: "you: good luck")
        // ann answers: her letters go into the line, none is played.
        try tmux.type("ann", ":")
        try tmux.waitFor("ann", text: "Say: _")
        try tmux.type("ann", "thanks x")
        try tmux.waitFor("ann", text: "Say: thanks x_")
        try tmux.keys("ann", "Enter")
        try tmux.waitFor("bob", text: "ann: thanks x")
        let ann = try tmux.waitFor("ann", text: "you: thanks x")
        #expect(ann.contains { $0.contains("Your turn: type a letter") }, "\(ann)")
        // Closed, letters are moves again.
        try tmux.type("ann", "q")
        try tmux.waitFor("bob", text: "ann played Q")
    }

    @Test("ann blocks bob from her friends (asked first): he cannot invite her, she is never told of it; unblocked from her blocks list, his invitation reaches her")
    func blockAndUnblock() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try Self.friends(tmux, port: daemon.port, width: 60, height: 20)

        try tmux.keys("ann", "x")
        try tmux.waitFor("ann", text: "Block bob? They are not told. y: yes · n: no")
        try tmux.keys("ann", "y")
        try tmux.waitFor("ann", text: "You block bob.")
        try tmux.waitFor("ann", text: "You follow nobody yet")

        // bob follows ann and invites her: the server says she is not online.
        try tmux.keys("bob", "f")
        try tmux.waitFor("bob", text: "You follow nobody yet")
        try tmux.keys("bob", "a")
        try tmux.type("bob", "ann")
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("bob", text: "You follow ann.")
        try tmux.waitFor("bob", "ann on the list") { $0.contains { $0.contains("▶ ann") } }
        try tmux.keys("bob", "i")
        try tmux.waitFor("bob", text: "ann is not online.")
        #expect(!tmux.everShown("invites you:"))

        // ann's blocks list: u unblocks bob.
        try tmux.keys("ann", "k")
        try tmux.waitFor("ann", "bob on the blocks list") { $0.contains { $0.contains("▶ bob") } }
        try tmux.keys("ann", "u")
        try tmux.waitFor("ann", text: "You no longer block bob.")
        try tmux.keys("ann", "Escape")
        try tmux.waitFor("ann", text: "You follow nobody yet")

        try tmux.keys("bob", "i")
        try tmux.waitFor("bob", text: "You invited ann; waiting for the answer.")
        try tmux.waitFor("ann", text: "bob invites you: Ghost (English)")
    }

    @Test("bob's privacy screen (p): presence off shows him offline on ann's list and to her invitation; invitations from nobody turns hers away in words")
    func privacySettings() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try Self.friends(tmux, port: daemon.port)

        try tmux.keys("bob", "f")
        try tmux.waitFor("bob", text: "You follow nobody yet")
        try tmux.keys("bob", "p")
        try tmux.waitFor("bob", text: "▶ 1 Others see when you are online: [on] off")
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("bob", text: "Others see when you are online: on [off]")
        try tmux.waitFor("bob", text: "Saved.")
        try tmux.keys("ann", "r")
        try tmux.waitFor("ann", "bob offline") { $0.contains { $0.contains("▶ bob") && $0.contains("offline") } }

        // Hidden, bob reads as offline to an invitation too (he follows nobody).
        try tmux.keys("ann", "i")
        try tmux.waitFor("ann", text: "bob is not online.")
        // Shown again, but invitations from nobody: Enter, then ↓↓ and ← (anyone → nobody).
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("bob", text: "Others see when you are online: [on] off")
        try tmux.keys("bob", "Down", "Down", "Left")
        try tmux.waitFor("bob", text: "Invitations from: anyone friends [nobody]")
        try tmux.keys("ann", "i")
        try tmux.waitFor("ann", text: "bob takes no invitations.")
        #expect(!tmux.everShown("invites you:"))
    }
}
