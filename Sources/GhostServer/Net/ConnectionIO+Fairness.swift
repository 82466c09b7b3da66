import GhostProtocol

/// Fair serving across networks (200 connections from
/// 40 addresses, each network inside its budget, held a probe's PING 112–271
/// ms, because a loop turn served every ready network's expensive lines, in
/// epoll's order, before a quiet network's one line).
///
/// Each turn the readable connections, and those whose lines waited from the
/// last turn, are served in the order of what their networks spent lately
/// (their budget clocks' lead, `Budgets`), the least first, then their own;
/// and a turn serves lines for at most `--turn-slice` of loop time. Past it,
/// a connection's framed lines wait for the next turn (`deferred`, served
/// first then, in the same order), and a readable connection not read yet
/// is left to epoll, which reports it again (the loop is level-triggered).
/// So a quiet network's line waits at most for the slice in progress, the
/// commit and the writes, never behind a turn of everyone's work.
extension ConnectionIO {
    /// epoll says the connection is readable (or hung up): it is read and
    /// served in `serveReady`, in fair order.
    func noteReady(_ conn: Connection) {
        conn.readable = true
        guard conn.readyTurn != turnNumber else { return }
        conn.readyTurn = turnNumber
        ready.append(conn)
    }

    /// Whether this turn's slice of serving time is spent. Never before a
    /// turn has served a line: each turn makes progress, however small the slice.
    var sliceSpent: Bool {
        config.turnSlice > 0 && servedThisTurn > 0 && monotonicSeconds() - turnStart >= config.turnSlice
    }

    /// The connection's framed lines wait for the next turn.
    func deferToNextTurn(_ conn: Connection) {
        stats.deferred += 1
        deferred.append(conn)
    }

    /// Reads and serves this turn's readable connections and last turn's
    /// deferred ones, the networks that spent least first, until the slice
    /// is spent.
    func serveReady() {
        if !deferred.isEmpty {
            for conn in deferred where conn.readyTurn != turnNumber {
                conn.readyTurn = turnNumber
                ready.append(conn)
            }
            deferred.removeAll(keepingCapacity: true)
        }
        // (`--turn-slice 0`: in the kernel's order, every ready line in one turn.)
        if ready.count > 1, config.turnSlice > 0 { sortFairly() }
        // Too few for the threads to pay (a game in lock step): read at once, as with one thread.
        queueReads = ioThreads != nil && ready.count >= IOThreads.minimumJobs
        for conn in ready {
            let readable = conn.readable
            conn.readable = false
            // Dropped meanwhile (a newcomer's room, a line of another): its
            // input is ignored; one closed already has its `dropReason` too.
            guard conn.dropReason == nil else { continue }
            if conn.hasPending, !inputWaits(conn) {
                // Lines left from the last turn: before anything more is read.
                if sliceSpent { deferToNextTurn(conn); continue }
                serve(conn)
                if conn.hasPending { continue }   // deferred again, or held
                setInterest(conn)
                if !conn.isPlain { noteBuffered(conn) }
            }
            guard readable else { continue }
            // Not read this turn: epoll reports it again (a held one, or one
            // waiting for a password, is read at once: that read is a hang-up).
            if sliceSpent, !inputWaits(conn) { continue }
            readOrQueue(conn)
        }
        // A few: `removeLast` one by one, Array's fast path (`removeAll` is
        // the generic replaceSubrange, on every turn of the loop).
        if ready.count <= 16 {
            while !ready.isEmpty { ready.removeLast() }
        } else {
            ready.removeAll(keepingCapacity: true)
        }
        if !readQueue.isEmpty { readQueued() }
        queueReads = false
    }

    /// The least spent first: by the network's budget clock, then the connection's own.
    private func sortFairly() {
        let at = now
        var keyed = ready.map { (network: budgets.lead(ofNetwork: $0.network, now: at), own: $0.penalty.lead(at), conn: $0) }
        keyed.sort { $0.network != $1.network ? $0.network < $1.network : $0.own < $1.own }
        for i in keyed.indices { ready[i] = keyed[i].conn }
    }
}
