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

    public struct Settings: Sendable {
        /// Seconds an absent player to move has before the opponent may CLAIM.
        public var graceSeconds: Double = 60
        /// The computer waits about this long before it plays (0: at once).
        public var botDelay: Double = 0.6
        /// Names never used before that one address may create per minute on
        /// average, with bursts of `newNameBurst` (0: no limit). Taking a name
        /// that exists is never limited.
        public var newNamesPerMinute: Double = 10
        public var newNameBurst: Double = 20
        /// The seconds per move a game on a clock may have (`clock=`).
        public var clockRange: ClosedRange<Int> = GameOptions.clockRange
        /// The clocks SEEK takes, a few standard ones: each is a seek queue
        /// of its own (as a chess server's pools), and a seeker hears of
        /// every other queue (WAITING), so their number must stay small.
        public var seekClocks: [Int] = GameOptions.seekClocks
        /// Seekers who wait hear that other seek queues changed (WAITING) at
        /// most once in this many seconds, however many seeks come and go.
        public var waitingInterval: Double = 1
        /// Players and watchers hear that the number of watchers of their
        /// game changed (WATCHERS) at most once in this many seconds.
        public var watchersInterval: Double = 1
        /// Watchers get their game's lines in batches, at most one every this
        /// many seconds (a line waits at most this long; 0: each line at
        /// once): a move costs the same however many watch, and the players'
        /// replies never wait behind a thousand watchers' copies.
        public var watchBatchInterval: Double = 0.05
        /// A large audience waits longer: this many seconds per watcher of
        /// the game (1,000 watchers: 0.25 s), at most a second, so that its
        /// batches cost the players the same whatever its size.
        public var watchBatchPerWatcher: Double = 0.000_25
        /// JOINs with a wrong code one network (an IPv4 address, an IPv6
        /// /64) may send per minute on average, with bursts of
        /// `failedJoinBurst` (0: no limit); past it `ERR too-many-joins`.
        public var failedJoinsPerMinute: Double = 10
        public var failedJoinBurst: Double = 10
        /// Every game ends (issue #24, Lobby+Lifecycle.swift): seconds a game
        /// without a clock stays in memory once no person is at it (it is
        /// reloaded from the store on RESUME).
        public var unloadAfter: Double = 60
        /// Seconds a game may stay untouched (no move, no RESUME) before it is
        /// aborted with no score (0: never).
        public var abandonAfter: Int = 7 * 86_400
        /// Seconds a person has for their first move of a game without a
        /// clock before the game is aborted with no score (0: no limit).
        public var firstMoveTimeout: Double = 60
        /// Seconds a person who is present may take over a move in a game
        /// without a clock before their opponent may CLAIM it (0: no limit).
        public var moveTimeout: Double = 300
        /// Games in progress (adjourned ones included) one name may have, and
        /// one network (an IPv4 address, an IPv6 /64); past it NEW, SEEK,
        /// JOIN and REMATCH get `ERR too-many-games` (0: no limit).
        public var maxGamesPerName = 10
        public var maxGamesPerNetwork = 100
        public init() {}
    }

    struct Session {
        var name: String?
        var lang: String
        /// The peer's address, for the per-address limit on new names ("" in tests).
        var address = ""
        /// LANG was sent before NAME: that choice becomes the name's preference.
        var langChosen = false
        var state: State = .idle
        /// The last finished game, for REMATCH.
        var last: LastGame?
        /// While seeking: the other seek queues as this seeker was last told
        /// them (WAITING), by queue; a queue it was not told of had no one.
        var waitingTold: [String: WaitingQueue] = [:]
        /// The game this connection watches (never while it plays, seeks or hosts).
        var watching: Int?
    }

    /// A seek queue as WAITING describes it: its kind, language and rounds,
    /// and how many wait in it.
    struct WaitingQueue: Equatable {
        var game: String
        var lang: String
        var rounds: Rounds
        var count: Int
        /// The queue's seconds per move, nil for no clock.
        var clock: Int?
        /// Ghost's variant (`super`), nil for Ghost itself.
        var variant: String? = nil
    }

    enum State: Equatable {
        case idle
        case seeking(GameOptions)
        /// `setup`: another kind's game as set up at NEW (with the host's saved settings).
        case hosting(code: String, options: GameOptions, setup: GameSetup?)
        case playing(game: Int, seat: Int)
    }

    struct LastGame: Equatable {
        let game: Int
        let lang: String
        let seat: Int
        let opponent: ConnectionID
        let match: Bool
        /// The game's kind and how it was set up: a rematch is the same game again.
        var kind: String
        var setup: GameSetup
        /// Seconds per move, nil without a clock: a rematch keeps it.
        var clock: Int? = nil
        /// Whether others could watch it (`watch=no`): a rematch keeps it.
        var watch = true
        var asked = false
    }

    /// A pending offer to restart the round (perhaps in another language).
    struct Offer: Equatable {
        var seat: Int
        var kind: OfferKind
        var lang: String?

        init(seat: Int, kind: OfferKind, lang: String?) {
            self.seat = seat
            self.kind = kind
            self.lang = lang
        }

        /// From the store; an offer of a kind this version does not know is dropped.
        init?(_ stored: StoredGame.Offer?) {
            guard let stored, let kind = OfferKind(rawValue: stored.kind) else { return nil }
            self.init(seat: stored.seat, kind: kind, lang: stored.lang)
        }

        var stored: StoredGame.Offer { StoredGame.Offer(seat: seat, kind: kind.rawValue, lang: lang) }
    }

    /// A game in progress, of any kind. A class: the hot path mutates it in
    /// place instead of copying it in and out of `tables`.
    final class Table {
        let id: Int
        let kind: any GameDefinition
        var lang: String
        /// The game as first stored: kind, variant, settings, seed, names, tokens.
        let record: NewGame
        /// The connection in each seat, nil while that player is away (or for the computer).
        var seats: [ConnectionID?] { didSet { deadlines.touch(self) } }
        /// Who sits in each seat: a person, or the computer at a level.
        let occupants: [Seat]
        /// Rounds, the score over them, and the seat that starts the round in play.
        var match: Match
        /// The round in play.
        var game: any Game { didSet { deadlines.touch(self) } }
        /// When the computer plays its next move (monotonic), if it is to move.
        var botDue: Double? { didSet { deadlines.touch(self) } }
        var offer: Offer?
        var offerSpent: [Bool]
        /// When each seat went away (monotonic), and when the current turn began.
        var awaySince: [Double?] { didSet { deadlines.touch(self) } }
        var turnSince: Double { didSet { deadlines.touch(self) } }
        /// CLAIMABLE was announced for the current absence.
        var claimAnnounced = false { didSet { deadlines.touch(self) } }
        /// After a time loss could not be stored: not before this (monotonic)
        /// is it tried again.
        var timeRetry: Double? { didSet { deadlines.touch(self) } }
        /// What the clock fields above feed: every change to them touches it.
        unowned let deadlines: Deadlines
        /// Touched since the deadlines last looked (see `Deadlines.touch`).
        var deadlineTouched = false
        /// Between two people: each seat's wins against the other in earlier
        /// games of this kind (read from the store when first needed; nil
        /// against the computer, or if it could not be read).
        var rivalry: [Int]?
        var rivalryRead = false
        /// Per seat: whether that person has made a move in this game (a
        /// game whose first move does not come is aborted: Lobby+Lifecycle.swift).
        var moved = [false, false] { didSet { deadlines.touch(self) } }

        init(id: Int, kind: any GameDefinition, lang: String, record: NewGame, seats: [ConnectionID?], occupants: [Seat],
             match: Match, game: any Game, offer: Offer?, offerSpent: [Bool], awaySince: [Double?],
             turnSince: Double, deadlines: Deadlines) {
            self.id = id
            self.kind = kind
            self.lang = lang
            self.record = record
            self.seats = seats
            self.occupants = occupants
            self.match = match
            self.game = game
            self.offer = offer
            self.offerSpent = offerSpent
            self.awaySince = awaySince
            self.turnSince = turnSince
            self.deadlines = deadlines
            deadlines.touch(self)
        }

        var names: [String] { record.players }
        var tokens: [String] { record.tokens }
        /// Seconds per move, nil for a game without a clock.
        var clock: Int? { record.clock > 0 ? record.clock : nil }
        /// Whether others may watch it (false: `NEW watch=no`).
        var open: Bool { record.watch }

        func seat(of conn: ConnectionID) -> Int? { seats.firstIndex(of: conn) }

        /// The computer's level in a seat, nil for a person.
        func bot(_ seat: Int) -> BotLevel? { occupants.indices.contains(seat) ? occupants[seat].level : nil }

        /// The computer's level, if one seat is the computer.
        var computerLevel: BotLevel? { occupants.lazy.compactMap(\.level).first }

        /// The computer's level when its name says it (`bot-hard`), for GAME's
        /// `bot=`; nil for a computer a kind names itself (`bot-hangman`).
        var namedLevel: BotLevel? {
            guard let level = computerLevel, names.contains(Lobby.botPrefix + level.rawValue) else { return nil }
            return level
        }

        /// A person whose connection is gone.
        func isAway(_ seat: Int) -> Bool { bot(seat) == nil && seats[seat] == nil }

        /// The high-score board this game counts on.
        var board: Board { Board(kind: kind.name, computer: computerLevel, match: match.isMatch) }
    }

    let dictionaries: Dictionaries
    let catalog: GameCatalog
    /// Kinds besides the catalog's, by name (tests of the kind-generic
    /// lobby); the catalog's kind wins a clash of names.
    let extraKinds: [String: any GameDefinition]
    let store: Store
    let settings: Settings
    let clock: LobbyClock
    private let defaultLanguage: String
    unowned let outbox: Outbox
    let log: (String) -> Void

    var sessions: [ConnectionID: Session] = [:]
    var namesInUse: [String: ConnectionID] = [:]  // lowercased name → holder
    /// The loop's figures for STATS (uptime, connections, commits, memory); set by the server.
    public var serverFigures: (() -> [(String, String)])?
    /// Counted since the start, for STATS.
    struct Figures {
        var moves = 0
        var gamesFinished = 0
    }
    var figures = Figures()
    /// When the sweep for untouched games next runs (monotonic; Lobby+Lifecycle.swift).
    var nextUntouchedSweep = -Double.infinity
    /// New names per address (`Settings.newNamesPerMinute`).
    lazy var newNames = TokenBuckets(perSecond: settings.newNamesPerMinute / 60, burst: settings.newNameBurst)
    /// Failed JOINs per network (`Settings.failedJoinsPerMinute`).
    lazy var failedJoins = TokenBuckets(perSecond: settings.failedJoinsPerMinute / 60, burst: settings.failedJoinBurst)
    /// Kind, language and game type (`seekKey`) → who waits, first come first.
    /// Every change sets `seekQueuesChanged`: the seekers waiting in the
    /// other queues are told (`tellSeekers`).
    private var seekers: [String: SeekQueue] = [:]
    /// The seek queues changed since the waiting seekers were last told.
    var seekQueuesChanged = false
    /// When they were last told (monotonic seconds).
    var seekersToldAt = -Double.infinity

    /// One seek queue. Pairing takes from the front, so it keeps a head
    /// index instead of shifting the array every time (with a thousand
    /// seekers, `removeFirst` and copying the queue out of the dictionary to
    /// change it were 8% of the daemon's CPU under the load benchmark).
    struct SeekQueue {
        let game: String
        let lang: String
        let rounds: Rounds
        /// Seconds per move, nil for no clock.
        let clock: Int?
        /// Ghost's variant (`super`), nil for Ghost itself.
        let variant: String?
        private var ids: [ConnectionID] = []
        private var head = 0

        init(game: String, lang: String, rounds: Rounds, clock: Int?, variant: String? = nil) {
            self.game = game
            self.lang = lang
            self.rounds = rounds
            self.clock = clock
            self.variant = variant
        }

        var count: Int { ids.count - head }
        var first: ConnectionID? { head < ids.count ? ids[head] : nil }
        /// Who waits, first come first.
        var members: ArraySlice<ConnectionID> { ids[head...] }
        mutating func append(_ id: ConnectionID) { ids.append(id) }
        mutating func removeFirst() {
            guard head < ids.count else { return }
            head += 1
            if head == ids.count {
                ids.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= ids.count {
                ids.removeFirst(head)
                head = 0
            }
        }
        mutating func remove(_ id: ConnectionID) {
            if let i = ids[head...].firstIndex(of: id) { ids.remove(at: i) }
        }
    }
    private var hosted: [String: ConnectionID] = [:]      // join code → host
    /// Change only through `addTable` and `removeTable` (Lobby+Watching.swift),
    /// which keep `openGames` in step.
    var tables: [Int: Table] = [:]
    /// The ids of the tables anyone may watch, in order (GAMES).
    var openGames = OpenGames()
    var tokenIndex: [String: (game: Int, seat: Int)] = [:]  // resume token → seat
    /// When each game next needs the clock: the computer to play, or a grace period to end.
    let deadlines = Deadlines()
    /// Who watches each game, by game id (Lobby+Watching.swift); kept apart
    /// from the tables, which a failed write replaces.
    var watchGroups: [Int: WatchGroup] = [:]
    /// Games whose watchers have lines waiting or whose number changed untold.
    var watchDue: Set<Int> = []
    /// Games whose watching ended with the game: their groups go at the commit.
    var watchClosed: [Int] = []
    /// Each group's pending lines and closing state before the command in
    /// progress first touched it, for a command that is undone.
    var watchMarks: [Int: (pending: Int, closing: Bool)] = [:]

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
    public var activeGames: Int { tables.count }
    /// Connected clients.
    public var connectionCount: Int { sessions.count }

    /// Whether the connection has said who it is (NAME or RESUME).
    public func isIdentified(_ id: ConnectionID) -> Bool { sessions[id]?.name != nil }

    // MARK: Connection events

    public func connected(_ id: ConnectionID, address: String = "") {
        sessions[id] = Session(lang: defaultLanguage, address: address)
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
        if let name = session.name, namesInUse[name.lowercased()] == id { namesInUse[name.lowercased()] = nil }
        forgetLastGame(id)
        sessions[id] = nil
    }

    /// The connection can no longer rematch its last game (it left, started
    /// something else or changed its name). A pending rematch request between
    /// the two lapses: the opponent, if it is still waiting on it, is told.
    func forgetLastGame(_ id: ConnectionID) {
        guard let last = sessions[id]?.last else { return }
        sessions[id]?.last = nil
        guard let theirs = sessions[last.opponent]?.last, theirs.game == last.game, last.asked || theirs.asked else { return }
        let asker = last.asked ? sessions[id]?.name : sessions[last.opponent]?.name
        outbox.send(.cancelled(id: last.game, player: asker ?? "?", kind: .rematch), to: last.opponent)
        sessions[last.opponent]?.last = nil
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

    /// One command; `handle` (Lobby+Recovery.swift) runs it as a unit that a
    /// failed write undoes.
    func perform(_ command: Command, from id: ConnectionID) {
        guard let session = sessions[id], storeError == nil else { return }
        if let watched = session.watching, Lobby.isPlay(command) {
            return reply(id, .error(.notInGame, "you are watching game \(watched): watchers cannot play; UNWATCH to stop watching"))
        }
        switch command {
        case .ping: reply(id, .ok(.ping))
        case .help:
            for spec in CommandTable.specs { reply(id, .helpEntry(usage: spec.synopsis, text: spec.help)) }
            reply(id, .ok(.help))
        case .quit:
            // Leaving the connection adjourns a game; LEAVE is how to resign.
            reply(id, .ok(.quit))
            outbox.close(id, .quit, "goodbye")
        case .name(let name): setName(name, id, session)
        case let .names(prefix, limit):
            // Bounded: a reply never grows with the number of names stored.
            guard let found = persist({ try store.recentNames(prefix: prefix, limit: min(limit, CommandParser.maxNames)) })
            else { return failed(id) }
            for n in found.names { reply(id, .nameEntry(n)) }
            reply(id, .ok(.names(count: found.names.count, more: found.more)))
        case .lang(let code): setLanguage(code, id, session)
        case .set(let key, let value): setSetting(key, value, id, session)
        case .settings: listSettings(id, session)
        case .stats: stats(id)
        case .seek(let options): seek(options, id, session)
        case .new(let options):
            if options.bot != nil { playComputer(options, id, session) } else { newOfKind(options, id, session) }
        case .hint: hint(id, session)
        case .join(let code): join(code, id, session)
        case .letter(let letter): play(.letter(letter), from: id, session)
        case .front(let letter): play(.front(letter), from: id, session)
        case .solve(let answer): play(.word(answer), from: id, session, verb: .solve)
        case .word(let word): play(.word(word), from: id, session, verb: .word)
        case .challenge: play(.challenge, from: id, session, verb: .challenge)
        case .concede: play(.concede, from: id, session, verb: .concede)
        case .leave: leave(id, session)
        case .resume(let token): resume(token, id, session)
        case .claim: claim(id, session)
        case .scores(let n, let board):
            guard let rows = persist({ try store.scores(board: board.name, limit: n) }) else { return failed(id) }
            for r in rows { reply(id, .score(rank: r.rank, name: r.name, wins: r.wins, played: r.played)) }
            reply(id, .ok(.scores(count: rows.count, board: board)))
        case .bestGames(let n, let game, let mode): bestGames(n, game: game, mode: mode, id)
        case .restart: offerOrApply(kind: .restart, lang: nil, id, session)
        case .accept: answerOffer(accept: true, id, session)
        case .decline: answerOffer(accept: false, id, session)
        case .rematch: rematch(id, session)
        case .games(let limit): listGames(limit, id)
        case .watch(let gameID): watch(gameID, id, session)
        case .unwatch: unwatch(id, session)
        }
    }

    // MARK: STATS

    /// Every figure, one `STAT` line each (Protocol.md §3 lists them).
    private func stats(_ id: ConnectionID) {
        var lines: [(String, String)] = [("version", Lobby.version), ("protocol", String(Lobby.protocolVersion))]
        lines += serverFigures?() ?? []
        lines.append(("games_in_progress", String(tables.count)))
        for kind in kindNames {
            lines.append(("games_in_progress_" + kind, String(tables.values.count { $0.kind.name == kind })))
        }
        lines += [("games_finished", String(figures.gamesFinished)), ("moves", String(figures.moves)),
                  ("names_connected", String(namesInUse.count)), ("watchers", String(watcherTotal))]
        for (name, value) in lines { reply(id, .stat(name: name, value: value)) }
        reply(id, .ok(.stats(count: lines.count)))
    }

    // MARK: Names and languages

    private func setName(_ name: String, _ id: ConnectionID, _ session: Session) {
        let key = name.lowercased()
        // A bad name is refused before the state is looked at (Protocol.md §6).
        if key.hasPrefix(Lobby.botPrefix) {
            return reply(id, .error(.badName, "names starting with \(Lobby.botPrefix) are kept for the computer"))
        }
        guard session.state == .idle else {
            return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
        }
        if let holder = namesInUse[key], holder != id {
            return reply(id, .error(.nameTaken, "another player is using that name"))
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
        if let old = session.name, namesInUse[old.lowercased()] == id { namesInUse[old.lowercased()] = nil }
        namesInUse[key] = id
        forgetLastGame(id)
        sessions[id]?.name = name
        if dictionaries[stored.1] != nil { sessions[id]?.lang = stored.1 }
        reply(id, .ok(.name(name: name, lang: sessions[id]?.lang ?? defaultLanguage)))
    }

    /// LANG, and `SET lang` (`asSetting`): in a game, LANG offers to switch
    /// the game's language, while `SET lang` only saves it for the next games.
    private func setLanguage(_ code: String, _ id: ConnectionID, _ session: Session, asSetting: Bool = false) {
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
        sessions[id]?.lang = code
        sessions[id]?.langChosen = true
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
    private func setSetting(_ key: String, _ value: String, _ id: ConnectionID, _ session: Session) {
        if key == Preference.language.rawValue { return setLanguage(value, id, session, asSetting: true) }
        guard let spec = settingSpecs.first(where: { $0.key == key }) else {
            let keys = settingSpecs.map(\.key) + [Preference.language.rawValue]
            return reply(id, .error(.badArguments, "no setting \(key); settings: \(keys.joined(separator: ","))"))
        }
        let checked: String
        switch spec.validate(value, session.lang) {
        case .success(let v): checked = v
        case .failure(let e): return reply(id, .error(ErrorCode(rawValue: e.code), e.message))
        }
        guard let name = session.name else {
            return reply(id, .error(.noName, "send NAME <name> first: settings are saved per name"))
        }
        guard persist({ try store.setPreference(key, checked, for: name, now: clock.wall) }) != nil else { return failed(id) }
        reply(id, .ok(.set(key: key, value: checked)))
    }

    /// SETTINGS: each kind's settings with the name's values (the defaults
    /// before NAME), then `lang`.
    private func listSettings(_ id: ConnectionID, _ session: Session) {
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

    // MARK: Finding an opponent

    private func seek(_ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard clockAllowed(options, id, seeking: true), ready(id, session) else { return }
        // Another kind's options are checked now, not when a partner comes,
        // and must make a game between two people.
        var options = options
        if options.game != nil || options.variant != nil {
            guard let (kind, setup) = setUp(options, lang: session.lang, id, people: 2) else { return }
            guard setup.computerSeat == nil else {
                return reply(id, .error(.badArguments, "that is a game against the computer: use NEW"))
            }
            options.settings.merge(kind.twoPlayerOptions) { given, _ in given }
        }
        let key = seekKey(session.lang, options)
        let ok = ServerLine.ok(.seek(lang: session.lang, rounds: options.rounds, clock: options.clock))
        if let other = seekers[key]?.first {
            reply(id, ok)
            // The game the first seeker asked for, as JOIN takes the host's:
            // the queue is per kind, language and rounds, the rest is theirs.
            var agreed = options
            if case .seeking(let first)? = sessions[other]?.state { agreed = first }
            guard startGame(lang: session.lang, people: [other, id], options: agreed) else { return failed(id) }
            seekers[key]?.removeFirst()
            seekQueuesChanged = true
        } else {
            seekers[key, default: SeekQueue(game: options.game?.rawValue ?? catalog.defaultKind.name, lang: session.lang,
                                            rounds: options.rounds, clock: options.clock, variant: options.variant)].append(id)
            seekQueuesChanged = true
            sessions[id]?.state = .seeking(options)
            reply(id, ok)
            reply(id, .info("Waiting for another player who seeks \(options.match ? "a match" : "a game") in \(session.lang)."))
            // Who else waits, in queues this seek will not meet (another language, kind or game type).
            var others = waitingQueues()
            others[key] = nil
            for k in others.keys.sorted() {
                if let w = others[k] { reply(id, .waiting(game: w.game, lang: w.lang, rounds: w.rounds, count: w.count, clock: w.clock, variant: w.variant)) }
            }
            sessions[id]?.waitingTold = others
        }
    }

    /// Every seek queue with players in it, by key (a few at most: kinds × languages × game types × clocks).
    func waitingQueues() -> [String: WaitingQueue] {
        var queues: [String: WaitingQueue] = [:]
        for (key, q) in seekers where q.count > 0 {
            queues[key] = WaitingQueue(game: q.game, lang: q.lang, rounds: q.rounds, count: q.count, clock: q.clock, variant: q.variant)
        }
        return queues
    }

    /// When the waiting seekers are next told how the other queues changed,
    /// if they changed and someone waits: `waitingInterval` after they were
    /// last told (a time past means at once).
    var seekersDue: Double? {
        guard seekQueuesChanged else { return nil }
        guard seekers.values.contains(where: { $0.count > 0 }) else {
            seekQueuesChanged = false   // nobody waits: nobody to tell
            return nil
        }
        return seekersToldAt + settings.waitingInterval
    }

    /// Tells each seeker who waits what changed in the other queues since it
    /// was last told: a WAITING line per queue whose count changed, with
    /// `count=0` for a queue that emptied. Runs from `tick`, at most once per
    /// `waitingInterval`, so a burst of seeks costs each seeker a few lines.
    func tellSeekers() {
        seekQueuesChanged = false
        seekersToldAt = clock.monotonic
        let queues = waitingQueues()
        for (key, queue) in seekers {
            var others = queues
            others[key] = nil
            for id in queue.members {
                guard let told = sessions[id]?.waitingTold, others != told else { continue }
                for k in Set(others.keys).union(told.keys).sorted() where others[k]?.count != told[k]?.count {
                    guard var w = others[k] ?? told[k] else { continue }
                    if others[k] == nil { w.count = 0 }
                    reply(id, .waiting(game: w.game, lang: w.lang, rounds: w.rounds, count: w.count, clock: w.clock, variant: w.variant))
                }
                sessions[id]?.waitingTold = others
            }
        }
    }

    /// NEW bot=<level>: a game against the computer starts at once.
    private func playComputer(_ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard clockAllowed(options, id), ready(id, session), let level = options.bot,
              ghostVariantHolds(options, session.lang, id) else { return }
        reply(id, .ok(.new(code: nil, bot: level, lang: session.lang, rounds: options.rounds, clock: options.clock)))
        guard startGame(lang: session.lang, people: [id], options: options) else { return failed(id) }
    }

    /// NEW without bot=: a private game, or, for a kind that seats the
    /// computer by itself (Hangman against the computer), a game at once.
    private func newOfKind(_ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard clockAllowed(options, id) else { return }
        guard options.game != nil else {
            // Ghost's own reply, whatever its variant: GAME says which.
            guard ready(id, session), ghostVariantHolds(options, session.lang, id) else { return }
            return host(options, id, session, checked: true)
        }
        guard ready(id, session), let (kind, setup) = setUp(options, lang: session.lang, id, savedBy: session.name) else { return }
        guard setup.computerSeat != nil else { return host(options, id, session, kind: kind, setup: setup) }
        guard startGame(lang: session.lang, people: [id], options: options, kind: kind, setup: setup, ack: { game in
            // OK NEW game=<kind> <first setup field> lang=<code> <the rest>
            let fields = game.setupFields
            self.reply(id, .ok(.other(verb: "NEW", fields: [Field("game", kind.name)] + fields.prefix(1)
                                          + [Field("lang", session.lang)] + fields.dropFirst() + Self.clockField(options))))
        }) else { return failed(id) }
    }

    /// `clock=<seconds>`, last on another kind's OK NEW, for a game on a clock.
    static func clockField(_ options: GameOptions) -> [Field] {
        options.clock.map { [Field("clock", String($0))] } ?? []
    }

    /// The kind a command names and its checked setup, with the options it
    /// leaves out filled from the saved settings of `name` (NEW); nil after an ERR.
    /// `people`: a game between two people takes the kind's two-player options
    /// (a Hangman duel) unless the command says otherwise.
    func setUp(_ options: GameOptions, lang: String, _ id: ConnectionID, savedBy name: String? = nil,
               people: Int = 1) -> (any GameDefinition, GameSetup)? {
        guard let kind = options.game.map({ kind(named: $0.rawValue) }) ?? catalog.defaultKind else {
            reply(id, .error(.badArguments, "no game \(options.game?.rawValue ?? ""); games here: \(kindNames.joined(separator: ","))"))
            return nil
        }
        guard !options.match || kind.matchRounds != nil else {
            reply(id, .error(.badArguments, "rounds=ghost plays a match; \(kind.name) plays single games"))
            return nil
        }
        var saved: [String: String] = [:]
        if let name {
            guard let prefs = persist({ try savedOptions(of: name, for: kind) }) else {
                failed(id)
                return nil
            }
            saved = prefs
        }
        let settings = people == 2 ? options.settings.merging(kind.twoPlayerOptions) { given, _ in given } : options.settings
        switch kind.setup(options: settings, saved: saved, language: lang, seed: UInt64.random(in: 0...UInt64.max)) {
        case .success(let setup): return (kind, setup)
        case .failure(let e):
            reply(id, .error(ErrorCode(rawValue: e.code), e.message))
            return nil
        }
    }

    /// Whether a Ghost game's `variant=` (if any) is one the default kind
    /// takes; otherwise replies with its error. The game's setup is made again
    /// when it starts, from the same options.
    private func ghostVariantHolds(_ options: GameOptions, _ lang: String, _ id: ConnectionID) -> Bool {
        options.variant == nil || setUp(options, lang: lang, id) != nil
    }

    private func host(_ options: GameOptions, _ id: ConnectionID, _ session: Session,
                      kind: (any GameDefinition)? = nil, setup: GameSetup? = nil, checked: Bool = false) {
        guard kind != nil || checked || ready(id, session) else { return }
        let code = newJoinCode()
        hosted[code] = id
        sessions[id]?.state = .hosting(code: code, options: options, setup: setup)
        if let kind, let setup,
           let game = kind.newGame(language: session.lang, variant: setup.variant, settings: setup.settings, seed: 0, starter: 0) {
            // OK NEW code=<code> game=<kind> <first setup field> lang=<code> <the rest>
            let fields = game.setupFields
            reply(id, .ok(.other(verb: "NEW", fields: [Field("code", code), Field("game", kind.name)] + fields.prefix(1)
                                     + [Field("lang", session.lang)] + fields.dropFirst() + Self.clockField(options))))
        } else {
            reply(id, .ok(.new(code: code, bot: nil, lang: session.lang, rounds: options.rounds, clock: options.clock)))
        }
        reply(id, .info("Give the code \(code) to your opponent: they send JOIN \(code)."))
    }

    private func join(_ typed: String, _ id: ConnectionID, _ session: Session) {
        let code = JoinCodes.normalized(typed)
        if hosted[code] == id {
            return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
        }
        guard ready(id, session) else { return }
        // Past its allowance of wrong codes, a network is refused whatever
        // the code: guessing costs time (JoinCodes).
        let network = NetworkKey.of(session.address), now = clock.monotonic
        if let wait = failedJoins.wait(network, at: now) {
            return reply(id, .error(.tooManyJoins, "too many JOINs with a wrong code from your address; try again in \(Int(wait.rounded(.up))) s"))
        }
        guard let host = hosted[code], let hostSession = sessions[host] else {
            _ = failedJoins.take(network, at: now)
            return reply(id, .error(.noSuchGame, "no open private game has that code"))
        }
        guard host != id else {
            return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
        }
        var options = GameOptions.single
        var setup: GameSetup?
        if case .hosting(_, let o, let s) = hostSession.state {
            options = o
            setup = s
        }
        reply(id, .ok(.join(code: code, lang: hostSession.lang, rounds: options.rounds, clock: options.clock)))
        guard startGame(lang: hostSession.lang, people: [host, id], options: options, setup: setup) else { return failed(id) }
        hosted[code] = nil
    }

    private func rematch(_ id: ConnectionID, _ session: Session) {
        guard session.state == .idle, let last = session.last,
              let other = sessions[last.opponent], other.last?.game == last.game, other.state == .idle else {
            return reply(id, .error(.noRematch, "no finished game against an opponent who is still here and free"))
        }
        guard underGameCaps(id, session) else { return }
        guard other.last?.asked == true else {
            // Asking again changes nothing and does not tell the opponent twice.
            if last.asked { return reply(id, .ok(.rematch(status: .asked))) }
            sessions[id]?.last?.asked = true
            reply(id, .ok(.rematch(status: .asked)))
            outbox.send(.rematch(id: last.game, player: session.name ?? "?"), to: last.opponent)
            outbox.send(.info("\(session.name ?? "?") wants a rematch: send REMATCH to play again."), to: last.opponent)
            return
        }
        reply(id, .ok(.rematch(status: .started)))
        // The other player starts this time.
        let seats = last.seat == 0 ? [last.opponent, id] : [id, last.opponent]
        let kind = kind(named: last.kind) ?? catalog.defaultKind
        var options = GameOptions(match: last.match, game: kind.name == catalog.defaultKind.name ? nil : GameKind(rawValue: kind.name),
                                  clock: last.clock)
        options.watch = last.watch
        guard startGame(lang: last.lang, people: seats, options: options, kind: kind, setup: last.setup) else { return failed(id) }
    }

    /// Seekers wait in one queue per kind, language, number of rounds and
    /// clock: only seekers on the same clock are paired; and variant
    /// (Superghost never meets Ghost).
    func seekKey(_ lang: String, _ options: GameOptions) -> String {
        (options.game?.rawValue ?? catalog.defaultKind.name) + " " + lang + " " + options.rounds.rawValue
            + (options.clock.map { " clock=\($0)" } ?? "") + (options.variant.map { " " + $0 } ?? "")
    }

    /// Whether a command's `clock=` (if any) is in `Settings.clockRange`,
    /// and for SEEK one of `Settings.seekClocks`; otherwise replies `ERR bad-value`.
    private func clockAllowed(_ options: GameOptions, _ id: ConnectionID, seeking: Bool = false) -> Bool {
        guard let clock = options.clock else { return true }
        let range = settings.clockRange
        guard range.contains(clock) else {
            reply(id, .error(.badValue, "clock= is the seconds per move, \(range.lowerBound) to \(range.upperBound)"))
            return false
        }
        guard !seeking || settings.seekClocks.contains(clock) else {
            let clocks = settings.seekClocks.map(String.init).joined(separator: ",")
            reply(id, .error(.badValue, "SEEK takes clock=\(clocks); NEW takes any clock from \(range.lowerBound) to \(range.upperBound)"))
            return false
        }
        return true
    }

    /// Whether the session may start or join a game; otherwise replies with an error.
    private func ready(_ id: ConnectionID, _ session: Session) -> Bool {
        guard session.name != nil else {
            reply(id, .error(.noName, "send NAME <name> first"))
            return false
        }
        switch session.state {
        case .idle:
            // The caps on games in progress (Lobby+Lifecycle.swift).
            guard underGameCaps(id, session) else { return false }
            // Starting something else lets a pending rematch request lapse,
            // and ends watching.
            forgetLastGame(id)
            stopWatching(id)
            return true
        case .seeking: reply(id, .error(.busy, "you are already seeking a game; LEAVE to stop"))
        case .hosting(let code, _, _): reply(id, .error(.busy, "you are hosting the private game \(code); LEAVE to close it"))
        case .playing: reply(id, .error(.busy, "you are in a game"))
        }
        return false
    }

    /// 40 random bits (JoinCodes), not the code of another open game.
    private func newJoinCode() -> String {
        while true {
            let code = JoinCodes.random()
            if hosted[code] == nil { return code }
        }
    }

    /// Stops a seek or closes a hosted private game.
    func stopWaiting(_ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .seeking(let options):
            seekers[seekKey(session.lang, options)]?.remove(id)
            seekQueuesChanged = true
        case .hosting(let code, _, _): hosted[code] = nil
        case .idle, .playing: return
        }
        sessions[id]?.state = .idle
    }

    private func leave(_ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .idle:
            reply(id, .error(.notInGame, "you are not in a game, a seek or a private game"))
        case .seeking, .hosting:
            stopWaiting(id, session)
            reply(id, .ok(.leave))
        case .playing(let gameID, let seat):
            guard let table = tables[gameID] else { return }
            // Before any move it is no game yet: aborted, not lost (Lobby+Lifecycle.swift).
            if !table.moved.contains(true) {
                guard abort(gameID, reason: .left, ack: (id, .ok(.leave))) else { return failed(id) }
                return
            }
            guard finish(gameID, loser: seat, reason: .left, ack: (id, .ok(.leave))) else { return failed(id) }
        }
    }

    // MARK: High scores

    /// SCORES game=<kind> [mode=<mode>]: the best games of a kind's list, from the store.
    private func bestGames(_ n: Int, game: GameKind, mode: String?, _ id: ConnectionID) {
        guard let kind = kind(named: game.rawValue), let board = kind.bestGamesBoard(mode: mode) else {
            return reply(id, .error(.badArguments, "no such high-score list: game=\(game.rawValue)" + (mode.map { " mode=\($0)" } ?? "")))
        }
        guard let rows = persist({ try store.bestGames(board: board, limit: n) }) else { return failed(id) }
        for r in rows { reply(id, .bestScore(rank: r.rank, name: r.name, fields: Lobby.fields(stored: r.fields))) }
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
