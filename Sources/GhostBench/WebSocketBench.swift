import CGhostSys
import Foundation
import WordLists

/// `ghost-bench ws-ping`: the round trip of a `PING` over a WebSocket
/// (the web port's `/ws`) against plain TCP, in the same run: one connection
/// of each, in lock step (one `PING` in flight), in alternating blocks so
/// that the machine's changing load falls on both alike.
enum WebSocketPingBench {
    struct Settings {
        var host = "127.0.0.1"
        var port = 7777
        var webPort = 7780
        /// Counted PINGs over each transport, in all.
        var pings = 20_000
        /// Blocks of each transport, alternating (TCP first in odd blocks, WebSocket in even ones).
        var rounds = 10
        /// ghostd's process id, to read its CPU time from /proc (0: not read).
        var pid = 0
    }

    /// What one transport measured.
    struct Side {
        var rtts: [Double] = []          // microseconds
        var cpuTicks = 0                 // the server's utime + stime over its blocks
        var blockMeans: [Double] = []
        var mean: Double { rtts.isEmpty ? 0 : rtts.reduce(0, +) / Double(rtts.count) }
        func percentile(_ p: Double) -> Double {
            guard !rtts.isEmpty else { return 0 }
            let sorted = rtts.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
        }
    }

    static func run(_ st: Settings, progress: (String) -> Void) throws -> String {
        let tcp = try LineConnection(host: st.host, port: st.port, websocket: false)
        let ws = try LineConnection(host: st.host, port: st.webPort, websocket: true)
        // Warm-up, not counted: the first round trips of a connection are slower (caches, buffers).
        let warmup = max(100, min(2000, st.pings / 10))
        for c in [tcp, ws] { _ = try pings(c, warmup) }
        var sides = [Side(), Side()]   // 0: TCP, 1: WebSocket
        let perBlock = max(1, st.pings / max(1, st.rounds))
        let clockTick = Double(sysconf(Int32(_SC_CLK_TCK)))
        for block in 0..<max(1, st.rounds) {
            let order = block % 2 == 0 ? [0, 1] : [1, 0]
            for k in order {
                let before = st.pid > 0 ? cpuTicks(st.pid) : 0
                let rtts = try pings(k == 0 ? tcp : ws, perBlock)
                if st.pid > 0 { sides[k].cpuTicks += cpuTicks(st.pid) - before }
                sides[k].rtts += rtts
                sides[k].blockMeans.append(rtts.reduce(0, +) / Double(rtts.count))
            }
            progress(String(format: "block %d: mean round trip TCP %.1f µs, WebSocket %.1f µs, ratio %.2f", block + 1,
                            sides[0].blockMeans[block], sides[1].blockMeans[block], sides[1].blockMeans[block] / sides[0].blockMeans[block]))
        }
        var lines = ["PING round trips in lock step, \(perBlock * max(1, st.rounds)) a transport in \(max(1, st.rounds)) alternating blocks of \(perBlock) (\(warmup) each first, not counted), µs:"]
        lines.append("             p50      p99     mean" + (st.pid > 0 ? "   ghostd CPU per PING" : ""))
        for (label, side) in zip(["TCP      ", "WebSocket"], sides) {
            var row = String(format: "%@ %7.1f  %7.1f  %7.1f", label, side.percentile(0.5), side.percentile(0.99), side.mean)
            if st.pid > 0 { row += String(format: "   %.1f µs", Double(side.cpuTicks) / clockTick * 1e6 / Double(side.rtts.count)) }
            lines.append(row)
        }
        let (t, w) = (sides[0], sides[1])
        var ratio = String(format: "WS/TCP    %7.2f  %7.2f  %7.2f", w.percentile(0.5) / t.percentile(0.5),
                           w.percentile(0.99) / t.percentile(0.99), w.mean / t.mean)
        if st.pid > 0, t.cpuTicks > 0 { ratio += String(format: "   %.2f", Double(w.cpuTicks) / Double(t.cpuTicks)) }
        lines.append(ratio)
        let blockRatios = zip(t.blockMeans, w.blockMeans).map { $1 / $0 }
        lines.append("mean's ratio WS/TCP per block: " + blockRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")
                     + String(format: "; median %.2f", AttackBench.median(blockRatios) ?? 0))
        let target = w.mean / t.mean
        lines.append(String(format: "target: WebSocket round trip <= 1.5 x TCP: %@ (mean %.2f, p50 %.2f)",
                            target <= 1.5 ? "met" : "NOT met", target, w.percentile(0.5) / t.percentile(0.5)))
        return lines.joined(separator: "\n")
    }

    /// `count` PINGs in lock step: each round trip, µs.
    static func pings(_ c: LineConnection, _ count: Int) throws -> [Double] {
        var rtts: [Double] = []
        rtts.reserveCapacity(count)
        for _ in 0..<count {
            let t0 = now()
            guard c.send("PING") else { throw BenchError("PING could not be sent (\(c.websocket ? "WebSocket" : "TCP"))") }
            guard let reply = c.line(until: t0 + 10) else { throw BenchError("no reply to PING within 10 s (\(c.websocket ? "WebSocket" : "TCP"))") }
            guard reply.elementsEqual("OK PING".utf8) else {
                throw BenchError("PING answered with \(String(decoding: reply, as: UTF8.self)) (run ghostd with --max-commands-per-second 0)")
            }
            rtts.append((now() - t0) * 1e6)
        }
        return rtts
    }

    /// utime + stime of a process, in clock ticks.
    static func cpuTicks(_ pid: Int) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let paren = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: paren)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}

/// `ghost-bench ws-hold`: the server's memory per connection held, over a
/// WebSocket or plain TCP: N connections opened (each reads `HELLO` and
/// answers one `PING`), then the server's resident memory (`STATS
/// rss_bytes`, read on a connection of its own before and after) against
/// what it was before them.
enum HoldBench {
    struct Settings {
        var host = "127.0.0.1"
        var port = 7777
        var webPort = 7780
        var connections = 10_000
        var websocket = true
        /// Source addresses the connections are spread over (1: 127.0.0.1; more: 127.0.0.10 …).
        var addresses = 1
        /// Seconds to hold them once all are open, before reading the memory.
        var seconds = 2.0
    }

    static func rss(_ c: LineConnection) throws -> Int {
        guard c.send("STATS") else { throw BenchError("STATS could not be sent") }
        var rss = 0
        while let line = c.line(until: now() + 30) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("STAT name=rss_bytes value=") { rss = Int(text.dropFirst("STAT name=rss_bytes value=".count)) ?? 0 }
            if text.hasPrefix("OK STATS") { return rss }
            if text.hasPrefix("ERR") || text.hasPrefix("BYE") { throw BenchError("STATS: \(text)") }
        }
        throw BenchError("STATS: no answer")
    }

    /// The server's memory once it has settled (two readings a second apart within 64 KiB).
    static func settledRSS(_ c: LineConnection) throws -> Int {
        var last = try rss(c)
        for _ in 0..<20 {
            usleep(1_000_000)
            let next = try rss(c)
            if abs(next - last) <= 64 * 1024 { return next }
            last = next
        }
        return last
    }

    static func run(_ st: Settings, progress: (String) -> Void) throws -> String {
        let kind = st.websocket ? "WebSocket" : "TCP"
        let control = try LineConnection(host: st.host, port: st.port, websocket: false, source: "127.0.0.2")
        let before = try settledRSS(control)
        progress(String(format: "ghostd RSS before: %.1f MB; opening %d %@ connections", Double(before) / 1e6, st.connections, kind))
        let t0 = now()
        var held: [LineConnection] = []
        held.reserveCapacity(st.connections)
        for i in 0..<st.connections {
            let source = st.addresses <= 1 ? nil : Sockets.attackerAddress(i, of: st.addresses)
            let c = try LineConnection(host: st.host, port: st.websocket ? st.webPort : st.port, websocket: st.websocket, source: source)
            guard c.send("PING"), let reply = c.line(until: now() + 10), reply.elementsEqual("OK PING".utf8) else {
                throw BenchError("connection \(i + 1): no OK PING")
            }
            held.append(c)
            if (i + 1) % 2000 == 0 { progress("  \(i + 1) open") }
        }
        let opened = now() - t0
        usleep(UInt32(st.seconds * 1e6))
        let after = try settledRSS(control)
        // Every connection still answers.
        var answered = 0
        for c in held where c.send("PING") {
            if let r = c.line(until: now() + 10), r.elementsEqual("OK PING".utf8) { answered += 1 }
        }
        let perConnection = Double(after - before) / Double(st.connections)
        return String(format: "ws-hold %@: %d connections opened in %.1f s, %d of them answered PING again; ghostd RSS %.1f MB before, %.1f MB held: %.0f bytes a connection",
                      kind, st.connections, opened, answered, Double(before) / 1e6, Double(after) / 1e6, perConnection)
    }
}
