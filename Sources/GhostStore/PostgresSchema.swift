/// The store's schema in PostgreSQL's dialect (issue #48).
///
/// PostgreSQL starts at SQLite's schema 17 (`Migrations.all`): `baseline`
/// makes, in one step, the tables and indexes that SQLite's first 17
/// migrations leave, and `ghostd_schema` holds the version, as SQLite's
/// `PRAGMA user_version` does. A later migration is written in both
/// dialects, as the same step with the same number (`migrations`).
///
/// What differs from SQLite's form, and why:
/// - `COLLATE NOCASE` (names) is `citext`, PostgreSQL's case-insensitive
///   text (a trusted extension: a database's owner may create it).
/// - Resume tokens are `COLLATE "C"`: their partial indexes compare them
///   with '~' byte by byte, whatever the database's locale.
/// - `INTEGER` is `bigint` (SQLite's integers are 64-bit), `REAL` is
///   `double precision`.
/// - `reports.id` is an identity column (SQLite's rowid alias numbers a
///   row left without one).
/// - `move_journal` is SQLite's own: on PostgreSQL a turn's moves go into
///   `moves` in the turn's transaction, pipelined.
/// - `finished_games` shows its times with `to_char` instead of `datetime`.
public enum PostgresSchema {
    /// The version `baseline` makes: SQLite's schema at the same number.
    public static let baselineVersion = 17

    /// The version this ghostd writes (`Migrations.all.count`): the baseline,
    /// then one step per later migration.
    public static var currentVersion: Int { baselineVersion + migrations.count }

    /// Migrations after the baseline, in order: entry i takes the version
    /// from `baselineVersion + i` to `baselineVersion + i + 1`, the same step
    /// as SQLite's `Migrations.all[baselineVersion + i]`.
    static let migrations: [String] = []

    /// The tables the two backends share, parents before the tables that
    /// refer to them (the order `StoreCopy` copies them in).
    public static let sharedTables = [
        "players", "preferences", "scores", "games", "moves", "best_games", "rivals", "accounts", "ratings",
        "running", "outages", "upgrade_work", "follows", "blocks", "reports", "sanctions",
    ]

    static let baseline = """
        CREATE EXTENSION IF NOT EXISTS citext;
        CREATE TABLE ghostd_schema (
            id       integer PRIMARY KEY CHECK (id = 1),
            version  integer NOT NULL
        );
        CREATE TABLE players (
            name        citext NOT NULL PRIMARY KEY,   -- as first used
            first_seen  bigint NOT NULL,               -- unix seconds
            last_seen   bigint NOT NULL
        );
        CREATE TABLE preferences (
            player  citext NOT NULL REFERENCES players(name),
            key     text NOT NULL,
            value   text NOT NULL,
            PRIMARY KEY (player, key)
        );
        CREATE TABLE scores (
            player  citext NOT NULL REFERENCES players(name),
            board   text NOT NULL,
            wins    bigint NOT NULL DEFAULT 0,
            played  bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (player, board)
        );
        CREATE TABLE games (
            id            bigint PRIMARY KEY,
            kind          text NOT NULL,
            variant       text NOT NULL DEFAULT '',
            settings      text NOT NULL DEFAULT '',
            seed          bigint NOT NULL DEFAULT 0,
            lang          text NOT NULL,
            player0       citext NOT NULL,
            player1       citext NOT NULL,
            token0        text COLLATE "C" NOT NULL,   -- resume tokens (secret)
            token1        text COLLATE "C" NOT NULL,
            bot0          text,
            bot1          text,
            rounds        bigint NOT NULL DEFAULT 1,
            lost0         bigint NOT NULL DEFAULT 0,
            lost1         bigint NOT NULL DEFAULT 0,
            round         bigint NOT NULL DEFAULT 1,
            starter       bigint NOT NULL DEFAULT 0,
            offer_seat    bigint,
            offer_kind    text,
            offer_lang    text,
            offer_spent0  bigint NOT NULL DEFAULT 0,
            offer_spent1  bigint NOT NULL DEFAULT 0,
            status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
            winner        text,
            loser         text,
            reason        text,
            final_state   text,
            started_at    bigint NOT NULL,
            ended_at      bigint,
            clock         bigint NOT NULL DEFAULT 0,
            watch         bigint NOT NULL DEFAULT 1,
            last_active   bigint NOT NULL DEFAULT 0,
            net0          text NOT NULL DEFAULT '',
            net1          text NOT NULL DEFAULT '',
            rated         bigint NOT NULL DEFAULT 0,
            rating0       bigint,
            rating1       bigint,
            change0       bigint,
            change1       bigint
        );
        CREATE VIEW finished_games AS
            SELECT id, kind, variant, rounds, lang, player0, coalesce(bot0, '') AS bot0, player1, coalesce(bot1, '') AS bot1,
                   winner, loser, reason, final_state, lost0, lost1,
                   to_char(to_timestamp(started_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS started,
                   to_char(to_timestamp(ended_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS ended
            FROM games WHERE status = 'over';
        CREATE TABLE best_games (
            board        text NOT NULL,
            game         bigint NOT NULL REFERENCES games(id),
            name         citext NOT NULL,
            key1         bigint NOT NULL,
            key2         bigint NOT NULL,
            fields       text NOT NULL,
            finished_at  bigint NOT NULL,
            PRIMARY KEY (board, game)
        );
        CREATE INDEX best_games_rank ON best_games(board, key1, key2, game);
        CREATE TABLE rivals (
            kind     text NOT NULL,
            player0  citext NOT NULL,
            player1  citext NOT NULL,
            wins0    bigint NOT NULL DEFAULT 0,
            wins1    bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (kind, player0, player1)
        );
        CREATE INDEX players_recent ON players(last_seen DESC, name);
        CREATE INDEX players_prefix ON players(name, last_seen);
        CREATE INDEX scores_rank ON scores(board, wins DESC, player);
        CREATE INDEX games_untouched ON games(last_active) WHERE status = 'active';
        CREATE TABLE accounts (
            name     citext NOT NULL PRIMARY KEY REFERENCES players(name),
            hash     text NOT NULL,
            created  bigint NOT NULL,
            changed  bigint NOT NULL
        );
        CREATE TABLE ratings (
            player        citext NOT NULL REFERENCES players(name),
            board         text NOT NULL,
            rating        double precision NOT NULL,
            deviation     double precision NOT NULL,
            volatility    double precision NOT NULL,
            games         bigint NOT NULL DEFAULT 0,
            wins          bigint NOT NULL DEFAULT 0,
            losses        bigint NOT NULL DEFAULT 0,
            last_played   bigint NOT NULL,
            best_game     bigint,
            best_opponent text,
            best_rating   bigint,
            listed        bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (player, board)
        );
        CREATE INDEX ratings_top ON ratings(board, rating DESC, player) WHERE listed = 1;
        CREATE INDEX games_history0 ON games(player0, watch, ended_at DESC, id DESC) WHERE status = 'over';
        CREATE INDEX games_history1 ON games(player1, watch, ended_at DESC, id DESC) WHERE status = 'over';
        CREATE TABLE moves (
            game_id   bigint NOT NULL,   -- games(id): checked by the store
            round     bigint NOT NULL,
            ply       bigint NOT NULL,
            seat      bigint NOT NULL,
            move      text NOT NULL,
            at        bigint NOT NULL,
            PRIMARY KEY (game_id, round, ply)
        );
        CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '' AND token0 < '~';
        CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '' AND token1 < '~';
        CREATE TABLE running (
            id        bigint PRIMARY KEY CHECK (id = 1),
            alive_at  bigint
        );
        CREATE TABLE outages (
            resumed   bigint PRIMARY KEY,
            down      bigint NOT NULL
        );
        CREATE TABLE upgrade_work (
            name  text PRIMARY KEY
        );
        CREATE TABLE follows (
            follower  citext NOT NULL,
            followee  citext NOT NULL,
            since     bigint NOT NULL,
            PRIMARY KEY (follower, followee)
        );
        CREATE TABLE blocks (
            blocker  citext NOT NULL,
            blocked  citext NOT NULL,
            since    bigint NOT NULL,
            PRIMARY KEY (blocker, blocked)
        );
        CREATE TABLE reports (
            id        bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            reporter  citext NOT NULL,
            reported  citext NOT NULL,
            at        bigint NOT NULL,
            game_id   bigint,
            reason    text NOT NULL,
            chat      text NOT NULL DEFAULT ''
        );
        CREATE INDEX reports_by_reporter ON reports(reporter, at);
        CREATE TABLE sanctions (
            kind    text NOT NULL CHECK (kind IN ('mute', 'ban', 'ban-network')),
            target  citext NOT NULL,
            until   bigint,
            at      bigint NOT NULL,
            PRIMARY KEY (kind, target)
        );
        INSERT INTO running(id, alive_at) VALUES (1, NULL);
        """

    /// The schema version of the database `db` is connected to, or nil when
    /// it holds no ghostd state (no `ghostd_schema` table).
    public static func version(_ db: PostgresDatabase) throws -> Int? {
        let exists = try db.query("SELECT to_regclass('ghostd_schema') IS NOT NULL")
        guard exists.text(0, 0) == "t" else { return nil }
        return try db.query("SELECT version FROM ghostd_schema WHERE id = 1").int(0, 0) ?? 0
    }

    /// Whether the database holds any of the store's tables (a state made
    /// by hand, or half of one): a copy is never made over them.
    public static func holdsAnyTable(_ db: PostgresDatabase) throws -> [String] {
        let names = (["ghostd_schema"] + sharedTables).map { "'\($0)'" }.joined(separator: ", ")
        let rows = try db.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname IN (\(names)) ORDER BY 1
            """)
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }

    /// Readies the database for a store: the schema made in one
    /// transaction if it holds no state, else its version checked (a newer
    /// one, or a state made by hand, refused untouched).
    static func prepare(_ db: PostgresDatabase) throws {
        switch try version(db) {
        case nil:
            let found = try holdsAnyTable(db)
            guard found.isEmpty else { throw StoreCopy.Failure.targetHoldsState("\(db.target) has the table(s) \(found.joined(separator: ", ")) but no ghostd_schema") }
            try db.execute("BEGIN")
            do {
                try create(db)
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        case let found? where found > currentVersion:
            throw StoreCopy.Failure.versionMismatch(db.target, found: found, expected: currentVersion)
        case let found? where found < currentVersion:
            guard found >= baselineVersion else {
                throw StoreCopy.Failure.versionMismatch(db.target, found: found, expected: currentVersion)
            }
            try db.execute("BEGIN")
            do {
                for step in migrations[(found - baselineVersion)...] { try db.execute(step) }
                try db.run("UPDATE ghostd_schema SET version = $1 WHERE id = 1", [.of(currentVersion)])
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        default:
            break
        }
        // A state with a table gone (dropped by hand, a partial restore) is
        // damaged: refused, as SQLite's damaged file is, before anything writes.
        let names = sharedTables.map { "'\($0)'" }.joined(separator: ", ")
        let found = try db.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname IN (\(names))
            """)
        let present = Set((0..<found.count).compactMap { found.text($0, 0) })
        let missing = sharedTables.filter { !present.contains($0) }
        guard missing.isEmpty else { throw Damaged(target: db.target, missing: missing) }
    }

    /// A state that lacks some of its tables.
    public struct Damaged: Error, CustomStringConvertible {
        public let target: String
        public let missing: [String]
        public var description: String {
            "\(target) holds a damaged state: it lacks the table(s) \(missing.joined(separator: ", ")); restore it from a backup (pg_restore), or start on an empty database"
        }
    }

    /// Makes the current schema on an empty database, in the open
    /// transaction (the caller's: a copy makes the schema and its rows as
    /// one unit), and records its version.
    static func create(_ db: PostgresDatabase) throws {
        try db.execute(baseline)
        for step in migrations { try db.execute(step) }
        try db.run("INSERT INTO ghostd_schema(id, version) VALUES (1, $1)", [.of(currentVersion)])
    }
}
