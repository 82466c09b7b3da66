import Foundation
import Testing
import GameKit
import GhostAuth
import GhostCore
import GhostProtocol
@testable import GhostServer
import GhostStore
import HangmanCore

// The lobby fuzzer (issue #15): a seeded random driver that plays 4
// simulated connections against the real lobby, with a manual clock, an
// in-memory outbox and a real SQLite store in a temporary folder. Each step
// is a command line (mostly valid: real names, codes, tokens and plausible
// letters and words, some garbage), a connect, a disconnect, an idle
// time-out, a clock jump (bot delay, grace period, idle time), or, in a
// third of the episodes, a store that starts or stops failing. After each
// step it checks the invariants below; at the end of each episode it
// rebuilds a second lobby from the same database (a restart) and compares.
//
// A failure prints the seed and the shortest trail of steps it could shrink
// the episode to. Runs:
//   swift test --filter LobbyFuzz                              (bounded: CI)
//   LOBBY_FUZZ_SECONDS=600 swift test --filter LobbyFuzz
//   LOBBY_FUZZ_SEED=1234 LOBBY_FUZZ_STEPS=400 swift test --filter LobbyFuzz

// MARK: Randomness

/// SplitMix64 again, so that a seed means the same steps on every machine.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

// MARK: Steps

/// One step of an episode. Tokens and join codes are named by the order in
/// which they were first seen, so a trail replays (and shrinks) although the
/// lobby draws them at random.
enum FuzzStep: CustomStringConvertible {
    case connect(slot: Int)
    case disconnect(slot: Int)
    /// The event loop's idle time-out: `BYE idle-timeout`, then the connection goes.
    case idle(slot: Int)
    case line(slot: Int, String)
    /// `<prefix><the nth token seen>` (a RESUME).
    case token(slot: Int, prefix: String, n: Int)
    /// `JOIN <the nth code seen>`.
    case code(slot: Int, n: Int)
    case tooLong(slot: Int)
    /// The clock moves on, then the lobby's tick.
    case advance(Double)
    /// From now on the store fails (a full disk): the nth kind of write
    /// (`FuzzRun.faults`), either its statement or the commit of its turn.
    case fault(Int)
    /// The store works again.
    case heal

    var description: String {
        switch self {
        case .connect(let s): "connect #\(s)"
        case .disconnect(let s): "disconnect #\(s)"
        case .idle(let s): "idle-timeout #\(s)"
        case .line(let s, let l): "#\(s) \(l.debugDescription)"
        case .token(let s, let p, let n): "#\(s) \(p)<token \(n)>"
        case .code(let s, let n): "#\(s) JOIN <code \(n)>"
        case .tooLong(let s): "#\(s) <line too long>"
        case .advance(let t): "advance \(t) s + tick"
        case .fault(let n): "store fails: \(FuzzRun.faults[n % FuzzRun.faults.count])"
        case .heal: "store works again"
        }
    }
}

/// What the lobby sends, typed, for the step in progress; the checks that
/// must look at the lobby at the moment of sending run in `onSend`.
final class FuzzOutbox: Outbox {
    private(set) var lines: [(conn: ConnectionID, line: ServerLine)] = []
    private(set) var closedNow: [ConnectionID] = []
    private var closed: Set<ConnectionID> = []
    private var mark = (lines: 0, closed: 0)
    var onSend: ((ServerLine, ConnectionID) -> Void)?

    func send(_ line: ServerLine, to id: ConnectionID) {
        guard !closed.contains(id) else { return }
        onSend?(line, id)
        lines.append((id, line))
    }
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String) {
        guard !closed.contains(id) else { return }
        lines.append((id, .bye(code, text)))
        closed.insert(id)
        closedNow.append(id)
    }
    func beginCommand() { mark = (lines.count, closedNow.count) }
    func discardCommand() {
        lines.removeLast(max(0, lines.count - mark.lines))
        for id in closedNow.dropFirst(mark.closed) { closed.remove(id) }
        closedNow.removeLast(max(0, closedNow.count - mark.closed))
    }
    /// A lost turn, as the event loop handles it: every line of the turn is
    /// withdrawn, its command is answered `ERR store-failed`, and a close
    /// stays (its BYE goes out). Returns the connections whose lines went.
    func withdrawTurn(command: ConnectionID?) -> Set<ConnectionID> {
        var withdrawn = Set(lines.map(\.conn))
        let byes = lines.filter { if case .bye = $0.line { return true } else { return false } }
        lines.removeAll()
        if let command {
            withdrawn.insert(command)
            lines.append((command, .error(.storeFailed, Lobby.storeFailedText)))
        }
        lines += byes
        mark = (0, 0)
        return withdrawn
    }

    /// The lines and closes of the step, and a fresh start for the next one.
    func takeStep() -> (lines: [(conn: ConnectionID, line: ServerLine)], closed: [ConnectionID]) {
        defer { lines.removeAll(); closedNow.removeAll(); mark = (0, 0) }
        return (lines, closedNow)
    }
}

/// Small lists (as the other lobby tests use) and a few phrases, so that
/// every mode of every kind can be played.
let fuzzDictionaries = Dictionaries(lists: lobbyLists,
                                    phrases: ["en": ["the cat", "hot dog", "peach pie"], "nl": ["de kat"]])

// MARK: One episode

/// A lobby over a fresh store, the simulated connections, and what the
/// checks know of what was sent.
final class FuzzRun {
    static let slots = 4
    let directory: String
    let store: Store
    let clock = ManualClock()
    let outbox = FuzzOutbox()
    let lobby: Lobby
    let settings: Lobby.Settings

    /// Each slot's connection, if it is connected.
    var conns: [ConnectionID?] = Array(repeating: nil, count: FuzzRun.slots)
    var nextConn = 1
    /// Tokens and join codes in the order first seen.
    var tokens: [String] = []
    var codes: [String] = []
    /// Which connection may see each token: the one it was first sent to, or
    /// the last one that resumed its seat with it.
    var owner: [String: ConnectionID] = [:]
    /// Per connection and game: the player the last TURN named (nil after a MOVE).
    var turn: [ConnectionID: [Int: String]] = [:]
    /// Names that got `OK NAME`, lowercased.
    var named: Set<String> = []
    /// Registered names (issue #26): the names each connection logged in to
    /// (OK REGISTER, OK NAME … registered=yes) or resumed a seat of (a token
    /// always wins back its seat), lowercased.
    var loggedIn: [ConnectionID: Set<String>] = [:]
    /// The lobby's log lines of the step.
    let logged = LogRecorder()
    var problems: [String] = []
    /// A second connection to the database, for the triggers that make it fail
    /// (as LobbyRecoveryTests does), and the one armed now.
    let raw: SQLiteDatabase
    var fault: String?
    static let faults = [
        "statement INSERT ON moves", "statement INSERT ON games", "statement UPDATE ON games",
        "statement UPDATE ON games WHEN NEW.offer_seat IS NOT NULL", "statement INSERT ON scores",
        "statement INSERT ON players", "statement INSERT ON best_games",
        "commit INSERT ON moves", "commit UPDATE ON games", "commit INSERT ON games", "commit INSERT ON players",
    ]
    /// What the episode reached: replies by verb and status, games over by kind and reason.
    var reached: [String: Int] = [:]
    var steps = 0
    var commands = 0
    /// Games whose GAME carried ratings (issue #28).
    var ratedGames: Set<Int> = []
    /// Prints every line (debugging a trail).
    var trace = false
    var printer: (String) -> Void = { print($0) }

    init(seed: UInt64) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-fuzz-\(UUID().uuidString)").path
        store = try Store(directory: directory, durability: .normal)
        var s = Lobby.Settings()
        // Half the episodes let the computer play at once, the others after a delay the clock must pass.
        s.botDelay = seed % 2 == 0 ? 0 : 0.6
        settings = s
        let logged = self.logged
        lobby = try Lobby(dictionaries: fuzzDictionaries, store: store, outbox: outbox, clock: clock, settings: s,
                          log: { logged.lines.append($0) })
        // Cheap hashes (yescrypt at its lowest cost): the fuzzer checks what
        // is done with them, not how slow they are.
        lobby.passwordChecker = FuzzPasswordChecker()
        raw = try SQLiteDatabase(path: store.path)
        try raw.execute("CREATE TABLE IF NOT EXISTS tripwire (name TEXT REFERENCES players(name) DEFERRABLE INITIALLY DEFERRED)")
        outbox.onSend = { [unowned self] line, conn in self.checkSecrecy(line, to: conn) }
    }

    deinit {
        raw.close()
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func problem(_ text: String) { problems.append("step \(steps): \(text)") }

    // MARK: Running a step

    func run(_ step: FuzzStep) {
        steps += 1
        var command: (conn: ConnectionID, verb: String?, resume: String?)?
        switch step {
        case .connect(let slot):
            guard conns[slot] == nil else { break }
            let id = nextConn
            nextConn += 1
            conns[slot] = id
            lobby.connected(id)
        case .disconnect(let slot):
            guard let id = conns[slot] else { break }
            conns[slot] = nil
            lobby.disconnected(id)
        case .idle(let slot):
            guard let id = conns[slot] else { break }
            clock.advance(600)
            outbox.close(id, .idleTimeout, "no command for 600 s")
        case .line(let slot, let text):
            guard let id = conns[slot] else { break }
            command = send(text, from: id)
        case .token(let slot, let prefix, let n):
            guard let id = conns[slot] else { break }
            let t = tokens.isEmpty ? "0123456789abcdef0123456789abcdef" : tokens[n % tokens.count]
            command = send(prefix + t, from: id)
            command?.resume = t
        case .code(let slot, let n):
            guard let id = conns[slot] else { break }
            command = send("JOIN " + (codes.isEmpty ? "ABCDE" : codes[n % codes.count]), from: id)
        case .tooLong(let slot):
            guard let id = conns[slot] else { break }
            lobby.received(.tooLong, from: id)
            command = (id, nil, nil)
        case .advance(let seconds):
            clock.advance(seconds)
            lobby.tick()
        case .fault(let n):
            heal()
            let words = FuzzRun.faults[n % FuzzRun.faults.count].split(separator: " ", maxSplits: 1).map(String.init)
            do {
                if words[0] == "statement" {
                    try raw.execute("CREATE TRIGGER fault BEFORE \(words[1]) BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END")
                } else {
                    try raw.execute("CREATE TRIGGER fault AFTER \(words[1]) BEGIN INSERT INTO tripwire VALUES ('no such player'); END")
                }
                fault = words[1]
            } catch {
                problem("cannot arm a fault: \(error)")
            }
        case .heal:
            heal()
        }
        endOfTurn(command: command?.conn)
        // The hashing pool answers (here within the step, so that a command
        // and its answer are checked together).
        lobby.passwordsChecked()
        endOfTurn(command: command?.conn)
        let live = Set(conns.compactMap { $0 })
        var taken = outbox.takeStep()
        // The event loop lets a closed connection go once its last lines are out.
        while !taken.closed.isEmpty {
            for id in taken.closed {
                if let slot = conns.firstIndex(of: id) { conns[slot] = nil }
                lobby.disconnected(id)
            }
            endOfTurn(command: nil)
            let more = outbox.takeStep()
            taken = (taken.lines + more.lines, more.closed)
        }
        if trace { for (c, l) in taken.lines { printer("  -> \(c): \(l.rendered)") } }
        check(taken.lines, live: live, command: command)
        checkAccounts(taken.lines, command: command)
        checkLobby()
    }

    private func send(_ text: String, from id: ConnectionID) -> (conn: ConnectionID, verb: String?, resume: String?)? {
        let bytes = Array(text.utf8)
        // The event loop passes no blank line on.
        if Server.isBlank(bytes) { return nil }
        commands += 1
        lobby.received(.line(bytes), from: id)
        var verb: String?
        if case .success(let c?) = CommandParser.parse(bytes) { verb = c.verb.rawValue }
        return (id, verb, nil)
    }

    private func heal() {
        guard fault != nil else { return }
        do { try raw.execute("DROP TRIGGER fault") } catch { problem("cannot drop a fault: \(error)") }
        fault = nil
    }

    /// What the event loop does at the end of a turn: commit, or, if the
    /// commit fails, withdraw the turn and let the lobby recover.
    private func endOfTurn(command: ConnectionID?) {
        do {
            try store.commit()
            lobby.committed()
        } catch {
            if fault == nil { problem("commit failed with no fault armed: \(error)") }
            reached["lost turn", default: 0] += 1
            lobby.recoverLostTurn(withdrawn: outbox.withdrawTurn(command: command))
        }
        if let e = lobby.storeError { problem("store error: \(e)") }
    }

    // MARK: Checks of the lines

    private func check(_ lines: [(conn: ConnectionID, line: ServerLine)], live: Set<ConnectionID>,
                       command: (conn: ConnectionID, verb: String?, resume: String?)?) {
        var finals = 0
        for (conn, line) in lines {
            if !live.contains(conn) { problem("a line to connection \(conn), which is gone: \(line.rendered)") }
            switch line {
            case .ok(let reply):
                reached["OK " + reply.verbText + (line.message["status"].map { " " + $0 } ?? ""), default: 0] += 1
                guard let command, command.conn == conn else {
                    problem("OK to \(conn), which sent no command: \(line.rendered)")
                    continue
                }
                finals += 1
                if let verb = command.verb, reply.verbText != verb {
                    problem("\(verb) answered \(line.rendered)")
                }
                if case .name(let name, _) = reply { named.insert(name.lowercased()) }
                if case .new(let code?, _, _, _, _) = reply, !codes.contains(code) { codes.append(code) }
                if case .other("NEW", let fields) = reply, let code = fields.first(where: { $0.key == "code" })?.value,
                   !codes.contains(code) { codes.append(code) }
                if case .resume = reply, let t = command.resume { owner[t] = conn }
                if MoveReply.isMove(reply) {
                    let me = lobby.sessions[conn]?.name
                    if me == nil || !(turn[conn] ?? [:]).values.contains(me ?? "") {
                        problem("\(line.rendered) to \(conn) (\(me ?? "?")), whose turn no TURN announced")
                    }
                }
            case .error(let code, _):
                reached["ERR " + code.rawValue, default: 0] += 1
                // Only an armed fault makes the store fail: otherwise this ERR means the lobby gave up on its own.
                if code == .storeFailed && fault == nil { problem("\(line.rendered) to \(conn), and the store did not fail") }
                guard let command, command.conn == conn else {
                    problem("ERR to \(conn), which sent no command: \(line.rendered)")
                    continue
                }
                finals += 1
            case .game(let id, let kind, _, let players, let token, _, _, let fields, _, _, _, let ratings):
                turn[conn, default: [:]][id] = nil
                reached["GAME " + (kind?.rawValue ?? "-") + (fields.first { $0.key == "mode" }.map { " " + $0.value } ?? ""), default: 0] += 1
                // A rated game (issue #28): a rating per seat, before it.
                if let ratings {
                    reached["GAME rated", default: 0] += 1
                    ratedGames.insert(id)
                    if ratings.ratings.count != 2 || ratings.changes != nil { problem("GAME with ratings \(line.rendered)") }
                }
                if let token {
                    if !tokens.contains(token) { tokens.append(token) }
                    if owner[token] == nil { owner[token] = conn }
                }
                if players.count != 2 || players.contains("?") { problem("GAME with players \(players)") }
            case .turn(let id, let player, _, _):
                turn[conn, default: [:]][id] = player
            case .move(let id, let player, _):
                guard let expected = turn[conn]?[id] else {
                    problem("MOVE to \(conn) without a TURN before it: \(line.rendered)")
                    continue
                }
                if expected != player { problem("MOVE by \(player), but TURN named \(expected): \(line.rendered)") }
                turn[conn]?[id] = nil
            case .over(let id, _, _, let reason, _, let ratings):
                turn[conn]?[id] = nil
                reached["OVER " + reason.rawValue, default: 0] += 1
                // Only a game that started rated ends rated, with a rating and a change per seat.
                if let ratings {
                    reached["OVER rated", default: 0] += 1
                    if !ratedGames.contains(id) { problem("OVER with ratings of a game whose GAME had none: \(line.rendered)") }
                    if ratings.ratings.count != 2 || ratings.changes?.count != 2 { problem("OVER with ratings \(line.rendered)") }
                }
            case .bye(let code, _):
                reached["BYE " + code.rawValue, default: 0] += 1
            default:
                break
            }
            // Tokens: only ever to their owner.
            for t in Self.hexRuns(line.rendered) where owner[t] != nil && owner[t] != conn {
                problem("token \(t) of connection \(owner[t] ?? -1) sent to \(conn): \(line.rendered)")
            }
        }
        if let command, finals != 1 {
            problem("a command from \(command.conn) got \(finals) OK/ERR lines: \(lines.filter { $0.conn == command.conn }.map(\.line.rendered))")
        }
    }

    /// Registered names (issue #26): no line and no log line holds a
    /// password or a hash; nobody is answered OK under a registered name
    /// without having logged in to it (or resumed a seat of it) on that connection.
    private func checkAccounts(_ lines: [(conn: ConnectionID, line: ServerLine)],
                               command: (conn: ConnectionID, verb: String?, resume: String?)?) {
        for text in lines.map(\.line.rendered) + logged.lines {
            if FuzzGenerator.passwords.contains(where: { text.contains($0) }) || text.contains("$y$") {
                problem("a password or a hash shown: \(text)")
            }
        }
        logged.lines.removeAll()
        for (conn, line) in lines {
            guard case .ok(let reply) = line else { continue }
            let fields = reply.fields
            if reply.verbText == "REGISTER" || (reply.verbText == "NAME" && fields.contains(Field("registered", "yes"))),
               let name = fields.first(where: { $0.key == "name" })?.value {
                loggedIn[conn, default: []].insert(name.lowercased())
                reached["logged in", default: 0] += 1
            }
            if case .resume = reply, let name = lobby.sessions[conn]?.name { loggedIn[conn, default: []].insert(name.lowercased()) }
        }
        guard let command, lines.contains(where: { $0.conn == command.conn && { if case .ok = $0 { true } else { false } }($0.line) }),
              let name = lobby.sessions[command.conn]?.name else { return }
        do {
            if try store.isRegistered(name), loggedIn[command.conn]?.contains(name.lowercased()) != true {
                problem("connection \(command.conn) acts as the registered \(name) without having logged in")
            }
        } catch {
            problem("cannot read the accounts: \(error)")
        }
    }

    /// Runs of exactly 32 hex digits (tokens) in a line.
    static func hexRuns(_ text: String) -> [String] {
        var out: [String] = []
        var run: [UInt8] = []
        for b in text.utf8 + [0x20] {
            if (0x30...0x39).contains(b) || (0x61...0x66).contains(b) {
                run.append(b)
            } else {
                if run.count == 32 { out.append(String(decoding: run, as: UTF8.self)) }
                run.removeAll(keepingCapacity: true)
            }
        }
        return out
    }

    /// Hangman: no line to the guesser's connection, and no line of the game
    /// to anyone but the setter's, carries the answer before the game is
    /// over (`word=<answer>`, or the word in a sentence).
    private func checkSecrecy(_ line: ServerLine, to conn: ConnectionID) {
        for table in lobby.rooms.values {
            guard let game = table.game as? HangmanGame, !game.isOver, let answer = game.answer,
                  table.seats[0] != conn else { continue }
            let message = line.message
            let guesser = table.seats[1] == conn
            guard guesser || message["id"] == "\(table.id)" else { continue }
            // A line about another game carries that game's fields: a finished
            // game's OVER (RESUME with its token) may hold the same word by chance.
            if let id = message["id"], id != "\(table.id)", case .over = line { continue }
            let slashed = answer.replacingOccurrences(of: " ", with: "/")
            if message.fields.contains(where: { $0.key == "word" && ($0.value == slashed || $0.value == answer) }) {
                problem("the answer of game \(table.id) sent to \(conn) before OVER: \(line.rendered)")
            }
            switch line {
            case .info(let text), .error(_, let text):
                // Sentences quote the answer ("pear"); a guess echoed back is never it while the game goes on.
                if guesser, text.contains("\"\(answer)\"") || text.contains("\"\(slashed)\"") {
                    problem("the answer of game \(table.id) in a line to \(conn) before OVER: \(line.rendered)")
                }
            default: break
            }
        }
    }

    // MARK: Checks of the lobby's state

    /// Sessions, seats, tokens and names agree; every game in memory is the
    /// game the store holds, and no game over is left in memory.
    private func checkLobby() {
        let live = Set(conns.compactMap { $0 })
        if Set(lobby.sessions.keys) != live {
            problem("sessions \(lobby.sessions.keys.sorted()) but connections \(live.sorted())")
        }
        for (conn, session) in lobby.sessions {
            // A watcher watches a game in progress that counts it, and does nothing else.
            if let g = session.watching {
                if session.state != .idle { problem("connection \(conn) watches game \(g) while \(session.state)") }
                if lobby.rooms[g] == nil { problem("connection \(conn) watches game \(g), which is not in progress") }
                if lobby.watching.watchers.groups[g]?.members.contains(conn) != true { problem("connection \(conn) watches game \(g), which does not count it") }
            }
            if case .playing(let g, let s) = session.state {
                guard let table = lobby.rooms[g], table.seats.indices.contains(s), table.seats[s] == conn else {
                    problem("connection \(conn) plays seat \(s) of game \(g), which does not seat it")
                    continue
                }
            }
            if let name = session.name, lobby.sessions.names[name.lowercased()] != conn {
                problem("connection \(conn) is called \(name), which is held by \(String(describing: lobby.sessions.names[name.lowercased()]))")
            }
        }
        for (key, conn) in lobby.sessions.names where lobby.sessions[conn]?.name?.lowercased() != key {
            problem("name \(key) held by \(conn), whose name is \(String(describing: lobby.sessions[conn]?.name))")
        }
        var personSeats = 0
        for (id, table) in lobby.rooms.byID {
            if table.game.isOver { problem("game \(id) is over but still in play") }
            if !(0...1).contains(table.game.toMove) { problem("game \(id): seat \(table.game.toMove) to move") }
            for seat in 0..<2 {
                if table.bot(seat) != nil {
                    if table.seats[seat] != nil { problem("game \(id): the computer's seat \(seat) holds a connection") }
                    continue
                }
                personSeats += 1
                if let t = lobby.rooms.tokens[table.tokens[seat]], t.game == id, t.seat == seat {} else {
                    problem("game \(id): the token of seat \(seat) does not lead to it")
                }
                if let conn = table.seats[seat], lobby.sessions[conn]?.state != .playing(game: id, seat: seat) {
                    problem("game \(id) seats \(conn) in seat \(seat), whose state is \(String(describing: lobby.sessions[conn]?.state))")
                }
            }
        }
        if lobby.rooms.tokens.count != personSeats {
            problem("\(lobby.rooms.tokens.count) tokens lead to games, for \(personSeats) seats of people")
        }
        do {
            let stored = try store.activeGames()
            // Every game in memory is in progress in the store; a game in the
            // store need not be in memory (it loads on RESUME: Lifecycle.swift).
            if !Set(lobby.rooms.keys).isSubset(of: stored.map(\.id)) {
                problem("games in the store \(stored.map(\.id).sorted()), in memory \(lobby.rooms.keys.sorted())")
            }
            for g in stored {
                guard let table = lobby.rooms[g.id] else { continue }
                if !lobby.recovery.table(table, matches: g) { problem("game \(g.id) in memory differs from the store: \(describe(table))") }
                // What the room keeps of its game follows the game (Room.swift).
                if table.gameToMove != table.game.toMove || table.gameIsOver != table.game.isOver {
                    problem("game \(g.id): the room says \(table.gameToMove) to move, over \(table.gameIsOver); the game \(table.game.toMove), \(table.game.isOver)")
                }
            }
        } catch {
            problem("cannot read the store: \(error)")
        }
    }

    func describe(_ t: Lobby.Room) -> String {
        "\(t.kind.name) \(t.lang) \(t.names) round \(t.match.round) losses \(t.match.losses) starter \(t.match.starter) "
            + "moves \(t.game.moveCount) to move \(t.game.toMove) \(t.game.publicFields) offer \(String(describing: t.offer)) spent \(t.offerSpent)"
    }

    // MARK: The restart

    /// A second lobby from the same database, as a restart makes: the same
    /// games in progress, the same names and the same scores.
    func checkRestart() throws {
        heal()
        endOfTurn(command: nil)
        let second = FuzzOutbox()
        let store2 = try Store(directory: directory, durability: .normal)
        defer { store2.close() }
        let lobby2 = try Lobby(dictionaries: fuzzDictionaries, store: store2, outbox: second, clock: clock, settings: settings)
        // Only the games on a clock are loaded at start; the others load on
        // RESUME, as `makeRoom` rebuilds them here.
        let clocked = Set(lobby.rooms.byID.filter { $0.value.clock != nil }.keys)
        if Set(lobby2.rooms.keys) != clocked {
            problem("after a restart: games \(lobby2.rooms.keys.sorted()), before on a clock \(clocked.sorted())")
        }
        for (id, a) in lobby.rooms.byID {
            guard let b = try lobby2.rooms[id] ?? store2.activeGame(id: id).flatMap({ lobby2.recovery.makeRoom($0, now: clock.monotonic) }) else {
                problem("game \(id) cannot be rebuilt after a restart")
                continue
            }
            let same = a.kind.name == b.kind.name && a.lang == b.lang && a.names == b.names && a.tokens == b.tokens
                && a.occupants == b.occupants && a.match == b.match && a.offer == b.offer && a.offerSpent == b.offerSpent
                && a.record.variant == b.record.variant && a.record.settings == b.record.settings && a.record.seed == b.record.seed
                && a.game.moveCount == b.game.moveCount && a.game.toMove == b.game.toMove
                && a.game.publicFields == b.game.publicFields && a.game.setupFields == b.game.setupFields
                && a.game.privateFields(for: 0) == b.game.privateFields(for: 0) && a.game.privateFields(for: 1) == b.game.privateFields(for: 1)
                && (a.game as? HangmanGame)?.answer == (b.game as? HangmanGame)?.answer
            if !same { problem("game \(id) after a restart: \(describe(b)); before: \(describe(a))") }
        }
        // Names: every name that got OK NAME, and no other.
        let names = Set(try store2.allNames().map { $0.lowercased() })
        if names != named { problem("names after a restart \(names.sorted()), named \(named.sorted())") }
        // Scores and best games: what the first lobby says, the second says.
        let queries = ["NAMES", "SCORES 100"] + Board.all.map { "SCORES 100 mode=\($0.mode.rawValue)" + ($0.bot.map { " bot=\($0.rawValue)" } ?? "") }
            + HangmanMode.allCases.map { "SCORES game=hangman mode=\($0.rawValue) 100" }
        let observer = 1_000_000 + nextConn
        func answers(_ l: Lobby, _ o: FuzzOutbox) -> [String] {
            _ = o.takeStep()
            l.connected(observer)
            for q in queries { l.received(.line(Array(q.utf8)), from: observer) }
            l.disconnected(observer)
            return o.takeStep().lines.map(\.line.rendered)
        }
        let before = answers(lobby, outbox), after = answers(lobby2, second)
        if before != after {
            problem("scores after a restart differ: \(after.filter { !before.contains($0) }) vs \(before.filter { !after.contains($0) })")
        }
    }
}

/// The replies to a move, for the turn check.
enum MoveReply {
    static func isMove(_ reply: Reply) -> Bool {
        switch reply {
        case .letter: true
        case .other(let verb, _): verb == "SOLVE" || verb == "WORD"
        default: false
        }
    }
}

// MARK: Choosing steps

/// Chooses the next step from what each slot's connection could sensibly
/// do now (it peeks at the lobby for that: which game, whose turn, which
/// letters are left), with some nonsense mixed in.
struct FuzzGenerator {
    var rng: FuzzRandom
    static let names = ["alice", "bob", "carol", "dave", "Alice", "eve", "bot-x", "x!"]
    /// Two passwords a name may have, and a wrong one (issue #26).
    static let passwords = ["first secret", "second secret", "wrong guess!"]
    /// A login, REGISTER or PASSWORD line.
    mutating func passwordLine(_ name: String? = nil) -> String {
        switch rng.int(0...9) {
        case 0..<4: return "NAME \(name ?? rng.pick(Self.names)) " + rng.pick(Self.passwords)
        case 4..<7: return "REGISTER " + rng.pick(Self.passwords.dropLast())
        case 7..<9: return "PASSWORD " + rng.pick(Self.passwords.dropLast())
        default: return rng.pick(["REGISTER short", "NAME alice 1234567", "PASSWORD"])
        }
    }
    static let words = ["pea", "pear", "peach", "cat", "cats", "dog", "dogs", "huis", "huisje", "kat", "katten", "zzz", "the/cat", "hot/dog"]
    static let garbage = ["", "   ", "FOO", "LETTER", "LETTER ab", "7", "!", "NAME", "SEEK rounds=two", "NEW bot=godlike",
                          "NEW game=chess", "NEW game=hangman mode=sneaky", "NEW game=hangman length=99", "NEW game=hangman misses=0", "NEW clock=2", "SEEK clock=x", "SEEK clock=5",
                          "SET hangman-mode duel", "SET colour red", "SCORES 0", "SCORES game=hangman mode=x", "JOIN",
                          "RESUME", "RESUME zz", "\u{1b}[2J", "é", "p p", "NEW game=hangman bot=guesser"]

    /// Whether the episode makes the store fail now and then.
    let faults: Bool

    init(seed: UInt64) {
        rng = FuzzRandom(seed: seed)
        faults = seed % 3 == 2
    }

    mutating func next(_ run: FuzzRun) -> FuzzStep {
        if faults && rng.chance(run.fault == nil ? 0.02 : 0.15) {
            return run.fault == nil ? .fault(rng.int(0...(FuzzRun.faults.count - 1))) : .heal
        }
        let r = rng.int(0...99)
        if r < 3 { return .advance(rng.pick([0.5, 1, 2, 5])) }
        if r < 5 { return .advance(rng.pick([59, 61, 61, 120])) }
        let slot = rng.int(0...(FuzzRun.slots - 1))
        guard let conn = run.conns[slot] else { return .connect(slot: slot) }
        if r < 8 { return .disconnect(slot: slot) }
        if r < 9 { return .idle(slot: slot) }
        if r < 10 { return rng.chance(0.5) ? .tooLong(slot: slot) : .line(slot: slot, rng.pick(Self.garbage)) }
        guard let session = run.lobby.sessions[conn] else { return .disconnect(slot: slot) }
        guard session.name != nil else {
            if rng.chance(0.15) { return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50)) }
            if rng.chance(0.1) { return .line(slot: slot, rng.pick(["LANG nl", "SET lang en", "SETTINGS", "PING", "SEEK", "p"])) }
            if rng.chance(0.3) { return .line(slot: slot, passwordLine()) }
            return .line(slot: slot, "NAME " + rng.pick(Self.names))
        }
        switch session.state {
        case .idle: return idle(slot, session)
        case .seeking, .hosting:
            if rng.chance(0.6) {
                // Let the others act: another slot, or the clock.
                let other = rng.int(0...(FuzzRun.slots - 1))
                if run.conns[other] == nil { return .connect(slot: other) }
                return other == slot ? .advance(1) : next(run)
            }
            return .line(slot: slot, rng.pick(["LEAVE", "LEAVE", "PING", "SEEK", "NEW", "NAME carol", "LANG nl", "p", "REMATCH", "CLAIM"]))
        case .playing(let gameID, let seat):
            guard let table = run.lobby.rooms[gameID] else { return .line(slot: slot, "PING") }
            return playing(slot, table, seat)
        }
    }

    private mutating func idle(_ slot: Int, _ session: Lobby.Session) -> FuzzStep {
        if session.last != nil && rng.chance(0.5) { return .line(slot: slot, "REMATCH") }
        // Logged in to a registered name: now and then a new password.
        if session.loggedIn != nil && rng.chance(0.05) { return .line(slot: slot, "PASSWORD " + rng.pick(Self.passwords.dropLast())) }
        // Logged in: rated games more often (issue #28), against the computer or another registered name.
        if session.loggedIn != nil && rng.chance(0.25) {
            return .line(slot: slot, rng.pick(["NEW bot=easy", "NEW bot=hard rated=yes", "SEEK rated=yes", "SEEK", "SEEK variant=super",
                                               "SEEK range=1000-2000", "NEW variant=challenge bot=medium", "SEEK game=hangman rated=yes"]))
        }
        // Watching: a watcher tries to play too (a token or a secret sent to
        // it is caught by the checks on every line).
        if rng.chance(session.watching == nil ? 0.1 : 0.3) {
            return .line(slot: slot, rng.pick(["GAMES", "GAMES 1", "WATCH \(rng.int(1...8))", "WATCH \(rng.int(1...8))", "UNWATCH",
                                               "p", "LEAVE", "ACCEPT", "SOLVE cat",
                                               "MOVES \(rng.int(1...8))", "REVIEW \(rng.int(1...8))"]))
        }
        let r = rng.int(0...99)
        switch r {
        case 0..<16: return .line(slot: slot, rng.pick(["SEEK", "SEEK", "SEEK rounds=ghost", "SEEK game=hangman", "SEEK game=hangman",
                                                        "SEEK game=ghost", "SEEK game=hangman rounds=ghost",
                                                        "SEEK clock=15", "SEEK game=hangman clock=15",
                                                        "SEEK variant=challenge", "SEEK variant=super rounds=ghost",
                                                        "SEEK rated=yes", "SEEK rated=no", "SEEK range=1300-1700",
                                                        "SEEK range=0-1500 rated=yes", "SEEK range=1700-1300"]))
        case 16..<26: return .line(slot: slot, rng.pick(["NEW", "NEW rounds=ghost", "NEW game=hangman mode=duel",
                                                         "NEW game=hangman mode=duel length=4", "NEW game=ghost",
                                                         "NEW clock=5 rounds=ghost", "NEW game=hangman mode=duel clock=60",
                                                         "NEW variant=challenge", "NEW variant=challenge rounds=ghost clock=5"]))
        case 26..<36:
            let bot = rng.pick(["easy", "medium", "hard"])
            return .line(slot: slot, "NEW bot=\(bot)" + (rng.chance(0.4) ? " first=bot" : "") + (rng.chance(0.3) ? " rounds=ghost" : "")
                         + (rng.chance(0.2) ? " clock=5" : "") + (rng.chance(0.25) ? " variant=challenge" : "")
                         + (rng.chance(0.2) ? rng.pick([" rated=yes", " rated=no"]) : ""))
        case 36..<48:
            var line = "NEW game=hangman"
            if rng.chance(0.8) { line += " mode=" + rng.pick(["evil", "fair", "phrase", "evil", "fair"]) }
            if rng.chance(0.3) { line += " length=" + rng.pick(["3", "4", "5", "6", "any"]) }
            if rng.chance(0.3) { line += " misses=\(rng.int(1...8))" }
            if rng.chance(0.1) { line = "NEW game=hangman mode=duel bot=guesser" + (rng.chance(0.5) ? " length=3" : "") }
            if rng.chance(0.15) { line += rng.pick([" clock=5", " clock=3"]) }
            return .line(slot: slot, line)
        case 48..<58: return .code(slot: slot, n: rng.int(0...20) + 1000)
        case 58..<68: return .line(slot: slot, "REMATCH")
        case 68..<74: return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50) + 1000)
        case 74..<76: return .line(slot: slot, "NAME " + rng.pick(Self.names))
        case 76..<78: return .line(slot: slot, passwordLine(session.name))
        case 78..<84: return .line(slot: slot, rng.pick(["LANG nl", "LANG en", "LANG xx", "SET lang nl", "SET hangman-mode fair",
                                                         "SET hangman-mode phrase", "SET hangman-length 4", "SET hangman-misses 3",
                                                         "SET hangman-length 9", "SETTINGS"]))
        case 84..<90: return .line(slot: slot, rng.pick(["SCORES", "SCORES 3 mode=match", "SCORES bot=easy", "SCORES game=hangman",
                                                         "SCORES game=hangman mode=duel", "NAMES", "NAMES 2", "NAMES prefix=a", "PING",
                                                         "TOP", "TOP variant=super 3", "TOP game=hangman", "PROFILE alice", "PROFILE bob",
                                                         "HISTORY", "HISTORY alice 5", "HISTORY carol"]))
        case 90..<92: return .line(slot: slot, "QUIT")
        case 92..<94: return .line(slot: slot, "HELP")
        default: return .line(slot: slot, rng.pick(["LEAVE", "p", "CLAIM", "RESTART", "ACCEPT", "DECLINE", "HINT", "WORD cat", "SOLVE cat"]))
        }
    }

    private mutating func playing(_ slot: Int, _ table: Lobby.Room, _ seat: Int) -> FuzzStep {
        let other = 1 - seat
        if let offer = table.offer, offer.seat == other, rng.chance(0.4) {
            return .line(slot: slot, rng.chance(0.5) ? "ACCEPT" : "DECLINE")
        }
        if table.isAway(other), rng.chance(table.game.toMove == other ? 0.4 : 0.1) { return .line(slot: slot, "CLAIM") }
        let r = rng.int(0...99)
        switch r {
        case 0..<4: return .line(slot: slot, "RESTART")
        case 4..<7: return .line(slot: slot, rng.pick(["LANG nl", "LANG en"]))
        case 7..<9: return .line(slot: slot, "LEAVE")
        case 9..<10: return .line(slot: slot, "QUIT")
        case 10..<12: return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50) + 1000)
        case 12..<14: return .line(slot: slot, rng.pick(["HINT", "ACCEPT", "DECLINE", "SEEK", "NAME dave", "REMATCH", "SET lang nl", "SCORES",
                                                         "REGISTER first secret", "PASSWORD second secret", "NAME dave first secret"]))
        default: break
        }
        guard table.game.toMove == seat || rng.chance(0.1) else {
            // Not our turn: usually someone else acts.
            if rng.chance(0.5) { return .advance(rng.pick([0.5, 1, 61])) }
            let s = rng.int(0...(FuzzRun.slots - 1))
            return s == slot ? .line(slot: slot, "PING") : .line(slot: slot, rng.pick(["p", "c", "PING"]))
        }
        return .line(slot: slot, move(table.game, table.lang))
    }

    /// A plausible move: Ghost letters that keep a word possible, a guess not
    /// made yet, a whole word of the right length, or the setter's word.
    private mutating func move(_ game: any GameKit.Game, _ lang: String) -> String {
        let list = lobbyLists[lang] ?? WordList(words: [String]())
        if let h = game as? HangmanGame {
            let fitting = (lobbyLists[lang].map { l in Self.words.filter { l.isWord($0) } } ?? []).filter { $0.count == h.length }
            if h.toMove == 0 {
                return "WORD " + (rng.chance(0.85) && !fitting.isEmpty ? rng.pick(fitting) : rng.pick(Self.words))
            }
            if rng.chance(0.12) {
                let guess = rng.chance(0.7) && !fitting.isEmpty ? rng.pick(fitting) : rng.pick(Self.words)
                return (rng.chance(0.5) ? "SOLVE " : "WORD ") + guess
            }
            let open = "etaoinshrdlcupgjkz".filter { !h.guessed.contains($0) }
            return String(rng.chance(0.9) && !open.isEmpty ? rng.pick(Array(open)) : rng.pick(Array("abcdefghijklmnopqrstuvwxyz")))
        }
        let fragment = game.publicFields.first { $0.key == "fragment" }?.value ?? ""
        // Bluff and challenge: answer a challenge (a word of the list, a
        // non-word, or nonsense), concede, or challenge now and then.
        if let ghost = game as? ChallengeGhost {
            if ghost.isChallenged {
                let words = Self.words.filter { $0.hasPrefix(fragment) && $0.count > fragment.count }
                switch rng.int(0...9) {
                case 0..<5 where !words.isEmpty: return "WORD " + rng.pick(words)
                case 0..<7: return "WORD " + fragment + rng.pick(["zzq", "e", "x"])
                case 7: return "WORD " + rng.pick(Self.words)
                case 8: return rng.pick(["CHALLENGE", "p", "LETTER x front"])
                default: return "CONCEDE"
                }
            }
            if rng.chance(0.15) { return rng.chance(0.9) ? "CHALLENGE" : "CONCEDE" }
        }
        let next = Array(Set(Self.words.filter { $0.hasPrefix(fragment) && $0.count > fragment.count && list.node(for: $0) != nil }
            .map { $0[$0.index($0.startIndex, offsetBy: fragment.count)] }))
        let letter = rng.chance(0.85) && !next.isEmpty ? rng.pick(next) : rng.pick(Array("abcdefghijklmnopqrstuvwxyz"))
        return rng.chance(0.2) ? "LETTER \(letter)" : String(letter)
    }
}

/// The fuzzer's hashing: yescrypt at its lowest cost, done when the lobby
/// asks for the outcomes (at most 2 wait).
final class FuzzPasswordChecker: PasswordChecker {
    private var queued: [PasswordJob] = []
    func submit(_ job: PasswordJob) -> Bool {
        guard queued.count < 2 else { return false }
        queued.append(job)
        return true
    }
    func takeFinished() -> [PasswordOutcome] {
        defer { queued.removeAll() }
        return queued.map { job in
            switch job.work {
            case .make(let p): PasswordOutcome(ticket: job.ticket, hash: PasswordHash.make(p.text, cost: 1), matches: false)
            case .verify(let p, let hash): PasswordOutcome(ticket: job.ticket, hash: nil, matches: PasswordHash.verify(p.text, against: hash))
            }
        }
    }
}

// MARK: Episodes, shrinking, the test

enum LobbyFuzz {
    struct Failure: Error, CustomStringConvertible {
        let seed: UInt64
        let trail: [FuzzStep]
        let problems: [String]
        var description: String {
            "lobby fuzzer: seed \(seed) failed after \(trail.count) step(s) (shrunk):\n"
                + trail.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
                + "\nproblems:\n" + problems.prefix(5).map { "  " + $0 }.joined(separator: "\n")
        }
    }

    /// Runs one episode of `steps` steps from `seed`, with the restart check at
    /// its end. Returns the steps run and the problems found (it stops at the first).
    static func episode(seed: UInt64, steps: Int) throws -> (trail: [FuzzStep], problems: [String], commands: Int, reached: [String: Int]) {
        let run = try FuzzRun(seed: seed)
        var generator = FuzzGenerator(seed: seed)
        var trail: [FuzzStep] = []
        for _ in 0..<steps {
            let step = generator.next(run)
            trail.append(step)
            run.run(step)
            if !run.problems.isEmpty { return (trail, run.problems, run.commands, run.reached) }
        }
        try run.checkRestart()
        return (trail, run.problems, run.commands, run.reached)
    }

    /// Replays a trail; its problems (none: it no longer fails).
    static func replay(_ trail: [FuzzStep], seed: UInt64) throws -> [String] {
        let run = try FuzzRun(seed: seed)
        for step in trail {
            run.run(step)
            if !run.problems.isEmpty { return run.problems }
        }
        try run.checkRestart()
        return run.problems
    }

    /// Drops steps while the trail still fails (the lobby's own randomness
    /// can make a failure come and go: each candidate is tried a few times).
    static func shrink(_ trail: [FuzzStep], seed: UInt64) throws -> (trail: [FuzzStep], problems: [String]) {
        var best = trail
        var problems = try replay(trail, seed: seed)
        func fails(_ t: [FuzzStep]) throws -> [String]? {
            for _ in 0..<3 {
                let p = try replay(t, seed: seed)
                if !p.isEmpty { return p }
            }
            return nil
        }
        var chunk = max(1, best.count / 2)
        while chunk >= 1 {
            var i = 0
            var removed = false
            while i < best.count {
                var candidate = best
                candidate.removeSubrange(i..<min(best.count, i + chunk))
                if let p = try fails(candidate) {
                    best = candidate
                    problems = p
                    removed = true
                } else {
                    i += chunk
                }
            }
            if !removed { chunk /= 2 }
        }
        return (best, problems)
    }

    /// Episodes from `seed` on until `steps` steps or `seconds` have run.
    static func run(seed: UInt64, episodeSteps: Int, totalSteps: Int, seconds: Double) throws
        -> (episodes: Int, steps: Int, commands: Int, elapsed: Double, reached: [String: Int]) {
        let start = Date()
        var episodes = 0, steps = 0, commands = 0
        var reached: [String: Int] = [:]
        var s = seed
        while steps < totalSteps && Date().timeIntervalSince(start) < seconds {
            let result = try episode(seed: s, steps: episodeSteps)
            episodes += 1
            steps += result.trail.count
            commands += result.commands
            reached.merge(result.reached, uniquingKeysWith: +)
            if !result.problems.isEmpty {
                let shrunk = try shrink(result.trail, seed: s)
                throw Failure(seed: s, trail: shrunk.trail, problems: shrunk.problems.isEmpty ? result.problems : shrunk.problems)
            }
            s &+= 1
        }
        return (episodes, steps, commands, Date().timeIntervalSince(start), reached)
    }
}

@Suite struct LobbyFuzzTests {
    /// Bounded, for every `swift test` (and so CI); LOBBY_FUZZ_SECONDS,
    /// LOBBY_FUZZ_SEED, LOBBY_FUZZ_STEPS (steps per episode) run it long.
    @Test func lobbyFuzz() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["LOBBY_FUZZ_SECONDS"].flatMap(Double.init)
        let seed = env["LOBBY_FUZZ_SEED"].flatMap { UInt64($0) } ?? (seconds == nil ? 1 : UInt64.random(in: 0...UInt64(UInt32.max)))
        let episodeSteps = env["LOBBY_FUZZ_STEPS"].flatMap { Int($0) } ?? 300
        do {
            let r = try LobbyFuzz.run(seed: seed, episodeSteps: episodeSteps,
                                      totalSteps: seconds == nil ? 6_000 : Int.max, seconds: seconds ?? 60)
            // It plays rated games too (registered names; issue #28).
            #expect((r.reached["OVER rated"] ?? 0) > 0, "no rated game ended: \(r.reached)")
            print("lobby fuzzer: seeds \(seed)..<\(seed + UInt64(r.episodes)): \(r.episodes) episodes, \(r.steps) steps, "
                  + "\(r.commands) commands in \(String(format: "%.1f", r.elapsed)) s")
            if env["LOBBY_FUZZ_VERBOSE"] != nil {
                print(r.reached.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }.joined(separator: "\n"))
            }
        } catch let failure as LobbyFuzz.Failure {
            print(failure)
            Issue.record("\(failure)")
        }
    }
}
