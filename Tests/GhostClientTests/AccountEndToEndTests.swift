import Foundation
import Testing
import TestSupport
@testable import GhostClient
#if canImport(Glibc)
import Glibc
#endif

/// Real ghost-clients against a real ghostd: a whole Ghost game over
/// TLS (`--tls-ca` with a certificate the test makes), a name registered from
/// the main screen and logged in to again by a fresh process; without TLS, a
/// password goes to loopback only, unless `--insecure`. The password is
/// never on a screen, in a settings file, in the daemon's log or its data.
@Suite("EndToEnd: registered names and TLS, ghost-client against ghostd", .ownThread, .serialized)
struct AccountEndToEndTests {
    /// A password with spaces, and words that no screen shows otherwise.
    static let password = "Zq7 plover yacht"
    static let pieces = ["Zq7", "plover", "yacht"]

    /// A returning player's settings without a name: the client asks for one.
    static func writeConfig(_ tmux: Tmux, _ label: String) throws {
        try FileManager.default.createDirectory(atPath: "\(tmux.folder)/\(label)", withIntermediateDirectories: true)
        try "language=en\ntutorial=seen\ngame=ghost\n".write(toFile: "\(tmux.folder)/\(label)/config", atomically: true, encoding: .utf8)
    }

    /// Starts a client in `label`'s pane once its shell prompt is there.
    static func start(_ tmux: Tmux, _ label: String, host: String, port: Int, extra: String = "") throws {
        try tmux.waitFor(label, "the shell prompt") { $0.last(where: { !$0.isEmpty }).map { $0 == "$" || $0.hasSuffix(" $") } ?? false }
        try tmux.shell(label, try TLSClientEndToEndTests.command(tmux, label, host: host, port: port, extra: extra))
    }

    /// On the name screen, once connected (a key pressed before is refused,
    /// "Not connected to the server yet"): types `name` and takes it.
    static func pickName(_ tmux: Tmux, _ label: String, _ name: String) throws {
        try waitForNameScreen(tmux, label)
        try tmux.type(label, name)
        try tmux.keys(label, "Enter")
    }

    /// The name screen, connected (over TLS the handshake may still be going on).
    static func waitForNameScreen(_ tmux: Tmux, _ label: String) throws {
        try tmux.waitFor(label, "the name screen, connected") { s in
            s.contains { $0.contains("Name: ") } && !s.contains { $0.contains("Connecting to ") }
        }
    }

    /// On the main screen: a registers the name in use, the password typed twice.
    static func register(_ tmux: Tmux, _ label: String, _ name: String) throws {
        try tmux.waitFor(label, text: "a  Register your name")
        try tmux.keys(label, "a")
        try tmux.waitFor(label, text: "New password: _")
        try tmux.type(label, password)
        try tmux.waitFor(label, text: "New password: " + String(repeating: "•", count: password.count) + "_")
        try tmux.keys(label, "Enter")
        try tmux.waitFor(label, text: "Once more:")
        try tmux.type(label, password)
        try tmux.keys(label, "Enter")
        try tmux.waitFor(label, text: "“\(name)” is registered: from now on it needs your password.")
        try tmux.waitFor(label, text: "a  Change your password")
    }

    /// On the login screen: types `typed` and presses Enter.
    static func typePassword(_ tmux: Tmux, _ label: String, _ typed: String) throws {
        try tmux.waitFor(label, text: "Password: _")
        try tmux.type(label, typed)
        try tmux.waitFor(label, text: "Password: " + String(repeating: "•", count: typed.count) + "_")
        try tmux.keys(label, "Enter")
    }

    /// After a wrong password: the right one logs in. The server may first
    /// say `ERR too-many-attempts` (a wrong password makes the next wait a
    /// second, unless the daemon runs with `--login-backoff-max 0`): the
    /// client counts it down, and the password is typed again.
    static func logInAfterAWrongOne(_ tmux: Tmux, _ label: String, _ name: String) throws {
        try typePassword(tmux, label, password)
        let screen = try tmux.waitFor(label, "logged in, or asked to wait") { s in
            s.contains { $0.contains("Playing as \(name)") } || s.contains { $0.contains("you can try again in") }
        }
        if screen.contains(where: { $0.contains("you can try again in") }) {
            try tmux.waitFor(label, "the wait over") { s in !s.contains { $0.contains("you can try again in") } }
            try typePassword(tmux, label, password)
        }
        try tmux.waitFor(label, text: "Playing as \(name)")
    }

    /// Neither a screen, nor a settings file, nor the daemon's log, nor any
    /// file in its data folder has held the password (or a piece of it).
    static func expectPasswordNowhere(_ tmux: Tmux, _ daemon: DaemonProcess, labels: [String],
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(tmux.shownCount > 20, sourceLocation: sourceLocation)
        for piece in pieces {
            #expect(!tmux.everShown(piece), "a screen showed \(piece)", sourceLocation: sourceLocation)
            #expect(!daemon.stderrText.contains(piece), "the log holds \(piece)", sourceLocation: sourceLocation)
            for label in labels {
                let config = try String(contentsOfFile: "\(tmux.folder)/\(label)/config", encoding: .utf8)
                #expect(!config.contains(piece), "\(label)'s settings hold \(piece)", sourceLocation: sourceLocation)
            }
        }
        let fm = FileManager.default
        let files = try fm.contentsOfDirectory(atPath: daemon.dataPath)
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for file in files {
            guard let data = fm.contents(atPath: daemon.dataPath + "/" + file) else { continue }
            #expect(data.range(of: Data("plover".utf8)) == nil, "\(file) holds the password", sourceLocation: sourceLocation)
        }
    }

    @Test("Over TLS: ann registers from the main screen, ann and bob play a whole game to its end; a fresh ann logs in again after a wrong password; ann's name asks a password while she is online; the password is nowhere")
    func gameOverTLS() async throws {
        try await onOwnThread { try Self.playOverTLS() }
    }

    static func playOverTLS() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        // No wait after a wrong password (--login-backoff-max 0): the right
        // one logs in at once, however long the screens take (the countdown
        // of ERR too-many-attempts is AccountClientTests').
        let (daemon, tlsPort) = try TLSDaemon.start(cert, extra: ["--login-backoff-max", "0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        let tls = "--tls-ca \(cert.cert)"
        for who in ["ann", "bob"] {
            try tmux.newSession(who)
            try writeConfig(tmux, who)
            try start(tmux, who, host: "localhost", port: tlsPort, extra: tls)
            try pickName(tmux, who, who)
            try tmux.waitFor(who, text: "Playing as \(who)")
        }

        // ann registers her name: the password typed twice, shown as • only.
        try register(tmux, "ann", "ann")
        #expect(daemon.waitForStderrLine { $0.contains("name ann registered from 127.0.0.1") } != nil)

        // A private game: ann hosts, bob joins with the code.
        try tmux.keys("ann", "3")
        let hosting = try tmux.waitFor("ann", text: "Your private game code:")
        let codeLine = try #require(hosting.first { $0.trimmingCharacters(in: .whitespaces).range(of: "^[A-Z0-9]( [A-Z0-9]){7}$", options: .regularExpression) != nil })
        try tmux.keys("bob", "4")
        try tmux.waitFor("bob", text: "Code: _")
        try tmux.type("bob", codeLine.replacingOccurrences(of: " ", with: "").lowercased())
        try tmux.keys("bob", "Enter")

        // P, E, A, R: PEAR is a word of more than 3 letters, and bob, who completed it, loses.
        try tmux.waitFor("ann", text: "Your turn: type a letter")
        try tmux.type("ann", "p")
        try tmux.waitFor("bob", text: "Your turn: type a letter")
        try tmux.type("bob", "e")
        try tmux.waitFor("ann", text: "“PE” · 2 letters · bob played E")
        try tmux.type("ann", "a")
        try tmux.waitFor("bob", text: "“PEA” · 3 letters · ann played A")
        try tmux.type("bob", "r")
        let a = try tmux.waitFor("ann", text: "You win, ann! Congratulations!")
        #expect(a.contains("  bob completed “PEAR”, a word of more than 3 letters."))
        #expect(a.contains("  ▶ #1  ann  (1 win)"))
        let b = try tmux.waitFor("bob", text: "ann wins this game. Better luck next time!")
        #expect(b.contains("  You completed “PEAR”, a word of more than 3 letters."))

        // Both connections were TLS (the daemon logs the version), and the settings keep it.
        let opened = daemon.stderrLines.filter { $0.contains(" opened from ") }
        #expect(opened.count == 2 && opened.allSatisfy { $0.contains(" over TLSv1.") }, "\(opened)")
        let settings = try String(contentsOfFile: "\(tmux.folder)/ann/config", encoding: .utf8)
        #expect(settings.contains("tls=yes") && settings.contains("tls-ca=\(cert.cert)") && settings.contains("name=ann"))

        // ann quits; a fresh client with the same settings file asks her password.
        try tmux.quit("ann")
        try ClientEndToEndTests.expectRestored(tmux, "ann")
        try start(tmux, "ann", host: "localhost", port: tlsPort, extra: tls)
        try waitForNameScreen(tmux, "ann")
        try tmux.keys("ann", "Enter")
        try tmux.waitFor("ann", text: "The name “ann” is registered. Type its password to play as ann.")
        try typePassword(tmux, "ann", "wrong horse battery")
        try tmux.waitFor("ann", text: "Wrong password: try again.")
        #expect(daemon.waitForStderrLine { $0.contains("login failed for ann from 127.0.0.1") } != nil)
        try logInAfterAWrongOne(tmux, "ann", "ann")
        try tmux.waitFor("ann", text: "a  Change your password")

        // bob, a fresh process, cannot take ann's name as a guest: while ann is
        // online it asks the password too (the owner's would take it over;
        // ghostd answered name-taken here before, so the owner's second client
        // could not offer one).
        try tmux.quit("bob")
        try ClientEndToEndTests.expectRestored(tmux, "bob")
        try start(tmux, "bob", host: "localhost", port: tlsPort, extra: tls)
        try waitForNameScreen(tmux, "bob")
        try tmux.keys("bob", "BSpace", "BSpace", "BSpace")
        try pickName(tmux, "bob", "ann")
        try tmux.waitFor("bob", text: "The name “ann” is registered. Type its password to play as ann.")

        try expectPasswordNowhere(tmux, daemon, labels: ["ann", "bob"])
        try tmux.quit("ann")
        try ClientEndToEndTests.expectRestored(tmux, "ann")
        try tmux.quit("bob")
        try ClientEndToEndTests.expectRestored(tmux, "bob")
    }

    @Test("Without --tls: a password goes to 127.0.0.1 (register, then a fresh process logs in); to this machine's other address only with --insecure")
    func passwordsWithoutTLS() async throws {
        try await onOwnThread { try Self.withoutTLS() }
    }

    static func withoutTLS() throws {
        let other = nonLoopbackIPv4()
        // Every interface, so that the non-loopback address reaches it too (when there is one).
        let daemon = try DaemonProcess.start(extraArguments: other == nil ? [] : ["--host", "0.0.0.0"])
        defer { daemon.kill() }
        let tmux = try Tmux()
        defer { tmux.kill() }

        // Loopback: cat registers and logs in again from a fresh process.
        try tmux.newSession("cat")
        try writeConfig(tmux, "cat")
        try start(tmux, "cat", host: "127.0.0.1", port: daemon.port)
        try pickName(tmux, "cat", "cat")
        try register(tmux, "cat", "cat")
        try tmux.quit("cat")
        try ClientEndToEndTests.expectRestored(tmux, "cat")
        try start(tmux, "cat", host: "127.0.0.1", port: daemon.port)
        try waitForNameScreen(tmux, "cat")
        try tmux.keys("cat", "Enter")
        try typePassword(tmux, "cat", password)
        try tmux.waitFor("cat", text: "Playing as cat")
        try tmux.waitFor("cat", text: "a  Change your password")
        try tmux.quit("cat")
        try ClientEndToEndTests.expectRestored(tmux, "cat")

        guard let other else {
            try expectPasswordNowhere(tmux, daemon, labels: ["cat"])
            return
        }
        // The same daemon at this machine's other address, in clear: no password screen to type into.
        try tmux.newSession("dan")
        try writeConfig(tmux, "dan")
        try start(tmux, "dan", host: other, port: daemon.port)
        try pickName(tmux, "dan", "cat")
        let refused = try tmux.waitFor("dan", text: "The name “cat” is registered.")
        let text = refused.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Your password would cross the network to \(other):\(daemon.port) unencrypted"), "\(refused)")
        #expect(!refused.contains { $0.contains("Password: ") })
        try tmux.type("dan", password)
        try tmux.keys("dan", "Enter")
        try tmux.waitFor("dan", text: "No password without TLS: start with --tls (or --insecure).")
        // As a guest, its entry 0 does not register either.
        try tmux.keys("dan", "Escape")
        try pickName(tmux, "dan", "dan")
        try tmux.waitFor("dan", text: "Playing as dan")
        try tmux.keys("dan", "0")
        try tmux.waitFor("dan", text: "Your password would cross the network")
        try tmux.type("dan", password)
        try tmux.keys("dan", "Enter")
        try tmux.waitFor("dan", text: "No password without TLS: start with --tls (or --insecure).")
        try tmux.quit("dan")
        try ClientEndToEndTests.expectRestored(tmux, "dan")
        #expect(!daemon.stderrText.contains("login failed"))
        #expect(!daemon.stderrText.contains("name dan registered"))

        // With --insecure it sends it.
        try start(tmux, "dan", host: other, port: daemon.port, extra: "--insecure")
        try waitForNameScreen(tmux, "dan")
        try tmux.keys("dan", "BSpace", "BSpace", "BSpace")
        try pickName(tmux, "dan", "cat")
        try typePassword(tmux, "dan", password)
        try tmux.waitFor("dan", text: "Playing as cat")
        try tmux.waitFor("dan", text: "a  Change your password")
        try tmux.quit("dan")
        try ClientEndToEndTests.expectRestored(tmux, "dan")
        try expectPasswordNowhere(tmux, daemon, labels: ["cat", "dan"])
    }
}
