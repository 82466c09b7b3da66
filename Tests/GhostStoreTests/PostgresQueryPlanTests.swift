import Foundation
import Testing
import TestSupport
@testable import GhostStore

/// QueryPlanTests' PostgreSQL twin (issue #48): the statements every store
/// call a command can reach runs (QueryPlanWorkload), in PostgreSQL's dialect
/// (PostgresDialect), read the store's tables through an index on PostgreSQL
/// too.
///
/// The state QueryPlanWorkload fills a data folder with is copied into a
/// fresh database (StoreCopy) and analyzed; each distinct statement is
/// prepared and its generic plan (`plan_cache_mode = force_generic_plan`: the
/// plan for any arguments, as a prepared statement's is after a few runs)
/// explained with sequential scans disabled, so that a `Seq Scan` left in
/// the plan is one with no index path at all. Required of each plan, as of
/// SQLite's:
/// - no `Seq Scan` on any of the store's tables (SQLite's `SCAN <table>`);
/// - no index walked whole: an `Index Scan`, `Index Only Scan` or `Bitmap
///   Index Scan` without an `Index Cond` reads every entry (SQLite's
///   `SCAN … USING INDEX`, and its search on `status` alone, which a
///   partial index is here); except a LIMITed walk along an index that has
///   the rows in the order asked for (an index scan with a `Limit` above it
///   and no sort in between: NAMES without a prefix, the names by last use,
///   stops after n + 1);
/// - no `Sort` (SQLite's `USE TEMP B-TREE`): the order comes from an index;
///   except a sort of one game's rows, every table under it read by the
///   game's id (`id = $n`, `game_id = $n`): a RESUME's moves of a game in
///   progress, ordered by ply, which PostgreSQL joins as it reads them, by
///   the game's id, and then sorts; they are as many as one game's moves,
///   however large the database.
///
/// Everything runs inside one transaction that is rolled back: EXPLAIN
/// without ANALYZE runs nothing, and the rollback leaves nothing either.
@Suite(.ownThread, storeIndependent, .hangLimit)
struct PostgresQueryPlanTests {
    @Test("Every statement of every store call a command reaches uses an index on PostgreSQL too; none scans or sorts a whole table")
    func everyCommandQueryIsBoundedOnPostgres() async throws {
        try await onOwnThread {
            let started = monotonicNow()
            let dir = try TempDir()
            defer { dir.remove() }
            let (finished, active, token) = try {
                let filler = try Store(directory: dir.path)
                defer { filler.close() }
                return try QueryPlanWorkload.fill(filler)
            }()
            let filled = monotonicNow()
            let url = try PostgresServer.shared().createDatabase()
            let report = try StoreCopy.copy(from: .folder(dir.path), to: .postgres(url))
            let copied = monotonicNow()
            // The statements, recorded on the folder as QueryPlanTests does.
            let statements = try {
                let store = try Store(directory: dir.path)
                defer { store.close() }
                return try QueryPlanWorkload.commands(store, finished: finished, active: active, token: token)
            }()
            #expect(statements.count >= 20, "\(statements)")

            let db = try PostgresDatabase(url)
            defer { db.close() }
            // VACUUM as well as ANALYZE: the state autovacuum keeps tables
            // in. Right after a copy no page is marked all-visible, and then
            // the generic plan of NAMES prefix= (`name >= $1 AND name < $2
            // … ORDER BY name LIMIT $4`) reads every name in the range and
            // sorts them (Bitmap Heap Scan, Sort), where with the visibility
            // map it walks players_prefix in order and stops at the limit.
            try db.execute("VACUUM ANALYZE")
            try db.execute("BEGIN")
            try db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            try db.execute("SET LOCAL enable_seqscan = off")
            var checked = 0
            var allowed: [String] = []
            for (n, sql) in statements.enumerated() {
                let pg: String
                do {
                    pg = try PostgresDialect.translate(sql)
                } catch {
                    Issue.record("no PostgreSQL form for a statement a command reaches: \(error)")
                    continue
                }
                let plan: [String]
                do {
                    plan = try Self.genericPlan(db, name: "q\(n)", pg)
                } catch {
                    Issue.record("\(sql)\nin PostgreSQL's dialect: \(pg)\ndoes not prepare or explain: \(error)")
                    continue
                }
                checked += 1
                let (bad, allowances) = Self.unboundedSteps(plan, sql: pg)
                allowed += allowances.map { "\($0) (q\(n))" }
                #expect(bad.isEmpty, "\(sql)\nin PostgreSQL's dialect: \(pg)\nunbounded: \(bad)\nplan:\n\(plan.joined(separator: "\n"))")
            }
            try db.execute("ROLLBACK")
            #expect(checked == statements.count)
            let rows = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0.rows) })
            print("PostgresQueryPlanTests: allowed: \(allowed)")
            print(String(format: "PostgresQueryPlanTests: %d statements checked; %d rows copied (players %d, games %d, moves %d, ratings %d, best_games %d); fill %.1f s, copy %.1f s, plans %.1f s",
                         checked, report.rows, rows["players"] ?? 0, rows["games"] ?? 0, rows["moves"] ?? 0, rows["ratings"] ?? 0,
                         rows["best_games"] ?? 0, filled - started, copied - filled, monotonicNow() - copied))
        }
    }

    /// The generic plan of `sql` (PostgreSQL's dialect), prepared as `name`,
    /// explained with NULL for each parameter (a generic plan does not
    /// depend on them), one line per row of EXPLAIN's text. A failure rolls
    /// back to a savepoint, so that the next statement still runs.
    static func genericPlan(_ db: PostgresDatabase, name: String, _ sql: String) throws -> [String] {
        try db.execute("SAVEPOINT plan")
        do {
            try db.execute("PREPARE \(name) AS \(sql)")
            let types = try db.query("SELECT cardinality(parameter_types) FROM pg_prepared_statements WHERE name = $1", [.text(name)])
            let count = types.int(0, 0) ?? 0
            let arguments = count == 0 ? "" : "(" + Array(repeating: "NULL", count: count).joined(separator: ", ") + ")"
            let rows = try db.query("EXPLAIN (FORMAT TEXT) EXECUTE \(name)\(arguments)")
            try db.execute("DEALLOCATE \(name)")
            try db.execute("RELEASE SAVEPOINT plan")
            return (0..<rows.count).compactMap { rows.text($0, 0) }
        } catch {
            // PREPARE is not undone by a rollback: a statement that prepared
            // and then failed to explain is deallocated after it.
            try db.execute("ROLLBACK TO SAVEPOINT plan")
            try db.execute("RELEASE SAVEPOINT plan")
            let prepared = try db.query("SELECT count(*) FROM pg_prepared_statements WHERE name = $1", [.text(name)])
            if prepared.int(0, 0) == 1 { try db.execute("DEALLOCATE \(name)") }
            throw error
        }
    }

    /// The steps of `plan` (EXPLAIN's text) that read more than a bounded
    /// part of one of the store's tables: a `Seq Scan` of one, an index
    /// walked whole (no `Index Cond`) other than a LIMITed walk in the
    /// index's order, a `Sort` other than of one game's rows. Also returns
    /// the steps let through by those two allowances.
    static func unboundedSteps(_ plan: [String], sql: String) -> (bad: [String], allowed: [String]) {
        struct Node { var depth: Int; var text: String; var details: [String] }
        var nodes: [Node] = []
        for (i, line) in plan.enumerated() {
            if i == 0 {
                nodes.append(Node(depth: 0, text: line.trimmingCharacters(in: .whitespaces), details: []))
            } else if let arrow = line.range(of: "->  ") {
                let depth = line.distance(from: line.startIndex, to: arrow.lowerBound) + 1
                nodes.append(Node(depth: depth, text: String(line[arrow.upperBound...]), details: []))
            } else if !nodes.isEmpty {
                nodes[nodes.count - 1].details.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        let tables = Set(PostgresSchema.sharedTables)
        /// The table a scan step reads (`… on <table> [alias]`), when it is one of the store's.
        func table(_ text: String) -> String? {
            guard let on = text.range(of: " on ") else { return nil }
            let name = text[on.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return tables.contains(String(name)) ? String(name) : nil
        }
        /// The steps above node `k`, nearest first.
        func ancestors(_ k: Int) -> [Node] {
            var out: [Node] = []
            var depth = nodes[k].depth
            for j in stride(from: k - 1, through: 0, by: -1) where nodes[j].depth < depth {
                out.append(nodes[j])
                depth = nodes[j].depth
            }
            return out
        }
        /// Whether every table read under node `k` is read by one game's id.
        func oneGame(under k: Int) -> Bool {
            var scans = 0
            for j in (k + 1)..<nodes.count {
                guard nodes[j].depth > nodes[k].depth else { break }
                guard table(nodes[j].text) != nil else { continue }
                scans += 1
                let byGame = nodes[j].text.contains("Index")
                    && nodes[j].details.contains { $0.range(of: #"^Index Cond: \((game_)?id = \$\d+\)$"#, options: .regularExpression) != nil }
                if !byGame { return false }
            }
            return scans > 0
        }
        var bad: [String] = []
        var allowed: [String] = []
        for (k, node) in nodes.enumerated() {
            let text = node.text
            if text.hasPrefix("Seq Scan on "), table(text) != nil {
                bad.append(text)
            } else if text.hasPrefix("Sort ") || text.hasPrefix("Incremental Sort ") {
                if oneGame(under: k) { allowed.append(text) } else { bad.append(text) }
            } else if text.hasPrefix("Bitmap Index Scan on "), !node.details.contains(where: { $0.hasPrefix("Index Cond:") }) {
                bad.append(text)   // every entry of the index, in no order a limit could stop
            } else if text.hasPrefix("Index Scan ") || text.hasPrefix("Index Only Scan ") || text.hasPrefix("Index Scan Backward ")
                        || text.hasPrefix("Index Only Scan Backward "),
                      table(text) != nil, !node.details.contains(where: { $0.hasPrefix("Index Cond:") }) {
                // The one allowed walk: LIMITed, in the index's order (no sort
                // between the limit and the walk).
                let above = ancestors(k)
                let limited = sql.contains("LIMIT $") && above.contains { $0.text.hasPrefix("Limit ") }
                    && !above.prefix { !$0.text.hasPrefix("Limit ") }.contains { $0.text.contains("Sort") }
                if limited { allowed.append(text) } else { bad.append(text) }
            }
        }
        return (bad, allowed)
    }

    @Test("The plan check finds a table's scan, an index walked whole, a sort; and lets through a LIMITed walk in order and a sort of one game's rows")
    func planCheckFindsWhatItMust() {
        func check(_ plan: String, _ sql: String = "SELECT 1") -> (bad: [String], allowed: [String]) {
            Self.unboundedSteps(plan.split(separator: "\n").map(String.init), sql: sql)
        }
        #expect(check("Seq Scan on games  (cost=10000000000.00..10000000001.00 rows=1 width=8)\n  Filter: (kind = $1)").bad.count == 1)
        #expect(check("Seq Scan on pg_class  (cost=0.00..1.00 rows=1 width=8)").bad.isEmpty)
        let joined = """
            Nested Loop  (cost=0.56..16.61 rows=1 width=26)
              ->  Seq Scan on players p  (cost=0.28..8.30 rows=1 width=34)
              ->  Index Scan using scores_pkey on scores s  (cost=0.28..8.30 rows=1 width=16)
                    Index Cond: (player = p.name)
            """
        #expect(check(joined).bad == ["Seq Scan on players p  (cost=0.28..8.30 rows=1 width=34)"])
        let walk = """
            Limit  (cost=0.28..4.66 rows=1 width=18)
              ->  Index Only Scan using players_recent on players  (cost=0.28..4.66 rows=1 width=18)
            """
        #expect(check(walk, "SELECT name FROM players ORDER BY last_seen DESC, name LIMIT $1") == ([], ["Index Only Scan using players_recent on players  (cost=0.28..4.66 rows=1 width=18)"]))
        #expect(check(walk, "SELECT name FROM players ORDER BY last_seen DESC, name LIMIT 5").bad.count == 1)
        #expect(check("Index Scan using games_untouched on games  (cost=0.28..8.30 rows=1 width=16)\n  Filter: (kind = $1)").bad.count == 1)
        #expect(check("Limit  (cost=0.28..4.66 rows=1 width=18)\n  ->  Bitmap Heap Scan on games  (cost=4.43..26.73 rows=1 width=18)\n        ->  Bitmap Index Scan on games_untouched  (cost=0.00..4.43 rows=15 width=0)", "SELECT id FROM games LIMIT $1").bad
                == ["Bitmap Index Scan on games_untouched  (cost=0.00..4.43 rows=15 width=0)"])
        let sorted = """
            Limit  (cost=26.74..26.74 rows=1 width=18)
              ->  Sort  (cost=26.74..26.74 rows=1 width=18)
                    Sort Key: name
                    ->  Bitmap Heap Scan on players  (cost=4.43..26.73 rows=1 width=18)
                          Recheck Cond: ((name >= $1) AND (name < $2))
                          ->  Bitmap Index Scan on players_prefix  (cost=0.00..4.43 rows=15 width=0)
                                Index Cond: ((name >= $1) AND (name < $2))
            """
        #expect(check(sorted, "SELECT … LIMIT $4").bad == ["Sort  (cost=26.74..26.74 rows=1 width=18)"])
        let oneGame = """
            Sort  (cost=16.62..16.63 rows=1 width=26)
              Sort Key: m.ply
              ->  Nested Loop  (cost=0.56..16.61 rows=1 width=26)
                    Join Filter: (g.round = m.round)
                    ->  Index Scan using games_pkey on games g  (cost=0.28..8.30 rows=1 width=16)
                          Index Cond: (id = $1)
                          Filter: (status = 'active'::text)
                    ->  Index Scan using moves_pkey on moves m  (cost=0.28..8.30 rows=1 width=34)
                          Index Cond: (game_id = $1)
            """
        #expect(check(oneGame) == ([], ["Sort  (cost=16.62..16.63 rows=1 width=26)"]))
        #expect(check(oneGame.replacingOccurrences(of: "(game_id = $1)", with: "(round = $1)")).bad.count == 1)
    }
}
