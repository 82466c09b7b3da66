import CGhostSys
import Glibc
import GhostProtocol

/// The connections' input and output: reading a connection (by the I/O
/// threads too, with `--io-threads`), framing its lines and serving them
/// within its budget and its network's (Net/Budget.swift), holding back the
/// input of one over either, asking epoll for what each needs, and writing
/// the replies once they may go. The turn's order of serving is in
/// ConnectionIO+Fairness.swift, the lines that wait for a password's answer
/// in ConnectionIO+Passwords.swift. TLS connections are read and written
/// here through their session once their handshake is done (TLSPort.swift).
final class ConnectionIO {
    let config: ServerConfig
    let lobby: Lobby
    let table: ConnectionTable
    let stats: ServerStats
    let admission: Admission
    /// The cluster's secret a relay names itself with (`RelayLine`); nil
    /// without a relay port.
    var relaySecret: String?
    /// Begins a relayed connection as the port its RELAY line names (`Server.begin`).
    var openRelayed: ((Connection, Acceptor.Port) -> Void)?
    /// Operator relays whose request line is still to come (ConnectionIO+Operator.swift).
    var operatorRelays: Set<ConnectionID> = []
    let log: (String) -> Void
    let epoll: Epoll
    /// Times each line the lobby serves.
    private let meter: LineMeter
    /// Every connection's and network's command budget.
    var budgets: Budgets
    /// Time of this loop turn (monotonic), set by the loop once per turn.
    var now: Double = 0
    /// Bytes of one read (`Server.readChunk`).
    var readBuffer: [UInt8]
    /// The I/O threads (`--io-threads` above 1; Net/IOThreads.swift), and
    /// the plain connections whose reading, or writing, they do this turn.
    var ioThreads: IOThreads?
    var readQueue: [Connection] = []
    /// This turn's readable plain connections go to `readQueue`.
    var queueReads = false
    private var writeQueue: [Connection] = []
    /// This turn's readable connections, and those whose framed lines wait
    /// for the next turn, its slice spent (ConnectionIO+Fairness.swift).
    var ready: [Connection] = []
    var deferred: [Connection] = []
    /// Loop turns, counted; and when this one began (monotonic).
    var turnNumber = 0
    var turnStart = 0.0
    /// Lines served this turn.
    var servedThisTurn = 0
    /// The connections whose lines wait for a password's answer.
    var waitingForPassword: [ConnectionID: Connection] = [:]
    /// Connections whose input waits for a budget, and the earliest time one may go on.
    var held: [ConnectionID: Connection] = [:]
    var nextWake: Double?
    /// Connections whose input waits in ghostd or OpenSSL, which epoll
    /// cannot report: TLS sessions whose decrypted input OpenSSL holds, and
    /// WebSockets with lines decoded and not yet framed.
    var tlsBuffered: [ConnectionID: Connection] = [:]
    /// Reads a web port's request (WebPort.swift), before its upgrade.
    var readWebRequest: ((Connection) -> Void)?

    /// `clock` times the lines served (nil: the monotonic clock).
    init(config: ServerConfig, lobby: Lobby, table: ConnectionTable, stats: ServerStats, admission: Admission,
         epoll: Epoll, clock: (() -> Double)?, log: @escaping (String) -> Void = { _ in }) {
        self.log = log
        self.config = config
        self.lobby = lobby
        self.table = table
        self.stats = stats
        self.admission = admission
        self.epoll = epoll
        self.meter = LineMeter(clock: clock)
        self.budgets = Budgets(connection: BudgetRule(perSecond: config.commandsPerSecond, burst: config.commandBurst),
                               network: BudgetRule(perSecond: config.networkCommandsPerSecond, burst: config.networkCommandBurst),
                               unitSeconds: config.costUnitSeconds)
        self.readBuffer = [UInt8](repeating: 0, count: Server.readChunk)
    }

    /// A new turn of the loop begins at `now`.
    func beginTurn() {
        turnNumber &+= 1
        turnStart = now
        servedThisTurn = 0
    }

    /// Whether the connection's input waits, unread and unserved: for its
    /// budget (`heldUntil`), or for its password's answer (ConnectionIO+Passwords.swift).
    func inputWaits(_ conn: Connection) -> Bool {
        conn.heldUntil != nil || waitingForPassword[conn.id] != nil
    }

    func readFrom(_ conn: Connection) {
        if let web = conn.web, web.phase != .socket {
            if web.phase == .request { readWebRequest?(conn) }
            return
        }
        readSome(conn)
        if let web = conn.web, web.hasUnsent { table.markDirty(conn) }   // a pong to send
        if !conn.isPlain { noteBuffered(conn) }
    }

    /// Whether reading the connection now could bring it lines to serve.
    private func wantsInput(_ conn: Connection) -> Bool {
        conn.dropReason == nil && !conn.closeAfterFlush && !conn.hasPending && conn.heldUntil == nil
    }

    /// A readable connection: with I/O threads a plain one is read after
    /// the turn's events, with the others (`readQueued`), else at once.
    func readOrQueue(_ conn: Connection) {
        guard queueReads, conn.isPlain, !inputWaits(conn) else { return readFrom(conn) }
        if wantsInput(conn) { readQueue.append(conn) }
    }

    /// The I/O threads read and frame one chunk of each queued connection;
    /// then, here on the loop thread and in the order epoll gave them, their
    /// lines are served as `readSome` serves a chunk it read itself. A
    /// connection that filled its chunk and is not held is read on here,
    /// up to `--read-budget` as without threads.
    func readQueued() {
        // A connection closed, or held, since it was queued (by a TLS
        // connection's lines, a password's answer) is not read now.
        readQueue.removeAll { table[$0.id] !== $0 || !wantsInput($0) || inputWaits($0) }
        ioThreads?.run(.read, readQueue)
        for conn in readQueue {
            let count = conn.ioRead
            if conn.dropReason != nil || conn.closeAfterFlush {
                // Closed by an earlier connection's line: its input is ignored.
                conn.clearPending()
            } else if count > 0 {
                guard chunkRead(conn, count) else { continue }
                if count == Server.readChunk {
                    readOn(conn, budget: config.readBudgetBytes - count)
                } else {
                    conn.overSince = nil   // caught up
                }
            } else {
                readFailed(conn, count: count, error: conn.ioError)
            }
        }
        readQueue.removeAll(keepingCapacity: true)
    }

    /// After `count` bytes were read and framed: serves the lines; true if
    /// the connection may be read on.
    private func chunkRead(_ conn: Connection, _ count: Int) -> Bool {
        // The rest of an over-long line is read and thrown away: it
        // costs by its bytes, so an endless line is slowed too.
        if conn.framer.isDiscarding {
            budgets.charge(Double(count) / Double(CommandTable.discardedBytesPerUnit),
                           own: &conn.penalty, network: conn.network, now: now)
        }
        serve(conn)
        if !conn.hasPending, conn.heldUntil == nil, conn.framer.isDiscarding { holdIfOver(conn) }
        return !conn.hasPending && conn.heldUntil == nil
    }

    /// A read that returned `count` ≤ 0, with its errno: the end, an error, or nothing to read.
    private func readFailed(_ conn: Connection, count: Int, error: Int32) {
        if count == 0 {
            // The end of its input: it is owed what is queued (ConnectionTable.peerClosed).
            table.peerClosed(conn)
        } else if let failure = conn.web?.failureText {
            // A WebSocket client broke the protocol: nothing more is read; it
            // is owed the replies to its lines before, then the close frame with its code.
            table.peerClosed(conn)
            conn.closeReason = failure
        } else if error == EAGAIN || error == EWOULDBLOCK || error == EINTR {
            conn.overSince = nil
        } else {
            conn.dropReason = conn.web?.failureText ?? conn.tls?.failure ?? "read error: \(String(cString: strerror(error)))"
            table.markDirty(conn)
        }
    }

    private func readSome(_ conn: Connection) {
        if inputWaits(conn) {
            // Not asked for input: an error or a hang-up (a reset peer).
            conn.dropReason = conn.dropReason ?? "closed by peer"
            table.markDirty(conn)
            return
        }
        readOn(conn, budget: config.readBudgetBytes)
    }

    /// Reads and serves chunks while `budget` bytes are left and the
    /// connection takes more input.
    private func readOn(_ conn: Connection, budget start: Int) {
        var budget = start
        while budget > 0, conn.dropReason == nil, !conn.closeAfterFlush, !conn.hasPending, conn.heldUntil == nil {
            let count = readBuffer.withUnsafeMutableBytes { buf in
                conn.receive(buf.baseAddress, min(buf.count, budget))
            }
            if count > 0 {
                budget -= count
                readBuffer.withUnsafeBytes { buf in
                    conn.framer.feed(UnsafeRawBufferPointer(rebasing: buf[0..<count])) { conn.pending.append($0) }
                }
                guard chunkRead(conn, count) else { return }
                // (Over TLS a read gives one record: go on while OpenSSL holds
                // more; over WebSocket, while lines decoded wait.)
                if count < readBuffer.count, !conn.hasBufferedInput {
                    conn.overSince = nil   // caught up
                    return
                }
            } else {
                readFailed(conn, count: count, error: errno)
                return
            }
        }
    }

    /// Holds back the input of a connection over its budget or its network's
    /// even though it has no whole line waiting (it streams an endless line).
    func holdIfOver(_ conn: Connection) {
        switch budgets.verdict(own: conn.penalty, network: conn.network, now: now) {
        case .serve: break
        case .slowConnection(let until): hold(conn, until: until, forNetwork: false)
        case .pauseNetwork(let until): hold(conn, until: until, forNetwork: true)
        }
    }

    /// Serves the connection's framed lines while it and its network are
    /// within their budgets; past either, its input waits (`hold`). Every
    /// line is charged, blank and over-long ones too: its fixed cost, or the
    /// time the lobby took over it if that is more.
    func serve(_ conn: Connection) {
        while conn.hasPending {
            // Input after QUIT or from a dropped connection is ignored.
            guard conn.dropReason == nil, !conn.closeAfterFlush else { break }
            // This turn's slice is spent: the rest waits for the next (ConnectionIO+Fairness.swift).
            if sliceSpent { return deferToNextTurn(conn) }
            // Its lines wait for a password's answer (ConnectionIO+Passwords.swift).
            if lobby.isWaitingForPassword(conn.id) { return waitForPassword(conn) }
            switch budgets.verdict(own: conn.penalty, network: conn.network, now: now) {
            case .serve: break
            case .slowConnection(let until): return hold(conn, until: until, forNetwork: false)
            case .pauseNetwork(let until): return hold(conn, until: until, forNetwork: true)
            }
            let frame = conn.pending[conn.pendingHead]
            conn.pendingHead += 1
            if !operatorRelays.isEmpty, operatorRelays.contains(conn.id) {
                operatorRequest(frame, from: conn)
                continue
            }
            if conn.mayNameItsClient {
                conn.mayNameItsClient = false
                if conn.isRelay {
                    conn.isRelay = false
                    relayLine(frame, from: conn)
                    continue
                }
                if case .line(let bytes) = frame, let proxy = ProxyLine.parse(bytes) {
                    proxyLine(proxy, from: conn)
                    continue
                }
            }
            let units: Double
            if case .line(let bytes) = frame, Server.isBlank(bytes) {
                // Not a command: it costs, but does not keep the connection alive.
                units = Double(CommandTable.blankCost)
            } else {
                conn.lastInput = now
                stats.served += 1
                servedThisTurn += 1
                table.countCommand(conn)
                let facts = LineMeter.facts(frame)
                table.serving = conn.id
                table.servingRevealsNothing = facts.revealsNothing
                units = meter.run(fixed: facts.cost, budgets: budgets) { lobby.received(frame, from: conn.id) }
                    + Double(lobby.takeSurcharge())
                table.serving = -1
                if !conn.identified, lobby.isIdentified(conn.id) { identified(conn) }
            }
            budgets.charge(units, own: &conn.penalty, network: conn.network, now: now)
        }
        if lobby.isWaitingForPassword(conn.id) { waitForPassword(conn) }
        conn.clearPending()
    }

    /// The connection's input waits until `until`: it is not read (no
    /// EPOLLIN: the loop is level-triggered), and lines already framed wait
    /// in `pending`. Over its own budget for `--flood-seconds`, it is closed.
    func hold(_ conn: Connection, until: Double, forNetwork: Bool) {
        if forNetwork {
            stats.paused += 1
        } else {
            stats.throttled += 1
            let since = conn.overSince ?? now
            conn.overSince = since
            if config.floodSeconds > 0, now - since >= config.floodSeconds {
                conn.clearPending()
                table.close(conn.id, .flood, "over \(Server.figure(config.commandsPerSecond)) command units a second for \(Server.figure(config.floodSeconds)) s; slow down")
                return
            }
        }
        conn.heldUntil = until
        held[conn.id] = conn
        nextWake = min(nextWake ?? until, until)
        setInterest(conn)
    }

    /// Serves the connections whose wait is over, and reads them again.
    func wakeHeld() {
        nextWake = nil
        var due: [Connection] = []
        for conn in held.values {
            if let until = conn.heldUntil, until > now {
                nextWake = min(nextWake ?? until, until)
            } else {
                due.append(conn)
            }
        }
        for conn in due {
            held[conn.id] = nil
            conn.heldUntil = nil
            serve(conn)
            guard conn.heldUntil == nil else { continue }
            setInterest(conn)
            if !conn.isPlain { noteBuffered(conn) }
            // Back to reading: level-triggered epoll says so if anything waits.
        }
    }

    /// NAME or RESUME: no longer among the unnamed.
    func identified(_ conn: Connection) {
        conn.identified = true
        admission.identified(conn.network)
    }

    /// Asks epoll for what the connection needs now: input unless it is
    /// closing or waiting for its budget, output while some is sendable.
    func setInterest(_ conn: Connection) {
        let input: UInt32 = conn.closeAfterFlush || inputWaits(conn)
            ? 0 : UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP)
        var events = input | (conn.sendableOutput > 0 || conn.web?.hasUnsent == true ? UInt32(GHOST_EPOLLOUT) : 0)
        // A closing connection still hears of a half-close (as it always
        // did), once: level-triggered epoll would report it every turn.
        if events == 0, conn.closeAfterFlush, !conn.halfClosed { events = UInt32(GHOST_EPOLLRDHUP) }
        if let tls = conn.tls { events = tlsInterest(conn, tls, events) }
        if events != conn.registered {
            conn.registered = events
            _ = ghost_epoll_modify(epoll.fd, conn.fd, events, UInt64(conn.id))
        }
    }

    /// What epoll must report for a TLS connection, given what a plain one
    /// would ask for: during the handshake, what it waits for; after, also
    /// output for a read that wants it, input for a write that wants it.
    private func tlsInterest(_ conn: Connection, _ tls: TLSSession, _ plain: UInt32) -> UInt32 {
        if !tls.established {
            guard conn.heldUntil == nil, !tls.away, !tls.waitingForThread else { return 0 }
            return UInt32(tls.handshakeWantsWrite ? GHOST_EPOLLOUT : GHOST_EPOLLIN) | UInt32(GHOST_EPOLLRDHUP)
        }
        var events = plain
        if tls.readWantsWrite, !inputWaits(conn), !conn.closeAfterFlush { events |= UInt32(GHOST_EPOLLOUT) }
        if tls.writeWantsRead { events |= UInt32(GHOST_EPOLLIN) }
        return events
    }

    /// OpenSSL holds input it has read already (read-ahead), which epoll
    /// cannot report: the connection is read again next turn (without waiting).
    func noteBuffered(_ conn: Connection) {
        guard conn.hasBufferedInput, conn.dropReason == nil,
              !conn.closeAfterFlush, !conn.hasPending, !inputWaits(conn) else { return }
        tlsBuffered[conn.id] = conn
    }

    /// Reads the connections noted by `noteBuffered`.
    func readBuffered() {
        let due = tlsBuffered
        tlsBuffered.removeAll(keepingCapacity: true)
        for conn in due.values where table[conn.id] === conn && !inputWaits(conn) {
            readFrom(conn)
        }
    }

    /// A new session: the lobby hears of it and sends its HELLO, which
    /// confirms nothing (never withdrawn) and shows nothing a commit changed
    /// (sent without waiting for a sync).
    func greet(_ conn: Connection) {
        table.serving = conn.id
        table.servingRevealsNothing = true
        // The lobby's limits by address (new names) count by network too.
        lobby.connected(conn.id, address: conn.network)
        table.serving = -1
        table.settle(conn)
    }

    // MARK: Output

    /// With I/O threads and enough connections to flush: their sends, on
    /// the threads (what follows them, `flush`, stays on the loop thread).
    func sendOnThreads(_ flushing: [Connection]) {
        guard let ioThreads, flushing.count >= IOThreads.minimumJobs else { return }
        for conn in flushing where conn.dropReason == nil && conn.isPlain && conn.sendableOutput > 0 {
            writeQueue.append(conn)
        }
        ioThreads.run(.write, writeQueue)
        writeQueue.removeAll(keepingCapacity: true)
    }

    /// Writes what the socket takes without blocking; nil, or why writing failed.
    func writeOut(_ conn: Connection) -> String? {
        // A web connection's frames (or HTTP response) that the socket did not take, first.
        if let web = conn.web, web.hasUnsent, !web.writeUnsent(conn.rawTransmit) {
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            return conn.tls?.failure ?? "write error: \(errnoText())"
        }
        while conn.sendableOutput > 0 {
            let sent = conn.output.withUnsafeBytes { buf in
                conn.transmit(buf.baseAddress.map { $0 + conn.written }, conn.sendableOutput)
            }
            if sent > 0 {
                conn.written += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                return conn.tls?.failure ?? "write error: \(errnoText())"
            }
        }
        return nil
    }

    /// Writes the connection's replies that may go. Returns nil, or why it
    /// must be disconnected now (`linger`: its BYE is written, and it
    /// lingers, so that the kernel does not reset it under the BYE).
    func flush(_ conn: Connection) -> (reason: String, linger: Bool)? {
        var failure: String?
        if conn.sentByThread {
            conn.sentByThread = false
            if conn.ioError != 0 { failure = "write error: \(String(cString: strerror(conn.ioError)))" }
        } else {
            failure = writeOut(conn)
        }
        if let failure { return (failure, false) }
        if conn.pendingOutput == 0 {
            conn.trimSent(all: true)
            if conn.closeAfterFlush {
                // A WebSocket's close frame goes last, and the close waits until it is written.
                if let web = conn.web {
                    web.queueClose(WebSession.closeCode(for: conn.closedFor), conn.closedFor?.rawValue ?? "")
                    if web.hasUnsent, writeOut(conn) == nil, web.hasUnsent {
                        setInterest(conn)
                        return nil
                    }
                }
                return (conn.closeReason, true)
            }
        } else if conn.mayBeOverLimit(config.maxOutputBytes), conn.pendingOutput + unsentInKernel(conn) > config.maxOutputBytes {
            table.overflowed(conn)
            return conn.dropReason.map { ($0, false) }
        } else if conn.written > 64 * 1024 {
            conn.trimSent(all: false)
        }
        // A closing connection is not read any more: stop asking for input,
        // or level-triggered epoll would wake the loop for it every turn.
        setInterest(conn)
        return nil
    }

    /// What the kernel still holds of the connection's replies (SIOCOUTQ):
    /// the replies it has unread count whether they wait in ghostd or in the
    /// socket's send buffer. Asked only when it could matter
    /// (`Connection.mayBeOverLimit`).
    private func unsentInKernel(_ conn: Connection) -> Int {
        ghost_unsent_bytes(conn.fd)
    }
}
