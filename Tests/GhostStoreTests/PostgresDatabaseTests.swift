import Foundation
import Testing
@testable import GhostStore
import TestSupport

/// The libpq wrapper (Postgres.swift) against a real PostgreSQL the tests
/// start (TestSupport's `PostgresServer`): values both ways, pipeline mode
/// with and without a failure in it, COPY, the failures' kinds, and a
/// password never shown.
@Suite(.ownThread, storeIndependent, .hangLimit)
struct PostgresDatabaseTests {
    /// A fresh database on the shared server, connected.
    private func connect() throws -> (PostgresServer, String, PostgresDatabase) {
        let server = try PostgresServer.shared()
        let url = try server.createDatabase()
        return (server, url, try PostgresDatabase(url))
    }

    @Test("Values of every kind go in as parameters and come back as they were")
    func valuesRoundTrip() async throws {
        try await onOwnThread {
            let (_, _, db) = try connect()
            try db.execute("CREATE EXTENSION IF NOT EXISTS citext; CREATE TABLE t (i bigint, r double precision, s text, n citext)")
            let text = "tab\there, line\nbreak, back\\slash, quote ' \" é 🙂"
            try db.run("INSERT INTO t VALUES ($1, $2, $3, $4)", [.int(-9_223_372_036_854_775_807), .real(0.1 + 0.2), .text(text), .null])
            let rows = try db.query("SELECT i, r, s, n FROM t")
            #expect(rows.count == 1 && rows.columnCount == 4)
            #expect(rows.value(0, 0) == .int(-9_223_372_036_854_775_807))
            #expect(rows.value(0, 1) == .real(0.1 + 0.2))   // the same bits: shortest exact text both ways
            #expect(rows.value(0, 2) == .text(text))
            #expect(rows.value(0, 3) == .null && rows.isNull(0, 3))
            #expect(try db.query("SELECT count(*) FROM t WHERE n IS NULL AND s = $1", [.text(text)]).int(0, 0) == 1)
            // citext: a name matches whatever its case.
            try db.run("UPDATE t SET n = $1", [.text("Ann")])
            #expect(try db.query("SELECT count(*) FROM t WHERE n = $1", [.text("aNN")]).int(0, 0) == 1)
        }
    }

    @Test("A pipeline sends a transaction's statements without waiting, and one sync reads every answer")
    func pipelineCommits() async throws {
        try await onOwnThread {
            let (_, url, db) = try connect()
            try db.execute("CREATE TABLE moves (game bigint, ply bigint, move text, PRIMARY KEY (game, ply))")
            try db.beginPipeline()
            try db.prepare("move", "INSERT INTO moves VALUES ($1, $2, $3)")
            try db.send("BEGIN")
            for ply in 1...200 { try db.send(prepared: "move", [.int(1), .of(ply), .text("a")]) }
            try db.send("SELECT count(*) FROM moves")
            try db.send("COMMIT")
            #expect(db.pendingCount == 204)   // the PREPARE, BEGIN, 200 inserts, the SELECT, COMMIT
            var counted: Int?
            try db.sync { index, rows in if index == 202 { counted = rows.int(0, 0) } }
            #expect(counted == 200)
            #expect(db.pendingCount == 0 && !db.isInTransaction)
            try db.endPipeline()
            // Committed: another connection sees them.
            let other = try PostgresDatabase(url)
            #expect(try other.query("SELECT count(*) FROM moves").int(0, 0) == 200)
        }
    }

    @Test("A failing statement in a pipeline fails its transaction, whole; the connection serves the next batch")
    func pipelineFailure() async throws {
        try await onOwnThread {
            let (_, _, db) = try connect()
            try db.execute("CREATE TABLE moves (game bigint, ply bigint, PRIMARY KEY (game, ply)); INSERT INTO moves VALUES (1, 5)")
            try db.beginPipeline()
            try db.send("BEGIN")
            for ply in 1...10 { try db.send("INSERT INTO moves VALUES ($1, $2)", [.int(1), .of(ply)]) }   // ply 5 is there
            try db.send("COMMIT")
            let failure = #expect(throws: PostgresDatabase.Failure.self) { try db.sync() }
            #expect(failure?.isUniqueViolation == true)
            #expect(failure?.isConnectionLost == false)
            // The transaction is in its failed state until ROLLBACK (COMMIT was skipped).
            try db.send("ROLLBACK")
            try db.sync()
            try db.send("SELECT count(*) FROM moves")
            var count: Int?
            try db.sync { _, rows in count = rows.int(0, 0) }
            #expect(count == 1)   // none of the ten: the turn is one unit
            try db.endPipeline()
        }
    }

    @Test("COPY takes rows with every character that needs escaping")
    func copyEscapes() async throws {
        try await onOwnThread {
            let (_, _, db) = try connect()
            try db.execute("CREATE TABLE t (i bigint, s text)")
            let texts = ["", "\\N", "a\tb", "c\nd", "e\rf", "g\\h", "\\.", "é"]
            try db.copy(into: "t", columns: ["i", "s"]) { emit in
                for (i, s) in texts.enumerated() { try emit([.of(i), .text(s)]) }
                try emit([.int(99), .null])
            }
            let rows = try db.query("SELECT s FROM t ORDER BY i")
            #expect((0..<texts.count).map { rows.text($0, 0) } == texts)
            #expect(rows.isNull(texts.count, 0))
        }
    }

    @Test("A password is never shown: not in the target, not in a connection's failure")
    func passwordsRedacted() async throws {
        #expect(PostgresDatabase.redacted("postgresql://ghost:s3cret@db.example:5432/ghostd") == "postgresql://ghost:***@db.example:5432/ghostd")
        #expect(PostgresDatabase.redacted("host=db password=s3cret user=ghost") == "host=db password=*** user=ghost")
        #expect(PostgresDatabase.redacted("host=db password='s3 \\'cret' user=ghost") == "host=db password=*** user=ghost")
        #expect(PostgresDatabase.redacted("postgresql://ghost@db/ghostd?sslmode=require&password=s3cret&x=1")
                == "postgresql://ghost@db/ghostd?sslmode=require&password=***&x=1")
        #expect(PostgresDatabase.redacted("postgresql://ghost@/ghostd?host=/run/postgresql") == "postgresql://ghost@/ghostd?host=/run/postgresql")
        // A port where nothing listens: the failure names the target, without the password.
        let failure = #expect(throws: PostgresDatabase.Failure.self) {
            try PostgresDatabase("postgresql://ghost:s3cret@127.0.0.1:1/ghostd?connect_timeout=5")
        }
        #expect(failure?.isConnectionLost == true)
        #expect(failure.map { "\($0)".contains("s3cret") } == false)
        #expect(failure.map { "\($0)".contains("127.0.0.1:1") } == true)
    }

    @Test("PostgreSQL restarted under a connection: the next statement fails as a lost connection, and a new one works")
    func lostConnection() async throws {
        try await onOwnThread {
            // Its own server: the shared one serves other suites at the same time.
            let server = try PostgresServer()
            defer { server.stop() }
            let url = try server.createDatabase()
            let db = try PostgresDatabase(url)
            try db.execute("CREATE TABLE t (n bigint)")
            try server.restart()
            let failure = #expect(throws: PostgresDatabase.Failure.self) { try db.run("INSERT INTO t VALUES (1)") }
            #expect(failure?.isConnectionLost == true)
            #expect(!db.isConnected)
            let again = try PostgresDatabase(url)
            try again.run("INSERT INTO t VALUES (1)")
            #expect(try again.query("SELECT count(*) FROM t").int(0, 0) == 1)
        }
    }
}
