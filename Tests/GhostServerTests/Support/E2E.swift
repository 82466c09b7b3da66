import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Shared plumbing for the end-to-end tests: which daemon a test talks to,
/// unique player names, and the common game steps with exact line checks.
enum E2E {
    /// Set GHOSTD_E2E_ISOLATED=1 to give every test its own daemon.
    static let forceIsolated = ProcessInfo.processInfo.environment["GHOSTD_E2E_ISOLATED"] == "1"

    /// Runs `body` against a daemon. By default that is one daemon shared by the
    /// whole test run (tests on it use NEW/JOIN and unique names only, never
    /// SEEK); with `isolated` it is a fresh daemon that is killed when `body` returns.
    static func withDaemon<T>(isolated: Bool = false, extraArguments: [String] = [],
                              _ body: (DaemonProcess) throws -> T) throws -> T {
        if isolated || forceIsolated || !extraArguments.isEmpty {
            let daemon = try DaemonProcess.start(extraArguments: extraArguments)
            defer { daemon.kill() }
            return try body(daemon)
        }
        return try body(try SharedDaemon.get())
    }

    // MARK: Names

    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var counter = 0

    /// A name no other test uses: `<base>-<n>` (at most 16 characters).
    static func name(_ base: String) -> String {
        counterLock.lock()
        counter += 1
        let n = counter
        counterLock.unlock()
        return String(base.prefix(10)) + "-\(n)"
    }

    // MARK: Connecting

    /// Connects and logs in under a fresh unique name built from `base`.
    static func player(_ daemon: DaemonProcess, _ base: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> Player {
        let name = E2E.name(base)
        let client = try LineClient(port: daemon.port, label: name, sourceLocation: sourceLocation)
        try client.login(name, sourceLocation: sourceLocation)
        return Player(name: name, client: client)
    }
}

/// A logged-in connection and its name.
struct Player {
    let name: String
    let client: LineClient

    func send(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.send(text, sourceLocation: sourceLocation)
    }
    func expect(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expect(line, sourceLocation: sourceLocation)
    }
    func expectError(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expectError(code, sourceLocation: sourceLocation)
    }
    func expectNothing(within: Double = 0.3, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expectNothing(within: within, sourceLocation: sourceLocation)
    }
}

/// A game in progress between two players, with the steps checked line by line.
struct Game {
    let id: Int
    let lang: String
    /// players[0] moves first.
    let players: [Player]
    var fragment = ""
    var toMove = 0

    /// `host` sends NEW (after `LANG lang` unless lang is en), `guest` JOINs with the
    /// code (in lower case, which must work), and both see GAME and the first TURN.
    static func privateGame(host: Player, guest: Player, lang: String = "en",
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> Game {
        if lang != "en" {
            try host.send("LANG \(lang)", sourceLocation: sourceLocation)
            try host.expect("OK LANG lang=\(lang)", sourceLocation: sourceLocation)
        }
        let code = try openGame(host, lang: lang, sourceLocation: sourceLocation)
        try guest.send("JOIN \(code.lowercased())", sourceLocation: sourceLocation)
        try guest.expect("OK JOIN code=\(code) lang=\(lang)", sourceLocation: sourceLocation)
        let id = try expectGameStart(host, players: [host, guest], lang: lang, sourceLocation: sourceLocation)
        try guest.expect("GAME id=\(id) lang=\(lang) players=\(host.name),\(guest.name)", sourceLocation: sourceLocation)
        try guest.expect("TURN id=\(id) player=\(host.name) fragment=", sourceLocation: sourceLocation)
        return Game(id: id, lang: lang, players: [host, guest])
    }

    /// NEW → `OK NEW code=XXXXX lang=..` and its INFO; returns the code.
    static func openGame(_ host: Player, lang: String = "en", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try host.send("NEW", sourceLocation: sourceLocation)
        let ok = try host.client.expectPrefix("OK NEW code=", sourceLocation: sourceLocation)
        let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
        let alphabet = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        if code.count != 5 || !code.allSatisfy(alphabet.contains) || ok != "OK NEW code=\(code) lang=\(lang)" {
            try host.client.fail("bad NEW reply `\(ok)`", sourceLocation)
        }
        try host.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).", sourceLocation: sourceLocation)
        return code
    }

    /// Reads `GAME id=N lang=.. players=a,b` and `TURN id=N player=a fragment=`; returns N.
    static func expectGameStart(_ p: Player, players: [Player], lang: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let line = try p.client.expectPrefix("GAME id=", sourceLocation: sourceLocation)
        let idText = line.dropFirst("GAME id=".count).prefix(while: { $0 != " " })
        guard let id = Int(idText), id > 0 else { try p.client.fail("bad game id in `\(line)`", sourceLocation) }
        let expected = "GAME id=\(id) lang=\(lang) players=\(players[0].name),\(players[1].name)"
        if line != expected { try p.client.fail("expected `\(expected)`\n     got `\(line)`", sourceLocation) }
        try p.expect("TURN id=\(id) player=\(players[0].name) fragment=", sourceLocation: sourceLocation)
        return id
    }

    var mover: Player { players[toMove] }
    var waiter: Player { players[1 - toMove] }

    /// The player to move sends `input` (a bare letter by default), which must
    /// keep the game going: checks OK LETTER, MOVE and TURN on both sides.
    mutating func play(_ letter: Character, input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (m, w) = (mover, waiter)
        let frag = fragment + String(letter)
        try m.send(input ?? String(letter), sourceLocation: sourceLocation)
        try m.expect("OK LETTER letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
        for p in [m, w] {
            try p.expect("MOVE id=\(id) player=\(m.name) letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
            try p.expect("TURN id=\(id) player=\(w.name) fragment=\(frag)", sourceLocation: sourceLocation)
        }
        fragment = frag
        toMove = 1 - toMove
    }

    /// Plays each letter in turn; none may end the game.
    mutating func play(_ letters: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for c in letters { try play(c, sourceLocation: sourceLocation) }
    }

    /// The player to move sends `letter`, which must end the game with `reason`
    /// and the INFO sentence `info` (use `{loser}` for the loser's name).
    mutating func playLosing(_ letter: Character, reason: String, info: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (m, w) = (mover, waiter)
        let frag = fragment + String(letter)
        try m.send(String(letter), sourceLocation: sourceLocation)
        try m.expect("OK LETTER letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
        for p in [m, w] {
            try p.expect("MOVE id=\(id) player=\(m.name) letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
            try p.expect("OVER id=\(id) winner=\(w.name) loser=\(m.name) reason=\(reason) fragment=\(frag)", sourceLocation: sourceLocation)
            try p.expect("INFO " + info.replacingOccurrences(of: "{loser}", with: m.name), sourceLocation: sourceLocation)
        }
        fragment = frag
    }

    /// Both players get `OVER … reason=left` and `INFO <leaver> left the game.`
    func expectLeft(by leaver: Int, to seats: [Int] = [0, 1], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (l, w) = (players[leaver], players[1 - leaver])
        for seat in seats {
            try players[seat].expect("OVER id=\(id) winner=\(w.name) loser=\(l.name) reason=left fragment=\(fragment)", sourceLocation: sourceLocation)
            try players[seat].expect("INFO \(l.name) left the game.", sourceLocation: sourceLocation)
        }
    }
}

/// One daemon for the whole test run, started on first use and killed at exit
/// (and by its watchdog if this process dies).
enum SharedDaemon {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var daemon: DaemonProcess?
    nonisolated(unsafe) private static var registeredExit = false

    static func get() throws -> DaemonProcess {
        lock.lock()
        defer { lock.unlock() }
        if let daemon, daemon.isRunning { return daemon }
        if let daemon {
            Issue.record("the shared ghostd died (\(daemon.exitStatus.map(\.description) ?? "?")); starting another. stderr:\n\(daemon.stderrLines.suffix(20).joined(separator: "\n"))")
        }
        let d = try DaemonProcess.start()
        daemon = d
        if !registeredExit {
            registeredExit = true
            atexit { SharedDaemon.stopAtExit() }
        }
        return d
    }

    private static func stopAtExit() {
        lock.lock()
        let d = daemon
        daemon = nil
        lock.unlock()
        if let d, d.isRunning { _ = Glibc.kill(d.pid, SIGKILL) }
    }
}
