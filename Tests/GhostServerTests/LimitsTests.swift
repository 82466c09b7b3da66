import Foundation
import Testing
import GhostProtocol
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The daemon's limits (Net/EventLoop.swift, Protocol.md §7), each against a small
/// daemon of its own with a tiny limit, over real sockets.
@Suite("Limits: clients, timeouts, flood, output, accept backoff", .ownThread, .hangLimit)
struct LimitsTests {
    static let idleTimeoutLine = idleTimeoutLine(1)
    static func idleTimeoutLine(_ seconds: Int) -> String {
        "BYE idle-timeout no command for \(seconds) s; PING keeps a connection alive"
    }
    static let nameTimeoutLine = "BYE name-timeout no NAME or RESUME within 1 s"
    static let overflowLine = "BYE output-overflow more than 2048 bytes of replies unread"

    static func daemon(_ args: [String]) throws -> DaemonProcess {
        try DaemonProcess.start(extraArguments: args)
    }

    /// Whether `c` has something to read (or its end), without reading it;
    /// waits up to `timeout` for it.
    static func readable(_ c: LineClient, timeout: Double = 0) -> Bool {
        var p = pollfd(fd: c.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(timeout * 1000)) > 0
    }

    /// Plays "pear" from a fresh game to its end (reason=word), players[1] losing.
    static func finishPear(_ game: inout Game, from step: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let letters = Array("pea")
        for c in letters[step...] { try game.play(c, sourceLocation: sourceLocation) }
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.",
                            sourceLocation: sourceLocation)
    }

    // MARK: Connection limits

    @Test("--max-clients 3: the 4th connection reads exactly one `BYE full …` line and EOF; a freed slot serves again")
    func maxClients() throws {
        let d = try Self.daemon(["--max-clients", "3"])
        defer { d.kill() }
        let busy = "BYE full the server has its maximum of 3 clients; try again later"
        let clients = try (0..<3).map { try LineClient(port: d.port, label: "c\($0)") }
        for i in 0..<2 {
            let extra = try LineClient(port: d.port, label: "extra\(i)", readHello: false)
            try extra.expect(busy)
            try extra.expectClosed()
        }
        // Those turned away took no slot; the three are served as before.
        for c in clients { try c.ping() }
        try clients[0].login(E2E.name("first"))

        clients[1].close()
        #expect(d.waitUntilClosed(clients[1]), "the daemon did not log closing the freed connection")
        let again = try LineClient(port: d.port, label: "again")
        try again.login(E2E.name("again"))
        try again.ping()

        // Full again.
        let late = try LineClient(port: d.port, label: "late", readHello: false)
        try late.expect(busy)
        try late.expectClosed()
        #expect(d.isRunning)
    }

    @Test("--max-clients-per-ip 2: the 3rd connection from 127.0.0.1 reads exactly `BYE full …` and EOF; a freed slot serves again")
    func maxClientsPerIP() throws {
        let d = try Self.daemon(["--max-clients-per-ip", "2"])
        defer { d.kill() }
        let busy = "BYE full too many connections from 127.0.0.1 (at most 2)"
        let a = try LineClient(port: d.port, label: "a"), b = try LineClient(port: d.port, label: "b")
        for i in 0..<3 {
            let extra = try LineClient(port: d.port, label: "extra\(i)", readHello: false)
            try extra.expect(busy)
            try extra.expectClosed()
        }
        try a.ping()
        try b.ping()
        // An abrupt close (RST) frees the slot too.
        b.reset()
        #expect(d.waitUntilClosed(b))
        let c = try LineClient(port: d.port, label: "c")
        let (na, nc) = (E2E.name("pa"), E2E.name("pc"))
        try a.login(na)
        try c.login(nc)
        var game = try Game.privateGame(host: Player(name: na, client: a), guest: Player(name: nc, client: c))
        try Self.finishPear(&game)
        let over = try LineClient(port: d.port, label: "over", readHello: false)
        try over.expect(busy)
        try over.expectClosed()
    }

    // MARK: Timeouts

    @Test("--name-timeout 1: a silent connection, and one that only PINGs, get `BYE name-timeout …` and EOF; NAME keeps one open")
    func nameTimeout() throws {
        let d = try Self.daemon(["--name-timeout", "1"])
        defer { d.kill() }
        // Before the connections: each one's second counts from its accept, later.
        let start = monotonicNow()
        let silent = try LineClient(port: d.port, label: "silent")
        let pinger = try LineClient(port: d.port, label: "pinger")
        try pinger.ping()
        let named = try LineClient(port: d.port, label: "named")
        let namedAt = monotonicNow()   // after its HELLO: its accept came before
        try named.login(E2E.name("named"))

        // The pinger is busy but never says who it is: PING does not count.
        // Meanwhile, when the silent one's BYE comes is noted (not read yet).
        var pings = 1, oks = 1
        var other: [String] = []
        var silentAt: Double?, pingerAt: Double?
        while !(pinger.sawEOF && silentAt != nil) && monotonicNow() - start < 30 {
            if !pinger.sawEOF {
                if pinger.trySend("PING") { pings += 1 }
                if pinger.isClosed(timeout: 0.3) { pingerAt = pingerAt ?? monotonicNow() }
            } else if silentAt == nil {
                _ = Self.readable(silent, timeout: 0.3)
            }
            if silentAt == nil, Self.readable(silent) { silentAt = monotonicNow() }
            other += pinger.readAvailable().filter { line in
                if line == "OK PING" { oks += 1; return false }
                return true
            }
        }
        #expect(pinger.isClosed(timeout: 1), "the pinger without NAME was not closed within 30 s")
        other += pinger.takeBufferedLines().filter { line in
            if line == "OK PING" { oks += 1; return false }
            return true
        }
        #expect(other == [Self.nameTimeoutLine], "the pinger got \(other) besides \(oks) OK PING")
        #expect(oks >= 1 && oks <= pings, "\(oks) OK PING for \(pings) PING")

        try silent.expect(Self.nameTimeoutLine, timeout: 30)
        try silent.expectClosed(timeout: 30)
        // Not before its second was up, however fast or slow the machine.
        let silentClosed = silentAt ?? monotonicNow()
        #expect(silentClosed - start >= 1, "the silent connection got its BYE \(silentClosed - start) s after it connected")
        #expect((pingerAt ?? monotonicNow()) - start >= 1, "the pinger was closed \((pingerAt ?? monotonicNow()) - start) s after it connected")
        #expect(silentClosed - start < 30, "the silent connection was closed only after \(silentClosed - start) s")

        // The named connection stays, well past the timeout (its own second
        // and a sweep after it).
        let wait = 2.2 - (monotonicNow() - namedAt)
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        try named.ping()   // OK PING, and nothing (no BYE) before it
        #expect(d.isRunning)
    }

    @Test("--name-timeout 1: RESUME identifies a connection as NAME does")
    func nameTimeoutResume() throws {
        let d = try Self.daemon(["--name-timeout", "1"])
        defer { d.kill() }
        var game = try Game.privateGame(host: try E2E.player(d, "host"), guest: try E2E.player(d, "guest"))
        try game.play("p")
        game.players[1].client.close()
        try game.expectAdjourned(absent: 1)
        game.players[1] = try E2E.resume(d, game, seat: 1)
        usleep(2_200_000)
        for p in game.players { try p.expectNothing(within: 0.05) }
        try Self.finishPear(&game, from: 1)
    }

    @Test("--idle-timeout 3: PING every 0.3 s keeps a connection, named or not, for 7 s; a silent named one gets `BYE idle-timeout …` and EOF, not before its 3 s")
    func idleTimeout() throws {
        // 3 s, PINGs every 0.3 s: only a stall of the test of 2.7 s could close a pinger.
        let d = try Self.daemon(["--idle-timeout", "3"])
        defer { d.kill() }
        let pinger = try LineClient(port: d.port, label: "pinger")
        try pinger.login(E2E.name("pinger"))
        // An unnamed connection that only PINGs is kept alive as well.
        let anon = try LineClient(port: d.port, label: "anon")
        let silent = try LineClient(port: d.port, label: "silent")
        let start = monotonicNow()   // before the silent one's last command
        try silent.login(E2E.name("silent"))
        var silentAt: Double?
        while monotonicNow() - start < 7 {
            try pinger.ping()
            try anon.ping()
            if silentAt == nil, Self.readable(silent) { silentAt = monotonicNow() }
            usleep(300_000)
        }
        try pinger.ping()
        try anon.ping()
        try silent.expect(Self.idleTimeoutLine(3), timeout: 30)
        try silent.expectClosed(timeout: 30)
        let closed = silentAt ?? monotonicNow()
        #expect(closed - start >= 3, "the silent connection got its BYE \(closed - start) s after its NAME")
        #expect(d.isRunning)
    }

    @Test("--idle-timeout 1: blank lines (empty, spaces, tabs, CRLF), each kind at once and then one every 0.2 s, do not keep a connection alive: `BYE idle-timeout …` and EOF")
    func blankLinesDoNotKeepAlive() throws {
        let d = try Self.daemon(["--idle-timeout", "1"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "blank")
        let start = monotonicNow()   // before its last command, the NAME
        try c.login(E2E.name("blank"))
        let blanks = ["", "   ", "\t", " \t \r"]
        // Every kind of blank line, back to back right after the NAME ...
        for b in blanks { try c.send(b) }
        // ... and then more until the close: were a blank line a command, it
        // would never come.
        var sent = blanks.count
        while !c.isClosed(timeout: 0.2) && monotonicNow() - start < 30 {
            if c.trySend(blanks[sent % blanks.count]) { sent += 1 }
        }
        let closed = monotonicNow()
        #expect(c.sawEOF, "a connection sending only blank lines (\(sent)) was not closed by --idle-timeout 1 within 30 s")
        #expect(c.takeBufferedLines() == [Self.idleTimeoutLine])
        #expect(closed - start >= 1, "closed \(closed - start) s after its NAME")
        #expect(d.closeReason(localPort: c.localPort) == "idle-timeout (no command for 1 s; PING keeps a connection alive)")
    }

    @Test("--idle-timeout 3 in a game: the opponent gets ADJOURNED (not OVER), the player RESUMEs with the token and plays on")
    func idleTimeoutAdjourns() throws {
        // 3 s: every step below, each player's commands included, has 3 s
        // between the host's commands; the host PINGs before each step that
        // may take time (a new connection, RESUME, moves that are stored).
        let d = try Self.daemon(["--idle-timeout", "3"])
        defer { d.kill() }
        var game = try Game.privateGame(host: try E2E.player(d, "host"), guest: try E2E.player(d, "guest"))
        try game.play("p")                    // the guest is to move, and goes silent
        let (host, guest) = (game.players[0], game.players[1])

        // The host PINGs every 0.3 s and collects everything else it gets.
        var sent = 0, oks = 0
        var hostLines: [String] = []
        let deadline = monotonicNow() + 30
        func collect(_ lines: [String]) {
            for line in lines { if line == "OK PING" { oks += 1 } else { hostLines.append(line) } }
        }
        while !guest.client.isClosed(timeout: 0.3) && monotonicNow() < deadline {
            try host.send("PING")
            sent += 1
            collect(host.client.readAvailable())
        }
        while oks < sent || hostLines.count < 2, let line = host.client.nextLine(timeout: max(0, deadline - monotonicNow())) {
            collect([line])
        }
        #expect(guest.client.sawEOF, "the silent guest was not closed within 30 s")
        #expect(guest.client.takeBufferedLines() == [Self.idleTimeoutLine(3)])
        #expect(hostLines == [
            "ADJOURNED id=\(game.id) player=\(guest.name) grace=60",
            "INFO \(guest.name) is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it.",
        ], "the host got \(hostLines)")
        #expect(oks == sent, "\(oks) OK PING for \(sent) PING")

        try host.client.ping()
        game.players[1] = try E2E.resume(d, game, seat: 1)
        try host.client.ping()
        try Self.finishPear(&game, from: 1)
        try host.client.ping()   // OK PING, and nothing before it
    }

    /// A socket whose kernel buffers hold little (small segments, small
    /// receive buffer), so that unread replies queue in ghostd after ~100 KB.
    static func smallWindowClient(_ d: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) throws -> RawSocket {
        let s = try RawSocket.connect(port: d.port, receiveBuffer: 4096, maxSegment: 536).get()
        let hello = s.readLine(timeout: 5) ?? "nothing"
        #expect(hello.hasPrefix(LineClient.helloPrefix), "got \(hello)", sourceLocation: sourceLocation)
        return s
    }

    /// The bytes of one HELP's reply, as `d` sends it (the protocol's
    /// commands, then its kinds' NEW lines and moves: whatever its catalog holds).
    static func helpReplyBytes(_ d: DaemonProcess) throws -> Int {
        let c = try LineClient(port: d.port, label: "help")
        defer { c.close() }
        try c.send("HELP")
        let (lines, ok) = try c.readUntil(prefix: "OK HELP")
        return (lines + [ok]).reduce(0) { $0 + $1.utf8.count + 2 }
    }

    /// HELPs for about 240 KB of replies (about 160 of them): under the
    /// default 256 KiB allowance even if nothing could be written, and more
    /// than the small socket's kernel buffers take, so some wait in ghostd;
    /// that many commands is under the burst (200).
    static func helps160(_ d: DaemonProcess) throws -> [UInt8] {
        Array(String(repeating: "HELP\n", count: min(160, 240_000 / (try helpReplyBytes(d)))).utf8)
    }

    @Test("--idle-timeout 1 / --name-timeout 1: a client that stopped reading (replies queued in ghostd) and went silent is still closed")
    func timeoutNonReader() throws {
        let d = try Self.daemon(["--idle-timeout", "1", "--name-timeout", "1"])
        defer { d.kill() }
        let idle = try Self.smallWindowClient(d)
        #expect(idle.send("NAME \(E2E.name("nonreader"))") == .sent)
        let unnamed = try Self.smallWindowClient(d)
        let helps = try Self.helps160(d)
        for s in [idle, unnamed] { #expect(s.send(helps) == .sent) }
        // Both are past their limit after 1 s, found by the sweep within 2 s.
        for (s, what) in [(idle, "named (idle timeout)"), (unnamed, "unnamed (name timeout)")] {
            let reason = d.closeReason(localPort: s.localPort, timeout: 5)
            #expect(reason != nil, "ghostd did not close the silent \(what) client that does not read within 5 s")
        }
        // It did not read its last replies within the close grace, so it was
        // dropped: it reads what had reached its socket, then EOF (the BYE
        // line was queued behind replies it never took).
        let (lines, closed) = idle.readToEOF(timeout: 5)
        #expect(closed, "\(lines.count) lines, last \(lines.last ?? "none"), EOF \(closed)")
        #expect(d.closeReason(localPort: idle.localPort, timeout: 1)
                == "idle-timeout (no command for 1 s; PING keeps a connection alive); last replies not read")
        #expect(d.isRunning)
    }

    // MARK: Command rate

    static let floodLine = "BYE flood over 5 command units a second for 1 s; slow down"

    @Test("--max-commands-per-second 5 --command-burst 10 --flood-seconds 1: 30 PINGs at once get 10 `OK PING` at once, then are slowed, then `BYE flood …`, EOF")
    func flood() throws {
        // (--cost-unit-us 1000000: each PING costs exactly 1, however long a loaded machine takes over it.)
        let d = try Self.daemon(["--max-commands-per-second", "5", "--command-burst", "10", "--flood-seconds", "1",
                                 "--cost-unit-us", "1000000"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "flooder")
        try c.sendRaw(Array(String(repeating: "PING\n", count: 30).utf8))
        for _ in 0..<10 { try c.expect("OK PING") }
        // Slowed, not refused: a few more answers (one each 0.2 s), then it
        // has been over its budget for 1 s with lines waiting.
        var more = 0
        while true {
            let line = try c.readLine(timeout: 5)
            if line == "OK PING" { more += 1; continue }
            #expect(line == Self.floodLine)
            break
        }
        #expect(more < 20, "every PING was answered: \(more) after the burst")
        try c.expectClosed()
        #expect(d.closeReason(localPort: c.localPort) == "flood (over 5 command units a second for 1 s; slow down)")

        // Exactly the burst at once is fine.
        let b = try LineClient(port: d.port, label: "burst")
        try b.sendRaw(Array(String(repeating: "PING\n", count: 10).utf8))
        for _ in 0..<10 { try b.expect("OK PING") }
        try b.expectNothing(within: 0.2)

        // Below the rate, more commands than the burst never trip it: 4 a second for 3 s.
        let h = try LineClient(port: d.port, label: "steady")
        for _ in 0..<12 {
            try h.ping()
            usleep(250_000)
        }
        try h.login(E2E.name("steady"))
        #expect(d.isRunning)
    }

    @Test("--max-commands-per-second 5 --command-burst 10 --flood-seconds 1: blank lines count: 1,000 at once spend the burst, and the PING behind them gets only `BYE flood …`")
    func blankLinesCount() throws {
        let d = try Self.daemon(["--max-commands-per-second", "5", "--command-burst", "10", "--flood-seconds", "1"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "blanks")
        let blanks = ["\n", "\r\n", "  \n", "\t\r\n", " \t \n"]
        try c.sendRaw(Array((0..<1000).map { blanks[$0 % blanks.count] }.joined().utf8))
        try c.sendRaw(Array("PING\n".utf8))
        try c.expect(Self.floodLine)
        try c.expectClosed()
        #expect(d.isRunning)
    }

    @Test("Typing at a human pace (20 commands, 100 ms apart) never trips the default rate limit")
    func humanPace() throws {
        // (--cost-unit-us 1000000: each command costs its fixed cost, however long a loaded machine takes over it.)
        let d = try Self.daemon(["--cost-unit-us", "1000000"])
        defer { d.kill() }
        var game = try Game.privateGame(host: try E2E.player(d, "typist"), guest: try E2E.player(d, "other"))
        let typist = game.players[0]
        for i in 0..<20 {
            switch i % 3 {
            case 0: try typist.client.ping()
            case 1:
                try typist.send("NAMES")
                _ = try typist.client.readUntil(prefix: "OK NAMES")
            default:
                try typist.send("SCORES 3")
                _ = try typist.client.readUntil(prefix: "OK SCORES")
            }
            usleep(100_000)
        }
        try Self.finishPear(&game)
        try typist.client.ping()   // OK PING, and nothing (no BYE flood) before it
    }

    @Test("--flood-seconds 1: a flooder that never reads is closed too, and ghostd does not spin on its unread input while it waits")
    func floodNonReader() throws {
        let d = try Self.daemon(["--flood-seconds", "1"])
        defer { d.kill() }
        // Hangman builds its word tables on a background thread after startup
        // (seconds in a debug build); a Hangman setting waits for them, so the
        // CPU measured below is the loop's alone.
        let warm = try LineClient(port: d.port, label: "warm")
        try warm.login("warm")
        try warm.send("SET hangman-length 5")
        try warm.expect("OK SET key=hangman-length value=5", timeout: 30)
        warm.close()
        let c = try Self.smallWindowClient(d)
        // Replies it does not read, within the burst (200) and the output allowance ...
        #expect(c.send(try Self.helps160(d)) == .sent)
        usleep(300_000)
        // ... then past its budget (slowed, then BYE flood), with more input behind.
        #expect(c.send(Array(String(repeating: "PING\n", count: 100).utf8)) == .sent)
        usleep(300_000)
        #expect(c.send(Array(String(repeating: "PING\n", count: 10_000).utf8), timeout: 5) == .sent)
        let reason = d.closeReason(localPort: c.localPort, timeout: 5)
        #expect(reason != nil, "ghostd did not close a flooding client that does not read within 5 s")
        // Idle, ghostd wakes once a second; spinning, it takes all the CPU it gets.
        let cpu0 = try #require(d.cpuSeconds)
        usleep(2_000_000)
        let used = try #require(d.cpuSeconds) - cpu0
        #expect(used < 0.2, "ghostd used \(used) s of CPU in 2 s with nothing to do but a flooder's unread input")
        c.reset()
        let check = try LineClient(port: d.port, label: "check")
        try check.ping()
    }

    // MARK: Output

    @Test("--max-output-bytes 2048: HELP ×100 without reading drops the client; in a game the opponent gets ADJOURNED and RESUME works")
    func maxOutputBytes() throws {
        let d = try Self.daemon(["--max-output-bytes", "2048"])
        defer { d.kill() }
        let helps = Array(String(repeating: "HELP\n", count: 100).utf8)

        // Outside a game.
        let lone = try LineClient(port: d.port, label: "lone")
        try lone.sendRaw(helps)
        #expect(lone.isClosed(timeout: 5), "a client with 100 HELPs unread was not dropped")
        let got = lone.takeBufferedLines()
        #expect(got.allSatisfy { $0.hasPrefix("HELP ") || $0 == "OK HELP" || $0 == Self.overflowLine }, "\(got.prefix(5))")
        #expect(d.closeReason(localPort: lone.localPort) == "output-overflow (more than 2048 bytes of replies unread)")

        // In a game: adjourned, not lost.
        var game = try Game.privateGame(host: try E2E.player(d, "host"), guest: try E2E.player(d, "reader"))
        try game.play("p")
        let guest = game.players[1]
        try guest.client.sendRaw(helps)
        #expect(guest.client.isClosed(timeout: 5), "the player with 100 HELPs unread was not dropped")
        try game.expectAdjourned(absent: 1)
        try game.players[0].expectNothing(within: 0.2)
        #expect(d.closeReason(localPort: guest.client.localPort) == "output-overflow (more than 2048 bytes of replies unread)")
        game.players[1] = try E2E.resume(d, game, seat: 1)
        try Self.finishPear(&game, from: 1)

        // A client that reads its replies is never dropped, HELP after HELP.
        let reader = try LineClient(port: d.port, label: "reader")
        for _ in 0..<20 {
            try reader.send("HELP")
            let (infos, ok) = try reader.readUntil(prefix: "OK ")
            #expect(ok == "OK HELP" && infos.count >= 10)
        }
    }

    @Test("--max-output-bytes 1024 (the smallest allowed): a client that reads everything is not dropped for one HELP")
    func smallestOutputAllowance() throws {
        let d = try Self.daemon(["--max-output-bytes", "1024"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "reader")
        try c.login(E2E.name("reader"))
        try c.send("HELP")
        // HELP's reply is about 1.5 KB, written in one loop turn to a client that reads at once.
        let (infos, ok) = try c.readUntil(prefix: "OK ")
        #expect(ok == "OK HELP" && infos.count >= 10)
        try c.ping()
    }

    // MARK: Out of descriptors

    @Test("Accept backoff: with `ulimit -n 64`, 100 connections make accept() fail; ghostd pauses accepting, serves on, recovers")
    func acceptBackoff() throws {
        let d = try DaemonProcess.start(shellPrefix: "ulimit -n 64")
        defer { d.kill() }
        let limits = readProcFile("/proc/\(d.pid)/limits") ?? ""
        #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max open files") && $0.contains(" 64 ") },
                "the descriptor limit did not apply: \(limits)")

        // One client first, to show the served ones stay served.
        let early = try LineClient(port: d.port, label: "early")
        try early.login(E2E.name("early"))
        var extra: [LineClient] = []
        for i in 0..<100 {
            extra.append(try LineClient(port: d.port, label: "x\(i)", readHello: false))
        }
        let failed = d.waitForStderrLine(timeout: 5) { $0.contains("accept failed") }
        #expect(failed?.hasSuffix("accept failed: Too many open files; pausing accept for 100 ms") == true,
                "stderr: \(failed ?? "no `accept failed` line")")
        #expect(d.isRunning, "ghostd exited: \(d.exitStatus.map(\.description) ?? "")\n\(d.stderrLines.suffix(10).joined(separator: "\n"))")
        usleep(500_000)
        var hellos = 0, eofs = 0
        for c in extra {
            if c.readAvailable().first?.hasPrefix(LineClient.helloPrefix) == true { hellos += 1 }
            if c.sawEOF { eofs += 1 }
        }
        #expect(hellos > 0 && hellos < 100, "\(hellos) of the 100 extra connections got HELLO")
        #expect(eofs == 0, "\(eofs) of the extra connections were closed")
        // Still serving the others while out of descriptors.
        try early.ping()
        #expect(d.isRunning)

        for c in extra { c.close() }
        // The queued connections are accepted (and found closed); then new clients play.
        let host = try LineClient(port: d.port, label: "host", timeout: 10)
        let guest = try LineClient(port: d.port, label: "guest", timeout: 10)
        let (nh, ng) = (E2E.name("host"), E2E.name("guest"))
        try host.login(nh)
        try guest.login(ng)
        var game = try Game.privateGame(host: Player(name: nh, client: host), guest: Player(name: ng, client: guest))
        try Self.finishPear(&game)
        try early.ping()
        let pauses = d.stderrLines.filter { $0.contains("pausing accept") }.count
        print("accept backoff: \(hellos) of 100 extra connections served while out of descriptors; \(pauses) `pausing accept` lines")
        #expect(d.terminate() == .exited(0), "stderr:\n\(d.stderrLines.suffix(10).joined(separator: "\n"))")
    }

    // MARK: Names

    @Test("30,000 renames from one connection: with no limit on new names, NAMES stays bounded (20, or up to 100) and nobody is dropped; with the default limit, 20 new names are taken and the rest refused")
    func thirtyThousandRenames() throws {
        // Without the new-name limit: every name is stored, but no reply grows with them.
        let open = try Self.daemon(["--max-commands-per-second", "0", "--max-new-names-per-minute", "0", "--durability", "normal"])
        defer { open.kill() }
        let attacker = try LineClient(port: open.port, label: "attacker")
        let taken = try RenameFlood.rename30000(attacker)
        #expect(taken.ok == 30_000 && taken.limited == 0, "\(taken)")
        let asker = try LineClient(port: open.port, label: "asker")
        try asker.send("NAMES")
        let recent = try asker.readUntil(prefix: "OK NAMES ")
        #expect(recent.line == "OK NAMES count=20 more=yes")
        #expect(recent.skipped.count == 20 && recent.skipped.allSatisfy { $0.hasPrefix("NAME name=u") }, "\(recent.skipped)")
        try asker.send("NAMES 100")
        let hundred = try asker.readUntil(prefix: "OK NAMES ")
        #expect(hundred.line == "OK NAMES count=100 more=yes" && hundred.skipped.count == 100)
        try asker.send("NAMES prefix=u1234")
        let prefixed = try asker.readUntil(prefix: "OK NAMES ")
        #expect(prefixed.line == "OK NAMES count=10 more=no" && prefixed.skipped.count == 10, "\(prefixed)")
        try asker.ping()
        try attacker.ping()

        // With the default limit (10 a minute, bursts of 20): at most 20 new names, plus one per 6 s taken.
        let limitedDaemon = try Self.daemon(["--max-commands-per-second", "0", "--max-new-names-per-minute", "10", "--durability", "normal"])
        defer { limitedDaemon.kill() }
        let second = try LineClient(port: limitedDaemon.port, label: "attacker 2")
        let started = monotonicNow()
        let result = try RenameFlood.rename30000(second)
        let seconds = monotonicNow() - started
        #expect(result.ok >= 20 && Double(result.ok) <= 20 + seconds / 6 + 1 && result.ok + result.limited == 30_000,
                "\(result) in \(seconds) s")
        let other = try LineClient(port: limitedDaemon.port, label: "asker 2")
        try other.send("NAMES 100")
        let all = try other.readUntil(prefix: "OK NAMES ")
        #expect(all.line == "OK NAMES count=\(result.ok) more=no", "\(all.line)")
        print("renames: 30,000 with no limit in one daemon; with the default limit \(result.ok) taken, \(result.limited) refused in \(String(format: "%.1f", seconds)) s")
    }
}
