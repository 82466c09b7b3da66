import Foundation
import Testing
import GameKit
import GhostAuth
import GhostCore
import GhostProtocol
@testable import GhostServer
@testable import GhostStore
import HangmanCore
import TestSupport

// One episode of the lobby fuzzer, and its checks (LobbyFuzzTests.swift).

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
    /// Registered names: the names each connection logged in to
    /// (OK REGISTER, OK NAME … registered=yes) or resumed a seat of (a token
    /// always wins back its seat), lowercased.
    var loggedIn: [ConnectionID: Set<String>] = [:]
    /// The lobby's log lines of the step.
    let logged = LogRecorder()
    var problems: [String] = []
    /// A second connection to the database, for the triggers that make it fail
    /// (as LobbyRecoveryTests does), and the one armed now.
    let raw: FuzzFaultConnection
    var fault: String?
    static let faults = [
        "statement INSERT ON moves", "statement INSERT ON games", "statement UPDATE ON games",
        "statement UPDATE ON games WHEN NEW.offer_seat IS NOT NULL", "statement INSERT ON scores",
        "statement INSERT ON players", "statement INSERT ON best_games",
        "commit INSERT ON moves", "commit UPDATE ON games", "commit INSERT ON games", "commit INSERT ON players",
    ]
    /// A full disk (`FuzzStep.diskFull`): the journal's appends fail, and
    /// one of these as well (nil: nothing else).
    static let diskFaults: [String?] = [
        nil, nil, "commit INSERT ON games", "commit UPDATE ON games", "statement UPDATE ON games",
        "commit INSERT ON players", "statement INSERT ON scores", "commit INSERT ON moves",
    ]
    /// What the episode reached: replies by verb and status, games over by kind and reason.
    var reached: [String: Int] = [:]
    var steps = 0
    var commands = 0
    /// Games whose GAME carried ratings.
    var ratedGames: Set<Int> = []
    /// The last line sent to each connection (an INFO after an OVER is that game's).
    var previous: [ConnectionID: ServerLine] = [:]
    /// Prints every line (debugging a trail).
    var trace = false
    var printer: (String) -> Void = { print($0) }

    init(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-fuzz-\(UUID().uuidString)").path
        self.directory = directory
        // The store the tests run on: SQLite in the folder, or under
        // GHOSTD_TEST_STORE=postgresql a database of its own (openTestStore).
        let url = try DaemonProcess.storeURL(forData: directory)
        store = try url.map { try Store(postgres: $0, directory: directory) } ?? Store(directory: directory, durability: .normal)
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
        raw = try url.map { .postgres(try PostgresDatabase($0)) } ?? .sqlite(try SQLiteDatabase(path: store.path))
        try raw.prepare()
        outbox.onSend = { [unowned self] line, conn in
            self.checkSecrecy(line, to: conn)
            self.checkBetweenPeople(line, to: conn)
            self.previous[conn] = line
        }
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
        case .coded(let slot, let prefix, let n):
            guard let id = conns[slot] else { break }
            command = send(prefix + (codes.isEmpty ? "ABCDEFGH" : codes[n % codes.count]), from: id)
        case .tooLong(let slot):
            guard let id = conns[slot] else { break }
            lobby.received(.tooLong, from: id)
            command = (id, nil, nil)
        case .advance(let seconds):
            clock.advance(seconds)
            lobby.tick()
        case .fault(let n):
            heal()
            arm(FuzzRun.faults[n % FuzzRun.faults.count])
        case .diskFull(let n):
            heal()
            // The journal is SQLite's alone (LobbyFuzzFullDiskTests skips on PostgreSQL).
            guard !store.isPostgres else { break }
            store.journal.failWrites = ENOSPC
            fault = "the journal's appends"
            if let also = FuzzRun.diskFaults[n % FuzzRun.diskFaults.count] { arm(also) }
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
        if case .success(let c?) = CommandParser.parse(bytes) {
            // A move's OK is its verb's (`OK LETTER`).
            if case .kindMove(let name, _) = c { verb = name } else { verb = c.verb.rawValue }
        }
        return (id, verb, nil)
    }

    /// Makes one kind of write fail: its statement (`statement <event>`) or
    /// the commit of its turn (`commit <event>`), through a trigger.
    private func arm(_ description: String) {
        let words = description.split(separator: " ", maxSplits: 1).map(String.init)
        do {
            try raw.arm(statement: words[0] == "statement", words[1])
            fault = words[1]
        } catch {
            problem("cannot arm a fault: \(error)")
        }
    }

    private func heal() {
        guard fault != nil else { return }
        store.journal.failWrites = 0
        do { try raw.heal(fault ?? "") } catch { problem("cannot drop a fault: \(error)") }
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
        // PostgreSQL: a fault is a failed statement or commit, never the
        // server out of reach (which would be an outage, StoreOutage.swift).
        if lobby.recovery.outage != nil { problem("the store taken as out of reach (an outage)") }
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
                // A rated game: a rating per seat, before it.
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
            case .turn(let id, let player, _, _, _):
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
            // Join codes of invitations (OK INVITE, INVITE from=…): DECLINE and JOIN try them.
            if let code = line.message["code"], !codes.contains(code) { codes.append(code) }
            // SEEK never pairs a blocker with the blocked (either way round).
            if case .game(_, _, _, let players, _, _, _, _, _, _, _, _) = line, command?.verb == "SEEK", players.count == 2,
               lobby.context.people.eitherBlocks(players[0], players[1]) {
                problem("SEEK paired \(players[0]) and \(players[1]), and one blocks the other: \(line.rendered)")
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

    /// Registered names: no line and no log line holds a
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
            // The INFO that follows another game's OVER explains that game's
            // end (seed 5431: a game watched until a moment ago, its lines
            // still delayed for watchers, ended on the word that happened to
            // be the new Hangman game's answer).
            if case .info = line, case .over(let other, _, _, _, _, _)? = previous[conn], other != table.id { continue }
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

    /// Between people (issue #47), as each line is sent: nothing from a
    /// blocked name reaches its blocker (no SAID whose player=, no INVITE
    /// whose from= is a name the receiver blocks); no line holds a control
    /// character (C0, DEL, C1), and no SAID a format character chat drops;
    /// a player's SAID reaches only the other player of that game, a
    /// watcher's only the game's other watchers.
    private func checkBetweenPeople(_ line: ServerLine, to conn: ConnectionID) {
        let text = line.rendered
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            problem("a control character sent to \(conn): \(text.debugDescription)")
        }
        guard case .social(let social) = line else { return }
        let me = lobby.sessions[conn]?.name?.lowercased()
        let people = lobby.context.people
        switch social {
        case .said(let id, let player, let watcher, let said):
            reached["SAID" + (watcher ? " watcher" : ""), default: 0] += 1
            if let me, people.blocks(me, player.lowercased()) {
                problem("SAID from \(player), whom \(me) blocks, sent to \(conn): \(text)")
            }
            if said.unicodeScalars.contains(where: { ChatText.isDropped($0.value) }) || said.isEmpty || said.count > CommandTable.maxChatText {
                problem("SAID with a text chat should not carry: \(text.debugDescription)")
            }
            let session = lobby.sessions[conn]
            if watcher {
                if session?.watching != id { problem("a watcher's SAID to \(conn), which does not watch game \(id): \(text)") }
                if case .playing(let g, _)? = session?.state, g == id { problem("a watcher's SAID to a player of game \(id): \(text)") }
            } else {
                guard case .playing(let g, _)? = session?.state, g == id else {
                    problem("a player's SAID to \(conn), which does not play game \(id) (watching \(String(describing: session?.watching))): \(text)")
                    return
                }
                if session?.name?.lowercased() == player.lowercased() { problem("a player's SAID echoed to its speaker: \(text)") }
            }
        case .invite(let from, _, _):
            reached["INVITE from", default: 0] += 1
            if let me, people.blocks(me, from.lowercased()) {
                problem("INVITE from \(from), whom \(me) blocks, sent to \(conn): \(text)")
            }
        case .online, .offline:
            reached[text.hasPrefix("ONLINE") ? "ONLINE" : "OFFLINE", default: 0] += 1
        default:
            break
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
        for (key, conn) in lobby.sessions.names.all where lobby.sessions[conn]?.name?.lowercased() != key {
            problem("name \(key) held by \(conn), whose name is \(String(describing: lobby.sessions[conn]?.name))")
        }
        var personSeats = 0
        for (key, table) in lobby.rooms.byID {
            let id = key.id
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
        // The tokens kept (those that do not name their seat) lead to a person's seat in memory.
        for (token, t) in lobby.rooms.otherTokens
        where lobby.rooms[t.game].map({ $0.bot(t.seat) == nil && $0.tokens.indices.contains(t.seat) && $0.tokens[t.seat] == token }) != true {
            problem("token \(token) leads to game \(t.game) seat \(t.seat), not in memory or not that seat's")
        }
        if lobby.rooms.otherTokens.count > personSeats {
            problem("\(lobby.rooms.otherTokens.count) tokens kept, for \(personSeats) seats of people")
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
                if !lobby.recovery.room(table, matches: g) { problem("game \(g.id) in memory differs from the store: \(describe(table))") }
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
        let store2 = try DaemonProcess.storeURL(forData: directory).map { try Store(postgres: $0, directory: directory) }
            ?? Store(directory: directory, durability: .normal)
        defer { store2.close() }
        let lobby2 = try Lobby(dictionaries: fuzzDictionaries, store: store2, outbox: second, clock: clock, settings: settings)
        // Only the games on a clock are loaded at start; the others load on
        // RESUME, as `makeRoom` rebuilds them here.
        let clocked = Set(lobby.rooms.byID.filter { $0.value.clock != nil }.keys.map(\.id))
        if Set(lobby2.rooms.keys) != clocked {
            problem("after a restart: games \(lobby2.rooms.keys.sorted()), before on a clock \(clocked.sorted())")
        }
        for (key, a) in lobby.rooms.byID {
            let id = key.id
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
        // A failed append was cut back whole: the journal's file holds no
        // damaged line, not even a torn tail (JournalScan.swift).
        // (SQLite's alone: PostgreSQL has no move journal.)
        if !store.isPostgres {
            let report = try Store.checkJournal(directory: directory)
            if !report.badLines.isEmpty || report.problem != nil {
                problem("the journal after the episode: damaged lines \(report.badLines), \(report.problem.map { "\($0)" } ?? "no problem")")
            }
        }
        // Names: every name that got OK NAME, and no other.
        let names = Set(try store2.nameStore.allNames().map { $0.lowercased() })
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
        case .other(let verb, _): verb == "LETTER" || verb == "SOLVE" || verb == "WORD"
        default: false
        }
    }
}

/// The fuzzer's second connection to the store's database, which arms the
/// faults: SQLite's file, or (GHOSTD_TEST_STORE=postgresql) the same
/// PostgreSQL database. A fault is `<event>` (`INSERT ON moves`) with an
/// optional `WHEN <condition>` on NEW; at most one is armed at a time.
enum FuzzFaultConnection {
    case sqlite(SQLiteDatabase)
    case postgres(PostgresDatabase)

    /// The tripwire: a row naming no player, checked by its deferred
    /// foreign key at COMMIT, which then fails (`players.name` is citext on
    /// PostgreSQL, so the column is too); on PostgreSQL, the trigger functions.
    func prepare() throws {
        switch self {
        case .sqlite(let db):
            try db.execute("CREATE TABLE IF NOT EXISTS tripwire (name TEXT REFERENCES players(name) DEFERRABLE INITIALLY DEFERRED)")
        case .postgres(let db):
            // A fault is armed or dropped between turns, when the store holds
            // no lock; should it ever hold one, fail rather than wait forever.
            try db.execute("SET lock_timeout = '5s'")
            try db.execute("CREATE TABLE IF NOT EXISTS tripwire (name citext REFERENCES players(name) DEFERRABLE INITIALLY DEFERRED)")
            try db.execute("""
                CREATE OR REPLACE FUNCTION fault_statement() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'injected: disk full'; END $$
                """)
            try db.execute("""
                CREATE OR REPLACE FUNCTION fault_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO tripwire VALUES ('no such player'); RETURN NULL; END $$
                """)
        }
    }

    /// Makes `event`'s statement fail (`statement`), or the commit of its turn.
    func arm(statement: Bool, _ event: String) throws {
        switch self {
        case .sqlite(let db):
            if statement {
                try db.execute("CREATE TRIGGER fault BEFORE \(event) BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END")
            } else {
                try db.execute("CREATE TRIGGER fault AFTER \(event) BEGIN INSERT INTO tripwire VALUES ('no such player'); END")
            }
        case .postgres(let db):
            let parts = event.components(separatedBy: " WHEN ")
            let when = parts.count > 1 ? " WHEN (\(parts[1]))" : ""
            try db.execute("CREATE TRIGGER fault \(statement ? "BEFORE" : "AFTER") \(parts[0]) FOR EACH ROW\(when) "
                           + "EXECUTE FUNCTION \(statement ? "fault_statement" : "fault_commit")()")
        }
    }

    /// Drops the fault armed on `event` (PostgreSQL's triggers are the table's).
    func heal(_ event: String) throws {
        switch self {
        case .sqlite(let db):
            try db.execute("DROP TRIGGER IF EXISTS fault")
        case .postgres(let db):
            let table = event.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
            try db.execute("DROP TRIGGER IF EXISTS fault ON \(table)")
        }
    }

    func close() {
        switch self {
        case .sqlite(let db): db.close()
        case .postgres(let db): db.close()
        }
    }
}
