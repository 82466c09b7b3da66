import Foundation
import GhostStore
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// ghostd is SIGKILLed while ghost-bench plays flat out on 1,000
/// connections. ghost-bench records every move it saw acknowledged; after a
/// restart on the same --data, every one of them must be in the database
/// (the pipelined commit sends an `OK` only once its commit is
/// synced, so a kill at any moment loses unacknowledged moves only).
@Suite("Crash: SIGKILL under full load, every acknowledged move stored", .ownThread, .hangLimit)
struct CrashUnderLoadTests {
    static let connections = 1000

    @Test("ghost-bench play, 1,000 connections: SIGKILL mid-run; every acknowledged letter is in the database after a restart")
    func lettersUnderLoad() throws {
        try killUnderLoad(mode: "play")
    }

    @Test("ghost-bench play-hangman, 1,000 connections: SIGKILL mid-run; every acknowledged guess is in the database after a restart")
    func guessesUnderLoad() throws {
        try killUnderLoad(mode: "play-hangman")
    }

    @Test("--io-threads 2, ghost-bench play, 1,000 connections: SIGKILL mid-run; every acknowledged letter is in the database after a restart")
    func lettersUnderLoadWithIOThreads() throws {
        try killUnderLoad(mode: "play", extra: ["--io-threads", "2"])
    }

    @Test("--io-threads 2, ghost-bench play-hangman, 1,000 connections: SIGKILL mid-run; every acknowledged guess is in the database after a restart")
    func guessesUnderLoadWithIOThreads() throws {
        try killUnderLoad(mode: "play-hangman", extra: ["--io-threads", "2"])
    }

    func killUnderLoad(mode: String, extra: [String] = []) throws {
        let daemon = try DaemonProcess.start(extraArguments: extra + [
            "--max-commands-per-second", "0", "--max-clients", "5000", "--max-clients-per-ip", "0", "--max-games-per-network", "0",
            "--idle-timeout", "0", "--name-timeout", "0",
            // 1,000 connections at once from 127.0.0.1: no limits by network.
            "--max-unnamed", "0", "--max-unnamed-per-ip", "0", "--connects-per-second-per-ip", "0",
        ])
        let record = daemon.dataPath + "/acknowledged.txt"
        let bench = try Self.benchPath()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench)
        // The bench plays until the kill below (it stops when every
        // connection is gone); its --seconds only bound a failure.
        process.arguments = [mode, "--port", String(daemon.port), "--connections", String(Self.connections),
                             "--seconds", "600", "--warmup", "0", "--record", record]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Kill once the moves are flowing: a few thousand stored, however long
        // that takes (the deadline only bounds a failure, well within the
        // test's time limit; a few seconds on a 2-core machine).
        let watcher = try LineClient(port: daemon.port, label: "stats", timeout: 30)
        let deadline = monotonicNow() + 180
        var stored = 0
        var threaded = 0
        while stored < 3000 && monotonicNow() < deadline && process.isRunning {
            usleep(100_000)
            let stats = try Self.stats(watcher)
            stored = Int(stats["moves"] ?? "") ?? 0
            threaded = Int(stats["io_jobs_threaded"] ?? "") ?? 0
        }
        #expect(stored >= 3000, "only \(stored) moves stored in 180 s")
        // With I/O threads, they did part of the reading and writing.
        #expect(extra.isEmpty || threaded > 0, "no I/O thread but the loop read or wrote a connection")
        let status = daemon.kill()
        #expect(status == .signaled(SIGKILL))
        let benchStatus = process.waitForExit()
        let benchText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(benchStatus == 0, "ghost-bench: \(benchText)")

        // The restart recovers the database, as a real one would.
        let again = try daemon.relaunch()
        _ = again.terminate()

        let store = try openTestStore(daemon.dataPath)
        defer { store.close() }
        let (recorded, missing) = try Self.notStored(record: record, store: store)
        #expect(recorded >= 1000, "only \(recorded) acknowledged moves recorded: \(benchText)")
        #expect(missing.isEmpty, "\(missing.count) of \(recorded) acknowledged moves are not in the database, e.g. \(missing.prefix(5))")
    }

    /// The moves ghost-bench recorded as acknowledged (`--record`: "game ply
    /// letter" a line) that `store` does not hold: how many were recorded,
    /// and those missing.
    static func notStored(record: String, store: Store) throws -> (recorded: Int, missing: [String]) {
        let lines = (try String(contentsOfFile: record, encoding: .utf8)).split(separator: "\n")
        var missing: [String] = []
        var rounds: [Int: [StoredMove]] = [:]
        for line in lines {
            let f = line.split(separator: " ")
            guard f.count == 3, let game = Int(f[0]), let ply = Int(f[1]), ply >= 1 else {
                missing.append("unreadable: \(line)")
                continue
            }
            if rounds[game] == nil { rounds[game] = try store.moves(game: game, round: 1) }
            let moves = rounds[game] ?? []
            if ply > moves.count || moves[ply - 1].move != String(f[2]) { missing.append(String(line)) }
        }
        return (lines.count, missing)
    }

    /// STATS → name → value; a loaded daemon may take its time over the answer.
    static func stats(_ c: LineClient) throws -> [String: String] {
        try c.send("STATS", timeout: 30)
        let (lines, _) = try c.readUntil(prefix: "OK STATS ", timeout: 30)
        var out: [String: String] = [:]
        for line in lines { out[EndToEndHangmanTests.field("name", line)] = EndToEndHangmanTests.field("value", line) }
        return out
    }

    /// ghost-bench, built next to ghostd.
    static func benchPath() throws -> String {
        let ghostd = try DaemonProcess.binaryPath()
        let bench = URL(fileURLWithPath: ghostd).deletingLastPathComponent().appendingPathComponent("ghost-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else { throw DaemonError("no ghost-bench at \(bench)") }
        return bench
    }
}
