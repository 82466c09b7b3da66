/// Which replies may go, as commits reach the disk: the loop's bookkeeping
/// of "commit before replying" with a syncer thread (`--durability full`),
/// kept apart from the loop so that it can be tested without sockets or a
/// disk (CommitGenerationsTests).
///
/// Each commit that wrote is a generation (1, 2, …). A turn's replies are
/// sealed at its commit: those that may show what a commit changed wait for
/// that generation to be synced; the loop hands the syncer's answers to
/// `release`, which gives back the connections whose replies may now go.
/// Without a syncer a commit is on disk when it returns: every generation is
/// durable at once and nothing waits.
struct CommitGenerations {
    /// Commits that wrote, counted: a turn's replies wait for its generation.
    private(set) var committed: UInt64 = 0
    /// The highest generation on disk.
    private(set) var durable: UInt64 = 0
    /// Replies waiting for a sync: a connection's queued end at a commit,
    /// oldest first (generations only grow), from `awaitingHead`.
    private var awaiting: [(generation: UInt64, conn: Connection, end: Int)] = []
    private var awaitingHead = 0
    /// When each waiting generation's commit started (for the commit latency).
    private var starts: [(generation: UInt64, at: Double)] = []
    private var startsHead = 0

    /// Replies held for a sync, in all (STATS, tests).
    var waiting: Int { awaiting.count - awaitingHead }

    /// A commit wrote: the new generation. `synced`: on disk already (no syncer).
    mutating func wrote(startedAt started: Double, synced: Bool) -> UInt64 {
        committed += 1
        if synced { durable = committed } else { starts.append((committed, started)) }
        return committed
    }

    /// What `conn` has queued since its last seal may go once the newest
    /// commit is on disk: at once if it is; else it waits, unless nothing it
    /// queued may show a commit's change (`revealing` false: PING, HELP, an
    /// `ERR`) and nothing queued before it on the connection still waits, so
    /// a PING does not wait for a write flood's syncs. A turn that wrote
    /// nothing waits too while an earlier one syncs: its replies may show
    /// that one's changes and must not overtake its replies.
    mutating func seal(_ conn: Connection) {
        let revealing = conn.revealing
        conn.revealing = false
        guard conn.queuedEnd > conn.releasedUpTo else { return }
        if durable >= committed || (!revealing && conn.releasedUpTo >= conn.sealedEnd) {
            conn.releasedUpTo = conn.queuedEnd
        } else {
            awaiting.append((committed, conn, conn.queuedEnd))
        }
        conn.sealedEnd = conn.queuedEnd
    }

    /// Generation `generation` (and every one before it) is on disk: the
    /// connections whose replies it releases, each once per release, in
    /// the order they waited (`isOpen` false: closed since, skipped), and
    /// how long each newly durable commit took from its start to `at`.
    mutating func release(upTo generation: UInt64, at: Double, isOpen: (Connection) -> Bool,
                          released: (Connection) -> Void, commitSeconds: (Double) -> Void) {
        guard generation > durable else { return }
        durable = generation
        while startsHead < starts.count, starts[startsHead].generation <= generation {
            commitSeconds(at - starts[startsHead].at)
            startsHead += 1
        }
        if startsHead == starts.count { starts.removeAll(keepingCapacity: true); startsHead = 0 }
        while awaitingHead < awaiting.count, awaiting[awaitingHead].generation <= generation {
            let (_, conn, end) = awaiting[awaitingHead]
            awaitingHead += 1
            guard end > conn.releasedUpTo, isOpen(conn) else { continue }
            conn.releasedUpTo = end
            released(conn)
        }
        if awaitingHead == awaiting.count { awaiting.removeAll(keepingCapacity: true); awaitingHead = 0 }
    }
}
