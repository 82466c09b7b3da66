import CGhostSys
import Glibc
import GhostCore
import GhostProtocol
import GhostStore

/// The daemon's server: its settings, the lobby, the store, the open
/// connections and the state of its event loop (EventLoop.swift: read what
/// is ready, let the lobby act on every complete line, commit, then flush
/// every reply once per turn; EventLoop+Input.swift, +TLS, +Passwords, and
/// the I/O threads of IOThreads.swift).
///
/// The lobby is built first, with the connection table as its outbox; the
/// loop owns both, so nothing points back at the loop.
public final class Server {
    public let config: ServerConfig
    let log: (String) -> Void
    let lobby: Lobby
    let store: Store
    /// The open connections; also the lobby's outbox.
    let table: ConnectionTable
    var epfd: Int32 = -1
    var listenFD: Int32 = -1
    var signalFD: Int32 = -1
    var flushing: [Connection] = []
    var nextID: ConnectionID = 3   // 0 = listener, 1 = signals, 2 = syncer
    /// The WAL syncer (pipelined group commit), with `--durability full`.
    var syncer: OpaquePointer?
    /// The password hashing threads (EventLoop+Passwords.swift), and the
    /// connections whose lines wait for one of their answers.
    var hashPool: HashPool?
    /// The I/O threads (`--io-threads` above 1; Net/IOThreads.swift), and
    /// the plain connections whose reading, or writing, they do this turn.
    var ioThreads: IOThreads?
    var readQueue: [Connection] = []
    /// This turn's readable plain connections go to `readQueue`.
    var queueReads = false
    var writeQueue: [Connection] = []
    /// This turn's readable connections, and those whose framed lines wait
    /// for the next turn, its slice spent (EventLoop+Fairness.swift).
    var ready: [Connection] = []
    var deferred: [Connection] = []
    /// Loop turns, counted; and when this one began (monotonic).
    var turnNumber = 0
    var turnStart = 0.0
    /// Lines served this turn.
    var servedThisTurn = 0
    var waitingForPassword: [ConnectionID: Connection] = [:]
    /// Commits that wrote, and the replies that wait for their sync (CommitGenerations.swift).
    var generations = CommitGenerations()
    /// Set when the loop must stop, and why.
    var stop: Stop?
    var readBuffer: [UInt8]
    /// Who may connect: the counts by network and the limits (Admission.swift).
    let admission: Admission
    /// Every connection's and network's command budget.
    var budgets: Budgets
    /// Times each line the lobby serves.
    let meter: LineMeter
    /// Connections whose input waits for a budget, and the earliest time one may go on.
    var held: [ConnectionID: Connection] = [:]
    var nextWake: Double?
    /// Time of this loop turn (monotonic), read once per turn.
    var now: Double = 0 {
        didSet { table.now = now }
    }
    var nextSweep: Double = 0
    /// Set while accept() rests after running out of descriptors.
    var acceptPausedUntil: Double?
    /// Sockets closed after their BYE, read and discarded for a moment (Lingering.swift).
    var lingering = Lingering()

    /// The port actually bound (useful with port 0).
    public private(set) var boundPort = 0

    // TLS (Net/TLS.swift, EventLoop+TLS.swift): the second listener, the
    // certificate new handshakes use (SIGHUP replaces it), and the sessions
    // whose decrypted input OpenSSL holds, which epoll cannot report.
    var tlsListenFD: Int32 = -1
    var tlsContext: TLSContext?
    public internal(set) var boundTLSPort: Int?
    var tlsBuffered: [ConnectionID: Connection] = [:]
    /// The handshake threads (Net/TLSHandshakes.swift); the connections a
    /// step of whose handshake is on them (closed ones too, until it comes
    /// back), and those whose next step waits for a place, first come first
    /// served (HandshakeLine.swift).
    var tlsHandshakes: TLSHandshakes?
    var handshakeLine = HandshakeLine(capacity: TLSHandshakes.capacity)

    public enum StartError: Error, CustomStringConvertible {
        case system(String)
        public var description: String {
            switch self { case .system(let s): return s }
        }
    }

    /// Why `run()` returned. The daemon's main turns it into an exit status;
    /// library code never exits the process.
    public enum Stop: Equatable, CustomStringConvertible {
        /// SIGINT or SIGTERM: a clean stop (SIGHUP reloads the TLS certificate).
        case signal(Int32)
        /// The loop itself failed (epoll_wait).
        case failure(String)
        /// The database could not be written; unconfirmed replies were not sent.
        case storeFailure(String)

        public var description: String {
            switch self {
            case .signal(let n): return "signal \(n)"
            case .failure(let s): return s
            case .storeFailure(let s): return "store failure: \(s)"
            }
        }
    }

    /// Log lines of this turn; written to stderr once per turn, with the replies.
    let logBuffer: LogBuffer
    /// Figures for STATS.
    var stats = ServerStats(startedAt: monotonicSeconds())

    /// `clock` times the lines served, for their cost (tests give their own).
    /// `kinds`: game kinds to play besides the catalog's (a test daemon's); none for ghostd.
    public init(config: ServerConfig, dictionaries: Dictionaries, store: Store,
                clock: (() -> Double)? = nil, kinds: [any GameDefinition] = []) throws {
        self.config = config
        self.meter = LineMeter(clock: clock)
        self.budgets = Budgets(connection: BudgetRule(perSecond: config.commandsPerSecond, burst: config.commandBurst),
                               network: BudgetRule(perSecond: config.networkCommandsPerSecond, burst: config.networkCommandBurst),
                               unitSeconds: config.costUnitSeconds)
        self.admission = Admission(maxClients: config.maxClients, maxPerNetwork: config.maxClientsPerIP,
                                   maxUnnamed: config.maxUnnamed, maxUnnamedPerNetwork: config.maxUnnamedPerIP,
                                   connectsPerSecond: config.connectsPerSecondPerIP, connectBurst: config.connectBurstPerIP)
        let logBuffer = LogBuffer()
        self.logBuffer = logBuffer
        let log: (String) -> Void = { logBuffer.append($0) }
        self.log = log
        self.store = store
        self.readBuffer = [UInt8](repeating: 0, count: Server.readChunk)
        let table = ConnectionTable(maxOutputBytes: config.maxOutputBytes)
        self.table = table
        var settings = Lobby.Settings()
        settings.graceSeconds = config.graceSeconds
        settings.botDelay = config.botDelay
        settings.newNamesPerMinute = config.newNamesPerMinute
        settings.newNameBurst = config.newNameBurst
        settings.watchBatchInterval = config.watchBatchInterval
        settings.watchBatchPerWatcher = config.watchBatchPerWatcher
        settings.failedJoinsPerMinute = config.maxFailedJoinsPerMinute
        settings.failedJoinBurst = config.failedJoinBurst
        settings.unloadAfter = config.unloadAfter
        settings.firstMoveTimeout = config.firstMoveTimeout
        settings.moveTimeout = config.moveTimeout
        settings.abandonAfter = config.abandonAfter
        settings.maxGamesPerName = config.maxGamesPerName
        settings.maxGamesPerNetwork = config.maxGamesPerNetwork
        settings.scoresFor = config.scoresFor
        settings.loginBackoffMax = config.loginBackoffMax
        settings.hashesPerMinute = config.hashesPerMinute
        settings.hashBurst = config.hashBurst
        settings.loginFailureMemory = config.loginFailureMemory
        settings.maxLoginFailureEntries = config.maxLoginFailureEntries
        settings.topMinGames = config.topMinGames
        settings.topMaxDeviation = config.topMaxDeviation
        settings.gameLog = config.gameLog
        self.lobby = try Lobby(dictionaries: dictionaries, store: store, outbox: table, clock: SystemClock(),
                               settings: settings, extraKinds: kinds, log: log)
        lobby.serverFigures = { [unowned self] in self.figures() }
    }

    /// The loop's part of STATS, in the order Protocol.md lists them.
    private func figures() -> [(String, String)] {
        var out: [(String, String)] = [
            ("uptime_seconds", String(Int(monotonicSeconds() - stats.startedAt))),
            ("connections", String(table.connections.count)),
            ("connections_total", String(stats.connectionsTotal)),
            ("connections_tls", String(stats.tlsOpen)),
            ("tls_handshakes_failed", String(stats.tlsHandshakesFailed)),
            ("tls_handshakes_queued", String(handshakesQueued)),
        ]
        for code in ["peer"] + ByeCode.allCases.map(\.rawValue) {
            out.append(("closed_" + code.replacing("-", with: "_"), String(stats.closed[code, default: 0])))
        }
        out += [
            ("input_throttled", String(stats.throttled)),
            ("input_paused", String(stats.paused)),
            ("input_waiting", String(held.count)),
            ("input_served", String(stats.served)),
            ("input_deferred", String(stats.deferred)),
            ("commits", String(stats.commits)),
            ("syncs", String(syncer.map { ghost_syncer_count($0) } ?? 0)),
            ("commit_p50_us", String(stats.commitPercentile(0.5))),
            ("commit_p99_us", String(stats.commitPercentile(0.99))),
            ("durability", config.durability.rawValue),
            ("db_bytes", String(ServerStats.fileBytes(store.path))),
            ("wal_bytes", String(ServerStats.fileBytes(store.path + "-wal"))),
            ("rss_bytes", String(ServerStats.residentBytes())),
            ("io_threads", String(config.ioThreads)),
            ("io_jobs_threaded", String(ioThreads?.jobsByWorkers ?? 0)),
        ]
        return out
    }

    /// Opens the listening sockets and the signal descriptor. Call before
    /// `run`. Every port is bound first (a port in use stops the start before
    /// any port answers), everything else is set up, and only then does each
    /// listen, the plain port last: once it answers, every port does, and the
    /// daemon is ready (the TLS port opened a moment after it).
    public func start() throws {
        signalFD = ghost_signalfd_open()
        guard signalFD >= 0 else { throw StartError.system("cannot set up signal handling: \(errnoText())") }
        listenFD = try Server.bind(config.host, config.port, what: "")
        boundPort = Int(ghost_local_port(listenFD))
        epfd = ghost_epoll_create()
        guard epfd >= 0 else { throw StartError.system("epoll_create1: \(errnoText())") }
        guard ghost_epoll_add(epfd, signalFD, UInt32(GHOST_EPOLLIN), 1) == 0 else {
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
        try startHashing()
        if config.ioThreads > 1 {
            guard let io = IOThreads(count: config.ioThreads, chunk: Server.readChunk) else {
                throw StartError.system("cannot start \(config.ioThreads - 1) I/O threads: \(errnoText())")
            }
            io.checkCPUs()
            ioThreads = io
        }
        try startTLS()
        if store.callerSyncs {
            var err = [CChar](repeating: 0, count: 256)
            guard let s = ghost_syncer_start(store.walPath, store.journalPath, store.directory, &err, Int32(err.count)) else {
                throw StartError.system(String(decoding: err.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            syncer = s
            guard ghost_epoll_add(epfd, ghost_syncer_eventfd(s), UInt32(GHOST_EPOLLIN), 2) == 0 else {
                throw StartError.system("epoll_ctl: \(errnoText())")
            }
        }
        if tlsListenFD >= 0 { try listen(tlsListenFD, tag: Server.tlsListenerTag, what: "--tls-port: ") }
        try listen(listenFD, tag: 0, what: "")
    }

    /// A socket bound to host:port, not listening yet (`listen`).
    static func bind(_ host: String, _ port: Int, what: String) throws -> Int32 {
        var err = [CChar](repeating: 0, count: 256)
        let fd = ghost_bind(host, Int32(port), &err, Int32(err.count))
        guard fd >= 0 else { throw StartError.system(what + Server.text(err)) }
        return fd
    }

    /// A bound socket listens, and the loop hears of its clients (epoll data `tag`).
    func listen(_ fd: Int32, tag: UInt64, what: String) throws {
        var err = [CChar](repeating: 0, count: 256)
        guard ghost_start_listening(fd, Int32(config.backlog), &err, Int32(err.count)) == 0 else {
            throw StartError.system(what + Server.text(err))
        }
        guard ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN), tag) == 0 else {
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
    }

    /// A C string the system wrote into `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
