import CGhostSys
import Glibc
import GhostStore

/// Commit before reply: each turn's writes are committed once, before any
/// reply that confirms them is sent; with `--durability full` the WAL
/// syncer thread (pipelined group commit) fdatasyncs each commit while the
/// loop goes on, and the replies of a commit wait for its sync
/// (CommitGenerations.swift). A client may only ever see acknowledged what
/// is on disk.
final class CommitSync {
    /// epoll's data for the syncer's eventfd.
    static let syncerTag: UInt64 = 2

    private let store: Store
    private let lobby: Lobby
    private let table: ConnectionTable
    private let stats: ServerStats
    private let epoll: Epoll
    private let log: (String) -> Void
    /// The WAL syncer, with `--durability full`.
    private var syncer: OpaquePointer?
    /// Commits that wrote, and the replies that wait for their sync.
    private var generations = CommitGenerations()

    init(store: Store, lobby: Lobby, table: ConnectionTable, stats: ServerStats, epoll: Epoll,
         log: @escaping (String) -> Void) {
        self.store = store
        self.lobby = lobby
        self.table = table
        self.stats = stats
        self.epoll = epoll
        self.log = log
    }

    /// Starts the syncer thread if the store leaves syncing to its caller.
    func start() throws {
        guard store.callerSyncs else { return }
        var err = [CChar](repeating: 0, count: 256)
        guard let s = ghost_syncer_start(store.walPath, store.journalPath, store.directory, &err, Int32(err.count)) else {
            throw Server.StartError.system(Server.text(err))
        }
        syncer = s
        guard ghost_epoll_add(epoll.fd, ghost_syncer_eventfd(s), UInt32(GHOST_EPOLLIN), CommitSync.syncerTag) == 0 else {
            throw Server.StartError.system("epoll_ctl: \(errnoText())")
        }
    }

    /// Whether the last `commit` lost its turn (the store rolled it back).
    private(set) var lostTurn = false
    /// The newest commit that wrote, and the newest on disk: an operator's
    /// reply waits for its turn's (OperatorInbox.swift).
    var committedGeneration: UInt64 { generations.committed }
    var durableGeneration: UInt64 { generations.durable }

    /// Syncs done by the syncer (STATS `syncs`).
    var syncCount: UInt64 { syncer.map { ghost_syncer_count($0) } ?? 0 }

    /// Commits this turn's changes before any reply that confirms them is
    /// sent. If the commit fails, the store has rolled the turn back; its
    /// replies are withdrawn, each of its commands is answered `ERR
    /// store-failed`, and the lobby reloads the games from the store and
    /// sends their state again. Only if the lobby cannot do that (the store
    /// cannot even be read) must the loop stop, without sending anything
    /// unconfirmed: that is returned, else nil.
    ///
    /// With `--durability full` the commit does not wait for the disk: the
    /// syncer fdatasyncs the WAL while the loop goes on with the next turn,
    /// and `seal` holds this turn's replies until then. `flushing`: the
    /// connections being flushed (they have left the table's dirty list).
    func commit(flushing: [Connection]) -> Server.Stop? {
        lostTurn = false
        if lobby.storeError == nil {
            do {
                let started = monotonicSeconds()
                let wrote = store.hasPendingWrites
                try store.commit()
                if wrote { committedWrites(startedAt: started) }
                table.committed()
                lobby.committed()
            } catch {
                lostTurn = true
                log("cannot commit to \(store.path): \(error); the turn is rolled back and its replies withdrawn")
                if store.isFenced {
                    log("another node took the lease: this node's writes are refused (the fence); stopping without sending unconfirmed replies")
                    return .leaseLost("\(error)")
                }
                lobby.recoverLostTurn(withdrawn: table.discardTurn())
                // The states sent again confirm nothing new: no later lost turn may take them back.
                table.committed()
            }
        }
        if let failure = lobby.storeError {
            log("the database cannot be used: \(failure); stopping without sending unconfirmed replies")
            return .storeFailure("\(failure)")
        }
        seal(flushing)
        return nil
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
    private func seal(_ flushing: [Connection]) {
        // Connections written to this turn are dirty; in the loop's
        // `endOfTurn` the ones being flushed have left `dirty` for
        // `flushing`. (Two loops, not a loop over `[dirty, flushing]`: that
        // array would be built at every commit.)
        for conn in table.dirty { generations.seal(conn) }
        for conn in flushing { generations.seal(conn) }
    }

    /// The syncer woke the loop: release the replies of every generation now
    /// on disk. A failed sync leaves the durability of every later commit
    /// unknown, so the daemon must stop without sending their replies, as
    /// PostgreSQL does after a failed fsync: that is returned, else nil.
    func synced() -> Server.Stop? {
        guard let syncer else { return nil }
        var error: Int32 = 0
        let generation = ghost_syncer_synced(syncer, &error)
        if error != 0 {
            let text = "cannot sync \(store.walPath): \(String(cString: strerror(error)))"
            log("\(text); stopping without sending unconfirmed replies")
            return .storeFailure(text)
        }
        release(upTo: generation)
        return nil
    }

    private func release(upTo generation: UInt64) {
        let table = self.table, stats = self.stats
        generations.release(upTo: generation, at: monotonicSeconds(), isOpen: { table[$0.id] === $0 },
                            released: { table.markDirty($0) }, commitSeconds: { stats.committed(seconds: $0) })
    }

    /// Waits for every commit to reach the disk (when stopping): true when
    /// they have, and their replies may be sent.
    func settle() -> Bool {
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

    /// Stopping: the syncer thread ends.
    func stop() {
        if let syncer { ghost_syncer_stop(syncer) }
        syncer = nil
    }
}
