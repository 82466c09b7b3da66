import Foundation
import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore
import GameKit
import WordLists


/// Records what the lobby sends, per connection, in order; a close is
/// recorded as its BYE line, and nothing sent after it is recorded, as the
/// event loop does.
final class RecordingOutbox: Outbox {
    private(set) var sent: [(id: ConnectionID, line: String)] = []
    private(set) var closed: [ConnectionID] = []
    private var cursor = 0

    func send(_ line: ServerLine, to id: ConnectionID) {
        guard !closed.contains(id) else { return }
        sent.append((id, line.rendered))
    }
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String) {
        guard !closed.contains(id) else { return }
        sent.append((id, ServerLine.bye(code, text).rendered))
        closed.append(id)
    }

    /// Where the current command's lines start, for `discardCommand`.
    private var commandMark = (sent: 0, closed: 0)
    func beginCommand() { commandMark = (sent.count, closed.count) }
    func discardCommand() {
        sent.removeLast(max(0, sent.count - commandMark.sent))
        closed.removeLast(max(0, closed.count - commandMark.closed))
        cursor = min(cursor, sent.count)
    }
    /// Withdraws every line sent since `sent` had `count` entries (a lost turn).
    func withdraw(to count: Int) {
        sent.removeLast(max(0, sent.count - count))
        cursor = min(cursor, sent.count)
    }

    /// Lines sent since the last drain, grouped by connection.
    func drain() -> [ConnectionID: [String]] {
        var out: [ConnectionID: [String]] = [:]
        for (id, line) in sent[cursor...] { out[id, default: []].append(line) }
        cursor = sent.count
        return out
    }

    /// Every line ever sent to one connection.
    func all(to id: ConnectionID) -> [String] { sent.filter { $0.id == id }.map(\.line) }
}

/// Time that moves only when the test says so.
/// Log lines, recorded.
final class LogRecorder: @unchecked Sendable {
    var lines: [String] = []
}

final class ManualClock: LobbyClock {
    var wall = 1_700_000_000
    var monotonic: Double = 10_000

    func advance(_ seconds: Double) {
        monotonic += seconds
        wall += Int(seconds)
    }
}

/// Small lists for lobby tests (shared with LobbyComputerTests, which explains
/// what perfect play makes of them).
let lobbyLists: [String: WordList] = [
    "en": WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs"]),
    "nl": WordList(words: ["huis", "huisje", "kat", "katten"]),
]

/// A lobby with a recording outbox, a manual clock and a store in a fresh
/// temporary directory (removed when the harness that made it goes away).
/// Connection 1 is alice, 2 is bob, 3 is carol. `extraKinds` and `settings`
/// serve LobbyKindTests (a made-up kind, no computer delay).
final class Harness {
    let outbox = RecordingOutbox()
    let clock: ManualClock
    let directory: String
    private let ownsDirectory: Bool
    let store: Store
    let lobby: Lobby
    /// The lobby's log lines.
    let logged = LogRecorder()

    /// With `directory`, opens the store another harness made (a restart);
    /// `lists`: the word lists (the small `lobbyLists` unless a test needs others);
    /// `clock`: the time the lobby starts at (a restart after an outage).
    init(directory: String? = nil, settings: Lobby.Settings = Lobby.Settings(),
         extraKinds: [any GameDefinition] = [], lists: [String: WordList] = lobbyLists,
         clock: ManualClock = ManualClock(), log: @escaping (String) -> Void = { _ in }) throws {
        self.clock = clock
        if let directory {
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ghostd-lobby-\(UUID().uuidString)").path
            ownsDirectory = true
        }
        store = try Store(directory: self.directory, durability: .normal)
        let logged = self.logged
        lobby = try Lobby(dictionaries: Dictionaries(lists: lists), store: store, outbox: outbox, clock: clock,
                          settings: settings, extraKinds: extraKinds, log: { logged.lines.append($0); log($0) })
    }

    deinit {
        store.close()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// What the event loop does at the end of each turn.
    private func commit() {
        do { try store.commit() } catch { Issue.record("commit failed: \(error)") }
    }

    func connect(_ id: ConnectionID, address: String = "") {
        lobby.connected(id, address: address)
        commit()
    }

    func disconnect(_ id: ConnectionID) {
        lobby.disconnected(id)
        commit()
    }

    func send(_ id: ConnectionID, _ line: String) {
        lobby.received(.line(Array(line.utf8)), from: id)
        commit()
    }

    func tick() {
        lobby.tick()
        commit()
    }

    /// What the event loop does when the hashing pool wakes it: the
    /// passwords sent so far are hashed or checked (the lobby's default
    /// checker does it now, on this thread) and answered.
    func checkPasswords() {
        lobby.passwordsChecked()
        commit()
    }

    /// The passwords sent so far are answered first (`checkPasswords`).
    func drain(sourceLocation: SourceLocation = #_sourceLocation) -> [ConnectionID: [String]] {
        checkPasswords()
        #expect(lobby.storeError == nil, sourceLocation: sourceLocation)
        return outbox.drain()
    }

    /// Connects and names the connection; drops what that sent.
    func named(_ id: ConnectionID, _ name: String) {
        connect(id)
        send(id, "NAME \(name)")
        _ = drain()
    }

    /// alice (1) and bob (2) paired by SEEK in English: game 1, alice to move.
    /// Returns the two seats' resume tokens.
    @discardableResult
    func pairAliceAndBob(sourceLocation: SourceLocation = #_sourceLocation) throws -> (alice: String, bob: String) {
        named(1, "alice")
        named(2, "bob")
        send(1, "SEEK")
        send(2, "SEEK")
        let d = drain()
        return (try token(d[1], sourceLocation: sourceLocation), try token(d[2], sourceLocation: sourceLocation))
    }

    /// alice (1) and bob (2) paired by `SEEK variant=<variant>` (bob spells
    /// it `spelled`); carol (3) seeks Ghost meanwhile, hears of their queue
    /// by its variant, and is paired with neither. Checks every line of the
    /// pairing; returns the tokens.
    func pairInVariant(_ variant: String, spelled: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (alice: String, bob: String) {
        named(1, "alice")
        named(2, "bob")
        named(3, "carol")
        send(1, "SEEK variant=\(variant)")
        send(3, "SEEK")
        #expect(drain()[3]?.contains("WAITING game=ghost lang=en count=1 variant=\(variant)") == true, sourceLocation: sourceLocation)
        send(2, "SEEK variant=\(spelled)")
        let d = drain()
        #expect(d[3] == nil, sourceLocation: sourceLocation)
        let t = (alice: try token(d[1], sourceLocation: sourceLocation), bob: try token(d[2], sourceLocation: sourceLocation))
        func game(_ token: String) -> String {
            "GAME id=1 game=ghost lang=en players=alice,bob token=\(token) round=1 variant=\(variant)"
        }
        #expect(d[1] == [game(t.alice), "TURN id=1 player=alice fragment="], sourceLocation: sourceLocation)
        #expect(d[2] == ["OK SEEK lang=en", game(t.bob), "TURN id=1 player=alice fragment="], sourceLocation: sourceLocation)
        return t
    }

    /// Plays a game that `winner` wins because `loser` leaves it; drops the lines.
    func quickGame(winner: ConnectionID, loser: ConnectionID) {
        send(winner, "SEEK")
        send(loser, "SEEK")
        // A letter first: LEAVE before any move aborts the game instead.
        send(winner, "p")
        send(loser, "LEAVE")
        _ = drain()
    }
}

/// Checks one connection's lines: an exact first word and code, loose text.
func isErr(_ line: String?, _ code: ErrorCode) -> Bool {
    line?.hasPrefix("ERR \(code.rawValue) ") ?? false
}

/// The resume token on the GAME line among `lines`, checked to be 32 hex digits.
func token(_ lines: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let game = try #require(lines?.first { $0.hasPrefix("GAME ") }, sourceLocation: sourceLocation)
    let t = try #require(Message.parse(game)?["token"], "no token in \(game)", sourceLocation: sourceLocation)
    #expect(t.utf8.count == 32 && t.allSatisfy { "0123456789abcdef".contains($0) }, "token \(t)",
            sourceLocation: sourceLocation)
    return t
}

/// `record`: the receiver's head-to-head record (`record=1-0`), between two people who played before.
func game(_ id: Int, _ players: String, _ token: String, round: Int = 1, lang: String = "en",
                  record: String? = nil) -> String {
    "GAME id=\(id) game=ghost lang=\(lang) players=\(players) token=\(token) round=\(round)" + (record.map { " record=\($0)" } ?? "")
}

let aliceAway = "INFO alice is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it."
let bobAway = "INFO bob is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it."

extension Lobby.Settings {
    /// The daemon's limits on stalling (`--first-move-timeout`,
    /// `--move-timeout`; a lobby's own default is none), for the tests of
    /// those limits and of their TURN countdowns.
    static func daemonStalling() -> Lobby.Settings {
        var s = Lobby.Settings()
        s.firstMoveTimeout = ServerConfig().firstMoveTimeout
        s.moveTimeout = ServerConfig().moveTimeout
        return s
    }
}
