import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// What each part of the lobby's game side (GamePlay, Finishing, Offers,
/// Away, RecoveryDesk, Lifecycle, WatchDesk) has: the lobby it belongs to,
/// through which it reaches the other parts (only by their methods:
/// `lobby.away.graceLeft(table)`), and the context's services under the
/// names the lobby's code has always used for them.
protocol GamePart: AnyObject {
    /// The lobby this part belongs to (it holds the part; unowned).
    var lobby: Lobby { get }
    var context: LobbyContext { get }
}

extension GamePart {
    typealias Room = Lobby.Room
    typealias Session = Lobby.Session
    typealias Offer = Lobby.Offer

    var dictionaries: Dictionaries { context.dictionaries }
    var catalog: GameCatalog { context.catalog }
    var store: Store { context.store }
    var settings: Lobby.Settings { context.settings }
    var clock: LobbyClock { context.clock }
    var outbox: Outbox { context.outbox }
    var log: (String) -> Void { context.log }
    var sessions: Sessions { context.sessions }

    func kind(named name: String) -> (any GameDefinition)? { context.kind(named: name) }

    func reply(_ id: ConnectionID, _ line: ServerLine) { context.reply(id, line) }

    /// Runs a store operation; on failure remembers the error and returns
    /// nil (LobbyContext.persist).
    func persist<T>(_ body: () throws -> T) -> T? { context.persist(body) }

    func failed(_ id: ConnectionID) { context.failed(id) }
}
