import GameKit
import GhostCore
import GhostProtocol
import GhostStore
import WordLists

/// Identifies one client connection for the life of the server.
public typealias ConnectionID = Int

/// Where the lobby's replies and events go. The event loop buffers them,
/// commits the store, and then flushes, once per loop turn; tests record them.
public protocol Outbox: AnyObject {
    func send(_ line: ServerLine, to id: ConnectionID)
    /// The same line to several connections (nil entries are skipped).
    func send(_ line: ServerLine, toEach ids: [ConnectionID?])
    /// Several lines, rendered once, to each of several connections (the
    /// watchers' batches: `Lobby.Settings.watchBatchInterval`).
    func send(_ lines: [ServerLine], toEach ids: [ConnectionID])
    /// Close the connection: `BYE <code> <text>` is its last line, and it
    /// closes once what was sent to it has been written. Nothing more is sent
    /// to it after that.
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String)
    /// A command starts: what it sends and closes from here on may be withdrawn.
    func beginCommand()
    /// Withdraws what was sent and closed since `beginCommand()`: the
    /// command's writes were rolled back, so its replies must not go out.
    func discardCommand()
}

extension Outbox {
    public func send(_ line: ServerLine, toEach ids: [ConnectionID?]) {
        for case let id? in ids { send(line, to: id) }
    }

    public func send(_ lines: [ServerLine], toEach ids: [ConnectionID]) {
        for id in ids {
            for line in lines { send(line, to: id) }
        }
    }
}

/// Wall-clock time for the records, monotonic time for grace periods.
public protocol LobbyClock {
    /// Unix seconds.
    var wall: Int { get }
    /// Seconds from an arbitrary start; never goes back.
    var monotonic: Double { get }
}

/// The game server's logic, without sockets: who is connected, who seeks a
/// game, which private games are open, the games in progress, and what the
/// store must remember. Every input is a parsed line, a connection event or a
/// tick of the clock; every output goes to the outbox or the store.
/// A seat in a game is a person (a connection while present, empty while the
/// game is adjourned) or the computer.
public final class Lobby: LobbyPart {
    public static let version = "0.4.0"
    public static let protocolVersion = 2

    /// What every part of the lobby reaches (LobbyContext.swift); the lobby
    /// reads it under the same names as its parts do (`LobbyPart`).
    let context: LobbyContext
    /// The catalog's default kind, as the parser reads `game=`: that kind
    /// named is as no `game=` (SEEK, NEW, SCORES, TOP).
    /// (Set at init: a lazy property cost a check and a retain every line.)
    let defaultGameKind: GameKind
    /// The kinds' own move verbs, which the parser reads (Lobby+KindVerbs.swift).
    lazy var kindVerbs = KindVerbs(kindNames.compactMap { kind(named: $0) }.flatMap(\.moveVerbs))
    /// The loop's figures for STATS (uptime, connections, commits, memory),
    /// some of them the asking connection's (its entry node); set by the server.
    public var serverFigures: ((ConnectionID) -> [(String, String)])?
    /// Counted since the start, for STATS.
    struct Figures {
        var moves = 0
        var gamesFinished = 0
        /// Games aborted with no score (Lifecycle.swift: no first move, left before it, untouched).
        var gamesAborted = 0
        /// Registrations, logins with the right password, and wrong passwords (AccountDesk.swift).
        var registrations = 0
        var logins = 0
        var loginsFailed = 0
        /// Passwords changed (PASSWORD), and hashes refused (a network past
        /// its hashing budget, or the queue full).
        var passwordsChanged = 0
        var hashesRefused = 0
    }
    // The lobby's parts (LobbyPart.swift, GamePart.swift), each with its
    // own state, built in the init from the bottom up: each is given the
    // parts it uses, which are below it (docs/architecture.md draws the graph).
    /// The games in play, one room each, with the open ones and the resume tokens (Rooms.swift).
    let rooms = Rooms()
    /// When each game next needs the clock (Deadlines.swift): the rooms touch it, `Away` reads it.
    let deadlines = Deadlines<Room>()
    /// Who waits for an opponent: the seek queues and the join codes (Waiting.swift).
    let waiting: Waiting
    /// Ratings: who plays rated, the update at a game's end, TOP, PROFILE
    /// and HISTORY (RatingDesk.swift).
    let ratings: RatingDesk
    /// GAMES, WATCH, UNWATCH and what watchers get (WatchDesk.swift).
    let watching: WatchDesk
    /// Commands as units, failed writes and lost turns (RecoveryDesk.swift).
    let recovery: RecoveryDesk
    /// The end of a game: stored, then announced (Finishing.swift).
    let finishing: Finishing
    /// Games in progress: moves, the computer, hints (GamePlay.swift).
    let play: GamePlay
    /// Unloading, aborting, reloading and sweeping games; the caps on games in progress (Lifecycle.swift).
    let lifecycle: Lifecycle
    /// RESTART and LANG offers during a game (Offers.swift).
    let offers: Offers
    /// NAME, LANG, the rules for guests, and the last game for REMATCH (NameDesk.swift).
    let names: NameDesk
    /// SET and SETTINGS, the settings saved per name (SettingsDesk.swift).
    let preferences: SettingsDesk
    /// Seeking, private games, JOIN, REMATCH and LEAVE (Matchmaking.swift).
    let matchmaking: Matchmaking
    /// Away and back, CLAIM, and the clock's deadlines (Away.swift).
    let away: Away
    /// Registered names: REGISTER, NAME with a password, PASSWORD, with the
    /// passwords being checked (AccountDesk.swift).
    let accountDesk: AccountDesk
    /// SCORES (ScoresDesk.swift).
    let scores: ScoresDesk
    /// MOVES and REVIEW (ReviewDesk.swift).
    let review: ReviewDesk
    /// VIEW: a game as any client draws it (ViewDesk.swift).
    let views: ViewDesk
    /// FOLLOW, BLOCK and their lists, presence (SocialDesk.swift).
    let social: SocialDesk
    /// INVITE and DECLINE <code> (Invitations.swift).
    let invitations: Invitations
    /// SAY and REPORT (ChatDesk.swift).
    let chat: ChatDesk
    /// The operator's mutes and bans (Moderation.swift).
    let moderation: Moderation

    /// Where passwords go to be hashed or checked, off the loop
    /// (AccountDesk.swift): the server sets its pool of hashing threads.
    public var passwordChecker: any PasswordChecker {
        get { accountDesk.passwordChecker }
        set { accountDesk.passwordChecker = newValue }
    }

    /// Whether the connection waits for a password's answer: the loop does
    /// not serve its lines until it has it.
    public func isWaitingForPassword(_ id: ConnectionID) -> Bool {
        sessions.isAwaitingPassword(id)
    }

    /// Takes the checker's finished outcomes and answers each, then serves
    /// the lines that waited behind it (AccountDesk.swift). The loop calls it
    /// when the hashing pool wakes it (and tests when they like).
    public func passwordsChecked() {
        // A login's name is taken before the lines that waited behind it are served.
        accountDesk.passwordsChecked(serve: { frame, id in
            self.social.settle()
            self.received(frame, from: id)
        })
        social.settle()
    }

    /// Units the line just served costs on top of its verb's (a repeated
    /// SAY); the loop charges them to the sender's budget.
    @inline(__always) public func takeSurcharge() -> Int {
        let units = context.surcharge
        if units != 0 { context.surcharge = 0 }
        return units
    }

    /// An operator's action on the running server (`ghostd accounts
    /// mute|ban|unban`): stored with the turn, and acted on at once.
    /// Returns what was done, or throws if the store refused it.
    public func apply(_ action: OperatorAction) throws -> String {
        try moderation.apply(action)
    }

    /// `extraKinds` are game kinds to play besides the catalog's (for tests
    /// of what the lobby does for any kind); the server passes none.
    public init(dictionaries: Dictionaries, store: Store, outbox: Outbox, clock: LobbyClock,
                settings: Settings = Settings(), extraKinds: [any GameDefinition] = [],
                log: @escaping (String) -> Void = { _ in }) throws {
        let catalog = GameCatalog(dictionaries: dictionaries)
        // Every kind's declarations, before anything is served (KindDeclarations.swift).
        try KindDeclarations.check(catalog.names.compactMap { catalog[$0] } + extraKinds)
        self.context = LobbyContext(dictionaries: dictionaries, catalog: catalog, store: store, outbox: outbox, clock: clock,
                                    settings: settings, extraKinds: extraKinds, log: log)
        defaultGameKind = GameKind(rawValue: context.catalog.defaultKind.name)
        // The parts, from the bottom up: each gets the parts it uses.
        waiting = Waiting(context: context)
        ratings = RatingDesk(context: context)
        watching = WatchDesk(context: context, rooms: rooms, ratings: ratings)
        recovery = RecoveryDesk(context: context, rooms: rooms, deadlines: deadlines, watching: watching, waiting: waiting)
        finishing = Finishing(context: context, rooms: rooms, deadlines: deadlines, watching: watching, recovery: recovery,
                              ratings: ratings)
        play = GamePlay(context: context, rooms: rooms, deadlines: deadlines, watching: watching, recovery: recovery,
                        ratings: ratings, finishing: finishing)
        lifecycle = Lifecycle(context: context, rooms: rooms, deadlines: deadlines, watching: watching, recovery: recovery)
        offers = Offers(context: context, rooms: rooms, play: play)
        names = NameDesk(context: context, rooms: rooms, offers: offers)
        preferences = SettingsDesk(context: context, names: names)
        matchmaking = Matchmaking(context: context, rooms: rooms, waiting: waiting, play: play, lifecycle: lifecycle,
                                  watching: watching, ratings: ratings, preferences: preferences)
        away = Away(context: context, rooms: rooms, deadlines: deadlines, watching: watching, lifecycle: lifecycle,
                    play: play, recovery: recovery, waiting: waiting)
        accountDesk = AccountDesk(context: context, recovery: recovery, waiting: waiting, names: names)
        scores = ScoresDesk(context: context)
        review = ReviewDesk(context: context)
        views = ViewDesk(context: context, rooms: rooms)
        social = SocialDesk(context: context, rooms: rooms)
        invitations = Invitations(context: context, waiting: waiting, matchmaking: matchmaking)
        chat = ChatDesk(context: context, rooms: rooms, watching: watching)
        moderation = Moderation(context: context)
        social.wentOffline = { [unowned chat] key in chat.forget(key) }
        preferences.settingSaved = { [unowned social] name, key, value in social.settingChanged(name, key, value) }
        names.refusal = { [unowned moderation] name in moderation.refusal(name) }
        away.refusal = names.refusal
        context.storeFailed = { [unowned self] error in self.recovery.storeFailed(error) }
        lifecycle.recordStart()
        ratings.replayIfNeeded()
        try play.restoreGames()
    }

    /// Games in progress, adjourned ones included.
    public var activeGames: Int { rooms.count }
    /// Connected clients.
    public var connectionCount: Int { sessions.count }

    /// Whether the connection has said who it is (NAME or RESUME).
    public func isIdentified(_ id: ConnectionID) -> Bool { sessions[id]?.name != nil }

    // MARK: Connection events

    public func connected(_ id: ConnectionID, address: String = "") {
        sessions.remove(id)   // (ids are not reused: keeps the count of sessions awaiting a password true if one were)
        sessions.byID[IDKey(id)] = Session(lang: defaultLanguage, address: address)
        if let network = sessions[id]?.network, moderation.isBanned(network: network) {
            return outbox.close(id, .banned, "the server's operator banned your network")
        }
        outbox.send(.hello(version: Lobby.version, protocolVersion: Lobby.protocolVersion,
                           languages: dictionaries.languages), to: id)
    }

    /// A trusted proxy named the connection's client (its PROXY line, before
    /// any other): the new names per network and the operator's network bans
    /// count by the client's network from now on, not the proxy's.
    public func readdressed(_ id: ConnectionID, address: String) {
        guard sessions[id] != nil else { return }
        sessions.update(id) { $0.address = address }
        if let network = sessions[id]?.network, moderation.isBanned(network: network) {
            outbox.close(id, .banned, "the server's operator banned your network")
        }
    }

    /// The connection is gone: a game in progress is adjourned, not lost.
    public func disconnected(_ id: ConnectionID) {
        guard let session = sessions[id] else { return }
        watching.stopWatching(id)
        switch session.state {
        case .playing(let gameID, let seat): away.adjourn(gameID, seat: seat)
        default: waiting.stopWaiting(id, session)
        }
        if let name = session.name {
            sessions.release(name, by: id)
            social.left(name)
        }
        names.forgetLastGame(id)
        sessions.remove(id)
        social.settle()
    }

    /// A framed input from a connection: a line or an over-long line.
    public func received(_ frame: LineFramer.Frame, from id: ConnectionID) {
        // Waiting for a password's answer: the line waits too (the loop does
        // not even serve it; AccountDesk.swift).
        if sessions.isAwaitingPassword(id) {
            sessions.byID[IDKey(id)]?.deferred.append(frame)
            return
        }
        switch frame {
        case .tooLong:
            reply(id, .error(.lineTooLong, "a line is at most \(LineFramer.defaultMaxLineBytes) bytes; it was discarded"))
        case .line(let bytes):
            switch CommandParser.parse(bytes, defaultKind: defaultGameKind) {
            case .success(nil): break
            case .success(let command?): handle(command, from: id)
            case .failure(let e): notACommand(e, bytes, from: id)
            }
        }
    }

    // MARK: STATS

    /// Every figure, one `STAT` line each (Protocol.md §3 lists them).
    func stats(_ id: ConnectionID) {
        var lines: [(String, String)] = [("version", Lobby.version), ("protocol", String(Lobby.protocolVersion))]
        lines += serverFigures?(id) ?? []
        lines.append(("games_in_progress", String(rooms.count)))
        for kind in kindNames {
            lines.append(("games_in_progress_" + kind, String(rooms.values.count { $0.kind.name == kind })))
        }
        lines += [("games_finished", String(figures.gamesFinished)),
                  ("games_aborted", String(figures.gamesAborted)), ("moves", String(figures.moves)),
                  ("names_connected", String(sessions.names.count)), ("watchers", String(watching.watcherTotal)),
                  ("registrations", String(figures.registrations)), ("logins", String(figures.logins)),
                  ("logins_failed", String(figures.loginsFailed)), ("passwords_changed", String(figures.passwordsChanged)),
                  ("hashes_refused", String(figures.hashesRefused)), ("passwords_pending", String(accountDesk.pendingCount)),
                  ("invitations_open", String(invitations.count))]
        for (name, value) in lines { reply(id, .stat(name: name, value: value)) }
        reply(id, .ok(.stats(count: lines.count)))
    }
}
