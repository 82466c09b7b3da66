import GhostWire
import GhostProtocol
#if canImport(Glibc)
import Glibc
import GameKit
#endif

/// What the client remembers between runs: a small `key=value` file.
///
///     language=nl
///     tutorial=seen
///     name=alice
///     names=alice,bob
///     server=127.0.0.1:7777
///     token=9ee1b5612f9418acd5c3de1c8ec61252
///     rounds=ghost
///     game=hangman
///     tls=yes
///     tls-ca=/home/alice/ghost-server.pem
///
/// Unknown keys and malformed lines are ignored, so an older or newer client
/// can read the file; the token is there only while a game is open.
public struct ClientConfig: Equatable, Sendable {
    /// `en` or `nl`; nil until the player has chosen (the first start).
    public var language: String?
    public var tutorialSeen = false
    /// The name last used.
    public var lastName: String?
    /// Names taken from this client, most recent first (`names=`; at most
    /// `maxRecentNames`). The name picker lists them first: see `usedNames`.
    public var recentNames: [String] = []
    /// `host:port` last used.
    public var server: String?
    /// The server last used speaks TLS (`tls=yes`: `--tls`), checked against
    /// this file's certificates (`tls-ca=`: `--tls-ca`) if one is given.
    /// Never a password: those are kept in memory only.
    public var tls = false
    public var tlsCA: String?
    /// The resume token of the open game, if any.
    public var token: String?
    /// New games are G-H-O-S-T matches (`rounds=ghost`) rather than single games.
    public var matchMode = false
    /// The game the main screen offers: Ghost or Hangman.
    public var game: GameKind = .ghost
    /// New games are on a clock of this many seconds a move (`clock=`); nil: none.
    public var clock: Int?
    /// The Ghost variant of new games (`variant=`): nil for Ghost, or one of
    /// `variants`; `v` on the main screen goes through them.
    public var variant: String?
    /// The variants `v` goes through, in order after Ghost.
    public static let variants = [GhostWire.Variant.superghost.rawValue, GhostWire.Variant.challenge.rawValue]
    /// New Ghost games are Superghost (`variant=super`).
    public var superghost: Bool {
        get { variant == GhostWire.Variant.superghost.rawValue }
        set { variant = newValue ? GhostWire.Variant.superghost.rawValue : (superghost ? nil : variant) }
    }
    /// New games opened here (`NEW`: private games, games against the
    /// computer) keep watchers out (`watch=no`): `p` on the main screen.
    public var privateGames = false
    /// Against the computer it moves first (`first=bot`): the computer
    /// screen's "Who starts", saved like the other settings (`starter=computer`).
    public var computerFirst = false
    /// New Ghost games are bluff and challenge (`variant=challenge`).
    public var challenge: Bool {
        get { variant == GhostWire.Variant.challenge.rawValue }
        set { variant = newValue ? GhostWire.Variant.challenge.rawValue : (challenge ? nil : variant) }
    }

    /// The variant after this one, as `v` goes: Ghost, each of `variants`, Ghost again.
    public mutating func nextVariant() {
        let all: [String?] = [nil] + ClientConfig.variants
        variant = all[((all.firstIndex(of: variant) ?? 0) + 1) % all.count]
    }

    /// The clocks the main screen offers, in the order `c` goes through them
    /// (nil: no clock): those SEEK takes (every one is in NEW's 5 to 3600
    /// seconds), since a clock is sent on SEEK and NEW alike. `--clock`
    /// takes the same (0 for none).
    public static let clockChoices: [Int?] = [nil] + GameOptions.seekClocks

    /// The next clock after this one (`c` on the main screen).
    public mutating func nextClock() {
        let i = ClientConfig.clockChoices.firstIndex(of: clock) ?? 0
        clock = ClientConfig.clockChoices[(i + 1) % ClientConfig.clockChoices.count]
    }

    /// How many names `names=` keeps.
    public static let maxRecentNames = 10

    public init(language: String? = nil, tutorialSeen: Bool = false, lastName: String? = nil,
                recentNames: [String] = [], server: String? = nil, token: String? = nil, matchMode: Bool = false) {
        self.language = language
        self.tutorialSeen = tutorialSeen
        self.lastName = lastName
        self.recentNames = recentNames
        self.server = server
        self.token = token
        self.matchMode = matchMode
    }

    public static func parse(_ text: String) -> ClientConfig {
        var c = ClientConfig()
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<eq]).trimmingSpaces
            let value = String(line[line.index(after: eq)...]).trimmingSpaces
            switch key {
            case "language": c.language = Strings.uiLanguages.contains(value) ? value : nil
            case "tutorial": c.tutorialSeen = value == "seen"
            case "name": c.lastName = ClientConfig.safeValue(value)
            case "names": c.recentNames = ClientConfig.nameList(value)
            case "server": c.server = ClientConfig.safeValue(value)
            case "token": c.token = ClientConfig.isToken(value) ? value : nil
            case "rounds": c.matchMode = Rounds(rawValue: value) == .ghost
            case "game": c.game = value == GameKind.hangman.rawValue ? .hangman : .ghost
            case "clock": c.clock = Int(value).flatMap { ClientConfig.clockChoices.contains($0) ? $0 : nil }
            case "variant": c.variant = ClientConfig.variants.contains(value) ? value : nil
            case "watchers": c.privateGames = value == "no"
            case "starter": c.computerFirst = value == "computer"
            case "tls": c.tls = value == "yes"
            case "tls-ca": c.tlsCA = ClientConfig.safeValue(value)
            default: break
            }
        }
        return c
    }

    public var rendered: String {
        var out = "# ghost-client settings (written by ghost-client; key=value)\n"
        if let language { out += "language=\(language)\n" }
        out += "tutorial=\(tutorialSeen ? "seen" : "unseen")\n"
        if let lastName { out += "name=\(lastName)\n" }
        if !recentNames.isEmpty { out += "names=\(recentNames.joined(separator: ","))\n" }
        if let server { out += "server=\(server)\n" }
        if let token { out += "token=\(token)\n" }
        // Written as before (`single` for one round), so older clients read it.
        out += "rounds=\(matchMode ? Rounds.ghost.rawValue : "single")\n"
        out += "game=\(game.rawValue)\n"
        if let clock { out += "clock=\(clock)\n" }
        if let variant { out += "variant=\(variant)\n" }
        if privateGames { out += "watchers=no\n" }
        if computerFirst { out += "starter=computer\n" }
        if tls { out += "tls=yes\n" }
        if let tlsCA { out += "tls-ca=\(tlsCA)\n" }
        return out
    }

    /// The names this client has used, most recent first, without repeats
    /// (compared case-insensitively), at most `maxRecentNames`: the last name
    /// (an older client wrote only `name=`), then `names=`.
    public var usedNames: [String] {
        ClientConfig.distinct((lastName.map { [$0] } ?? []) + recentNames)
    }

    /// `name` was taken: it becomes the last name and the first of `names=`.
    /// Returns whether anything changed (the file is to be saved).
    @discardableResult
    public mutating func remember(_ name: String) -> Bool {
        // The last name is already the first of `usedNames`.
        guard lastName != name else { return false }
        recentNames = ClientConfig.distinct([name] + usedNames)
        lastName = name
        return true
    }

    /// The first occurrence of each name (case-insensitively), at most `maxRecentNames`.
    static func distinct(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for n in names where out.count < maxRecentNames && seen.insert(n.lowercased()).inserted { out.append(n) }
        return out
    }

    /// `names=`: comma-separated; anything that is not a valid name is dropped.
    static func nameList(_ value: String) -> [String] {
        distinct(value.split(separator: ",").map { $0.trimmingSpaces }.filter { CommandParser.isValidName($0) })
    }

    /// A value without spaces or control characters, at most 255 bytes; else nil.
    static func safeValue(_ s: String) -> String? {
        guard !s.isEmpty, s.utf8.count <= 255, !s.utf8.contains(0x20), !Sanitize.containsControl(s) else { return nil }
        return s
    }

    /// Tokens are hex digits (32 today); accept 1–128 of them.
    static func isToken(_ s: String) -> Bool {
        (1...128).contains(s.utf8.count) && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}

/// Where the config lives and how it is read and written.
public enum ConfigFile {
    /// `$XDG_CONFIG_HOME/ghost/config`, else `$HOME/.config/ghost/config`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/ghost/config"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return home + "/.config/ghost/config"
    }

    /// The config at `path`, and whether the file existed. A missing or
    /// unreadable file gives the defaults.
    public static func load(_ path: String) -> (config: ClientConfig, existed: Bool) {
        guard let bytes = readFile(path) else { return (ClientConfig(), false) }
        return (ClientConfig.parse(String(decoding: bytes, as: UTF8.self)), true)
    }

    public struct SaveError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes atomically: a temporary file in the same folder, fsync, rename.
    /// Creates the folder (and its parents) if needed.
    public static func save(_ config: ClientConfig, to path: String) throws {
        let dir = directory(of: path)
        try makeDirectories(dir)
        let temp = path + ".tmp.\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SaveError(description: "\(temp): \(errnoText())") }
        guard Sys.writeAll(fd, Array(config.rendered.utf8)) else {
            let e = errnoText()
            close(fd)
            unlink(temp)
            throw SaveError(description: "\(temp): \(e)")
        }
        fsync(fd)
        close(fd)
        guard rename(temp, path) == 0 else {
            let e = errnoText()
            unlink(temp)
            throw SaveError(description: "\(path): \(e)")
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }

    static func makeDirectories(_ dir: String) throws {
        var st = stat()
        if stat(dir, &st) == 0 { return }
        let parent = directory(of: dir)
        if parent != dir && parent != "." && parent != "/" { try makeDirectories(parent) }
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw SaveError(description: "\(dir): \(errnoText())")
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while out.count < 1 << 20 {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }
}

