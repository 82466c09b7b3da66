import Foundation
import Testing
import TestSupport

/// Hidden words in a real ghost-client (tmux, 80×24), which has no code for
/// it: played from VIEW to a draw against a line client, replayed, and a
/// game of two line clients watched to its end.
@Suite("EndToEnd: Hidden words in ghost-client", .serialized)
struct HiddenWordsClientTests {
    @Test("ghost-client plays Hidden words to a draw (both hide at once), replays it with h, and watches another game to its end")
    func playWatchReplay() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"], binary: DaemonProcess.testKindsBinaryPath())
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("ann")
        try tmux.writeConfig("ann", name: "ann")
        try tmux.startClient("ann", port: daemon.port)
        try tmux.waitFor("ann", text: "▶ ann")
        try tmux.keys("ann", "Enter")

        // The kind came with HELP: → visits the games, the built-in ones first, whatever the others are.
        var screen = try tmux.chooseGame("ann", "Hidden words (tests only)")
        #expect(screen.contains { $0.contains("both hide a word at once, then guess each other's") })

        // ben, a line client, opens a private game; ann joins it by its code.
        let ben = try LineClient(port: daemon.port, label: "ben")
        try ben.login("ben")
        try ben.send("NEW game=hiddenwords guesses=2")
        let code = try #require(HiddenWordsEndToEndTests.fields(try ben.expectPrefix("OK NEW "))["code"])
        try tmux.type("ann", "j")
        try tmux.waitFor("ann", text: "Code:")
        try tmux.type("ann", code)
        try tmux.keys("ann", "Enter")
        _ = try ben.readUntil(prefix: "TURN ")

        // Both may hide at once: ann's move is HIDE, while ben has not hidden yet.
        screen = try tmux.waitFor("ann", text: "▶ HIDE <word> · hide your word")
        #expect(screen.contains { $0.contains("Your turn") })
        try tmux.type("ann", "wolf")
        try tmux.keys("ann", "Enter")
        try ben.readUntil(prefix: "MOVE id=1 player=ann hid=yes")
        // Her word is on her screen only; ben is still to hide his.
        screen = try tmux.waitFor("ann", text: "Your word")
        #expect(screen.contains { $0.contains("[W][O][L][F]") })
        try ben.send("HIDE bear")
        try ben.send("GUESS wolf")
        try ben.readUntil(prefix: "TURN id=1 player=ann phase=guessing guessed=1,0")
        screen = try tmux.waitFor("ann", text: "▶ GUESS <word> · guess the other player's hidden word")
        try tmux.type("ann", "bear")
        try tmux.keys("ann", "Enter")
        screen = try tmux.waitFor("ann", text: "It is a draw!")
        #expect(screen.contains { $0.contains("Both found the other's word: a draw.") })
        print("A drawn Hidden words game at 80×24:\n" + screen.joined(separator: "\n"))

        // h: the replay, one move a line; ben's hidden word is shown now that it is over.
        try tmux.type("ann", "h")
        screen = try tmux.waitFor("ann", text: "4. ann: GUESS “BEAR”")
        #expect(screen.contains { $0.contains("1. ann: HIDE “WOLF”") } && screen.contains { $0.contains("2. ben: HIDE “BEAR”") })
        #expect(screen.contains { $0.contains("3. ben: GUESS “WOLF”") })
        try tmux.keys("ann", "Escape")
        try tmux.waitFor("ann", text: "It is a draw!")
        try tmux.type("ann", "m")

        // carl and dora (line clients) play; ann watches from the list.
        let carl = try LineClient(port: daemon.port, label: "carl"), dora = try LineClient(port: daemon.port, label: "dora")
        try carl.login("carl")
        try dora.login("dora")
        let (id, _) = try HiddenWordsEndToEndTests.privateGame(carl, dora, options: " guesses=2")
        try tmux.type("ann", "w")
        try tmux.waitFor("ann", text: "carl vs dora — Hidden words (tests only)")
        try tmux.keys("ann", "Enter")
        screen = try tmux.waitFor("ann", text: "carl and dora to move")
        #expect(screen[0].contains("Watching · Hidden words (tests only)"))
        try carl.send("HIDE goat")
        try dora.send("HIDE seal")
        try carl.readUntil(prefix: "TURN id=\(id) player=carl phase=guessing")
        try carl.send("GUESS swan")
        try dora.readUntil(prefix: "TURN id=\(id) player=dora phase=guessing")
        try dora.send("GUESS goat")
        screen = try tmux.waitFor("ann", text: "dora wins!")
        // The watcher never saw a hidden word before the end; the end shows both.
        #expect(!tmux.everShown("[G][O][A][T]") || screen.contains { $0.contains("[G][O][A][T]") })
        try tmux.quit("ann")
    }
}
