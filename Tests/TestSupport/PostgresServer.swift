import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL command that failed: the command line, its exit status, what
/// it wrote, and the last lines of the server's log.
public struct PostgresServerError: Error, CustomStringConvertible {
    public var command: String
    public var status: Int32
    public var output: String
    public var logTail: String

    public init(command: String, status: Int32, output: String, logTail: String) {
        self.command = command
        self.status = status
        self.output = output
        self.logTail = logTail
    }

    public var description: String {
        "\(command) failed (status \(status))"
            + (output.isEmpty ? "" : ":\n\(output)")
            + "\nthe server's log ends:\n\(logTail)"
    }
}

/// A real PostgreSQL server that the tests start themselves (issue #48), in a
/// temporary folder of its own, on a free loopback port and a unix socket in
/// that folder, with trust authentication for the superuser `ghost`.
///
/// - The binaries are `$PG_BIN`, else the highest `/usr/lib/postgresql/<N>/bin`,
///   else `pg_config --bindir` (`.ci/run` installs `postgresql` and `libpq-dev`).
/// - The folder (under `NSTemporaryDirectory()`) holds `data/` (the cluster,
///   made by `initdb -A trust -U ghost --no-sync -E UTF8 --locale=C`),
///   `socket/`, `log` (the server's log), and `test-process.pid`: the pid of
///   the test process that owns this server. `data/postmaster.pid`'s first
///   line is the postmaster's pid.
/// - When the tests run as root, PostgreSQL refuses to: every PostgreSQL
///   command then runs as the `postgres` user (`runuser -u postgres --`, or
///   `su postgres -s /bin/sh -c` where there is no runuser), and the folder
///   is that user's. Otherwise the commands run as the test process's user.
/// - Nothing outlives the test process: `stop()` (or deinit) stops the
///   server and removes the folder; `shared()`'s server is stopped at exit
///   (atexit). `pg_ctl` has no parent-death option, so a small shell watchdog
///   SIGKILLs the postmaster and its children and removes the folder if the
///   test process dies without exiting (SIGKILL, a crash): a best effort,
///   it polls every 0.5 s. A folder left by anything else names its owner
///   in `test-process.pid`.
///
/// Every wait is for an event (`pg_ctl -w`, the processes' end), never a
/// fixed sleep. Everything is synchronous and throws `PostgresServerError`.
public final class PostgresServer: @unchecked Sendable {
    public let superuser = "ghost"
    /// The folder of PostgreSQL's programs.
    public let binDirectory: String
    /// The temporary folder holding data/, socket/ and log.
    public let folder: String
    public var dataDirectory: String { folder + "/data" }
    public var socketDirectory: String { folder + "/socket" }
    public var logPath: String { folder + "/log" }

    private let lock = NSLock()
    private var currentPort: Int
    private var running = false
    private var removed = false
    private var databases = 0
    private var watchdog: Process?
    /// The postgres user's uid and gid when the test process is root.
    private let owner: (uid: uid_t, gid: gid_t)?
    /// Whether PostgreSQL runs as the `postgres` user (the tests run as root):
    /// a folder it must write is then to be that user's.
    public var runsAsPostgresUser: Bool { owner != nil }

    /// The server's TCP port (on 127.0.0.1; the unix socket uses it too).
    public var port: Int { lock.withLock { currentPort } }

    /// Makes the cluster and starts the server. Throws if PostgreSQL is not
    /// installed or does not start. `firstPort`, for the harness's own test,
    /// is the port tried first instead of a free one: if it is taken, the
    /// start is tried once more on a free port.
    public init(firstPort: Int? = nil) throws {
        binDirectory = try PostgresServer.findBinaries()
        if geteuid() == 0 {
            guard let entry = getpwnam("postgres") else {
                throw PostgresServerError(command: "getpwnam(postgres)", status: -1,
                                          output: "the tests run as root and there is no postgres user (.ci/run installs postgresql, which makes it)",
                                          logTail: "")
            }
            owner = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        } else {
            owner = nil
        }
        folder = try PostgresServer.makeTemporaryFolder()
        currentPort = 0
        do {
            try prepareFolder()
            watchdog = PostgresServer.startWatchdog(folder: folder)
            try run("initdb", ["-D", dataDirectory, "-A", "trust", "-U", superuser, "--no-sync", "-E", "UTF8", "--locale=C"])
            try startServer(newPort: true, firstPort: firstPort)
        } catch {
            PostgresServer.stopWatchdog(watchdog)
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    deinit {
        stop()
    }

    // MARK: - Databases

    /// Creates a database (a unique name when nil) and returns its libpq URL
    /// over TCP: `postgresql://ghost@127.0.0.1:<port>/<db>`.
    @discardableResult
    public func createDatabase(_ name: String? = nil) throws -> String {
        let db = name ?? lock.withLock {
            databases += 1
            return "test_\(getpid())_\(databases)_\(UInt32.random(in: 0...UInt32.max))"
        }
        try run("createdb", connectionArguments() + [db])
        return "postgresql://\(superuser)@127.0.0.1:\(port)/\(db)"
    }

    /// The libpq URL of `database` over the unix socket.
    public func socketURL(database: String) -> String {
        "postgresql://\(superuser)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// Runs `sql` (one statement or a script, read from stdin) with
    /// `psql -X -A -t -q -v ON_ERROR_STOP=1` and returns what it printed,
    /// without the last newline: unaligned rows, `|` between columns.
    @discardableResult
    public func psql(_ sql: String, database: String) throws -> String {
        let out = try run("psql", ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1"] + connectionArguments()
                          + ["-d", database, "-f", "-"], input: sql)
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    /// Runs one of PostgreSQL's programs (`pg_dump`, `pg_restore` …) as the
    /// server's user, and returns what it printed; a failure throws. A file it
    /// writes belongs in `folder`, which that user may write.
    @discardableResult
    public func tool(_ name: String, _ arguments: [String]) throws -> String {
        try run(name, arguments)
    }

    private func connectionArguments() -> [String] {
        ["-h", socketDirectory, "-p", String(port), "-U", superuser]
    }

    // MARK: - Starting and stopping

    /// Starts the server again on the same folder and port (after
    /// `stopServer()` or `kill9()`; `stop()` removed the folder); PostgreSQL
    /// recovers from its WAL after a crash.
    public func start() throws {
        try startServer(newPort: false)
    }

    /// Stops the server (`pg_ctl stop -m fast`, which waits until it is
    /// down) and keeps the folder for `start()`.
    public func stopServer() throws {
        guard lock.withLock({ running }) else { return }
        try run("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"])
        lock.withLock { running = false }
    }

    /// `stopServer()` then `start()`.
    public func restart() throws {
        try stopServer()
        try start()
    }

    /// SIGKILLs the postmaster (the first line of data/postmaster.pid) and
    /// its children (each backend is a process group of its own, so they are
    /// found by their parent pid, with the postmaster stopped meanwhile so it
    /// forks no more), as a crash of the machine would leave them, and waits
    /// until none is left. `start()` then recovers from the WAL.
    public func kill9() throws {
        guard let pid = postmasterPID() else {
            throw PostgresServerError(command: "kill -9 (postmaster.pid)", status: -1, output: "no postmaster.pid", logTail: tail())
        }
        try killAll(pid)
        lock.withLock { running = false }
    }

    private func killAll(_ pid: pid_t) throws {
        Glibc.kill(pid, SIGSTOP)
        let children = PostgresServer.children(of: pid)
        Glibc.kill(pid, SIGKILL)
        for child in children { Glibc.kill(child, SIGKILL) }
        let deadline = monotonicNow() + 60
        while !([pid] + children).allSatisfy(PostgresServer.isDeadOrZombie) {
            if monotonicNow() > deadline {
                throw PostgresServerError(command: "kill -9 \(pid)", status: -1, output: "the server's processes are still alive after 60 s", logTail: tail())
            }
            usleep(5_000)
        }
    }

    /// Stops the server for good (`pg_ctl stop -m fast`, or SIGKILL if that
    /// fails) and removes the folder. Safe to call twice; deinit calls it.
    /// `stopServer()` stops it and keeps the folder for `start()`.
    public func stop() {
        let (wasRunning, wasRemoved) = lock.withLock { (running, removed) }
        guard !wasRemoved else { return }
        if wasRunning {
            try? stopServer()
        }
        // A server that did not stop, or one whose start was given up on while it ran.
        if let pid = postmasterPID(), !PostgresServer.isDeadOrZombie(pid) { try? killAll(pid) }
        PostgresServer.stopWatchdog(watchdog)
        try? FileManager.default.removeItem(atPath: folder)
        lock.withLock {
            running = false
            removed = true
        }
    }

    /// The postmaster's pid, from data/postmaster.pid.
    public func postmasterPID() -> pid_t? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first else { return nil }
        // initdb's single-user postgres writes its pid negated: no postmaster.
        guard let pid = pid_t(first.trimmingCharacters(in: .whitespaces)), pid > 0 else { return nil }
        return pid
    }

    private func startServer(newPort: Bool, firstPort: Int? = nil) throws {
        let (isRunning, isRemoved) = lock.withLock { (running, removed) }
        guard !isRunning else { return }
        guard !isRemoved else {
            throw PostgresServerError(command: "start", status: -1, output: "stop() removed this server's folder: make a new PostgresServer", logTail: "")
        }
        clearStaleLocks()
        var attempts = newPort ? 2 : 1
        var chosen = firstPort
        while true {
            if newPort || port == 0 {
                let fresh = try chosen ?? PostgresServer.freePort()
                chosen = nil
                lock.withLock { currentPort = fresh }
            }
            // fsync off: what these tests kill (ghostd, PostgreSQL itself)
            // is a process, whose writes the kernel keeps; no test crashes
            // the machine. With it on, every commit of every test's daemon
            // waited for the disk, which a loaded machine made take seconds
            // (a shared daemon once went 20 s without answering).
            let options = "-k \(socketDirectory) -p \(port) -c listen_addresses=127.0.0.1"
                + " -c fsync=off -c synchronous_commit=on -c max_connections=200"
            let logSize = (try? FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
            do {
                try run("pg_ctl", ["-D", dataDirectory, "-l", logPath, "-w", "-t", "120", "-o", options, "start"])
                lock.withLock { running = true }
                return
            } catch let error as PostgresServerError {
                attempts -= 1
                // Another process took the port between freePort and the bind: once more, on another.
                guard attempts > 0, newLogText(from: logSize).contains("already in use") else { throw error }
                clearStaleLocks()
            }
        }
    }

    /// The log written since `offset`.
    private func newLogText(from offset: Int) -> String {
        guard let data = FileManager.default.contents(atPath: logPath), data.count > offset else { return "" }
        return String(decoding: data[offset...], as: UTF8.self)
    }

    /// Removes data/postmaster.pid and the socket's lock file when the pid
    /// they name is dead or a zombie: PostgreSQL takes a zombie (a killed
    /// postmaster nobody reaped, as under a PID 1 that reaps nothing) for a
    /// live server and would refuse to start.
    private func clearStaleLocks() {
        guard let pid = postmasterPID(), PostgresServer.isDeadOrZombie(pid) else { return }
        try? FileManager.default.removeItem(atPath: dataDirectory + "/postmaster.pid")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: socketDirectory) {
            for name in names where name.hasSuffix(".lock") {
                try? FileManager.default.removeItem(atPath: socketDirectory + "/" + name)
            }
        }
    }

    // MARK: - The shared server

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServer: PostgresServer?
    nonisolated(unsafe) private static var sharedError: PostgresServerError?

    /// One server per test process, started at first use and stopped at
    /// exit. A failed start is remembered: later callers get the same error
    /// at once instead of trying again.
    public static func shared() throws -> PostgresServer {
        try sharedLock.withLock {
            if let sharedServer { return sharedServer }
            if let sharedError { throw sharedError }
            do {
                let server = try PostgresServer()
                sharedServer = server
                atexit { PostgresServer.stopShared() }
                return server
            } catch let error as PostgresServerError {
                sharedError = error
                throw error
            }
        }
    }

    private static func stopShared() {
        let server = sharedLock.withLock { () -> PostgresServer? in
            let server = sharedServer
            sharedServer = nil
            return server
        }
        server?.stop()
    }

    // MARK: - Running PostgreSQL's programs

    /// Runs one of PostgreSQL's programs (as the postgres user when root),
    /// with `input` on its stdin, in the server's folder; returns its stdout
    /// and throws unless it exits 0.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
        let path = binDirectory + "/" + tool
        let process = Process()
        let commandLine = ([path] + arguments).map(PostgresServer.shellQuote).joined(separator: " ")
        if owner != nil {
            if let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                process.executableURL = URL(fileURLWithPath: runuser)
                process.arguments = ["-u", "postgres", "--", path] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/bin/su")
                process.arguments = ["postgres", "-s", "/bin/sh", "-c", commandLine]
            }
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        // The caller's libpq settings must not redirect the tools.
        for key in environment.keys where key.hasPrefix("PG") { environment[key] = nil }
        environment["LC_ALL"] = "C"
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        do { try process.run() } catch {
            throw PostgresServerError(command: commandLine, status: -1, output: "cannot start: \(error)", logTail: tail())
        }
        let errors = PipeReader(stderr.fileHandleForReading)
        if let input {
            let handle = stdin.fileHandleForWriting
            let data = Data(input.utf8)
            DispatchQueue.global().async {
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = errors.wait()
        let status = process.waitForExit()
        guard status == 0 else {
            let text = String(decoding: out, as: UTF8.self) + String(decoding: err, as: UTF8.self)
            throw PostgresServerError(command: commandLine, status: status, output: text, logTail: tail())
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The last 20 lines of the server's log.
    public func tail(lines: Int = 20) -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "(no log)" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    private func prepareFolder() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dataDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(atPath: socketDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: folder + "/test-process.pid"))
        // The folder itself: others may reach the socket; data/ stays 0700 (initdb insists).
        chmod(folder, 0o755)
        chmod(dataDirectory, 0o700)
        if let owner {
            for path in [folder, dataDirectory, socketDirectory] where chown(path, owner.uid, owner.gid) != 0 {
                throw PostgresServerError(command: "chown postgres \(path)", status: errno, output: String(cString: strerror(errno)), logTail: "")
            }
        }
    }

    // MARK: - Helpers

    /// `$PG_BIN`, the highest `/usr/lib/postgresql/<N>/bin`, or `pg_config --bindir`.
    public static func findBinaries() throws -> String {
        let fm = FileManager.default
        func usable(_ dir: String) -> Bool { fm.isExecutableFile(atPath: dir + "/initdb") && fm.isExecutableFile(atPath: dir + "/pg_ctl") }
        if let env = ProcessInfo.processInfo.environment["PG_BIN"], !env.isEmpty {
            guard usable(env) else {
                throw PostgresServerError(command: "PG_BIN=\(env)", status: -1, output: "no initdb and pg_ctl there", logTail: "")
            }
            return env
        }
        let versions = ((try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap { Int($0) }.sorted(by: >)
        for version in versions where usable("/usr/lib/postgresql/\(version)/bin") {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_config", "--bindir"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if process.waitForExit() == 0, usable(out) { return out }
        }
        throw PostgresServerError(command: "find PostgreSQL", status: -1,
                                  output: "no initdb in $PG_BIN, /usr/lib/postgresql/*/bin or pg_config --bindir (.ci/run installs postgresql)",
                                  logTail: "")
    }

    private static func makeTemporaryFolder() throws -> String {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ghostd-pg-XXXXXX").path
        var template = Array(base.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw PostgresServerError(command: "mkdtemp", status: errno, output: String(cString: strerror(errno)), logTail: "")
        }
        return String(cString: made)
    }

    /// A loopback port free now (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        do { return try LoopbackPort.free() } catch {
            throw PostgresServerError(command: "bind", status: errno, output: "\(error)", logTail: "")
        }
    }

    static func shellQuote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether `pid` is gone or a zombie (a zombie holds no memory or locks).
    static func isDeadOrZombie(_ pid: pid_t) -> Bool {
        if Glibc.kill(pid, 0) != 0 && errno == ESRCH { return true }
        return Process.isDead(pid)
    }

    /// The processes whose parent is `pid` (field 4 of /proc/<pid>/stat).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// A shell loop that, if this test process dies first, SIGKILLs the
    /// postmaster (its pid read from postmaster.pid then) and its children,
    /// and removes the folder.
    private static func startWatchdog(folder: String) -> Process? {
        Watchdog.start("postgres-watchdog", script: """
            while alive "$1"; do sleep 0.5; done
            pid=$(head -n 1 "$2/data/postmaster.pid" 2>/dev/null)
            case "$pid" in -*) pid= ;; esac   # initdb's single-user postgres: it ends when its folder goes
            if [ -n "$pid" ]; then
                kill -STOP "$pid" 2>/dev/null
                kids=$(awk -v p="$pid" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null)
                kill -9 "$pid" $kids 2>/dev/null
            fi
            rm -rf "$2"
            """, arguments: [folder])
    }

    private static func stopWatchdog(_ watchdog: Process?) {
        guard let watchdog, watchdog.isRunning else { return }
        Glibc.kill(watchdog.processIdentifier, SIGKILL)
        _ = watchdog.waitForExit()
    }
}

/// Reads a pipe to its end on another thread.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
