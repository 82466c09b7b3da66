import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A private tmux server (its own `-L` socket name, no config file) for
/// driving real clients in real terminals. Killed when the object goes away.
public final class Tmux: @unchecked Sendable {
    public let socket: String
    /// A scratch folder for this server's files (configs, pid files, output).
    public let folder: String
    private var killed = false
    /// Every line any capture has shown (see `everShown`).
    private var shown = Set<String>()
    private let shownLock = NSLock()

    nonisolated(unsafe) private static var counter = 0
    private static let lock = NSLock()

    public init() throws {
        Tmux.lock.lock()
        Tmux.counter += 1
        let n = Tmux.counter
        Tmux.lock.unlock()
        socket = "ghost-client-e2e-\(getpid())-\(n)"
        var template = Array("/tmp/ghost-client-e2e-XXXXXX".utf8CString)
        guard let dir = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw DaemonError("mkdtemp failed")
        }
        folder = String(cString: dir)
    }

    deinit {
        kill()
        _ = try? FileManager.default.removeItem(atPath: folder)
    }

    /// Kills the tmux server and everything in it (idempotent).
    public func kill() {
        guard !killed else { return }
        killed = true
        let socketPath = try? run(["display-message", "-p", "#{socket_path}"], check: false)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? run(["kill-server"], check: false)
        // tmux leaves the socket file behind.
        if let socketPath, socketPath.hasSuffix("/" + socket) { unlink(socketPath) }
    }

    /// Runs `tmux -L <socket> -f /dev/null <args>`; returns its output.
    @discardableResult
    public func run(_ args: [String], check: Bool = true) throws -> String {
        let out = folder + "/tmux-out-\(UUID().uuidString)"
        defer { unlink(out) }
        let status = try Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + args, output: out)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        if check && status != 0 {
            throw DaemonError("tmux \(args.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    /// A new detached session running a plain `sh` with the prompt `$ `.
    public func newSession(_ name: String, width: Int = 80, height: Int = 24) throws {
        try run(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height),
                 "env PS1='$ ' HOME=\(folder) sh"])
    }

    /// Types `text` literally.
    public func type(_ session: String, _ text: String) throws {
        try run(["send-keys", "-t", session, "-l", text])
    }

    /// Sends tmux key names: "Enter", "Escape", "C-c", "Down" …
    public func keys(_ session: String, _ names: String...) throws {
        try run(["send-keys", "-t", session] + names)
    }

    /// Quits a ghost-client: Ctrl-C, which asks first, and once
    /// the question is on the screen (in either language) a second Ctrl-C.
    public func quit(_ session: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try keys(session, "C-c")
        _ = try waitFor(session, "the quit question", sourceLocation: sourceLocation) { screen in
            screen.contains { $0.contains("Quit the program?") || $0.contains("Het programma stoppen?") }
        }
        try keys(session, "C-c")
    }

    /// Types a shell command line and presses Enter.
    public func shell(_ session: String, _ command: String) throws {
        try type(session, command)
        try keys(session, "Enter")
    }

    /// The visible screen, line by line, without attributes.
    public func capture(_ session: String) throws -> [String] {
        let lines = try run(["capture-pane", "-p", "-t", session]).components(separatedBy: "\n")
        shownLock.lock()
        shown.formUnion(lines)
        shownLock.unlock()
        return lines
    }

    /// Whether any screen captured so far, in any session, showed `text` on one line.
    public func everShown(_ text: String) -> Bool {
        shownLock.lock()
        defer { shownLock.unlock() }
        return shown.contains { $0.contains(text) }
    }

    /// How many different lines the captures have shown (to check `everShown` saw something).
    public var shownCount: Int {
        shownLock.lock()
        defer { shownLock.unlock() }
        return shown.count
    }

    /// `tmux display -p <format>` for the session's pane.
    public func display(_ session: String, _ format: String) throws -> String {
        try run(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `predicate` holds; records an issue with the
    /// last screen and throws on timeout.
    @discardableResult
    public func waitFor(_ session: String, _ what: String, timeout: Double = 20,
                 sourceLocation: SourceLocation = #_sourceLocation,
                 _ predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = monotonicNow() + timeout
        var screen: [String] = []
        while monotonicNow() < deadline {
            screen = try capture(session)
            if predicate(screen) { return screen }
            usleep(50_000)
        }
        let text = "[\(session)] waited \(timeout) s for \(what); the screen:\n" + screen.joined(separator: "\n")
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        throw DaemonError(text)
    }

    /// Waits until some line contains `text`.
    @discardableResult
    public func waitFor(_ session: String, text: String, timeout: Double = 20,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try waitFor(session, "“\(text)”", timeout: timeout, sourceLocation: sourceLocation) { $0.contains { $0.contains(text) } }
    }
}

extension Tmux {
    /// A ghost-client config for `label` in this server's folder: English,
    /// the tutorial seen, `name` remembered, `game` chosen.
    public func writeConfig(_ label: String, name: String, game: String = "ghost") throws {
        try FileManager.default.createDirectory(atPath: "\(folder)/\(label)", withIntermediateDirectories: true)
        try "language=en\ntutorial=seen\nname=\(name)\ngame=\(game)\n"
            .write(toFile: "\(folder)/\(label)/config", atomically: true, encoding: .utf8)
    }

    /// The shell command that runs ghost-client for `label` (its pid in
    /// `<folder>/<label>.pid`, its config `<folder>/<label>/config`) against `port`.
    public func clientCommand(_ label: String, port: Int, noColour: Bool, extra: String = "") throws -> String {
        let bin = try ClientBinary.path()
        let env = noColour ? "NO_COLOR=1" : "NO_COLOR="
        return "sh -c 'echo $$ > \(folder)/\(label).pid; exec env \(env) \(bin) --config \(folder)/\(label)/config \(extra) 127.0.0.1:\(port)'"
    }

    /// On ghost-client's main screen: → until the game named `name` is the
    /// one chosen (`● name`), whatever order the games come in; the screen then.
    @discardableResult
    public func chooseGame(_ label: String, _ name: String) throws -> [String] {
        var screen = try waitFor(label, text: name)
        for _ in 0..<8 where !screen.contains(where: { $0.contains("● " + name) }) {
            let chosen = screen.first { $0.contains("●") }
            try keys(label, "Right")
            screen = try waitFor(label, "the next game") { $0.first { $0.contains("●") } != chosen }
        }
        return screen
    }

    /// Starts ghost-client in session `label` without colours, once its shell is ready.
    public func startClient(_ label: String, port: Int, extra: String = "") throws {
        // Typed before the shell's first prompt, the command would share its line with it.
        try waitFor(label, "the shell prompt") { $0.last(where: { !$0.isEmpty }) == "$" }
        try shell(label, try clientCommand(label, port: port, noColour: true, extra: extra))
    }
}

public enum ClientBinary {
    /// `$GHOST_CLIENT_BIN`, else `ghost-client` next to the running test bundle,
    /// else `<root>/.build/debug/ghost-client`.
    public static func path() throws -> String {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["GHOST_CLIENT_BIN"], !env.isEmpty { return env }
        var candidates: [String] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("ghost-client").path)
                dir.deleteLastPathComponent()
            }
        }
        candidates.append(DaemonProcess.packageRoot + "/.build/debug/ghost-client")
        for c in candidates {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: c, isDirectory: &isDir), !isDir.boolValue, fm.isExecutableFile(atPath: c) { return c }
        }
        throw DaemonError("cannot find the ghost-client binary; looked at \(candidates). Run `swift build --build-tests`.")
    }
}

/// Runs programs without Foundation's Process, for two reasons: the test
/// runner's threads block most signals and a child inherits that mask (a tmux
/// server with SIGCHLD blocked never notices its panes' processes exit), and
/// `waitUntilExit` can hang off the main thread. Children get an empty signal
/// mask, default dispositions, stdin from /dev/null, stdout and stderr into a
/// file (never a pipe another test's child could hold open), and no other
/// inherited descriptors.
public enum Spawn {
    /// Runs `argv` (looked up in PATH) to completion; returns its exit status
    /// (128+n if killed by signal n).
    public static func run(_ argv: [String], output: String, timeout: Double = 60) throws -> Int32 {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGCHLD, SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGWINCH, SIGQUIT, SIGTSTP] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeFrom(&actions, 3)

        var cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, &attr, &cargs, environ)
        guard rc == 0 else { throw DaemonError("posix_spawnp \(argv[0]): \(String(cString: strerror(rc)))") }

        let deadline = monotonicNow() + timeout
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw DaemonError("waitpid: \(String(cString: strerror(errno)))") }
            if monotonicNow() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw DaemonError("\(argv.joined(separator: " ")) did not finish within \(timeout) s")
            }
            usleep(2_000)
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+), looked up at run time.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ from: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        let handle = dlopen(nil, RTLD_NOW)
        defer { if let handle { dlclose(handle) } }
        guard let sym = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(sym, to: AddCloseFrom.self)(&actions, from)
    }
}
