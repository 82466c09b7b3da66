import Glibc
import GhostStore

/// Settings of the daemon. Every limit is named here with its default.
public struct ServerConfig: Sendable {
    /// Address to listen on: a name, an IPv4 or an IPv6 address.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (printed at start).
    public var port = 7777
    /// TLS port (nil: no TLS; 0 picks a free one, printed at start), with
    /// the PEM certificate chain and private key it presents, and the
    /// seconds a handshake may take before the connection is dropped. The
    /// protocol over TLS is the plain one, byte for byte.
    public var tlsPort: Int?
    public var tlsCertificate: String?
    public var tlsKey: String?
    public var tlsHandshakeTimeout: Double = 10
    /// The web port (nil: none; 0 picks a free one, printed at start): HTTP
    /// for the web client's files, and the line protocol over WebSocket at
    /// `/ws`. On by default, on `host` as the plain port.
    public var webPort: Int? = 7780
    /// The same over TLS (HTTPS and wss:), with the TLS port's certificate
    /// (nil: none; 0 picks a free one).
    public var webTLSPort: Int?
    /// Origins besides the page's own that may open the WebSocket
    /// (`https://play.example.org`): a reverse proxy's public name.
    public var webOrigins: [String] = []
    /// Seconds a web client has to send its request's head (slowloris).
    public var webRequestTimeout: Double = 10
    /// Bytes of a request's head, and its header fields, at most.
    public var webMaxRequestBytes = 8192
    public var webMaxHeaderFields = 64
    /// Addresses of reverse proxies whose `X-Forwarded-For` is believed on
    /// the web ports: a client behind them counts by its own network.
    public var trustedProxies: [String] = []
    /// Folder holding the word lists (`xx.txt`); nil: `ServerConfig.findDictionaries`.
    public var dictionaries: String?
    /// Bytes of replies a connection may leave unread, in ghostd and in the
    /// kernel's send queue together, before it is dropped as a reader that
    /// fell too far behind.
    public var maxOutputBytes = 256 * 1024
    /// Bytes read from one connection per loop turn, so one busy client cannot
    /// starve the others.
    public var readBudgetBytes = 64 * 1024
    /// Loop time one turn spends serving lines before the rest wait for the
    /// next turn, served the networks that spent least first
    /// (ConnectionIO+Fairness.swift; 0: no slice, every ready line in one turn).
    public var turnSlice: Double = 0.005
    /// listen() backlog.
    public var backlog = 1024
    /// Connections served at once; past it a new client gets `BYE full` and is closed.
    public var maxClients = 10_000
    /// Connections from one network at once: an IPv4 address, an IPv6 /64
    /// (an IPv4-mapped IPv6 address is its IPv4 address; 0: no limit).
    public var maxClientsPerIP = 256
    /// Seconds a connection may stay without NAME or RESUME (0: no limit).
    public var nameTimeout: Double = 60
    /// Seconds a connection may go without a command; PING keeps it alive,
    /// blank lines do not (0: no limit).
    public var idleTimeout: Double = 600
    /// Cost units per second one connection may spend on average, with
    /// bursts of `commandBurst` (every line costs: PING and a blank line 1,
    /// a command that reads the database more, see `CommandSpec.cost`; a
    /// command that takes longer in the loop costs its time, one unit per
    /// `costUnitSeconds`). Past it the connection's lines wait, unread,
    /// until it is within its budget again (0: no limit).
    public var commandsPerSecond: Double = 50
    public var commandBurst: Double = 200
    /// The same budget for all the connections of one network together (an
    /// IPv4 address, an IPv6 /64): past it, all of them wait (0: no limit).
    /// nil: 5 times the connection's (so `--max-commands-per-second 0`
    /// lifts both, as it always lifted every command limit).
    public var commandsPerSecondPerIP: Double?
    public var commandBurstPerIP: Double?
    public var networkCommandsPerSecond: Double { commandsPerSecondPerIP ?? 5 * commandsPerSecond }
    public var networkCommandBurst: Double { commandBurstPerIP ?? 5 * commandBurst }
    /// Seconds a connection may stay over its own budget, with lines
    /// waiting, before it gets `BYE flood` and is closed (0: never closed,
    /// only slowed).
    public var floodSeconds: Double = 10
    /// Loop time worth one cost unit: a command that takes longer costs its
    /// time rather than its fixed cost.
    public var costUnitSeconds: Double = 0.001
    /// Connections that have not sent NAME or RESUME yet, on the whole
    /// server and from one network (0: no limit); past either a new client
    /// gets `BYE full`.
    public var maxUnnamed = 2000
    public var maxUnnamedPerIP = 128
    /// New connections one network may open per second, with bursts of
    /// `connectBurstPerIP`; past it a new client gets `BYE full` (0: no limit).
    public var connectsPerSecondPerIP: Double = 20
    public var connectBurstPerIP: Double = 200
    /// SO_SNDBUF of each accepted socket: what the kernel may hold of a
    /// client's replies (0: the kernel's autotuning, up to 4 MB). Bytes in
    /// the kernel count toward `maxOutputBytes` too.
    public var sendBufferBytes = 64 * 1024
    /// Names never used before that one address may create per minute, with
    /// bursts of `newNameBurst` (0: no limit); `ERR too-many-names` past it.
    public var newNamesPerMinute: Double = 10
    public var newNameBurst: Double = 20
    /// How long accept() rests after EMFILE/ENFILE/ENOBUFS before trying again.
    public var acceptBackoff: Double = 0.1
    /// Folder holding the SQLite database.
    public var dataDirectory = ServerConfig.defaultDataDirectory()
    /// The state in PostgreSQL (a libpq URL or `key=value` list) instead of
    /// SQLite in `dataDirectory`, which then holds the pidfile lock alone.
    public var store: String?
    /// With `store`: this node's name among the nodes on that store (nil:
    /// the host's name and the port), and how long its lease lasts unrenewed.
    public var nodeName: String?
    public var leaseSeconds: Double = 3
    /// With `store`: the port the other nodes relay their players to while
    /// this one leads (0: a free one; the lease says which).
    public var relayPort = 0
    /// With `store`, on a standby: how long a TLS or web client's relay
    /// waits for the leader's `OK RELAY` before the client is closed.
    public var relayAnswerTimeout: Double = 10
    /// Seconds an absent player to move has before the opponent may CLAIM.
    public var graceSeconds: Double = 60
    /// Seconds the computer waits, about, before it plays (0: at once).
    public var botDelay: Double = 0.6
    /// Seconds between two deliveries of a game's lines to its watchers
    /// (they are batched, so that watchers cost the players nothing; 0:
    /// each line at once).
    public var watchBatchInterval: Double = 0.05
    /// Seconds more per watcher of the game (a large audience's batches come less often, at most once a second).
    public var watchBatchPerWatcher: Double = 0.000_25
    /// fsync every commit (survives power loss) or only the WAL (survives a crash).
    public var durability: Store.Durability = .full
    /// Whether a game's start, rounds, restarts and end are logged (`--game-log`).
    public var gameLog: GameLog = .all
    /// Most pages the database may have (`PRAGMA max_page_count`; 0: no
    /// limit). A write that needs more fails as on a full disk and is answered
    /// `ERR store-failed`; everything else goes on.
    public var maxDatabasePages = 0
    /// JOINs with a wrong code one network (IPv4 address, IPv6 /64) may send
    /// per minute, with bursts of `failedJoinBurst` (0: no limit);
    /// `ERR too-many-joins` past it.
    public var maxFailedJoinsPerMinute: Double = 10
    public var failedJoinBurst: Double = 10
    /// Seconds a game without a clock stays in memory once no person is at
    /// it; it is reloaded from the store on RESUME.
    public var unloadAfter: Double = 60
    /// On PostgreSQL: seconds the read after a failed write waits for it to come back before the server serves without it.
    public var storeReconnectWait: Double = 10
    /// Seconds a person has for their first move of a game without a clock
    /// before it is aborted with no score (0: no limit).
    public var firstMoveTimeout: Double = 60
    /// Seconds a present person may take over a move (after their first) in a
    /// game without a clock before the opponent may CLAIM (0: no limit).
    public var moveTimeout: Double = 300
    /// Seconds a game in progress may stay untouched (no move, no RESUME)
    /// before it is aborted with no score (0: never).
    public var abandonAfter = 7 * 86_400
    /// Games in progress (adjourned ones too) one name, and one network (an
    /// IPv4 address, an IPv6 /64), may have (0: no limit); `ERR too-many-games` past it.
    public var maxGamesPerName = 10
    public var maxGamesPerNetwork = 100
    /// Between people (`Lobby.Settings`): follows and blocks per name, open
    /// invitations per invitee and per network, reports per name a day, and
    /// how often a name's followers hear it came or went.
    public var maxFollows = 400
    public var maxBlocks = 500
    public var maxInvitesPerName = 5
    public var maxInvitesPerNetwork = 10
    public var maxReportsPerDay = 10
    public var presenceInterval: Double = 60
    /// Who enters the high-score lists: every name (`all`), or registered
    /// names only, from games against the computer or between people on
    /// different networks (`registered`; ScoringPolicy.swift).
    public var scoresFor: ScoresFor = .all
    /// Password hashing: threads that hash and check passwords
    /// off the event loop, and the most jobs that may wait for them (past
    /// it `ERR server-busy`). One thread: on a 2-core machine a second one
    /// took the loop's core from it during a login flood (a probe's PING
    /// p99 2-4 times higher) for no more logins a second (BENCHMARKS.md,
    /// "Logins").
    public var hashThreads = 1
    public var hashQueue = 32
    /// Passwords hashed or checked per network a minute, with bursts of
    /// `hashBurst` (0: no limit); `ERR too-many-attempts` past it.
    public var hashesPerMinute: Double = 12
    public var hashBurst: Double = 6
    /// Threads that read, frame and write the sockets, the loop among them
    /// (Redis 6's `io-threads`; Net/IOThreads.swift): 1 does it all on the
    /// loop thread. The lobby and the store stay on the loop either way.
    /// Two: under 1,000 connections the loop thread's CPU per letter fell
    /// 1.34× and letters/s rose 1.27× on the 2-core machine (BENCHMARKS.md,
    /// "I/O threads"); a turn with fewer than `IOThreads.minimumJobs`
    /// connections to read or write (a game in lock step) wakes no thread.
    public var ioThreads = 2
    /// Failed logins: after k for a name, or from a network, the next try
    /// waits min(2^(k-1), `loginBackoffMax`) s after the last; failures are
    /// forgotten `loginFailureMemory` s after the last; each table keeps at
    /// most `maxLoginFailureEntries` names or networks.
    public var loginBackoffMax: Double = 300
    public var loginFailureMemory: Double = 3600
    public var maxLoginFailureEntries = 10_000
    /// TOP lists a registered name on a board once it has
    /// played `topMinGames` rated games there with an RD (as of its last
    /// one) of at most `topMaxDeviation` (350: any).
    public var topMinGames = 10
    public var topMaxDeviation = 350.0

    /// Where the word lists are when `--dictionaries` is not given:
    /// `./Dictionaries` if it is a folder, else `share/ghostd/Dictionaries`
    /// beside the folder of the running binary (`PREFIX/bin/ghostd` →
    /// `PREFIX/share/ghostd/Dictionaries`, as `scripts/install.sh` puts them).
    /// Returns the folders looked at too, for the error when neither exists.
    public static func findDictionaries(executable: String? = currentExecutable()) -> (folder: String, tried: [String]) {
        var tried = ["./Dictionaries"]
        if isFolder("./Dictionaries") { return ("./Dictionaries", tried) }
        if let exe = executable, let slash = exe.lastIndex(of: "/") {
            let bin = String(exe[..<slash])
            let prefix = bin.hasSuffix("/bin") ? String(bin.dropLast(4)) : bin + "/.."
            let installed = (prefix.isEmpty ? "" : prefix) + "/share/ghostd/Dictionaries"
            tried.append(installed)
            if isFolder(installed) { return (installed, tried) }
        }
        return ("./Dictionaries", tried)
    }

    /// The running binary's path (Linux: `/proc/self/exe`).
    public static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// `$XDG_STATE_HOME/ghostd`, else `~/.local/state/ghostd`, else `./ghostd-data`.
    public static func defaultDataDirectory() -> String {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let state = env("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/ghostd" }
        if let home = env("HOME"), home.hasPrefix("/") { return home + "/.local/state/ghostd" }
        return "./ghostd-data"
    }

    public init() {}
}

/// Which lines of play ghostd logs (`--game-log`). Each costs the loop a
/// line built and written at a game's start and its end, a small part of
/// what a game costs (BENCHMARKS.md).
public enum GameLog: String, CaseIterable, Sendable {
    /// A line at each game's start, new round, restart and end (the default).
    case all
    /// None of those; connections, errors, restores, adjournments, games
    /// ended by time or aborted are logged as always.
    case none
}


extension Lobby.Settings {
    /// The lobby's settings from the daemon's options.
    init(_ config: ServerConfig) {
        self.init()
        graceSeconds = config.graceSeconds
        botDelay = config.botDelay
        newNamesPerMinute = config.newNamesPerMinute
        newNameBurst = config.newNameBurst
        watchBatchInterval = config.watchBatchInterval
        watchBatchPerWatcher = config.watchBatchPerWatcher
        failedJoinsPerMinute = config.maxFailedJoinsPerMinute
        failedJoinBurst = config.failedJoinBurst
        unloadAfter = config.unloadAfter
        storeReconnectWait = config.storeReconnectWait
        firstMoveTimeout = config.firstMoveTimeout
        moveTimeout = config.moveTimeout
        abandonAfter = config.abandonAfter
        maxGamesPerName = config.maxGamesPerName
        maxGamesPerNetwork = config.maxGamesPerNetwork
        maxFollows = config.maxFollows
        maxBlocks = config.maxBlocks
        maxInvitesPerName = config.maxInvitesPerName
        maxInvitesPerNetwork = config.maxInvitesPerNetwork
        maxReportsPerDay = config.maxReportsPerDay
        presenceInterval = config.presenceInterval
        scoresFor = config.scoresFor
        loginBackoffMax = config.loginBackoffMax
        hashesPerMinute = config.hashesPerMinute
        hashBurst = config.hashBurst
        loginFailureMemory = config.loginFailureMemory
        maxLoginFailureEntries = config.maxLoginFailureEntries
        topMinGames = config.topMinGames
        topMaxDeviation = config.topMaxDeviation
        gameLog = config.gameLog
    }
}
