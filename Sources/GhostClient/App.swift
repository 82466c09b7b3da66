import CGhostSys
import GhostProtocol
#if canImport(Glibc)
import Glibc
import GameKit
#endif

/// The program: options, then the full-screen client on a terminal, or line
/// mode when stdin or stdout is not one.
public enum ClientApp {
    public static let version = "0.1.0"

    public static func main(_ arguments: [String]) -> Int32 {
        // `--generate-manual`, `--generate-completion bash|zsh`: hidden, for scripts/generate-docs.sh.
        if let text = ClientManual.generated(Array(arguments.dropFirst())) {
            _ = Sys.writeAll(1, Array(text.utf8))
            return 0
        }
        let options: ClientOptions
        switch ClientOptions.parse(Array(arguments.dropFirst())) {
        case .success(let o): options = o
        case .failure(let f):
            printError("ghost-client: \(f.description) (see ghost-client --help)")
            return 2
        }
        if options.help {
            _ = Sys.writeAll(1, Array((ClientOptions.usage + "\n").utf8))
            return 0
        }
        if options.version {
            _ = Sys.writeAll(1, Array("ghost-client \(version) (protocol 2)\n".utf8))
            return 0
        }

        let path = options.configPath ?? ConfigFile.defaultPath(environment: environment(["XDG_CONFIG_HOME", "HOME"]))
        var (config, _) = ConfigFile.load(path)
        let address = options.server ?? config.server.flatMap(ServerAddress.init)
            ?? ServerAddress(host: ClientOptions.defaultHost, port: ClientOptions.defaultPort)
        let tls = tlsSettings(options, config)

        guard Terminal.isTerminal(0) && Terminal.isTerminal(1) else {
            if let refusal = lineModeRefusal(options) {
                printError("ghost-client: \(refusal) (see ghost-client --help)")
                return 2
            }
            return LineMode(address: address, tls: tls, insecure: options.insecure).run()
        }

        let before = config
        config = applying(options, to: config)
        // server=, tls= and tls-ca= are written once a server answered there (HELLO), not before.
        if config != before {
            do { try ConfigFile.save(config, to: path) } catch {
                printError("ghost-client: cannot save \(path): \(error)")
            }
        }
        let noColour = getenv("NO_COLOR").map { String(cString: $0) }.map { !$0.isEmpty } ?? false
        let dumb = getenv("TERM").map { String(cString: $0) } == "dumb"
        let session = InteractiveSession(config: config, configPath: path, address: address, colour: !noColour && !dumb,
                                         playAtOnce: options.game.map { ClientGames.playedAtOnce.contains(GameKind(rawValue: $0)) } ?? false,
                                         tls: tls, insecure: options.insecure, plainScreens: options.plainScreens)
        return session.run()
    }

    /// Why line mode refuses these options, if it does. Line mode passes
    /// lines on and plays nothing by itself, so `--game` (which picks the
    /// main screen's game and starts Hangman at once) would silently do
    /// nothing there: it is refused instead, with exit status 2.
    public static func lineModeRefusal(_ options: ClientOptions) -> String? {
        if options.game == nil, let clock = options.clock {
            return "--clock \(clock) needs a terminal: in line mode (stdin or stdout is not a terminal) the client only passes"
                + " lines on, so send clock= on your NEW or SEEK yourself, e.g. SEEK clock=30"
        }
        guard let game = options.game else { return nil }
        return "--game \(game) needs a terminal: in line mode (stdin or stdout is not a terminal) the client only passes"
            + " lines on, so send the game's commands yourself, e.g. NEW game=hangman"
    }

    /// The settings file with what the command line chooses (all saved):
    /// `--lang`, `--game`, and `--clock` (0: no clock).
    static func applying(_ options: ClientOptions, to config: ClientConfig) -> ClientConfig {
        var config = config
        if let lang = options.lang { config.language = lang }
        if let game = options.game { config.game = GameKind(rawValue: game) }
        if let clock = options.clock { config.clock = clock == 0 ? nil : clock }
        // TLS goes with the server: saved with it once a server answered
        // (ClientState.hello), not here.
        return config
    }

    /// TLS as the command line asks, else as saved with the server last used
    /// (when the command line names no server).
    static func tlsSettings(_ options: ClientOptions, _ config: ClientConfig) -> TLSSettings? {
        if let tls = options.tlsSettings { return tls }
        guard options.server == nil, config.tls else { return nil }
        return TLSSettings(caFile: config.tlsCA)
    }

    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    static func printError(_ text: String) {
        _ = Sys.writeAll(2, Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func environment(_ keys: [String]) -> [String: String] {
        var env: [String: String] = [:]
        for k in keys { if let v = getenv(k) { env[k] = String(cString: v) } }
        return env
    }
}

/// The full-screen client: one poll loop over the terminal, the socket, the
/// signal fd and a timer, feeding events to `reduce` and carrying out its effects.
final class InteractiveSession {
    private var state: ClientState
    private let configPath: String
    private let terminal = Terminal()
    private let connection: Connection
    private var decoder = KeyDecoder()
    private var reconnectAt: Double?
    /// When the current connection attempt began: an attempt gets `connectSeconds`.
    private var connectingSince: Double?
    /// When the key decoder began holding an unfinished sequence (a lone ESC).
    private var keysPendingSince: Double?
    static let connectSeconds = 5.0
    static let escapeSeconds = 0.03
    private var quit = false
    private var exitCode: Int32 = 0
    /// `GHOST_CLIENT_RECORD=<path>`: every event dispatched, appended there (EventRecorder.swift).
    private let recorder: EventRecorder?

    init(config: ClientConfig, configPath: String, address: ServerAddress, colour: Bool, playAtOnce: Bool = false,
         tls: TLSSettings? = nil, insecure: Bool = false, plainScreens: Bool = false) {
        state = ClientState(config: config, serverAddress: address.description, colour: colour)
        state.hangman.playAtOnce = playAtOnce
        state.plainScreens = plainScreens
        // How this connection speaks (TLS, and the certificates it trusts): saved with the server once one answers.
        state.connectionTLS = ConnectionTLS(tls: tls != nil, caFile: tls?.caFile)
        // A password goes only where nobody between can read it: over TLS,
        // or to this computer; `--insecure` overrides (as browsers do).
        state.account.transport = tls != nil ? .tls : address.isLoopback ? .loopback : insecure ? .insecure : .clear
        self.configPath = configPath
        connection = Connection(address: address, tls: tls)
        recorder = getenv(EventRecording.variable).map { String(cString: $0) }.flatMap { path in
            guard !path.isEmpty else { return nil }
            let r = EventRecorder(path: path, config: config, playAtOnce: playAtOnce)
            if r == nil { ClientApp.printError("ghost-client: cannot record to \(path): \(errnoText()); playing on without recording") }
            return r
        }
    }

    func run() -> Int32 {
        let signals = ghost_client_signalfd_open()
        guard terminal.enter() else {
            ClientApp.printError("ghost-client: cannot put the terminal in raw mode: \(errnoText())")
            if signals >= 0 { close(signals) }
            return 1
        }
        // From here on, every way out goes through the restore below.
        if let size = terminal.size() { dispatch(.resize(width: size.width, height: size.height)) }
        dispatch(.tick(Sys.now()))
        startConnecting()
        render()

        while !quit {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            if signals >= 0 { fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0)) }
            let socketSlot = connection.isOpen ? fds.count : -1
            if connection.isOpen { fds.append(pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0)) }

            let r = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
            if r < 0 && errno != EINTR {
                exitCode = 1
                break
            }
            dispatch(.tick(Sys.now()))

            if signals >= 0, fds[1].revents != 0 { handleSignals(signals) }
            if quit { break }
            if fds[0].revents & Int16(POLLIN) != 0 {
                readKeys()
            } else if fds[0].revents & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 {
                quit = true  // the terminal is gone
            }
            if quit { break }
            let now = Sys.now()
            if let since = keysPendingSince, now - since >= InteractiveSession.escapeSeconds {
                // Nothing followed the ESC in time: it was the Esc key.
                keysPendingSince = nil
                for k in decoder.feed([], final: true) { dispatch(.key(k)) }
            }
            if socketSlot >= 0, fds[socketSlot].revents != 0 {
                for e in connection.handle(revents: fds[socketSlot].revents) { connectionEvent(e) }
            }
            if let since = connectingSince, connection.connecting, now - since >= InteractiveSession.connectSeconds {
                // No answer (packets dropped): give up on this attempt and back off.
                connectingSince = nil
                connection.close()
                dispatch(.disconnected)
            }
            if let at = reconnectAt, Sys.now() >= at {
                reconnectAt = nil
                startConnecting()
            }
            if !quit { render() }
        }

        connection.close()
        terminal.restore()
        if signals >= 0 { close(signals) }
        if state.config.token != nil {
            let farewell = state.game?.clock != nil ? state.strings.clock.farewellClockRuns : state.strings.farewellGameWaits
            _ = Sys.writeAll(1, Array((farewell + "\n").utf8))
        }
        return exitCode
    }

    private func timeoutMilliseconds() -> Int32 {
        let now = Sys.now()
        var deadlines: [Double] = []
        if let at = reconnectAt { deadlines.append(at) }
        if let d = state.nextDeadline { deadlines.append(d) }
        if let since = keysPendingSince { deadlines.append(since + InteractiveSession.escapeSeconds) }
        if let since = connectingSince, connection.connecting { deadlines.append(since + InteractiveSession.connectSeconds) }
        guard let next = deadlines.min() else { return -1 }
        return Int32(min(60_000, max(0, ((next - now) * 1000).rounded(.up))))
    }

    private func handleSignals(_ fd: Int32) {
        while true {
            let sig = ghost_signalfd_read(fd)
            if sig == 0 { return }
            if sig == SIGWINCH {
                if let size = terminal.size() {
                    terminal.invalidate()
                    dispatch(.resize(width: size.width, height: size.height))
                }
            } else {
                // SIGINT, SIGTERM, SIGHUP: restore the terminal and leave.
                quit = true
                exitCode = 128 + sig
                return
            }
        }
    }

    private func readKeys() {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard n > 0 else {
            quit = true
            return
        }
        // A lone ESC at the end of a read is the Esc key unless more follows at once.
        let keys = decoder.feed(Array(buf[0..<n]), final: false)
        if keys.count > 1, keys.allSatisfy({ if case .char = $0 { true } else { false } }) {
            // Several characters in one read: a paste, not keys typed one by one.
            dispatch(.paste(keys))
        } else {
            for key in keys {
                dispatch(.key(key))
                if quit { return }
            }
        }
        keysPendingSince = decoder.hasPending ? (keysPendingSince ?? Sys.now()) : nil
    }

    private func startConnecting() {
        if connection.start() != nil {
            connectingSince = nil
            dispatch(.disconnected)
        } else {
            connectingSince = Sys.now()
        }
    }

    private func connectionEvent(_ e: Connection.Event) {
        switch e {
        case .connected:
            connectingSince = nil
            dispatch(.connected)
        case .line(let text):
            // A line this client does not know (a later protocol's) is ignored.
            if let line = ServerLine(decoding: text) { dispatch(.server(line), raw: text) }
        case .closed:
            connectingSince = nil
            dispatch(.disconnected)
        case .refused(let why):
            // Not retried: the same server would be refused the same way.
            connectingSince = nil
            dispatch(.refused(why))
        }
    }

    private func dispatch(_ event: ClientEvent, raw: String? = nil) {
        let (next, effects) = reduce(state, event)
        recorder?.record(event, raw: raw, before: state, after: next)
        state = next
        for effect in effects {
            switch effect {
            case .send(let command):
                connection.send(command.rendered)
            case .sendAccount(let command):
                connection.send(command.line)
            case .saveConfig:
                do { try ConfigFile.save(state.config, to: configPath) } catch {
                    let (n, _) = reduce(state, .configSaveFailed("\(error)"))
                    recorder?.record(.configSaveFailed("\(error)"), before: state, after: n)
                    state = n
                }
            case .reconnect(let after):
                connection.close()
                reconnectAt = Sys.now() + after
            case .quit:
                quit = true
            case .redraw:
                // Ctrl-L: forget what is on screen; the next render repaints it all.
                terminal.invalidate()
            }
        }
    }

    private func render() {
        terminal.draw(Screens.render(state))
    }
}
