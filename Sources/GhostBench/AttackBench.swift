import CGhostSys
import Foundation
import WordLists

/// `ghost-bench attack`: what an attacker without a name can do to
/// everyone else. Two classes of attackers on one epoll loop, and a probe on
/// a thread of its own from another source address:
/// - lookups: connections that loop `GAMES 100`, `NAMES 100` and
///   `RESUME <random 32 hex digits>`, one request in flight each, the next
///   as soon as the last is answered;
/// - floods: connections that write blank lines flat out (whenever the socket
///   takes more) and between them play evil Dutch 10-letter Hangman against
///   the computer (`NAME`, `LANG nl`, `NEW game=hangman mode=evil length=10`),
///   a guess as soon as the last is answered, `RESTART` after five guesses
///   (the large first families are the costly ones), `ACCEPT` to an offer, a
///   new game when one ends;
/// - the probe: one connection from 127.0.0.2 that sends `PING` at a fixed
///   pace (whether or not the last one was answered, so a stall is measured
///   in full) and times each `OK PING`.
/// With a web port (`webPort`), each round has a third phase, the web port
/// under attack (issue #46), and a second probe PINGs over a WebSocket from
/// 127.0.0.3 in every phase:
/// - web floods: WebSocket connections to `/ws` that do what the floods do,
///   each blank line an empty text message;
/// - slowloris: HTTP connections that send a request's head one byte every
///   `slowlorisInterval` and never finish it (a field after another), until
///   the server drops them (`--web-request-timeout`), then connect again.
/// An attacker whose connection ends (a `BYE`, or closed) connects again
/// after `reconnectDelay`, as an attacker would. Nothing here asserts
/// anything: `Phase` holds what each side got, for the report and for the
/// end-to-end test that checks everyone was served.
public final class AttackBench {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 7777
        /// Seconds each phase lasts (probe alone, then under attack).
        public var seconds = 5.0
        public var rounds = 3
        public var lookups = 20
        public var floods = 20
        /// Attackers' source addresses: 1 (127.0.0.1) or more (127.0.0.10 …).
        public var addresses = 1
        /// Seconds between two probe PINGs.
        public var probeInterval = 0.025
        /// After a phase, how long the probe waits for the answers still due.
        public var drain = 5.0
        /// Bytes of blank lines a second each flood writes (0: flat out, as
        /// much as the socket takes).
        public var blankBytesPerSecond = 0.0
        /// Seconds before an attacker whose connection ended connects again
        /// (`.infinity`: never).
        public var reconnectDelay = 0.1
        /// The web port (0: none, and no web phase or WebSocket probe).
        public var webPort = 0
        /// Web phase: WebSocket connections flooding as `floods` do.
        public var wsFloods = 0
        /// Web phase: HTTP connections sending a request's head a byte at a time.
        public var slowloris = 0
        /// Seconds between two bytes of a slowloris connection.
        public var slowlorisInterval = 0.05
        // Issue #47: attackers between people (AttackLoop+Social.swift).
        /// Players in games writing `SAY` lines flat out: in pairs (`NEW`,
        /// then the other `JOIN`s its code), an odd one out against the computer.
        public var chatters = 0
        /// Chatters play the computer (`NEW bot=easy`), not each other.
        public var chatBot = false
        /// Connections looping `INVITE <victim>` / `LEAVE` at one connected
        /// name, the victim (one more connection, which DECLINEs what it gets).
        public var inviters = 0
        /// Registered names `s0` … that log in, FOLLOW `s<k>` for k after k
        /// (past `--max-follows`: `ERR too-many-follows`), ask FOLLOWING
        /// every few commands, and log out (QUIT) and in again after
        /// `starSession` commands: presence to all their followers.
        public var stars = 0
        /// Followers of the stars (`s<stars>` …) logged in and idle: who hears
        /// `ONLINE` and `OFFLINE`.
        public var fans = 0
        /// Registered names that follow the most names there may be (the
        /// fixture's heavy followers, `s<stars>` …) looping `FOLLOWING`, one in flight each.
        public var listers = 0
        /// The social names of the fixture (`Fixture.buildSocial`): what the stars FOLLOW.
        public var socialNames = 10_000
        /// A star's commands between two logins.
        public var starSession = 40
        public init() {}
    }

    /// What the probe saw in one phase.
    public struct ProbeResult: Sendable {
        public var sent = 0
        /// Exact `OK PING` lines.
        public var pongs = 0
        /// Round trips, milliseconds, in order.
        public var rtts: [Double] = []
        /// `BYE` lines by code, and "closed" for an end without one.
        public var ends: [String: Int] = [:]
        /// Lines other than HELLO, OK PING and BYE (at most 5 kept), and how many.
        public var unexpected: [String] = []
        public var unexpectedCount = 0
        public var connectFailures = 0

        public func percentile(_ p: Double) -> Double? {
            guard !rtts.isEmpty else { return nil }
            let sorted = rtts.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
        }
        public var max: Double? { rtts.max() }
    }

    /// What one class of attackers got in one phase.
    public struct ClassResult: Sendable {
        public var connections = 0
        /// Final replies by their first two words (`OK GAMES`, `ERR bad-token`, …).
        public var replies: [String: Int] = [:]
        /// Lines that are not replies (`LIVE`, `NAME`, `TURN`, …), by their first word.
        public var lines: [String: Int] = [:]
        /// How connections ended, by BYE code ("closed": no BYE; "open": still
        /// open at the end of the phase).
        public var ends: [String: Int] = [:]
        public var connectFailures = 0
        /// Attackers (of `lookups` or `floods`) that got neither a reply nor a
        /// BYE in the whole phase: not served at all.
        public var silent = 0
        /// Bytes written, nearly all of them blank lines (floods).
        public var blankBytes = 0
        public var gamesOver = 0
        /// Lines received holding a control or format character (chat must never carry one), and the first.
        public var tainted = 0
        public var taintedSample = ""
        public var replyCount: Int { replies.values.reduce(0, +) }
        public init() {}
    }

    public struct Phase: Sendable {
        public var attacked: Bool
        public var seconds: Double
        public var probe = ProbeResult()
        public var lookups = ClassResult()
        public var floods = ClassResult()
        /// The attack was on the web port (web floods and slowloris), not the plain one.
        public var web = false
        /// The probe over a WebSocket, with a web port.
        public var wsProbe: ProbeResult?
        public var wsFloods = ClassResult()
        public var slowloris = ClassResult()
        /// Issue #47's classes: "chatters", "inviters", "victim", "stars", "fans", "listers".
        public var social: [String: ClassResult] = [:]
    }

    let settings: Settings
    public init(settings: Settings) { self.settings = settings }

    // MARK: Rounds

    /// `rounds` rounds of two phases, probe alone then probe under attack; the report.
    public func run(progress: (String) -> Void = { print($0) }) throws -> String {
        var alone: [Phase] = [], attacked: [Phase] = [], webAttacked: [Phase] = []
        let web = settings.webPort > 0 && settings.wsFloods + settings.slowloris > 0
        let plain = settings.lookups + settings.floods + settings.socialAttackers > 0 || !web
        progress("attack: \(settings.lookups) lookup and \(settings.floods) flood connections"
                 + (settings.socialAttackers > 0 ? "; \(settings.chatters) chatters\(settings.chatBot ? " (against the computer)" : ""), \(settings.inviters) inviters, \(settings.stars) stars, \(settings.fans) fans, \(settings.listers) FOLLOWING loopers" : "")
                 + (web ? "; on the web port \(settings.webPort) \(settings.wsFloods) WebSocket flood and \(settings.slowloris) slowloris connections" : "")
                 + " from " + (settings.addresses <= 1 ? "127.0.0.1" : "\(settings.addresses) addresses 127.0.0.10-\(9 + min(settings.addresses, 240))")
                 + (web ? " (the web port's from " + (settings.addresses <= 1 ? "127.0.0.4" : "127.0.1.10-\(9 + min(settings.addresses, 240))") + ")" : "")
                 + String(format: "; probe from %@ every %.0f ms", Sockets.probeAddress, settings.probeInterval * 1000)
                 + (settings.webPort > 0 ? ", and over a WebSocket from \(Sockets.webProbeAddress)" : "")
                 + String(format: "; %d rounds of %.0f s alone, then %.0f s under attack", settings.rounds, settings.seconds, settings.seconds)
                 + (web && plain ? " on the plain port, then on the web port" : web ? " on the web port" : ""))
        for round in 1...max(1, settings.rounds) {
            let a = try phase(attack: false)
            progress("round \(round) alone:  " + Self.describe(a))
            alone.append(a)
            if plain {
                let b = try phase(attack: true)
                progress("round \(round) attack: " + Self.describe(b))
                if let x = a.probe.percentile(0.99), let y = b.probe.percentile(0.99), x > 0 {
                    progress(String(format: "round %d: probe p99 under attack / alone = %.1f", round, y / x))
                }
                attacked.append(b)
            }
            if web {
                let c = try phase(attack: true, web: true)
                progress("round \(round) web attack: " + Self.describe(c))
                if let x = a.probe.percentile(0.99), let y = c.probe.percentile(0.99), x > 0 {
                    progress(String(format: "round %d: probe p99 under web attack / alone = %.1f", round, y / x))
                }
                webAttacked.append(c)
            }
        }
        return Self.summary(alone: alone, attacked: attacked, webAttacked: webAttacked)
    }

    static func ms(_ x: Double?) -> String { x.map { String(format: $0 < 10 ? "%.2f" : "%.0f", $0) } ?? "-" }

    static func counts(_ d: [String: Int]) -> String {
        d.isEmpty ? "none" : d.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    public static func describe(_ p: Phase) -> String {
        var s = "probe \(p.probe.pongs)/\(p.probe.sent) PONG, ms p50 \(ms(p.probe.percentile(0.5))) p90 \(ms(p.probe.percentile(0.9)))"
            + " p99 \(ms(p.probe.percentile(0.99))) max \(ms(p.probe.max))"
        if !p.probe.ends.isEmpty { s += "; probe ended: \(counts(p.probe.ends))" }
        if p.probe.unexpectedCount > 0 { s += "; probe got \(p.probe.unexpectedCount) other lines, e.g. \(p.probe.unexpected.first ?? "")" }
        if let w = p.wsProbe {
            s += "\n    WebSocket probe \(w.pongs)/\(w.sent) PONG, ms p50 \(ms(w.percentile(0.5))) p90 \(ms(w.percentile(0.9)))"
                + " p99 \(ms(w.percentile(0.99))) max \(ms(w.max))"
            if !w.ends.isEmpty { s += "; ended: \(counts(w.ends))" }
            if w.connectFailures > 0 { s += "; \(w.connectFailures) connects failed" }
            if w.unexpectedCount > 0 { s += "; got \(w.unexpectedCount) other lines, e.g. \(w.unexpected.first ?? "")" }
        }
        guard p.attacked else { return s }
        if p.web {
            for (label, c) in [("web floods", p.wsFloods), ("slowloris", p.slowloris)] {
                s += String(format: "\n    %@: %d connections", label, c.connections)
                if label == "slowloris" {
                    s += String(format: ", %d bytes of heads sent; ends: %@", c.blankBytes, counts(c.ends))
                } else {
                    s += String(format: ", %d replies (%.0f/s): %@; ends: %@; %.0f MB of empty messages written (%.0f messages), %d games over",
                                c.replyCount, Double(c.replyCount) / p.seconds, counts(c.replies), counts(c.ends),
                                Double(c.blankBytes) / 1e6, Double(c.blankBytes) / 6, c.gamesOver)
                }
                if c.connectFailures > 0 { s += "; \(c.connectFailures) connects failed" }
                if c.silent > 0 && label != "slowloris" { s += "; \(c.silent) of them never answered" }
            }
            return s
        }
        for (label, c) in p.social.sorted(by: { $0.key < $1.key }) {
            s += String(format: "\n    %@: %d connections, %d replies (%.0f/s): %@; other lines: %@; ends: %@", label, c.connections, c.replyCount,
                        Double(c.replyCount) / p.seconds, counts(c.replies), counts(c.lines), counts(c.ends))
            if c.connectFailures > 0 { s += "; \(c.connectFailures) connects failed" }
            if c.silent > 0 { s += "; \(c.silent) of them never answered" }
            if c.blankBytes > 0 { s += String(format: "; %.1f MB of SAY lines written", Double(c.blankBytes) / 1e6) }
            if c.tainted > 0 { s += "; \(c.tainted) lines with a control or format character, e.g. \(c.taintedSample.debugDescription)" }
        }
        for (label, c) in [("lookups", p.lookups), ("floods", p.floods)] where c.connections > 0 || p.social.isEmpty {
            s += String(format: "\n    %@: %d connections, %d replies (%.0f/s): %@; ends: %@", label, c.connections, c.replyCount,
                        Double(c.replyCount) / p.seconds, counts(c.replies), counts(c.ends))
            if c.connectFailures > 0 { s += "; \(c.connectFailures) connects failed" }
            if c.silent > 0 { s += "; \(c.silent) of them never answered" }
            if label == "floods" {
                s += String(format: "; %.0f MB of blank lines written, %d games over", Double(c.blankBytes) / 1e6, c.gamesOver)
            }
        }
        return s
    }

    static func median(_ xs: [Double]) -> Double? {
        guard !xs.isEmpty else { return nil }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func summary(alone: [Phase], attacked: [Phase], webAttacked: [Phase] = []) -> String {
        func med(_ phases: [Phase], _ f: (ProbeResult) -> Double?) -> String { ms(median(phases.compactMap { f($0.probe) })) }
        func wsMed(_ phases: [Phase], _ f: (ProbeResult) -> Double?) -> String { ms(median(phases.compactMap { $0.wsProbe.flatMap(f) })) }
        var lines = ["median of \(alone.count) rounds, probe ms:"]
        let phases = [("alone ", alone), ("attack", attacked), ("web attack", webAttacked)].filter { !$0.1.isEmpty }
        for (label, phases) in phases {
            lines.append("  \(label): p50 \(med(phases) { $0.percentile(0.5) }) p90 \(med(phases) { $0.percentile(0.9) })"
                         + " p99 \(med(phases) { $0.percentile(0.99) }) max \(med(phases) { $0.max })")
        }
        if alone.contains(where: { $0.wsProbe != nil }) {
            lines.append("median of \(alone.count) rounds, WebSocket probe ms:")
            for (label, phases) in phases {
                lines.append("  \(label): p50 \(wsMed(phases) { $0.percentile(0.5) }) p90 \(wsMed(phases) { $0.percentile(0.9) })"
                             + " p99 \(wsMed(phases) { $0.percentile(0.99) }) max \(wsMed(phases) { $0.max })")
            }
        }
        for (label, under) in [("attack", attacked), ("web attack", webAttacked)] where !under.isEmpty {
            let ratios = zip(alone, under).compactMap { a, b -> Double? in
                guard let x = a.probe.percentile(0.99), let y = b.probe.percentile(0.99), x > 0 else { return nil }
                return y / x
            }
            lines.append("p99 ratio \(label)/alone per round: " + ratios.map { String(format: "%.1f", $0) }.joined(separator: " ")
                         + "; median " + (median(ratios).map { String(format: "%.1f", $0) } ?? "-"))
        }
        for (label, under) in [("attack", attacked), ("web attack", webAttacked)] where !under.isEmpty {
            let p99 = median(under.compactMap { $0.probe.percentile(0.99) })
            var line = "target: probe p99 <= 20 ms under \(label): " + (p99.map { $0 <= 20 ? "met" : "NOT met" } ?? "no data")
                + (p99.map { String(format: " (%.1f ms)", $0) } ?? "")
            if let w = median(under.compactMap { $0.wsProbe?.percentile(0.99) }) {
                line += String(format: "; WebSocket probe %.1f ms", w)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    // MARK: One phase

    /// The probe alone (`attack: false`) or under attack, for `settings.seconds`.
    /// `web`: the web port's attackers (web floods, slowloris) instead of the plain port's.
    public func phase(attack: Bool, web: Bool = false) throws -> Phase {
        let probe = Probe(settings: settings)
        let thread = Thread { probe.run() }
        thread.start()
        let wsProbe = settings.webPort > 0 ? Probe(settings: settings, websocket: true) : nil
        if let wsProbe { Thread { wsProbe.run() }.start() }
        var result = Phase(attacked: attack, seconds: settings.seconds)
        result.web = attack && web
        if attack {
            let loop = AttackLoop(settings: settings, web: web)
            try loop.run(until: now() + settings.seconds)
            result.lookups = loop.lookups
            result.floods = loop.floods
            result.wsFloods = loop.wsFloods
            result.slowloris = loop.slowloris
            result.social = loop.social
        } else {
            usleep(UInt32(settings.seconds * 1e6))
        }
        probe.stop()
        wsProbe?.stop()
        result.probe = probe.finish()
        result.wsProbe = wsProbe?.finish()
        return result
    }
}

/// The probe: PING at a fixed pace on one connection from 127.0.0.2 (over
/// a WebSocket to the web port: from 127.0.0.3).
final class Probe: @unchecked Sendable {
    let settings: AttackBench.Settings
    let websocket: Bool
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)
    private var result = AttackBench.ProbeResult()

    init(settings: AttackBench.Settings, websocket: Bool = false) {
        self.settings = settings
        self.websocket = websocket
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    func finish() -> AttackBench.ProbeResult {
        done.wait()
        return result
    }

    func run() {
        defer { done.signal() }
        var fd: Int32 = -1
        var inbox: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pending: [Double] = []   // send times of the PINGs not yet answered
        var head = 0
        var next = now()
        var drainUntil = Double.infinity
        var byeSeen = false
        var upgraded = false
        var masks = SplitMix64(seed: UInt64(getpid()))
        func connect() {
            byeSeen = false
            upgraded = false
            fd = Sockets.connect(host: settings.host, port: websocket ? settings.webPort : settings.port,
                                 source: websocket ? Sockets.webProbeAddress : Sockets.probeAddress)
            if fd < 0 { result.connectFailures += 1 }
            inbox.removeAll()
            pending.removeAll()
            head = 0
            if fd >= 0 && websocket {
                let request = WebSocket.upgradeRequest(host: settings.host, port: settings.webPort)
                _ = request.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
            }
        }
        func lost(_ why: String) {
            if !byeSeen { result.ends[why, default: 0] += 1 }
            close(fd)
            fd = -1
        }
        connect()
        while true {
            let t = now()
            if isStopping && drainUntil == .infinity { drainUntil = t + settings.drain }
            if t >= drainUntil || (drainUntil != .infinity && head == pending.count) { break }
            if fd < 0 {
                usleep(20_000)
                if drainUntil == .infinity { connect() }
                continue
            }
            if drainUntil == .infinity && t >= next && (!websocket || upgraded) {
                var line = Array("PING\r\n".utf8)
                if websocket {
                    line = []
                    WebSocket.appendFrame("PING".utf8, mask: UInt32(truncatingIfNeeded: masks.next()), to: &line)
                }
                if line.withUnsafeBytes({ ghost_send(fd, $0.baseAddress, UInt($0.count)) }) == line.count {
                    pending.append(t)
                    result.sent += 1
                }
                next += settings.probeInterval
                if next < t - 1 { next = t + settings.probeInterval }
                continue
            }
            let wait = drainUntil == .infinity ? (websocket && !upgraded ? 0.05 : max(0, next - t)) : min(0.05, drainUntil - t)
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32((wait * 1000).rounded(.up))) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            let got = now()
            if n <= 0 {
                lost("closed")
                continue
            }
            inbox += buffer[..<n]
            func handle(_ line: ArraySlice<UInt8>) {
                if line.elementsEqual("OK PING".utf8) {
                    if head < pending.count {
                        result.rtts.append((got - pending[head]) * 1000)
                        head += 1
                    }
                    result.pongs += 1
                } else if line.starts(with: "HELLO ".utf8) {
                    return
                } else if line.starts(with: "BYE ".utf8) {
                    byeSeen = true
                    let code = line.dropFirst(4).prefix { $0 != 0x20 }
                    result.ends["BYE " + String(decoding: code, as: UTF8.self), default: 0] += 1
                } else {
                    result.unexpectedCount += 1
                    if result.unexpected.count < 5 { result.unexpected.append(String(decoding: line, as: UTF8.self)) }
                }
            }
            if websocket {
                if !upgraded {
                    guard let response = WebSocket.responseHead(inbox) else { continue }
                    guard response.status == 101 else {
                        result.ends["HTTP \(response.status)", default: 0] += 1
                        byeSeen = true
                        lost("refused")
                        continue
                    }
                    upgraded = true
                    inbox.removeFirst(response.length)
                    next = now()
                }
                var box = inbox
                WebSocket.takeFrames(&box) { event in
                    if case .line(let line) = event { handle(line) }
                }
                inbox = box
                continue
            }
            var from = 0
            while let nl = inbox[from...].firstIndex(of: 0x0A) {
                var end = nl
                if end > from && inbox[end - 1] == 0x0D { end -= 1 }
                handle(inbox[from..<end])
                from = nl + 1
            }
            inbox.removeFirst(from)
        }
        if fd >= 0 { close(fd) }
    }
}
