import Foundation
import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore
import WordLists

// The lists, and what perfect play makes of them (1st = the player who starts a round):
// en: pea, pear, peach, cat, cats, dog, dogs.
//   p: p, e (forced), a (forced), then c (r makes "pear", a word: loses at once), h (forced)
//      makes "peach" on the 1st player. So p loses, and every reply in it is forced.
//   c: c, a, t ("cat" is alive: cats extends it), s makes "cats" on the 2nd player. d: likewise
//      (dog, dogs). So c and d win for the 1st player: the computer starting plays c or d.
// nl: huis, huisje, kat, katten: k then a is forced.
let computerLists = lobbyLists

/// A lobby with a recording outbox, a manual clock and a store in a fresh temporary
/// directory. The computer moves at once (inline) unless `botDelay` > 0.
/// Connection 1 is alice, 2 is bob, 3 is carol, 4 is dave.
final class BotHarness {
    let outbox = RecordingOutbox()
    let clock = ManualClock()
    let directory: String
    private let ownsDirectory: Bool
    let store: Store
    let lobby: Lobby

    init(directory: String? = nil, botDelay: Double = 0) throws {
        if let directory {
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ghostd-bots-\(UUID().uuidString)").path
            ownsDirectory = true
        }
        var settings = Lobby.Settings()
        settings.botDelay = botDelay
        store = try Store(directory: self.directory, durability: .normal)
        lobby = try Lobby(dictionaries: Dictionaries(lists: computerLists), store: store, outbox: outbox,
                          clock: clock, settings: settings)
        commit()
    }

    deinit {
        store.close()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func commit() {
        do { try store.commit() } catch { Issue.record("commit failed: \(error)") }
    }

    func connect(_ id: ConnectionID) { lobby.connected(id); commit() }
    func disconnect(_ id: ConnectionID) { lobby.disconnected(id); commit() }
    func send(_ id: ConnectionID, _ line: String) {
        lobby.received(.line(Array(line.utf8)), from: id)
        commit()
    }
    func tick() { lobby.tick(); commit() }

    func drain(sourceLocation: SourceLocation = #_sourceLocation) -> [ConnectionID: [String]] {
        #expect(lobby.storeError == nil, sourceLocation: sourceLocation)
        return outbox.drain()
    }

    func named(_ id: ConnectionID, _ name: String) {
        connect(id)
        send(id, "NAME \(name)")
        _ = drain()
    }
}

/// The resume token on the GAME line among `lines`.
func tokenIn(_ lines: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let game = try #require(lines?.first { $0.hasPrefix("GAME ") }, "no GAME in \(lines ?? [])", sourceLocation: sourceLocation)
    let t = try #require(Message.parse(game)?["token"], "no token in \(game)", sourceLocation: sourceLocation)
    #expect(t.utf8.count == 32, sourceLocation: sourceLocation)
    return t
}

/// The GAME line of game 1, as one seat sees it.
func gameLine(_ players: String, _ token: String, round: Int = 1, lang: String = "en",
                      bot: String? = nil, ghost: String? = nil) -> String {
    "GAME id=1 game=ghost lang=\(lang) players=\(players) token=\(token) round=\(round)"
        + (bot.map { " bot=\($0)" } ?? "") + (ghost.map { " rounds=ghost ghost=\($0)" } ?? "")
}

func turn(_ player: String, _ fragment: String, ghost: String? = nil, last: String? = nil, id: Int = 1) -> String {
    "TURN id=\(id) player=\(player) fragment=\(fragment)" + (ghost.map { " ghost=\($0)" } ?? "") + (last.map { " last=\($0)" } ?? "")
}

func move(_ player: String, _ letter: Character, _ fragment: String, id: Int = 1) -> String {
    "MOVE id=\(id) player=\(player) letter=\(letter) fragment=\(fragment)"
}

let noHints = "ERR no-hints hints are only for games against the Easy computer"
