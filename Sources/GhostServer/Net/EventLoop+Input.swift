import CGhostSys
import Glibc
import GhostProtocol

/// The loop's input side: reading a connection, serving its lines within
/// its budget and its network's (Net/Budget.swift), holding back the input
/// of one over either, and the limits a new connection meets by network.
extension Server {
    /// Why a new connection from `network` cannot be served (`BYE full <text>`), or nil (Admission.swift).
    func refusal(network: String) -> String? {
        admission.refusal(network: network, clients: table.count, at: now, makeRoom: { makeRoomForNewcomer(from: network) })
    }

    /// 20 → "20", 0.5 → "0.5".
    static func figure(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// Bytes read from a connection at a time (the size of `readBuffer`). A read is framed whole, and
    /// its lines wait framed while the connection's budget is spent: 2 KiB
    /// of one-letter lines is at most about 1,000 small arrays held per
    /// connection (16 KiB was 16,000 blank lines, about 2 MB of heap each,
    /// 41 MB for 20 floods). A person's line, or a batch of them, fits in one.
    static let readChunk = 2048

    /// Whether the connection's input waits, unread and unserved: for its
    /// budget (`heldUntil`), or for its password's answer (EventLoop+Passwords.swift).
    func inputWaits(_ conn: Connection) -> Bool {
        conn.heldUntil != nil || waitingForPassword[conn.id] != nil
    }

    func readFrom(_ conn: Connection) {
        readSome(conn)
        if conn.tls != nil { noteBuffered(conn) }
    }

    /// Whether reading the connection now could bring it lines to serve.
    private func wantsInput(_ conn: Connection) -> Bool {
        conn.dropReason == nil && !conn.closeAfterFlush && !conn.hasPending && conn.heldUntil == nil
    }

    /// A readable connection: with I/O threads a plain one is read after
    /// the turn's events, with the others (`readQueued`), else at once.
    func readOrQueue(_ conn: Connection) {
        guard queueReads, conn.tls == nil, !inputWaits(conn) else { return readFrom(conn) }
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
        } else if error == EAGAIN || error == EWOULDBLOCK || error == EINTR {
            conn.overSince = nil
        } else {
            conn.dropReason = conn.tls?.failure ?? "read error: \(String(cString: strerror(error)))"
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
                receive(conn, buf.baseAddress, min(buf.count, budget))
            }
            if count > 0 {
                budget -= count
                readBuffer.withUnsafeBytes { buf in
                    conn.framer.feed(UnsafeRawBufferPointer(rebasing: buf[0..<count])) { conn.pending.append($0) }
                }
                guard chunkRead(conn, count) else { return }
                // (Over TLS a read gives one record: go on while OpenSSL holds more.)
                if count < readBuffer.count, conn.tls?.hasPending != true {
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
            // This turn's slice is spent: the rest waits for the next (EventLoop+Fairness.swift).
            if sliceSpent { return deferToNextTurn(conn) }
            // Its lines wait for a password's answer (EventLoop+Passwords.swift).
            if lobby.isWaitingForPassword(conn.id) { return waitForPassword(conn) }
            switch budgets.verdict(own: conn.penalty, network: conn.network, now: now) {
            case .serve: break
            case .slowConnection(let until): return hold(conn, until: until, forNetwork: false)
            case .pauseNetwork(let until): return hold(conn, until: until, forNetwork: true)
            }
            let frame = conn.pending[conn.pendingHead]
            conn.pendingHead += 1
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
            if conn.tls != nil { noteBuffered(conn) }
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
        var events = input | (conn.sendableOutput > 0 ? UInt32(GHOST_EPOLLOUT) : 0)
        // A closing connection still hears of a half-close (as it always
        // did), once: level-triggered epoll would report it every turn.
        if events == 0, conn.closeAfterFlush, !conn.halfClosed { events = UInt32(GHOST_EPOLLRDHUP) }
        if let tls = conn.tls { events = tlsInterest(conn, tls, events) }
        if events != conn.registered {
            conn.registered = events
            _ = ghost_epoll_modify(epfd, conn.fd, events, UInt64(conn.id))
        }
    }
}
