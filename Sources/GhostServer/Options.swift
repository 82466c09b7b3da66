import GhostStore
import OptionKit

/// What ghostd's command line asks for.
public enum DaemonCommand: Equatable {
    case run(ServerConfig)
    case help
    case version
}

/// A refused command line (OptionKit's, under the name ghostd has always used).
public typealias OptionError = OptionKit.OptionError

extension ServerConfig: Equatable {
    public static func == (a: ServerConfig, b: ServerConfig) -> Bool {
        DaemonOptions.describe(a) == DaemonOptions.describe(b)
    }
}

/// ghostd's options: one table, from which parsing and `--help` both come.
public enum DaemonOptions {
    /// `--node-name`: 1 to 64 letters, digits and `._:-` (it goes into
    /// STATS's values and the other nodes' logs as one word).
    static var nodeNameValue: Value<String> { Value<String>(allowed: "1 to 64 letters, digits, '.', '_', ':' or '-'", show: { $0 }) { text in
        guard !text.isEmpty else { return .failure(.empty) }
        return RelayLine.isNodeName(text) ? .success(text) : .failure(.notAChoice)
    } }

    static var table: OptionTable<ServerConfig> { OptionTable([
        .value("--host", "ADDR", "address to listen on: a name, IPv4 or IPv6 (0.0.0.0 or :: for every interface)",
               .text("a name or an address"), \.host),
        .value("--port", "N", "TCP port; 0 picks a free one, printed at start", .integer(0...65535), \.port),
        .value("--tls-port", "N", "TCP port for TLS (the same protocol, encrypted); 0 picks a free one, printed at start; needs --tls-cert and --tls-key",
               .integer(0...65535), \.tlsPort, defaultText: "none: no TLS"),
        .value("--tls-cert", "FILE", "the certificate chain the TLS port presents (PEM, the server's certificate first); SIGHUP reads it again",
               .text("a file"), \.tlsCertificate, defaultText: nil),
        .value("--tls-key", "FILE", "the private key of that certificate (PEM, not encrypted); SIGHUP reads it again",
               .text("a file"), \.tlsKey, defaultText: nil),
        .value("--tls-handshake-timeout", "SECONDS", "how long a TLS handshake may take before the connection is dropped",
               .number(0.1...3600), \.tlsHandshakeTimeout),
        .value("--web-port", "N", "TCP port for the web client (HTTP) and the protocol over WebSocket at /ws; off (or 0) turns it off; any picks a free one, printed at start",
               WebOptions.port, \.webPort),
        .value("--web-tls-port", "N", "the same over TLS (HTTPS, wss:), with the certificate of --tls-cert and --tls-key; 0 picks a free one, printed at start",
               .integer(0...65535), \.webTLSPort, defaultText: "none"),
        .value("--web-request-timeout", "SECONDS", "how long a web client may take to send its request (slowloris)",
               .number(0.1...3600), \.webRequestTimeout),
        .value("--web-max-request-bytes", "N", "longest request head (its line and header fields) the web port reads; past it: 431",
               .integer(1024...1_048_576), \.webMaxRequestBytes),
    ] + WebOptions.lists + [
        .value("--dictionaries", "DIR", "folder of word lists; each xx.txt offers language xx",
               .text("a folder"), \.dictionaries, defaultText: "./Dictionaries, else PREFIX/share/ghostd/Dictionaries for PREFIX/bin/ghostd"),
        .value("--data", "DIR", "folder of the SQLite database (with --store, of the pidfile lock alone)", .text("a folder"), \.dataDirectory),
        .value("--store", "URL", "keep the state in PostgreSQL (postgresql://user@host:port/db; the password from PGPASSFILE or the service file) instead of SQLite in --data",
               .text("a PostgreSQL URL"), \.store, defaultText: "SQLite in --data"),
        .value("--node-name", "NAME", "with --store, this node's name among the ghostd nodes on the same store, which form one server: one leads and serves, the others wait to take over (docs/cluster.md)",
               DaemonOptions.nodeNameValue, \.nodeName, defaultText: "the host's name and --port"),
        .value("--lease-seconds", "SECONDS", "with --store, how long the leading node's lease lasts unrenewed (it renews it every third of that): a standby takes over this long after the leader died or froze",
               .number(1...600), \.leaseSeconds),
        .value("--relay-port", "N", "with --store, the TCP port (on --host) the other nodes relay their players' connections to while this node leads; 0 picks a free one, which the lease tells them; keep it reachable from the other nodes alone",
               .integer(0...65535), \.relayPort),
        .value("--relay-answer-timeout", "SECONDS", "with --store, on a standby: how long a TLS or web client's relay waits for the leader to take it (OK RELAY) before the client is closed (a web one with a 503)",
               .number(0.1...600), \.relayAnswerTimeout),
        .value("--store-reconnect-wait", "SECONDS", "with --store, how long the read after a failed write waits for PostgreSQL to come back (the loop waits with it) before ghostd serves on without it, answering ERR store-failed until it is back",
               .number(0.1...600), \.storeReconnectWait),
        .value("--durability", "MODE", "full: fsync every commit, survives power loss; normal: survives a crash of ghostd only",
               .choice, \.durability),
        .value("--game-log", "LEVEL", "all: a log line at each game's start, new round, restart and end; none: not those (connections, errors and the rest are logged as always)",
               .choice, \.gameLog),
        .value("--max-db-pages", "N", "most pages (of 4 KiB) the database may grow to; a change that needs more is refused with ERR store-failed, as on a full disk, and everything else goes on; 0: no limit",
               .integer(0...Int(Int32.max)), \.maxDatabasePages),
        .value("--grace", "SECONDS", "how long a player to move may be away before the opponent may CLAIM",
               .number(0...86_400), \.graceSeconds),
        .value("--bot-delay", "MS", "about how long the computer thinks before it plays; 0 plays at once",
               .number(0...10_000), get: { $0.botDelay * 1000 }, set: { $0.botDelay = $1 / 1000 }),
        .value("--watch-batch", "MS", "watchers get a game's lines in batches, one at most every MS milliseconds, so that a thousand watchers do not slow its players; 0: each line at once",
               .number(0...10_000), get: { $0.watchBatchInterval * 1000 }, set: { $0.watchBatchInterval = $1 / 1000 }),
        .value("--watch-batch-per-watcher", "US", "a game's watchers' batches wait this many microseconds more per watcher (1,000 watchers at 250: 250 ms), at most a second, so that a large audience costs its players no more than a small one",
               .number(0...1_000_000), get: { $0.watchBatchPerWatcher * 1_000_000 }, set: { $0.watchBatchPerWatcher = $1 / 1_000_000 }),
        .value("--max-clients", "N", "connections served at once; past it: BYE full and close",
               .integer(1...1_000_000), \.maxClients),
        .value("--max-clients-per-ip", "N", "connections from one network at once: an IPv4 address, or an IPv6 /64 (an IPv4-mapped address counts as IPv4); past it: BYE full; 0: no limit",
               .integer(0...1_000_000), \.maxClientsPerIP),
        .value("--max-unnamed", "N", "connections that have not sent NAME or RESUME yet, on the whole server; past it a new client gets BYE full, unless another network holds more of them than the newcomer's: then one of that network's is closed (BYE full) to let it in; 0: no limit",
               .integer(0...1_000_000), \.maxUnnamed),
        .value("--max-unnamed-per-ip", "N", "the same, from one network (IPv4 address, IPv6 /64); 0: no limit",
               .integer(0...1_000_000), \.maxUnnamedPerIP),
        .value("--connects-per-second-per-ip", "N", "new connections one network may open per second on average; past it: BYE full; 0: no limit",
               .number(0...1_000_000), \.connectsPerSecondPerIP),
        .value("--connect-burst-per-ip", "N", "new connections a network may open at once above that rate",
               .number(1...1_000_000), \.connectBurstPerIP),
        .value("--name-timeout", "SECONDS", "time to send NAME or RESUME before the connection is closed; 0: none",
               .number(0...86_400), \.nameTimeout),
        .value("--idle-timeout", "SECONDS", "time without any command (PING keeps alive, blank lines do not) before closing; 0: none",
               .number(0...864_000), \.idleTimeout),
        .value("--max-commands-per-second", "N", "a connection's budget in cost units a second (PING, a letter and a blank line cost 1, a command that reads the database 4, a slow one its time; Protocol.md §7); past it its lines wait unread; 0: no budget",
               .number(0...1_000_000), \.commandsPerSecond),
        .value("--command-burst", "N", "cost units a connection may spend at once above that rate",
               .number(1...1_000_000), \.commandBurst),
        .value("--max-commands-per-second-per-ip", "N", "the budget of all the connections of one network together (IPv4 address, IPv6 /64): past it all of them wait, and other networks are served; 0: none",
               .number(0...1_000_000), get: { $0.networkCommandsPerSecond }, defaultText: "5 × --max-commands-per-second: 250",
               set: { $0.commandsPerSecondPerIP = $1 }),
        .value("--command-burst-per-ip", "N", "cost units a network may spend at once above that rate",
               .number(1...1_000_000), get: { $0.networkCommandBurst }, defaultText: "5 × --command-burst: 1000",
               set: { $0.commandBurstPerIP = $1 }),
        .value("--flood-seconds", "SECONDS", "how long a connection may stay over its own budget, with lines waiting, before BYE flood and close; 0: never closed, only slowed",
               .number(0...86_400), \.floodSeconds),
        .value("--cost-unit-us", "US", "loop time worth one cost unit: a command that takes longer costs its time instead of its fixed cost",
               .number(1...1_000_000), get: { $0.costUnitSeconds * 1_000_000 }, set: { $0.costUnitSeconds = $1 / 1_000_000 }),
        .value("--max-new-names-per-minute", "N", "names never used before that one network (IPv4 address, IPv6 /64) may create per minute; past it: ERR too-many-names (taking a known name is never limited); 0: no limit",
               .number(0...1_000_000), \.newNamesPerMinute),
        .value("--new-name-burst", "N", "new names a network may create at once above that rate",
               .number(1...1_000_000), \.newNameBurst),
        .value("--max-output-bytes", "N", "replies a client may leave unread, in ghostd and in the kernel's send buffer together, before it is dropped (its game is adjourned)",
               .integer(1024...(1 << 30)), \.maxOutputBytes),
        .value("--max-failed-joins-per-minute", "N", "JOINs with a wrong code one IPv4 address or IPv6 /64 may send per minute; past it every JOIN from there gets ERR too-many-joins; 0: no limit",
               .number(0...1_000_000), \.maxFailedJoinsPerMinute),
        .value("--failed-join-burst", "N", "wrong JOINs a network may send at once above that rate",
               .number(1...1_000_000), \.failedJoinBurst),
        .value("--send-buffer-bytes", "N", "SO_SNDBUF of each client socket: the most the kernel holds of one client's replies; 0: the kernel's autotuning (up to 4 MB)",
               .integer(0...(1 << 30)), \.sendBufferBytes),
        .value("--unload-after", "SECONDS", "a game without a clock that no person is at leaves memory this long after the last one left, and is read back from the database on RESUME",
               .number(0...86_400), \.unloadAfter),
        .value("--first-move-timeout", "SECONDS", "a game without a clock whose player to move has not made their first move in this time (a multiple of it where the game's kind allows a longer first move) is aborted with no score; TURN counts it down (abort_in=); 0: no limit",
               .number(0...86_400), \.firstMoveTimeout),
        .value("--move-timeout", "SECONDS", "in a game without a clock between two people, a player who is here but does not move in this time can be claimed against as if away; TURN counts it down (claim_in=); 0: no limit",
               .number(0...864_000), \.moveTimeout),
        .value("--abandon-after", "SECONDS", "a game in progress nobody moved in or resumed while ghostd ran for this long (from its last move, or from when its last player left it) is aborted with no score (time ghostd was down does not count; checked when the next game is due and at least once a minute, at most 100 games at a time); 0: never",
               .integer(0...(10 * 365 * 86_400)), \.abandonAfter),
        .value("--max-games-per-name", "N", "games in progress (adjourned ones too) one name may have; past it NEW, SEEK, JOIN and REMATCH get ERR too-many-games; 0: no limit",
               .integer(0...1_000_000), \.maxGamesPerName),
        .value("--max-games-per-network", "N", "the same for one network (an IPv4 address, an IPv6 /64); 0: no limit",
               .integer(0...1_000_000), \.maxGamesPerNetwork),
        .value("--max-follows", "N", "names one registered name may FOLLOW; past it ERR too-many-follows",
               .integer(1...100_000), \.maxFollows),
        .value("--max-blocks", "N", "names one name may BLOCK; past it ERR too-many-blocks",
               .integer(1...100_000), \.maxBlocks),
        .value("--max-invites-per-name", "N", "invitations (INVITE) one name may have open to it at once; past it ERR too-many-invites",
               .integer(1...1_000), \.maxInvitesPerName),
        .value("--max-invites-per-network", "N", "invitations one network (an IPv4 address, an IPv6 /64) may have open at once; past it ERR too-many-invites",
               .integer(1...100_000), \.maxInvitesPerNetwork),
        .value("--max-reports-per-day", "N", "REPORTs one name may make in a day; past it ERR too-many-reports",
               .integer(1...10_000), \.maxReportsPerDay),
        .value("--presence-interval", "SECONDS", "a name's followers hear it came online or went (ONLINE, OFFLINE) at most once in this many seconds: a change sooner is told at the end of it, if it still stands",
               .number(0...86_400), \.presenceInterval),
        .value("--scores-for", "WHO", "who enters the high-score lists (SCORES boards, best-games lists). all: every name, as before; registered: registered names only, and a game between two people only when they played from different networks (an IPv4 address, an IPv6 /64), and head-to-head records only between registered names",
               .choice, \.scoresFor),
        .value("--hash-threads", "N", "threads that hash and check passwords (yescrypt, tens of milliseconds each), off the event loop",
               .integer(1...64), \.hashThreads),
        .value("--hash-queue", "N", "passwords that may wait for those threads; past it REGISTER, PASSWORD and NAME with a password get ERR server-busy",
               .integer(1...100_000), \.hashQueue),
        .value("--max-hashes-per-minute-per-ip", "N", "passwords hashed or checked for one network (an IPv4 address, an IPv6 /64) a minute on average, right or wrong (REGISTER, PASSWORD, NAME with a password), with bursts of --hash-burst; past it ERR too-many-attempts, so that no set of networks can keep the hashing threads from others; 0: no limit",
               .number(0...1_000_000), \.hashesPerMinute),
        .value("--hash-burst", "N", "passwords one network may have hashed or checked at once before --max-hashes-per-minute-per-ip applies",
               .number(1...1_000_000), \.hashBurst),
        .value("--turn-slice", "MS", "loop time a turn spends serving clients' lines; the rest wait for the next turn, which serves first the networks (IPv4 address, IPv6 /64) that spent least lately, so a quiet client's line never waits behind everyone's work; 0: no slice",
               .number(0...1_000), get: { $0.turnSlice * 1_000 }, set: { $0.turnSlice = $1 / 1_000 }),
        .value("--io-threads", "N", "threads that read and frame the clients' lines and write the replies, the event loop among them (Redis's io-threads); the rules and the database stay on the loop; 1: the loop does it all",
               .integer(1...16), \.ioThreads),
        .value("--login-backoff-max", "SECONDS", "after k wrong passwords for a name, or from a network (IPv4 address, IPv6 /64), the next try waits 2^(k-1) seconds after the last, at most this long (ERR too-many-attempts)",
               .number(0...86_400), \.loginBackoffMax),
        .value("--login-failure-memory", "SECONDS", "a name's or network's wrong passwords are forgotten this long after the last one",
               .number(1...(30 * 86_400)), \.loginFailureMemory),
        .value("--max-login-failure-entries", "N", "names, and networks, whose wrong passwords are remembered at most (each); past it the forgotten ones go, then the oldest",
               .integer(1...10_000_000), \.maxLoginFailureEntries),
        .value("--top-min-games", "N", "TOP lists a registered name on a rating list once it has played this many rated games there",
               .integer(1...1_000_000), \.topMinGames),
        .value("--top-max-rd", "RD", "TOP lists a name only while its rating deviation, as of its last rated game, is at most this (350: any, a provisional rating listed with its ?; 110: only settled ones)",
               .number(30...350), \.topMaxDeviation),
        .help,
        .version,
    ]) }

    public static var usage: String {
        table.help(usage: "ghostd [options]", about: [
            "A server for the word games Ghost (with Superghost and bluffing) and",
            "Hangman: two players across the network, or one against the computer,",
            "over a line protocol on TCP (see Protocol.md). Play with ghost-client,",
            "`nc HOST PORT`, or a browser at http://HOST:7780/ (--web-port).",
        ], sections: [(title: "Commands:", lines: HelpText.entry(
            "ghostd accounts list|reset-password NAME|delete NAME [--data DIR]",
            "manage registered names offline, while no ghostd runs on the data folder (see ghostd accounts --help)")
            + HelpText.entry(
            "ghostd accounts mute|ban|unban NAME|--network ADDRESS [--days N]",
            "mute or ban a name, or ban a network: a running ghostd applies it at once (SIGUSR1), else the command does")
            + HelpText.entry("ghostd reports [--limit N] [--data DIR]", "the players' reports, newest first"))],
        footer: [
            "Options take `--name value` or `--name=value`; a bad value is refused",
            "with exit status 2. ghostd logs to stderr and stops cleanly on SIGINT",
            "or SIGTERM; SIGHUP reads --tls-cert and --tls-key again (new handshakes",
            "use them, nobody is dropped; a pair that does not load is logged and the",
            "old one kept); SIGUSR1 reads the operator's requests (ghostd accounts).",
        ], defaults: ServerConfig())
    }

    /// Every setting, for comparing configurations.
    static func describe(_ c: ServerConfig) -> String {
        table.options.compactMap { o in o.shown.map { "\(o.name)=\($0(c))" } }.joined(separator: " ")
            + " ip-rate=\(c.networkCommandsPerSecond) ip-burst=\(c.networkCommandBurst)"
            + " tls-port=\(c.tlsPort.map(String.init) ?? "none") tls-cert=\(c.tlsCertificate ?? "none") tls-key=\(c.tlsKey ?? "none")"
            + " web-origins=\(c.webOrigins) trusted-proxies=\(c.trustedProxies) node-name=\(c.nodeName ?? "(host)")"
            + " dictionaries=\(c.dictionaries ?? "(search)") backlog=\(c.backlog) read=\(c.readBudgetBytes) backoff=\(c.acceptBackoff)"
    }

    /// What is wrong with the TLS options taken together, or nil (whether
    /// the files load is checked as the daemon starts).
    public static func tlsProblem(_ c: ServerConfig) -> String? {
        if c.tlsPort != nil, c.tlsCertificate == nil || c.tlsKey == nil {
            return "--tls-port needs --tls-cert FILE and --tls-key FILE"
        }
        if c.webTLSPort != nil, c.tlsCertificate == nil || c.tlsKey == nil {
            return "--web-tls-port needs --tls-cert FILE and --tls-key FILE"
        }
        if c.tlsPort == nil, c.webTLSPort == nil, c.tlsCertificate != nil || c.tlsKey != nil {
            return "--tls-cert and --tls-key are for --tls-port or --web-tls-port, neither of which is given"
        }
        return nil
    }

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) -> Result<DaemonCommand, OptionError> {
        table.parse(arguments, into: ServerConfig()).map { parsed in
            switch parsed {
            case .run(let config): .run(config)
            case .help: .help
            case .version: .version
            }
        }
    }
}
