import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// The web client in a real headless Chromium against a real ghostd's web
/// port (issue #46): people play each other and the computer, a reload and
/// the daemon's kill -9 resume, a page of another origin cannot open the
/// WebSocket, and every screen keeps the page's layout rules at a phone's
/// and a desktop's size in both languages. Each step waits for what the
/// page shows (or the protocol line it got, `window.ghost.lines`), never
/// for a time.
@Suite("EndToEnd: the web client in Chromium", .serialized, .timeLimit(.minutes(10)))
struct EndToEndBrowserTests {
    /// The page of a daemon's web port.
    static func page(_ port: Int) -> String { "http://127.0.0.1:\(port)/" }

    /// Waits for the screen `name` (`body[data-screen]`).
    static func screen(_ b: Browser, _ name: String) throws {
        try b.waitFor("document.body.dataset.screen === '\(name)'", what: "\(b.label): the \(name) screen")
    }

    /// Waits for a protocol line starting with `prefix` received by the page.
    @discardableResult
    static func line(_ b: Browser, _ prefix: String) throws -> String {
        let found = try b.waitFor("window.ghost.lines.find(l => l.startsWith('\(prefix)')) || false",
                                  what: "\(b.label): a line \(prefix)")
        return found.string ?? ""
    }

    /// Opens the page and takes a guest name.
    static func enter(_ b: Browser, port: Int, name: String) throws {
        try b.open(page(port))
        try screen(b, "name")
        try b.type(name, into: "#name-input")
        try b.click("#name-submit")
        try screen(b, "menu")
        try line(b, "OK NAME name=\(name)")
    }

    @Test("A browser plays Hangman against the computer to the end, with the keys of its keyboard")
    func hangmanAgainstTheComputer() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            let b = try Browser("carol", viewport: .phone)
            try Self.enter(b, port: port, name: "carol")
            try b.click("#menu-hangman")
            try Self.screen(b, "setup")
            try b.click("#setup-start")
            try Self.screen(b, "game")
            try Self.line(b, "GAME id=1 game=hangman")
            var guessed = 0
            for letter in "etaoinsrhldcumfpgwybvkxjqz" {
                if try b.exists("#result") && b.run("return !document.getElementById('result').hidden").isTruthy { break }
                try b.press(String(letter))
                try b.waitFor("window.ghost.lines.some(l => l.startsWith('OK LETTER letter=\(letter)') || l.startsWith('OVER '))",
                              what: "carol's \(letter) answered")
                guessed += 1
            }
            let over = try Self.line(b, "OVER id=1 ")
            try b.waitFor("!document.getElementById('result').hidden", what: "the result shown")
            let outcome = try b.run("return document.getElementById('result').dataset.outcome").string
            #expect(outcome == (over.contains("winner=carol") ? "won" : "lost"), "\(over)")
            #expect(guessed > 0)
        }
    }
}
