import GhostCore
import GhostProtocol

/// Identifies one client connection for the life of the server.
public typealias ConnectionID = Int

/// Where the lobby's replies and events go. The event loop buffers them and
/// flushes once per loop turn; tests record them.
public protocol Outbox: AnyObject {
    func send(_ line: ServerLine, to id: ConnectionID)
    /// Close the connection once what was sent to it has been written.
    func close(_ id: ConnectionID)
}

/// The game server's logic, without sockets or clocks: who is connected, who
/// seeks a game, which private games are open, and the games in progress.
/// Every input is a parsed line or a connection event; every output goes to
/// the outbox. A seat in a game is a connection (later also a bot).
public final class Lobby {
    public static let version = "0.1.0"
    public static let protocolVersion = 1

    private struct Session {
        var name: String?
        var lang: String
        var state: State = .idle
    }

    private enum State: Equatable {
        case idle
        case seeking
        case hosting(code: String)
        case playing(game: Int, seat: Int)
    }

    private struct Table {
        let id: Int
        let lang: String
        let seats: [ConnectionID]
        let names: [String]
        var game: GhostGame
    }

    private let dictionaries: Dictionaries
    private let defaultLanguage: String
    private unowned let outbox: Outbox
    private let log: (String) -> Void

    private var sessions: [ConnectionID: Session] = [:]
    private var namesInUse: [String: ConnectionID] = [:]  // lowercased name → holder
    private var seekers: [String: [ConnectionID]] = [:]   // language → FIFO queue
    private var hosted: [String: ConnectionID] = [:]      // join code → host
    private var tables: [Int: Table] = [:]
    private var nextGameID = 1

    public init(dictionaries: Dictionaries, outbox: Outbox, log: @escaping (String) -> Void = { _ in }) {
        self.dictionaries = dictionaries
        self.defaultLanguage = dictionaries["en"] != nil ? "en" : (dictionaries.languages.first ?? "en")
        self.outbox = outbox
        self.log = log
    }

    /// Games in progress.
    public var activeGames: Int { tables.count }
    /// Connected clients.
    public var connectionCount: Int { sessions.count }

    // MARK: Connection events

    public func connected(_ id: ConnectionID) {
        sessions[id] = Session(lang: defaultLanguage)
        outbox.send(.hello(version: Lobby.version, protocolVersion: Lobby.protocolVersion,
                           languages: dictionaries.languages), to: id)
    }

    public func disconnected(_ id: ConnectionID) {
        guard let session = sessions[id] else { return }
        leaveEverything(id, session)
        if let name = session.name { namesInUse[name.lowercased()] = nil }
        sessions[id] = nil
    }

    /// A framed input from a connection: a line or an over-long line.
    public func received(_ frame: LineFramer.Frame, from id: ConnectionID) {
        switch frame {
        case .tooLong:
            reply(id, .error(.lineTooLong, "a line is at most \(LineFramer.defaultMaxLineBytes) bytes; it was discarded"))
        case .line(let bytes):
            switch CommandParser.parse(bytes) {
            case .success(nil): break
            case .success(let command?): handle(command, from: id)
            case .failure(let e): reply(id, .error(e.code, e.message))
            }
        }
    }

    // MARK: Commands

    public func handle(_ command: Command, from id: ConnectionID) {
        guard var session = sessions[id] else { return }
        switch command {
        case .ping:
            reply(id, .ok("PING"))
        case .help:
            for (usage, text) in Command.helpLines { reply(id, .info("\(usage) - \(text)")) }
            reply(id, .ok("HELP"))
        case .quit:
            reply(id, .ok("QUIT"))
            leaveEverything(id, session)
            outbox.close(id)
        case .name(let name):
            guard session.state == .idle else {
                return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
            }
            let key = name.lowercased()
            if let holder = namesInUse[key], holder != id {
                return reply(id, .error(.nameTaken, "another player is using that name"))
            }
            if let old = session.name { namesInUse[old.lowercased()] = nil }
            namesInUse[key] = id
            session.name = name
            sessions[id] = session
            reply(id, .ok("NAME", ("name", name)))
        case .lang(let code):
            guard dictionaries[code] != nil else {
                return reply(id, .error(.unknownLanguage, "languages here: \(dictionaries.languages.joined(separator: ","))"))
            }
            guard session.state == .idle else {
                return reply(id, .error(.busy, "finish or LEAVE first; LANG applies to new games"))
            }
            sessions[id]?.lang = code
            reply(id, .ok("LANG", ("lang", code)))
        case .seek:
            guard ready(id, session) != nil else { return }
            var queue = seekers[session.lang, default: []]
            if let other = queue.first {
                queue.removeFirst()
                seekers[session.lang] = queue
                reply(id, .ok("SEEK", ("lang", session.lang)))
                startGame(lang: session.lang, seats: [other, id])
            } else {
                queue.append(id)
                seekers[session.lang] = queue
                sessions[id]?.state = .seeking
                reply(id, .ok("SEEK", ("lang", session.lang)))
                reply(id, .info("Waiting for another player who seeks a game in \(session.lang)."))
            }
        case .new:
            guard ready(id, session) != nil else { return }
            let code = newJoinCode()
            hosted[code] = id
            sessions[id]?.state = .hosting(code: code)
            reply(id, .ok("NEW", ("code", code), ("lang", session.lang)))
            reply(id, .info("Give the code \(code) to your opponent: they send JOIN \(code)."))
        case .join(let code):
            if hosted[code] == id {
                return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
            }
            guard ready(id, session) != nil else { return }
            guard let host = hosted[code], let hostSession = sessions[host] else {
                return reply(id, .error(.noSuchGame, "no open private game has that code"))
            }
            guard host != id else {
                return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
            }
            hosted[code] = nil
            reply(id, .ok("JOIN", ("code", code), ("lang", hostSession.lang)))
            startGame(lang: hostSession.lang, seats: [host, id])
        case .letter(let letter):
            play(letter, from: id, session)
        case .leave:
            switch session.state {
            case .idle:
                reply(id, .error(.notInGame, "you are not in a game, a seek or a private game"))
            case .playing:
                reply(id, .ok("LEAVE"))
                leaveEverything(id, session)
            case .seeking, .hosting:
                leaveEverything(id, session)
                reply(id, .ok("LEAVE"))
            }
        }
    }

    // MARK: Helpers

    private func reply(_ id: ConnectionID, _ line: ServerLine) {
        outbox.send(line, to: id)
    }

    /// The session's name if it may start or join a game; otherwise replies with an error.
    private func ready(_ id: ConnectionID, _ session: Session) -> String? {
        guard let name = session.name else {
            reply(id, .error(.noName, "send NAME <name> first"))
            return nil
        }
        switch session.state {
        case .idle: return name
        case .seeking: reply(id, .error(.busy, "you are already seeking a game; LEAVE to stop"))
        case .hosting(let code): reply(id, .error(.busy, "you are hosting the private game \(code); LEAVE to close it"))
        case .playing: reply(id, .error(.busy, "you are in a game"))
        }
        return nil
    }

    private func newJoinCode() -> String {
        // No 0/O or 1/I/L, so codes survive being read aloud.
        let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        while true {
            let code = String((0..<5).map { _ in alphabet.randomElement() ?? "A" })
            if hosted[code] == nil { return code }
        }
    }

    private func startGame(lang: String, seats: [ConnectionID]) {
        guard let words = dictionaries[lang] else { return }
        let names = seats.map { sessions[$0]?.name ?? "?" }
        let id = nextGameID
        nextGameID += 1
        tables[id] = Table(id: id, lang: lang, seats: seats, names: names, game: GhostGame(rules: GhostRules(words: words)))
        for (seat, conn) in seats.enumerated() { sessions[conn]?.state = .playing(game: id, seat: seat) }
        log("game \(id) started: \(lang) \(names.joined(separator: " vs "))")
        broadcast(id, .game(id: id, lang: lang, players: names))
        broadcast(id, .turn(id: id, player: names[0], fragment: ""))
    }

    private func broadcast(_ gameID: Int, _ line: ServerLine) {
        guard let table = tables[gameID] else { return }
        for conn in table.seats where sessions[conn] != nil { outbox.send(line, to: conn) }
    }

    private func play(_ letter: Letter, from id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, var table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game; SEEK, NEW or JOIN one"))
        }
        do {
            try table.game.play(letter, by: seat)
        } catch .notYourTurn {
            return reply(id, .error(.notYourTurn, "it is \(table.names[table.game.toMove])'s turn"))
        } catch {
            return reply(id, .error(.notInGame, "the game is over"))
        }
        tables[gameID] = table
        let fragment = table.game.fragment
        reply(id, .ok("LETTER", ("letter", letter.description), ("fragment", fragment)))
        broadcast(gameID, .move(id: gameID, player: table.names[seat], letter: letter.description, fragment: fragment))
        if table.game.isOver {
            finish(gameID)
        } else {
            broadcast(gameID, .turn(id: gameID, player: table.names[table.game.toMove], fragment: fragment))
        }
    }

    /// Announces the end of a finished game and returns its players to the lobby.
    private func finish(_ gameID: Int) {
        guard let table = tables[gameID], let outcome = table.game.outcome else { return }
        let winner = table.names[outcome.winner], loser = table.names[outcome.loser]
        broadcast(gameID, .over(id: gameID, winner: winner, loser: loser,
                                reason: outcome.reason.rawValue, fragment: table.game.fragment))
        broadcast(gameID, .info(table.game.explanation(loserName: loser)))
        log("game \(gameID) over: \(winner) beat \(loser) (\(outcome.reason.rawValue), fragment \"\(table.game.fragment)\")")
        for conn in table.seats { sessions[conn]?.state = .idle }
        tables[gameID] = nil
    }

    /// Drops whatever the connection is doing: a game (lost), a seek, a hosted game.
    private func leaveEverything(_ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .idle:
            break
        case .seeking:
            seekers[session.lang]?.removeAll { $0 == id }
        case .hosting(let code):
            hosted[code] = nil
        case .playing(let gameID, let seat):
            guard var table = tables[gameID] else { break }
            table.game.resign(seat)
            tables[gameID] = table
            finish(gameID)
        }
        sessions[id]?.state = .idle
    }
}
