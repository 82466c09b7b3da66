import Foundation
import Testing
@testable import GhostStore
import TestSupport

/// The store of a test's folder: SQLite in it, or under
/// `GHOSTD_TEST_STORE=postgresql` a database of the tests' PostgreSQL made
/// for that folder (the same one each time the folder is opened again): the
/// store's behaviour, tested once for both backends.
func openStore(_ path: String) throws -> Store {
    if let url = try DaemonProcess.storeURL(forData: path) { return try Store(postgres: url, directory: path) }
    return try Store(directory: path)
}

/// For a test that looks at SQLite's own file or statements: skipped when
/// the store tests run on PostgreSQL.
let sqliteOnly = Testing.ConditionTrait.enabled(if: !DaemonProcess.onPostgres, "looks at SQLite's own file or statements")

/// A fresh directory under the system's temporary folder for one test's
/// database. Call `remove()` in a `defer` right after making it: that keeps
/// it alive to the end of the test (ARC may otherwise end its life at its
/// last use, while a store still has the database open) and removes it even
/// when the test fails. The deinit removes it too, as a backstop.
final class TempDir {
    let path: String

    init(_ prefix: String = "ghostd-store") throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The store's database file in this directory.
    var database: String { (path as NSString).appendingPathComponent(Store.fileName) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    deinit { remove() }
}

/// Opens a raw connection on the database file, for looking behind the store.
func raw(_ dir: TempDir) throws -> SQLiteDatabase { try SQLiteDatabase(path: dir.database) }

func scalarText(_ db: SQLiteDatabase, _ sql: String) throws -> String? {
    try db.query(sql) { $0.text(0) }.first
}

func scalarInt(_ db: SQLiteDatabase, _ sql: String) throws -> Int? {
    try db.query(sql) { $0.int(0) }.first
}

/// The columns of a table or view, in order.
func columns(_ db: SQLiteDatabase, _ table: String) throws -> [String] {
    try db.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") { $0.text(0) }
}

/// The tables and views of a database, by name.
func tablesAndViews(_ db: SQLiteDatabase) throws -> [String] {
    try db.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name") { $0.text(0) }
}

/// The current layout (schema 15: the daemon's running time and outages; schema 14: tokens; schema 8: schema 3's games and moves, the
/// best-games lists of 4, the head-to-head records of 5, each game's
/// clock of 6, whether it may be watched of 7, the indexes of 8, the accounts of 10), written out here (not read from `Migrations.all`) so that
/// a change to it has to be made on purpose.
enum Schema {
    static let version = 17
    static let games = ["id", "kind", "variant", "settings", "seed", "lang", "player0", "player1", "token0", "token1",
                        "bot0", "bot1", "rounds", "lost0", "lost1", "round", "starter",
                        "offer_seat", "offer_kind", "offer_lang", "offer_spent0", "offer_spent1",
                        "status", "winner", "loser", "reason", "final_state", "started_at", "ended_at", "clock", "watch",
                        "last_active", "net0", "net1", "rated", "rating0", "rating1", "change0", "change1"]
    static let moves = ["game_id", "round", "ply", "seat", "move", "at"]
    static let finishedGames = ["id", "kind", "variant", "rounds", "lang", "player0", "bot0", "player1", "bot1",
                                "winner", "loser", "reason", "final_state", "lost0", "lost1", "started", "ended"]
    static let bestGames = ["board", "game", "name", "key1", "key2", "fields", "finished_at"]
    static let rivals = ["kind", "player0", "player1", "wins0", "wins1"]
    static let accounts = ["name", "hash", "created", "changed"]
    static let ratings = ["player", "board", "rating", "deviation", "volatility", "games", "wins", "losses", "last_played",
                          "best_game", "best_opponent", "best_rating", "listed"]
    static let tables = ["accounts", "best_games", "blocks", "finished_games", "follows", "games", "move_journal", "moves", "outages", "players",
                         "preferences", "ratings", "reports", "rivals", "running", "sanctions", "scores", "upgrade_work"]
    static let moveJournal = ["id", "ident", "clean"]
    static let running = ["id", "alive_at"]
    static let outages = ["resumed", "down"]
    static let indexes = ["best_games_rank",
                          "games_history0", "games_history1", "games_token0", "games_token1", "games_untouched", "players_prefix", "players_recent",
                          "ratings_top", "reports_by_reporter", "scores_rank"]
    /// Schema 14: the token indexes hold only the tokens issued before it.
    static let tokenIndexes = ["CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '' AND token0 < '~'",
                               "CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '' AND token1 < '~'"]
}

/// The move journal's lines after its header line (`journal <ident> <check>`,
/// JournalScan.swift), which every journal ghostd runs with has: a test
/// fails when it is not there.
func journalBody(_ dir: TempDir, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.database + "-moves")), as: UTF8.self)
    guard text.hasPrefix("journal "), let end = text.firstIndex(of: "\n") else {
        Issue.record("the journal has no header: \(text.prefix(80))", sourceLocation: sourceLocation)
        return text
    }
    return String(text[text.index(after: end)...])
}

/// Checks a database's current layout and health; returns what is wrong ([] when all is well).
func schemaProblems(_ db: SQLiteDatabase) throws -> [String] {
    var problems: [String] = []
    func check(_ ok: Bool, _ what: String) { if !ok { problems.append(what) } }
    check(try scalarInt(db, "PRAGMA user_version") == Schema.version, "user_version")
    check(try tablesAndViews(db) == Schema.tables, "tables: \(try tablesAndViews(db))")
    check(try columns(db, "games") == Schema.games, "games: \(try columns(db, "games"))")
    check(try columns(db, "moves") == Schema.moves, "moves: \(try columns(db, "moves"))")
    check(try columns(db, "accounts") == Schema.accounts, "accounts: \(try columns(db, "accounts"))")
    check(try columns(db, "ratings") == Schema.ratings, "ratings: \(try columns(db, "ratings"))")
    check(try columns(db, "finished_games") == Schema.finishedGames, "finished_games: \(try columns(db, "finished_games"))")
    check(try columns(db, "best_games") == Schema.bestGames, "best_games: \(try columns(db, "best_games"))")
    check(try columns(db, "rivals") == Schema.rivals, "rivals: \(try columns(db, "rivals"))")
    check(try columns(db, "running") == Schema.running, "running: \(try columns(db, "running"))")
    check(try columns(db, "outages") == Schema.outages, "outages: \(try columns(db, "outages"))")
    check(try columns(db, "move_journal") == Schema.moveJournal, "move_journal: \(try columns(db, "move_journal"))")
    let indexes = try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
    check(indexes == Schema.indexes, "indexes: \(indexes)")
    let tokenIndexes = try db.query("SELECT sql FROM sqlite_master WHERE name IN ('games_token0', 'games_token1') ORDER BY name") { $0.text(0) }
    check(tokenIndexes == Schema.tokenIndexes, "token indexes: \(tokenIndexes)")
    // moves refers to no table (schema 13: the store checks its games), and every row's game exists.
    let parents = try db.query("SELECT \"table\" FROM pragma_foreign_key_list('moves')") { $0.text(0) }
    check(parents == [], "moves references \(parents)")
    let lost = try db.query("SELECT count(*) FROM moves WHERE game_id NOT IN (SELECT id FROM games)") { $0.int(0) }
    check(lost == [0], "moves without their game: \(lost)")
    let bestParents = try db.query("SELECT \"table\" FROM pragma_foreign_key_list('best_games')") { $0.text(0) }
    check(bestParents == ["games"], "best_games references \(bestParents)")
    let orphans = try db.query("PRAGMA foreign_key_check") { $0.text(0) }
    check(orphans.isEmpty, "foreign_key_check: \(orphans)")
    let integrity = try db.query("PRAGMA integrity_check") { $0.text(0) }
    check(integrity == ["ok"], "integrity_check: \(integrity)")
    return problems
}

/// The rows of the finished_games view, one string each, every column
/// separated by `|` (NULL shown as `NULL`).
func finishedGames(_ db: SQLiteDatabase) throws -> [String] {
    try db.query("SELECT * FROM finished_games ORDER BY id") { r in
        (0..<Int32(Schema.finishedGames.count)).map { r.optionalText($0) ?? "NULL" }.joined(separator: "|")
    }
}

let t0 = 1_700_000_000

/// Two resume tokens no other game has (tokens are unique per seat since schema 8).
func freshTokens() -> [String] { [UUID().uuidString, UUID().uuidString] }
