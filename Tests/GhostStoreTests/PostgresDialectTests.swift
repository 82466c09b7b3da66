import Testing
import TestSupport
@testable import GhostStore

/// The store's SQLite statements in PostgreSQL's dialect (PostgresDialect.swift):
/// each rule on its own, exactly, and what it must leave alone.
@Suite(storeIndependent) struct PostgresDialectTests {
    @Test("Parameters are numbered in order; a ? inside a string or a quoted name is not one")
    func parameters() throws {
        #expect(try PostgresDialect.translate("SELECT a FROM t WHERE b = ? AND c = ? LIMIT ?") == "SELECT a FROM t WHERE b = $1 AND c = $2 LIMIT $3")
        #expect(try PostgresDialect.translate("SELECT '?', \"x?\" FROM t WHERE b = ?") == "SELECT '?', \"x?\" FROM t WHERE b = $1")
        #expect(try PostgresDialect.translate("SELECT 'it''s ?' WHERE a = ?") == "SELECT 'it''s ?' WHERE a = $1")
    }

    @Test("INSERT OR IGNORE ends in ON CONFLICT DO NOTHING; INSERT OR REPLACE is refused")
    func conflicts() throws {
        #expect(try PostgresDialect.translate("INSERT OR IGNORE INTO follows(follower, followee, since) VALUES (?, ?, ?)")
                == "INSERT INTO follows(follower, followee, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        #expect(throws: PostgresDialect.Unsupported.self) {
            try PostgresDialect.translate("INSERT OR REPLACE INTO outages(resumed, down) VALUES (?, ?)")
        }
        let upsert = "INSERT INTO players(name) VALUES (?) ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen"
        #expect(try PostgresDialect.translate(upsert) == upsert.replacingOccurrences(of: "?", with: "$1"))
    }

    @Test("INDEXED BY and COLLATE NOCASE go; the text around them stays as it was")
    func dropped() throws {
        #expect(try PostgresDialect.translate("SELECT id FROM games INDEXED BY games_untouched WHERE status = 'active'")
                == "SELECT id FROM games WHERE status = 'active'")
        #expect(try PostgresDialect.translate("SELECT name FROM players ORDER BY name COLLATE NOCASE")
                == "SELECT name FROM players ORDER BY name")
        #expect(try PostgresDialect.translate("WHERE player0 = ? COLLATE NOCASE AND watch = ?") == "WHERE player0 = $1 AND watch = $2")
        // A name that merely contains the words is a name.
        #expect(try PostgresDialect.translate("SELECT indexed_by, 'COLLATE NOCASE' FROM t") == "SELECT indexed_by, 'COLLATE NOCASE' FROM t")
    }

    @Test("max and min of several values are greatest and least; of one, the aggregates")
    func scalarMaxMin() throws {
        #expect(try PostgresDialect.translate("UPDATE games SET last_active = max(last_active, ?) WHERE id = ?")
                == "UPDATE games SET last_active = greatest(last_active, $1) WHERE id = $2")
        #expect(try PostgresDialect.translate("SELECT max(at), min(id) FROM moves WHERE game_id = ?")
                == "SELECT max(at), min(id) FROM moves WHERE game_id = $1")
        #expect(try PostgresDialect.translate("SET a = max(coalesce(a, excluded.a), excluded.a)")
                == "SET a = greatest(coalesce(a, excluded.a), excluded.a)")
        #expect(try PostgresDialect.translate("SELECT min(max(x), ?)") == "SELECT least(max(x), $1)")
    }

    @Test("A parameter that is a CASE's operand takes the type of the first WHEN's literal; others stay bare")
    func caseOperand() throws {
        // GamesStore's token by seat: PostgreSQL refused it (text = integer) untyped.
        #expect(try PostgresDialect.translate("SELECT CASE ? WHEN 0 THEN token0 ELSE token1 END, status FROM games WHERE id = ?")
                == "SELECT CASE $1::bigint WHEN 0 THEN token0 ELSE token1 END, status FROM games WHERE id = $2")
        #expect(try PostgresDialect.translate("SELECT CASE ? WHEN 'a' THEN 1 END") == "SELECT CASE $1::text WHEN 'a' THEN 1 END")
        #expect(try PostgresDialect.translate("SELECT CASE WHEN a = ? THEN ? ELSE b END") == "SELECT CASE WHEN a = $1 THEN $2 ELSE b END")
        #expect(try PostgresDialect.translate("SELECT CASE ? WHEN x THEN 1 END") == "SELECT CASE $1 WHEN x THEN 1 END")
    }

    @Test("PostgreSQL's schema is at SQLite's version: a new migration needs its PostgreSQL step (PostgresSchema.migrations)")
    func versionsInStep() {
        #expect(PostgresSchema.currentVersion == Migrations.all.count)
        #expect(PostgresSchema.currentVersion == Store.schemaVersion)
    }

    @Test("Comments and line breaks pass through")
    func layout() throws {
        #expect(try PostgresDialect.translate("SELECT a -- why ?\nFROM t WHERE b = ?") == "SELECT a -- why ?\nFROM t WHERE b = $1")
    }
}
