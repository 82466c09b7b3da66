import CGhostSys
import COpenSSL
import Glibc

/// The TLS port's side of the loop (`--tls-port`): the certificate new
/// handshakes use (SIGHUP replaces it), each accepted connection's
/// non-blocking handshake before it becomes a session (its steps run on the
/// handshake threads, TLSHandshakes.swift, never here), and the end of its
/// session. Once the handshake is done a TLS connection is served as a
/// plain one is (ConnectionIO.swift, through its session): the same lines,
/// budgets, caps and timeouts, its byte counts in plaintext.
final class TLSPort {
    /// The epoll data of the handshake threads' eventfd.
    static let handshakeEventData = UInt64.max - 2

    private let config: ServerConfig
    private let table: ConnectionTable
    private let stats: ServerStats
    private let epoll: Epoll
    private let log: (String) -> Void
    /// The connections' I/O, which serves a session once its handshake is done.
    private let io: ConnectionIO
    private var context: TLSContext?
    /// The handshake threads (Net/TLSHandshakes.swift); the connections a
    /// step of whose handshake is on them (closed ones too, until it comes
    /// back), and those whose next step waits for a place, first come first
    /// served (HandshakeLine.swift).
    private var handshakes: TLSHandshakes?
    private var handshakeLine = HandshakeLine(capacity: TLSHandshakes.capacity)
    /// A web connection's handshake is done (`WebPort.tlsEstablished`): it is not greeted, its HTTP request comes first.
    var webEstablished: ((Connection) -> Void)?

    init(config: ServerConfig, table: ConnectionTable, stats: ServerStats, epoll: Epoll, io: ConnectionIO,
         log: @escaping (String) -> Void) {
        self.config = config
        self.table = table
        self.stats = stats
        self.epoll = epoll
        self.io = io
        self.log = log
    }

    /// Loads the certificate and key of `--tls-port` or `--web-tls-port` (one is given).
    func loadCertificate() throws {
        guard let cert = config.tlsCertificate, let key = config.tlsKey else {
            throw Server.StartError.system("--tls-port and --web-tls-port need --tls-cert and --tls-key")
        }
        switch TLSContext.load(certificate: cert, key: key) {
        case .success(let context): self.context = context
        case .failure(let error): throw Server.StartError.system(error.description)
        }
    }

    /// Starts the handshakes' threads, which wake the loop when a step is done.
    func startThreads() throws {
        let threads = TLSHandshakes.threadCount(cpus: IOThreads.usableCPUs())
        guard let pool = TLSHandshakes(threads: threads) else {
            throw Server.StartError.system("cannot start \(threads) TLS handshake threads: \(errnoText())")
        }
        handshakes = pool
        guard ghost_epoll_add(epoll.fd, pool.eventFD, UInt32(GHOST_EPOLLIN), TLSPort.handshakeEventData) == 0 else {
            throw Server.StartError.system("epoll_ctl: \(errnoText())")
        }
    }

    /// A client accepted on the TLS port: its handshake starts when it
    /// speaks. Until it is done the connection counts against its network's
    /// caps (connections, unnamed ones) but is not a session.
    func begin(_ conn: Connection) {
        guard let context, let session = TLSSession(context: context, fd: conn.fd) else {
            handshakeFailed(conn, "cannot start a TLS session: \(TLS.reason())")
            return
        }
        conn.tls = session
    }

    /// Something happened on a TLS connection: returns true if it is
    /// handled here (the handshake), false to go on as for a plain one.
    func event(_ conn: Connection, _ events: UInt32) -> Bool {
        guard let tls = conn.tls else { return false }
        if !tls.established {
            if conn.dropReason == nil { continueHandshake(conn, tls, events) }
            return true
        }
        // A read that waited for the socket to be writable, or a write that
        // waited for it to be readable, can go on.
        if tls.readWantsWrite, !io.inputWaits(conn), events & UInt32(GHOST_EPOLLOUT) != 0 { io.readFrom(conn) }
        if tls.writeWantsRead, events & UInt32(GHOST_EPOLLIN) != 0 {
            table.markDirty(conn)
            // Input asked for only for the write, while its input waits (for
            // its budget or a password): not to be read (a read would take it for a hang-up).
            if io.inputWaits(conn), events & UInt32(GHOST_EPOLLHUP | GHOST_EPOLLERR) == 0 { return true }
        }
        return false
    }

    private func continueHandshake(_ conn: Connection, _ tls: TLSSession, _ events: UInt32) {
        if conn.heldUntil != nil || tls.away || tls.waitingForThread {
            // Not asked for any event (waiting for its network's budget, or
            // for a handshake thread): an error or a hang-up.
            handshakeFailed(conn, "closed by peer")
            return
        }
        // A handshake is work done for its network: it waits while the
        // network is over its budget. Its fixed cost is charged at its first
        // step, its threads' time beyond that once it ends.
        switch io.budgets.verdict(own: conn.penalty, network: conn.network, now: io.now) {
        case .serve: break
        case .slowConnection(let until), .pauseNetwork(let until):
            return io.hold(conn, until: until, forNetwork: true)
        }
        if !tls.handshakeCharged {
            tls.handshakeCharged = true
            io.budgets.charge(Double(TLS.handshakeCost), own: &conn.penalty, network: conn.network, now: io.now)
        }
        dispatchHandshake(conn, tls)
    }

    /// The socket is ready for the handshake's next step: to a thread if
    /// fewer than `TLSHandshakes.capacity` steps are away, else it waits,
    /// unread, on the first-come line (`handshakeLine`). Either way
    /// epoll is asked for nothing more about it (but an error or a hang-up)
    /// until the step is back.
    private func dispatchHandshake(_ conn: Connection, _ tls: TLSSession) {
        if handshakeLine.hasRoom, let pool = handshakes, let ssl = tls.handOff() {
            if pool.submit(TLSHandshakes.Job(id: conn.id, ssl: ssl)) {
                handshakeLine.sent(conn)
            } else {
                tls.takeBack(.failed("stopping"))
                handshakeFailed(conn, "the handshake threads are stopping")
                return
            }
        } else {
            tls.waitingForThread = true
            handshakeLine.wait(conn)
        }
        io.setInterest(conn)
    }

    /// The handshake threads woke the loop: each finished step's connection
    /// is the loop's again (TLSHandshakes.swift): done, it becomes a
    /// session; failed, it goes; else it waits for its socket again. One
    /// closed meanwhile is freed now. Then steps that waited for a place go.
    func handshakesDone() {
        guard let pool = handshakes else { return }
        for finished in pool.takeFinished() {
            guard let conn = handshakeLine.cameBack(finished.id), let tls = conn.tls else { continue }
            tls.takeBack(finished.step)
            tls.handshakeSeconds += finished.seconds
            guard table[conn.id] === conn else {
                freeHandedBack(conn)
                continue
            }
            // Going at the end of this turn (a hang-up, the timeout): its outcome does not matter.
            guard conn.dropReason == nil else { continue }
            switch finished.step {
            case .wantRead, .wantWrite:
                io.setInterest(conn)
            case .done:
                chargeHandshake(conn, tls)
                tls.becameSession()
                sessionStarted(conn, tls)
            case .failed(let reason):
                chargeHandshake(conn, tls)
                handshakeFailed(conn, reason)
            }
        }
        dispatchWaiting()
    }

    /// Steps that waited for a place on the threads, oldest first, while there is one.
    private func dispatchWaiting() {
        while let conn = handshakeLine.next() {
            // Closed (or timed out) while it waited: skipped.
            guard table[conn.id] === conn, conn.dropReason == nil, let tls = conn.tls, tls.waitingForThread else { continue }
            tls.waitingForThread = false
            dispatchHandshake(conn, tls)
        }
        handshakeLine.compact()
    }

    /// Handshakes whose step is on the threads (queued or running), and
    /// those whose next step waits for a place (STATS `tls_handshakes_queued`).
    var handshakesQueued: Int {
        let table = self.table
        return handshakeLine.away.count + handshakeLine.waitingCount {
            table[$0.id] === $0 && $0.dropReason == nil && $0.tls?.waitingForThread == true
        }
    }

    /// Called by `disconnect` once the connection has left the server's
    /// tables: if a step of its handshake is on a thread, its SSL object and
    /// its socket are that thread's until the step comes back
    /// (`handshakesDone` frees them then), and true is returned; its socket
    /// leaves epoll now. False: close it as any.
    func closeWhenHandedBack(_ conn: Connection) -> Bool {
        guard let tls = conn.tls, tls.away else { return false }
        io.tlsBuffered[conn.id] = nil
        _ = ghost_epoll_remove(epoll.fd, conn.fd)
        return true
    }

    /// A connection closed while its step was away, now back: freed, its socket closed.
    private func freeHandedBack(_ conn: Connection) {
        conn.tls?.free()
        conn.tls = nil
        Glibc.close(conn.fd)
    }

    /// Stopping: the threads finish their steps and stop, and every SSL
    /// object is the loop's again (those of connections closed meanwhile are
    /// freed here; `closeEverything` frees the others).
    func stopHandshakes() {
        handshakes?.stop()
        handshakes = nil
        for conn in handshakeLine.removeAll() {
            conn.tls?.takeBack(.failed("stopping"))
            if table[conn.id] !== conn { freeHandedBack(conn) }
        }
    }

    private func chargeHandshake(_ conn: Connection, _ tls: TLSSession) {
        // The fixed cost was charged at the first step: here, the threads' time beyond it.
        let units = io.budgets.cost(fixed: TLS.handshakeCost, elapsed: tls.handshakeSeconds) - Double(TLS.handshakeCost)
        if units > 0 { io.budgets.charge(units, own: &conn.penalty, network: conn.network, now: io.now) }
    }

    /// The handshake is done: the connection becomes a session, greeted with HELLO.
    private func sessionStarted(_ conn: Connection, _ tls: TLSSession) {
        stats.tlsOpen += 1
        if conn.web != nil {
            webEstablished?(conn)
            return
        }
        stats.connectionsTotal += 1
        log("connection \(conn.id) opened from \(conn.peer) over \(tls.summary)")
        io.greet(conn)
        io.setInterest(conn)
        // The client may have sent its first lines with its last handshake message.
        io.noteBuffered(conn)
    }

    /// The handshake failed or took too long: one line in the log, and the
    /// connection goes without a word (it never was a session).
    func handshakeFailed(_ conn: Connection, _ reason: String) {
        guard conn.dropReason == nil else { return }
        stats.tlsHandshakesFailed += 1
        log("TLS handshake from \(conn.peer) failed: \(reason)")
        conn.dropReason = "TLS handshake failed: \(reason)"
        table.markDirty(conn)
    }

    /// The connection is going: close_notify if it was a session, and its
    /// TLS session freed (the socket is closed by the caller).
    func end(_ conn: Connection) {
        guard let tls = conn.tls, !tls.away else { return }
        if tls.established { stats.tlsOpen -= 1 }
        tls.shutdown()
        tls.free()
        conn.tls = nil
        io.tlsBuffered[conn.id] = nil
    }

    /// SIGHUP: new handshakes use the certificate and key as they are now
    /// in their files; sessions keep theirs. A pair that does not load is
    /// logged and the one in use kept.
    func reload() {
        guard config.tlsPort != nil || config.webTLSPort != nil, let cert = config.tlsCertificate, let key = config.tlsKey else {
            log("SIGHUP: no TLS certificate to reload (no --tls-port or --web-tls-port)")
            return
        }
        switch TLSContext.load(certificate: cert, key: key) {
        case .success(let context):
            self.context = context
            log("SIGHUP: reloaded the TLS certificate \(cert) and key \(key)")
        case .failure(let error):
            log("SIGHUP: kept the TLS certificate in use: \(error)")
        }
    }
}
