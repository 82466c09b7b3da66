/// The command line: `ghost-client [host[:port]] [--config PATH] [--lang en|nl] [--help] [--version]`.
public struct ClientOptions: Equatable, Sendable {
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 7777

    /// The server from the command line, if one was given.
    public var server: ServerAddress?
    public var configPath: String?
    public var lang: String?
    public var help = false
    public var version = false

    public init() {}

    public static let usage = """
    usage: ghost-client [host[:port]] [--config PATH] [--lang en|nl] [--help] [--version]

    The terminal client for ghostd, the Ghost word-game server.

      host[:port]     the server (default: the last one used, else 127.0.0.1:7777)
      --config PATH   the settings file (default: $XDG_CONFIG_HOME/ghost/config,
                      else ~/.config/ghost/config)
      --lang en|nl    the language of the texts and of new games (saved)
      --help          show this help
      --version       show the version

    On a terminal it shows full screens; when stdin or stdout is not a terminal
    it works line by line: it prints what the server sends and sends each line
    it reads (a line holding one letter is a move), for example
      printf 'NAME x\\nSEEK\\n' | ghost-client 127.0.0.1:7777
    Keys: letters play, Esc opens the game menu, Ctrl-C quits (a game waits
    for you and resumes when you start the client again).
    """

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ args: [String]) -> Result<ClientOptions, Failure> {
        var o = ClientOptions()
        var i = 0
        func value(_ name: String) -> String? {
            guard i + 1 < args.count else { return nil }
            i += 1
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--help", "-h": o.help = true
            case "--version", "-V": o.version = true
            case "--config":
                guard let v = value(a), !v.isEmpty else { return .failure(Failure(description: "--config needs a path")) }
                o.configPath = v
            case "--lang":
                guard let v = value(a) else { return .failure(Failure(description: "--lang needs en or nl")) }
                guard Strings.uiLanguages.contains(v) else {
                    return .failure(Failure(description: "--lang: unknown language \(v); use en or nl"))
                }
                o.lang = v
            default:
                if a.hasPrefix("--config=") {
                    o.configPath = String(a.dropFirst("--config=".count))
                } else if a.hasPrefix("--lang=") {
                    let v = String(a.dropFirst("--lang=".count))
                    guard Strings.uiLanguages.contains(v) else {
                        return .failure(Failure(description: "--lang: unknown language \(v); use en or nl"))
                    }
                    o.lang = v
                } else if a.hasPrefix("-") {
                    return .failure(Failure(description: "unknown option \(a)"))
                } else if o.server == nil {
                    guard let s = ServerAddress(a) else { return .failure(Failure(description: "bad server address \(a)")) }
                    o.server = s
                } else {
                    return .failure(Failure(description: "unexpected argument \(a)"))
                }
            }
            i += 1
        }
        return .success(o)
    }
}

/// `host[:port]`: a name, an IPv4 address, or an IPv6 address (in brackets
/// when a port follows: `[::1]:7777`).
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init?(_ text: String) {
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace }) else { return nil }
        var host = text
        var port = ClientOptions.defaultPort
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()) else { return nil }
                port = p
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            guard let p = Int(text[text.index(after: colon)...]) else { return nil }
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
