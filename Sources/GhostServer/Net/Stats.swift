import Glibc

/// The event loop's figures for STATS (Protocol.md §3, "STATS"): counters
/// since the start, and the latency of the last commits. Everything here is
/// O(1) to update; a STATS reply sorts at most `ServerStats.window` numbers.
final class ServerStats {
    static let window = 1024

    let startedAt: Double
    var connectionsTotal = 0
    /// TLS sessions open now (past their handshake), and handshakes that failed or timed out.
    var tlsOpen = 0
    var tlsHandshakesFailed = 0
    /// WebSocket sessions open now, and HTTP requests answered on the web ports (upgrades too).
    var webOpen = 0
    var webRequests = 0
    /// Connections closed, by the code of their BYE (`peer`: the client closed
    /// or its socket failed; `full` counts those turned away at accept).
    var closed: [String: Int] = [:]
    var commits = 0
    /// Times a connection's input was held for its own budget, and for its network's.
    var throttled = 0
    var paused = 0
    /// Lines served, and times a connection's lines waited for the next
    /// turn because the turn's `--turn-slice` was spent.
    var served = 0
    var deferred = 0
    /// Connections open now that a relay brought, by the node they came in
    /// through (`Connection.entryNode`), and their sum: O(1) per open and close.
    private var relayedBy: [String: Int] = [:]
    private(set) var relayedTotal = 0
    /// Microseconds of the last `window` commits, as a ring.
    private var commitMicros: [Double] = []
    private var next = 0

    init(startedAt: Double) { self.startedAt = startedAt }

    func committed(seconds: Double) {
        commits += 1
        if commitMicros.count < ServerStats.window {
            commitMicros.append(seconds * 1_000_000)
        } else {
            commitMicros[next] = seconds * 1_000_000
            next = (next + 1) % ServerStats.window
        }
    }

    /// The `p`-th percentile (0–1) of the recent commits, in whole microseconds (0 with none).
    func commitPercentile(_ p: Double) -> Int {
        guard !commitMicros.isEmpty else { return 0 }
        let sorted = commitMicros.sorted()
        let i = min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))
        return Int(sorted[i].rounded())
    }

    /// A relay's connection is its client's from now on, which came in through `node`.
    func entered(_ conn: Connection, through node: String) {
        guard conn.entryNode == nil else { return }
        conn.entryNode = node
        relayedBy[node, default: 0] += 1
        relayedTotal += 1
    }

    /// A connection closes: no longer counted by its entry node.
    func left(_ conn: Connection) {
        guard let node = conn.entryNode else { return }
        conn.entryNode = nil
        relayedTotal -= 1
        let left = relayedBy[node, default: 1] - 1
        relayedBy[node] = left > 0 ? left : nil
    }

    /// Connections open now that came in through `node` by a relay.
    func relayed(through node: String) -> Int { relayedBy[node, default: 0] }

    /// The resident set, from /proc/self/statm (0 if unreadable).
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        let fields = buffer[..<n].split(separator: 0x20)
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The size of a file (0 if it does not exist).
    static func fileBytes(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
