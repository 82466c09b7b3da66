import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public enum ExitStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    public var description: String {
        switch self {
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A real `ghostd` process on a free loopback port (`LoopbackPort.free()`), for end-to-end tests.
///
/// `start()` returns once the daemon has printed its `listening on HOST:PORT`
/// line. Unless the arguments name one, it gets `--data <fresh temp folder>`,
/// so no test touches `~/.local/state`; `relaunch()` keeps that folder, and it
/// is removed once the last daemon using it is gone. The daemon never outlives the object: `deinit` SIGKILLs it if it is
/// still running, and a tiny shell watchdog SIGKILLs it if the test process
/// itself dies. Use `terminate()` (SIGTERM) to check a clean shutdown, `kill()`
/// (SIGKILL) to simulate a crash, and `relaunch()` to start a fresh daemon with
/// the same arguments (by default on the same port).
public final class DaemonProcess: @unchecked Sendable {
    /// Seconds to wait for the `listening on` line.
    public static let startTimeout: Double = 30

    public let host: String
    public let port: Int
    public let pid: Int32
    /// The arguments after the binary, as started.
    public let arguments: [String]
    public let binary: String
    /// The `--data` folder this daemon (and its relaunches) uses.
    public let dataPath: String
    /// Variables set for it besides the test's own.
    public let environment: [String: String]

    /// Owns the temporary data folder; shared with relaunches.
    private let dataDirectory: DataDirectory?
    private let process: Process
    private let watchdog: Process?
    /// Guards `exitBox`, which the stderr reader and the termination handler fill in.
    private let state = NSCondition()
    private let exitBox: ExitBox

    // MARK: Locations

    /// The package root, from this file's path (Tests/TestSupport/…).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static var dictionariesFolder: String { packageRoot + "/Dictionaries" }

    /// `$GHOSTD_BIN`, else `ghostd` next to the running test bundle, else `<root>/.build/debug/ghostd`.
    /// ghostd with the game kinds used only by tests (Tests/TestKindsDaemon), next to ghostd.
    public static func testKindsBinaryPath() throws -> String {
        URL(fileURLWithPath: try binaryPath()).deletingLastPathComponent().appendingPathComponent("ghostd-testkinds").path
    }

    /// A path once found is kept (only a success: a failure is looked up again), and a
    /// lookup that finds nothing tries once more, saying why each candidate failed: CI's
    /// faketime pass once saw one test miss a binary every other test found.
    private static let foundLock = NSLock()
    nonisolated(unsafe) private static var found: String?

    public static func binaryPath() throws -> String {
        if let path = foundLock.withLock({ found }) { return path }
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["GHOSTD_BIN"], !env.isEmpty {
            guard fm.isExecutableFile(atPath: env) else { throw DaemonError("GHOSTD_BIN=\(env) is not an executable file") }
            return env
        }
        var reasons: [String] = []
        for _ in 0..<2 {
            do {
                let path = try lookUpBinary()
                foundLock.withLock { found = path }
                return path
            } catch {
                reasons.append(String(describing: error))
            }
        }
        throw DaemonError(reasons.joined(separator: "; then: "))
    }

    private static func lookUpBinary() throws -> String {
        let fm = FileManager.default
        var candidates: [String] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            // The test bundle is `<products>/ghostdPackageTests.xctest` (a file on Linux);
            // walk up a few levels in case it is a directory bundle.
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("ghostd").path)
                dir.deleteLastPathComponent()
            }
        }
        candidates.append(packageRoot + "/.build/debug/ghostd")
        var looked: [String] = []
        for c in candidates {
            var st = stat()
            guard stat(c, &st) == 0 else { looked.append("\(c) (stat: \(String(cString: strerror(errno))))"); continue }
            guard (st.st_mode & S_IFMT) == S_IFREG else { looked.append("\(c) (not a file)"); continue }
            guard access(c, X_OK) == 0 else { looked.append("\(c) (access: \(String(cString: strerror(errno))))"); continue }
            return c
        }
        throw DaemonError("cannot find the ghostd binary; looked at \(looked). Run `swift build --build-tests` or set GHOSTD_BIN.")
    }

    // MARK: Starting

    /// Starts `ghostd --port <port> --dictionaries <root>/Dictionaries --data <temp> <extraArguments>`
    /// and waits for its `listening on` line. `--data` is left out when
    /// `extraArguments` holds one.
    ///
    /// With `shellPrefix` (e.g. `ulimit -n 64`), ghostd is started as
    /// `/bin/sh -c '<shellPrefix>; exec "$0" "$@"' <ghostd> <arguments>`: the
    /// shell runs the prefix and then becomes ghostd (same pid), and
    /// `relaunch()` goes through the same shell.
    /// `environment`: variables to set for it besides the test's own
    /// (`NOTIFY_SOCKET`), kept by `relaunch`.
    public static func start(extraArguments: [String] = [], port: Int = 0,
                      dictionaries: String = DaemonProcess.dictionariesFolder,
                      timeout: Double = DaemonProcess.startTimeout,
                      shellPrefix: String? = nil, binary: String? = nil,
                      environment: [String: String] = [:], standby: Bool = false) throws -> DaemonProcess {
        // Port 0: a port outside the kernel's ephemeral range, chosen here
        // (`LoopbackPort.free()`), which the kernel hands to nothing else
        // while a test has the daemon down to start it again on it; once
        // more on another if something bound it meanwhile.
        guard port == 0 else {
            return try start(arguments: ["--port", String(port), "--dictionaries", dictionaries], extraArguments: extraArguments,
                             timeout: timeout, shellPrefix: shellPrefix, binary: binary, environment: environment, standby: standby)
        }
        return try onFreePort { free in
            try start(arguments: ["--port", String(free), "--dictionaries", dictionaries],
                      extraArguments: extraArguments, timeout: timeout, shellPrefix: shellPrefix, binary: binary,
                      environment: environment, standby: standby)
        }
    }

    /// `start` on a port from `LoopbackPort.free()`, and up to twice more on
    /// another if something bound it before the daemon did.
    private static func onFreePort<T>(_ start: (Int) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try start(try LoopbackPort.free())
            } catch let error as DaemonError where attempt < 3 && error.description.contains("Address already in use") {
                continue
            }
        }
    }

    private static func start(arguments base: [String], extraArguments: [String], timeout: Double, shellPrefix: String?,
                              binary: String?, environment: [String: String], standby: Bool) throws -> DaemonProcess {
        var args = base
        var data: DataDirectory?
        args += testDefaults(extraArguments)
        if !extraArguments.contains(where: { $0 == "--data" || $0.hasPrefix("--data=") }) {
            let dir = try DataDirectory()
            args += ["--data", dir.path]
            data = dir
        }
        if let shellPrefix {
            return try DaemonProcess(binary: "/bin/sh",
                                     arguments: ["-c", shellPrefix + "; exec \"$0\" \"$@\"", try binaryPath()] + args + extraArguments,
                                     dataDirectory: data, timeout: timeout, environment: environment, standby: standby)
        }
        return try DaemonProcess(binary: try binary ?? binaryPath(), arguments: args + extraArguments,
                                 dataDirectory: data, timeout: timeout, environment: environment, standby: standby)
    }

    /// `GHOSTD_TEST_STORE=postgresql`: every daemon keeps its state in
    /// PostgreSQL (`--store`), in a database of the tests' own server
    /// (`PostgresServer.shared()`) made for its data folder at its first
    /// start, which a relaunch on that folder finds again. A test that sets
    /// `--store` itself keeps its own. CI's second pass runs the suites this
    /// way (issue #48: both backends pass the same suites).
    public static var testStore: String? {
        ProcessInfo.processInfo.environment["GHOSTD_TEST_STORE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether this run's daemons keep their state in PostgreSQL (a test of
    /// SQLite's own files skips what it cannot check there).
    public static var onPostgres: Bool { testStore == "postgresql" }

    private static let storesLock = NSLock()
    nonisolated(unsafe) private static var stores: [String: String] = [:]

    static func withTestStore(_ arguments: [String]) throws -> [String] {
        guard !arguments.contains(where: { $0 == "--store" || $0.hasPrefix("--store=") }),
              let data = dataArgument(arguments), let url = try storeURL(forData: data) else { return arguments }
        return arguments + ["--store", url]
    }

    /// The PostgreSQL database a daemon on data folder `data` keeps its
    /// state in under `GHOSTD_TEST_STORE=postgresql` (made at the first
    /// ask: a test may fill it before the daemon starts); nil on SQLite.
    public static func storeURL(forData data: String) throws -> String? {
        guard onPostgres else { return nil }
        if let url = storesLock.withLock({ stores[data] }) { return url }
        let url = try PostgresServer.shared().createDatabase()
        return storesLock.withLock {
            if let first = stores[data] { return first }
            stores[data] = url
            return url
        }
    }

    /// The options a test's daemon gets unless the test sets them itself.
    public static func testDefaults(_ extraArguments: [String]) -> [String] {
        var args: [String] = []
        // Tests make many names from 127.0.0.1: no limit on new names unless a test sets one.
        // No stalling limits either: their TURN countdowns (`abort_in=`,
        // `claim_in=`) belong to the tests of those limits.
        // No web port (on by default at 7780) unless a test asks for one: tests run side by side.
        for option in ["--max-new-names-per-minute", "--first-move-timeout", "--move-timeout", "--web-port"]
        where !extraArguments.contains(where: { $0.hasPrefix(option) }) {
            args += [option, "0"]
        }
        return args
    }

    /// Starts a new daemon with the same arguments. With `samePort`, it binds the
    /// port this one had (which must be stopped first); retries briefly while the
    /// port is still busy.
    public func relaunch(samePort: Bool = true, timeout: Double = DaemonProcess.startTimeout, standby: Bool = false) throws -> DaemonProcess {
        var args = arguments
        if let i = args.firstIndex(of: "--port"), i + 1 < args.count { args[i + 1] = samePort ? String(port) : String(try LoopbackPort.free()) }
        let deadline = monotonicNow() + timeout
        while true {
            do {
                return try DaemonProcess(binary: binary, arguments: args, dataDirectory: dataDirectory,
                                         timeout: max(1, deadline - monotonicNow()), environment: environment, standby: standby)
            } catch let error as DaemonError where samePort && error.description.contains("in use") && monotonicNow() < deadline {
                usleep(100_000)
            }
        }
    }

    /// Starts a new daemon on the same port, word lists and data folder as
    /// this one (which must be stopped first), with other extra arguments and
    /// shell prefix.
    public func relaunch(extraArguments: [String], shellPrefix: String? = nil,
                  timeout: Double = DaemonProcess.startTimeout) throws -> DaemonProcess {
        // Under a shell prefix, the arguments are ["-c", script, ghostd, ghostd's arguments...].
        let viaShell = binary == "/bin/sh" && arguments.count > 2
        let ghostd = viaShell ? arguments[2] : binary
        let own = viaShell ? Array(arguments.dropFirst(3)) : arguments
        var base = ["--port", String(port)]
        for name in ["--dictionaries", "--data"] {
            if let i = own.firstIndex(of: name), i + 1 < own.count { base += [name, own[i + 1]] }
        }
        base += DaemonProcess.testDefaults(extraArguments)
        let (exe, args) = shellPrefix.map { ("/bin/sh", ["-c", $0 + "; exec \"$0\" \"$@\"", ghostd] + base + extraArguments) }
            ?? (ghostd, base + extraArguments)
        let deadline = monotonicNow() + timeout
        while true {
            do {
                return try DaemonProcess(binary: exe, arguments: args, dataDirectory: dataDirectory,
                                         timeout: max(1, deadline - monotonicNow()), environment: environment)
            } catch let error as DaemonError where error.description.contains("in use") && monotonicNow() < deadline {
                usleep(100_000)
            }
        }
    }

    /// `standby`: a node of a cluster (docs/cluster.md) that waits for the
    /// lease: returns at its `standby:` line, with the port of its `--port`
    /// (which it binds only once it leads: `waitForStderrLine` its `listening on`).
    private init(binary: String, arguments: [String], dataDirectory: DataDirectory?, timeout: Double,
                 environment: [String: String] = [:], standby: Bool = false) throws {
        let arguments = try DaemonProcess.withTestStore(arguments)
        self.binary = binary
        self.arguments = arguments
        self.environment = environment
        self.dataDirectory = dataDirectory
        self.dataPath = DaemonProcess.dataArgument(arguments) ?? ""

        // Our own pipe with O_CLOEXEC, so no other child spawned concurrently by
        // a parallel test inherits the write end (which would hide EOF).
        var fds: [Int32] = [-1, -1]
        guard cloexecPipe(&fds) == 0 else { throw DaemonError("pipe2: \(String(cString: strerror(errno)))") }
        let readFD = fds[0], writeFD = fds[1]

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: writeFD, closeOnDealloc: false)
        self.process = process

        // Set before run() so an instant exit is not missed.
        let state = self.state
        let box = ExitBox()
        self.exitBox = box
        process.terminationHandler = { [state, box] p in
            let status: ExitStatus = p.terminationReason == .exit ? .exited(p.terminationStatus) : .signaled(p.terminationStatus)
            state.lock()
            box.status = status
            state.broadcast()
            state.unlock()
        }

        do {
            try process.run()
        } catch {
            Glibc.close(readFD)
            Glibc.close(writeFD)
            throw DaemonError("cannot start \(binary): \(error)")
        }
        Glibc.close(writeFD)
        self.pid = process.processIdentifier
        self.watchdog = DaemonProcess.startWatchdog(daemonPID: process.processIdentifier)

        // Drain stderr on a thread for the whole life of the process, so the
        // daemon never blocks on a full pipe.
        let reader = Thread { [state, box] in
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                state.lock()
                if n <= 0 {
                    if !box.partial.isEmpty { box.lines.append(String(decoding: box.partial, as: UTF8.self)) }
                    box.partial.removeAll()
                    box.eof = true
                    state.broadcast()
                    state.unlock()
                    break
                }
                for b in buf[0..<n] {
                    if b == 0x0A {
                        box.lines.append(String(decoding: box.partial, as: UTF8.self))
                        box.partial.removeAll(keepingCapacity: true)
                    } else {
                        box.partial.append(b)
                    }
                }
                state.broadcast()
                state.unlock()
            }
            Glibc.close(readFD)
        }
        reader.name = "ghostd-stderr-\(pid)"
        reader.start()

        // Wait for `listening on HOST:PORT`.
        var found: (String, Int)?
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        let givenPort = arguments.firstIndex(of: "--port").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
        while found == nil {
            if standby, let givenPort, box.lines.contains(where: { $0.contains("standby: ") }) {
                found = ("127.0.0.1", givenPort)
                break
            }
            found = box.lines.lazy.compactMap(DaemonProcess.parseListening).first
            if found != nil || box.status != nil || box.eof { break }
            if !state.wait(until: deadline) { break }
        }
        state.unlock()

        guard let (host, port) = found else {
            // It exited, closed stderr or timed out. Make sure it is gone and reaped,
            // then report how it ended with everything it wrote.
            let exitedByItself = DaemonProcess.waitForExit(box: box, state: state, timeout: 2, pid: process.processIdentifier)
            if exitedByItself == nil { Glibc.kill(pid, SIGKILL) }
            _ = DaemonProcess.waitForExit(box: box, state: state, timeout: 10, pid: process.processIdentifier)
            DaemonProcess.stopWatchdog(watchdog)
            state.lock()
            let captured = box.lines + (box.partial.isEmpty ? [] : [String(decoding: box.partial, as: UTF8.self)])
            state.unlock()
            let why = exitedByItself.map { "ghostd exited (\($0)) before listening" }
                ?? "ghostd did not print `listening on` within \(timeout) s"
            throw DaemonError("\(why); args \(arguments); stderr:\n" + captured.joined(separator: "\n"))
        }
        self.host = host
        self.port = port
    }

    deinit {
        if exitBox.statusLocked(state) == nil {
            Glibc.kill(pid, SIGKILL)
            _ = DaemonProcess.waitForExit(box: exitBox, state: state, timeout: 10, pid: pid)
        }
        stopWatchdog()
    }

    // MARK: State

    public var isRunning: Bool { exitBox.statusLocked(state) == nil }

    /// The exit status once the process has ended.
    public var exitStatus: ExitStatus? { exitBox.statusLocked(state) }

    /// Every stderr line so far, without line ends.
    public var stderrLines: [String] {
        state.lock()
        defer { state.unlock() }
        return exitBox.lines
    }

    public var stderrText: String { stderrLines.joined(separator: "\n") }

    /// Waits until a stderr line satisfies `predicate`; returns it, or nil on timeout.
    public func waitForStderrLine(timeout: Double = 5, where predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        defer { state.unlock() }
        while true {
            if let line = exitBox.lines.first(where: predicate) { return line }
            if exitBox.eof { return nil }
            if !state.wait(until: deadline) { return exitBox.lines.first(where: predicate) }
        }
    }

    /// Waits until the daemon has logged closing the connection `client` made
    /// (found by its local port in the `opened from` line). False on timeout.
    public func waitUntilClosed(_ client: LineClient, timeout: Double = 5) -> Bool {
        let start = monotonicNow()
        guard let opened = waitForStderrLine(timeout: timeout, where: { $0.hasSuffix("opened from 127.0.0.1:\(client.localPort)") }),
              let r = opened.range(of: "connection "),
              let id = Int(opened[r.upperBound...].prefix(while: \.isNumber)) else { return false }
        let left = max(0.1, timeout - (monotonicNow() - start))
        return waitForStderrLine(timeout: left, where: { $0.contains("connection \(id) closed") }) != nil
    }

    // MARK: Stopping

    /// Sends SIGTERM and waits for the exit (SIGKILL after `timeout`). Returns how it
    /// ended, after all of its stderr has been collected.
    @discardableResult
    public func terminate(timeout: Double = 10) -> ExitStatus {
        stop(signal: SIGTERM, timeout: timeout)
    }

    /// Sends SIGKILL and waits until the process is gone.
    @discardableResult
    public func kill(timeout: Double = 10) -> ExitStatus {
        stop(signal: SIGKILL, timeout: timeout)
    }

    /// Waits for the process to exit by itself (nil: still running after `timeout`).
    public func waitForExit(timeout: Double) -> ExitStatus? {
        DaemonProcess.waitForExit(box: exitBox, state: state, timeout: timeout, pid: pid)
    }

    /// Sends a signal without waiting.
    public func signal(_ sig: Int32) {
        if isRunning { Glibc.kill(pid, sig) }
    }

    private func stop(signal sig: Int32, timeout: Double) -> ExitStatus {
        if isRunning { Glibc.kill(pid, sig) }
        var status = DaemonProcess.waitForExit(box: exitBox, state: state, timeout: timeout, pid: pid)
        if status == nil {
            Issue.record("ghostd (pid \(pid)) did not exit within \(timeout) s of signal \(sig); killing it")
            Glibc.kill(pid, SIGKILL)
            status = DaemonProcess.waitForExit(box: exitBox, state: state, timeout: 10, pid: pid)
        }
        stopWatchdog()
        return status ?? .signaled(SIGKILL)
    }

    /// Waits for the process to be reaped and its stderr to reach EOF.
    /// Foundation's termination handler is not always called (seen on a loaded
    /// CI machine: a SIGKILLed daemon a zombie for 10 s, no handler): once /proc
    /// has shown the process a zombie for a second, it is reaped here.
    private static func waitForExit(box: ExitBox, state: NSCondition, timeout: Double, pid: Int32) -> ExitStatus? {
        let deadline = monotonicNow() + timeout
        var reaper = StrayReaper(pid: pid)
        state.lock()
        defer { state.unlock() }
        while box.status == nil || !box.eof {
            let now = monotonicNow()
            if now >= deadline { break }
            if box.status == nil, let raw = reaper.reap(now: now) {
                box.status = StrayReaper.exited(raw) ? .exited(StrayReaper.code(raw)) : .signaled(StrayReaper.code(raw))
                continue
            }
            _ = state.wait(until: Date(timeIntervalSinceNow: min(0.05, deadline - now)))
        }
        return box.status
    }

    // MARK: Watchdog

    /// A shell loop that SIGKILLs the daemon if this test process dies first.
    private static func startWatchdog(daemonPID: Int32) -> Process? {
        Watchdog.start("ghostd-watchdog", script: """
            while alive "$1" && alive "$2"; do sleep 0.3; done
            alive "$1" || kill -9 "$2" 2>/dev/null
            """, arguments: [String(daemonPID)])
    }

    private func stopWatchdog() { DaemonProcess.stopWatchdog(watchdog) }

    private static func stopWatchdog(_ watchdog: Process?) {
        guard let watchdog, watchdog.isRunning else { return }
        Glibc.kill(watchdog.processIdentifier, SIGKILL)
        let deadline = monotonicNow() + 5
        while watchdog.isRunning && monotonicNow() < deadline { usleep(5_000) }
    }

    // MARK: One-shot runs

    /// Runs ghostd to completion (for --help, --version, bad options).
    public static func runToCompletion(_ arguments: [String], timeout: Double = 30) throws -> (status: ExitStatus, stdout: String, stderr: String) {
        let binary = try binaryPath()
        var outFDs: [Int32] = [-1, -1], errFDs: [Int32] = [-1, -1]
        guard cloexecPipe(&outFDs) == 0 else { throw DaemonError("pipe2 failed") }
        guard cloexecPipe(&errFDs) == 0 else {
            Glibc.close(outFDs[0]); Glibc.close(outFDs[1])
            throw DaemonError("pipe2 failed")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle(fileDescriptor: outFDs[1], closeOnDealloc: false)
        p.standardError = FileHandle(fileDescriptor: errFDs[1], closeOnDealloc: false)
        defer { Glibc.close(outFDs[0]); Glibc.close(errFDs[0]) }
        do {
            try p.run()
        } catch {
            Glibc.close(outFDs[1]); Glibc.close(errFDs[1])
            throw DaemonError("cannot start \(binary): \(error)")
        }
        Glibc.close(outFDs[1]); Glibc.close(errFDs[1])

        // Read both pipes to EOF with poll, under a deadline.
        var out: [UInt8] = [], err: [UInt8] = []
        var open: [Int32: Bool] = [outFDs[0]: true, errFDs[0]: true]
        let deadline = monotonicNow() + timeout
        var buf = [UInt8](repeating: 0, count: 4096)
        while open.values.contains(true) {
            let remaining = deadline - monotonicNow()
            if remaining <= 0 {
                Glibc.kill(p.processIdentifier, SIGKILL)
                throw DaemonError("ghostd \(arguments) did not finish within \(timeout) s")
            }
            var pfds = open.filter(\.value).keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let r = poll(&pfds, nfds_t(pfds.count), Int32(min(remaining, 1) * 1000))
            if r < 0 && errno != EINTR { throw DaemonError("poll failed") }
            for pfd in pfds where pfd.revents != 0 {
                let n = buf.withUnsafeMutableBytes { Glibc.read(pfd.fd, $0.baseAddress, $0.count) }
                if n <= 0 {
                    open[pfd.fd] = false
                } else if pfd.fd == outFDs[0] {
                    out += buf[0..<n]
                } else {
                    err += buf[0..<n]
                }
            }
        }
        while p.isRunning {
            if monotonicNow() > deadline {
                Glibc.kill(p.processIdentifier, SIGKILL)
                throw DaemonError("ghostd \(arguments) did not exit within \(timeout) s")
            }
            usleep(2_000)
        }
        let status: ExitStatus = p.terminationReason == .exit ? .exited(p.terminationStatus) : .signaled(p.terminationStatus)
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    // MARK: Parsing

    /// The value of `--data` in `arguments` (the last one wins, as in ghostd).
    public static func dataArgument(_ arguments: [String]) -> String? {
        var found: String?
        for (i, a) in arguments.enumerated() {
            if a == "--data", i + 1 < arguments.count { found = arguments[i + 1] }
            if a.hasPrefix("--data=") { found = String(a.dropFirst("--data=".count)) }
        }
        return found
    }

    /// `... listening on 127.0.0.1:40123 (...)` → ("127.0.0.1", 40123).
    public static func parseListening(_ line: String) -> (String, Int)? {
        guard let r = line.range(of: "listening on ") else { return nil }
        let token = line[r.upperBound...].prefix(while: { $0 != " " })
        guard let colon = token.lastIndex(of: ":"), let port = Int(token[token.index(after: colon)...]), port > 0 else { return nil }
        var host = String(token[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }
}

/// A fresh folder under the system's temporary folder, removed with everything
/// in it when the last daemon holding this object is gone.
public final class DataDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ghostd-e2e-XXXXXX").path
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw DaemonError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// State shared with the reader thread and the termination handler; guarded by the owner's NSCondition.
private final class ExitBox: @unchecked Sendable {
    var status: ExitStatus?
    var lines: [String] = []
    var partial: [UInt8] = []
    var eof = false

    func statusLocked(_ lock: NSCondition) -> ExitStatus? {
        lock.lock()
        defer { lock.unlock() }
        return status
    }
}

/// pipe2(O_CLOEXEC), which Glibc's Swift module does not export (it needs _GNU_SOURCE):
/// looked up at run time, with pipe + FD_CLOEXEC as a fallback.
private func cloexecPipe(_ fds: inout [Int32]) -> Int32 {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    if let sym = dlsym(handle, "pipe2") {
        let pipe2 = unsafeBitCast(sym, to: Pipe2.self)
        return fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress!, O_CLOEXEC) }
    }
    let r = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
    if r == 0 { for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } }
    return r
}

public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

extension Process {
    /// Waits for the process to end and returns `terminationStatus` (its
    /// exit status, or the signal that ended it), without Foundation's
    /// `waitUntilExit`: that sometimes never returned off the main thread
    /// (three times under `faketime '+400 days'`, each with the child long
    /// gone). It waits for Foundation to see the end; if /proc has shown the
    /// child dead for a second and Foundation still has not, it reaps the
    /// child itself. Use the value returned, not `terminationStatus`, after it.
    public func waitForExit() -> Int32 {
        var reaper = StrayReaper(pid: processIdentifier)
        while isRunning {
            // The exit status, or the signal, as Foundation reports it.
            if let raw = reaper.reap(now: monotonicNow()) { return StrayReaper.code(raw) }
            usleep(2_000)
        }
        return terminationStatus
    }

    /// Whether /proc says `pid` is a zombie or gone.
    public static func isDead(_ pid: Int32) -> Bool {
        guard let state = state(path: "/proc/\(pid)/stat") else { return true }
        return state == "Z"
    }

    /// The state letter of a /proc `stat` file (`R`, `S`, `T`, `Z` …): it
    /// follows the last `)`. Nil if the file cannot be read.
    public static func state(path: String) -> Character? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    }
}

/// Reaps a child that Foundation has not reported dead (its termination
/// handler and `isRunning` are not always told, seen on loaded CI machines):
/// once /proc has shown it dead for a second, `waitpid` here.
public struct StrayReaper {
    let pid: Int32
    private var deadSince: Double?

    public init(pid: Int32) { self.pid = pid }

    /// The raw wait status if the child was reaped now; nil while it lives,
    /// has been dead for less than a second, or was reaped by someone else.
    public mutating func reap(now: Double) -> Int32? {
        guard pid > 0, Process.isDead(pid) else {
            deadSince = nil
            return nil
        }
        guard let since = deadSince else {
            deadSince = now
            return nil
        }
        var raw: Int32 = 0
        return now - since > 1 && waitpid(pid, &raw, WNOHANG) == pid ? raw : nil
    }

    /// WIFEXITED.
    public static func exited(_ raw: Int32) -> Bool { raw & 0x7f == 0 }
    /// The exit status if it exited, else the signal.
    public static func code(_ raw: Int32) -> Int32 { exited(raw) ? (raw >> 8) & 0xff : raw & 0x7f }
}

extension DaemonProcess {
    /// The web port it logged, or nil.
    public var webPort: Int? { TestSupport.webPort(inLog: stderrLines) }

    /// Starts a daemon with a web port on a free port (and `extra`), and says
    /// which: one outside the kernel's ephemeral range (`LoopbackPort.free()`),
    /// as a test may start the daemon again on it while a page keeps trying
    /// to reconnect, and a connection to a port of that range with nothing
    /// listening can be given that very port as its own and connect to itself.
    public static func startWithWeb(_ extra: [String] = []) throws -> (DaemonProcess, Int) {
        try onFreePort { port in (try DaemonProcess.start(extraArguments: ["--web-port", String(port)] + extra), port) }
    }
}
