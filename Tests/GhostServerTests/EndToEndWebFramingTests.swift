import Foundation
import Testing
@testable import GhostServer
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The web port's WebSocket framing checked by an independent client (issue
/// #46): scripts/websocket-framing.py, Python's `websockets` library for the
/// normal cases and a raw socket for the frames it will not send, against a
/// real daemon; each of its checks is one line of its output (`ok NAME: …`,
/// `FAIL NAME: …`, `KNOWN NAME: …` for a known issue). Then wss on
/// `--web-tls-port` with a self-signed certificate, reloaded by SIGHUP.
/// CI installs the library (`pip install websockets`); without it these
/// tests fail, saying so.
@Suite("EndToEnd: web port framing (Python websockets)", .ownThread, storeIndependent, .hangLimit)
struct EndToEndWebFramingTests {
    static let script = DaemonProcess.packageRoot + "/scripts/websocket-framing.py"

    /// Every check of the plain web port, in the script's order.
    static let checks = [
        "handshake-no-origin", "handshake-own-origin", "name-and-ping", "trailing-line-end",
        "message-512-bytes", "message-511-bytes", "message-513-bytes",
        "fragments-library", "fragments-over-512", "fragments-with-ping", "utf8-split-across-fragments",
        "ping-payload-library", "ping-payload-raw",
        "binary-1003", "invalid-utf8-1007", "overlong-utf8-1007", "lf-inside-1007",
        "unmasked-1002", "rsv-bits-1002", "unknown-opcode-1002", "continuation-out-of-place-1002",
        "fragmented-control-1002", "control-over-125-1002",
        "close-1000", "close-library", "close-empty-and-4000", "close-after-replies", "failure-after-a-line",
        "close-invalid-code-1002", "close-reason-invalid-utf8-1007", "quit",
        "foreign-origin-403", "wrong-scheme-origin-403", "wrong-version-426",
        "huge-length-1009", "top-bit-length-1002", "many-frames-one-segment", "byte-by-byte", "frames-with-the-request",
    ]

    /// Checks the server answers otherwise than Protocol.md says (section 7,
    /// "The web port"): each is expected to fail until the server is fixed,
    /// and then this test says so.
    static let knownIssues: [String: Comment] = [:
    ]

    static let wssChecks = ["wss-ping", "wss-http-origin-403", "wss-raw-frames", "https-hsts", "untrusted-old-certificate"]

    /// A run of the script: its exit status and its output (stdout and stderr), line by line.
    struct Run {
        let status: Int32
        let lines: [String]
        var output: String { lines.joined(separator: "\n") }

        /// The line of check `name`, if the script printed one.
        func line(of name: String) -> String? {
            lines.first { $0.hasPrefix("ok \(name): ") || $0.hasPrefix("FAIL \(name): ") || $0.hasPrefix("KNOWN \(name): ") }
        }

        func passed(_ name: String) -> Bool { line(of: name)?.hasPrefix("ok ") == true }
    }

    /// Runs `python3` with `arguments`.
    static func python(_ arguments: [String]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        p.environment = environment
        let out = try TemporaryFile()
        p.standardOutput = FileHandle(fileDescriptor: out.fd, closeOnDealloc: false)
        p.standardError = FileHandle(fileDescriptor: out.fd, closeOnDealloc: false)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let status = p.waitForExit()
        return Run(status: status, lines: out.contents().split(separator: "\n").map(String.init))
    }

    /// python3 with `websockets`, or the test fails saying what is missing.
    static func requireWebsockets() throws {
        let run = try python(["-c", "import websockets; print(websockets.__version__)"])
        guard run.status == 0 else {
            throw DaemonError("""
                these tests need python3 with the websockets library (pip install websockets), \
                and `python3 -c 'import websockets'` failed (exit \(run.status)):
                \(run.output)
                """)
        }
    }

    /// A failure seen now and then, only while the whole suite loads the
    /// machine (3 times in about 100 runs, once more in a CI run), never when
    /// asked for again: a wss connection to a fresh daemon gets no answer to
    /// its upgrade, the library giving up (`TimeoutError`) or the daemon
    /// dropping it after `--web-request-timeout` without having read its
    /// request (`InvalidMessage`: the daemon now logs that drop with the bytes
    /// it had). Not yet explained (the closing note of issue #46); tolerated
    /// as an intermittent known issue, once a run, for any wss check, only with
    /// exactly one of these outputs.
    static let stalledUpgrade = (checks: wssChecks, outputs: ["TimeoutError: timed out while waiting for handshake response",
                                                              "InvalidMessage: did not receive a valid HTTP response"])

    /// Each of `names` passed, and nothing else failed; the script's output
    /// and the daemon's log are printed once on any failure. `known`: checks
    /// expected to fail (the script says KNOWN); `intermittent`: checks and
    /// the failures of one of them tolerated.
    static func expectPassed(_ run: Run, _ names: [String], known: [String: Comment] = [:],
                             intermittent: (checks: [String], outputs: [String])? = nil, daemon: DaemonProcess,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let tolerated = intermittent.flatMap { i in
            i.checks.first { check in i.outputs.contains { run.line(of: check) == "FAIL \(check): \($0)" } }
        }
        let failing = run.lines.filter { line in
            line.hasPrefix("FAIL ") && !(tolerated.map { line.hasPrefix("FAIL \($0): ") } ?? false)
        }
        let failed = names.filter { known[$0] == nil && $0 != tolerated && !run.passed($0) }
        let clean = failed.isEmpty && failing.isEmpty && (run.status == 0 || (tolerated != nil && run.status == 1))
        if !clean || tolerated != nil || known.keys.contains(where: { run.passed($0) }) {
            print("scripts/websocket-framing.py (exit \(run.status)):\n\(run.output)")
            print("ghostd's log, its last 60 lines:\n\(daemon.stderrLines.suffix(60).joined(separator: "\n"))")
        }
        if tolerated != nil {
            withKnownIssue("the upgrade got no response (see `stalledUpgrade`)", isIntermittent: true) {
                Issue.record("\(run.line(of: tolerated ?? "") ?? "")", sourceLocation: sourceLocation)
            }
        } else {
            #expect(run.status == 0, "the script exited with \(run.status) (its output is printed above)", sourceLocation: sourceLocation)
        }
        #expect(failing == [], sourceLocation: sourceLocation)
        for name in names where known[name] == nil && name != tolerated {
            let passed = run.passed(name)
            #expect(passed, "\(run.line(of: name) ?? "no line for \(name)")", sourceLocation: sourceLocation)
        }
        for (name, bug) in known.sorted(by: { $0.key < $1.key }) {
            let passed = run.passed(name)
            withKnownIssue(bug) {
                #expect(passed, "\(run.line(of: name) ?? "no line for \(name)")", sourceLocation: sourceLocation)
            }
        }
        let unknown = run.lines.filter { line in
            ["ok ", "FAIL ", "KNOWN "].contains { line.hasPrefix($0) }
                && !names.contains { line.hasPrefix("ok \($0): ") || line.hasPrefix("FAIL \($0): ") || line.hasPrefix("KNOWN \($0): ") }
        }
        #expect(unknown == [], "checks this test does not list: \(unknown)", sourceLocation: sourceLocation)
    }

    @Test("Framing edge cases from an independent client (Python websockets and raw frames): each answered as Protocol.md says")
    func framing() async throws {
        try await onOwnThread {
            try Self.requireWebsockets()
            // Some forty connections one after another: no limit on their rate.
            let (daemon, port) = try DaemonProcess.startWithWeb(["--connects-per-second-per-ip", "0"])
            defer { daemon.kill() }
            let hello = "HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl"
            let run = try Self.python([Self.script, String(port), "--hello", hello]
                                      + Self.knownIssues.keys.sorted().flatMap { ["--known-issue", $0] })
            Self.expectPassed(run, Self.checks, known: Self.knownIssues, daemon: daemon)
            // The daemon serves on, on both ports.
            let plain = try LineClient(port: daemon.port)
            try plain.ping()
            let (web, _) = try WebSocketClient.open(port: port)
            try web.sendLine("PING")
            #expect(try web.readText() == "OK PING")
        }
    }

    @Test("wss on --web-tls-port with a self-signed certificate: PING, HSTS; after SIGHUP new sessions see the new certificate")
    func wssAndReload() async throws {
        try await onOwnThread {
            try Self.requireWebsockets()
            let folder = try DataDirectory()
            let (cert, key) = try TLSTest.makeCertificate(in: folder.path, stem: "first", subject: "/CN=first")
            let daemon = try DaemonProcess.start(extraArguments: ["--web-tls-port", "0", "--tls-cert", cert, "--tls-key", key])
            defer { daemon.kill() }
            guard let port = TestSupport.webPort(inLog: daemon.stderrLines, tls: true) else {
                throw DaemonError("no web TLS port in the log:\n\(daemon.stderrText)")
            }
            let before = try Self.python([Self.script, "--tls", String(port), "--cafile", cert, "--expect-cn", "first"])
            Self.expectPassed(before, Self.wssChecks, intermittent: Self.stalledUpgrade, daemon: daemon)

            // A new pair in the same files (the old certificate kept aside), then SIGHUP.
            let old = folder.path + "/old-cert.pem"
            try FileManager.default.copyItem(atPath: cert, toPath: old)
            let (cert2, key2) = try TLSTest.makeCertificate(in: folder.path, stem: "second", subject: "/CN=second")
            try FileManager.default.removeItem(atPath: cert)
            try FileManager.default.removeItem(atPath: key)
            try FileManager.default.copyItem(atPath: cert2, toPath: cert)
            try FileManager.default.copyItem(atPath: key2, toPath: key)
            daemon.signal(SIGHUP)
            #expect(daemon.waitForStderrLine { $0.contains("SIGHUP: reloaded the TLS certificate") } != nil, "\(daemon.stderrText)")

            let after = try Self.python([Self.script, "--tls", String(port), "--cafile", cert, "--expect-cn", "second",
                                         "--untrusted-cafile", old])
            Self.expectPassed(after, Self.wssChecks, intermittent: Self.stalledUpgrade, daemon: daemon)
            #expect(after.line(of: "untrusted-old-certificate")?.hasPrefix("ok untrusted-old-certificate: refused") == true,
                    "\(after.output)")
        }
    }
}
