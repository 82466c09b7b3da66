import Foundation
import Testing
@testable import GhostStore

/// Schema 13 to 14: the token indexes hold only the tokens
/// issued before (`< '~'`); tokens of the new form are stored as `~` and
/// their secret, out of them (ResumeTokens.swift). (MigrationTests.swift
/// holds the earlier steps.)
@Suite("Store: schema 14's resume tokens, from a schema-13 database")
struct TokenMigrationTests {
    /// Tokens issued before schema 14: 128 random bits. Game 1's seat 0
    /// looks like a token of the new form naming game 1's seat 0, but its
    /// row holds it whole: it is found through its index, as before.
    private let old = [["000000000002aaaaaaaaaaaaaaaaaaaa", "5555aaaa5555aaaa5555aaaa5555aaaa"],
                       ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"]]

    @Test("A schema-13 database's tokens still resume their games, and its token indexes leave out the new tokens")
    func version13TokensStillWork() throws {
        let dir = try TempDir("ghostd-migrate")
        defer { dir.remove() }
        do {
            let db = try raw(dir)
            defer { db.close() }
            for i in 0..<13 { try db.execute(Migrations.all[i]) }
            try db.execute("PRAGMA user_version=13")
            try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES ('ann', ?, ?), ('Ben', ?, ?)", .of(t0), .of(t0), .of(t0), .of(t0))
            for (id, status) in [(1, "active"), (2, "over")] {
                try db.run("""
                    INSERT INTO games(id, kind, lang, player0, player1, token0, token1, status, winner, loser, reason, final_state,
                                      started_at, ended_at, last_active)
                    VALUES (?, 'ghost', 'en', 'ann', 'Ben', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, .of(id), .text(old[id - 1][0]), .text(old[id - 1][1]), .text(status),
                    .of(status == "over" ? "ann" : nil), .of(status == "over" ? "Ben" : nil), .of(status == "over" ? "word" : nil),
                    .of(status == "over" ? "fragment=pe" : nil), .of(t0 + id), .of(status == "over" ? t0 + 10 : nil), .of(t0 + id))
            }
        }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        #expect(store.userVersion == Schema.version)
        let indexes = try store.db.query("SELECT sql FROM sqlite_master WHERE name IN ('games_token0', 'games_token1') ORDER BY name") { $0.text(0) }
        #expect(indexes == ["CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '' AND token0 < '~'",
                            "CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '' AND token1 < '~'"])
        // Every old token finds its game, by seat.
        for seat in 0..<2 {
            #expect(try store.activeGame(token: old[0][seat])?.tokens == old[0])
            #expect(try store.finishedGame(token: old[1][seat])?.id == 2)
        }
        #expect(try store.activeGame(token: old[1][0]) == nil)
        // A new game gets the next id, and its tokens of the new form stay out of the indexes.
        let next = try store.nextGameID()
        #expect(next == 3)
        let tokens = try (0..<2).map { try #require(ResumeTokens.prefix(game: next, seat: $0)) + "0123456789abcdef012\($0)" }
        #expect(try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "Ben"], tokens: tokens), now: t0 + 20) == 3)
        try store.commit()
        #expect(try store.activeGame(token: tokens[1])?.tokens == tokens)
        #expect(try store.db.query("SELECT token0 FROM games INDEXED BY games_token0 WHERE token0 <> '' AND token0 < '~' ORDER BY 1") { $0.text(0) }
                == [old[0][0], old[1][0]])
        let db = try raw(dir)
        defer { db.close() }
        #expect(try schemaProblems(db) == [])
    }
}
