import OptionKit

/// The command line: `ghost-client [host[:port]] [--config PATH] [--lang en|nl] [--tls] [--tls-ca FILE] [--insecure] [--plain-screens] [--help] [--version]`.
public struct ClientOptions: Equatable, Sendable {
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 7777

    /// The server from the command line, if one was given.
    public var server: ServerAddress?
    public var configPath: String?
    public var lang: String?
    /// `--game <kind>`: the main screen's game (saved); some kinds play at once.
    public var game: String?
    /// `--clock <seconds>`: the clock of new games (saved), 0 for none.
    public var clock: Int?
    /// `--tls`: connect with TLS, checking the server's certificate.
    public var tls = false
    /// `--tls-ca FILE`: trust the certificates in FILE (a self-signed
    /// server's) instead of the system's authorities; implies `--tls`.
    public var tlsCA: String?
    /// `--insecure`: send a password without TLS to a server that is not on this computer.
    public var insecure = false
    /// `--plain-screens`: every game drawn from the server's description of it.
    public var plainScreens = false
    public var help = false
    public var version = false

    public init() {}

    /// The TLS settings the command line asks for; nil for plain TCP.
    public var tlsSettings: TLSSettings? {
        tls || tlsCA != nil ? TLSSettings(caFile: tlsCA) : nil
    }

    /// A refused command line: one line naming the option and what it allows.
    public typealias Failure = OptionError

    static var table: OptionTable<ClientOptions> {
        OptionTable([
            .value("--config", "PATH", "the settings file", .text("a file path"), \.configPath,
                   defaultText: "$XDG_CONFIG_HOME/ghost/config, else ~/.config/ghost/config"),
            .value("--lang", Strings.uiLanguages.joined(separator: "|"),
                   "the language of the texts and of new games (saved)", .choice(Strings.uiLanguages), \.lang,
                   defaultText: "the saved one, else asked at the first start"),
            .value("--game", ClientGames.kinds.map(\.rawValue).joined(separator: "|"),
                   "the game the main screen offers (saved); \(ClientGames.playedAtOnce.map(\.rawValue).joined(separator: " and ")) starts playing at once: it resumes an adjourned game, else starts one against the computer with your saved settings. Needs a terminal: refused in line mode",
                   .choice(ClientGames.kinds.map(\.rawValue)), \.game,
                   defaultText: "the saved one, else \(ClientGames.kinds.first?.rawValue ?? "")"),
            .value("--clock", "SECONDS",
                   "the clock of new games, in seconds a move: \(clocksAllowed) (saved; t on the main screen changes it). Needs a terminal: refused in line mode",
                   clockValue, \.clock, defaultText: "the saved one, else 0"),
            .flag("--tls", "connect with TLS (the server's --tls-port), checking that the server's certificate is valid for the host given, against the system's certificate authorities. A certificate that does not verify is shown and the client does not connect",
                  \.tls),
            .value("--tls-ca", "FILE", "with TLS, trust the certificates in FILE (PEM) instead of the system's authorities: a server with a self-signed certificate. Implies --tls",
                   .text("a file path"), \.tlsCA, defaultText: "the system's certificate authorities"),
            .flag("--insecure", "send your password (logging in to a registered name, or registering one) without TLS to a server that is not on this computer; without it the client refuses, because anyone on the network between could read it",
                  \.insecure),
            .flag("--plain-screens", "draw every game, Ghost and Hangman too, from the server's own description of it (its board as rows of text, the moves you may make as a list), as the client draws a kind of game it has no code for: no big letters, no gallows. Not saved",
                  \.plainScreens),
            .help,
            .version,
        ], positionals: [
            .value("host[:port]", "the server: a name, an IPv4 address, or an IPv6 address (in brackets when a port follows: [::1]:7777)",
                   ServerAddress.value, defaultText: "the last one used, else \(defaultHost):\(defaultPort)") { $0.server = $1 },
        ])
    }

    /// The values `--clock` takes: 0, or a clock the main screen offers.
    static var clocksAllowed: String {
        let clocks = ClientConfig.clockChoices.compactMap { $0 }.map(String.init)
        return "0 (no clock), " + clocks.dropLast().joined(separator: ", ") + " or " + (clocks.last ?? "")
    }

    /// `--clock`: 0 or one of the clocks SEEK takes (all within NEW's range).
    static var clockValue: Value<Int> {
        Value(allowed: clocksAllowed, show: { String($0) }) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text) else { return .failure(.notAWholeNumber) }
            return n == 0 || ClientConfig.clockChoices.contains(n) ? .success(n) : .failure(.notAChoice)
        }
    }

    public static var usage: String {
        table.help(usage: "ghost-client \(table.synopsis)", about: [
            "The terminal client for ghostd, the word-game server: Ghost and Hangman.",
        ], footer: [
            "Options take `--name value` or `--name=value`; a bad value is refused",
            "with exit status 2.",
            "",
            "On a terminal it shows full screens; when stdin or stdout is not a terminal",
            "it works line by line: it prints what the server sends and sends each line",
            "it reads (a line holding one letter is a move), for example",
            "  printf 'NAME x\\nSEEK\\n' | ghost-client 127.0.0.1:7777",
            "It plays nothing by itself, so --game and --clock are refused there (exit",
            "status 2):",
            "send the game's commands yourself, e.g. NEW game=hangman.",
            "Keys: letters play, Esc opens the game menu, Ctrl-C quits after asking (a",
            "game waits for you and resumes when you start the client again). In",
            "Hangman, = types a whole answer, Enter starts a new game and Tab flips to",
            "the settings. As in a shell, Ctrl-L redraws the screen, and in a text field",
            "Ctrl-U clears it and Ctrl-W erases its last word.",
        ], defaults: ClientOptions())
    }

    /// Parses the arguments (without the program name). `--help` and
    /// `--version` stop parsing and come back set.
    public static func parse(_ args: [String]) -> Result<ClientOptions, Failure> {
        table.parse(args, into: ClientOptions()).map { parsed in
            var o = ClientOptions()
            switch parsed {
            case .run(let parsed): o = parsed
            case .help: o.help = true
            case .version: o.version = true
            }
            return o
        }
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

    /// As a command-line value.
    static var value: Value<ServerAddress> {
        Value(allowed: "host, host:port or [IPv6]:port, with a port from 1 to 65535", show: \.description) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            return ServerAddress(text).map { .success($0) } ?? .failure(.invalid)
        }
    }
}
