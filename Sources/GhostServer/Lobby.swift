import GameKit
import GhostCore
import GhostProtocol
import GhostStore

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
public final class Lobby {
    public static let version = "0.4.0"
    public static let protocolVersion = 2

    let dictionaries: Dictionaries
    let catalog: GameCatalog
    /// Kinds besides the catalog's, by name (tests of the kind-generic
    /// lobby); the catalog's kind wins a clash of names.
    let extraKinds: [String: any GameDefinition]
    /// The kinds' own move verbs, which the parser reads (Lobby+KindVerbs.swift).
    lazy var kindVerbs = KindVerbs(kindNames.compactMap { kind(named: $0) }.flatMap(\.moveVerbs))
    let store: Store
    let settings: Settings
    let clock: LobbyClock
    private let defaultLanguage: String
    unowned let outbox: Outbox
    let log: (String) -> Void

    /// Who is connected, and who holds each name in use (Sessions.swift).
    var sessions = Sessions()
    /// The loop's figures for STATS (uptime, connections, commits, memory); set by the server.
    public var serverFigures: (() -> [(String, String)])?
    /// Counted since the start, for STATS.
    struct Figures {
        var moves = 0
        var gamesFinished = 0
        /// Games aborted with no score (Lobby+Lifecycle.swift: no first move, left before it, untouched).
        var gamesAborted = 0
        /// Registrations, logins with the right password, and wrong passwords (Lobby+Accounts.swift).
        var registrations = 0
        var logins = 0
        var loginsFailed = 0
    }
    var figures = Figures()
    /// When the sweep for untouched games next runs (monotonic; Lobby+Lifecycle.swift).
    var nextUntouchedSweep = -Double.infinity
    /// New names per address (`Settings.newNamesPerMinute`).
    lazy var newNames = TokenBuckets(perSecond: settings.newNamesPerMinute / 60, burst: settings.newNameBurst)
    /// Failed JOINs per network (`Settings.failedJoinsPerMinute`).
    lazy var failedJoins = TokenBuckets(perSecond: settings.failedJoinsPerMinute / 60, burst: settings.failedJoinBurst)
    /// Who waits for an opponent, queue by queue (SeekQueues.swift).
    var seekers = SeekQueues()
    /// The private games open now: join code → host (JoinCodes.swift).
    var hosted = JoinCodes()
    /// The games in play, one room each, with the open ones and the resume tokens (Rooms.swift).
    let rooms = Rooms()
    /// When each game next needs the clock: the computer to play, or a grace period to end.
    let deadlines = Deadlines()
    /// Who watches each game (Watchers.swift, Lobby+Watching.swift).
    let watchers = Watchers()

    /// Where passwords go to be hashed or checked, off the loop (issue #26;
    /// Lobby+Accounts.swift): the server sets its pool of hashing threads.
    public var passwordChecker: any PasswordChecker = DeferredPasswordChecker()
    /// The passwords being checked, and the failed logins (Lobby+Accounts.swift).
    lazy var accounts = Accounts(backoff: LoginBackoff(maxWait: settings.loginBackoffMax, memory: settings.loginFailureMemory,
                                                       capacity: settings.maxLoginFailureEntries))

    /// Set only when the lobby could not resynchronise with the store after a
    /// failed write (the database cannot even be read): the server must then
    /// stop without sending this turn's replies. A failed write alone is
    /// answered `ERR store-failed` (Lobby+Recovery.swift).
    public internal(set) var storeError: Error?
    /// Failed writes and what a lost turn needs to be undone (Lobby+Recovery.swift).
    var recovery = Recovery()

    /// `extraKinds` are game kinds to play besides the catalog's (for tests
    /// of what the lobby does for any kind); the server passes none.
    public init(dictionaries: Dictionaries, store: Store, outbox: Outbox, clock: LobbyClock,
                settings: Settings = Settings(), extraKinds: [any GameDefinition] = [],
                log: @escaping (String) -> Void = { _ in }) throws {
        self.dictionaries = dictionaries
        // Every kind prepares what it needs up front (Ghost solves its games:
        // milliseconds in a release build), so a computer move never holds up the loop.
        self.catalog = GameCatalog(dictionaries: dictionaries)
        var extra: [String: any GameDefinition] = [:]
        for kind in extraKinds where extra[kind.name] == nil { extra[kind.name] = kind }
        self.extraKinds = extra
        self.store = store
        self.settings = settings
        self.clock = clock
        self.defaultLanguage = dictionaries[Preference.language.defaultValue] != nil
            ? Preference.language.defaultValue : (dictionaries.languages.first ?? "en")
        self.outbox = outbox
        self.log = log
        try restoreGames()
    }

    /// The game kind called `name`, if this server plays it.
    func kind(named name: String) -> (any GameDefinition)? { catalog[name] ?? extraKinds[name] }

    /// Every kind this server plays, by name.
    var kindNames: [String] { Array(Set(catalog.names + extraKinds.keys)).sorted() }

    /// Games in progress, adjourned ones included.
    public var activeGames: Int { rooms.count }
    /// Connected clients.
    public var connectionCount: Int { sessions.count }

    /// Whether the connection has said who it is (NAME or RESUME).
    public func isIdentified(_ id: ConnectionID) -> Bool { sessions[id]?.name != nil }

    // MARK: Connection events

    public func connected(_ id: ConnectionID, address: String = "") {
        sessions.byID[id] = Session(lang: defaultLanguage, address: address)
        outbox.send(.hello(version: Lobby.version, protocolVersion: Lobby.protocolVersion,
                           languages: dictionaries.languages), to: id)
    }

    /// The connection is gone: a game in progress is adjourned, not lost.
    public func disconnected(_ id: ConnectionID) {
        guard let session = sessions[id] else { return }
        stopWatching(id)
        switch session.state {
        case .playing(let gameID, let seat): adjourn(gameID, seat: seat)
        default: stopWaiting(id, session)
        }
        if let name = session.name { sessions.release(name, by: id) }
        forgetLastGame(id)
        sessions.byID[id] = nil
    }

    /// The connection can no longer rematch its last game (it left, started
    /// something else or changed its name). A pending rematch request between
    /// the two lapses: the opponent, if it is still waiting on it, is told.
    func forgetLastGame(_ id: ConnectionID) {
        guard let last = sessions[id]?.last else { return }
        sessions.byID[id]?.last = nil
        guard let theirs = sessions[last.opponent]?.last, theirs.game == last.game, last.asked || theirs.asked else { return }
        let asker = last.asked ? sessions[id]?.name : sessions[last.opponent]?.name
        outbox.send(.cancelled(id: last.game, player: asker ?? "?", kind: .rematch), to: last.opponent)
        sessions.byID[last.opponent]?.last = nil
    }

    /// A framed input from a connection: a line or an over-long line.
    public func received(_ frame: LineFramer.Frame, from id: ConnectionID) {
        // Waiting for a password's answer: the line waits too (the loop does
        // not even serve it; Lobby+Accounts.swift).
        if sessions[id]?.awaitingPassword != nil {
            sessions.byID[id]?.deferred.append(frame)
            return
        }
        switch frame {
        case .tooLong:
            reply(id, .error(.lineTooLong, "a line is at most \(LineFramer.defaultMaxLineBytes) bytes; it was discarded"))
        case .line(let bytes):
            switch CommandParser.parse(bytes) {
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
        lines += serverFigures?() ?? []
        lines.append(("games_in_progress", String(rooms.count)))
        for kind in kindNames {
            lines.append(("games_in_progress_" + kind, String(rooms.values.count { $0.kind.name == kind })))
        }
        lines += [("games_finished", String(figures.gamesFinished)),
                  ("games_aborted", String(figures.gamesAborted)), ("moves", String(figures.moves)),
                  ("names_connected", String(sessions.names.count)), ("watchers", String(watcherTotal)),
                  ("registrations", String(figures.registrations)), ("logins", String(figures.logins)),
                  ("logins_failed", String(figures.loginsFailed)), ("passwords_pending", String(accounts.pending.count))]
        for (name, value) in lines { reply(id, .stat(name: name, value: value)) }
        reply(id, .ok(.stats(count: lines.count)))
    }

    // MARK: Names and languages

    /// NAME: `loggedIn`, after the right password (Lobby+Accounts.swift),
    /// which has taken the name from any other connection already.
    func setName(_ name: String, _ id: ConnectionID, _ session: Session, loggedIn: Bool = false) {
        let key = name.lowercased()
        // A bad name is refused before the state is looked at (Protocol.md §6).
        if key.hasPrefix(Lobby.botPrefix) {
            return reply(id, .error(.badName, "names starting with \(Lobby.botPrefix) are kept for the computer"))
        }
        guard session.state == .idle else {
            return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
        }
        if !loggedIn, let holder = sessions.names[key], holder != id {
            // A registered name asks for its password even while in use: the
            // owner's right password takes it over (Lobby+Accounts.swift), so
            // the owner's client must hear that it may offer one.
            guard let registered = persist({ try store.isRegistered(name) }) else { return failed(id) }
            if registered, session.loggedIn?.lowercased() != key {
                return reply(id, .error(.passwordRequired, "\(name) is registered: NAME \(name) <password>"))
            }
            return reply(id, .error(.nameTaken, "another player is using that name"))
        }
        // A guest never takes a registered name, nor one whose game waits for its player.
        var registered = loggedIn
        if !loggedIn {
            guard let guest = guestCheck(name, id, session) else { return failed(id) }
            if let refusal = guest.refusal { return reply(id, refusal) }
            registered = guest.registered
        }
        let now = clock.wall
        guard let known = persist({ try store.isKnownName(name) }) else { return failed(id) }
        // Peeked here, taken once the name is stored: a NAME answered
        // store-failed costs nothing of the allowance.
        if !known, let wait = newNames.wait(session.address, at: clock.monotonic) {
            return reply(id, .error(.tooManyNames, "too many new names from your address; try again in \(Int(wait.rounded(.up))) s, or use a name you have used before"))
        }
        guard let stored = persist({ () throws -> (String, String) in
            let stored = try store.registerName(name, now: now)
            if session.langChosen {
                try store.setPreference(.language, session.lang, for: stored, now: now)
                return (stored, session.lang)
            }
            return (stored, try store.preference(.language, for: stored))
        }) else { return failed(id) }
        if !known { _ = newNames.take(session.address, at: clock.monotonic) }
        if let old = session.name { sessions.release(old, by: id) }
        sessions.names[key] = id
        forgetLastGame(id)
        sessions.byID[id]?.name = name
        if dictionaries[stored.1] != nil { sessions.byID[id]?.lang = stored.1 }
        let lang = sessions[id]?.lang ?? defaultLanguage
        if registered { sessions.byID[id]?.loggedIn = name }
        reply(id, .ok(registered ? .loggedIn(name: name, lang: lang) : .name(name: name, lang: lang)))
    }

    /// LANG, and `SET lang` (`asSetting`): in a game, LANG offers to switch
    /// the game's language, while `SET lang` only saves it for the next games.
    func setLanguage(_ code: String, _ id: ConnectionID, _ session: Session, asSetting: Bool = false) {
        guard dictionaries[code] != nil else {
            return reply(id, .error(.unknownLanguage, "languages here: \(dictionaries.languages.joined(separator: ","))"))
        }
        switch session.state {
        case .playing where !asSetting:
            return offerOrApply(kind: .lang, lang: code, id, session)
        case .seeking, .hosting:
            return reply(id, .error(.busy, "LEAVE the seek or private game first; the language applies to new games"))
        case .idle, .playing:
            break
        }
        if let name = session.name {
            guard persist({ try store.setPreference(.language, code, for: name, now: clock.wall) }) != nil else {
                return failed(id)
            }
        }
        sessions.byID[id]?.lang = code
        sessions.byID[id]?.langChosen = true
        reply(id, .ok(asSetting ? .set(key: Preference.language.rawValue, value: code) : .lang(lang: code, status: nil)))
    }

    // MARK: Settings

    /// Every setting the game kinds offer, each key once (`lang` is the
    /// lobby's own), in the order SETTINGS lists them.
    var settingSpecs: [SettingSpec] {
        var seen: Set<String> = [Preference.language.rawValue]
        return kindNames.compactMap { kind(named: $0) }.flatMap(\.settingKeys).filter { seen.insert($0.key).inserted }
    }

    /// SET <key> <value>: checked by the kind that offers the key, for the
    /// connection's language, then saved at once for the name. It applies to
    /// the next NEW, never to a game in progress. `lang` is LANG outside a
    /// game (and, like LANG, may come before NAME); the other keys need a name.
    func setSetting(_ key: String, _ value: String, _ id: ConnectionID, _ session: Session) {
        if key == Preference.language.rawValue { return setLanguage(value, id, session, asSetting: true) }
        guard let spec = settingSpecs.first(where: { $0.key == key }) else {
            let keys = settingSpecs.map(\.key) + [Preference.language.rawValue]
            return reply(id, .error(.badArguments, "no setting \(key); settings: \(keys.joined(separator: ","))"))
        }
        let checked: String
        switch spec.validate(value, session.lang) {
        case .success(let v): checked = v
        case .failure(let e): return reply(id, .error(ErrorCode(e.code), e.message))
        }
        guard let name = session.name else {
            return reply(id, .error(.noName, "send NAME <name> first: settings are saved per name"))
        }
        guard persist({ try store.setPreference(key, checked, for: name, now: clock.wall) }) != nil else { return failed(id) }
        reply(id, .ok(.set(key: key, value: checked)))
    }

    /// SETTINGS: each kind's settings with the name's values (the defaults
    /// before NAME), then `lang`.
    func listSettings(_ id: ConnectionID, _ session: Session) {
        var saved: [String: String] = [:]
        if let name = session.name {
            guard let prefs = persist({ try store.preferences(for: name) }) else { return failed(id) }
            saved = prefs
        }
        for spec in settingSpecs {
            reply(id, .setting(key: spec.key, value: saved[spec.key] ?? spec.defaultValue, defaultValue: spec.defaultValue))
        }
        reply(id, .setting(key: Preference.language.rawValue, value: session.lang, defaultValue: defaultLanguage))
        reply(id, .ok(.settings))
    }

    /// The options a name's saved settings give a kind's NEW (`mode` →
    /// `fair`), a default for each one not saved.
    func savedOptions(of name: String, for kind: any GameDefinition) throws -> [String: String] {
        let specs = kind.settingKeys
        guard !specs.isEmpty else { return [:] }
        let prefs = try store.preferences(for: name)
        var options: [String: String] = [:]
        for spec in specs where options[spec.option] == nil { options[spec.option] = prefs[spec.key] ?? spec.defaultValue }
        return options
    }

    // MARK: High scores

    /// SCORES game=<kind> [mode=<mode>]: the best games of a kind's list, from the store.
    func bestGames(_ n: Int, game: GameKind, mode: String?, _ id: ConnectionID) {
        if let kind = kind(named: game.rawValue), kind.bestGamesBoard(mode: mode) == nil, let board = winsBoard(of: kind, mode: mode) {
            return listScores(n, board: board, id)
        }
        guard let kind = kind(named: game.rawValue), let board = kind.bestGamesBoard(mode: mode) else {
            return reply(id, .error(.badArguments, "no such high-score list: game=\(game.rawValue)" + (mode.map { " mode=\($0)" } ?? "")))
        }
        guard let rows = persist({ try store.bestGames(board: board, limit: n) }),
              let owners = persist({ try store.registered(among: rows.map(\.name)) }) else { return failed(id) }
        for r in rows {
            reply(id, .bestScore(rank: r.rank, name: r.name, fields: Lobby.fields(stored: r.fields), registered: owners.contains(r.name)))
        }
        reply(id, .ok(.bestGames(count: rows.count, board: board)))
    }

    /// Fields as the store keeps them: `key=value`, separated by spaces.
    static func stored(_ fields: [Field]) -> String {
        fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// The fields of `stored(_:)`'s text back.
    static func fields(stored text: String) -> [Field] {
        text.split(separator: " ").compactMap { (word: Substring) -> Field? in
            guard let eq = word.firstIndex(of: "=") else { return nil }
            return Field(String(word[..<eq]), String(word[word.index(after: eq)...]))
        }
    }

    // MARK: Plumbing

    func reply(_ id: ConnectionID, _ line: ServerLine) {
        outbox.send(line, to: id)
    }

    /// Runs a store operation; on failure remembers the error and returns
    /// nil: the command in progress is then rolled back, its replies are
    /// withdrawn and it is answered `ERR store-failed` (Lobby+Recovery.swift).
    func persist<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            storeFailed(error)
            return nil
        }
    }

    func failed(_ id: ConnectionID) {
        reply(id, .error(.storeFailed, "the server could not store this; nothing was done"))
    }
}
