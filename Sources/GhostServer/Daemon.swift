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
            // One plain line (not a timestamped log line): it is about the
            // command line, and nothing has started.
            writeToStderr(Array("ghostd: \(e) (see ghostd --help)\n".utf8))
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
            server = try Server(config: config, dictionaries: dictionaries, store: store)
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

/// Writes one line to stderr, prefixed with a UTC timestamp
/// (`2026-11-22T03:04:05.678Z`). Cheap enough to call per game.
public func logLine(_ text: String) {
    var bytes: [UInt8] = []
    appendLogLine(text, to: &bytes)
    writeToStderr(bytes)
}

/// Appends one timestamped log line to `bytes`.
func appendLogLine(_ text: String, to bytes: inout [UInt8]) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var t = time_t(now.tv_sec)
    var parts = tm()
    gmtime_r(&t, &parts)
    func digits(_ value: Int, _ width: Int) {
        var v = value
        var tmp = [UInt8](repeating: 0x30, count: width)
        for i in stride(from: width - 1, through: 0, by: -1) {
            tmp[i] = UInt8(0x30 + v % 10)
            v /= 10
        }
        bytes.append(contentsOf: tmp)
    }
    digits(Int(parts.tm_year) + 1900, 4); bytes.append(0x2D)
    digits(Int(parts.tm_mon) + 1, 2); bytes.append(0x2D)
    digits(Int(parts.tm_mday), 2); bytes.append(0x54)
    digits(Int(parts.tm_hour), 2); bytes.append(0x3A)
    digits(Int(parts.tm_min), 2); bytes.append(0x3A)
    digits(Int(parts.tm_sec), 2); bytes.append(0x2E)
    digits(Int(now.tv_nsec / 1_000_000), 3); bytes.append(0x5A); bytes.append(0x20)
    bytes.append(contentsOf: text.utf8)
    bytes.append(0x0A)
}

/// Writes all of `bytes` to stderr.
func writeToStderr(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(2, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
        if n <= 0 { break }
        offset += n
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
