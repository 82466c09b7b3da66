import GhostStore
import GhostCore
#if canImport(Glibc)
import Glibc
#endif

/// What ghostd's main does: parse options, load the word lists, serve.
public enum Daemon {
    /// Runs the daemon; returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
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
            logLine("ghostd: \(e)\nTry ghostd --help.")
            return 2
        }
        let started = monotonicSeconds()
        let dictionaries: Dictionaries
        do {
            dictionaries = try Dictionaries.load(folder: config.dictionaries)
        } catch {
            logLine("ghostd: \(error)")
            return 1
        }
        let server: Server
        do {
            let store = try Store(directory: config.dataDirectory, durability: config.durability)
            logLine("data: \(store.path) (schema \(store.userVersion), durability \(config.durability.rawValue))")
            server = try Server(config: config, dictionaries: dictionaries, store: store, log: logLine)
            try server.start()
        } catch {
            logLine("ghostd: \(error)")
            return 1
        }
        let ms = Int((monotonicSeconds() - started) * 1000)
        let summary = dictionaries.languages
            .map { "\($0) \(dictionaries[$0]?.wordCount ?? 0) words" }
            .joined(separator: ", ")
        logLine("ghostd \(Lobby.version) listening on \(config.host):\(server.boundPort) (\(summary); ready in \(ms) ms)")
        server.run()
        return 0
    }
}

/// Writes one line to stderr, prefixed with a UTC timestamp.
public func logLine(_ text: String) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var t = time_t(now.tv_sec)
    var parts = tm()
    gmtime_r(&t, &parts)
    let stamp = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                       Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                       Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    let line = "\(stamp) \(text)\n"
    var bytes = Array(line.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
        if n <= 0 { break }
        offset += n
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
