import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A recording of a client session (`GHOST_CLIENT_RECORD=<path>`):
/// every `ClientEvent` the full-screen client dispatched, one text line each,
/// so that a real session can be replayed through `reduce` (the layout test
/// replays the committed ones in Tests/GhostClientTests/Recorded/).
///
/// The format, version 1 (UTF-8, one record a line):
///
///     # ghost-client events 1          the header (other `#` lines are comments)
///     I <key>=<value>                  the settings the client started with (config file lines;
///                                      `I play-at-once=yes` for `--game hangman`)
///     Z <width> <height>               the terminal's size (resize)
///     T <seconds>                      a tick: the monotonic clock, in seconds since the first tick
///     C                                connected (TCP up)
///     D                                disconnected
///     R <text>                         refused (TLS), with the reason
///     F <text>                         the settings file could not be saved
///     S <server line>                  a server line as received (only lines the client decodes)
///     K <key>                          a key
///     P <key> <key> …                  a paste: several keys read at once
///
/// A key is a name (`enter escape tab backspace delete up down left right
/// home end pageUp pageDown ctrlC ctrlD ctrlL ctrlU ctrlW other`) or a
/// character: `'` and the character (`'a`, `'?`) when it is one printable,
/// non-space Unicode scalar, else `U+` and its scalars in hex joined by `+`
/// (`U+20` for a space).
///
/// Nothing secret is written: a character typed on a password screen is
/// recorded as `'x`, and every resume token in a server line or the settings
/// (`token=<hex>`) is replaced by a dummy of the same length.
public enum EventRecording {
    public static let header = "# ghost-client events 1"
    public static let variable = "GHOST_CLIENT_RECORD"

    /// A recording read back: the settings the client started with and its events.
    public struct Session: Equatable, Sendable {
        public var config: ClientConfig
        public var playAtOnce: Bool
        public var events: [ClientEvent]

        public init(config: ClientConfig = ClientConfig(), playAtOnce: Bool = false, events: [ClientEvent] = []) {
            self.config = config
            self.playAtOnce = playAtOnce
            self.events = events
        }

        /// The state the client starts in (as `InteractiveSession.init` builds
        /// it), against a server on this computer.
        public var initialState: ClientState {
            var s = ClientState(config: config, serverAddress: "127.0.0.1:7777", colour: false)
            s.hangman.playAtOnce = playAtOnce
            s.account.transport = .loopback
            return s
        }
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let text: String
        public var description: String { "line \(line): \(text)" }
    }

    // MARK: Writing

    /// The header and `I` lines for a session that starts with these settings.
    public static func start(config: ClientConfig, playAtOnce: Bool) -> [String] {
        var out = [header]
        for line in config.rendered.split(separator: "\n") where !line.hasPrefix("#") {
            out.append("I " + maskingTokens(String(line)))
        }
        if playAtOnce { out.append("I play-at-once=yes") }
        return out
    }

    /// One event's line. `raw`: the server line as received (for `.server`;
    /// without it the line is rendered again). `password`: a password is
    /// being typed (its characters become `x`). `origin`: the clock's value
    /// at the first tick.
    public static func line(_ event: ClientEvent, raw: String? = nil, password: Bool = false, origin: Double = 0) -> String {
        switch event {
        case .server(let l): return "S " + maskingTokens(raw ?? l.rendered)
        case .key(let k): return "K " + token(password ? masked(k) : k)
        case .paste(let keys): return (["P"] + keys.map { token(password ? masked($0) : $0) }).joined(separator: " ")
        case .connected: return "C"
        case .disconnected: return "D"
        case .refused(let why): return "R " + oneLine(why)
        case .tick(let t): return "T " + seconds(t - origin)
        case .resize(let w, let h): return "Z \(w) \(h)"
        case .configSaveFailed(let why): return "F " + oneLine(why)
        }
    }

    static func masked(_ key: Key) -> Key {
        if case .char = key { return .char("x") }
        return key
    }

    static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline ? " " : $0 })
    }

    /// Milliseconds, written as seconds: `12.345`.
    static func seconds(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        let sign = ms < 0 ? "-" : ""
        let m = abs(ms)
        let frac = String(m % 1000)
        return sign + "\(m / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// Each field `token=<hex>` with the hex replaced by a dummy of the same length.
    public static func maskingTokens(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.hasPrefix("token=") else { return String(word) }
            let value = word.dropFirst(6).prefix { $0.isHexDigit }
            return "token=" + "0123456789abcdef".cycled(value.count) + word.dropFirst(6 + value.count)
        }.joined(separator: " ")
    }

    static let names: [(String, Key)] = [
        ("enter", .enter), ("escape", .escape), ("tab", .tab), ("backspace", .backspace), ("delete", .delete),
        ("up", .up), ("down", .down), ("left", .left), ("right", .right), ("home", .home), ("end", .end),
        ("pageUp", .pageUp), ("pageDown", .pageDown), ("ctrlC", .ctrlC), ("ctrlD", .ctrlD), ("ctrlL", .ctrlL),
        ("ctrlU", .ctrlU), ("ctrlW", .ctrlW), ("other", .other),
    ]

    /// A key's token (see the format above).
    public static func token(_ key: Key) -> String {
        guard case .char(let c) = key else { return names.first { $0.1 == key }!.0 }
        let scalars = c.unicodeScalars
        if scalars.count == 1, let s = scalars.first, s.properties.generalCategory.isPrintable, !s.properties.isWhitespace {
            return "'" + String(c)
        }
        return "U+" + scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "+")
    }

    /// The key a token names, if it names one.
    public static func key(_ token: Substring) -> Key? {
        if token.hasPrefix("'") {
            let rest = token.dropFirst()
            guard rest.count == 1, let c = rest.first else { return nil }
            return .char(c)
        }
        if token.hasPrefix("U+") {
            var s = ""
            for part in token.dropFirst(2).split(separator: "+", omittingEmptySubsequences: false) {
                guard let v = UInt32(part, radix: 16), let u = Unicode.Scalar(v) else { return nil }
                s.unicodeScalars.append(u)
            }
            guard s.count == 1, let c = s.first else { return nil }
            return .char(c)
        }
        return names.first { $0.0 == token }?.1
    }

    // MARK: Reading

    /// Reads a recording back into the settings and events it holds.
    public static func parse(_ text: String) throws -> Session {
        var session = Session()
        var settings = ""
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let n = i + 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty || line.hasPrefix("#") { continue }
            let kind = line.prefix { $0 != " " }
            let rest = line.dropFirst(kind.count).drop { $0 == " " }
            func fail(_ why: String) -> ParseError { ParseError(line: n, text: "\(why): \(line)") }
            switch kind {
            case "I":
                if rest == "play-at-once=yes" { session.playAtOnce = true } else { settings += rest + "\n" }
            case "Z":
                let parts = rest.split(separator: " ")
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { throw fail("bad size") }
                session.events.append(.resize(width: w, height: h))
            case "T":
                guard let t = Double(rest) else { throw fail("bad time") }
                session.events.append(.tick(t))
            case "C": session.events.append(.connected)
            case "D": session.events.append(.disconnected)
            case "R": session.events.append(.refused(String(line.dropFirst(2))))
            case "F": session.events.append(.configSaveFailed(String(line.dropFirst(2))))
            case "S":
                guard let l = ServerLine(decoding: String(line.dropFirst(2))) else { throw fail("a server line the client does not decode") }
                session.events.append(.server(l))
            case "K":
                guard let k = key(rest) else { throw fail("bad key") }
                session.events.append(.key(k))
            case "P":
                var keys: [Key] = []
                for t in rest.split(separator: " ") {
                    guard let k = key(t) else { throw fail("bad key \(t)") }
                    keys.append(k)
                }
                session.events.append(.paste(keys))
            default:
                throw fail("unknown record")
            }
        }
        session.config = ClientConfig.parse(settings)
        return session
    }
}

extension Unicode.GeneralCategory {
    /// Letters, marks, numbers, punctuation and symbols (no separators, controls or unassigned).
    var isPrintable: Bool {
        switch self {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            return true
        }
    }
}

extension String {
    /// This string repeated and cut to `count` characters.
    func cycled(_ count: Int) -> String {
        guard !isEmpty else { return "" }
        var s = ""
        while s.count < count { s += self }
        return String(s.prefix(count))
    }
}

/// Appends a session's events to the file `GHOST_CLIENT_RECORD` names (see
/// `EventRecording`). Writes each line at once, so a session cut short keeps
/// what came before. Ticks that change nothing but the clock are written at
/// most once a second, and always just before the next other event, so a
/// replay sees every event at the time it came.
final class EventRecorder {
    private let fd: Int32
    private var origin: Double?
    private var lastTick: Double?
    private var pendingTick: Double?

    init?(path: String, config: ClientConfig, playAtOnce: Bool) {
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        write(EventRecording.start(config: config, playAtOnce: playAtOnce))
    }

    deinit { close(fd) }

    /// Records `event`, which took `before` to `after`; `raw`: a server line as received.
    func record(_ event: ClientEvent, raw: String? = nil, before: ClientState, after: ClientState) {
        if case .tick(let t) = event {
            if origin == nil { origin = t }
            var clockOnly = before
            clockOnly.now = t
            if after != clockOnly || t - (lastTick ?? -1) >= 1 {
                writeTick(t)
            } else {
                pendingTick = t
            }
            return
        }
        if let t = pendingTick { writeTick(t) }
        let password: Bool
        if case .account = before.screen { password = true } else { password = false }
        write([EventRecording.line(event, raw: raw, password: password, origin: origin ?? 0)])
    }

    private func writeTick(_ t: Double) {
        pendingTick = nil
        lastTick = t
        write([EventRecording.line(.tick(t), origin: origin ?? t)])
    }

    private func write(_ lines: [String]) {
        _ = Sys.writeAll(fd, Array(lines.map { $0 + "\n" }.joined().utf8))
    }
}
