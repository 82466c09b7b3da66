import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// The PostgreSQL the tests start themselves (issue #48's first step):
/// TestSupport's `PostgresServer` in a temporary folder, as the postgres user
/// when the tests run as root. Each test waits on its own thread, as every
/// call blocks. Those that restart or kill a server start their own: the
/// shared one serves other suites running at the same time. The suite runs
/// on a thread of its own from the start (`.serialOnOwnThread`): waiting for
/// the pool's threads, each of its tests behind the queue of all the others,
/// it ended the pass alone for its last 20 s.
@Suite(.ownThread, storeIndependent, .serialized, .serialOnOwnThread, .hangLimit)
struct PostgresServerTests {
    @Test func sharedServerKeepsDatabasesApart() async throws {
        try await onOwnThread {
            let started = monotonicNow()
            let server = try PostgresServer.shared()
            print("PostgresServer.shared(): \(String(format: "%.2f", monotonicNow() - started)) s (initdb and start at first use)")
            #expect(try PostgresServer.shared() === server)
            #expect(server.superuser == "ghost")
            #expect(server.port > 0)

            let urlA = try server.createDatabase()
            let urlB = try server.createDatabase("second_\(getpid())")
            #expect(urlB == "postgresql://ghost@127.0.0.1:\(server.port)/second_\(getpid())")
            #expect(urlA.hasPrefix("postgresql://ghost@127.0.0.1:\(server.port)/"))
            let a = String(urlA.split(separator: "/").last!)
            let b = "second_\(getpid())"
            #expect(a != b)

            #expect(try server.psql("select 1", database: a) == "1")
            #expect(try server.psql("select 1", database: b) == "1")
            try server.psql("create table words (word text primary key); insert into words values ('ghost'), ('ghoul');", database: a)
            #expect(try server.psql("select word from words order by word", database: a) == "ghost\nghoul")
            #expect(try server.psql("select count(*) from pg_tables where tablename = 'words'", database: b) == "0")
            #expect(throws: PostgresServerError.self) { try server.psql("select * from words", database: b) }

            // Both URLs are ones libpq accepts (psql's -d takes a URL).
            #expect(try server.psql("select current_database()", database: urlA) == a)
            #expect(try server.psql("select current_database()", database: server.socketURL(database: b)) == b)
            #expect(server.socketURL(database: b) == "postgresql://ghost@/\(b)?host=\(server.socketDirectory)&port=\(server.port)")
            // Its settings: commits wait for the WAL's write (fsync off: no test crashes the machine).
            #expect(try server.psql("show fsync; show synchronous_commit; show max_connections; show listen_addresses; show server_encoding", database: a)
                    == "off\non\n200\n127.0.0.1\nUTF8")
        }
    }

    @Test func restartKeepsTheData() async throws {
        try await onOwnThread {
            // Its own server: the shared one serves other suites running at the same time.
            let server = try PostgresServer()
            defer { server.stop() }
            let url = try server.createDatabase()
            let db = String(url.split(separator: "/").last!)
            try server.psql("create table t (n int); insert into t select generate_series(1, 100);", database: db)
            let port = server.port
            let before = server.postmasterPID()
            let started = monotonicNow()
            try server.restart()
            print("PostgresServer.restart(): \(String(format: "%.2f", monotonicNow() - started)) s")
            #expect(server.port == port)
            #expect(server.postmasterPID() != before)
            #expect(try server.psql("select count(*), sum(n) from t", database: db) == "100|5050")
        }
    }

    @Test func kill9ThenStartKeepsCommittedRows() async throws {
        try await onOwnThread {
            // Its own server: the shared one serves other suites running at the same time.
            let server = try PostgresServer()
            defer { server.stop() }
            let url = try server.createDatabase()
            let db = String(url.split(separator: "/").last!)
            try server.psql("create table t (n int); insert into t values (1), (2), (3);", database: db)
            try server.psql("begin; insert into t values (4); commit;", database: db)
            let pid = try #require(server.postmasterPID())
            try server.kill9()
            #expect(kill(pid, 0) != 0 || Process.isDead(pid))
            #expect(throws: PostgresServerError.self) { try server.psql("select 1", database: db) }
            let started = monotonicNow()
            try server.start()
            print("PostgresServer.start() after kill -9 (crash recovery): \(String(format: "%.2f", monotonicNow() - started)) s")
            #expect(try server.psql("select string_agg(n::text, ',' order by n) from t", database: db) == "1,2,3,4")
            #expect(server.tail().contains("not properly shut down"))
        }
    }

    @Test func aSecondServerRunsBesideTheSharedOne() async throws {
        try await onOwnThread {
            let shared = try PostgresServer.shared()
            let started = monotonicNow()
            let other = try PostgresServer()
            print("PostgresServer(): \(String(format: "%.2f", monotonicNow() - started)) s (initdb and start)")
            #expect(other.port != shared.port)
            #expect(other.folder != shared.folder)
            let db = String(try other.createDatabase().split(separator: "/").last!)
            try other.psql("create table only_here (n int)", database: db)
            #expect(try other.psql("select count(*) from pg_tables where tablename = 'only_here'", database: db) == "1")
            #expect(try shared.psql("select count(*) from pg_database where datname = '\(db)'", database: "postgres") == "0")
            #expect(try shared.psql("select 1", database: "postgres") == "1")

            // stop() leaves nothing: no postmaster, no folder.
            let pid = try #require(other.postmasterPID())
            other.stop()
            #expect(kill(pid, 0) != 0 || Process.isDead(pid))
            #expect(!FileManager.default.fileExists(atPath: other.folder))
            other.stop()
            #expect(try shared.psql("select 1", database: "postgres") == "1")
        }
    }

    @Test func aTakenPortIsTriedOnceThenAnother() async throws {
        try await onOwnThread {
            let (fd, taken) = try listenOnLoopback()
            defer { close(fd) }
            let server = try PostgresServer(firstPort: taken)
            defer { server.stop() }
            #expect(server.port != taken)
            #expect(try server.psql("select 1", database: "postgres") == "1")
            let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
            #expect(log.contains("already in use"))
        }
    }

    @Test func aFailedCommandNamesItAndTheLog() async throws {
        try await onOwnThread {
            let server = try PostgresServer.shared()
            do {
                try server.psql("select * from no_such_table", database: "postgres")
                Issue.record("psql did not fail")
            } catch let error as PostgresServerError {
                #expect(error.status != 0)
                #expect(error.command.contains("psql"))
                #expect(error.output.contains("no_such_table"))
                #expect(!error.logTail.isEmpty)
                #expect(error.logTail.split(separator: "\n").count <= 20)
            }
        }
    }
}

/// A socket listening on a loopback port the kernel picked, and the port:
/// a port PostgreSQL cannot bind while it is open.
private func listenOnLoopback() throws -> (Int32, Int) {
    try LoopbackPort.bound(listening: true)
}
