import CGhostSys
import Dispatch
import Glibc
import GhostStore
import Synchronization

/// This node's part in a cluster of ghostd nodes on one PostgreSQL state
/// (issue #49, docs/cluster.md): the node that holds the lease
/// (`ClusterLease`) serves; every other one waits as a standby, its ports
/// carrying their clients to the leader, and takes over once the lease lapses.
///
/// - `await` blocks the start until this node leads (a standby meanwhile,
///   told once in the log), before the store is opened: only the leader
///   migrates the schema and restores the games in progress.
/// - Leading, a thread of its own renews the lease every third of
///   `--lease-seconds` on the lease's own connection (never the loop's: a
///   busy turn does not cost the lead, nor does a renewal wait for a turn).
///   If the row shows another node's epoch, `isLost` turns true, and the
///   loop stops at its next sweep without sending anything unconfirmed; its
///   writes failed already (the store's fence).
/// - A clean stop lets the lease lapse (`release`): a standby takes over in
///   a fifth of a second instead of waiting out the rest.
final class Leadership: @unchecked Sendable {
    /// How often a standby tries to take the lease.
    static let pollSeconds = 0.2

    let epoch: Int
    /// The cluster's secret relays name themselves with (`RelayLine`).
    let secret: String
    private let lease: ClusterLease
    private let lock = Mutex(())
    private let lost = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// The last count of the nodes alive (`liveNodes`).
    private let nodes = Atomic<Int>(1)

    private init(lease: ClusterLease, epoch: Int, secret: String) {
        self.lease = lease
        self.epoch = epoch
        self.secret = secret
    }

    /// Blocks until this node holds the lease, and returns its hold, renewed
    /// from then on; nil if SIGTERM or SIGINT came first (a standby stopped).
    /// A standby logs who leads once, and again when that changes.
    /// `makeRelay`: this node's ports (plain, and TLS and web as configured),
    /// carrying their clients to the leader meanwhile (`StandbyRelay`), opened once the lease is found held by
    /// another (a node that leads at once never listens before it is ready).
    static func await(_ lease: ClusterLease, makeRelay: () -> StandbyRelay?, log: (String) -> Void) -> Leadership? {
        var relay: StandbyRelay?
        var relayTried = false
        // The stopping signals, read between tries (the loop's own signalfd comes later).
        let signals = ghost_signalfd_open()
        defer { if signals >= 0 { close(signals) } }
        var told: (node: String, epoch: Int)?
        var unreachable = false
        // After a spell without the store, a lapsed lease is not taken for a
        // whole lease: the leader, alive through a PostgreSQL restart, renews
        // within a tenth of a second of its return (`renewing`) and keeps its
        // players. (Infinite: the store is out of reach now.)
        var graceUntil = 0.0
        while true {
            while signals >= 0, case let signal = ghost_signalfd_read(signals), signal != 0 {
                if signal == SIGTERM || signal == SIGINT {
                    log("stopped while standing by (signal \(signal))")
                    lease.leave()
                    lease.close()
                    return nil
                }
            }
            do {
                if graceUntil.isInfinite {
                    _ = try lease.holder()
                    graceUntil = monotonicSeconds() + lease.seconds
                }
                if monotonicSeconds() >= graceUntil, let epoch = try lease.take() {
                    if let relay {
                        relay.close()
                        if relay.carried > 0 { log("standby: carried \(relay.carried) connection(s) to the leader; they end now") }
                    }
                    if told != nil || unreachable { log("this node leads now (epoch \(epoch)): taking over the games in progress") }
                    let secret = try lease.holder()?.secret ?? ""
                    let leadership = Leadership(lease: lease, epoch: epoch, secret: secret)
                    leadership.renewing()
                    return leadership
                }
                unreachable = false
                if !relayTried {
                    relayTried = true
                    relay = makeRelay()
                }
                let holder = try lease.holder()
                if let holder, told.map({ $0 != (holder.node, holder.epoch) }) ?? true {
                    let text = "standby: node \(holder.node) (\(holder.address)) leads (epoch \(holder.epoch))"
                    log(text + "; this node takes over if its lease lapses (--lease-seconds \(Server.figure(lease.seconds)))")
                    // A standby is up as far as its service manager is concerned
                    // (systemd's Type=notify would otherwise stop it for not starting).
                    _ = ghost_notify("READY=1\nMAINPID=\(getpid())\nSTATUS=\(text)")
                    told = (holder.node, holder.epoch)
                }
                if let relay {
                    let target = holder.flatMap { StandbyRelay.Target(relay: $0.relay, secret: $0.secret) }
                    if let target, target != relay.target, let holder {
                        log("standby: players who connect here are carried to node \(holder.node) at \(holder.relay)")
                    }
                    relay.target = target
                }
            } catch {
                if !unreachable { log("standby: cannot reach the store to take the lease: \(error); trying again") }
                unreachable = true
                graceUntil = .infinity
            }
            if let relay { relay.run(for: pollSeconds) } else { usleep(UInt32(pollSeconds * 1_000_000)) }
        }
    }

    /// Tells the other nodes where this one takes their relays (once its relay port listens).
    func advertise(relay: String) -> Bool {
        lock.withLock { _ in (try? lease.advertise(relay: relay)) ?? false }
    }

    /// The renewal thread: renews every third of the lease, until stopped
    /// or lost (every tenth of a second while PostgreSQL does not answer, so
    /// that the leader renews as soon as it is back, before any standby may
    /// take a lease that lapsed meanwhile: a standby waits a whole lease
    /// first, `await`); and, waking at least once a second, records this
    /// node's heartbeat and counts the nodes alive (`liveNodes`, read by
    /// STATS without a query on the loop).
    private func renewing() {
        let interval = lease.seconds / 3
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var renewedAt = monotonicSeconds()
            var every = interval
            countNodes()
            while !stopped.load(ordering: .relaxed) {
                // Until the next renewal is due, or a heartbeat's second, whichever comes first.
                let due = renewedAt + every - monotonicSeconds()
                usleep(UInt32(max(0.001, min(due, ClusterLease.heartbeatSeconds)) * 1_000_000))
                if monotonicSeconds() - renewedAt >= every {
                    renewedAt = monotonicSeconds()
                    let held: Bool? = lock.withLock { _ in
                        stopped.load(ordering: .relaxed) ? true : try? lease.renew()
                    }
                    if held == false {
                        lost.store(true, ordering: .releasing)
                        return
                    }
                    // nil: PostgreSQL did not answer; the lease may still be ours (the fence decides).
                    every = held == nil ? min(interval, 0.1) : interval
                }
                countNodes()
            }
        }
    }

    /// The nodes of the cluster alive now, the leader included, as the
    /// renewal thread last counted them (STATS `nodes`).
    var liveNodes: Int { max(1, nodes.load(ordering: .relaxed)) }

    /// This node's heartbeat (at most once a second), then the count of the
    /// nodes alive; a failure leaves the last count.
    private func countNodes() {
        let count: Int? = lock.withLock { _ in
            guard !stopped.load(ordering: .relaxed), (try? lease.heartbeat()) == true else { return nil }
            return try? lease.liveNodes()
        }
        if let count { nodes.store(count, ordering: .relaxed) }
    }

    /// Whether another node took the lease: this node must stop.
    var isLost: Bool { lost.load(ordering: .acquiring) }

    /// Stops renewing; with `release`, lets the lease lapse now (a clean stop).
    func stop(release: Bool) {
        lock.withLock { _ in
            stopped.store(true, ordering: .relaxed)
            if release { lease.release() }
            lease.close()
        }
    }

    /// This data folder's id in the lease (`ClusterLease.folder`): made at
    /// the first start on the folder (`node-id`, 32 hex digits), read after.
    /// The folder's lock is held, so a lease with this id is a dead
    /// process's of this folder, taken back at once on a restart.
    static func folderID(_ directory: String) throws -> String {
        let path = directory + "/node-id"
        var bytes = [UInt8](repeating: 0, count: 64)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            let n = read(fd, &bytes, bytes.count)
            close(fd)
            let id = String(decoding: bytes.prefix(max(0, n)).prefix { $0 != 0x0A }, as: UTF8.self)
            if id.utf8.count == 32, id.allSatisfy(\.isHexDigit) { return id }
        }
        var rng = SystemRandomNumberGenerator()
        let id = (0..<4).map { _ in String(rng.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
        // Written whole under another name, then renamed into place.
        let temporary = path + ".tmp"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard out >= 0 else { throw Server.StartError.system("cannot write \(path): \(errnoText())") }
        let line = Array((id + "\n").utf8)
        let written = line.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
        let synced = fsync(out) == 0
        close(out)
        guard written == line.count, synced, rename(temporary, path) == 0 else {
            throw Server.StartError.system("cannot write \(path): \(errnoText())")
        }
        return id
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
