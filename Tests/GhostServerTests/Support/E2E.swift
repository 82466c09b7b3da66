import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
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

    /// Both players of `game`, left at "pe" with ann to move by a daemon that
    /// stopped (killed, restarted, copied, taken over), come back on
    /// `daemon`: the first RESUMEs and finds the second away (`ADJOURNED`),
    /// the second RESUMEs; then "a", and "r" loses the game on "pear".
    static func resumeAtPeAndFinish(_ daemon: DaemonProcess, _ game: inout Game, ranks: (Int, Int)? = nil,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        game.players[0] = try resume(daemon, game, seat: 0, extra: ["ADJOURNED id=\(game.id) player=\(game.players[1].name) grace=60"],
                                     opponentPresent: false, sourceLocation: sourceLocation)
        game.players[1] = try resume(daemon, game, seat: 1, sourceLocation: sourceLocation)
        try game.play("a", sourceLocation: sourceLocation)
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.", ranks: ranks,
                            sourceLocation: sourceLocation)
    }

    /// A new connection (no NAME) that sends `RESUME <token>` for `seat` of
    /// `game`: checks `OK RESUME id=N`, `GAME … token=<same> round=..`, then
    /// `extra` lines (OFFER, ADJOURNED …) and `TURN … fragment=<game's>`. The
    /// opponent, if `opponentPresent`, gets `RETURNED id=N player=<name>`.
    /// Returns the new connection as the seat's player.
    static func resume(_ daemon: DaemonProcess, _ game: Game, seat: Int, extra: [String] = [],
                       opponentPresent: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> Player {
        let old = game.players[seat]
        let client = try LineClient(port: daemon.port, label: old.name + "'", sourceLocation: sourceLocation)
        let p = Player(name: old.name, client: client)
        p.wins = old.wins
        p.played = old.played
        p.beaten = old.beaten
        try p.send("RESUME \(game.tokens[seat])", sourceLocation: sourceLocation)
        try p.expect(lines: ["OK RESUME id=\(game.id)",
                             "GAME id=\(game.id) game=ghost lang=\(game.lang) players=\(game.players[0].name),\(game.players[1].name) token=\(game.tokens[seat]) round=\(game.round)"
                                + old.record(against: game.players[1 - seat])]
                            + extra + [game.stateTurn],
                     sourceLocation: sourceLocation)
        if opponentPresent {
            try game.players[1 - seat].expect("RETURNED id=\(game.id) player=\(old.name)", sourceLocation: sourceLocation)
        }
        return p
    }
}

/// A logged-in connection and its name, with the games it finished on this
/// daemon (so the `RANK ... wins=` it must be told are known).
final class Player {
    let name: String
    let client: LineClient
    /// Finished games won and played under this name on this daemon.
    var wins = 0
    var played = 0
    /// Finished games won against each opponent (lowercased name) on this
    /// daemon: the head-to-head record a GAME between them carries.
    var beaten: [String: Int] = [:]

    /// ` record=<mine>-<theirs>` on a GAME against `other`, or nothing before
    /// the two have finished a game together.
    func record(against other: Player) -> String {
        let mine = beaten[other.name.lowercased()] ?? 0, theirs = other.beaten[name.lowercased()] ?? 0
        return mine + theirs == 0 ? "" : " record=\(mine)-\(theirs)"
    }

    init(name: String, client: LineClient) {
        self.name = name
        self.client = client
    }

    func send(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.send(text, sourceLocation: sourceLocation)
    }
    func expect(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expect(line, sourceLocation: sourceLocation)
    }
    func expect(lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expect(lines: lines, sourceLocation: sourceLocation)
    }
    @discardableResult
    func expectError(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try client.expectError(code, sourceLocation: sourceLocation)
    }
    func expectNothing(within: Double = 0.3, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.expectNothing(within: within, sourceLocation: sourceLocation)
    }
}

/// The fields of a server line: `KEY a=b c=d` → ["a": "b", "c": "d"].
/// Sends STATS (`after`) and reads its `STAT` lines up to `OK STATS`: name → value.
func statFields(after send: () throws -> Void, readLine: () throws -> String) throws -> [String: String] {
    try send()
    var stats: [String: String] = [:]
    while true {
        let line = try readLine()
        if line.hasPrefix("OK STATS") { return stats }
        let f = lineFields(line)
        if let n = f["name"] { stats[n] = f["value"] }
    }
}

func lineFields(_ line: String) -> [String: String] {
    var out: [String: String] = [:]
    for part in line.split(separator: " ").dropFirst() {
        guard let eq = part.firstIndex(of: "=") else { continue }
        out[String(part[..<eq])] = String(part[part.index(after: eq)...])
    }
    return out
}

/// A resume token: 32 lowercase hex digits.
func isToken(_ s: String) -> Bool {
    s.utf8.count == 32 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
}

/// What `GAME id=N game=ghost lang=.. players=a,b token=T round=R` told one player.
struct GameHeader: Equatable {
    let id: Int
    let token: String
}

/// A game in progress between two players, with the steps checked line by line.
struct Game {
    let id: Int
    var lang: String
    /// players[0] moves first. A seat's player is replaced after a RESUME.
    var players: [Player]
    /// Each player's resume token (from its own GAME line).
    let tokens: [String]
    var round = 1
    var fragment = ""
    var toMove = 0

    init(id: Int, lang: String, players: [Player], tokens: [String], round: Int = 1) {
        self.id = id
        self.lang = lang
        self.players = players
        self.tokens = tokens
        self.round = round
    }

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
        return try expectStart(players: [host, guest], lang: lang, sourceLocation: sourceLocation)
    }

    /// Both players get GAME (each with its own token) and the first TURN;
    /// returns the game.
    static func expectStart(players: [Player], lang: String, round: Int = 1,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> Game {
        let h0 = try expectGameStart(players[0], players: players, lang: lang, round: round, sourceLocation: sourceLocation)
        let h1 = try expectGameStart(players[1], players: players, lang: lang, round: round, id: h0.id, sourceLocation: sourceLocation)
        if h0.token == h1.token {
            try players[1].client.fail("both players got the same resume token \(h0.token)", sourceLocation)
        }
        return Game(id: h0.id, lang: lang, players: players, tokens: [h0.token, h1.token], round: round)
    }

    /// NEW → `OK NEW code=XXXXXXXX lang=..` and its INFO; returns the code.
    static func openGame(_ host: Player, lang: String = "en", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try host.send("NEW", sourceLocation: sourceLocation)
        let ok = try host.client.expectPrefix("OK NEW code=", sourceLocation: sourceLocation)
        let code = String(ok.dropFirst("OK NEW code=".count).prefix(while: { $0 != " " }))
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        if code.count != 8 || !code.allSatisfy(alphabet.contains) || ok != "OK NEW code=\(code) lang=\(lang)" {
            try host.client.fail("bad NEW reply `\(ok)`", sourceLocation)
        }
        try host.expect("INFO Give the code \(code) to your opponent: they send JOIN \(code).", sourceLocation: sourceLocation)
        return code
    }

    /// Reads `GAME id=N game=ghost lang=.. players=a,b token=T round=R`, checking everything but
    /// N (unless `id` is given) and T (32 hex digits); returns N and T.
    static func expectGameHeader(_ p: Player, players: [Player], lang: String, round: Int = 1, id: Int? = nil,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> GameHeader {
        let line = try p.client.expectPrefix("GAME id=", sourceLocation: sourceLocation)
        let f = lineFields(line)
        guard let n = f["id"].flatMap({ Int($0) }), n > 0, id == nil || n == id else {
            try p.client.fail("bad game id in `\(line)`" + (id.map { ", expected \($0)" } ?? ""), sourceLocation)
        }
        let token = f["token"] ?? ""
        let other = players[0] === p ? players[1] : players[0]
        let expected = "GAME id=\(n) game=ghost lang=\(lang) players=\(players[0].name),\(players[1].name) token=\(token) round=\(round)"
            + p.record(against: other)
        if line != expected || !isToken(token) {
            try p.client.fail("expected `\(expected)` with a 32-hex-digit token\n     got `\(line)`", sourceLocation)
        }
        return GameHeader(id: n, token: token)
    }

    /// Reads the GAME line and the first `TURN id=N player=<first> fragment=`.
    @discardableResult
    static func expectGameStart(_ p: Player, players: [Player], lang: String, round: Int = 1, id: Int? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> GameHeader {
        let h = try expectGameHeader(p, players: players, lang: lang, round: round, id: id, sourceLocation: sourceLocation)
        try p.expect("TURN id=\(h.id) player=\(players[0].name) fragment=", sourceLocation: sourceLocation)
        return h
    }

    var mover: Player { players[toMove] }
    var waiter: Player { players[1 - toMove] }

    /// The TURN of the full state (RESUME, or the state sent again after a
    /// lost turn): it names who played the fragment's last letter.
    var stateTurn: String {
        "TURN id=\(id) player=\(mover.name) fragment=\(fragment)" + (fragment.isEmpty ? "" : " last=\(waiter.name)")
    }

    /// The player to move sends `input` (a bare letter by default), which must
    /// keep the game going: checks OK LETTER, MOVE and TURN on both sides.
    /// `present` limits the checks to the players still connected.
    /// `cancelling`: the line a pending offer's CANCELLED event sends, after MOVE.
    mutating func play(_ letter: Character, input: String? = nil, present: [Int] = [0, 1], cancelling: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (m, w) = (mover, waiter)
        let frag = fragment + String(letter)
        try m.send(input ?? String(letter), sourceLocation: sourceLocation)
        try m.expect("OK LETTER letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
        for seat in present {
            let p = players[seat]
            try p.expect("MOVE id=\(id) player=\(m.name) letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
            if let cancelling { try p.expect(cancelling, sourceLocation: sourceLocation) }
            try p.expect("TURN id=\(id) player=\(w.name) fragment=\(frag)", sourceLocation: sourceLocation)
        }
        fragment = frag
        toMove = 1 - toMove
    }

    /// Plays each letter in turn; none may end the game.
    mutating func play(_ letters: String, present: [Int] = [0, 1], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for c in letters { try play(c, present: present, sourceLocation: sourceLocation) }
    }

    /// The player to move sends `letter`, which must end the game with `reason`
    /// and the INFO sentence `info` (use `{loser}` for the loser's name), then
    /// the two RANK lines. `ranks` are the exact ranks of winner and loser when
    /// the test knows them (a daemon of its own); otherwise any rank >= 1 passes.
    /// `word`: the `word=` a dead fragment's OVER ends with.
    mutating func playLosing(_ letter: Character, reason: String, info: String, word: String? = nil, ranks: (Int, Int)? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (m, w) = (mover, waiter)
        let frag = fragment + String(letter)
        try m.send(String(letter), sourceLocation: sourceLocation)
        try m.expect("OK LETTER letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
        for p in [m, w] {
            try p.expect("MOVE id=\(id) player=\(m.name) letter=\(letter) fragment=\(frag)", sourceLocation: sourceLocation)
        }
        fragment = frag
        try expectOver(winner: w, loser: m, reason: reason,
                       info: info.replacingOccurrences(of: "{loser}", with: m.name), word: word, ranks: ranks,
                       sourceLocation: sourceLocation)
    }

    /// `OVER … reason=left` and `INFO <leaver> left the game.`, then RANK lines.
    func expectLeft(by leaver: Int, to seats: [Int] = [0, 1], ranks: (Int, Int)? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (l, w) = (players[leaver], players[1 - leaver])
        try expectOver(winner: w, loser: l, reason: "left", info: "\(l.name) left the game.", to: seats, ranks: ranks,
                       sourceLocation: sourceLocation)
    }

    /// The player still present gets `ADJOURNED id=N player=<absent> grace=<left>`
    /// and the INFO that explains it (which names the full `grace`).
    func expectAdjourned(absent: Int, grace: Int = 60, left: Int? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (gone, stayer) = (players[absent], players[1 - absent])
        try stayer.expect(lines: [
            "ADJOURNED id=\(id) player=\(gone.name) grace=\(left ?? grace)",
            "INFO \(gone.name) is away. The game waits; if they are still away \(grace) s into their turn, you may CLAIM it.",
        ], sourceLocation: sourceLocation)
    }

    /// `OVER id=N winner=W loser=L reason=R fragment=F`, `INFO <info>`,
    /// `RANK name=W rank=.. wins=..` and `RANK name=L rank=.. wins=..` to each
    /// seat in `to`; counts the result in both players' tallies. The RANK lines
    /// must be the same for both seats.
    func expectOver(winner w: Player, loser l: Player, reason: String, info: String, word: String? = nil, to seats: [Int] = [0, 1],
                    ranks: (Int, Int)? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        w.wins += 1
        w.played += 1
        l.played += 1
        w.beaten[l.name.lowercased(), default: 0] += 1
        var seen: [String]?
        for seat in seats {
            let p = players[seat]
            try p.expect("OVER id=\(id) winner=\(w.name) loser=\(l.name) reason=\(reason) fragment=\(fragment)" + (word.map { " word=\($0)" } ?? ""),
                         sourceLocation: sourceLocation)
            try p.expect("INFO " + info, sourceLocation: sourceLocation)
            let rankLines = try Game.expectRanks(p, winner: w, loser: l, ranks: ranks, sourceLocation: sourceLocation)
            if let seen, seen != rankLines {
                try p.client.fail("RANK lines differ between the players: \(seen) and \(rankLines)", sourceLocation)
            }
            seen = rankLines
        }
    }

    /// Reads `RANK name=<winner> rank=R wins=W` and the loser's; W from the
    /// players' tallies, R exact if given, else >= 1 (and the winner's no worse
    /// than the loser's when the winner has at least as many wins).
    @discardableResult
    static func expectRanks(_ p: Player, winner w: Player, loser l: Player, ranks: (Int, Int)? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        var lines: [String] = []
        var got: [Int] = []
        for (who, exact) in [(w, ranks?.0), (l, ranks?.1)] {
            let line = try p.client.expectPrefix("RANK name=\(who.name) rank=", sourceLocation: sourceLocation)
            let rank = Int(lineFields(line)["rank"] ?? "") ?? 0
            let expected = "RANK name=\(who.name) rank=\(exact ?? rank) wins=\(who.wins)"
            if line != expected || rank < 1 {
                try p.client.fail("expected `\(expected)`\n     got `\(line)`", sourceLocation)
            }
            lines.append(line)
            got.append(rank)
        }
        if w.wins >= l.wins && got[0] > got[1] {
            try p.client.fail("the winner ranks below the loser with at least as many wins: \(lines)", sourceLocation)
        }
        return lines
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
        // Every test on it comes from 127.0.0.1: no budget or cap by network,
        // or one test's 1 MB line or burst of connections made the others
        // wait (a test that checks those limits starts a daemon of its own).
        // Nor a wait for the disk (`--durability normal`): its replies waited
        // 20 s and more behind other tests' writes on a loaded machine (a
        // test of durability starts a daemon of its own).
        let d = try DaemonProcess.start(extraArguments: ["--max-commands-per-second-per-ip", "0", "--connects-per-second-per-ip", "0",
                                                         "--max-clients-per-ip", "0", "--max-unnamed-per-ip", "0",
                                                         "--durability", "normal"])
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
        if let d {
            if d.isRunning { _ = Glibc.kill(d.pid, SIGKILL) }
            // Its data folder is a temp one of ours (the object is never deinitialized).
            if !d.dataPath.isEmpty { try? FileManager.default.removeItem(atPath: d.dataPath) }
        }
    }
}

/// Runs a program to its end: its exit status and what it wrote (stdout and
/// stderr together). For the tools the tests call: ldd, sqlite3, install.sh,
/// systemd-analyze.
func runTool(_ path: String, _ arguments: [String], environment: [String: String] = [:],
             directory: String? = nil) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    if !environment.isEmpty {
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let status = p.waitForExit()
    return (status, text)
}
