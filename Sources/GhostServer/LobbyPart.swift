import GameKit
import GhostCore
import GhostProtocol
import GhostStore
import WordLists

/// A part of the lobby (the Lobby split by concern): a final
/// class that keeps its own state and reaches the shared services through
/// its `context` (LobbyContext.swift). These forwarders let the code moved
/// out of the Lobby read as it did (`reply(id, …)`, `persist { … }`, `store`,
/// `sessions`), without reaching any other part's state.
protocol LobbyPart: AnyObject {
    var context: LobbyContext { get }
}

/// A part's clock (`clock.monotonic`, `clock.wall`): read through its
/// context, which reads the system clock directly (LobbyContext.swift).
/// Used at once, while the part holds its context: a strong reference,
/// which the optimizer leaves uncounted (made and dropped around one load).
struct LobbyTime {
    let context: LobbyContext
    /// The system clock read without a call on the context (a plain load of
    /// its flag): through `context.monotonic` each reading retained and
    /// released the context (a few readings a letter).
    var monotonic: Double { context.systemClock ? monotonicSeconds() : context.monotonic }
    var wall: Int { context.wall }
}

extension LobbyPart {
    typealias Session = Lobby.Session
    typealias State = Lobby.State
    typealias Settings = Lobby.Settings
    typealias Room = Lobby.Room
    typealias Offer = Lobby.Offer

    var dictionaries: Dictionaries { context.dictionaries }
    var catalog: GameCatalog { context.catalog }
    var store: Store { context.store }
    var settings: Settings { context.settings }
    var clock: LobbyTime { LobbyTime(context: context) }
    var defaultLanguage: String { context.defaultLanguage }
    var outbox: Outbox { context.outbox }
    var log: (String) -> Void { context.log }
    var sessions: Sessions { context.sessions }
    var figures: Lobby.Figures {
        get { context.figures }
        _modify { yield &context.figures }
    }

    func kind(named name: String) -> (any GameDefinition)? { context.kind(named: name) }
    var kindNames: [String] { context.kindNames }

    func reply(_ id: ConnectionID, _ line: ServerLine) { context.reply(id, line) }
    func persist<T>(_ body: () throws -> T) -> T? { context.persist(body) }
    func failed(_ id: ConnectionID) { context.failed(id) }
}
