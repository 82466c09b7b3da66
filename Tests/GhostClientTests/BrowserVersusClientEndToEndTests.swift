import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A person in a browser plays a person in ghost-client (issue #46): the
/// client in tmux hosts a private game on the daemon's plain port, the web
/// client in a headless Chromium joins it by its code on the web port, and
/// they play Ghost to its end, each seeing the other's letters.
@Suite("EndToEnd: a browser against ghost-client", .ownThread, .serialized, .hangLimit)
struct BrowserVersusClientEndToEndTests {
    @Test("ghost-client in tmux hosts, a browser joins by the code; Q then Z: the browser made a fragment no word starts with, and lost")
    func browserPlaysTheTerminal() async throws {
        try await onOwnThread {
            let daemon = try DaemonProcess.start(extraArguments: ["--web-port", "any"])
            defer { daemon.kill() }
            guard let webPort = daemon.webPort else { throw DaemonError("no web port:\n\(daemon.stderrText)") }
            let tmux = try Tmux()
            defer { tmux.kill() }
            try tmux.newSession("alice")
            try tmux.writeConfig("alice", name: "alice")
            try tmux.shell("alice", try tmux.clientCommand("alice", port: daemon.port, noColour: true))
            // The name it used before, picked.
            try tmux.waitFor("alice", text: "▶ alice")
            try tmux.keys("alice", "Enter")
            try tmux.waitFor("alice", text: "Playing as alice")
            try tmux.keys("alice", "i")
            let hosting = try tmux.waitFor("alice", text: "Your private game code:")
            let codeLine = try #require(hosting.first {
                $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil
            })
            let code = codeLine.replacingOccurrences(of: " ", with: "")

            let web = try Browser("bob", viewport: .phone)
            try web.open("http://127.0.0.1:\(webPort)/")
            try web.waitFor("document.body.dataset.screen === 'name'", what: "the name screen")
            try web.type("bob", into: "#name-input")
            try web.click("#name-submit")
            try web.waitFor("document.body.dataset.screen === 'menu'", what: "the menu")
            try web.type(code, into: "#join-code-input")
            try web.click("#join-submit")
            try web.waitFor("document.body.dataset.screen === 'game'", what: "the game")

            // The host moves first.
            try tmux.waitFor("alice", text: "Your turn: type a letter")
            try web.waitFor("document.getElementById('status').dataset.turn === 'them'", what: "bob waits for alice")
            try tmux.type("alice", "q")
            try web.waitFor("document.getElementById('fragment').dataset.value === 'q'", what: "alice's Q in the browser")
            try web.waitFor("document.getElementById('status').dataset.turn === 'you'", what: "bob's turn")
            try web.click("#keyboard .key[data-key=\"z\"]")
            try web.waitFor("!document.getElementById('result').hidden", what: "the end in the browser")
            #expect(try web.run("return document.getElementById('result').dataset.outcome").string == "lost")
            try tmux.waitFor("alice", text: "You win, alice!")
            try tmux.waitFor("alice", text: "bob made “QZ”: no word continues it.")
        }
    }
}
