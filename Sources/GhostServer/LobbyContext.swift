import GameKit
import GhostCore
import GhostProtocol
import GhostStore
import WordLists

/// What every part of the lobby reaches, and nothing more: where replies
/// go, the store and what a failed write does, the clock, the settings, the
/// game kinds, the log, who is connected, and the figures for STATS. Each
/// part (names, accounts, seeking, play, watching, recovery…) keeps its own
/// state and gets this one context, so that no part reaches another's state
/// except through that part.
final class LobbyContext {
    let dictionaries: Dictionaries
    let catalog: GameCatalog
    /// Kinds besides the catalog's, by name (tests of the kind-generic
    /// lobby); the catalog's kind wins a clash of names.
    let extraKinds: [String: any GameDefinition]
    let store: Store
    let settings: Lobby.Settings
    let clock: LobbyClock
    /// `clock` is the system's (`SystemClock`): it is read directly. Each
    /// read through the existential copied it out and destroyed the copy
    /// (several readings a move).
    let systemClock: Bool
    /// The language of a connection that has not chosen one.
    let defaultLanguage: String
    unowned let outbox: Outbox
    let log: (String) -> Void
    /// Who is connected, and who holds each name in use (Sessions.swift).
    let sessions = Sessions()
    /// The names online and what is theirs between people (People.swift).
    let people = People()
    /// Units the line being served costs on top of its verb's (a repeated
    /// SAY, ChatDesk.swift): the loop's budget takes it (`Lobby.takeSurcharge`).
    var surcharge = 0
    /// Counted since the start, for STATS.
    var figures = Lobby.Figures()
    /// What a failed write does (the lobby's recovery: the command in
    /// progress is rolled back and answered `ERR store-failed`).
    var storeFailed: (Error) -> Void = { _ in }

    /// `catalog`: made from `dictionaries` (every kind prepares what it needs
    /// up front, Ghost solving its games in milliseconds in a release build,
    /// so a computer move never holds up the loop).
    init(dictionaries: Dictionaries, catalog: GameCatalog, store: Store, outbox: Outbox, clock: LobbyClock,
         settings: Lobby.Settings, extraKinds: [any GameDefinition], log: @escaping (String) -> Void) {
        self.dictionaries = dictionaries
        self.catalog = catalog
        var extra: [String: any GameDefinition] = [:]
        for kind in extraKinds where extra[kind.name] == nil { extra[kind.name] = kind }
        self.extraKinds = extra
        self.kindNames = Array(Set(catalog.names + extra.keys)).sorted()
        self.store = store
        self.settings = settings
        self.clock = clock
        self.systemClock = clock is SystemClock
        self.defaultLanguage = dictionaries[Preference.language.defaultValue] != nil
            ? Preference.language.defaultValue : (dictionaries.languages.first ?? "en")
        self.outbox = outbox
        self.log = log
    }

    /// Seconds from an arbitrary start; never goes back (`LobbyClock.monotonic`).
    var monotonic: Double { systemClock ? monotonicSeconds() : clock.monotonic }
    /// Unix seconds (`LobbyClock.wall`).
    var wall: Int { systemClock ? SystemClock.wallSeconds() : clock.wall }

    /// The game kind called `name`, if this server plays it.
    func kind(named name: String) -> (any GameDefinition)? { catalog[name] ?? extraKinds[name] }

    /// Every kind this server plays, by name (fixed at the start).
    let kindNames: [String]

    func reply(_ id: ConnectionID, _ line: ServerLine) {
        outbox.send(line, to: id)
    }

    /// Runs a store operation; on failure remembers the error and returns
    /// nil: the command in progress is then rolled back, its replies are
    /// withdrawn and it is answered `ERR store-failed` (RecoveryDesk.swift).
    func persist<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            storeFailed(error)
            return nil
        }
    }

    func failed(_ id: ConnectionID) {
        reply(id, .error(.storeFailed, Lobby.storeFailedText))
    }
}
