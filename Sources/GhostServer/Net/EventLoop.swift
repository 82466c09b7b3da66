import CGhostSys
import Glibc
import GhostCore
import GhostProtocol
import GhostStore

/// The event loop, Redis style and single-threaded for everything the rules
/// and the store see: epoll reports what is ready; each connection's lines
/// are read, framed (by the I/O threads with `--io-threads`) and served by
/// the lobby within their budgets (`ConnectionIO`); the turn's writes are
/// committed once (`CommitSync`); then every reply the commit covers is
/// written (by the I/O threads too). The loop dispatches, sweeps, closes
/// connections and stops.
extension Server {
    /// Runs until SIGINT or SIGTERM, or until the loop cannot go on;
    /// closes every connection on the way out and says why it stopped.
    public func run() -> Stop {
        stop = nil
        let maxEvents = 256
        var datas = [UInt64](repeating: 0, count: maxEvents)
        var events = [UInt32](repeating: 0, count: maxEvents)
        now = monotonicSeconds()
        nextSweep = now + 1
        while stop == nil {
            var deadline = nextSweep
            if let d = lobby.nextDeadline { deadline = min(deadline, d) }
            if let d = acceptor.pausedUntil { deadline = min(deadline, d) }
            if let d = io.nextWake { deadline = min(deadline, d) }
            if let d = lingering.nextDeadline { deadline = min(deadline, d) }
            if !io.tlsBuffered.isEmpty || !io.deferred.isEmpty || operators.due { deadline = now }
            let timeout = Int32(max(0, min(3_600_000, ((deadline - monotonicSeconds()) * 1000).rounded(.up))))
            let n = ghost_epoll_wait(epoll.fd, &datas, &events, Int32(maxEvents), timeout)
            if n < 0 {
                if errno == EINTR { continue }
                let text = "epoll_wait failed: \(errnoText())"
                log(text)
                stop = .failure(text)
                break
            }
            now = monotonicSeconds()
            io.beginTurn()
            for i in 0..<Int(n) {
                let data = datas[i], ev = events[i]
                switch data {
                case Acceptor.Port.plain.tag: acceptClients(.plain)
                case Acceptor.Port.tls.tag: acceptClients(.tls)
                case Acceptor.Port.web.tag: acceptClients(.web)
                case Acceptor.Port.webTLS.tag: acceptClients(.webTLS)
                case Acceptor.Port.relay.tag: acceptClients(.relay)
                case 1: handleSignal()
                case CommitSync.syncerTag: if let failure = commits.synced() { stop = failure }
                case Server.hashEventData: io.passwordsChecked()
                case TLSPort.handshakeEventData: tlsPort.handshakesDone()
                default:
                    guard let conn = table[Int(data)] else {
                        linger(ConnectionID(truncatingIfNeeded: data))
                        continue
                    }
                    if conn.tls != nil, tlsPort.event(conn, ev) { continue }
                    if conn.closeAfterFlush, ev & UInt32(GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 {
                        // Closing, and the peer is gone too: nothing left to write to.
                        conn.dropReason = conn.dropReason ?? conn.closeReason
                        table.markDirty(conn)
                        continue
                    }
                    if conn.closeAfterFlush, !conn.halfClosed, ev & UInt32(GHOST_EPOLLRDHUP) != 0 {
                        // Closing, and the client shut its side: it still gets its last replies.
                        conn.halfClosed = true
                        io.setInterest(conn)
                    }
                    if ev & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 {
                        // One readable connection and none waiting (a game in
                        // lock step): no order to choose; read it at once.
                        if n == 1, io.deferred.isEmpty { io.readFrom(conn) } else { io.noteReady(conn) }
                    }
                    if ev & UInt32(GHOST_EPOLLOUT) != 0, conn.dropReason == nil { table.markDirty(conn) }
                }
            }
            if operators.due { operators.take(lobby.applyOperatorRequest) }
            if !io.ready.isEmpty || !io.deferred.isEmpty { io.serveReady() }
            if !io.tlsBuffered.isEmpty { io.readBuffered() }
            if acceptor.resumeIfDue(now: now) {
                for port in acceptor.ports { acceptClients(port) }
            }
            if let wake = io.nextWake, now >= wake { io.wakeHeld() }
            if let d = lingering.nextDeadline, now >= d { for fd in lingering.expire(now: now) { closeLingering(fd) } }
            if now >= nextSweep { sweep() }
            lobby.tick()
            guard commit() else { break }
            if !operators.isIdle {
                operators.committed(lost: commits.lostTurn, generation: commits.committedGeneration, durable: commits.durableGeneration)
            }
            endOfTurn()
            logBuffer.flush()
        }
        let reason = stop ?? .failure("stopped")
        switch reason {
        case .storeFailure: abandon("the server cannot use its database and is stopping")
        case .leaseLost: abandon("another node of this server took over its games: connect again (RESUME your game there)")
        default: shutdown()
        }
        logBuffer.flush()
        return reason
    }

    // MARK: Loop steps

    /// Once a second: close connections past their time limits.
    private func sweep() {
        nextSweep = now + 1
        if let leadership, leadership.isLost {
            log("another node took the lease (this node's epoch was \(leadership.epoch)): stopping without sending unconfirmed replies")
            stop = .leaseLost("another node took the lease")
            return
        }
        io.budgets.prune(now: now)
        io.ioThreads?.checkCPUs()
        for conn in table.connections.values where conn.dropReason == nil {
            if conn.handshaking {
                if let tls = conn.tls, !tls.established {
                    if now - conn.openedAt > config.tlsHandshakeTimeout {
                        tlsPort.handshakeFailed(conn, "not finished within \(Server.figure(config.tlsHandshakeTimeout)) s")
                    }
                } else if let web = conn.web {
                    // Its request not sent in time (a slowloris), or its response not read.
                    let late = web.phase == .request ? now - web.since > config.webRequestTimeout : now > conn.closeDeadline
                    if late { webPort.timedOut(conn) }
                }
                continue
            }
            if conn.closeAfterFlush {
                // It will not take its last replies: drop it.
                if now > conn.closeDeadline {
                    conn.dropReason = "\(conn.closeReason); last replies not read"
                    table.markDirty(conn)
                }
                continue
            }
            if config.idleTimeout > 0, now - conn.lastInput > config.idleTimeout {
                table.close(conn.id, .idleTimeout, "no command for \(Int(config.idleTimeout)) s; PING keeps a connection alive")
            } else if config.nameTimeout > 0, now - conn.openedAt > config.nameTimeout, !lobby.isIdentified(conn.id) {
                table.close(conn.id, .nameTimeout, "no NAME or RESUME within \(Int(config.nameTimeout)) s")
            }
        }
    }

    /// Accepts the clients waiting on a port, each begun as its port's (`begin`).
    private func acceptClients(_ port: Acceptor.Port) {
        acceptor.accept(port, now: now, makeRoom: makeRoomForNewcomer(from:)) { begin($0, on: port) }
    }

    private func handleSignal() {
        while true {
            let sig = ghost_signalfd_read(signalFD)
            if sig == 0 { return }
            if sig == SIGHUP {
                tlsPort.reload()
                continue
            }
            if sig == SIGUSR1 {
                operators.signalled()   // taken this turn, in the turn's transaction
                continue
            }
            log("signal \(sig): shutting down")
            _ = ghost_notify("STOPPING=1")   // the service manager (systemd's Type=notify)
            stop = .signal(Int32(sig))
        }
    }

    /// Commits this turn's changes before any reply that confirms them is
    /// sent (CommitSync.swift); false if the loop must stop.
    private func commit() -> Bool {
        if let failure = commits.commit(flushing: flushing) {
            stop = failure
            return false
        }
        return true
    }

    /// Drops the connections that must go, then writes every pending reply.
    /// Dropping a player sends events to the opponent, and a failed write drops
    /// a connection, so repeat until nothing is left to do.
    private func endOfTurn() {
        // The loop committed just before: nothing is written until a disconnect here.
        var firstPass = true
        while !table.dirty.isEmpty {
            swap(&table.dirty, &flushing)
            var dropped = false
            // One pass to see whether any goes (nearly never): a pass that
            // read each one's reason copied the string, retained and released.
            for conn in flushing {
                conn.isDirty = false
                if conn.dropReason != nil { dropped = true }
            }
            if dropped {
                for conn in flushing {
                    if let reason = conn.dropReason { disconnect(conn, reason: reason) }
                }
            }
            // Disconnects adjourn games, which may write; so may a failed
            // write's disconnect in an earlier pass's `flush`. (In the first
            // pass without a drop nothing has run since the loop's commit.)
            if dropped || !firstPass {
                guard commit() else { return }
            }
            firstPass = false
            // The sends, on the I/O threads if there are enough; what follows them stays here.
            io.sendOnThreads(flushing)
            for conn in flushing where conn.dropReason == nil {   // a disconnect sets dropReason
                if let end = io.flush(conn) { disconnect(conn, reason: end.reason, linger: end.linger) }
            }
            // A few: `removeLast` one by one, Array's fast path (`removeAll`
            // is the generic replaceSubrange, on every turn of the loop).
            if flushing.count <= 16 {
                while !flushing.isEmpty { flushing.removeLast() }
            } else {
                flushing.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Empty, or only spaces and tabs (the framer has dropped the line end).
    static func isBlank(_ line: [UInt8]) -> Bool {
        for b in line where b != 0x20 && b != 0x09 { return false }
        return true
    }

    /// `linger`: ghostd closes it itself, its BYE written: its socket is
    /// shut for sending, and its input read and discarded for up to
    /// `Lingering.seconds` before it is closed (Lingering.swift).
    private func disconnect(_ conn: Connection, reason: String, linger: Bool = false) {
        guard table[conn.id] != nil else { return }
        // Tell the lobby first, so the opponent hears about it; this connection
        // no longer receives anything. (A TLS connection still in its
        // handshake never reached the lobby, and its failure is logged.)
        conn.dropReason = conn.dropReason ?? reason
        let inSession = !conn.handshaking
        if inSession, let bye = conn.byeOnDrop {
            // Past the limit, without waiting: it may or may not be read
            // (and not before replies that wait for the disk).
            conn.byeOnDrop = nil
            let nothingHeld = conn.heldOutput == 0
            conn.output.append(bye)
            if nothingHeld { conn.releaseAll() }
            _ = io.writeOut(conn)
        }
        if inSession {
            lobby.disconnected(conn.id)
            stats.closed[conn.closedFor?.rawValue ?? "peer", default: 0] += 1
        }
        stats.left(conn)
        table.connections[conn.id] = nil
        admission.closed(conn.network, identified: conn.identified)
        io.held[conn.id] = nil
        if tlsPort.closeWhenHandedBack(conn) { return }   // its handshake's step is on a thread (TLSPort.swift)
        if let web = conn.web, web.phase == .socket {
            // A WebSocket's close frame, best effort (after a BYE it went already).
            stats.webOpen -= 1
            web.queueClose(WebSession.closeCode(for: conn.closedFor), conn.closedFor?.rawValue ?? "")
            _ = web.writeUnsent(conn.rawTransmit)
        }
        tlsPort.end(conn)
        if linger, lingering.add(conn.id, fd: conn.fd, now: now) {
            // Under its id still: only its input (and the end of it) wakes the loop.
            _ = ghost_epoll_modify(epoll.fd, conn.fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(conn.id))
        } else {
            _ = ghost_epoll_remove(epoll.fd, conn.fd)
            Glibc.close(conn.fd)
        }
        if inSession { log("connection \(conn.id) closed: \(reason)") }
    }

    /// The server holds its most connections without NAME or RESUME
    /// (`--max-unnamed`), and a newcomer from `network` knocks: if another
    /// network holds more of them than `network` would with the newcomer,
    /// one of that network's (the first found) is closed with `BYE full` to
    /// let the newcomer in, so that no set of networks can keep everyone
    /// else out by holding the cap (16 addresses × 128 silent
    /// connections kept every newcomer out, reconnecting as the name timeout
    /// closed them). A scan of the networks with such connections and of the
    /// connections, only at the cap. Returns whether there is room now.
    func makeRoomForNewcomer(from network: String) -> Bool {
        guard let victim = admission.networkToMakeRoom(for: network),
              let conn = table.connections.values.first(where: {
                  !$0.identified && $0.network == victim && $0.dropReason == nil && !$0.closeAfterFlush
              }) else { return false }
        let text = "the server has its most connections without NAME or RESUME, and \(victim) holds the most of them; "
            + "send NAME or RESUME sooner"
        conn.closedFor = .full
        conn.byeOnDrop = .bye(.full, text)
        disconnect(conn, reason: ConnectionTable.reason(.full, text))
        return admission.roomForUnnamed
    }

    /// A lingering socket is readable: its input is thrown away; at its
    /// end (or an error) it is closed.
    private func linger(_ id: ConnectionID) {
        if let fd = lingering.drain(id, into: &io.readBuffer) { closeLingering(fd) }
    }

    private func closeLingering(_ fd: Int32) {
        _ = ghost_epoll_remove(epoll.fd, fd)
        Glibc.close(fd)
    }

    private func shutdown() {
        // Every client gets BYE shutdown after what is queued for it, written
        // as far as its socket takes it now.
        let text = "the server is stopping; games in progress are kept: RESUME them when it is back"
        let synced = commits.settle()
        // The operator's replies that waited for these syncs.
        if synced, !operators.isIdle {
            operators.committed(lost: false, generation: commits.committedGeneration, durable: commits.durableGeneration)
        }
        for conn in table.connections.values where conn.dropReason == nil && !conn.handshaking {
            if !synced { conn.dropHeld() }
            table.close(conn.id, .shutdown, text)
            conn.releaseAll()
            _ = io.writeOut(conn)
        }
        // Games in progress stay in the store as they are: players RESUME them
        // after a restart. Closing sockets here must not adjourn them again.
        closeEverything(reason: ConnectionTable.reason(.shutdown, text))
        // The last moment it ran: the time until the next start is an outage (Lifecycle.recordStart).
        do {
            try store.downtime.markAlive(at: SystemClock.wallSeconds())
            try store.commit()
        } catch { log("cannot commit to \(store.path): \(error)") }
        store.close()
        log("stopped")
    }

    /// The store cannot be used: every connection gets what was confirmed
    /// before this turn, then BYE shutdown, never a line of this turn (it may
    /// confirm changes that are not stored); the open transaction is rolled back.
    private func abandon(_ text: String) {
        table.withdrawTurn()
        // Replies of commits that reached the disk go out; after a failed
        // sync, those that wait for it are dropped (a BYE among them too).
        let synced = commits.settle()
        for conn in table.connections.values where conn.dropReason == nil && !conn.handshaking {
            let byeQueued = table.hasQueuedBye(conn) && (synced || conn.heldOutput == 0)
            if !synced { conn.dropHeld() }
            if !byeQueued { conn.output.append(ServerLine.bye(.shutdown, text)) }
            conn.releaseAll()
            _ = io.writeOut(conn)
        }
        closeEverything(reason: ConnectionTable.reason(.shutdown, text))
        store.rollback()
        store.close()
        log("stopped")
    }

    private func closeEverything(reason: String) {
        tlsPort.stopHandshakes()
        for conn in Array(table.connections.values) {
            let inSession = !conn.handshaking
            if let web = conn.web, web.phase == .socket {
                web.queueClose(.goingAway, ByeCode.shutdown.rawValue)
                _ = web.writeUnsent(conn.rawTransmit)
            }
            tlsPort.end(conn)
            _ = ghost_epoll_remove(epoll.fd, conn.fd)
            // The end of the stream after its BYE, and the input it has sent
            // so far thrown away, so that the close does not reset it under
            // the BYE (stopping does not wait for it to linger).
            _ = ghost_shutdown_write(conn.fd)
            for _ in 0..<4 where io.readBuffer.withUnsafeMutableBytes({ Glibc.read(conn.fd, $0.baseAddress, $0.count) }) > 0 {}
            Glibc.close(conn.fd)
            if inSession { log("connection \(conn.id) closed: \(reason)") }
        }
        io.tlsBuffered.removeAll()
        for fd in lingering.removeAll() { Glibc.close(fd) }
        table.connections.removeAll()
        table.dirty.removeAll()
        acceptor.close()
        if epoll.fd >= 0 { Glibc.close(epoll.fd) }
        if signalFD >= 0 { Glibc.close(signalFD) }
        epoll.fd = -1
        signalFD = -1
        commits.stop()
        hashPool?.stop()
        hashPool = nil
        io.ioThreads?.stop()
        io.ioThreads = nil
    }
}
