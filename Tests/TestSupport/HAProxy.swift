import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct HAProxyError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A real `haproxy` in front of the tests' daemons, run from
/// contrib/haproxy.cfg (issue #49), in the foreground (`-db`) on loopback.
///
/// The configuration is the contrib file's text with these changes only:
/// in `global`, the `chroot`, `user`, `group`, `daemon`, `pidfile`, `log`
/// and `stats socket` lines give way to a stats socket in a temporary folder
/// of its own and a log to stdout; every `bind` line listens on a free
/// loopback port instead; and each backend's `server` lines become one per
/// port given, `node1`, `node2` … in that order, each with the options of
/// the file's first server line (a `track ghostd/node1` follows the
/// server's own number). The plain frontend (`ghostd`) gets `backends`; the
/// TLS and web ones (`ghostd-tls`, `ghostd-web`) get `tlsBackends` and
/// `webBackends`, and are left out when those are empty.
///
/// - The binary is `$HAPROXY_BIN`, else `haproxy` on the PATH, else
///   /usr/sbin/haproxy (`.ci/run` installs Debian's `haproxy`); without one,
///   `init` throws saying so.
/// - `init` returns once the stats socket answers, which HAProxy opens after
///   binding every frontend. `waitUntilUp` and `waitUntilDown` poll the
///   stats socket (`show stat`) until HAProxy marks a server so: they wait
///   for HAProxy's own checks, never for a fixed time.
/// - Nothing outlives the test process: `stop()` (or deinit) ends HAProxy
///   and removes the folder, and a small shell watchdog SIGKILLs HAProxy and
///   removes the folder if the test process dies first.
public final class HAProxy: @unchecked Sendable {
    /// contrib/haproxy.cfg in the package.
    public static var contribConfigPath: String { DaemonProcess.packageRoot + "/contrib/haproxy.cfg" }

    /// The plain frontend's port (the players' port).
    public let port: Int
    /// The TLS frontend's port, when `tlsBackends` were given.
    public let tlsPort: Int?
    /// The web frontend's port, when `webBackends` were given.
    public let webPort: Int?
    /// The temporary folder: haproxy.cfg, stats.sock and output (HAProxy's stdout and stderr).
    public let folder: String
    /// The configuration HAProxy runs.
    public let configuration: String
    public var configPath: String { folder + "/haproxy.cfg" }
    public var statsSocketPath: String { folder + "/stats.sock" }
    public var outputPath: String { folder + "/output" }
    public let pid: Int32

    private let process: Process
    private let watchdog: Process?
    private let lock = NSLock()
    private var stopped = false

    /// Starts HAProxy with the contrib file's configuration, made for these
    /// ports (see the type's comment), and waits until it serves.
    public init(backends: [Int], tlsBackends: [Int] = [], webBackends: [Int] = [],
                source: String = HAProxy.contribConfigPath, timeout: Double = 20) throws {
        let binary = try HAProxy.binaryPath()
        let text: String
        do { text = try String(contentsOfFile: source, encoding: .utf8) } catch {
            throw HAProxyError("cannot read \(source): \(error)")
        }
        folder = try HAProxy.makeTemporaryFolder()
        // A free port may be taken by someone else before HAProxy binds it: then once more on others.
        var attempt = 0
        while true {
            attempt += 1
            let ports = try (0..<3).map { _ in try LoopbackPort.free() }
            let config: String
            do {
                config = try HAProxy.configuration(from: text, frontendPorts: ["ghostd": ports[0], "ghostd-tls": ports[1], "ghostd-web": ports[2]],
                                                   backends: ["ghostd": backends, "ghostd-tls": tlsBackends, "ghostd-web": webBackends],
                                                   statsSocket: folder + "/stats.sock")
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw error
            }
            do {
                try config.write(toFile: folder + "/haproxy.cfg", atomically: true, encoding: .utf8)
                let (process, watchdog) = try HAProxy.launch(binary: binary, folder: folder)
                do {
                    try HAProxy.waitForStatsSocket(folder: folder, process: process, timeout: timeout)
                } catch let error as HAProxyError where attempt < 3 && error.description.contains("cannot bind") {
                    HAProxy.end(process, watchdog)
                    continue
                } catch {
                    HAProxy.end(process, watchdog)
                    throw error
                }
                self.process = process
                self.watchdog = watchdog
                self.pid = process.processIdentifier
                self.configuration = config
                self.port = ports[0]
                self.tlsPort = tlsBackends.isEmpty ? nil : ports[1]
                self.webPort = webBackends.isEmpty ? nil : ports[2]
                return
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw error
            }
        }
    }

    deinit { stop() }

    // MARK: - The binary

    /// `$HAPROXY_BIN`, else `haproxy` on the PATH, else /usr/sbin/haproxy or /usr/local/sbin/haproxy.
    public static func binaryPath() throws -> String {
        let env = ProcessInfo.processInfo.environment
        if let path = env["HAPROXY_BIN"], !path.isEmpty {
            guard access(path, X_OK) == 0 else { throw HAProxyError("HAPROXY_BIN=\(path) is not an executable file") }
            return path
        }
        let dirs = (env["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for dir in dirs where !dir.isEmpty {
            let path = dir + "/haproxy"
            var st = stat()
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0 { return path }
        }
        throw HAProxyError("haproxy is not installed: no haproxy on the PATH nor in /usr/sbin (install Debian's haproxy package: apt-get install haproxy, as .ci/run does) or set HAPROXY_BIN")
    }

    // MARK: - The configuration

    /// The contrib file's text made into the tests' configuration (see the
    /// type's comment). `frontendPorts` and `backends` are by frontend name;
    /// a frontend with no backends is left out with its backend. Throws for
    /// a frontend it has no port for, so that a new one in the contrib file
    /// is noticed here.
    public static func configuration(from text: String, frontendPorts: [String: Int], backends: [String: [Int]],
                                     statsSocket: String) throws -> String {
        // Sections: a keyword at the start of a line, then its indented lines.
        struct Section { var header: String; var keyword: String; var name: String; var lines: [String] }
        var preamble: [String] = []
        var sections: [Section] = []
        for line in text.components(separatedBy: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if let first = line.first, first != " ", first != "\t", first != "#", !words.isEmpty {
                sections.append(Section(header: line, keyword: words[0], name: words.count > 1 ? words[1] : "", lines: []))
            } else if sections.isEmpty {
                preamble.append(line)
            } else {
                sections[sections.count - 1].lines.append(line)
            }
        }
        func words(_ line: String) -> [String] {
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
        // Which backend each frontend sends to, and which are left out.
        var frontendOf: [String: String] = [:]
        var leftOut: Set<String> = []
        for s in sections where s.keyword == "frontend" {
            guard let ports = backends[s.name] else {
                throw HAProxyError("contrib/haproxy.cfg: frontend \(s.name) is new to Tests/TestSupport/HAProxy.swift (it knows \(backends.keys.sorted()))")
            }
            guard let target = s.lines.lazy.map(words).first(where: { $0.first == "default_backend" })?.dropFirst().first else {
                throw HAProxyError("contrib/haproxy.cfg: frontend \(s.name) has no default_backend")
            }
            frontendOf[target] = s.name
            if ports.isEmpty { leftOut.insert(s.name); leftOut.insert(target) }
        }

        var out = preamble
        for s in sections where !((s.keyword == "frontend" || s.keyword == "backend") && leftOut.contains(s.name)) {
            out.append(s.header)
            switch s.keyword {
            case "global":
                for line in s.lines {
                    let w = words(line)
                    if let k = w.first, ["chroot", "user", "group", "daemon", "pidfile", "log"].contains(k) || (k == "stats" && w.dropFirst().first == "socket") {
                        continue
                    }
                    out.append(line)
                }
                out.append("    # The tests' own (Tests/TestSupport/HAProxy.swift):")
                out.append("    stats socket \(statsSocket) mode 600 level admin")
                out.append("    log stdout format raw local0 info")
            case "frontend":
                guard let port = frontendPorts[s.name] else { throw HAProxyError("no port for frontend \(s.name)") }
                for line in s.lines {
                    if words(line).first == "bind" {
                        out.append("    bind 127.0.0.1:\(port)")
                    } else {
                        out.append(line)
                    }
                }
            case "backend":
                guard let frontend = frontendOf[s.name], let ports = backends[frontend] else {
                    throw HAProxyError("contrib/haproxy.cfg: no frontend sends to backend \(s.name)")
                }
                var placed = false
                for line in s.lines {
                    let w = words(line)
                    guard w.first == "server" else { out.append(line); continue }
                    guard !placed else { continue }
                    placed = true
                    guard w.count >= 3 else { throw HAProxyError("contrib/haproxy.cfg: a server line without an address: \(line)") }
                    let options = Array(w.dropFirst(3))
                    for (i, port) in ports.enumerated() {
                        var own = options
                        if let t = own.firstIndex(of: "track"), t + 1 < own.count {
                            let tracked = own[t + 1]
                            let backend = tracked.contains("/") ? String(tracked[..<tracked.firstIndex(of: "/")!]) + "/" : ""
                            own[t + 1] = backend + "node\(i + 1)"
                        }
                        out.append((["    server", "node\(i + 1)", "127.0.0.1:\(port)"] + own).joined(separator: " "))
                    }
                }
                if !placed { throw HAProxyError("contrib/haproxy.cfg: backend \(s.name) has no server line") }
            default:
                out.append(contentsOf: s.lines)
            }
        }
        while out.last?.isEmpty == true { out.removeLast() }
        return out.joined(separator: "\n") + "\n"   // HAProxy refuses a last line without its LF
    }

    // MARK: - Servers' states

    /// A server's row of `show stat`.
    public struct ServerState: Equatable, CustomStringConvertible {
        /// `node1`, `node2` … (the port's place in the list given, from 1).
        public let name: String
        /// `UP`, `DOWN`, `UP 1/2` (going down), `DOWN 1/1` (going up), `no check`, `MAINT` …
        public let status: String
        /// The last check's result: `L7OK` (it passed), `L4CON` (refused),
        /// `L7TOUT`, `L7RSP`, `INI` (none yet) …; empty for a tracking server.
        public let checkStatus: String
        public var description: String { "\(name) \(status) (\(checkStatus.isEmpty ? "no check" : checkStatus))" }
    }

    /// The servers of `backend` as HAProxy sees them now.
    public func serverStates(backend: String = "ghostd") throws -> [ServerState] {
        let csv = try command("show stat")
        var lines = csv.split(separator: "\n").map(String.init)
        guard let head = lines.first, head.hasPrefix("# ") else { throw HAProxyError("show stat answered: \(csv)") }
        lines.removeFirst()
        let columns = head.dropFirst(2).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let px = columns.firstIndex(of: "pxname"), let sv = columns.firstIndex(of: "svname"),
              let st = columns.firstIndex(of: "status"), let ck = columns.firstIndex(of: "check_status") else {
            throw HAProxyError("show stat: unexpected columns \(columns)")
        }
        return lines.compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > max(px, sv, st, ck), f[px] == backend, f[sv] != "BACKEND", f[sv] != "FRONTEND" else { return nil }
            var check = f[ck]
            if check.hasPrefix("* ") { check.removeFirst(2) }   // a check in progress
            return ServerState(name: f[sv], status: f[st], checkStatus: check)
        }
    }

    /// Waits until HAProxy marks the server of `backends[index]` UP after a
    /// check that passed (HAProxy starts its servers UP before any check).
    public func waitUntilUp(_ index: Int, backend: String = "ghostd", timeout: Double = 20) throws {
        try waitFor(index, backend: backend, timeout: timeout, what: "UP after a check that passed") {
            $0.status == "UP" && $0.checkStatus == "L7OK"
        }
    }

    /// Waits until HAProxy marks the server of `backends[index]` DOWN.
    public func waitUntilDown(_ index: Int, backend: String = "ghostd", timeout: Double = 20) throws {
        try waitFor(index, backend: backend, timeout: timeout, what: "DOWN") { $0.status == "DOWN" }
    }

    private func waitFor(_ index: Int, backend: String, timeout: Double, what: String,
                         _ predicate: (ServerState) -> Bool) throws {
        let name = "node\(index + 1)"
        let deadline = monotonicNow() + timeout
        var last: [ServerState] = []
        while true {
            guard isRunning else { throw HAProxyError("haproxy ended while waiting for \(name) \(what); its output:\n\(output)") }
            last = try serverStates(backend: backend)
            if let s = last.first(where: { $0.name == name }), predicate(s) { return }
            guard monotonicNow() < deadline else {
                throw HAProxyError("\(backend)/\(name) not \(what) within \(timeout) s: \(last); haproxy's output:\n\(output)")
            }
            // HAProxy's checks run every half second: look again a tenth of that later.
            usleep(50_000)
        }
    }

    /// Sends one command to the stats socket and returns the answer.
    public func command(_ text: String, timeout: Double = 10) throws -> String {
        try HAProxy.command(text, socket: statsSocketPath, timeout: timeout)
    }

    static func command(_ text: String, socket path: String, timeout: Double) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HAProxyError("socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw HAProxyError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else { throw HAProxyError("connect to \(path): \(String(cString: strerror(errno)))") }
        let request = Array((text + "\n").utf8)
        guard request.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw HAProxyError("send to \(path): \(String(cString: strerror(errno)))")
        }
        // HAProxy answers one command and closes.
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { answer += chunk[0..<n]; continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            throw HAProxyError("read from \(path): \(String(cString: strerror(errno))) after \(answer.count) bytes")
        }
        return String(decoding: answer, as: UTF8.self)
    }

    // MARK: - The process

    public var isRunning: Bool { process.isRunning && !Process.isDead(pid) }

    /// What HAProxy wrote (its warnings, alerts and log lines).
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Ends HAProxy (SIGTERM, SIGKILL after 10 s) and removes the folder. Idempotent.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        HAProxy.end(process, watchdog)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func launch(binary: String, folder: String) throws -> (Process, Process?) {
        let outputPath = folder + "/output"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else {
            throw HAProxyError("cannot create \(outputPath)")
        }
        defer { try? output.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-f", folder + "/haproxy.cfg", "-db"]
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = output
        p.standardError = output
        do { try p.run() } catch { throw HAProxyError("cannot start \(binary): \(error)") }
        return (p, startWatchdog(pid: p.processIdentifier, folder: folder))
    }

    /// Waits until the stats socket answers; throws with HAProxy's output if it ends first.
    private static func waitForStatsSocket(folder: String, process: Process, timeout: Double) throws {
        let deadline = monotonicNow() + timeout
        while true {
            if !process.isRunning || Process.isDead(process.processIdentifier) {
                let output = (try? String(contentsOfFile: folder + "/output", encoding: .utf8)) ?? ""
                throw HAProxyError("haproxy ended at its start; its output:\n\(output)")
            }
            if FileManager.default.fileExists(atPath: folder + "/stats.sock"),
               let info = try? command("show info", socket: folder + "/stats.sock", timeout: 5), info.contains("Pid:") {
                return
            }
            guard monotonicNow() < deadline else {
                let output = (try? String(contentsOfFile: folder + "/output", encoding: .utf8)) ?? ""
                throw HAProxyError("haproxy's stats socket did not answer within \(timeout) s; its output:\n\(output)")
            }
            usleep(20_000)
        }
    }

    private static func end(_ process: Process, _ watchdog: Process?) {
        let pid = process.processIdentifier
        var reaper = StrayReaper(pid: pid)
        for (sig, wait) in [(SIGTERM, 10.0), (SIGKILL, 10.0)] {
            guard process.isRunning else { break }
            Glibc.kill(pid, sig)
            let deadline = monotonicNow() + wait
            while process.isRunning && monotonicNow() < deadline {
                if reaper.reap(now: monotonicNow()) != nil { break }
                usleep(5_000)
            }
        }
        if let watchdog, watchdog.isRunning {
            Glibc.kill(watchdog.processIdentifier, SIGKILL)
            let deadline = monotonicNow() + 5
            while watchdog.isRunning && monotonicNow() < deadline { usleep(5_000) }
        }
    }

    /// A shell loop that SIGKILLs HAProxy and removes its folder if this test process dies first.
    private static func startWatchdog(pid: Int32, folder: String) -> Process? {
        Watchdog.start("haproxy-watchdog", script: """
            while alive "$1" && alive "$2"; do sleep 0.3; done
            alive "$1" || { kill -9 "$2" 2>/dev/null; rm -rf "$3"; }
            """, arguments: [String(pid), folder])
    }

    private static func makeTemporaryFolder() throws -> String {
        // Short: the stats socket's path must fit in sun_path (108 bytes).
        var template = Array((NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/")
                             .appending("haproxy-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HAProxyError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
