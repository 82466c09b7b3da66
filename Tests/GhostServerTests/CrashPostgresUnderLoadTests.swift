import Foundation
import GhostStore
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// PostgreSQL, not ghostd, is SIGKILLed while ghost-bench plays flat out on
/// 1,000 connections against a ghostd whose state it keeps (`--store`,
/// issue #48), then started again. ghostd either rides it out (the turn that
/// met the dead server is refused and put back; the next connects again) or,
/// if PostgreSQL is not back within its wait, stops with exit status 3;
/// either way, after ghostd is killed and started again, every move
/// ghost-bench saw acknowledged is in PostgreSQL.
@Suite("Crash: PostgreSQL SIGKILLed under full load, every acknowledged move stored", .ownThread, storeIndependent, .hangLimit)
struct CrashPostgresUnderLoadTests {
    @Test("ghost-bench play, 1,000 connections, ghostd on PostgreSQL: PostgreSQL killed -9 mid-run and started; then ghostd killed: every acknowledged letter is in PostgreSQL")
    func postgresKilledUnderLoad() async throws {
        try await onOwnThread {
            let server = try PostgresServer()
            defer { server.stop() }
            let url = try server.createDatabase()
            let daemon = try DaemonProcess.start(extraArguments: [
                "--store", url,
                "--max-commands-per-second", "0", "--max-clients", "5000", "--max-clients-per-ip", "0", "--max-games-per-network", "0",
                "--idle-timeout", "0", "--name-timeout", "0",
                "--max-unnamed", "0", "--max-unnamed-per-ip", "0", "--connects-per-second-per-ip", "0",
            ])
            defer { daemon.kill() }
            let record = daemon.dataPath + "/acknowledged.txt"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try CrashUnderLoadTests.benchPath())
            process.arguments = ["play", "--port", String(daemon.port), "--connections", String(CrashUnderLoadTests.connections),
                                 "--seconds", "600", "--warmup", "0", "--record", record]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            defer { if process.isRunning { process.terminate() } }

            func movesStored(after floor: Int) throws -> Int {
                let watcher = try LineClient(port: daemon.port, label: "stats", timeout: 30)
                let deadline = monotonicNow() + 120
                var stored = 0
                while stored < floor && monotonicNow() < deadline && process.isRunning && daemon.isRunning {
                    usleep(100_000)
                    stored = Int(try CrashUnderLoadTests.stats(watcher)["moves"] ?? "") ?? 0
                }
                return stored
            }
            let before = try movesStored(after: 2000)
            #expect(before >= 2000, "only \(before) moves stored in 120 s")

            try server.kill9()
            try server.start()
            // ghostd rode it out and plays on, or stopped (exit status 3) if PostgreSQL took too long.
            var after = 0
            if daemon.isRunning, let more = try? movesStored(after: before + 1000) { after = more }
            let status = daemon.isRunning ? daemon.kill() : (daemon.exitStatus ?? .exited(-1))
            #expect(status == .signaled(SIGKILL) || status == .exited(3), "\(status): \(daemon.stderrText.suffix(2000))")
            print("PostgreSQL killed under load: \(before) moves stored before, \(after) after it came back; ghostd \(status)")
            let benchStatus = process.waitForExit()
            let benchText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(benchStatus == 0, "ghost-bench: \(benchText)")

            let again = try daemon.relaunch()
            _ = again.terminate()
            let store = try Store(postgres: url, directory: daemon.dataPath)
            defer { store.close() }
            let (recorded, missing) = try CrashUnderLoadTests.notStored(record: record, store: store)
            #expect(recorded >= 1000, "only \(recorded) acknowledged moves recorded: \(benchText)")
            #expect(missing.isEmpty, "\(missing.count) of \(recorded) acknowledged moves are not in PostgreSQL, e.g. \(missing.prefix(5))")
        }
    }
}
