import Foundation
import Testing
@testable import GhostStore
import TestSupport

/// The cluster's lease (issue #49, ClusterLease.swift) against a real
/// PostgreSQL: one holder at a time, a lapsed lease taken with the next
/// epoch, a restarted node's own lease taken back at once, and the fence:
/// a store whose node lost the lease commits nothing, and a takeover waits
/// for the transaction the old holder had open, so the new holder reads it.
@Suite(.ownThread, storeIndependent, .hangLimit)
struct ClusterLeaseTests {
    private func database() throws -> String {
        try PostgresServer.shared().createDatabase()
    }

    private func lease(_ url: String, _ node: String, folder: String? = nil, seconds: Double = 60) throws -> ClusterLease {
        try ClusterLease(conninfo: url, node: node, folder: folder ?? node + "-folder", address: node + ":7777", seconds: seconds)
    }

    /// Tries `take` until it succeeds (the holder's lease lapsing is the event
    /// waited for), at most `timeout` seconds.
    private func takeOnceLapsed(_ lease: ClusterLease, timeout: Double = 30) throws -> Int? {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if let epoch = try lease.take() { return epoch }
            usleep(10_000)
        }
        return nil
    }

    @Test("One holder: the first node takes epoch 1, a second is refused and told who holds it, the first renews")
    func oneHolder() async throws {
        try await onOwnThread {
            let url = try database()
            let a = try lease(url, "node-a"), b = try lease(url, "node-b")
            #expect(try b.holder() == nil)
            #expect(try a.take() == 1)
            #expect(try b.take() == nil)
            let holder = try #require(try b.holder())
            #expect(holder.node == "node-a" && holder.address == "node-a:7777" && holder.epoch == 1)
            #expect(holder.remaining > 50 && holder.remaining <= 60)
            #expect(try a.renew())
            #expect(try b.take() == nil)
            #expect(b.epoch == nil && a.epoch == 1)
        }
    }

    @Test("A lapsed lease goes to the next node with the next epoch; the old holder's renewal then fails")
    func lapsedLeaseTakenOver() async throws {
        try await onOwnThread {
            let url = try database()
            let a = try lease(url, "node-a", seconds: 0.05), b = try lease(url, "node-b")
            #expect(try a.take() == 1)
            #expect(try takeOnceLapsed(b) == 2)
            #expect(try a.renew() == false)
            #expect(try a.holder()?.node == "node-b")
            a.release()   // not its lease any more: nothing changes
            #expect(try b.holder()?.remaining ?? 0 > 50)
        }
    }

    @Test("A released lease is free at once; a node restarted on its folder takes its own lease back at once")
    func releaseAndRestart() async throws {
        try await onOwnThread {
            let url = try database()
            let a = try lease(url, "node-a"), b = try lease(url, "node-b")
            #expect(try a.take() == 1)
            a.release()
            #expect(try b.take() == 2)
            // node-b "killed": a new process on the same folder, under another name.
            let b2 = try lease(url, "node-b-again", folder: "node-b-folder")
            #expect(try b2.take() == 3)
            #expect(try b.renew() == false)
        }
    }

    @Test("Nodes starting together make the table once")
    func concurrentSetup() async throws {
        try await onOwnThread {
            let url = try database()
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { i in
                do { _ = try lease(url, "node-\(i)") } catch { failures.withLock { $0.append("\(error)") } }
            }
            #expect(failures.withLock { $0 } == [])
        }
    }

    @Test("Heartbeats: every node records one row (the leader's role leader, a standby's standby) at most once a second; the leader counts those seen within two leases and forgets, a few at a time, those gone for a day; a released lease takes its row with it")
    func heartbeats() async throws {
        try await onOwnThread {
            let url = try database()
            #expect(try ClusterLease.peek(conninfo: url) == nil)   // no table yet: nothing made
            let raw = try PostgresDatabase(url)
            #expect(try raw.query("SELECT to_regclass('ghostd_lease') IS NULL").text(0, 0) == "t")
            let a = try lease(url, "node-a"), b = try lease(url, "node-b")
            #expect(try ClusterLease.peek(conninfo: url) == nil)   // the table, but no holder
            #expect(try a.take() == 1)
            #expect(try b.take() == nil)
            #expect(try ClusterLease.peek(conninfo: url)?.node == "node-a")
            func rows() throws -> [String] {
                let r = try raw.query("SELECT node, role, folder FROM ghostd_nodes ORDER BY node")
                return (0..<r.count).map { "\(r.text($0, 0) ?? "") \(r.text($0, 1) ?? "") \(r.text($0, 2) ?? "")" }
            }
            #expect(try rows() == ["node-a leader node-a-folder", "node-b standby node-b-folder"])
            #expect(try a.liveNodes() == 2 && b.liveNodes() == 2)
            // At most once a second, by the node's own monotonic clock.
            let c = try lease(url, "node-c")
            #expect(try c.heartbeat(at: 1_000))
            #expect(try c.heartbeat(at: 1_000.5) == false)
            #expect(try c.heartbeat(at: 1_001))
            #expect(try a.liveNodes() == 3)
            // Seen more than two leases (120 s) ago: not alive; a day ago: forgotten by the leader, not by a standby.
            try raw.execute("""
                INSERT INTO ghostd_nodes VALUES ('gone-folder', 'node-gone', 'standby', clock_timestamp() - interval '5 minutes'),
                    ('old-1', 'node-old', 'standby', clock_timestamp() - interval '2 days')
                """)
            #expect(try b.liveNodes() == 3)
            #expect(try rows().count == 5)
            #expect(try a.liveNodes() == 3)
            #expect(try rows() == ["node-a leader node-a-folder", "node-b standby node-b-folder", "node-c standby node-c-folder",
                                   "node-gone standby gone-folder"])
            // A node restarted on its folder under another name keeps one row.
            let c2 = try lease(url, "node-c2", folder: "node-c-folder")
            #expect(try c2.heartbeat())
            #expect(try a.liveNodes() == 3)
            #expect(try rows().contains("node-c2 standby node-c-folder"))
            // The leader stopped cleanly: its row goes with its lease.
            a.release()
            #expect(try !rows().contains { $0.hasPrefix("node-a ") } && b.liveNodes() == 2)
        }
    }

    @Test("The fence: a store whose node lost the lease commits nothing and says so; the new holder's store writes")
    func fencedStoreCommitsNothing() async throws {
        try await onOwnThread {
            let url = try database()
            let dir = try DataDirectory()
            let a = try lease(url, "node-a", seconds: 0.05)
            let epoch = try #require(try a.take())
            let store = try Store(postgres: url, directory: dir.path)
            defer { store.close() }
            try store.fence(epoch: epoch, folder: "node-a-folder")
            try store.registerName("ann", now: 1_000)
            try store.commit()

            let b = try lease(url, "node-b")
            let next = try #require(try takeOnceLapsed(b))
            #expect(next == epoch + 1)
            // The first statement that waits for an answer (here the name's
            // read back) fails, with the whole transaction.
            #expect(throws: PostgresDatabase.Failure.self) {
                try store.registerName("ben", now: 1_001)
                try store.commit()
            }
            store.rollback()
            #expect(store.isFenced)

            let dir2 = try DataDirectory()
            let store2 = try Store(postgres: url, directory: dir2.path)
            defer { store2.close() }
            try store2.fence(epoch: next, folder: "node-b-folder")
            try store2.registerName("cat", now: 1_002)
            try store2.commit()
            let raw = try PostgresDatabase(url)
            let names = try raw.query("SELECT name FROM players ORDER BY name")
            #expect((0..<names.count).compactMap { names.text($0, 0) } == ["ann", "cat"])
        }
    }

    @Test("A takeover never waits for the row: while the old holder's transaction is open on it, the lease is not taken; once it commits, it is, and what it committed is read")
    func takeoverAfterTheOpenTransaction() async throws {
        try await onOwnThread {
            let url = try database()
            let a = try lease(url, "node-a", seconds: 0.05)
            let epoch = try #require(try a.take())
            let old = try PostgresDatabase(url)
            try old.execute("CREATE TABLE t (v text)")
            try old.execute("BEGIN")
            try old.execute("SELECT ghostd_fence(\(epoch))")
            try old.execute("INSERT INTO t VALUES ('acknowledged')")

            let b = try lease(url, "node-b")
            // Lapsed, but held for share by an open transaction (not a store session of
            // node-a's folder, so not ended): not taken, at once.
            let watcher = try PostgresDatabase(url)
            while try watcher.query("SELECT expires_at < clock_timestamp() FROM ghostd_lease").text(0, 0) != "t" { usleep(10_000) }
            #expect(try b.take() == nil)
            #expect(try b.take() == nil)
            try old.execute("COMMIT")
            #expect(try b.take() == epoch + 1)
            #expect(try watcher.query("SELECT v FROM t").text(0, 0) == "acknowledged")
            // Its next transaction is fenced.
            try old.execute("BEGIN")
            #expect(throws: PostgresDatabase.Failure.self) { try old.execute("SELECT ghostd_fence(\(epoch))") }
            try old.execute("ROLLBACK")
        }
    }

    @Test("A holder frozen mid-transaction past its lease: the takeover ends its store session (its transaction undone) and takes the lease")
    func frozenHolderSessionEnded() async throws {
        try await onOwnThread {
            let url = try database()
            let a = try lease(url, "node-a", seconds: 0.05)
            let epoch = try #require(try a.take())
            let frozen = try PostgresDatabase(url)
            try frozen.execute("CREATE TABLE t (v text)")
            try frozen.run("SELECT set_config('application_name', $1, false)", [.text(ClusterLease.storeApplicationName(folder: "node-a-folder"))])
            try frozen.execute("BEGIN")
            try frozen.execute("SELECT ghostd_fence(\(epoch))")
            try frozen.execute("INSERT INTO t VALUES ('never acknowledged')")
            // Never committed: the node is frozen.
            let b = try lease(url, "node-b")
            #expect(try takeOnceLapsed(b) == epoch + 1)
            #expect(throws: PostgresDatabase.Failure.self) { try frozen.execute("COMMIT") }
            let watcher = try PostgresDatabase(url)
            #expect(try watcher.query("SELECT count(*) FROM t").int(0, 0) == 0)
        }
    }
}

/// A value behind a lock, for a test's threads.
final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func withLock<R>(_ body: (inout T) -> R) -> R { lock.withLock { body(&value) } }
}
