import CGhostSys
import GhostStore
import GhostCore
#if canImport(Glibc)
import Glibc
import GameKit
import WordLists
#endif

/// What ghostd's main does: parse options, load the word lists, serve.
public enum Daemon {
    /// Runs the daemon; returns the process exit status. `kinds`: game
    /// kinds to play besides the catalog's (a test daemon's, with kinds
    /// that are not shipped); ghostd passes none.
    public static func main(_ arguments: [String], kinds: [any GameDefinition] = []) -> Int32 {
        // A file-size limit (`ulimit -f`, systemd's LimitFSIZE=) is an
        // operator's setting: a write past it must fail with EFBIG, which the
        // store handles as a full disk (the turn is refused, ghostd goes on),
        // not kill the process with SIGXFSZ's default action.
        signal(SIGXFSZ, SIG_IGN)
        // SIGUSR1 rings a running daemon for the operator's requests
        // (OperatorRequests.swift); its default action ends the process.
        // Blocked from the first moment, before any thread starts (they
        // inherit the mask), so that one sent to a daemon still starting
        // waits for its signalfd, and one sent to a `ghostd accounts` or
        // `journal` holding the folder does no harm.
        var usr1 = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &usr1, nil)
        // `ghostd accounts …`: the operator's account commands (AccountsCommand.swift).
        if arguments.first == "accounts" { return AccountsCommand.main(Array(arguments.dropFirst())) }
        // `ghostd reports`: the players' reports, newest first (ReportsCommand.swift).
        if arguments.first == "reports" { return ReportsCommand.main(Array(arguments.dropFirst())) }
        // `ghostd copy-store`: a whole state between SQLite and PostgreSQL (CopyStoreCommand.swift).
        if arguments.first == "copy-store" { return CopyStoreCommand.main(Array(arguments.dropFirst())) }
        // `ghostd journal check|salvage`: the move journal offline (JournalCommand.swift).
        if arguments.first == "journal" { return JournalCommand.main(Array(arguments.dropFirst())) }
        // `--generate-manual`, `--generate-completion bash|zsh`: hidden, for scripts/generate-docs.sh.
        if let text = DaemonManual.generated(arguments) {
            print(text, terminator: "")
            return 0
        }
        let config: ServerConfig
        switch DaemonOptions.parse(arguments) {
        case .success(.help):
            print(DaemonOptions.usage)
            return 0
        case .success(.version):
            print("ghostd \(Lobby.version) (protocol \(Lobby.protocolVersion))")
            return 0
        case .success(.run(let c)):
            config = c
        case .failure(let e):
            // One plain line (not a timestamped log line): it is about the
            // command line, and nothing has started.
            writeToStderr(Array("ghostd: \(e) (see ghostd --help)\n".utf8))
            return 2
        }
        // TLS options that cannot work are refused as a bad value is, before
        // anything starts: the pair must load and belong together.
        if let problem = DaemonOptions.tlsProblem(config) {
            writeToStderr(Array("ghostd: \(problem) (see ghostd --help)\n".utf8))
            return 2
        }
        if config.tlsPort != nil, let cert = config.tlsCertificate, let key = config.tlsKey,
           case .failure(let problem) = TLSContext.load(certificate: cert, key: key) {
            writeToStderr(Array("ghostd: \(problem)\n".utf8))
            return 2
        }
        let started = monotonicSeconds()
        // One daemon per data folder, and only a database that passes its
        // checks: both before the word lists (seconds of work), each refusal
        // one plain line, as nothing has started.
        let lock: DataFolderLock
        let store: Store
        var leadership: Leadership?
        do {
            lock = try DataFolderLock(directory: config.dataDirectory)
            if let url = config.store {
                // Several nodes on one store form one server (docs/cluster.md):
                // this one opens the store only once it leads.
                let folder = try Leadership.folderID(config.dataDirectory)
                let lease = try ClusterLease(conninfo: url, node: nodeName(config), folder: folder,
                                             address: "\(urlHost(config.host)):\(config.port)", seconds: config.leaseSeconds)
                // Meanwhile every port it would serve (plain, TLS, web) carries
                // its clients to the leader (a port it cannot bind is the
                // start's failure once it leads).
                guard let held = Leadership.await(lease, makeRelay: {
                    do {
                        var ports: [(port: RelayLine.Port, number: Int)] = [(.plain, config.port)]
                        if let port = config.tlsPort { ports.append((.tls, port)) }
                        if let port = config.webPort { ports.append((.web, port)) }
                        if let port = config.webTLSPort { ports.append((.webTLS, port)) }
                        return try StandbyRelay(host: config.host, ports: ports, backlog: config.backlog,
                                                acceptBackoff: config.acceptBackoff, answerTimeout: config.relayAnswerTimeout,
                                                node: nodeName(config), log: logLine)
                    } catch {
                        logLine("standby: cannot carry players to the leader: \(error)")
                        return nil
                    }
                }, log: logLine) else { return 0 }
                leadership = held
                do {
                    store = try Store(postgres: url, directory: config.dataDirectory)
                    try store.fence(epoch: held.epoch, folder: folder)
                } catch {
                    held.stop(release: true)
                    throw error
                }
            } else {
                store = try Store(directory: config.dataDirectory, durability: config.durability,
                                  maxPageCount: config.maxDatabasePages, syncedByCaller: true)
            }
        } catch {
            writeToStderr(Array("ghostd: \(error)\n".utf8))
            return 1
        }
        // The lock is held until the process ends.
        return withExtendedLifetime(lock) {
            let status = serve(config: config, store: store, leadership: leadership, started: started, kinds: kinds)
            // Whatever the stop, a standby may take over at once (a lease
            // another node took is not released: its epoch is not this one).
            leadership?.stop(release: true)
            return status
        }
    }

    /// This node's name in the cluster's lease: `--node-name`, else the host's name and the port.
    static func nodeName(_ config: ServerConfig) -> String {
        if let name = config.nodeName { return name }
        var host = [CChar](repeating: 0, count: 256)
        let name = gethostname(&host, host.count - 1) == 0 ? String(decoding: host.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "ghostd"
        return "\(name):\(config.port)"
    }

    private static func serve(config: ServerConfig, store: Store, leadership: Leadership?, started: Double,
                              kinds: [any GameDefinition]) -> Int32 {
        var limit = ""
        if config.maxDatabasePages > 0, let pages = try? store.pageCounts() {
            limit = ", \(pages.pages) of at most \(pages.max) pages"
        }
        logLine("data: \(store.path) (schema \(store.userVersion), durability \(config.durability.rawValue)\(limit))")
        let dictionaries: Dictionaries
        let found = config.dictionaries.map { ($0, [$0]) } ?? ServerConfig.findDictionaries()
        do {
            dictionaries = try Dictionaries.load(folder: found.0)
        } catch {
            let looked = config.dictionaries == nil ? " (looked in \(found.1.joined(separator: " and ")); see --dictionaries)" : ""
            logLine("ghostd: \(error)\(looked)")
            return 1
        }
        logLine("dictionaries: \(found.0)")
        // Hangman's computer sets from these (a language without one: from its whole list).
        let common = dictionaries.languages.map { "\($0) \(dictionaries.commonWords[$0].map { "\($0.wordCount)" } ?? "none")" }
        logLine("common words: \(common.joined(separator: ", "))")
        let server: Server
        do {
            server = try Server(config: config, dictionaries: dictionaries, store: store, kinds: kinds)
            server.leadership = leadership
            try server.start()
        } catch {
            logLine("ghostd: \(error)")
            return 1
        }
        let ms = Int((monotonicSeconds() - started) * 1000)
        let summary = dictionaries.languages
            .map { "\($0) \(dictionaries[$0]?.wordCount ?? 0) words" }
            .joined(separator: ", ")
        // Before the `listening on` line, which says the daemon is ready.
        if let port = server.boundTLSPort { logLine("TLS port: \(config.host):\(port) (certificate \(config.tlsCertificate ?? ""))") }
        if let port = server.boundWebPort { logLine("web port: \(config.host):\(port) (play in a browser: http://\(Daemon.urlHost(config.host)):\(port)/)") }
        if let port = server.boundWebTLSPort { logLine("web TLS port: \(config.host):\(port) (https://\(Daemon.urlHost(config.host)):\(port)/)") }
        if let leadership, let port = server.boundRelayPort {
            let relay = "\(advertisedHost(config.host)):\(port)"
            logLine(leadership.advertise(relay: relay) ? "relay port: \(relay) (the other nodes carry their players here)"
                                                       : "relay port: \(relay), not advertised: another node holds the lease")
        }
        logLine("ghostd \(Lobby.version) listening on \(config.host):\(server.boundPort) (\(summary); ready in \(ms) ms)")
        // Every port listens (Server.start): tell the service manager (systemd's Type=notify).
        if ghost_notify("READY=1\nMAINPID=\(getpid())\nSTATUS=listening on \(config.host):\(server.boundPort)") < 0 {
            logLine("cannot tell the service manager that ghostd is ready (NOTIFY_SOCKET): \(String(cString: strerror(errno)))")
        }
        switch server.run() {
        case .signal: return 0
        case .failure(let text):
            logLine("ghostd: \(text)")
            return 1
        case .storeFailure:
            return 3
        case .leaseLost:
            logLine("ghostd: another node of this server took the lease; this node stops (start it again to stand by)")
            return 4
        }
    }

    /// Where the other nodes reach this one: `--host`, or for every
    /// interface the host's name; an IPv6 address in brackets.
    static func advertisedHost(_ host: String) -> String {
        if host == "0.0.0.0" || host == "::" {
            var name = [CChar](repeating: 0, count: 256)
            if gethostname(&name, name.count - 1) == 0 {
                return String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return "localhost"
        }
        return host.contains(":") ? "[\(host)]" : host
    }

    /// The host part of a URL for `host`: an IPv6 address in brackets, every interface as localhost.
    static func urlHost(_ host: String) -> String {
        if host == "0.0.0.0" || host == "::" { return "localhost" }
        return host.contains(":") ? "[\(host)]" : host
    }
}
