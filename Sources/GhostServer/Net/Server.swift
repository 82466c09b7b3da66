import CGhostSys
import Glibc
import GhostCore
import GhostProtocol
import GhostStore
import GameKit
import WordLists

/// The daemon's server: its settings, the lobby, the store, the open
/// connections, and the event loop (EventLoop.swift: read what is ready,
/// let the lobby act on every complete line, commit, then flush every reply
/// once per turn), single-threaded for everything the rules and the store
/// see. The loop's concerns are types of their own, each with the state it
/// owns: accepting clients (`Acceptor`), reading, serving and writing the
/// connections (`ConnectionIO`, with the I/O threads of IOThreads.swift),
/// the TLS port's handshakes (`TLSPort`), the web ports' HTTP requests
/// before their WebSocket (`WebPort`), and committing before replying
/// (`CommitSync`).
///
/// The lobby is built first, with the connection table as its outbox; the
/// loop owns both, and hands each of its types what it needs when it is
/// built, so nothing points back at the loop.
public final class Server {
    public let config: ServerConfig
    let log: (String) -> Void
    let lobby: Lobby
    let store: Store
    /// The open connections; also the lobby's outbox.
    let table: ConnectionTable
    let epoll = Epoll()
    var signalFD: Int32 = -1
    /// The connections being flushed at the end of a turn.
    var flushing: [Connection] = []
    /// The password hashing threads (Server.startHashing, ConnectionIO+Passwords.swift).
    var hashPool: HashPool?
    /// Set when the loop must stop, and why.
    var stop: Stop?
    /// This node's hold on the cluster's lease, with `--store` (the daemon's start sets it).
    var leadership: Leadership?
    /// Who may connect: the counts by network and the limits (Admission.swift).
    let admission: Admission
    /// The listening sockets (Acceptor.swift).
    let acceptor: Acceptor
    /// Reading, serving and writing the connections (ConnectionIO.swift).
    let io: ConnectionIO
    /// The TLS port's handshakes and sessions (TLSPort.swift).
    let tlsPort: TLSPort
    /// The web ports' requests (WebPort.swift).
    let webPort: WebPort
    /// Commit before reply, and the WAL syncer (CommitSync.swift).
    let commits: CommitSync
    /// The operator's requests, at SIGUSR1 (OperatorInbox.swift).
    let operators: OperatorInbox
    /// Time of this loop turn (monotonic), read once per turn.
    var now: Double = 0 {
        didSet {
            table.now = now
            io.now = now
        }
    }
    var nextSweep: Double = 0
    /// Sockets closed after their BYE, read and discarded for a moment (Lingering.swift).
    var lingering = Lingering()

    /// The port actually bound (useful with port 0).
    public var boundPort: Int { acceptor.boundPort }
    /// The TLS port actually bound, with `--tls-port`.
    public var boundTLSPort: Int? { acceptor.bound[.tls] }
    /// The web ports actually bound, with `--web-port` and `--web-tls-port`.
    public var boundWebPort: Int? { acceptor.bound[.web] }
    /// With --store: the port the other nodes relay their players to.
    public var boundRelayPort: Int? { acceptor.bound[.relay] }
    public var boundWebTLSPort: Int? { acceptor.bound[.webTLS] }

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
        /// Another node took the cluster's lease (`Leadership`): this one
        /// can store nothing more; unconfirmed replies were not sent.
        case leaseLost(String)

        public var description: String {
            switch self {
            case .signal(let n): return "signal \(n)"
            case .failure(let s): return s
            case .storeFailure(let s): return "store failure: \(s)"
            case .leaseLost(let s): return "lease lost: \(s)"
            }
        }
    }

    /// Log lines of this turn; written to stderr once per turn, with the replies.
    let logBuffer: LogBuffer
    /// Figures for STATS.
    let stats: ServerStats

    /// `clock` times the lines served, for their cost (tests give their own).
    /// `kinds`: game kinds to play besides the catalog's (a test daemon's); none for ghostd.
    public init(config: ServerConfig, dictionaries: Dictionaries, store: Store,
                clock: (() -> Double)? = nil, kinds: [any GameDefinition] = []) throws {
        self.config = config
        let stats = ServerStats(startedAt: monotonicSeconds())
        self.stats = stats
        let admission = Admission(maxClients: config.maxClients, maxPerNetwork: config.maxClientsPerIP,
                                  maxUnnamed: config.maxUnnamed, maxUnnamedPerNetwork: config.maxUnnamedPerIP,
                                  connectsPerSecond: config.connectsPerSecondPerIP, connectBurst: config.connectBurstPerIP)
        self.admission = admission
        let logBuffer = LogBuffer()
        self.logBuffer = logBuffer
        let log: (String) -> Void = { logBuffer.append($0) }
        self.log = log
        self.store = store
        let table = ConnectionTable(maxOutputBytes: config.maxOutputBytes)
        self.table = table
        let lobby = try Lobby(dictionaries: dictionaries, store: store, outbox: table, clock: SystemClock(),
                              settings: Lobby.Settings(config), extraKinds: kinds, log: log)
        self.lobby = lobby
        let epoll = self.epoll
        let io = ConnectionIO(config: config, lobby: lobby, table: table, stats: stats, admission: admission,
                              epoll: epoll, clock: clock, log: log)
        self.io = io
        let tlsPort = TLSPort(config: config, table: table, stats: stats, epoll: epoll, io: io, log: log)
        self.tlsPort = tlsPort
        let webPort = WebPort(config: config, table: table, stats: stats, admission: admission, io: io, log: log)
        self.webPort = webPort
        io.readWebRequest = { [unowned webPort] in webPort.readRequest($0) }
        tlsPort.webEstablished = { [unowned webPort] in webPort.tlsEstablished($0) }
        self.acceptor = Acceptor(config: config, epoll: epoll, admission: admission, table: table, stats: stats, log: log)
        self.commits = CommitSync(store: store, lobby: lobby, table: table, stats: stats, epoll: epoll, log: log)
        self.operators = OperatorInbox(folder: OperatorRequest.folder(in: config.dataDirectory), log: log)
        lobby.serverFigures = { [unowned self] in self.figures(for: $0) }
        io.openRelayed = { [unowned self] in self.begin($0, on: $1) }
    }

    /// What a connection that reached `port` gets first, accepted here or
    /// relayed by a standby (`ConnectionIO.relayLine`, once its RELAY line
    /// named the port): a plain one is greeted, a TLS one becomes a session
    /// once its handshake is done (`TLSPort.begin`), a web one once it asks
    /// for the WebSocket (`WebPort.begin`). A relay port's is greeted as
    /// its line says.
    func begin(_ conn: Connection, on port: Acceptor.Port) {
        switch port {
        case .plain: io.greet(conn)
        case .relay: break
        case .tls: tlsPort.begin(conn)
        case .web: webPort.begin(conn, secure: false)
        case .webTLS:
            webPort.begin(conn, secure: true)
            tlsPort.begin(conn)
        }
    }

    /// The loop's part of STATS for connection `id`, in the order Protocol.md lists them.
    private func figures(for id: ConnectionID) -> [(String, String)] {
        var out: [(String, String)] = [
            ("uptime_seconds", String(Int(monotonicSeconds() - stats.startedAt))),
            ("connections", String(table.connections.count)),
            ("connections_total", String(stats.connectionsTotal)),
            ("connections_tls", String(stats.tlsOpen)),
            ("tls_handshakes_failed", String(stats.tlsHandshakesFailed)),
            ("tls_handshakes_queued", String(tlsPort.handshakesQueued)),
            ("connections_web", String(stats.webOpen)),
            ("web_requests", String(stats.webRequests)),
        ]
        for code in ["peer"] + ByeCode.allCases.map(\.rawValue) {
            out.append(("closed_" + code.replacing("-", with: "_"), String(stats.closed[code, default: 0])))
        }
        out += [
            ("input_throttled", String(stats.throttled)),
            ("input_paused", String(stats.paused)),
            ("input_waiting", String(io.held.count)),
            ("input_served", String(stats.served)),
            ("input_deferred", String(stats.deferred)),
            ("commits", String(stats.commits)),
            ("syncs", String(commits.syncCount)),
            ("commit_p50_us", String(stats.commitPercentile(0.5))),
            ("commit_p99_us", String(stats.commitPercentile(0.99))),
            ("durability", config.durability.rawValue),
            ("node", leadership == nil ? "" : Daemon.nodeName(config)),
            ("lease_epoch", String(leadership?.epoch ?? 0)),
        ]
        out += entryFigures(table[id])
        out += [
            ("db_bytes", String(ServerStats.fileBytes(store.path))),
            ("wal_bytes", String(ServerStats.fileBytes(store.path + "-wal"))),
            ("rss_bytes", String(ServerStats.residentBytes())),
            ("io_threads", String(config.ioThreads)),
            ("io_jobs_threaded", String(io.ioThreads?.jobsByWorkers ?? 0)),
        ]
        return out
    }

    /// STATS' `entry_node`, `entry_node_connections` and `nodes`: the node
    /// `conn` came in through (a relay's, else this one's: empty on SQLite),
    /// the connections open now that came in through it, and the nodes of
    /// the cluster alive now (the renewal thread's count: no query here).
    private func entryFigures(_ conn: Connection?) -> [(String, String)] {
        let own = leadership == nil ? "" : Daemon.nodeName(config)
        let entry = conn?.entryNode ?? own
        let count = conn?.entryNode == nil ? table.connections.count - stats.relayedTotal : stats.relayed(through: entry)
        return [("entry_node", entry), ("entry_node_connections", String(max(0, count))),
                ("nodes", String(leadership?.liveNodes ?? 1))]
    }

    /// Opens the listening sockets and the signal descriptor. Call before
    /// `run`. Every port is bound first (a port in use stops the start before
    /// any port answers), everything else is set up, and only then does each
    /// listen, the plain port last: once it answers, every port does, and the
    /// daemon is ready (the TLS port opened a moment after it).
    public func start() throws {
        // SIGUSR1: the operator's requests (`ghostd accounts ban …`, OperatorInbox.swift).
        signalFD = ghost_signalfd_open_with(SIGUSR1)
        guard signalFD >= 0 else { throw StartError.system("cannot set up signal handling: \(errnoText())") }
        operators.prepare()
        try acceptor.bind(.plain, config.port)
        if let port = config.webPort { try acceptor.bind(.web, port) }
        if let leadership {
            // The other nodes' relays (docs/cluster.md), named by the cluster's secret.
            try acceptor.bind(.relay, config.relayPort)
            io.relaySecret = leadership.secret
        }
        epoll.fd = ghost_epoll_create()
        guard epoll.fd >= 0 else { throw StartError.system("epoll_create1: \(errnoText())") }
        guard ghost_epoll_add(epoll.fd, signalFD, UInt32(GHOST_EPOLLIN), 1) == 0 else {
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
        try startHashing()
        if config.ioThreads > 1 {
            guard let threads = IOThreads(count: config.ioThreads, chunk: Server.readChunk) else {
                throw StartError.system("cannot start \(config.ioThreads - 1) I/O threads: \(errnoText())")
            }
            threads.checkCPUs()
            io.ioThreads = threads
        }
        if config.tlsPort != nil || config.webTLSPort != nil {
            // The certificate first, then the ports bound, then the handshakes' threads.
            try tlsPort.loadCertificate()
            if let port = config.tlsPort { try acceptor.bind(.tls, port) }
            if let port = config.webTLSPort { try acceptor.bind(.webTLS, port) }
            try tlsPort.startThreads()
        }
        try commits.start()
        try acceptor.listen()
    }

    /// The epoll data of the hashing pool's eventfd (connections count up from 3).
    static let hashEventData = UInt64.max - 1

    /// Starts the password hashing pool and puts its eventfd in the epoll
    /// set; when it fires, `ConnectionIO.passwordsChecked`.
    private func startHashing() throws {
        guard let pool = HashPool(threads: config.hashThreads, capacity: config.hashQueue) else {
            throw StartError.system("cannot start the password hashing threads: \(errnoText())")
        }
        guard ghost_epoll_add(epoll.fd, pool.eventFD, UInt32(GHOST_EPOLLIN), Server.hashEventData) == 0 else {
            pool.stop()
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
        hashPool = pool
        lobby.passwordChecker = pool
    }

    /// A C string the system wrote into `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 20 → "20", 0.5 → "0.5".
    static func figure(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// Bytes read from a connection at a time (the size of `ConnectionIO.readBuffer`). A read is framed whole, and
    /// its lines wait framed while the connection's budget is spent: 2 KiB
    /// of one-letter lines is at most about 1,000 small arrays held per
    /// connection (16 KiB was 16,000 blank lines, about 2 MB of heap each,
    /// 41 MB for 20 floods). A person's line, or a batch of them, fits in one.
    static let readChunk = 2048
}
