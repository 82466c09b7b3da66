import CGhostSys
import Glibc
import GhostProtocol
import GhostWeb

/// The listening sockets (the plain port, the TLS port with `--tls-port`,
/// and the web ports, `--web-port` and `--web-tls-port`): binding and
/// listening at the start, accepting clients
/// each turn, resting a moment when accept runs out of descriptors, and
/// turning away at once those their network may not open (Admission.swift).
/// A client accepted here is tuned, registered with epoll and put in the
/// table; what comes next (a greeting, or a TLS handshake) is the caller's.
final class Acceptor {
    /// The ports, each one kind of listener.
    enum Port: CaseIterable {
        /// The line protocol in clear.
        case plain
        /// The line protocol over TLS.
        case tls
        /// HTTP: the web client, and the line protocol over WebSocket.
        case web
        /// The same over TLS (HTTPS, wss:).
        case webTLS
        /// With --store, the other nodes' relays of their players (`RelayLine`).
        case relay

        /// epoll's data for its listener (connection ids count up from 3).
        var tag: UInt64 {
            switch self {
            case .plain: 0
            case .tls: 1 << 62
            case .web: 1 << 61
            case .webTLS: 1 << 60
            case .relay: 1 << 59
            }
        }
        var isTLS: Bool { self == .tls || self == .webTLS }
        var isWeb: Bool { self == .web || self == .webTLS }
        /// How its errors start (the option that named it).
        var option: String {
            switch self {
            case .plain: ""
            case .tls: "--tls-port: "
            case .web: "--web-port: "
            case .webTLS: "--web-tls-port: "
            case .relay: "--relay-port: "
            }
        }
        static func of(tag: UInt64) -> Port? { allCases.first { $0.tag == tag } }

        /// The port a standby's relay names (`RelayLine.Port`), served on
        /// the relayed connection as on this node's own; nil for one that
        /// is not a player's (`operator`).
        init?(relayed: RelayLine.Port) {
            switch relayed {
            case .plain: self = .plain
            case .tls: self = .tls
            case .web: self = .web
            case .webTLS: self = .webTLS
            case .operator: return nil
            }
        }

        /// Whether `config` opens this port (the plain and relay ports: always).
        func isServed(by config: ServerConfig) -> Bool {
            switch self {
            case .plain, .relay: true
            case .tls: config.tlsPort != nil
            case .web: config.webPort != nil
            case .webTLS: config.webTLSPort != nil
            }
        }
    }

    private let config: ServerConfig
    private let epoll: Epoll
    private let admission: Admission
    private let table: ConnectionTable
    private let stats: ServerStats
    private let log: (String) -> Void
    /// The listening sockets, by port (the plain one always, once bound).
    private var listeners: [Port: Int32] = [:]
    private var nextID: ConnectionID = 3   // 0 = listener, 1 = signals, 2 = syncer
    /// Set while accept() rests after running out of descriptors.
    private(set) var pausedUntil: Double?
    /// The ports actually bound (useful with port 0).
    private(set) var bound: [Port: Int] = [:]
    var boundPort: Int { bound[.plain] ?? 0 }

    init(config: ServerConfig, epoll: Epoll, admission: Admission, table: ConnectionTable,
         stats: ServerStats, log: @escaping (String) -> Void) {
        self.config = config
        self.epoll = epoll
        self.admission = admission
        self.table = table
        self.stats = stats
        self.log = log
    }

    /// The ports bound, the plain one first.
    var ports: [Port] { Port.allCases.filter { listeners[$0] != nil } }

    /// Binds a port, not listening yet (`listen`).
    func bind(_ port: Port, _ number: Int) throws {
        let fd = try Acceptor.bind(config.host, number, what: port.option)
        listeners[port] = fd
        bound[port] = Int(ghost_local_port(fd))
    }

    /// The bound ports listen, the plain one last: once it answers, every port does.
    func listen() throws {
        for port in ports.reversed() {
            if let fd = listeners[port] { try listen(fd, tag: port.tag, what: port.option) }
        }
    }

    /// A socket bound to host:port, not listening yet.
    private static func bind(_ host: String, _ port: Int, what: String) throws -> Int32 {
        var err = [CChar](repeating: 0, count: 256)
        let fd = ghost_bind(host, Int32(port), &err, Int32(err.count))
        guard fd >= 0 else { throw Server.StartError.system(what + Server.text(err)) }
        return fd
    }

    /// A bound socket listens, and the loop hears of its clients (epoll data `tag`).
    private func listen(_ fd: Int32, tag: UInt64, what: String) throws {
        var err = [CChar](repeating: 0, count: 256)
        guard ghost_start_listening(fd, Int32(config.backlog), &err, Int32(err.count)) == 0 else {
            throw Server.StartError.system(what + Server.text(err))
        }
        guard ghost_epoll_add(epoll.fd, fd, UInt32(GHOST_EPOLLIN), tag) == 0 else {
            throw Server.StartError.system("epoll_ctl: \(errnoText())")
        }
    }

    /// Out of descriptors: the listeners leave epoll for `ServerConfig.acceptBackoff` (100 ms)
    /// (the pending clients wait in the backlog) while everyone else is served.
    func pause(now: Double) {
        guard pausedUntil == nil else { return }
        pausedUntil = now + config.acceptBackoff
        for fd in listeners.values { _ = ghost_epoll_remove(epoll.fd, fd) }
    }

    /// The rest is over at `now`: the listeners are back in epoll and true
    /// is returned (the caller accepts on each at once); false while it rests.
    func resumeIfDue(now: Double) -> Bool {
        guard let until = pausedUntil, now >= until else { return false }
        pausedUntil = nil
        for (port, fd) in listeners { _ = ghost_epoll_add(epoll.fd, fd, UInt32(GHOST_EPOLLIN), port.tag) }
        return true
    }

    /// Accepts the clients waiting on a port. Each that its network may open
    /// is put in the table and handed to `opened`; one on the plain port is
    /// counted and logged first (a TLS one is once its handshake is done, a
    /// web one once it asks for the WebSocket, a relay once its RELAY line
    /// names its client's port: ConnectionIO.relayLine). `makeRoom`: at the cap of unnamed
    /// connections, may one of another network's go for a newcomer from
    /// this network (`Server.makeRoomForNewcomer`)?
    func accept(_ port: Port, now: Double, makeRoom: (String) -> Bool, opened: (Connection) -> Void) {
        guard let listenFD = listeners[port] else { return }
        var peer = [CChar](repeating: 0, count: 64)
        for _ in 0..<256 {
            let fd = ghost_accept(listenFD, &peer, Int32(peer.count))
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO: continue
                default:
                    // EMFILE, ENFILE, ENOBUFS, ENOMEM: out of resources. Stop
                    // accepting for a moment (the pending clients wait in the
                    // backlog) and keep serving everyone else.
                    log("accept failed: \(errnoText()); pausing accept for \(Int(config.acceptBackoff * 1000)) ms")
                    pause(now: now)
                    return
                }
            }
            let peerText = String(decoding: peer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let network = NetworkKey.of(Connection.address(of: peerText))
            // A trusted proxy's clients count by their own networks, once their
            // requests (web) or PROXY lines (plain) name them.
            let proxied = port == .relay
                || (port.isWeb || port == .plain) && config.trustedProxies.contains(Connection.address(of: peerText))
            if let refusal = admission.refusal(network: network, clients: table.count, at: now, byNetwork: !proxied,
                                               makeRoom: { makeRoom(network) }) {
                turnAway(fd, refusal, port: port)
                continue
            }
            ghost_tune_socket(fd)
            _ = ghost_set_send_buffer(fd, Int32(clamping: config.sendBufferBytes))
            let id = nextID
            nextID += 1
            let conn = Connection(id: id, fd: fd, peer: peerText, now: now)
            conn.mayNameItsClient = proxied && (port == .plain || port == .relay)
            conn.isRelay = port == .relay
            admission.opened(conn.network)
            guard ghost_epoll_add(epoll.fd, fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(id)) == 0 else {
                Glibc.close(fd)
                continue
            }
            table.connections[id] = conn
            if port == .plain { stats.connectionsTotal += 1 }
            if port == .plain || port == .relay {
                log("connection \(id) opened from \(peerText)\(port == .relay ? " (a relay)" : "")")
            }
            opened(conn)
        }
    }

    /// Answers a client that cannot be served with `BYE full <text>`, and
    /// closes it; on the web port, with `503 Service Unavailable` and the
    /// same text. (On a TLS port it is closed without a word: bytes in clear
    /// would mean nothing to a TLS client.)
    private func turnAway(_ fd: Int32, _ text: String, port: Port) {
        var bytes: [UInt8] = []
        switch port {
        case .plain, .relay: ServerLine.bye(.full, text).appendWire(to: &bytes)
        case .web: bytes = HTTPResponse.error(503, text).wire(secure: false)
        case .tls, .webTLS: break
        }
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) } }
        Glibc.close(fd)
        stats.closed[ByeCode.full.rawValue, default: 0] += 1
    }

    /// Stopping: the listening sockets are closed.
    func close() {
        for fd in listeners.values { Glibc.close(fd) }
        listeners = [:]
    }
}
