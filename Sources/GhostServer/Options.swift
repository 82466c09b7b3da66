import GhostStore

/// What ghostd's command line asks for.
public enum DaemonCommand: Equatable {
    case run(ServerConfig)
    case help
    case version
}

extension ServerConfig: Equatable {
    public static func == (a: ServerConfig, b: ServerConfig) -> Bool {
        DaemonOptions.describe(a) == DaemonOptions.describe(b)
    }
}

/// ghostd's options: one table, from which parsing and `--help` both come.
public enum DaemonOptions {
    struct Option {
        let name: String
        let value: String
        let help: String
        let current: (ServerConfig) -> String
        let set: (inout ServerConfig, String) -> Bool
    }

    static func number(_ name: String, _ value: String, _ help: String, _ range: ClosedRange<Double>,
                       _ key: WritableKeyPath<ServerConfig, Double>, scale: Double = 1) -> Option {
        Option(name: name, value: value, help: help,
               current: { c in formatNumber(c[keyPath: key] * scale) },
               set: { c, text in
                   guard let v = Double(text), v.isFinite, range.contains(v) else { return false }
                   c[keyPath: key] = v / scale
                   return true
               })
    }

    static func integer(_ name: String, _ value: String, _ help: String, _ range: ClosedRange<Int>,
                        _ key: WritableKeyPath<ServerConfig, Int>) -> Option {
        Option(name: name, value: value, help: help,
               current: { c in String(c[keyPath: key]) },
               set: { c, text in
                   guard let v = Int(text), range.contains(v) else { return false }
                   c[keyPath: key] = v
                   return true
               })
    }

    static func text(_ name: String, _ value: String, _ help: String, _ key: WritableKeyPath<ServerConfig, String>) -> Option {
        Option(name: name, value: value, help: help, current: { $0[keyPath: key] },
               set: { c, text in
                   guard !text.isEmpty else { return false }
                   c[keyPath: key] = text
                   return true
               })
    }

    static func formatNumber(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    static var options: [Option] { [
        text("--host", "ADDR", "address to listen on: a name, IPv4 or IPv6 (0.0.0.0 or :: for every interface)", \.host),
        integer("--port", "N", "TCP port; 0 picks a free one, printed at start", 0...65535, \.port),
        text("--dictionaries", "DIR", "folder of word lists; each xx.txt offers language xx", \.dictionaries),
        text("--data", "DIR", "folder of the SQLite database", \.dataDirectory),
        Option(name: "--durability", value: "MODE",
               help: "full: fsync every commit, survives power loss; normal: survives a crash of ghostd only",
               current: { $0.durability.rawValue },
               set: { c, text in
                   guard let d = Store.Durability(rawValue: text) else { return false }
                   c.durability = d
                   return true
               }),
        integer("--max-db-pages", "N", "most pages (of 4 KiB) the database may grow to; a change that needs more is refused with ERR store-failed, as on a full disk, and everything else goes on; 0: no limit", 0...Int(Int32.max), \.maxDatabasePages),
        number("--grace", "SECONDS", "how long a player to move may be away before the opponent may CLAIM", 0...86_400, \.graceSeconds),
        number("--bot-delay", "MS", "about how long the computer thinks before it plays; 0 plays at once", 0...10_000, \.botDelay, scale: 1000),
        integer("--max-clients", "N", "connections served at once; past it: BYE full and close", 1...1_000_000, \.maxClients),
        integer("--max-clients-per-ip", "N", "connections from one IP address at once; 0: no limit", 0...1_000_000, \.maxClientsPerIP),
        number("--name-timeout", "SECONDS", "time to send NAME or RESUME before the connection is closed; 0: none", 0...86_400, \.nameTimeout),
        number("--idle-timeout", "SECONDS", "time without any command (PING keeps alive, blank lines do not) before closing; 0: none", 0...864_000, \.idleTimeout),
        number("--max-commands-per-second", "N", "average command rate per connection; past it: BYE flood and close; 0: none", 0...1_000_000, \.commandsPerSecond),
        number("--command-burst", "N", "commands a connection may send at once above that rate", 1...1_000_000, \.commandBurst),
        integer("--max-output-bytes", "N", "replies a client may leave unread before it is dropped (its game is adjourned)", 1024...(1 << 30), \.maxOutputBytes),
    ] }

    public static var usage: String {
        let defaults = ServerConfig()
        var lines = [
            "Usage: ghostd [options]",
            "",
            "A Ghost word-game server speaking a line protocol over TCP (see Protocol.md).",
            "Play with `nc HOST PORT`.",
            "",
            "Options (default in brackets):",
        ]
        for o in options {
            lines.append("  \(o.name) \(o.value)")
            lines += wrap(o.help + " [\(o.current(defaults))]", width: 72).map { "      " + $0 }
        }
        lines += [
            "  --help", "      show this help and exit",
            "  --version", "      show the version and exit",
            "",
            "Options take `--name value` or `--name=value`. ghostd logs to stderr and",
            "stops cleanly on SIGINT, SIGTERM or SIGHUP.",
        ]
        return lines.joined(separator: "\n")
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var out: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                out.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { out.append(line) }
        return out
    }

    /// Every setting, for comparing configurations.
    static func describe(_ c: ServerConfig) -> String {
        options.map { "\($0.name)=\($0.current(c))" }.joined(separator: " ")
            + " backlog=\(c.backlog) read=\(c.readBudgetBytes) backoff=\(c.acceptBackoff)"
    }

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) -> Result<DaemonCommand, OptionError> {
        var config = ServerConfig()
        var args = arguments[...]
        while let arg = args.popFirst() {
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            switch name {
            case "--help", "-h": return .success(.help)
            case "--version", "-V": return .success(.version)
            default: break
            }
            guard let option = options.first(where: { $0.name == name }) else {
                return .failure(OptionError("unknown option \(arg)"))
            }
            guard let value = inlineValue ?? args.popFirst() else {
                return .failure(OptionError("\(name) needs a value (\(option.value))"))
            }
            guard option.set(&config, value) else {
                return .failure(OptionError("\(name): bad value \(value): \(option.help)"))
            }
        }
        return .success(.run(config))
    }
}

public struct OptionError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
