import Dispatch
import Glibc
import GhostStore
import Synchronization

/// The store out of reach: PostgreSQL did not come back within
/// `--store-reconnect-wait` after a failed write. The server goes on
/// serving instead of stopping (RecoveryDesk's `outage`):
///
/// - every command but PING, HELP, STATS and QUIT (those that show nothing
///   stored, `CommandFlags.revealsNothing`) is answered `ERR store-failed`
///   with `refusedText`, so nothing is done that could not be stored;
/// - no clock runs out, no computer plays and no presence is told
///   meanwhile (the lobby's `tick` waits);
/// - every connection is told once (`announcement`);
/// - a thread tries to connect once a second (`StoreProbe`), never the loop,
///   which only looks at what it found (`isBack`) once a second;
/// - once the store answers, the games in memory are put back as stored (as
///   after a lost turn) with their players seated, their clocks moved on by
///   the outage's length, each player is sent its game's state again, and
///   everyone is told (`endText`).
final class StoreOutage: Sendable {
    /// When it began (monotonic seconds), kept across a probe that found the
    /// server but a read that failed again.
    let since: Double
    /// Set by the probe's thread: the server took a connection.
    private let found = Atomic<Bool>(false)
    /// Set by the loop: the probe's thread may stop.
    private let stopped = Atomic<Bool>(false)

    /// `ERR store-failed`'s text while the store is out of reach.
    static let refusedText = "the server cannot reach its database; only PING, HELP, STATS and QUIT are served until it is back"
    /// Told to every connection once the outage begins.
    static let announcement = "The server cannot reach its database. Games wait as they were last stored, with their clocks stopped; commands other than PING, HELP, STATS and QUIT get ERR store-failed until it is back."
    /// Told to every connection once it ends.
    static let endText = "The server's database is back: play on."
    /// How often the probe tries, and the loop looks.
    static let probeSeconds = 1.0

    /// Whether every connection has been told (in a turn of its own, the
    /// loop's next tick: the turn that failed is withdrawn).
    var announced: Bool { announcedFlag.load(ordering: .relaxed) }
    private let announcedFlag = Atomic<Bool>(false)
    func markAnnounced() { announcedFlag.store(true, ordering: .relaxed) }

    init(since: Double, probe: StoreProbe, announced: Bool = false) {
        self.since = since
        announcedFlag.store(announced, ordering: .relaxed)
        // The thread holds the outage until it finds the server or is stopped.
        DispatchQueue.global(qos: .utility).async { [self] in
            while !stopped.load(ordering: .relaxed) {
                if probe.reachable() {
                    found.store(true, ordering: .releasing)
                    return
                }
                usleep(UInt32(StoreOutage.probeSeconds * 1_000_000))
            }
        }
    }

    /// Whether the probe found the server taking connections again.
    var isBack: Bool { found.load(ordering: .acquiring) }

    /// The probe's thread stops at its next try (the loop calls it whenever
    /// it lets an outage go).
    func stop() { stopped.store(true, ordering: .relaxed) }
}
