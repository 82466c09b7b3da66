import Glibc
import GhostStore

/// Settings of the daemon. Every limit is named here with its default.
public struct ServerConfig: Sendable {
    /// Address to listen on: a name, an IPv4 or an IPv6 address.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (printed at start).
    public var port = 7777
    /// Folder holding the word lists (`xx.txt`).
    public var dictionaries = "./Dictionaries"
    /// Bytes of replies a connection may have waiting to be written before it
    /// is dropped as a reader that fell too far behind.
    public var maxOutputBytes = 256 * 1024
    /// Bytes read from one connection per loop turn, so one busy client cannot
    /// starve the others.
    public var readBudgetBytes = 64 * 1024
    /// listen() backlog.
    public var backlog = 1024
    /// Connections served at once; past it a new client gets `BYE full` and is closed.
    public var maxClients = 10_000
    /// Connections from one IP address at once (0: no limit).
    public var maxClientsPerIP = 256
    /// Seconds a connection may stay without NAME or RESUME (0: no limit).
    public var nameTimeout: Double = 60
    /// Seconds a connection may go without a command; PING keeps it alive,
    /// blank lines do not (0: no limit).
    public var idleTimeout: Double = 600
    /// Commands (blank lines are not) per second one connection may send on average, with bursts of
    /// `commandBurst`; past that it gets `BYE flood` and is closed (0: no limit).
    public var commandsPerSecond: Double = 50
    public var commandBurst: Double = 200
    /// Names never used before that one address may create per minute, with
    /// bursts of `newNameBurst` (0: no limit); `ERR too-many-names` past it.
    public var newNamesPerMinute: Double = 10
    public var newNameBurst: Double = 20
    /// How long accept() rests after EMFILE/ENFILE/ENOBUFS before trying again.
    public var acceptBackoff: Double = 0.1
    /// Folder holding the SQLite database.
    public var dataDirectory = ServerConfig.defaultDataDirectory()
    /// Seconds an absent player to move has before the opponent may CLAIM.
    public var graceSeconds: Double = 60
    /// Seconds the computer waits, about, before it plays (0: at once).
    public var botDelay: Double = 0.6
    /// fsync every commit (survives power loss) or only the WAL (survives a crash).
    public var durability: Store.Durability = .full
    /// Most pages the database may have (`PRAGMA max_page_count`; 0: no
    /// limit). A write that needs more fails as on a full disk and is answered
    /// `ERR store-failed`; everything else goes on.
    public var maxDatabasePages = 0

    /// `$XDG_STATE_HOME/ghostd`, else `~/.local/state/ghostd`, else `./ghostd-data`.
    public static func defaultDataDirectory() -> String {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let state = env("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/ghostd" }
        if let home = env("HOME"), home.hasPrefix("/") { return home + "/.local/state/ghostd" }
        return "./ghostd-data"
    }

    public init() {}
}
