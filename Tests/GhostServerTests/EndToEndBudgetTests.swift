import Foundation
import Testing
import GhostProtocol
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The cost-weighted budget, the limits by network and the output cap that
/// counts the kernel's buffers (Protocol.md §7 "Limits"), against real
/// daemons. Several networks come from one host: Linux lets a client
/// connect from any address of 127.0.0.0/8. Nothing here asserts a time.
@Suite("EndToEnd: budgets, limits by network, kernel-aware output cap", .ownThread, .hangLimit)
struct EndToEndBudgetTests {
    static func stats(_ c: LineClient) throws -> [String: String] {
        try c.send("STATS")
        let (lines, _) = try c.readUntil(prefix: "OK STATS ")
        var out: [String: String] = [:]
        for line in lines { out[EndToEndHangmanTests.field("name", line)] = EndToEndHangmanTests.field("value", line) }
        return out
    }

    static let floodLine = "BYE flood over 50 command units a second for 1 s; slow down"

    @Test("Blank lines flat out: slowed (input_throttled counts), then `BYE flood …` and EOF; closed_flood counts it; others are served")
    func blankLineFlood() throws {
        let d = try DaemonProcess.start(extraArguments: ["--flood-seconds", "1"])
        defer { d.kill() }
        let other = try LineClient(port: d.port, label: "other", source: "127.0.0.3")
        let flooder = try LineClient(port: d.port, label: "flooder", source: "127.0.0.2")
        let chunk = String(repeating: "\n", count: 4095)
        var got: [String] = []
        let start = monotonicNow()
        while !flooder.sawEOF && monotonicNow() - start < 30 {
            flooder.trySend(chunk)
            got += flooder.readAvailable()
            usleep(1000)
        }
        got += flooder.takeBufferedLines()
        #expect(flooder.sawEOF, "a connection sending blank lines flat out was not closed within 30 s")
        #expect(got == [Self.floodLine], "the flooder got \(got)")
        #expect(d.closeReason(localPort: flooder.localPort, from: "127.0.0.2") == "flood (over 50 command units a second for 1 s; slow down)")
        let after = try Self.stats(other)
        #expect(after["closed_flood"] == "1", "\(after)")
        #expect(Int(after["input_throttled"] ?? "") ?? 0 >= 1, "\(after)")
        try other.ping()
    }

    @Test("An endless line costs by its bytes: after its one `ERR line-too-long` the stream is slowed, then `BYE flood …`")
    func endlessLine() throws {
        let d = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "5", "--command-burst", "10", "--flood-seconds", "1"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "endless", source: "127.0.0.2")
        let chunk = String(repeating: "x", count: 16 * 1024)
        var got: [String] = []
        let start = monotonicNow()
        while !c.sawEOF && monotonicNow() - start < 20 {
            _ = c.trySendRaw(Array(chunk.utf8))
            got += c.readAvailable()
            usleep(1000)
        }
        got += c.takeBufferedLines()
        #expect(c.sawEOF, "a connection streaming one endless line was not closed within 20 s")
        #expect(got == [HostileTests.lineTooLong, "BYE flood over 5 command units a second for 1 s; slow down"], "\(got)")
        let other = try LineClient(port: d.port, label: "other", source: "127.0.0.3")
        try other.ping()
    }

    @Test("Two connections of one network share its budget: 20 PINGs between them, none more; another network is served meanwhile")
    func networkBudgetShared() throws {
        // A generous budget per connection, a small one per network (20 at
        // once, then one every 10 s): the network's is the one that bites.
        let d = try DaemonProcess.start(extraArguments: [
            "--max-commands-per-second", "1000", "--command-burst", "1000",
            "--max-commands-per-second-per-ip", "0.1", "--command-burst-per-ip", "20",
            // Each PING costs exactly 1, however long a loaded machine takes over it.
            "--cost-unit-us", "1000000",
        ])
        defer { d.kill() }
        // 127.0.0.2's budget is full (20) until its first command, which comes
        // after this: a 21st reply cannot come before `start` + 10 s, however
        // fast or slow the machine.
        let start = monotonicNow()
        let a = try LineClient(port: d.port, label: "a", source: "127.0.0.2")
        let b = try LineClient(port: d.port, label: "b", source: "127.0.0.2")
        let c = try LineClient(port: d.port, label: "c", source: "127.0.0.3")
        let pings = Array(String(repeating: "PING\n", count: 15).utf8)
        try a.sendRaw(pings)
        try b.sendRaw(pings)
        // Another network is served at once, however many lines a and b have waiting.
        try c.ping()
        try c.ping()
        var answered = 0
        let deadline = monotonicNow() + 5   // bounds a failure only: the 20 are due at once
        while answered < 20 && monotonicNow() < deadline {
            for x in [a, b] {
                let lines = x.readAvailable()
                #expect(lines.allSatisfy { $0 == "OK PING" }, "\(lines)")
                answered += lines.count
            }
            usleep(10_000)
        }
        // A 21st reply before `start` + 10 s would be one too many.
        let counted = monotonicNow() - start
        #expect(answered == 20 || (answered > 20 && counted >= 10),
                "two connections of a network with a burst of 20 got \(answered) replies in \(counted) s")
        // The rest wait (10 s each), and nobody is dropped for its network's
        // budget: nothing more while a refill cannot have come (0.3 s more,
        // never past `start` + 10 s).
        for (x, window) in [(a, 0.3), (b, 0.05)] {
            let quiet = min(window, start + 9.9 - monotonicNow())
            if quiet > 0 { try x.expectNothing(within: quiet) }
        }
        let figures = try Self.stats(c)
        #expect(Int(figures["input_paused"] ?? "") ?? 0 >= 1, "\(figures)")
        #expect(figures["closed_flood"] == "0" && figures["input_throttled"] == "0", "\(figures)")
        #expect(Int(figures["input_waiting"] ?? "") ?? 0 >= 1, "\(figures)")
        try c.ping()
    }

    @Test("A player typing a letter a second (and a PING between) is never slowed: input_throttled stays 0")
    func letterASecond() throws {
        // (--cost-unit-us 1000000: each command costs its fixed cost, however long a loaded machine takes over it.)
        let d = try DaemonProcess.start(extraArguments: ["--flood-seconds", "1", "--cost-unit-us", "1000000"])
        defer { d.kill() }
        var game = try Game.privateGame(host: try E2E.player(d, "typist"), guest: try E2E.player(d, "other"))
        try game.play("p")
        for _ in 0..<3 {
            try game.players[game.toMove].client.ping()
            try game.players[1 - game.toMove].client.ping()
            usleep(300_000)
        }
        try game.play("e")
        try LimitsTests.finishPear(&game, from: 2)
        let figures = try Self.stats(game.players[0].client)
        #expect(figures["input_throttled"] == "0" && figures["input_paused"] == "0" && figures["closed_flood"] == "0", "\(figures)")
    }

    // MARK: Connections by network

    @Test("--max-clients-per-ip 2 counts 127.0.0.2 and 127.0.0.3 apart; --max-unnamed-per-ip 2 frees a slot when one says NAME")
    func limitsByNetwork() throws {
        let d = try DaemonProcess.start(extraArguments: ["--max-clients-per-ip", "3", "--max-unnamed-per-ip", "2"])
        defer { d.kill() }
        let a1 = try LineClient(port: d.port, label: "a1", source: "127.0.0.2")
        let a2 = try LineClient(port: d.port, label: "a2", source: "127.0.0.2")
        let refusedUnnamed = try LineClient(port: d.port, label: "a3", readHello: false, source: "127.0.0.2")
        try refusedUnnamed.expect("BYE full too many connections from 127.0.0.2 without NAME or RESUME (at most 2)")
        try refusedUnnamed.expectClosed()
        // Another network is not counted with it.
        let b1 = try LineClient(port: d.port, label: "b1", source: "127.0.0.3")
        try b1.ping()
        // A NAME frees an unnamed slot; the per-network count (3) still holds.
        try a1.login(E2E.name("named"))
        let a3 = try LineClient(port: d.port, label: "a3 again", source: "127.0.0.2")
        try a3.ping()
        let refusedCount = try LineClient(port: d.port, label: "a4", readHello: false, source: "127.0.0.2")
        try refusedCount.expect("BYE full too many connections from 127.0.0.2 (at most 3)")
        try refusedCount.expectClosed()
        try a2.ping()
        let b2 = try LineClient(port: d.port, label: "b2", source: "127.0.0.3")
        try b2.ping()
        #expect(d.isRunning)
    }

    @Test("--max-unnamed 2: the whole server's unnamed connections, from any network")
    func maxUnnamed() throws {
        let d = try DaemonProcess.start(extraArguments: ["--max-unnamed", "2"])
        defer { d.kill() }
        let a = try LineClient(port: d.port, label: "a", source: "127.0.0.2")
        let b = try LineClient(port: d.port, label: "b", source: "127.0.0.3")
        let c = try LineClient(port: d.port, label: "c", readHello: false, source: "127.0.0.4")
        try c.expect("BYE full too many connections without NAME or RESUME (at most 2); try again later")
        try c.expectClosed()
        try a.login(E2E.name("first"))
        let again = try LineClient(port: d.port, label: "c again", source: "127.0.0.4")
        try again.ping()
        try b.ping()
    }

    @Test("At --max-unnamed, a newcomer from a network holding fewer is let in: the network holding the most loses one (BYE full); that network's own newcomer is refused (issue #43)")
    func newcomerAtTheCap() throws {
        let d = try DaemonProcess.start(extraArguments: ["--max-unnamed", "4"])
        defer { d.kill() }
        let silent = try (0..<4).map { try LineClient(port: d.port, label: "silent\($0)", source: "127.0.0.2") }
        let newcomer = try LineClient(port: d.port, label: "newcomer", source: "127.0.0.3")   // its HELLO read: let in
        try newcomer.ping()
        // The one closed to let it in had its BYE written before the newcomer's HELLO.
        let bye = "BYE full the server has its most connections without NAME or RESUME, and 127.0.0.2 holds the most of them; send NAME or RESUME sooner"
        let evicted = silent.filter { $0.nextLine(timeout: 0.5) == bye }
        #expect(evicted.count == 1, "\(silent.map { $0.takeBufferedLines() })")
        if let gone = evicted.first { try gone.expectClosed() }
        // At the cap again (3 from 127.0.0.2, the newcomer): that network's own newcomer is refused.
        let more = try LineClient(port: d.port, label: "more", readHello: false, source: "127.0.0.2")
        try more.expect("BYE full too many connections without NAME or RESUME (at most 4); try again later")
        try newcomer.login(E2E.name("newcomer"))
        let other = try LineClient(port: d.port, label: "other", source: "127.0.0.4")
        try other.ping()
        let after = try Self.stats(other)
        #expect(after["closed_full"] == "2", "\(after)")   // one closed for the newcomer, one refused
    }

    @Test("--connects-per-second-per-ip 0.01 --connect-burst-per-ip 3: the 4th connection from 127.0.0.5 gets `BYE full …`; 127.0.0.6 is served")
    func connectRate() throws {
        let d = try DaemonProcess.start(extraArguments: ["--connects-per-second-per-ip", "0.01", "--connect-burst-per-ip", "3"])
        defer { d.kill() }
        for i in 0..<3 {
            let c = try LineClient(port: d.port, label: "c\(i)", source: "127.0.0.5")
            c.close()
        }
        let over = try LineClient(port: d.port, label: "over", readHello: false, source: "127.0.0.5")
        try over.expect("BYE full too many new connections from 127.0.0.5 (at most 0.01 a second); try again later")
        try over.expectClosed()
        let elsewhere = try LineClient(port: d.port, label: "elsewhere", source: "127.0.0.6")
        try elsewhere.ping()
        let figures = try Self.stats(elsewhere)
        #expect(figures["closed_full"] == "1", "\(figures)")
    }

    // MARK: Output in the kernel

    /// The bytes the kernel holds unacknowledged in the send queue of the
    /// TCP socket from local port `local` to remote port `remote`
    /// (/proc/net/tcp's tx_queue, what SIOCOUTQ says); nil once it is gone.
    static func sendQueue(local: Int, remote: Int) -> Int? {
        guard let text = readProcFile("/proc/net/tcp") else { return nil }
        let suffix = (String(local, radix: 16, uppercase: true), String(remote, radix: 16, uppercase: true))
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ")
            guard f.count > 4, f[1].hasSuffix(":" + String(repeating: "0", count: 4 - suffix.0.count) + suffix.0),
                  f[2].hasSuffix(":" + String(repeating: "0", count: 4 - suffix.1.count) + suffix.1),
                  f[3] == "01" else { continue }   // ESTABLISHED
            return f[4].split(separator: ":").first.flatMap { Int($0, radix: 16) }
        }
        return nil
    }

    @Test("A reader that stops reading is dropped (output-overflow) once ghostd and the kernel hold 256 KiB for it: its send queue never nears the kernel's 4 MB")
    func stalledReaderCountsKernel() throws {
        let d = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "0"])
        defer { d.kill() }
        let c = try LineClient(port: d.port, label: "stalls")
        // First it reads everything, fast, so that the kernel grows the
        // socket's buffers (autotuning: up to 4 MB on the sending side) ...
        let warm = monotonicNow()
        // In batches of 16 HELPs (some 100 KB of replies), each read whole
        // before the next is sent, so that a slow (loaded) reader is never
        // the one that stops reading.
        let batch = Array(repeating: "HELP", count: 16).joined(separator: "\n")
        while monotonicNow() - warm < 1.5 {
            #expect(c.trySend(batch))
            var done = 0
            while done < 16, let line = c.nextLine(timeout: LineClient.defaultTimeout) {
                if line == "OK HELP" { done += 1 }
            }
            #expect(done == 16)
        }
        // ... then it stops reading, and goes on asking.
        var worst = 0
        let start = monotonicNow()
        while monotonicNow() - start < 20 {
            // A batch's replies at a time: ghostd's own queue passes the cap
            // even where the kernel's buffers did not grow (a loaded machine).
            c.trySend(batch)
            // Until ghostd closes its end (no longer ESTABLISHED).
            guard let q = Self.sendQueue(local: d.port, remote: c.localPort) else { break }
            worst = max(worst, q)
            usleep(2_000)
        }
        #expect(d.closeReason(localPort: c.localPort, timeout: 10) == "output-overflow (more than 262144 bytes of replies unread)")
        #expect(worst < 512 * 1024, "the kernel held \(worst) bytes of replies for a client that did not read")
        let check = try LineClient(port: d.port, label: "check")
        let figures = try Self.stats(check)
        #expect(figures["closed_output_overflow"] == "1", "\(figures)")
        print("stalled reader: dropped with at most \(worst) bytes in the kernel's send queue")
    }
}
