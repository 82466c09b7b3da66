import Glibc
import GhostStore

/// Settings of the daemon. Every limit is named here with its default.
public struct ServerConfig: Sendable {
    /// Address to listen on: a name, an IPv4 or an IPv6 address.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (printed at start).
    public var port = 7777
    /// Folder holding the word lists (`xx.txt`); nil: `ServerConfig.findDictionaries`.
    public var dictionaries: String?
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
    /// Seconds between two deliveries of a game's lines to its watchers
    /// (they are batched, so that watchers cost the players nothing; 0:
    /// each line at once).
    public var watchBatchInterval: Double = 0.05
    /// Seconds more per watcher of the game (a large audience's batches come less often, at most once a second).
    public var watchBatchPerWatcher: Double = 0.000_25
    /// fsync every commit (survives power loss) or only the WAL (survives a crash).
    public var durability: Store.Durability = .full
    /// Most pages the database may have (`PRAGMA max_page_count`; 0: no
    /// limit). A write that needs more fails as on a full disk and is answered
    /// `ERR store-failed`; everything else goes on.
    public var maxDatabasePages = 0
    /// Seconds a game without a clock stays in memory once no person is at
    /// it; it is reloaded from the store on RESUME.
    public var unloadAfter: Double = 60
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
