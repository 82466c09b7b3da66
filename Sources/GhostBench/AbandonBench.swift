import Foundation

/// `ghost-bench abandon`: games that nobody will ever finish. Each
/// session connects, sends `NAME x<n>`, `LANG nl`,
/// `NEW game=hangman mode=evil length=10`, `LETTER q` and `QUIT` in one go,
/// and reads until the server closes. Session `i` plays name `x<i mod names>`,
/// and each name always comes from the same source address (127.0.0.10 …, one
/// of `addresses`), so no address makes more new names than `names/addresses`.
/// `workers` sessions run at once. Counts the games left behind (the guess
/// was acknowledged) and the refusals: each `ERR` code, and the `BYE` of a
/// connection refused at once.
public enum AbandonBench {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 7777
        public var games = 10_000
        public var names = 4_800
        public var addresses = 240
        public var workers = 8
        public init() {}
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var sessions = 0
        /// Sessions whose `LETTER q` was acknowledged: a game left behind.
        public var abandoned = 0
        /// `ERR <code>` lines, by code.
        public var errors: [String: Int] = [:]
        /// `BYE <code>` lines other than `BYE quit`, by code.
        public var byes: [String: Int] = [:]
        public var connectFailures = 0
        public var timeouts = 0
        public var seconds = 0.0
        public var description: String {
            var s = String(format: "abandon: %d sessions in %.1f s: %d games left behind (LETTER q acknowledged)", sessions, seconds, abandoned)
            s += "; ERR: " + AttackBench.counts(errors) + "; BYE other than quit: " + AttackBench.counts(byes)
            if connectFailures > 0 { s += "; \(connectFailures) connects failed" }
            if timeouts > 0 { s += "; \(timeouts) sessions timed out" }
            return s
        }
    }

    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var report = Report()
        func take(_ total: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < total else { return nil }
            next += 1
            return next - 1
        }
        func add(_ change: (inout Report) -> Void) {
            lock.lock()
            change(&report)
            lock.unlock()
        }
    }

    public static func run(_ settings: Settings) -> Report {
        let shared = Shared()
        let t0 = now()
        // Threads, not concurrentPerform: the sessions wait on the network, not the CPU.
        let group = DispatchGroup()
        for _ in 0..<max(1, settings.workers) {
            group.enter()
            Thread {
                defer { group.leave() }
                while let i = shared.take(settings.games) {
                let outcome = session(i, settings)
                shared.add { r in
                    r.sessions += 1
                    switch outcome {
                    case .connectFailed: r.connectFailures += 1
                    case .done(let acked, let errors, let byes, let timedOut):
                        if acked { r.abandoned += 1 }
                        for e in errors { r.errors[e, default: 0] += 1 }
                        for b in byes { r.byes[b, default: 0] += 1 }
                        if timedOut { r.timeouts += 1 }
                    }
                }
                }
            }.start()
        }
        group.wait()
        shared.report.seconds = now() - t0
        return shared.report
    }

    enum Outcome {
        case connectFailed
        case done(acked: Bool, errors: [String], byes: [String], timedOut: Bool)
    }

    static func session(_ i: Int, _ settings: Settings) -> Outcome {
        let n = i % max(1, settings.names)
        let source = settings.addresses <= 1 ? nil : Sockets.attackerAddress(n, of: settings.addresses)
        let fd = Sockets.connect(host: settings.host, port: settings.port, source: source, blocking: true)
        guard fd >= 0 else { return .connectFailed }
        defer { close(fd) }
        let script = "NAME x\(n)\r\nLANG nl\r\nNEW game=hangman mode=evil length=10\r\nLETTER q\r\nQUIT\r\n"
        _ = Sockets.sendAll(fd, Array(script.utf8))
        let reader = LineReader(fd: fd)
        let deadline = now() + 30
        var acked = false, errors: [String] = [], byes: [String] = []
        while let line = reader.line(until: deadline) {
            if line.hasPrefix("OK LETTER") {
                acked = true
            } else if line.hasPrefix("ERR ") {
                errors.append(String(line.split(separator: " ").dropFirst().first ?? ""))
            } else if line.hasPrefix("BYE ") {
                let code = String(line.split(separator: " ").dropFirst().first ?? "")
                if code != "quit" { byes.append(code) }
                break
            }
        }
        return .done(acked: acked, errors: errors, byes: byes, timedOut: !reader.closed && now() >= deadline)
    }
}
