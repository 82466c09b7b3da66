import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

extension InChromium {
/// The web client in a real headless Chromium against a real ghostd's web
/// port (issue #46): people play each other and the computer, a reload and
/// the daemon's kill -9 resume, a page of another origin cannot open the
/// WebSocket, and every screen keeps the page's layout rules at a phone's
/// and a desktop's size in both languages. Each step waits for what the
/// page shows (or the protocol line it got, `window.ghost.lines`), never
/// for a time.
@Suite("EndToEnd: the web client in Chromium", .ownThread, storeIndependent, .serialized, .hangLimit)
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
            try Self.startFromMenu(b, "#menu-hangman")
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

    /// From the menu: the setup of `menu`'s game (`#menu-ghost`, `#menu-hangman`, a kind's button), started at once.
    static func startFromMenu(_ b: Browser, _ menu: String) throws {
        try b.click(menu)
        try screen(b, "setup")
        try b.click("#setup-start")
        try screen(b, "game")
    }

    /// Resigns the game (the button asks once more) and waits for its result on screen.
    static func resign(_ b: Browser) throws {
        try b.click("#act-leave")
        try b.click("#act-leave")
        try b.waitFor("!document.getElementById('result').hidden", what: "\(b.label)'s result after resigning")
    }

    /// alice hosts a private game of Ghost and bob joins it by its code; both on the game screen.
    static func privateGame(_ alice: Browser, _ bob: Browser, port: Int) throws -> String {
        try enter(alice, port: port, name: "alice")
        try enter(bob, port: port, name: "bob")
        try alice.click("#menu-private")
        try screen(alice, "setup")
        try alice.click("#setup-start")
        try screen(alice, "waiting")
        let code = try alice.waitFor("document.getElementById('join-code').textContent.replace(/\\s/g, '') || false",
                                     what: "alice's join code").string ?? ""
        #expect(code.count == 8, "\(code)")
        try bob.type(code.lowercased(), into: "#join-code-input")
        try bob.click("#join-submit")
        try screen(alice, "game")
        try screen(bob, "game")
        return code
    }

    /// Whose turn the page says it is: `you`, `them` or `over`.
    static func turn(_ b: Browser) throws -> String {
        try b.run("return document.getElementById('status').dataset.turn || ''").string ?? ""
    }

    /// Waits until it is `b`'s turn, then plays `letter` with its on-screen keyboard.
    static func play(_ b: Browser, _ letter: Character) throws {
        try b.waitFor("document.getElementById('status').dataset.turn === 'you'", what: "\(b.label)'s turn")
        try b.click("#keyboard .key[data-key=\"\(letter)\"]")
        try line(b, "OK LETTER letter=\(letter)")
    }

    @Test("Two browsers play a whole Ghost game by a private game's code; a reload mid-game resumes it; each page shows its end")
    func twoBrowsersPlayGhost() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .desktop)
            let bob = try Browser("bob", viewport: .phone)
            _ = try Self.privateGame(alice, bob, port: port)
            // Whoever is first plays Q; the other, reloaded first, resumes and plays Z: "qz" starts no word, and loses.
            try alice.waitFor("['you', 'them'].includes(document.getElementById('status').dataset.turn)", what: "alice's status")
            let (first, second) = try Self.turn(alice) == "you" ? (alice, bob) : (bob, alice)
            try Self.play(first, "q")
            try Self.line(second, "MOVE id=1 player=\(first.label) letter=q")
            // A screen reader hears it: the live region says what was played and whose turn it is.
            #expect(try second.run("return document.getElementById('announce').getAttribute('aria-live')").string == "polite")
            try second.waitFor("document.getElementById('announce').textContent.includes('\(first.label)')"
                                + " && document.getElementById('announce').textContent.includes('Your turn')",
                                what: "the live region's announcement of alice's move and bob's turn")
            try second.reload()
            try Self.screen(second, "game")
            try Self.line(second, "OK RESUME id=1")
            try second.waitFor("document.getElementById('fragment').dataset.value === 'q'", what: "the fragment after the reload")
            try Self.play(second, "z")
            for b in [alice, bob] {
                try Self.line(b, "OVER id=1 ")
                try b.waitFor("!document.getElementById('result').hidden", what: "\(b.label)'s result")
            }
            #expect(try first.run("return document.getElementById('result').dataset.outcome").string == "won")
            #expect(try second.run("return document.getElementById('result').dataset.outcome").string == "lost")
            #expect(try alice.consoleErrors().isEmpty)
        }
    }

    @Test("The daemon's kill -9 mid-game: the page reconnects by itself and resumes the game, which goes on to its end")
    func resumesAfterKill() async throws {
        try await onOwnThread {
            var (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            let b = try Browser("dave", viewport: .phone)
            try Self.enter(b, port: port, name: "dave")
            try Self.startFromMenu(b, "#menu-ghost")
            try Self.play(b, "q")
            _ = daemon.kill()
            try b.waitFor("document.getElementById('conn').dataset.state !== 'connected'", what: "the page sees the daemon gone")
            daemon = try daemon.relaunch(extraArguments: ["--web-port", String(port), "--bot-delay", "0"])
            try b.waitFor("document.getElementById('conn').dataset.state === 'connected'", timeout: 60, what: "the page back")
            try Self.line(b, "OK RESUME id=1")
            try b.waitFor("document.getElementById('fragment').dataset.value.startsWith('q')", what: "the game as it was")
            for letter in "zxjkvw" {
                if try b.run("return document.getElementById('status').dataset.turn").string == "over" { break }
                try b.waitFor("['you', 'over'].includes(document.getElementById('status').dataset.turn)", what: "dave's turn or the end")
                if try b.run("return document.getElementById('status').dataset.turn").string == "over" { break }
                try b.click("#keyboard .key[data-key=\"\(letter)\"]")
                try b.waitFor("window.ghost.lines.some(l => l.startsWith('OK LETTER letter=\(letter)') || l.startsWith('OVER '))", what: "dave's \(letter)")
            }
            try Self.line(b, "OVER id=1 ")
        }
    }

    @Test("A page of another origin cannot open the WebSocket (403), though the page's own can")
    func foreignOrigin() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let evil = try StaticHTTPServer(pages: ["/": .html("""
                <!doctype html><title>evil</title><p id="out">trying</p><script>
                const ws = new WebSocket('ws://127.0.0.1:\(port)/ws');
                ws.onmessage = (e) => { document.getElementById('out').textContent = 'got ' + e.data; };
                ws.onclose = (e) => { if (!document.getElementById('out').textContent.startsWith('got')) document.getElementById('out').textContent = 'refused ' + e.code; };
                </script>
                """)])
            defer { evil.stop() }
            let b = try Browser("visitor")
            try b.open(evil.url())
            let text = try b.waitFor("document.getElementById('out').textContent.startsWith('refused') ? document.getElementById('out').textContent : false",
                                     what: "the foreign page's WebSocket refused").string ?? ""
            #expect(text == "refused 1006", "\(text)")
            #expect(daemon.waitForStderrLine(timeout: 10) { $0.contains("web request from 127.0.0.1:") && $0.contains("GET /ws: 403 Forbidden") } != nil)
            // The page's own origin may.
            try Self.enter(b, port: port, name: "visitor")
        }
    }

    @Test("A game kind the page has no code for (the tests' Word chain) is played from the server's description: its rows drawn, its word move and its CONCEDE button")
    func aKindWithNoWebCode() async throws {
        try await onOwnThread {
            let daemon = try DaemonProcess.start(extraArguments: ["--web-port", "any", "--bot-delay", "0"],
                                                 binary: DaemonProcess.testKindsBinaryPath())
            defer { daemon.kill() }
            guard let port = daemon.webPort else { throw DaemonError("no web port:\n\(daemon.stderrText)") }
            let b = try Browser("erin", viewport: .phone)
            try Self.enter(b, port: port, name: "erin")
            try Self.startFromMenu(b, "[data-test=menu-kind][data-kind=wordchain]")
            try Self.line(b, "GAME id=1 game=wordchain")
            // Its turn: a word of the kind's list that follows the last (or any, first), with the kind's own verb.
            try b.waitFor("document.getElementById('status').dataset.turn === 'you' && document.querySelector('#word-input[data-verb=CHAIN]')",
                          what: "erin's turn, with the CHAIN field")
            #expect(try b.exists("#board [data-test^=row-]"))
            let last = try b.run("""
                const v = [...window.ghost.lines].reverse().find(l => l.startsWith('MOVE id=1 ') && l.includes(' word='));
                return v ? v.split(' word=')[1].split(' ')[0] : '';
                """).string ?? ""
            // (The kind's list, as its module has it; a word that no word follows leaves only CONCEDE.)
            let words = ["ant", "apple", "eagle", "eel", "egg", "elephant", "emu", "goat", "grape", "lemon", "lion",
                         "newt", "nut", "olive", "owl", "rabbit", "rat", "tapir", "tea", "tiger", "toad", "tomato", "trout", "tuna"]
            if let word = words.first(where: { $0 != last && (last.isEmpty || $0.first == last.last) }) {
                try b.type(word, into: "#word-input")
                try b.click("#word-submit")
                try b.waitFor("window.ghost.lines.some(l => l.startsWith('OK CHAIN') || l.startsWith('ERR '))", what: "the CHAIN answered")
                let recent = try b.run("return window.ghost.lines.slice(-5)")
                #expect(try b.run("return window.ghost.lines.some(l => l.startsWith('OK CHAIN'))").isTruthy, "\(word) after \(last): \(recent)")
            }
            // Then it gives up with the kind's own button.
            try b.waitFor("document.getElementById('status').dataset.turn !== 'them' && document.querySelector('[data-test=can][data-verb=CONCEDE]')",
                          what: "the CONCEDE button")
            if try b.run("return document.getElementById('status').dataset.turn").string == "you" {
                try b.click("[data-test=can][data-verb=CONCEDE]")
            }
            try Self.line(b, "OVER id=1 ")
            try b.waitFor("!document.getElementById('result').hidden", what: "the result")
        }
    }

    @Test("Letters typed faster than the server answers are all played, in order: none is lost while a turn's moves are on their way")
    func fastTyping() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            let b = try Browser("fay", viewport: .desktop)
            try Self.enter(b, port: port, name: "fay")
            try Self.startFromMenu(b, "#menu-hangman")
            try b.waitFor("document.getElementById('status').dataset.turn === 'you'", what: "fay's turn")
            // Three keys at once, without waiting for any answer.
            try b.press("e")
            try b.press("a")
            try b.press("o")
            try b.waitFor("window.ghost.lines.some(l => l.startsWith('OK LETTER letter=o') || l.startsWith('OVER '))", what: "the third letter played")
            let sent = try b.run("return window.ghost.sent.filter(l => l.startsWith('LETTER '))")
            #expect(sent == ["LETTER e", "LETTER a", "LETTER o"], "\(sent)")
        }
    }
}
}
