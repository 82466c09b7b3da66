import GhostStore

/// Command-line options of ghostd, parsed without touching the system.
public enum DaemonCommand: Equatable {
    case run(ServerConfigOptions)
    case help
    case version
}

/// The subset of `ServerConfig` settable from the command line.
public struct ServerConfigOptions: Equatable {
    public var host = ServerConfig().host
    public var port = ServerConfig().port
    public var dictionaries = ServerConfig().dictionaries
    public var maxOutputBytes = ServerConfig().maxOutputBytes
    public var dataDirectory = ServerConfig().dataDirectory
    public var graceSeconds = ServerConfig().graceSeconds
    public var durability = ServerConfig().durability
    public var botDelayMilliseconds = Int(ServerConfig().botDelay * 1000)

    public var config: ServerConfig {
        var c = ServerConfig()
        c.host = host
        c.port = port
        c.dictionaries = dictionaries
        c.maxOutputBytes = maxOutputBytes
        c.dataDirectory = dataDirectory
        c.graceSeconds = graceSeconds
        c.durability = durability
        c.botDelay = Double(botDelayMilliseconds) / 1000
        return c
    }
}

public enum DaemonOptions {
    public static let usage = """
    Usage: ghostd [options]

    A Ghost word-game server speaking a line protocol over TCP (see Protocol.md).
    Play with `nc HOST PORT`.

    Options:
      --host ADDR           address to listen on (default \(ServerConfig().host));
                            use 0.0.0.0 or :: to accept players from other machines
      --port N              TCP port, 0 for any free port (default \(ServerConfig().port))
      --dictionaries DIR    folder of word lists; each xx.txt offers language xx
                            (default \(ServerConfig().dictionaries))
      --data DIR            folder for the SQLite database (default
                            \(ServerConfig.defaultDataDirectory()))
      --grace SECONDS       how long a player to move may be away before the
                            opponent may CLAIM the game (default \(Int(ServerConfig().graceSeconds)))
      --bot-delay MS        about how long the computer thinks before it plays, in
                            milliseconds; 0 plays at once (default \(Int(ServerConfig().botDelay * 1000)))
      --durability MODE     full: fsync every commit, survives power loss (default);
                            normal: survives a crash of ghostd, not of the machine
      --max-output-bytes N  replies a slow reader may have pending before it is
                            dropped (default \(ServerConfig().maxOutputBytes))
      --help                show this help and exit
      --version             show the version and exit

    ghostd logs to stderr and stops cleanly on SIGINT, SIGTERM or SIGHUP.
    """

    /// Parses arguments (without the program name). Accepts `--opt value` and `--opt=value`.
    public static func parse(_ arguments: [String]) -> Result<DaemonCommand, OptionError> {
        var options = ServerConfigOptions()
        var args = arguments[...]
        while let arg = args.popFirst() {
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            func value() -> Result<String, OptionError> {
                if let inlineValue { return .success(inlineValue) }
                guard let v = args.popFirst() else { return .failure(OptionError("\(name) needs a value")) }
                return .success(v)
            }
            func number(_ range: ClosedRange<Int>) -> Result<Int, OptionError> {
                value().flatMap { v in
                    guard let n = Int(v), range.contains(n) else {
                        return .failure(OptionError("\(name) takes a number from \(range.lowerBound) to \(range.upperBound)"))
                    }
                    return .success(n)
                }
            }
            switch name {
            case "--help", "-h": return .success(.help)
            case "--version", "-V": return .success(.version)
            case "--host":
                switch value() { case .success(let v): options.host = v; case .failure(let e): return .failure(e) }
            case "--port":
                switch number(0...65535) { case .success(let v): options.port = v; case .failure(let e): return .failure(e) }
            case "--dictionaries":
                switch value() { case .success(let v): options.dictionaries = v; case .failure(let e): return .failure(e) }
            case "--data":
                switch value() { case .success(let v): options.dataDirectory = v; case .failure(let e): return .failure(e) }
            case "--grace":
                switch number(0...86_400) { case .success(let v): options.graceSeconds = Double(v); case .failure(let e): return .failure(e) }
            case "--bot-delay":
                switch number(0...10_000) { case .success(let v): options.botDelayMilliseconds = v; case .failure(let e): return .failure(e) }
            case "--durability":
                switch value() {
                case .success(let v):
                    guard let d = Store.Durability(rawValue: v) else { return .failure(OptionError("--durability is full or normal")) }
                    options.durability = d
                case .failure(let e): return .failure(e)
                }
            case "--max-output-bytes":
                switch number(1024...(1 << 30)) { case .success(let v): options.maxOutputBytes = v; case .failure(let e): return .failure(e) }
            default:
                return .failure(OptionError("unknown option \(arg)"))
            }
        }
        return .success(.run(options))
    }
}

public struct OptionError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
