import CGhostSys
import Glibc
import GhostProtocol

/// The listening sockets (the plain port, and the TLS port with
/// `--tls-port`): binding and listening at the start, accepting clients
/// each turn, resting a moment when accept runs out of descriptors, and
/// turning away at once those their network may not open (Admission.swift).
/// A client accepted here is tuned, registered with epoll and put in the
/// table; what comes next (a greeting, or a TLS handshake) is the caller's.
final class Acceptor {
    /// epoll's data for the plain listener, and for the TLS listener
    /// (connection ids count up from 3).
    static let plainTag: UInt64 = 0
    static let tlsTag: UInt64 = 1 << 62

    private let config: ServerConfig
    private let epoll: Epoll
    private let admission: Admission
    private let table: ConnectionTable
    private let stats: ServerStats
    private let log: (String) -> Void
    private var listenFD: Int32 = -1
    private var tlsListenFD: Int32 = -1
    private var nextID: ConnectionID = 3   // 0 = listener, 1 = signals, 2 = syncer
    /// Set while accept() rests after running out of descriptors.
    private(set) var pausedUntil: Double?
    /// The ports actually bound (useful with port 0).
    private(set) var boundPort = 0
    private(set) var boundTLSPort: Int?

    init(config: ServerConfig, epoll: Epoll, admission: Admission, table: ConnectionTable,
         stats: ServerStats, log: @escaping (String) -> Void) {
        self.config = config
        self.epoll = epoll
        self.admission = admission
        self.table = table
        self.stats = stats
        self.log = log
    }

    /// Whether there is a TLS port.
    var hasTLS: Bool { tlsListenFD >= 0 }

    /// Binds the plain port, not listening yet (`listen`).
    func bindPlain() throws {
        listenFD = try Acceptor.bind(config.host, config.port, what: "")
        boundPort = Int(ghost_local_port(listenFD))
    }

    /// Binds the TLS port, not listening yet (`listen`).
    func bindTLS(_ port: Int) throws {
        tlsListenFD = try Acceptor.bind(config.host, port, what: "--tls-port: ")
        boundTLSPort = Int(ghost_local_port(tlsListenFD))
    }

    /// The bound ports listen, the plain one last: once it answers, every port does.
    func listen() throws {
        if tlsListenFD >= 0 { try listen(tlsListenFD, tag: Acceptor.tlsTag, what: "--tls-port: ") }
        try listen(listenFD, tag: Acceptor.plainTag, what: "")
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

    /// Out of descriptors: the listeners leave epoll for `--accept-backoff`
    /// (the pending clients wait in the backlog) while everyone else is served.
    func pause(now: Double) {
        guard pausedUntil == nil else { return }
        pausedUntil = now + config.acceptBackoff
        _ = ghost_epoll_remove(epoll.fd, listenFD)
        if tlsListenFD >= 0 { _ = ghost_epoll_remove(epoll.fd, tlsListenFD) }
    }

    /// The rest is over at `now`: the listeners are back in epoll and true
    /// is returned (the caller accepts on each at once); false while it rests.
    func resumeIfDue(now: Double) -> Bool {
        guard let until = pausedUntil, now >= until else { return false }
        pausedUntil = nil
        _ = ghost_epoll_add(epoll.fd, listenFD, UInt32(GHOST_EPOLLIN), Acceptor.plainTag)
        if tlsListenFD >= 0 { _ = ghost_epoll_add(epoll.fd, tlsListenFD, UInt32(GHOST_EPOLLIN), Acceptor.tlsTag) }
        return true
    }

    /// Accepts the clients waiting on the plain port, or on the TLS port.
    /// Each that its network may open is put in the table and handed to
    /// `opened`; a plain one is counted and logged first (a TLS one is,
    /// once its handshake is done). `makeRoom`: at the cap of unnamed
    /// connections, may one of another network's go for a newcomer from
    /// this network (`Server.makeRoomForNewcomer`)?
    func accept(tls: Bool = false, now: Double, makeRoom: (String) -> Bool, opened: (Connection) -> Void) {
        var peer = [CChar](repeating: 0, count: 64)
        for _ in 0..<256 {
            let fd = ghost_accept(tls ? tlsListenFD : listenFD, &peer, Int32(peer.count))
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
            if let refusal = admission.refusal(network: network, clients: table.count, at: now,
                                               makeRoom: { makeRoom(network) }) {
                turnAway(fd, refusal, tls: tls)
                continue
            }
            ghost_tune_socket(fd)
            _ = ghost_set_send_buffer(fd, Int32(clamping: config.sendBufferBytes))
            let id = nextID
            nextID += 1
            let conn = Connection(id: id, fd: fd, peer: peerText, now: now)
            admission.opened(conn.network)
            guard ghost_epoll_add(epoll.fd, fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(id)) == 0 else {
                Glibc.close(fd)
                continue
            }
            table.connections[id] = conn
            if !tls {
                stats.connectionsTotal += 1
                log("connection \(id) opened from \(peerText)")
            }
            opened(conn)
        }
    }

    /// Answers a client that cannot be served with `BYE full <text>`, and closes it.
    /// (On the TLS port it is closed without a word: a line in clear would
    /// mean nothing to a TLS client.)
    private func turnAway(_ fd: Int32, _ text: String, tls: Bool) {
        var bytes: [UInt8] = []
        ServerLine.bye(.full, text).appendWire(to: &bytes)
        if !tls { _ = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) } }
        Glibc.close(fd)
        stats.closed[ByeCode.full.rawValue, default: 0] += 1
    }

    /// Stopping: the listening sockets are closed.
    func close() {
        if listenFD >= 0 { Glibc.close(listenFD) }
        if tlsListenFD >= 0 { Glibc.close(tlsListenFD) }
        tlsListenFD = -1
        listenFD = -1
    }
}
