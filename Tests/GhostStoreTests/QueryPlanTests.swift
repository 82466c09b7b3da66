import Foundation
import Testing
@testable import GhostStore

/// No store call that a command can reach does work that grows with the
/// database: each of them is run on a database with a few
/// thousand names and finished games, every statement it runs is recorded,
/// and SQLite's plan for each (`EXPLAIN QUERY PLAN`) must read its tables
/// through an index: a `SEARCH`, never a `SCAN` of a table or a sort of every
/// matching row (`USE TEMP B-TREE`). The one walk allowed is a LIMITed one
/// along the index that already has the rows in the order asked for (NAMES
/// without a prefix: the names by last use, newest first, stops after n + 1),
/// and the rows of a LIMITed subquery (the caps on games in progress count at
/// most their limit of index entries).
///
/// Left out, as no command reaches them: `activeGames()` (at start, and after
/// a failed commit), the win counts read at start, `allNames()`, and
/// `bestGameRank(board:game:)` without `within:` (the lobby always bounds it).
@Suite struct QueryPlanTests {
    @Test("Every statement of every store call a command reaches uses an index; none scans or sorts a whole table")
    func everyCommandQueryIsBounded() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (finished, active, token) = try {
            let filler = try Store(directory: dir.path)
            defer { filler.close() }
            return try QueryPlanWorkload.fill(filler)
        }()
        // Opened again: its caches are empty, as after a restart.
        let store = try Store(directory: dir.path)
        defer { store.close() }
        let statements = try QueryPlanWorkload.commands(store, finished: finished, active: active, token: token)
        #expect(statements.count >= 20, "\(statements)")
        for sql in statements {
            let plan = try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }
            let bad = plan.filter { step in
                if step.contains("TEMP B-TREE") { return true }
                // A search on `status` alone walks every game in progress (or every finished one).
                if step.hasSuffix("(status=?)") { return true }
                guard step.hasPrefix("SCAN ") else { return false }
                // A LIMITed subquery's rows (the caps count at most their limit of index entries).
                if (step == "SCAN CONSTANT ROW" || step.hasPrefix("SCAN (subquery-")) && sql.contains("LIMIT ?") { return false }
                // The one allowed walk: NAMES without a prefix, along the recency index, LIMITed.
                return !(step == "SCAN players USING COVERING INDEX players_recent" && sql.hasSuffix("LIMIT ?"))
            }
            #expect(bad.isEmpty, "\(sql)\nplan: \(plan)")
        }
        // The look-ups that scanned before schema 8 now search their indexes.
        func plan(_ sql: String) throws -> [String] { try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) } }
        // RESUME of a token issued before schema 14: its seat's partial index.
        let resume = try plan(try #require(statements.first { $0.contains("token0 = ?") }))
        #expect(statements.first { $0.contains("token0 = ?") }?.contains("token0 = ? AND token0 <> '' AND token0 < '~'") == true)
        #expect(resume.contains { $0.contains("USING INDEX games_token0 (token0=?)") }, "\(resume)")
        #expect(resume.contains { $0.contains("USING INDEX games_token1 (token1=?)") }, "\(resume)")
        // RESUME of a token that names its game: the row by its id.
        let named = try plan(try #require(statements.first { $0.contains("THEN token0 ELSE token1 END") }))
        #expect(named == ["SEARCH games USING INTEGER PRIMARY KEY (rowid=?)"], "\(named)")
        let scores = try plan(try #require(statements.first { $0.contains("FROM scores s JOIN players p") }))
        #expect(scores.first == "SEARCH s USING INDEX scores_rank (board=?)", "\(scores)")
        let prefixed = try plan(try #require(statements.first { $0.contains("name >= ? AND name < ?") }))
        #expect(prefixed == ["SEARCH players USING COVERING INDEX players_prefix (name>? AND name<?)"], "\(prefixed)")
        let top = try plan(try #require(statements.first { $0.contains("FROM ratings WHERE board = ? AND listed = 1") }))
        #expect(top == ["SEARCH ratings USING INDEX ratings_top (board=?)"], "\(top)")
        let history = try plan(try #require(statements.first { $0.contains("player0 = ? COLLATE NOCASE AND watch = ?") }))
        #expect(history == ["SEARCH games USING INDEX games_history0 (player0=? AND watch=?)"], "\(history)")
        // The caps' counts and a guest's NAME read the seats kept in memory (schema 12): no SQL.
        #expect(!statements.contains { $0.contains("player0 = ? COLLATE NOCASE LIMIT") || $0.contains("net0 = ?") }, "\(statements)")
    }

    @Test("NAMES prefix= looks at the first namesPrefixScan matching names alphabetically, lists the newest of those, and says more=yes past the bound")
    func prefixedNamesAreBounded() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        let bound = NamesStore.namesPrefixScan
        // bound + 50 names b0000 …, each used later than the one before; and a few others.
        for i in 0..<(bound + 50) { try store.registerName(String(format: "b%04d", i), now: t0 + i) }
        for (name, at) in [("Cat", 5), ("cab", 5), ("car", 9), ("dog", 99_999)] { try store.registerName(name, now: t0 + at) }
        try store.commit()
        // The newest b names are past the bound: the list comes from b0000 … b0999.
        let b = try store.recentNames(prefix: "b", limit: 3)
        #expect(b.names == [String(format: "b%04d", bound - 1), String(format: "b%04d", bound - 2), String(format: "b%04d", bound - 3)])
        #expect(b.more)
        // Fewer matches than the bound: exact, newest first, ties alphabetical (any case), more=no.
        #expect(try store.recentNames(prefix: "CA", limit: 5) == (["car", "cab", "Cat"], false))
        #expect(try store.recentNames(prefix: "ca", limit: 2) == (["car", "cab"], true))
        // A longer prefix narrows the search back under the bound: exact again.
        let narrow = try store.recentNames(prefix: "b10", limit: 2)
        #expect(narrow.names == [String(format: "b%04d", bound + 49), String(format: "b%04d", bound + 48)] && narrow.more)
        // Without a prefix: the newest of all.
        #expect(try store.recentNames(prefix: nil, limit: 2) == (["dog", String(format: "b%04d", bound + 49)], true))
    }

    /// `activeGames()` (a restart's or a test's load of every game in
    /// progress) is left out above, as no command reaches it; still, it
    /// reads the games in progress through an index, not every game ever
    /// played and every move (schema 12 dropped `games_active`: it reads
    /// `games_untouched`, which holds the same rows).
    @Test("Loading every game in progress walks the index of games in progress, not every game and every move")
    func activeGamesReadTheirIndex() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        _ = try QueryPlanWorkload.fill(store)
        store.db.statementLog = []
        #expect(try store.activeGames().count == QueryPlanWorkload.games)
        let log = store.db.statementLog ?? []
        store.db.statementLog = nil
        #expect(log.count == 2)
        for sql in log {
            let plan = try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }
            #expect(plan.contains("SCAN g USING INDEX games_untouched") || plan.contains("SCAN games USING INDEX games_untouched"), "\(sql)\nplan: \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN ") && !$0.contains("USING") }, "\(sql)\nplan: \(plan)")
        }
    }
}
