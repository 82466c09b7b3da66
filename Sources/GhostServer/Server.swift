import CGhostSys
import Foundation
import GhostCore
import GhostProtocol
import GhostStore
#if canImport(Glibc)
import Glibc
#endif

/// Settings of the daemon. Every limit is named here with its default.
public struct ServerConfig: Sendable {
    /// Address to listen on: a name, an IPv4 or an IPv6 address.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (printed at start).
    public var port = 7777
    /// Folder holding the word lists (`xx.txt`).
    public var dictionaries = "./Dictionaries"
    /// Bytes of replies a connection may have waiting to be written before it
    /// is dropped as a reader that fell too far behind.
    public var maxOutputBytes = 256 * 1024
    /// Bytes read from one connection per loop turn, so one busy client cannot
    /// starve the others.
    public var readBudgetBytes = 64 * 1024
    /// listen() backlog.
    public var backlog = 1024
    /// Connections served at once; past it a new client gets `ERR busy` and is closed.
    public var maxClients = 10_000
    /// Connections from one IP address at once (0: no limit).
    public var maxClientsPerIP = 256
    /// Seconds a connection may stay without NAME or RESUME (0: no limit).
    public var nameTimeout: Double = 60
    /// Seconds a connection may stay silent; PING keeps it alive (0: no limit).
    public var idleTimeout: Double = 600
    /// Commands per second one connection may send on average, with bursts of
    /// `commandBurst`; past that it gets `ERR flood` and is closed (0: no limit).
    public var commandsPerSecond: Double = 50
    public var commandBurst: Double = 200
    /// How long accept() rests after EMFILE/ENFILE/ENOBUFS before trying again.
    public var acceptBackoff: Double = 0.1
    /// Folder holding the SQLite database.
    public var dataDirectory = ServerConfig.defaultDataDirectory()
    /// Seconds an absent player to move has before the opponent may CLAIM.
    public var graceSeconds: Double = 60
    /// Seconds the computer waits, about, before it plays (0: at once).
    public var botDelay: Double = 0.6
    /// fsync every commit (survives power loss) or only the WAL (survives a crash).
    public var durability: Store.Durability = .full

    /// `$XDG_STATE_HOME/ghostd`, else `~/.local/state/ghostd`, else `./ghostd-data`.
    public static func defaultDataDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let state = env["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/ghostd" }
        if let home = env["HOME"], home.hasPrefix("/") { return home + "/.local/state/ghostd" }
        return "./ghostd-data"
    }

    public init() {}
}

/// One client socket and its buffers.
final class Connection {
    let id: ConnectionID
    let fd: Int32
    let peer: String
    let ip: String
    var framer = LineFramer()
    let openedAt: Double
    var lastInput: Double
    /// Token bucket for the command rate limit.
    var tokens: Double
    var lastRefill: Double
    var isDirty = false
    var output: [UInt8] = []
    var written = 0              // bytes of `output` already sent
    var registered: UInt32 = 0   // epoll events asked for (0: the initial IN|RDHUP)
    var closeAfterFlush = false  // QUIT, EOF, a limit: close once output is written
    var closeReason = "quit"
    var closeDeadline = 0.0      // by then it goes, written or not
    var dropReason: String?      // set when it must go at the end of the turn

    init(id: ConnectionID, fd: Int32, peer: String, now: Double, burst: Double) {
        self.id = id
        self.fd = fd
        self.peer = peer
        // "1.2.3.4:5678" or "[::1]:5678" → the address part.
        var host = peer
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        self.ip = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.openedAt = now
        self.lastInput = now
        self.tokens = burst
        self.lastRefill = now
    }

    var pendingOutput: Int { output.count - written }
}

/// A single-threaded epoll event loop, Redis style: read what is ready, let
/// the lobby act on every complete line, then flush every reply once per turn.
public final class Server: Outbox {
    public let config: ServerConfig
    private let log: (String) -> Void
    private var lobby: Lobby!
    private let store: Store
    private var epfd: Int32 = -1
    private var listenFD: Int32 = -1
    private var signalFD: Int32 = -1
    private var connections: [ConnectionID: Connection] = [:]
    private var dirty: [Connection] = []
    private var flushing: [Connection] = []
    private var nextID: ConnectionID = 2   // 0 = listener, 1 = signals
    private var running = false
    private var readBuffer: [UInt8]
    /// A broadcast line, rendered once.
    private var scratch: [UInt8] = []
    private var perIP: [String: Int] = [:]
    /// Time of this loop turn (monotonic), read once per turn.
    private var now: Double = 0
    private var nextSweep: Double = 0
    /// Set while accept() rests after running out of descriptors.
    private var acceptPausedUntil: Double?

    /// The port actually bound (useful with port 0).
    public private(set) var boundPort = 0

    public enum StartError: Error, CustomStringConvertible {
        case system(String)
        public var description: String {
            switch self { case .system(let s): return s }
        }
    }

    /// Log lines of this turn; written to stderr once per turn, with the replies.
    private let logBuffer = LogBuffer()

    public init(config: ServerConfig, dictionaries: Dictionaries, store: Store) throws {
        self.config = config
        let logBuffer = self.logBuffer
        self.log = { logBuffer.append($0) }
        self.store = store
        self.readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
        var settings = Lobby.Settings()
        settings.graceSeconds = config.graceSeconds
        settings.botDelay = config.botDelay
        self.lobby = try Lobby(dictionaries: dictionaries, store: store, outbox: self, clock: SystemClock(),
                               settings: settings, log: log)
    }

    /// Opens the listening socket and the signal descriptor. Call before `run`.
    public func start() throws {
        signalFD = ghost_signalfd_open()
        guard signalFD >= 0 else { throw StartError.system("cannot set up signal handling: \(errnoText())") }
        var err = [CChar](repeating: 0, count: 256)
        listenFD = ghost_listen(config.host, Int32(config.port), Int32(config.backlog), &err, Int32(err.count))
        guard listenFD >= 0 else {
            throw StartError.system(String(decoding: err.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        boundPort = Int(ghost_local_port(listenFD))
        epfd = ghost_epoll_create()
        guard epfd >= 0 else { throw StartError.system("epoll_create1: \(errnoText())") }
        guard ghost_epoll_add(epfd, listenFD, UInt32(GHOST_EPOLLIN), 0) == 0,
              ghost_epoll_add(epfd, signalFD, UInt32(GHOST_EPOLLIN), 1) == 0 else {
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
    }

    /// Runs until SIGINT, SIGTERM or SIGHUP. Closes every connection on the way out.
    public func run() {
        running = true
        let maxEvents = 256
        var datas = [UInt64](repeating: 0, count: maxEvents)
        var events = [UInt32](repeating: 0, count: maxEvents)
        now = monotonicSeconds()
        nextSweep = now + 1
        while running {
            var deadline = nextSweep
            if let d = lobby.nextDeadline { deadline = min(deadline, d) }
            if let d = acceptPausedUntil { deadline = min(deadline, d) }
            let timeout = Int32(max(0, min(3_600_000, ((deadline - monotonicSeconds()) * 1000).rounded(.up))))
            let n = ghost_epoll_wait(epfd, &datas, &events, Int32(maxEvents), timeout)
            if n < 0 {
                if errno == EINTR { continue }
                log("epoll_wait failed: \(errnoText())")
                break
            }
            now = monotonicSeconds()
            for i in 0..<Int(n) {
                let data = datas[i], ev = events[i]
                switch data {
                case 0: acceptClients()
                case 1: handleSignal()
                default:
                    guard let conn = connections[Int(data)] else { continue }
                    if conn.closeAfterFlush, ev & UInt32(GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 {
                        // Closing, and the peer is gone too: nothing left to write to.
                        conn.dropReason = conn.dropReason ?? conn.closeReason
                        markDirty(conn)
                        continue
                    }
                    if ev & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 { readFrom(conn) }
                    if ev & UInt32(GHOST_EPOLLOUT) != 0, conn.dropReason == nil { markDirty(conn) }
                }
            }
            if let until = acceptPausedUntil, now >= until { resumeAccepting() }
            if now >= nextSweep { sweep() }
            lobby.tick()
            guard commit() else { return }
            endOfTurn()
            logBuffer.flush()
        }
        shutdown()
        logBuffer.flush()
    }

    // MARK: Outbox

    public func send(_ line: ServerLine, to id: ConnectionID) {
        guard let conn = connections[id], conn.dropReason == nil else { return }
        line.appendWire(to: &conn.output)
        queued(conn)
    }

    /// Renders the line once and queues the bytes for each connection.
    public func send(_ line: ServerLine, toEach ids: [ConnectionID?]) {
        scratch.removeAll(keepingCapacity: true)
        line.appendWire(to: &scratch)
        for case let id? in ids {
            guard let conn = connections[id], conn.dropReason == nil else { continue }
            conn.output.append(contentsOf: scratch)
            queued(conn)
        }
    }

    private func queued(_ conn: Connection) {
        // The limit is on replies left unread, checked after each flush; this
        // hard stop only bounds what one turn can pile up.
        if conn.pendingOutput > config.maxOutputBytes + Server.turnAllowance {
            conn.dropReason = "output buffer over \(config.maxOutputBytes) bytes"
        }
        markDirty(conn)
    }

    /// Replies one turn may add beyond --max-output-bytes before the flush.
    static let turnAllowance = 64 * 1024
    /// How long a closing connection may take to read its last replies.
    static let closeGrace = 2.0

    public func close(_ id: ConnectionID) {
        close(id, reason: "quit")
    }

    private func close(_ id: ConnectionID, reason: String) {
        guard let conn = connections[id], !conn.closeAfterFlush else { return }
        conn.closeAfterFlush = true
        conn.closeReason = reason
        conn.closeDeadline = now + Server.closeGrace
        markDirty(conn)
    }

    // MARK: Loop steps

    private func markDirty(_ conn: Connection) {
        guard !conn.isDirty else { return }
        conn.isDirty = true
        dirty.append(conn)
    }

    /// Once a second: close connections past their time limits.
    private func sweep() {
        nextSweep = now + 1
        for conn in connections.values where conn.dropReason == nil {
            if conn.closeAfterFlush {
                // It will not take its last replies: drop it.
                if now > conn.closeDeadline {
                    conn.dropReason = "\(conn.closeReason); last replies not read"
                    markDirty(conn)
                }
                continue
            }
            if config.idleTimeout > 0, now - conn.lastInput > config.idleTimeout {
                refuse(conn, .error(.timeout, "no command for \(Int(config.idleTimeout)) s; PING keeps a connection alive"))
            } else if config.nameTimeout > 0, now - conn.openedAt > config.nameTimeout, !lobby.isIdentified(conn.id) {
                refuse(conn, .error(.timeout, "no NAME or RESUME within \(Int(config.nameTimeout)) s"))
            }
        }
    }

    /// Sends a last line and closes the connection once it is written.
    private func refuse(_ conn: Connection, _ line: ServerLine) {
        send(line, to: conn.id)
        close(conn.id, reason: line.message.words.first ?? "refused")
    }

    private func pauseAccepting() {
        guard acceptPausedUntil == nil else { return }
        acceptPausedUntil = now + config.acceptBackoff
        _ = ghost_epoll_remove(epfd, listenFD)
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        _ = ghost_epoll_add(epfd, listenFD, UInt32(GHOST_EPOLLIN), 0)
        acceptClients()
    }

    private func acceptClients() {
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
                    pauseAccepting()
                    return
                }
            }
            let peerText = String(decoding: peer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if connections.count >= config.maxClients {
                turnAway(fd, "ERR busy the server has its maximum of \(config.maxClients) clients; try again later")
                continue
            }
            ghost_tune_socket(fd)
            let id = nextID
            nextID += 1
            let conn = Connection(id: id, fd: fd, peer: peerText, now: now, burst: config.commandBurst)
            if config.maxClientsPerIP > 0, perIP[conn.ip, default: 0] >= config.maxClientsPerIP {
                turnAway(fd, "ERR busy too many connections from \(conn.ip) (at most \(config.maxClientsPerIP))")
                continue
            }
            perIP[conn.ip, default: 0] += 1
            guard ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(id)) == 0 else {
                Glibc.close(fd)
                continue
            }
            connections[id] = conn
            log("connection \(id) opened from \(peerText)")
            lobby.connected(id)
        }
    }

    /// Answers a client that cannot be served with one line, and closes it.
    private func turnAway(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
        Glibc.close(fd)
    }

    private func handleSignal() {
        while true {
            let sig = ghost_signalfd_read(signalFD)
            if sig == 0 { return }
            log("signal \(sig): shutting down")
            running = false
        }
    }

    private func readFrom(_ conn: Connection) {
        var budget = config.readBudgetBytes
        while budget > 0, conn.dropReason == nil, !conn.closeAfterFlush {
            let count = readBuffer.withUnsafeMutableBytes { buf in
                Glibc.read(conn.fd, buf.baseAddress, min(buf.count, budget))
            }
            if count > 0 {
                budget -= count
                conn.lastInput = now
                readBuffer.withUnsafeBytes { buf in
                    let chunk = UnsafeRawBufferPointer(rebasing: buf[0..<count])
                    conn.framer.feed(chunk) { frame in
                        // Input after QUIT or from a dropped connection is ignored.
                        guard !conn.closeAfterFlush, conn.dropReason == nil else { return }
                        guard withinRate(conn) else {
                            refuse(conn, .error(.flood, "more than \(Int(config.commandsPerSecond)) commands a second; goodbye"))
                            return
                        }
                        lobby.received(frame, from: conn.id)
                    }
                }
                if count < readBuffer.count { return }
            } else if count == 0 {
                conn.dropReason = "closed by peer"
                markDirty(conn)
                return
            } else {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                conn.dropReason = "read error: \(errnoText())"
                markDirty(conn)
                return
            }
        }
    }

    /// Commits this turn's changes before any reply that confirms them is
    /// sent. If that fails, the daemon stops at once without sending them:
    /// a client may only ever see acknowledged what is on disk.
    private func commit() -> Bool {
        var failure = lobby.storeError
        if failure == nil {
            do { try store.commit() } catch { failure = error }
        }
        guard let failure else { return true }
        log("cannot commit to \(store.path): \(failure); stopping without sending unconfirmed replies")
        logBuffer.flush()
        exit(3)
    }

    /// Drops the connections that must go, then writes every pending reply.
    /// Dropping a player sends events to the opponent, and a failed write drops
    /// a connection, so repeat until nothing is left to do.
    private func endOfTurn() {
        while !dirty.isEmpty {
            swap(&dirty, &flushing)
            for conn in flushing { conn.isDirty = false }
            for conn in flushing {
                if let reason = conn.dropReason { disconnect(conn, reason: reason) }
            }
            // Disconnects adjourn games, which may write.
            guard commit() else { return }
            for conn in flushing where conn.dropReason == nil { flush(conn) }   // a disconnect sets dropReason
            flushing.removeAll(keepingCapacity: true)
        }
    }

    /// Takes one command from the connection's token bucket.
    private func withinRate(_ conn: Connection) -> Bool {
        guard config.commandsPerSecond > 0 else { return true }
        conn.tokens = min(config.commandBurst, conn.tokens + (now - conn.lastRefill) * config.commandsPerSecond)
        conn.lastRefill = now
        guard conn.tokens >= 1 else { return false }
        conn.tokens -= 1
        return true
    }

    private func flush(_ conn: Connection) {
        while conn.pendingOutput > 0 {
            let sent = conn.output.withUnsafeBytes { buf in
                ghost_send(conn.fd, buf.baseAddress.map { $0 + conn.written }, UInt(conn.pendingOutput))
            }
            if sent > 0 {
                conn.written += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                disconnect(conn, reason: "write error: \(errnoText())")
                return
            }
        }
        if conn.pendingOutput == 0 {
            conn.output.removeAll(keepingCapacity: conn.output.capacity <= 4096)
            conn.written = 0
            if conn.closeAfterFlush {
                disconnect(conn, reason: conn.closeReason)
                return
            }
        } else if conn.pendingOutput > config.maxOutputBytes {
            disconnect(conn, reason: "output buffer over \(config.maxOutputBytes) bytes")
            return
        } else if conn.written > 64 * 1024 {
            conn.output.removeFirst(conn.written)
            conn.written = 0
        }
        // A closing connection is not read any more: stop asking for input,
        // or level-triggered epoll would wake the loop for it every turn.
        let input = conn.closeAfterFlush ? 0 : UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP)
        let events = input | (conn.pendingOutput > 0 ? UInt32(GHOST_EPOLLOUT) : 0)
        let current = conn.registered == 0 ? UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP) : conn.registered
        if events != current {
            conn.registered = events == 0 ? UInt32(GHOST_EPOLLRDHUP) : events
            _ = ghost_epoll_modify(epfd, conn.fd, conn.registered, UInt64(conn.id))
        }
    }

    private func disconnect(_ conn: Connection, reason: String) {
        guard connections[conn.id] != nil else { return }
        // Tell the lobby first, so the opponent hears about it; this connection
        // no longer receives anything.
        conn.dropReason = conn.dropReason ?? reason
        lobby.disconnected(conn.id)
        connections[conn.id] = nil
        if let n = perIP[conn.ip] { perIP[conn.ip] = n > 1 ? n - 1 : nil }
        _ = ghost_epoll_remove(epfd, conn.fd)
        Glibc.close(conn.fd)
        log("connection \(conn.id) closed: \(reason)")
    }

    private func shutdown() {
        for conn in connections.values {
            flush(conn)
        }
        // Games in progress stay in the store as they are: players RESUME them
        // after a restart. Closing sockets here must not adjourn them again.
        for conn in Array(connections.values) {
            _ = ghost_epoll_remove(epfd, conn.fd)
            Glibc.close(conn.fd)
            log("connection \(conn.id) closed: server shutting down")
        }
        connections.removeAll()
        _ = commit()
        store.close()
        if listenFD >= 0 { Glibc.close(listenFD) }
        if epfd >= 0 { Glibc.close(epfd) }
        if signalFD >= 0 { Glibc.close(signalFD) }
        log("stopped")
    }
}

/// Log lines collected during a loop turn and written with one write().
final class LogBuffer {
    private var bytes: [UInt8] = []
    func append(_ line: String) { appendLogLine(line, to: &bytes) }
    func flush() {
        guard !bytes.isEmpty else { return }
        writeToStderr(bytes)
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
    }
}

/// CLOCK_REALTIME for records, CLOCK_MONOTONIC for grace periods.
public struct SystemClock: LobbyClock {
    public init() {}
    public var wall: Int { Int(time(nil)) }
    public var monotonic: Double { monotonicSeconds() }
}

func errnoText() -> String {
    String(cString: strerror(errno))
}
