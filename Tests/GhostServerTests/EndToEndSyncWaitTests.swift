import Foundation
import Testing
import GhostProtocol
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// With `--durability full` every reply waited for the
/// newest sync, a PING too (240 connections flooding cheap writes: probe p99
/// 50–98 ms). Now a reply that shows nothing a commit changed (PING, HELP,
/// STATS, an `ERR`, a HELLO) goes out at once unless earlier replies on its
/// connection still wait; every other reply still waits for its sync.
///
/// The syncs are held by the test, not by a slow disk: ghostd started with
/// `GHOSTD_TEST_SYNC_GATE=<file>` takes a shared lock on that file before
/// each sync, and the test holds an exclusive one (ghost_syncer.c). Nothing
/// is timed: each step waits for lines; the timeouts only bound a failure
/// (the suite's generously: on 2 cores running three test runs at once, the
/// STATS that wait for the letter's commit took it past 2 minutes).
@Suite("EndToEnd: replies that show nothing do not wait for a sync", .ownThread, .hangLimit)
struct EndToEndSyncWaitTests {
    /// The gate: a file the test locks exclusively while syncs must wait.
    final class Gate {
        let path: String
        let fd: Int32
        init() throws {
            path = NSTemporaryDirectory() + "ghostd-sync-gate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if fd < 0 { throw POSIXError(.EIO) }
        }
        func hold() { _ = flock(fd, LOCK_EX) }
        func release() { _ = flock(fd, LOCK_UN) }
        deinit {
            release()
            close(fd)
            unlink(path)
        }
    }

    @Test("Syncs held: a letter's OK LETTER waits; meanwhile another client's PING, HELP, STATS, an unknown command's ERR and a new client's HELLO come at once; its GAMES waits, and a PING after it waits behind it; released: all arrive, in order", sqliteFilesOnly)
    func quietRepliesDoNotWait() throws {
        let gate = try Gate()
        let d = try DaemonProcess.start(environment: ["GHOSTD_TEST_SYNC_GATE": gate.path])
        defer {
            gate.release()
            d.kill()
        }
        let alice = try LineClient(port: d.port, label: "alice")
        let nameA = E2E.name("syncA")
        try alice.login(nameA)
        try alice.send("NEW bot=easy")
        try alice.readUntil(prefix: "TURN ")
        let bob = try LineClient(port: d.port, label: "bob")
        try bob.login(E2E.name("syncB"))
        let movesBefore = Int(try statFields(after: { try bob.send("STATS") }, readLine: { try bob.readLine() })["moves"] ?? "") ?? -1

        gate.hold()
        // A write whose sync is held: its acknowledgement must wait.
        try alice.send("p")
        // Served and committed (STATS counts it), yet not acknowledged: had
        // it been released, it would have been written before this STATS reply.
        var moves = movesBefore
        for _ in 0..<200 where moves == movesBefore {
            moves = Int(try statFields(after: { try bob.send("STATS") }, readLine: { try bob.readLine() })["moves"] ?? "") ?? -1
        }
        #expect(moves == movesBefore + 1, "moves \(movesBefore) → \(moves)")
        #expect(alice.readAvailable().isEmpty, "alice's reply was sent before its sync")

        // Replies that show nothing: at once, the sync still held.
        try bob.ping()
        try bob.send("FROB")
        try bob.expectError("unknown-command")
        try bob.send("HELP")
        try bob.readUntil(prefix: "OK HELP")
        let carol = try LineClient(port: d.port, label: "carol")   // reads its HELLO
        try carol.ping()

        // A reply that may show the held change waits, and what follows it on its connection too.
        try bob.send("GAMES")
        try bob.send("PING")
        try carol.ping()
        #expect(alice.readAvailable().isEmpty, "alice's reply was sent before its sync")

        gate.release()
        let ok = try alice.readUntil(prefix: "OK LETTER ")
        #expect(ok.line.contains("letter=p"), "\(ok)")
        let games = try bob.readUntil(prefix: "OK GAMES")
        #expect(games.skipped.allSatisfy { $0.hasPrefix("LIVE ") }, "\(games)")
        try bob.expect("OK PING")
        #expect(d.isRunning)
    }
}
