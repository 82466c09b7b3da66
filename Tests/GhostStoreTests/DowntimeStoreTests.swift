import Foundation
import Testing
@testable import GhostStore

/// The daemon's outages (schema 15, DowntimeStore.swift): time it was down
/// never counts toward `--abandon-after`.
@Suite("Store: the daemon's running time, its outages left out")
struct DowntimeStoreTests {
    @Test("A new database: no outage at the first start; the cutoff is `seconds` of running before now")
    func firstStart() throws {
        let dir = try TempDir("ghostd-downtime")
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.downtime.aliveAt() == nil)
        #expect(try store.downtime.recordStart(at: 1_000) == 0)
        try store.commit()
        #expect(try store.downtime.aliveAt() == 1_000)
        #expect(try store.downtime.runningCutoff(now: 1_100, seconds: 50) == 1_050)
        // Before it has run `seconds`: a cutoff before any game.
        #expect(try store.downtime.runningCutoff(now: 1_010, seconds: 50) == 960)
    }

    @Test("Outages stand still: 10 s of running before one and 10 s after are 20 s")
    func outagesAreLeftOut() throws {
        let dir = try TempDir("ghostd-downtime")
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            try store.downtime.recordStart(at: 1_000)
            try store.downtime.markAlive(at: 2_000)
            try store.commit()
            store.close()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.downtime.recordStart(at: 5_000) == 3_000)
        try store.commit()
        #expect(try store.downtime.runningCutoff(now: 5_010, seconds: 20) == 1_990)
        #expect(try store.downtime.runningCutoff(now: 5_010, seconds: 10) == 5_000)   // the start itself
        #expect(try store.downtime.runningCutoff(now: 5_100, seconds: 20) == 5_080)
        // A second outage: 100 s of running, down 900 s.
        try store.downtime.markAlive(at: 5_100)
        #expect(try store.downtime.recordStart(at: 6_000) == 900)
        try store.commit()
        #expect(try store.downtime.runningCutoff(now: 6_005, seconds: 5) == 6_000)
        #expect(try store.downtime.runningCutoff(now: 6_005, seconds: 50) == 5_055)
        #expect(try store.downtime.runningCutoff(now: 6_005, seconds: 200) == 1_905)
        #expect(try store.db.query("SELECT resumed, down FROM outages ORDER BY resumed") { [$0.int(0), $0.int(1)] }
                == [[5_000, 3_000], [6_000, 3_900]])
    }

    @Test("A clock set back is no outage, and never moves the mark back")
    func clockSetBack() throws {
        let dir = try TempDir("ghostd-downtime")
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        try store.downtime.recordStart(at: 10_000)
        #expect(try store.downtime.recordStart(at: 9_000) == 0)
        try store.downtime.markAlive(at: 9_500)
        try store.commit()
        #expect(try store.downtime.aliveAt() == 10_000)
        #expect(try store.db.query("SELECT count(*) FROM outages") { $0.int(0) } == [0])
    }

    @Test("A database from before schema 15 with games: every second before the upgrade counts as down", sqliteOnly)
    func upgradedDatabase() throws {
        let dir = try TempDir("ghostd-downtime")
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            try store.db.execute("""
                INSERT INTO games(id, kind, lang, player0, player1, token0, token1, started_at, last_active)
                VALUES (1, 'ghost', 'en', 'ann', 'Ben', 'a', 'b', 1000, 1000);
                DROP TABLE running; DROP TABLE outages; DROP TABLE move_journal; DROP TABLE upgrade_work; DROP TABLE follows; DROP TABLE blocks; DROP TABLE reports; DROP TABLE sanctions; PRAGMA user_version = 14;
                """)
            store.close()
        }
        let before = Int(Date().timeIntervalSince1970)
        let store = try openStore(dir.path)
        defer { store.close() }
        let after = Int(Date().timeIntervalSince1970)
        #expect(store.userVersion == Schema.version)
        let upgrade = try #require(try store.downtime.aliveAt())
        #expect((before...after).contains(upgrade))
        #expect(try store.db.query("SELECT resumed, down FROM outages") { [$0.int(0), $0.int(1)] } == [[upgrade, upgrade]])
        // Started at once: the game of long ago has been untouched for no running time.
        #expect(try store.downtime.recordStart(at: upgrade) == 0)
        #expect(try store.downtime.runningCutoff(now: upgrade + 60, seconds: 3_600) < 1_000)
        #expect(try store.downtime.runningCutoff(now: upgrade + 3_601, seconds: 3_600) == upgrade + 1)
    }

    @Test("A new database records no outage from before it was made")
    func newDatabaseHasNoOutage() throws {
        let dir = try TempDir("ghostd-downtime")
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.db.query("SELECT count(*) FROM outages") { $0.int(0) } == [0])
        #expect(try store.db.query("SELECT count(*) FROM running WHERE alive_at IS NULL") { $0.int(0) } == [1])
    }
}
