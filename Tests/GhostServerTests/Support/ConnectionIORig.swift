import Foundation
@testable import GhostServer
import GhostStore
import WordLists

/// A `ConnectionIO` over a real lobby and store (in a temporary folder,
/// removed with the rig), with no socket, epoll set or loop: the rig of the
/// suites that drive the connections' I/O by hand.
final class ConnectionIORig {
    let directory: String
    let store: Store
    let table = ConnectionTable(maxOutputBytes: 1 << 20)
    let io: ConnectionIO

    /// `stem`: the start of the temporary folder's name.
    init(_ stem: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(stem)-\(UUID().uuidString)").path
        store = try Store(directory: directory, durability: .normal)
        let lobby = try Lobby(dictionaries: Dictionaries(lists: lobbyLists), store: store, outbox: table,
                              clock: ManualClock(), settings: Lobby.Settings())
        let admission = Admission(maxClients: 10, maxPerNetwork: 0, maxUnnamed: 0, maxUnnamedPerNetwork: 0,
                                  connectsPerSecond: 0, connectBurst: 1)
        io = ConnectionIO(config: ServerConfig(), lobby: lobby, table: table, stats: ServerStats(startedAt: 0),
                          admission: admission, epoll: Epoll(), clock: nil)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
