import Foundation
import Testing
@testable import GhostClient
import TestSupport

/// Bluff and challenge in real ghost-client processes in tmux (80×24)
/// against a real ghostd: the challenge key, the answer prompt, the end.
@Suite("EndToEnd: bluff and challenge in ghost-client", .ownThread, .serialized)
struct ChallengeEndToEndTests {
    /// A returning player whose new Ghost games are bluff and challenge.
    static func writeConfig(_ tmux: Tmux, _ label: String) throws {
        try FileManager.default.createDirectory(atPath: "\(tmux.folder)/\(label)", withIntermediateDirectories: true)
        try "language=en\ntutorial=seen\nname=\(label)\ngame=ghost\nvariant=challenge\n"
            .write(toFile: "\(tmux.folder)/\(label)/config", atomically: true, encoding: .utf8)
    }

    @Test("! challenges a bluff; the challenged player types a word after the fragment and Enter sends it; it is no word, so they lose")
    func aBluffCalled() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        for label in ["cara", "cody"] {
            try tmux.newSession(label)
            try Self.writeConfig(tmux, label)
        }
        try HangmanEndToEndTests.signIn(tmux, "cara", port: daemon.port)
        try tmux.waitFor("cara", text: "v Ghost Super [Bluff and challenge]")
        try tmux.keys("cara", "3")
        let hosting = try tmux.waitFor("cara", text: "Your private game code:")
        let codeLine = try #require(hosting.first {
            $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil
        })
        let code = codeLine.replacingOccurrences(of: " ", with: "")

        try HangmanEndToEndTests.signIn(tmux, "cody", port: daemon.port)
        try tmux.waitFor("cody", text: "Playing as cody")
        try tmux.keys("cody", "4")
        try tmux.waitFor("cody", text: "Code: _")
        try tmux.type("cody", code.lowercased())
        try tmux.keys("cody", "Enter")

        let start = try tmux.waitFor("cara", text: "Your turn: type a letter")
        #expect(start.contains { $0.contains("a–z letter · ! challenge · Esc menu") }, "\(start)")
        try tmux.type("cara", "q")
        try tmux.waitFor("cody", text: "Your turn: type a letter")
        try tmux.type("cody", "z")
        // No word starts with QZ, and the round goes on.
        try tmux.waitFor("cara", text: "“QZ” · 2 letters · cody played Z")
        try tmux.type("cara", "!")
        var screen = try tmux.waitFor("cody", text: "Challenged: type a word that starts with “QZ”")
        #expect(screen.contains { $0.contains("“QZ” · 2 letters · cara challenges") })
        #expect(screen.contains { $0.contains("Your word: QZ_") })
        #expect(screen.contains { $0.contains("a–z type the word · Enter send · - concede · Esc menu") }, "\(screen)")
        try tmux.waitFor("cara", text: "cody must name a word")
        try tmux.type("cody", "a")
        try tmux.waitFor("cody", text: "Your word: QZA_")
        try tmux.keys("cody", "Enter")
        screen = try tmux.waitFor("cody", text: "You were challenged and named no word: no word starts with “QZ”.")
        #expect(screen.contains { $0.contains("cara wins this game") })
        try tmux.waitFor("cara", text: "cody was challenged and named no word: no word starts with “QZ”.")
    }
}
