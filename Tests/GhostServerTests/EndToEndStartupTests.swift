import Foundation
import Testing
import GhostStore
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// What ghostd checks at start: one daemon per
/// data folder (a lock on `<data>/ghostd.pid`), and a database it can trust.
/// Each refusal is exit status 1 and one line on stderr, before anything is
/// written to the folder's database.
@Suite("EndToEnd: startup checks: one daemon per data folder, a database it can trust", .ownThread, .hangLimit)
struct EndToEndStartupTests {
    /// ghostd's arguments for a run on `data` that is expected to stop at start.
    private static func arguments(data: String) -> [String] {
        ["--port", "0", "--dictionaries", DaemonProcess.dictionariesFolder, "--data", data]
    }

    @Test("A second ghostd on the same data folder exits 1 with one line naming the first one's PID; the first keeps serving")
    func secondDaemonIsRefused() throws {
        let first = try DaemonProcess.start()
        defer { first.kill() }
        let pidfile = first.dataPath + "/ghostd.pid"
        #expect(try String(contentsOfFile: pidfile, encoding: .utf8) == "\(first.pid)\n")
        let client = try LineClient(port: first.port, label: "first")
        try client.ping()

        let second = try DaemonProcess.runToCompletion(Self.arguments(data: first.dataPath))
        #expect(second.status == .exited(1))
        #expect(second.stderr == "ghostd: the data folder \(first.dataPath) is in use by another ghostd (pid \(first.pid)); stop it first\n")
        #expect(second.stdout == "")
        // The first one is untouched: it serves, and the pidfile is still its own.
        try client.ping()
        try client.send("NAME alice")
        try client.expect("OK NAME name=alice lang=en")
        #expect(try String(contentsOfFile: pidfile, encoding: .utf8) == "\(first.pid)\n")
        #expect(first.isRunning)
        #expect(first.terminate() == .exited(0))
    }

    @Test("A pidfile that no process holds (stale, from a daemon that is gone) is taken over silently")
    func stalePidfileIsTakenOver() throws {
        let data = try DataDirectory()
        // A PID that is not running ghostd here, and no lock on the file.
        try "999999\n".write(toFile: data.path + "/ghostd.pid", atomically: false, encoding: .utf8)
        let daemon = try DaemonProcess.start(extraArguments: ["--data", data.path])
        defer { daemon.kill() }
        #expect(try String(contentsOfFile: data.path + "/ghostd.pid", encoding: .utf8) == "\(daemon.pid)\n")
        #expect(!daemon.stderrText.contains("in use"), "\(daemon.stderrText)")
        try LineClient(port: daemon.port, label: "after").ping()
        // Killed, it leaves its pidfile behind, stale: the next one starts too.
        #expect(daemon.kill() == .signaled(SIGKILL))
        let next = try daemon.relaunch(samePort: false)
        defer { next.kill() }
        #expect(try String(contentsOfFile: data.path + "/ghostd.pid", encoding: .utf8) == "\(next.pid)\n")
        try LineClient(port: next.port, label: "next").ping()
        #expect(next.terminate() == .exited(0))
    }

    @Test("A database from a newer ghostd, a damaged one and an empty file: exit status 1, one line each, the file untouched")
    func untrustedDatabasesAreRefused() throws {
        // A database made by this build, with rows.
        func made() throws -> DataDirectory {
            let data = try DataDirectory()
            let store = try Store(directory: data.path)
            for i in 0..<300 { try store.registerName("player\(i)", now: 1_700_000_000 + i) }
            try store.commit()
            store.close()
            return data
        }
        func run(_ data: DataDirectory) throws -> (status: ExitStatus, stderr: String, untouched: Bool) {
            let path = data.path + "/" + Store.fileName
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let run = try DaemonProcess.runToCompletion(Self.arguments(data: data.path))
            return (run.status, run.stderr, try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }

        let newer = try made()
        do {
            let db = try SQLiteDatabase(path: newer.path + "/" + Store.fileName, create: false)
            try db.execute("PRAGMA user_version = 99")
            db.close()
        }
        let refusedNewer = try run(newer)
        #expect(refusedNewer.status == .exited(1))
        #expect(refusedNewer.stderr == "ghostd: the database \(newer.path)/ghostd.sqlite3 has schema 99, written by a newer ghostd; this ghostd knows schemas up to \(Store.schemaVersion): run a newer ghostd on it\n")
        #expect(refusedNewer.untouched)

        let damaged = try made()
        do {
            let path = damaged.path + "/" + Store.fileName
            let db = try SQLiteDatabase(path: path, create: false)
            let page = try db.query("SELECT rootpage FROM sqlite_master WHERE name = 'players'") { $0.int(0) }.first ?? 0
            db.close()
            #expect(page > 1)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for i in (page - 1) * 4096 ..< page * 4096 { bytes[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
            try bytes.write(to: URL(fileURLWithPath: path))
        }
        let refusedDamaged = try run(damaged)
        #expect(refusedDamaged.status == .exited(1))
        #expect(refusedDamaged.stderr.hasPrefix("ghostd: the database \(damaged.path)/ghostd.sqlite3 is damaged ("), "\(refusedDamaged.stderr)")
        #expect(refusedDamaged.stderr.hasSuffix("); restore it from a backup\n"), "\(refusedDamaged.stderr)")
        #expect(refusedDamaged.stderr.filter { $0 == "\n" }.count == 1)
        #expect(refusedDamaged.untouched)

        let empty = try DataDirectory()
        #expect(FileManager.default.createFile(atPath: empty.path + "/" + Store.fileName, contents: Data()))
        let refusedEmpty = try run(empty)
        #expect(refusedEmpty.status == .exited(1))
        #expect(refusedEmpty.stderr == "ghostd: the database \(empty.path)/ghostd.sqlite3 is an empty file: a damaged database, not a new one; restore it from a backup, or remove it to start afresh\n")
        #expect(refusedEmpty.untouched)
    }
}
