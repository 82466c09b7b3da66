import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A viewport size in CSS pixels (window.innerWidth × window.innerHeight).
public struct Viewport: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// The smallest phone the web client is made for (issue #46).
    public static let phone = Viewport(width: 360, height: 640)
    public static let desktop = Viewport(width: 1280, height: 800)
    public var description: String { "\(width)×\(height)" }
}

/// A real headless Chromium, driven over WebDriver by a chromedriver of its
/// own, for the web client's end-to-end tests.
///
/// Each `Browser` starts `chromedriver --port=N` on a free loopback port in a
/// process group of its own, waits for its `/status` to say ready, and opens
/// one session: headless Chromium with a fresh temporary profile
/// (`--user-data-dir`), so two browsers are two players with separate
/// localStorage. Everything is synchronous and throws; call it from a test's
/// own thread (`onOwnThread`), as it blocks.
///
/// Nothing outlives it: `close()` (or deinit) ends the session and SIGKILLs
/// the whole process group (chromedriver and every Chromium process it
/// started), and a tiny shell watchdog does the same if the test process
/// itself dies (as DaemonProcess does for ghostd).
///
/// The viewport is set exactly (`setViewport`): headless Chromium's window
/// has browser chrome above the page, so the window is resized until
/// innerWidth × innerHeight is what was asked, and screenshots (which are of
/// the viewport) are then that many pixels.
public final class Browser: @unchecked Sendable {
    public struct Options: Sendable {
        public var viewport: Viewport = .desktop
        /// The browser's language (`--lang` and Accept-Language), so a page that
        /// follows navigator.language sees the same one on every machine.
        public var language: String = "en-US"
        /// Chrome's mobile emulation (touch events, `pointer: coarse`, a phone's
        /// user agent) at the viewport's size. The size is then fixed for the
        /// session: `setViewport` throws.
        public var mobileEmulation: Bool = false
        /// More Chromium switches.
        public var extraArguments: [String] = []
        /// Seconds for chromedriver to be ready and then for the session (Chromium's start).
        public var startTimeout: Double = 120
        /// Seconds one WebDriver command may take.
        public var commandTimeout: Double = 120
        /// `$CHROMIUM_BIN`, else /usr/bin/chromium.
        public var chromium: String = Browser.environment("CHROMIUM_BIN") ?? "/usr/bin/chromium"
        /// `$CHROMEDRIVER_BIN`, else /usr/bin/chromedriver.
        public var chromedriver: String = Browser.environment("CHROMEDRIVER_BIN") ?? "/usr/bin/chromedriver"
        public init() {}
    }

    /// A name for messages ("alice's browser").
    public let label: String
    public let options: Options
    /// chromedriver's pid, which is also the process group of it and its Chromium.
    public let driverPID: pid_t
    public let driverPort: Int
    public let sessionID: String
    /// The temporary folder holding the profile and chromedriver's log.
    public let folder: String
    public private(set) var viewport: Viewport

    private let driver: WebDriverClient
    private let watchdog: Process?
    private let lock = NSLock()
    private var closed = false

    /// True when both programs are installed (`.ci/run` installs them).
    public static var isAvailable: Bool {
        let o = Options()
        return FileManager.default.isExecutableFile(atPath: o.chromium)
            && FileManager.default.isExecutableFile(atPath: o.chromedriver)
    }

    // MARK: Starting and stopping

    /// Starts chromedriver and a headless Chromium session with the viewport asked.
    public convenience init(_ label: String = "browser", viewport: Viewport = .desktop) throws {
        var options = Options()
        options.viewport = viewport
        try self.init(label, options: options)
    }

    public init(_ label: String = "browser", options: Options) throws {
        self.label = label
        self.options = options
        self.viewport = options.viewport
        let folder = try Browser.makeTemporaryFolder()
        self.folder = folder
        let profile = folder + "/profile"
        let log = folder + "/chromedriver.log"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)

        // A free port can be taken by someone else before chromedriver binds
        // it: then chromedriver exits, and another port is tried.
        var started: (pid: pid_t, port: Int)?
        var lastError: Error?
        let deadline = monotonicNow() + options.startTimeout
        for _ in 0..<5 where started == nil && monotonicNow() < deadline {
            do {
                let port = try Browser.freePort()
                let pid = try Browser.spawnInOwnGroup(options.chromedriver, ["--port=\(port)", "--allowed-ips=127.0.0.1"], log: log)
                do {
                    try Browser.waitUntilReady(pid: pid, port: port, deadline: deadline, log: log)
                    started = (pid, port)
                } catch {
                    Browser.killGroup(pid)
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        guard let (pid, port) = started else {
            try? FileManager.default.removeItem(atPath: folder)
            throw lastError ?? WebDriverError("\(label): chromedriver did not start")
        }
        self.driverPID = pid
        self.driverPort = port
        self.watchdog = Browser.startWatchdog(group: pid, folder: folder)
        self.driver = WebDriverClient(port: port, commandTimeout: options.commandTimeout)

        do {
            let answer = try driver.command("POST", "/session", Browser.capabilities(options, profile: profile),
                                            timeout: max(10, deadline - monotonicNow()))
            guard let id = answer["sessionId"]?.string else {
                throw WebDriverError("\(label): new session without a sessionId: \(answer.description.prefix(300))")
            }
            self.sessionID = id
        } catch {
            let tail = Browser.tail(of: log)
            Browser.killGroup(pid)
            Browser.stopWatchdog(watchdog)
            try? FileManager.default.removeItem(atPath: folder)
            throw WebDriverError("\(label): cannot start Chromium: \(error)\nchromedriver's log ends:\n\(tail)")
        }
        do {
            if !options.mobileEmulation { try setViewport(options.viewport) }
        } catch {
            close()
            throw error
        }
    }

    /// The session's capabilities: headless Chromium as root in a container.
    static func capabilities(_ options: Options, profile: String) -> JSON {
        var args: [JSON] = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", "--disable-breakpad", "--disable-crash-reporter",
                            .string("--user-data-dir=\(profile)"), .string("--lang=\(options.language)"),
                            // The first window's size; setViewport then makes the viewport exact.
                            .string("--window-size=\(options.viewport.width),\(options.viewport.height)")]
        args += options.extraArguments.map { .string($0) }
        var chrome: [String: JSON] = [
            "binary": .string(options.chromium),
            "args": .array(args),
            "prefs": ["intl.accept_languages": .string(options.language)],
        ]
        if options.mobileEmulation {
            chrome["mobileEmulation"] = ["deviceMetrics": ["width": .number(Double(options.viewport.width)),
                                                           "height": .number(Double(options.viewport.height)),
                                                           "pixelRatio": 1, "touch": true, "mobile": true]]
        }
        return ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "pageLoadStrategy": "normal",
            "timeouts": ["implicit": 0, "pageLoad": 60000, "script": 30000],
            "goog:chromeOptions": .object(chrome),
            // Lets consoleErrors() read the page's console.
            "goog:loggingPrefs": ["browser": "ALL"],
        ]]]
    }

    /// Ends the session and every process of this browser; removes its profile. Idempotent.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        // A clean end first (Chromium closes its windows), briefly: the kill below ends it anyway.
        _ = try? driver.command("DELETE", "/session/\(sessionID)", timeout: 10)
        Browser.killGroup(driverPID)
        Browser.stopWatchdog(watchdog)
        // Chromium's last processes may still be writing the profile for a moment.
        for _ in 0..<20 {
            if (try? FileManager.default.removeItem(atPath: folder)) != nil
                || !FileManager.default.fileExists(atPath: folder) { break }
            usleep(100_000)
        }
    }

    deinit { close() }

    // MARK: Pages

    /// Opens a URL and waits for its load event (WebDriver's page load strategy "normal").
    public func open(_ url: String) throws {
        try session("POST", "/url", ["url": .string(url)])
    }

    /// Reloads the page and waits for its load event.
    public func reload() throws {
        try session("POST", "/refresh", [:])
    }

    public func currentURL() throws -> String {
        try session("GET", "/url").string ?? ""
    }

    /// Runs a script as the body of a function (so it says `return …` to give a
    /// value; its arguments are `arguments[0]`, …) and returns what it returned.
    /// A returned Promise is not awaited: use `waitFor` for what comes later.
    @discardableResult
    public func run(_ script: String, _ args: [JSON] = []) throws -> JSON {
        try session("POST", "/execute/sync", ["script": .string(script), "args": .array(args)])
    }

    /// Polls the JavaScript expression `condition` until it is truthy and
    /// returns its value. On timeout throws with `what`, the last value or
    /// script error, and the page's state (URL and visible text), so a
    /// failing test says what the page showed. Script errors while polling
    /// (the page is between two loads, an element is not there yet) count as
    /// not yet.
    @discardableResult
    public func waitFor(_ condition: String, timeout: Double = 30, what: String) throws -> JSON {
        let deadline = monotonicNow() + timeout
        var last = "nothing yet"
        while true {
            do {
                let value = try run("return (\(condition));")
                if value.isTruthy { return value }
                last = "value \(value.description.prefix(200))"
            } catch let error as WebDriverError where error.code != nil {
                last = "error \(error.description.prefix(300))"
            }
            if monotonicNow() >= deadline {
                throw WebDriverError("\(label): timed out after \(timeout) s waiting for \(what)\n"
                                     + "condition: \(condition)\nlast: \(last)\n\(pageState())")
            }
            usleep(50_000)
        }
    }

    /// The page's URL, ready state and the start of its visible text, for error messages.
    public func pageState(characters: Int = 800) -> String {
        let script = """
        const t = document.body ? document.body.innerText : '';
        return {url: location.href, readyState: document.readyState, text: t.slice(0, arguments[0])};
        """
        guard let state = try? run(script, [.number(Double(characters))]) else { return "page state: unavailable" }
        return "page: \(state["url"]?.string ?? "?") (\(state["readyState"]?.string ?? "?"))\n"
            + "text: \(state["text"]?.string ?? "")"
    }

    // MARK: Elements

    /// Whether an element matches the CSS selector now.
    public func exists(_ selector: String) throws -> Bool {
        try run("return document.querySelector(arguments[0]) !== null;", [.string(selector)]).bool ?? false
    }

    /// The element's visible text (innerText; an input's value). Waits for the element.
    public func text(_ selector: String, timeout: Double = 30) throws -> String {
        _ = try element(selector, timeout: timeout)
        let script = """
        const e = document.querySelector(arguments[0]);
        if (!e) return null;
        return ('value' in e && (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' || e.tagName === 'SELECT')) ? e.value : e.innerText;
        """
        return try run(script, [.string(selector)]).string ?? ""
    }

    /// Clicks the element as a user would (scrolled into view, in its middle).
    /// Waits for it to be there and clickable (not covered, not disabled).
    public func click(_ selector: String, timeout: Double = 30) throws {
        try retryingElement(selector, timeout: timeout) { id in
            try session("POST", "/element/\(id)/click", [:])
        }
    }

    /// Types text as key presses: into the element `selector` matches (which
    /// WebDriver focuses first), else into the focused element.
    public func type(_ text: String, into selector: String? = nil, timeout: Double = 30) throws {
        if let selector {
            try retryingElement(selector, timeout: timeout) { id in
                try session("POST", "/element/\(id)/value", ["text": .string(text)])
            }
        } else {
            let active = try session("GET", "/element/active")
            guard let id = active[webElementKey]?.string else {
                throw WebDriverError("\(label): no focused element to type \(text.debugDescription) into\n\(pageState())")
            }
            try session("POST", "/element/\(id)/value", ["text": .string(text)])
        }
    }

    /// Presses and releases keys, as a chord when there are several
    /// (`press("Control", "a")`): DOM key names ("Escape", "Enter",
    /// "ArrowLeft", "Backspace", "Tab", "Space", …) or single characters.
    public func press(_ keys: String...) throws {
        var values: [JSON] = []
        for key in keys {
            if let code = webDriverKeys[key] { values.append(.string(code)) }
            else if key.count == 1 { values.append(.string(key)) }
            else { throw WebDriverError("\(label): unknown key \(key.debugDescription)") }
        }
        let actions: [JSON] = values.map { ["type": "keyDown", "value": $0] }
            + values.reversed().map { ["type": "keyUp", "value": $0] }
        try session("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": .array(actions)]]])
        try session("DELETE", "/actions")
    }

    // MARK: Window and screenshots

    /// Resizes the window so that the viewport (innerWidth × innerHeight) is
    /// exactly width × height CSS pixels. Headless Chromium keeps room for
    /// browser chrome in its window (143 px of height in Chromium 156), so
    /// the window is set, the viewport measured and the window corrected.
    public func setWindow(width: Int, height: Int) throws {
        if options.mobileEmulation {
            throw WebDriverError("\(label): the viewport is fixed under mobile emulation")
        }
        var window = (width: width, height: height)
        var seen = (width: 0, height: 0)
        for _ in 0..<4 {
            try session("POST", "/window/rect", ["width": .number(Double(window.width)), "height": .number(Double(window.height))])
            let inner = try run("return [window.innerWidth, window.innerHeight];")
            seen = (inner[0]?.int ?? 0, inner[1]?.int ?? 0)
            if seen == (width, height) {
                viewport = Viewport(width: width, height: height)
                return
            }
            window = (window.width + width - seen.width, window.height + height - seen.height)
        }
        throw WebDriverError("\(label): cannot make the viewport \(width)×\(height): it stays \(seen.width)×\(seen.height)")
    }

    public func setViewport(_ viewport: Viewport) throws {
        try setWindow(width: viewport.width, height: viewport.height)
    }

    /// A PNG of the viewport (as many pixels as the viewport has CSS pixels, at device scale 1).
    public func screenshot() throws -> Data {
        let encoded = try session("GET", "/screenshot")
        guard let text = encoded.string, let png = Data(base64Encoded: text) else {
            throw WebDriverError("\(label): the screenshot is not base64: \(encoded.description.prefix(100))")
        }
        return png
    }

    /// Writes a screenshot to `path` (creating its folder).
    public func saveScreenshot(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try screenshot().write(to: url)
    }

    /// A PNG's width and height from its IHDR chunk (nil when it is not a PNG).
    public static func pngSize(_ png: Data) -> Viewport? {
        let bytes = [UInt8](png.prefix(24))
        guard bytes.count == 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        let be = { (i: Int) in bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return Viewport(width: be(16), height: be(20))
    }

    // MARK: Console and DevTools

    /// The page's console errors (and uncaught exceptions) since the last call:
    /// chromedriver hands each log entry out once.
    public func consoleErrors() throws -> [String] {
        let entries = try session("POST", "/se/log", ["type": "browser"])
        return (entries.array ?? []).compactMap { entry in
            entry["level"]?.string == "SEVERE" ? entry["message"]?.string : nil
        }
    }

    /// Sends a Chrome DevTools Protocol command through chromedriver
    /// (e.g. `Emulation.setEmulatedMedia`) and returns its result.
    @discardableResult
    public func devTools(_ method: String, _ params: JSON = [:]) throws -> JSON {
        try session("POST", "/goog/cdp/execute", ["cmd": .string(method), "params": params])
    }

    /// Emulates `prefers-color-scheme` ("light" or "dark").
    public func emulateColorScheme(_ scheme: String) throws {
        try devTools("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": .string(scheme)]]])
    }

    // MARK: Private

    @discardableResult
    private func session(_ method: String, _ path: String, _ body: JSON? = nil) throws -> JSON {
        do {
            return try driver.command(method, "/session/\(sessionID)\(path)", body)
        } catch let error as WebDriverError {
            throw WebDriverError("\(label): \(error.description)", code: error.code)
        }
    }

    /// The WebDriver id of the first element matching `selector`, waiting for one.
    private func element(_ selector: String, timeout: Double) throws -> String {
        var id = ""
        try retryingElement(selector, timeout: timeout) { id = $0 }
        return id
    }

    /// Finds the element and runs `body` on it, again while WebDriver says the
    /// element is missing, stale or not interactable yet, until `timeout`.
    private func retryingElement(_ selector: String, timeout: Double, _ body: (String) throws -> Void) throws {
        let retried: Set<String> = ["no such element", "stale element reference", "element not interactable",
                                    "element click intercepted", "invalid element state"]
        let deadline = monotonicNow() + timeout
        while true {
            do {
                let found = try session("POST", "/element", ["using": "css selector", "value": .string(selector)])
                guard let id = found[webElementKey]?.string else {
                    throw WebDriverError("\(label): no element reference for \(selector): \(found.description.prefix(200))")
                }
                try body(id)
                return
            } catch let error as WebDriverError where error.code.map(retried.contains) == true {
                if monotonicNow() >= deadline {
                    throw WebDriverError("\(label): \(selector): \(error.description)\n\(pageState())", code: error.code)
                }
                usleep(50_000)
            }
        }
    }

    static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    private static func makeTemporaryFolder() throws -> String {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ghostd-browser-XXXXXX").path
        var template = Array(base.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw WebDriverError("mkdtemp: \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }

    /// A loopback port free now (the kernel's pick for port 0).
    private static func freePort() throws -> Int {
        do { return try LoopbackPort.free() } catch { throw WebDriverError("\(error)") }
    }

    /// Starts a program in a new process group whose id is its pid (so one
    /// kill(-pid) ends it and all it starts), stdin from /dev/null, stdout and
    /// stderr to `log`, no other descriptor of the test process inherited.
    private static func spawnInOwnGroup(_ path: String, _ arguments: [String], log: String) throws -> pid_t {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw WebDriverError("\(path) is not installed (.ci/run installs chromium and chromium-driver)")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)   // the Swift runtime ignores it; chromedriver should not inherit that
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Another test's sockets and pipes must not stay open in Chromium (it would hide their EOF).
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }

        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], environ)
        guard status == 0 else { throw WebDriverError("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc ≥ 2.34's posix_spawn_file_actions_addclosefrom_np, looked up at run time.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Polls chromedriver's /status until it says ready (or it exits, or the deadline passes).
    private static func waitUntilReady(pid: pid_t, port: Int, deadline: Double, log: String) throws {
        let http = LoopbackHTTP(port: port)
        var last = "no answer"
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw WebDriverError("chromedriver exited at start (status \(status)); its log ends:\n\(tail(of: log))")
            }
            do {
                let (code, body) = try http.request("GET", "/status", timeout: 5)
                let answer = try JSON.parse(body)
                if code == 200, answer["value"]?["ready"]?.bool == true { return }
                last = "HTTP \(code) \(answer.description.prefix(200))"
            } catch {
                last = "\(error)"
            }
            if monotonicNow() >= deadline {
                throw WebDriverError("chromedriver on port \(port) not ready in time: \(last); its log ends:\n\(tail(of: log))")
            }
            usleep(50_000)
        }
    }

    /// SIGKILLs the process group `group` and reaps its leader; waits (briefly)
    /// until no process of the group is left.
    private static func killGroup(_ group: pid_t) {
        Glibc.kill(-group, SIGKILL)
        var status: Int32 = 0
        while waitpid(group, &status, 0) < 0 && errno == EINTR {}
        let deadline = monotonicNow() + 10
        while Glibc.kill(-group, 0) == 0 && monotonicNow() < deadline { usleep(20_000) }
    }

    /// A shell loop that SIGKILLs the process group if this test process dies
    /// first, and then removes the browser's temporary folder.
    private static func startWatchdog(group: pid_t, folder: String) -> Process? {
        // /bin/sh is dash, whose kill takes no `--`: `kill -9 -PGID` is the group.
        Watchdog.start("browser-watchdog", script: """
            while alive "$1" && kill -0 "-$2" 2>/dev/null; do sleep 0.3; done
            alive "$1" && exit 0
            kill -9 "-$2" 2>/dev/null
            n=0; while kill -0 "-$2" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n+1)); done
            rm -rf "$3"
            """, arguments: [String(group), folder])
    }

    private static func stopWatchdog(_ watchdog: Process?) {
        guard let watchdog, watchdog.isRunning else { return }
        Glibc.kill(watchdog.processIdentifier, SIGKILL)
        let deadline = monotonicNow() + 5
        while watchdog.isRunning && monotonicNow() < deadline { usleep(5_000) }
    }

    /// The last lines of a log file, for error messages.
    static func tail(of path: String, lines: Int = 20) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "(no log)" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// A `data:` URL holding an HTML page, for tests that need no server.
    public static func dataURL(html: String) -> String {
        "data:text/html;charset=utf-8," + (html.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
}
