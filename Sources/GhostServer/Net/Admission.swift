/// Who may connect: the counts a new connection is measured against
/// (connections per network, connections without NAME or RESUME in all and
/// per network, new connections per network per second) and the refusal a
/// newcomer over one of them gets. Kept apart from the loop, which tells it
/// of each connection opened, identified and closed, so that its rules can
/// be tested without sockets (AdmissionTests). A class: `refusal` may
/// close another connection (its `makeRoom`), which tells this of the close
/// while it asks.
final class Admission {
    /// The limits (`--max-clients`, `--max-clients-per-ip`, `--max-unnamed`,
    /// `--max-unnamed-per-ip`; 0 is no limit but for `maxClients`).
    let maxClients: Int
    let maxPerNetwork: Int
    let maxUnnamed: Int
    let maxUnnamedPerNetwork: Int
    /// `--connects-per-second-per-ip`, for the refusal's text.
    let connectsPerSecond: Double
    /// New connections per network per second.
    private var connects: TokenBuckets
    /// Connections open from each network (`NetworkKey`).
    private(set) var perNetwork: [String: Int] = [:]
    /// Connections that have not sent NAME or RESUME, in all and per network.
    private(set) var unnamed = 0
    private(set) var unnamedPerNetwork: [String: Int] = [:]

    init(maxClients: Int, maxPerNetwork: Int, maxUnnamed: Int, maxUnnamedPerNetwork: Int,
         connectsPerSecond: Double, connectBurst: Double) {
        self.maxClients = maxClients
        self.maxPerNetwork = maxPerNetwork
        self.maxUnnamed = maxUnnamed
        self.maxUnnamedPerNetwork = maxUnnamedPerNetwork
        self.connectsPerSecond = connectsPerSecond
        connects = TokenBuckets(perSecond: connectsPerSecond, burst: connectBurst)
    }

    /// Why a new connection from `network` cannot be served (`BYE full
    /// <text>`), or nil, with `clients` open now. At the cap of unnamed
    /// connections `makeRoom` may close another network's (it says whether
    /// there is room then). A connection let in takes one of its network's
    /// connects this second.
    /// `byNetwork` false: only the server's caps (a `--trusted-proxy`'s
    /// connection, counted by its client's network once its request says
    /// which: WebPort.swift).
    func refusal(network: String, clients: Int, at now: Double, byNetwork: Bool = true, makeRoom: () -> Bool) -> String? {
        if clients >= maxClients {
            return "the server has its maximum of \(maxClients) clients; try again later"
        }
        if !byNetwork {
            return maxUnnamed > 0 && unnamed >= maxUnnamed && !makeRoom()
                ? "too many connections without NAME or RESUME (at most \(maxUnnamed)); try again later" : nil
        }
        if maxPerNetwork > 0, perNetwork[network, default: 0] >= maxPerNetwork {
            return "too many connections from \(network) (at most \(maxPerNetwork))"
        }
        if maxUnnamed > 0, unnamed >= maxUnnamed, !makeRoom() {
            return "too many connections without NAME or RESUME (at most \(maxUnnamed)); try again later"
        }
        if maxUnnamedPerNetwork > 0, unnamedPerNetwork[network, default: 0] >= maxUnnamedPerNetwork {
            return "too many connections from \(network) without NAME or RESUME (at most \(maxUnnamedPerNetwork))"
        }
        if connects.take(network, at: now) != nil {
            return "too many new connections from \(network) (at most \(Server.figure(connectsPerSecond)) a second); try again later"
        }
        return nil
    }

    /// At the cap of unnamed connections, a newcomer from `network`: the
    /// network one of whose unnamed connections should make room, the one
    /// that holds the most of them, if it holds more than `network` would
    /// with the newcomer (so that no set of networks can keep everyone else
    /// out by holding the cap); nil: none should.
    func networkToMakeRoom(for network: String) -> String? {
        let mine = unnamedPerNetwork[network, default: 0]
        guard let (victim, most) = unnamedPerNetwork.max(by: { $0.value < $1.value }), most > mine + 1 else { return nil }
        return victim
    }

    /// Whether the unnamed connections are under their cap (or it is off).
    var roomForUnnamed: Bool { maxUnnamed == 0 || unnamed < maxUnnamed }

    /// A connection from `network` was let in: unnamed until NAME or RESUME.
    func opened(_ network: String) {
        perNetwork[network, default: 0] += 1
        unnamed += 1
        unnamedPerNetwork[network, default: 0] += 1
    }

    /// It sent NAME or RESUME.
    func identified(_ network: String) {
        unnamed -= 1
        Admission.decrement(&unnamedPerNetwork, network)
    }

    /// It closed (`identified`: it had sent NAME or RESUME).
    func closed(_ network: String, identified: Bool) {
        Admission.decrement(&perNetwork, network)
        if !identified { self.identified(network) }
    }

    /// A connection from a trusted proxy now known to carry a client at
    /// `address` (its `X-Forwarded-For`, or a PROXY line): it counts by that
    /// client's network from now on; the refusal's text if that network may
    /// not open one more connection (it then still counts as before).
    /// `capped` false: counted there whatever its caps say (a trusted
    /// balancer's connection, not yet named, as at accept).
    func readdress(_ conn: Connection, to address: String, clients: Int, at now: Double, capped: Bool = true) -> String? {
        let network = NetworkKey.of(address)
        guard network != conn.network else {
            conn.ip = address
            return nil
        }
        if capped, let refusal = refusal(network: network, clients: clients, at: now, makeRoom: { false }) { return refusal }
        closed(conn.network, identified: false)
        opened(network)
        conn.ip = address
        conn.network = network
        return nil
    }

    private static func decrement(_ counts: inout [String: Int], _ key: String) {
        if let n = counts[key] { counts[key] = n > 1 ? n - 1 : nil }
    }
}
