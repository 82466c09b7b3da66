import CGhostSys
import Glibc
import GhostCore
import GhostProtocol
import GhostStore

/// The event loop, Redis style and single-threaded for everything the rules
/// and the store see: epoll reports what is ready; each connection's lines
/// are read, framed (by the I/O threads with `--io-threads`) and served by
/// the lobby within their budgets; the turn's writes are committed once; then
/// every reply the commit covers is written (by the I/O threads too).
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
            if let d = acceptPausedUntil { deadline = min(deadline, d) }
            if let d = nextWake { deadline = min(deadline, d) }
            if let d = lingering.nextDeadline { deadline = min(deadline, d) }
            if !tlsBuffered.isEmpty || !deferred.isEmpty { deadline = now }
            let timeout = Int32(max(0, min(3_600_000, ((deadline - monotonicSeconds()) * 1000).rounded(.up))))
            let n = ghost_epoll_wait(epfd, &datas, &events, Int32(maxEvents), timeout)
            if n < 0 {
                if errno == EINTR { continue }
                let text = "epoll_wait failed: \(errnoText())"
                log(text)
                stop = .failure(text)
                break
            }
            now = monotonicSeconds()
            turnNumber &+= 1
            turnStart = now
            servedThisTurn = 0
            for i in 0..<Int(n) {
                let data = datas[i], ev = events[i]
                switch data {
                case 0: acceptClients()
                case Server.tlsListenerTag: acceptClients(tls: true)
                case 1: handleSignal()
                case 2: synced()
                case Server.hashEventData: passwordsChecked()
                case Server.handshakeEventData: handshakesDone()
                default:
                    guard let conn = table[Int(data)] else {
                        linger(ConnectionID(truncatingIfNeeded: data))
                        continue
                    }
                    if conn.tls != nil, tlsEvent(conn, ev) { continue }
                    if conn.closeAfterFlush, ev & UInt32(GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 {
                        // Closing, and the peer is gone too: nothing left to write to.
                        conn.dropReason = conn.dropReason ?? conn.closeReason
                        table.markDirty(conn)
                        continue
                    }
                    if conn.closeAfterFlush, !conn.halfClosed, ev & UInt32(GHOST_EPOLLRDHUP) != 0 {
                        // Closing, and the client shut its side: it still gets its last replies.
                        conn.halfClosed = true
                        setInterest(conn)
                    }
                    if ev & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 {
                        // One readable connection and none waiting (a game in
                        // lock step): no order to choose; read it at once.
                        if n == 1, deferred.isEmpty { readFrom(conn) } else { noteReady(conn) }
                    }
                    if ev & UInt32(GHOST_EPOLLOUT) != 0, conn.dropReason == nil { table.markDirty(conn) }
                }
            }
            if !ready.isEmpty || !deferred.isEmpty { serveReady() }
            if !tlsBuffered.isEmpty { readBuffered() }
            if let until = acceptPausedUntil, now >= until { resumeAccepting() }
            if let wake = nextWake, now >= wake { wakeHeld() }
            if let d = lingering.nextDeadline, now >= d { for fd in lingering.expire(now: now) { closeLingering(fd) } }
            if now >= nextSweep { sweep() }
            lobby.tick()
            guard commit() else { break }
            endOfTurn()
            logBuffer.flush()
        }
        let reason = stop ?? .failure("stopped")
        if case .storeFailure = reason {
            abandon()
        } else {
            shutdown()
        }
        logBuffer.flush()
        return reason
    }

    // MARK: Loop steps

    /// Once a second: close connections past their time limits.
    private func sweep() {
        nextSweep = now + 1
        budgets.prune(now: now)
        ioThreads?.checkCPUs()
        for conn in table.connections.values where conn.dropReason == nil {
            if conn.handshaking {
                if now - conn.openedAt > config.tlsHandshakeTimeout {
                    handshakeFailed(conn, "not finished within \(Server.figure(config.tlsHandshakeTimeout)) s")
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

    private func pauseAccepting() {
        guard acceptPausedUntil == nil else { return }
        acceptPausedUntil = now + config.acceptBackoff
        _ = ghost_epoll_remove(epfd, listenFD)
        if tlsListenFD >= 0 { _ = ghost_epoll_remove(epfd, tlsListenFD) }
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        _ = ghost_epoll_add(epfd, listenFD, UInt32(GHOST_EPOLLIN), 0)
        if tlsListenFD >= 0 { _ = ghost_epoll_add(epfd, tlsListenFD, UInt32(GHOST_EPOLLIN), Server.tlsListenerTag) }
        acceptClients()
        if tlsListenFD >= 0 { acceptClients(tls: true) }
    }

    /// Accepts the clients waiting on the plain port, or on the TLS port:
    /// those become sessions once their handshake is done (`beginTLS`).
    private func acceptClients(tls: Bool = false) {
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
                    pauseAccepting()
                    return
                }
            }
            let peerText = String(decoding: peer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let refusal = refusal(network: NetworkKey.of(Connection.address(of: peerText))) {
                turnAway(fd, refusal, tls: tls)
                continue
            }
            ghost_tune_socket(fd)
            _ = ghost_set_send_buffer(fd, Int32(clamping: config.sendBufferBytes))
            let id = nextID
            nextID += 1
            let conn = Connection(id: id, fd: fd, peer: peerText, now: now)
            admission.opened(conn.network)
            guard ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(id)) == 0 else {
                Glibc.close(fd)
                continue
            }
            table.connections[id] = conn
            if tls {
                beginTLS(conn)
                continue
            }
            stats.connectionsTotal += 1
            log("connection \(id) opened from \(peerText)")
            greet(conn)
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

    /// Answers a client that cannot be served with `BYE full <text>`, and closes it.
    /// (On the TLS port it is closed without a word: a line in clear would
    /// mean nothing to a TLS client.)
    private func turnAway(_ fd: Int32, _ text: String, tls: Bool = false) {
        var bytes: [UInt8] = []
        ServerLine.bye(.full, text).appendWire(to: &bytes)
        if !tls { _ = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) } }
        Glibc.close(fd)
        stats.closed[ByeCode.full.rawValue, default: 0] += 1
    }

    private func handleSignal() {
        while true {
            let sig = ghost_signalfd_read(signalFD)
            if sig == 0 { return }
            if sig == SIGHUP {
                reloadTLS()
                continue
            }
            log("signal \(sig): shutting down")
            _ = ghost_notify("STOPPING=1")   // the service manager (systemd's Type=notify)
            stop = .signal(Int32(sig))
        }
    }

    /// Commits this turn's changes before any reply that confirms them is
    /// sent: a client may only ever see acknowledged what is on disk. If the
    /// commit fails, the store has rolled the turn back; its replies are
    /// withdrawn, each of its commands is answered `ERR store-failed`, and the
    /// lobby reloads the games from the store and sends their state again.
    /// Only if the lobby cannot do that (the store cannot even be read) does
    /// the loop stop, without sending anything unconfirmed.
    ///
    /// With `--durability full` the commit does not wait for the disk: the
    /// syncer thread fdatasyncs the WAL while the loop goes on with the next
    /// turn, and `seal` holds this turn's replies until then.
    private func commit() -> Bool {
        if lobby.storeError == nil {
            do {
                let started = monotonicSeconds()
                let wrote = store.hasPendingWrites
                try store.commit()
                if wrote { committedWrites(startedAt: started) }
                table.committed()
                lobby.committed()
            } catch {
                log("cannot commit to \(store.path): \(error); the turn is rolled back and its replies withdrawn")
                lobby.recoverLostTurn(withdrawn: table.discardTurn())
                // The states sent again confirm nothing new: no later lost turn may take them back.
                table.committed()
            }
        }
        if let failure = lobby.storeError {
            log("the database cannot be used: \(failure); stopping without sending unconfirmed replies")
            stop = .storeFailure("\(failure)")
            return false
        }
        seal()
        return true
    }

    /// A new generation is committed; without a syncer it is on disk already.
    private func committedWrites(startedAt started: Double) {
        let generation = generations.wrote(startedAt: started, synced: syncer == nil)
        guard let syncer else {
            stats.committed(seconds: monotonicSeconds() - started)
            return
        }
        ghost_syncer_request(syncer, generation,
                             Int32(store.lastCommitWrote == .journal ? GHOST_SYNC_JOURNAL : GHOST_SYNC_WAL))
    }

    /// What each connection has queued so far may be sent once the newest
    /// commit is on disk: at once if it is, else when the syncer says so.
    /// A turn that wrote nothing waits too if an earlier one is still
    /// syncing: its replies may show what that one changed, and they must
    /// not overtake that one's replies. Replies that show nothing a commit
    /// changed (`Connection.revealing` false: PING, HELP, STATS, an `ERR`)
    /// go at once when nothing queued before them on their connection still
    /// waits (a PING waited for a write flood's syncs).
    private func seal() {
        // Connections written to this turn are dirty; in `endOfTurn` the
        // ones being flushed have left `dirty` for `flushing`. (Two loops,
        // not a loop over `[dirty, flushing]`: that array would be built at
        // every commit.)
        for conn in table.dirty { generations.seal(conn) }
        for conn in flushing { generations.seal(conn) }
    }

    /// The syncer woke the loop: release the replies of every generation now
    /// on disk. A failed sync leaves the durability of every later commit
    /// unknown, so the daemon stops without sending their replies, as
    /// PostgreSQL does after a failed fsync.
    private func synced() {
        guard let syncer else { return }
        var error: Int32 = 0
        let generation = ghost_syncer_synced(syncer, &error)
        if error != 0 {
            let text = "cannot sync \(store.walPath): \(String(cString: strerror(error)))"
            log("\(text); stopping without sending unconfirmed replies")
            stop = .storeFailure(text)
            return
        }
        release(upTo: generation)
    }

    private func release(upTo generation: UInt64) {
        let table = self.table
        generations.release(upTo: generation, at: monotonicSeconds(), isOpen: { table[$0.id] === $0 },
                            released: { table.markDirty($0) }, commitSeconds: { stats.committed(seconds: $0) })
    }

    /// Waits for every commit to reach the disk (when stopping): true when
    /// they have, and their replies may be sent.
    private func settleSyncs() -> Bool {
        guard let syncer else { return true }
        var error: Int32 = 0
        let generation = ghost_syncer_wait(syncer, generations.committed, &error)
        guard error == 0 else {
            log("cannot sync \(store.walPath): \(String(cString: strerror(error)))")
            return false
        }
        release(upTo: generation)
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
            if let ioThreads, flushing.count >= IOThreads.minimumJobs {
                // The sends, on the I/O threads; what follows them stays here.
                for conn in flushing where conn.dropReason == nil && conn.tls == nil && conn.sendableOutput > 0 {
                    writeQueue.append(conn)
                }
                ioThreads.run(.write, writeQueue)
                writeQueue.removeAll(keepingCapacity: true)
            }
            for conn in flushing where conn.dropReason == nil { flush(conn) }   // a disconnect sets dropReason
            // A few: `removeLast` one by one, Array's fast path (`removeAll`
            // is the generic replaceSubrange, 157 instructions a turn).
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

    /// Writes what the socket takes without blocking; nil, or why writing failed.
    private func writeOut(_ conn: Connection) -> String? {
        while conn.sendableOutput > 0 {
            let sent = conn.output.withUnsafeBytes { buf in
                transmit(conn, buf.baseAddress.map { $0 + conn.written }, conn.sendableOutput)
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

    private func flush(_ conn: Connection) {
        var failure: String?
        if conn.sentByThread {
            conn.sentByThread = false
            if conn.ioError != 0 { failure = "write error: \(String(cString: strerror(conn.ioError)))" }
        } else {
            failure = writeOut(conn)
        }
        if let failure {
            disconnect(conn, reason: failure)
            return
        }
        if conn.pendingOutput == 0 {
            conn.trimSent(all: true)
            if conn.closeAfterFlush {
                // Its BYE is written: it lingers, so that the kernel does not reset it under the BYE.
                disconnect(conn, reason: conn.closeReason, linger: true)
                return
            }
        } else if conn.mayBeOverLimit(config.maxOutputBytes), conn.pendingOutput + unsentInKernel(conn) > config.maxOutputBytes {
            table.overflowed(conn)
            if let reason = conn.dropReason { disconnect(conn, reason: reason) }
            return
        } else if conn.written > 64 * 1024 {
            conn.trimSent(all: false)
        }
        // A closing connection is not read any more: stop asking for input,
        // or level-triggered epoll would wake the loop for it every turn.
        setInterest(conn)
    }

    /// What the kernel still holds of the connection's replies (SIOCOUTQ):
    /// the replies it has unread count whether they wait in ghostd or in the
    /// socket's send buffer. Asked only when it could matter
    /// (`Connection.mayBeOverLimit`).
    private func unsentInKernel(_ conn: Connection) -> Int {
        ghost_unsent_bytes(conn.fd)
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
            _ = writeOut(conn)
        }
        if inSession {
            lobby.disconnected(conn.id)
            stats.closed[conn.closedFor?.rawValue ?? "peer", default: 0] += 1
        }
        table.connections[conn.id] = nil
        admission.closed(conn.network, identified: conn.identified)
        held[conn.id] = nil
        if closeWhenHandedBack(conn) { return }   // its handshake's step is on a thread (EventLoop+TLS.swift)
        endTLS(conn)
        if linger, lingering.add(conn.id, fd: conn.fd, now: now) {
            // Under its id still: only its input (and the end of it) wakes the loop.
            _ = ghost_epoll_modify(epfd, conn.fd, UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(conn.id))
        } else {
            _ = ghost_epoll_remove(epfd, conn.fd)
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
        if let fd = lingering.drain(id, into: &readBuffer) { closeLingering(fd) }
    }

    private func closeLingering(_ fd: Int32) {
        _ = ghost_epoll_remove(epfd, fd)
        Glibc.close(fd)
    }

    private func shutdown() {
        // Every client gets BYE shutdown after what is queued for it, written
        // as far as its socket takes it now.
        let text = "the server is stopping; games in progress are kept: RESUME them when it is back"
        let synced = settleSyncs()
        for conn in table.connections.values where conn.dropReason == nil && !conn.handshaking {
            if !synced { conn.dropHeld() }
            table.close(conn.id, .shutdown, text)
            conn.releaseAll()
            _ = writeOut(conn)
        }
        // Games in progress stay in the store as they are: players RESUME them
        // after a restart. Closing sockets here must not adjourn them again.
        closeEverything(reason: ConnectionTable.reason(.shutdown, text))
        // The last moment it ran: the time until the next start is an outage (Lifecycle.recordStart).
        do {
            try store.markAlive(at: SystemClock.wallSeconds())
            try store.commit()
        } catch { log("cannot commit to \(store.path): \(error)") }
        store.close()
        log("stopped")
    }

    /// The store cannot be used: every connection gets what was confirmed
    /// before this turn, then BYE shutdown, never a line of this turn (it may
    /// confirm changes that are not stored); the open transaction is rolled back.
    private func abandon() {
        table.withdrawTurn()
        let text = "the server cannot use its database and is stopping"
        // Replies of commits that reached the disk go out; after a failed
        // sync, those that wait for it are dropped (a BYE among them too).
        let synced = settleSyncs()
        for conn in table.connections.values where conn.dropReason == nil && !conn.handshaking {
            let byeQueued = table.hasQueuedBye(conn) && (synced || conn.heldOutput == 0)
            if !synced { conn.dropHeld() }
            if !byeQueued { conn.output.append(ServerLine.bye(.shutdown, text)) }
            conn.releaseAll()
            _ = writeOut(conn)
        }
        closeEverything(reason: ConnectionTable.reason(.shutdown, text))
        store.rollback()
        store.close()
        log("stopped")
    }

    private func closeEverything(reason: String) {
        stopHandshakes()
        for conn in Array(table.connections.values) {
            let inSession = !conn.handshaking
            endTLS(conn)
            _ = ghost_epoll_remove(epfd, conn.fd)
            // The end of the stream after its BYE, and the input it has sent
            // so far thrown away, so that the close does not reset it under
            // the BYE (stopping does not wait for it to linger).
            _ = ghost_shutdown_write(conn.fd)
            for _ in 0..<4 where readBuffer.withUnsafeMutableBytes({ Glibc.read(conn.fd, $0.baseAddress, $0.count) }) > 0 {}
            Glibc.close(conn.fd)
            if inSession { log("connection \(conn.id) closed: \(reason)") }
        }
        tlsBuffered.removeAll()
        for fd in lingering.removeAll() { Glibc.close(fd) }
        table.connections.removeAll()
        table.dirty.removeAll()
        if listenFD >= 0 { Glibc.close(listenFD) }
        if tlsListenFD >= 0 { Glibc.close(tlsListenFD) }
        tlsListenFD = -1
        if epfd >= 0 { Glibc.close(epfd) }
        if signalFD >= 0 { Glibc.close(signalFD) }
        listenFD = -1
        epfd = -1
        signalFD = -1
        if let syncer { ghost_syncer_stop(syncer) }
        syncer = nil
        hashPool?.stop()
        hashPool = nil
        ioThreads?.stop()
        ioThreads = nil
    }
}
