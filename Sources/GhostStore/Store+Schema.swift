/// The schema's versions (the store split by what it stores):
/// each migration takes `PRAGMA user_version` one step, and `migrate` runs
/// the ones a database lacks in one transaction, all or none.
enum Migrations {
    /// Runs the migrations `db` lacks (by its `user_version`), in one
    /// transaction: a failure leaves it as it was.
    static func migrate(_ db: SQLiteDatabase) throws {
        let current = (try db.query("PRAGMA user_version") { $0.int(0) }.first) ?? 0
        guard current < all.count else { return }
        try db.execute("BEGIN IMMEDIATE")
        do {
            for i in current..<all.count {
                try db.execute(all[i])
            }
            try db.execute("PRAGMA user_version = \(all.count)")
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Schema migrations, in order. Entry i takes `user_version` from i to i+1.
    /// Never edit a shipped migration; append a new one.
    static let all: [String] = [
        // 1: players, preferences, games, moves.
        """
        CREATE TABLE players (
            name        TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,  -- as first used
            first_seen  INTEGER NOT NULL,                          -- unix seconds
            last_seen   INTEGER NOT NULL,
            wins        INTEGER NOT NULL DEFAULT 0,                -- finished games won
            played      INTEGER NOT NULL DEFAULT 0                 -- finished games played
        );
        CREATE INDEX players_wins ON players(wins DESC);
        CREATE TABLE preferences (
            player  TEXT NOT NULL COLLATE NOCASE REFERENCES players(name),
            key     TEXT NOT NULL,     -- e.g. 'lang'; defaults live in the code (Preference)
            value   TEXT NOT NULL,
            PRIMARY KEY (player, key)
        ) WITHOUT ROWID;
        CREATE TABLE games (
            id            INTEGER PRIMARY KEY,
            kind          TEXT NOT NULL DEFAULT 'ghost',
            lang          TEXT NOT NULL,
            player0       TEXT NOT NULL,          -- seat 0: moves first in every round
            player1       TEXT NOT NULL,
            token0        TEXT NOT NULL,          -- resume tokens (secret)
            token1        TEXT NOT NULL,
            round         INTEGER NOT NULL DEFAULT 1,
            fragment      TEXT NOT NULL DEFAULT '',
            to_move       INTEGER NOT NULL DEFAULT 0,
            offer_seat    INTEGER,                -- pending restart/lang offer
            offer_kind    TEXT,
            offer_lang    TEXT,
            offer_spent0  INTEGER NOT NULL DEFAULT 0,
            offer_spent1  INTEGER NOT NULL DEFAULT 0,
            status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
            winner        TEXT,
            loser         TEXT,
            reason        TEXT,                   -- word, dead, left, abandoned
            started_at    INTEGER NOT NULL,
            ended_at      INTEGER
        );
        CREATE INDEX games_active ON games(status) WHERE status = 'active';
        CREATE INDEX games_winner ON games(winner COLLATE NOCASE) WHERE status = 'over';
        CREATE TABLE moves (
            game_id   INTEGER NOT NULL REFERENCES games(id),
            round     INTEGER NOT NULL,
            ply       INTEGER NOT NULL,           -- 1 = first letter of the round
            seat      INTEGER NOT NULL,
            letter    TEXT NOT NULL,
            fragment  TEXT NOT NULL,              -- after this letter
            at        INTEGER NOT NULL,
            PRIMARY KEY (game_id, round, ply)
        ) WITHOUT ROWID;
        CREATE VIEW finished_games AS
            SELECT id, lang, player0, player1, winner, loser, reason, fragment,
                   datetime(started_at, 'unixepoch') AS started, datetime(ended_at, 'unixepoch') AS ended
            FROM games WHERE status = 'over';
        """,
        // 2: computer seats, G-H-O-S-T matches, high scores per board.
        """
        ALTER TABLE games ADD COLUMN bot0 TEXT;               -- level when seat 0 is the computer
        ALTER TABLE games ADD COLUMN bot1 TEXT;
        ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'single';  -- 'single' or 'ghost' (a match)
        ALTER TABLE games ADD COLUMN ghost0 INTEGER NOT NULL DEFAULT 0;    -- letters of G-H-O-S-T earned
        ALTER TABLE games ADD COLUMN ghost1 INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN starter INTEGER NOT NULL DEFAULT 0;   -- seat that starts this round
        CREATE TABLE scores (
            player  TEXT NOT NULL COLLATE NOCASE REFERENCES players(name),
            board   TEXT NOT NULL,    -- game, match; vs the computer: easy, medium, hard, easy-match ...
            wins    INTEGER NOT NULL DEFAULT 0,
            played  INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (player, board)
        ) WITHOUT ROWID;
        CREATE INDEX scores_board ON scores(board, wins DESC);
        INSERT INTO scores(player, board, wins, played) SELECT name, 'game', wins, played FROM players WHERE played > 0;
        DROP INDEX players_wins;
        DROP INDEX games_winner;           -- scores now live in their own table
        ALTER TABLE players DROP COLUMN wins;
        ALTER TABLE players DROP COLUMN played;
        DROP VIEW finished_games;
        CREATE VIEW finished_games AS
            SELECT id, mode, lang, player0, coalesce(bot0, '') AS bot0, player1, coalesce(bot1, '') AS bot1,
                   winner, loser, reason, fragment, ghost0, ghost1,
                   datetime(started_at, 'unixepoch') AS started, datetime(ended_at, 'unixepoch') AS ended
            FROM games WHERE status = 'over';
        """,
        // 3: games and moves know no rules. A game is a kind with its variant,
        // settings and seed; a match is a number of rounds and the rounds lost
        // per seat; a move is text. Ghost's columns (fragment, to_move,
        // ghost0/1, mode, moves.letter/fragment) go.
        """
        CREATE TABLE games3 (
            id            INTEGER PRIMARY KEY,
            kind          TEXT NOT NULL,            -- ghost, ...
            variant       TEXT NOT NULL DEFAULT '',
            settings      TEXT NOT NULL DEFAULT '', -- as the kind wrote them
            seed          INTEGER NOT NULL DEFAULT 0,
            lang          TEXT NOT NULL,
            player0       TEXT NOT NULL,
            player1       TEXT NOT NULL,
            token0        TEXT NOT NULL,            -- resume tokens (secret)
            token1        TEXT NOT NULL,
            bot0          TEXT,                     -- level when the seat is the computer
            bot1          TEXT,
            rounds        INTEGER NOT NULL DEFAULT 1,  -- rounds lost that lose the match (1: a single game)
            lost0         INTEGER NOT NULL DEFAULT 0,  -- rounds lost so far
            lost1         INTEGER NOT NULL DEFAULT 0,
            round         INTEGER NOT NULL DEFAULT 1,
            starter       INTEGER NOT NULL DEFAULT 0,  -- seat that starts the round in play
            offer_seat    INTEGER,                     -- pending restart/lang offer
            offer_kind    TEXT,
            offer_lang    TEXT,
            offer_spent0  INTEGER NOT NULL DEFAULT 0,
            offer_spent1  INTEGER NOT NULL DEFAULT 0,
            status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
            winner        TEXT,
            loser         TEXT,
            reason        TEXT,
            final_state   TEXT,                     -- the last public state, as the kind shows it
            started_at    INTEGER NOT NULL,
            ended_at      INTEGER
        );
        INSERT INTO games3(id, kind, lang, player0, player1, token0, token1, bot0, bot1, rounds, lost0, lost1, round, starter,
                           offer_seat, offer_kind, offer_lang, offer_spent0, offer_spent1, status, winner, loser, reason,
                           final_state, started_at, ended_at)
            SELECT id, kind, lang, player0, player1, token0, token1, bot0, bot1, CASE mode WHEN 'ghost' THEN 5 ELSE 1 END,
                   ghost0, ghost1, round, starter, offer_seat, offer_kind, offer_lang, offer_spent0, offer_spent1, status,
                   winner, loser, reason, CASE status WHEN 'over' THEN 'fragment=' || fragment END, started_at, ended_at
            FROM games;
        CREATE TABLE moves3 (
            game_id   INTEGER NOT NULL REFERENCES games3(id),
            round     INTEGER NOT NULL,
            ply       INTEGER NOT NULL,           -- 1 = first move of the round
            seat      INTEGER NOT NULL,
            move      TEXT NOT NULL,              -- as the kind encodes it: a letter is itself
            at        INTEGER NOT NULL,
            PRIMARY KEY (game_id, round, ply)
        ) WITHOUT ROWID;
        INSERT INTO moves3(game_id, round, ply, seat, move, at) SELECT game_id, round, ply, seat, letter, at FROM moves;
        DROP VIEW finished_games;
        DROP TABLE moves;
        DROP TABLE games;
        ALTER TABLE games3 RENAME TO games;
        ALTER TABLE moves3 RENAME TO moves;
        CREATE INDEX games_active ON games(status) WHERE status = 'active';
        CREATE VIEW finished_games AS
            SELECT id, kind, variant, rounds, lang, player0, coalesce(bot0, '') AS bot0, player1, coalesce(bot1, '') AS bot1,
                   winner, loser, reason, final_state, lost0, lost1,
                   datetime(started_at, 'unixepoch') AS started, datetime(ended_at, 'unixepoch') AS ended
            FROM games WHERE status = 'over';
        """,
        // 4: best-games lists, a second kind of high-score board: single
        // finished games ranked by two keys a game kind gives (lower is
        // better), then by game (the earlier first). The store knows no rules:
        // the fields are the kind's, as it wrote them.
        """
        CREATE TABLE best_games (
            board        TEXT NOT NULL,                            -- hangman-evil, ...
            game         INTEGER NOT NULL REFERENCES games(id),
            name         TEXT NOT NULL COLLATE NOCASE,             -- whose entry
            key1         INTEGER NOT NULL,                         -- ranking keys: lower is better
            key2         INTEGER NOT NULL,
            fields       TEXT NOT NULL,                            -- what the list shows: word=peach mistakes=1 ...
            finished_at  INTEGER NOT NULL,                         -- unix seconds
            PRIMARY KEY (board, game)
        ) WITHOUT ROWID;
        CREATE INDEX best_games_rank ON best_games(board, key1, key2, game);
        """,
        // 5: head-to-head records: per game kind and pair of people, how many
        // finished games (a match counts once) each has won against the other,
        // so a game's start reads the pair's record with one look-up. The pair
        // is stored in order, the lower name (case-insensitively) first. Filled
        // from the finished games between people so far.
        """
        CREATE TABLE rivals (
            kind     TEXT NOT NULL,
            player0  TEXT NOT NULL COLLATE NOCASE,   -- the lower of the two names
            player1  TEXT NOT NULL COLLATE NOCASE,
            wins0    INTEGER NOT NULL DEFAULT 0,     -- games player0 won against player1
            wins1    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (kind, player0, player1)
        ) WITHOUT ROWID;
        INSERT INTO rivals(kind, player0, player1, wins0, wins1)
            SELECT kind, min(a), min(b), sum(lower(winner) = lower(a)), sum(lower(winner) = lower(b))
            FROM (SELECT kind, winner,
                         CASE WHEN lower(player0) <= lower(player1) THEN player0 ELSE player1 END AS a,
                         CASE WHEN lower(player0) <= lower(player1) THEN player1 ELSE player0 END AS b
                  FROM games
                  WHERE status = 'over' AND bot0 IS NULL AND bot1 IS NULL AND winner IS NOT NULL
                        AND lower(player0) <> lower(player1))
            GROUP BY kind, lower(a), lower(b);
        """,
        // 6: games on a clock (`NEW clock=<seconds>`): the seconds per move,
        // 0 for none. The time left is not stored: a restart gives the
        // player to move a fresh full period.
        """
        ALTER TABLE games ADD COLUMN clock INTEGER NOT NULL DEFAULT 0;
        """,
        // 7: games kept from watchers (`NEW watch=no`): 0 for such a game,
        // 1 (every game before) for a game anyone may watch.
        """
        ALTER TABLE games ADD COLUMN watch INTEGER NOT NULL DEFAULT 1;
        """,
        // 8: indexes, so that no look-up a command makes grows with the
        // database. A resume token finds its game through a unique index per
        // seat (partial: a seat may have no token, ''; a token that an older
        // database holds twice is kept by its first game only); NAMES walks
        // the names by their last use, and with a prefix the names in
        // alphabetical order with their last use (covering: no look-up in the
        // table per name); SCORES walks a board by wins, then name.
        """
        UPDATE games SET token0 = '' WHERE token0 <> ''
            AND id NOT IN (SELECT min(id) FROM games WHERE token0 <> '' GROUP BY token0);
        UPDATE games SET token1 = '' WHERE token1 <> ''
            AND id NOT IN (SELECT min(id) FROM games WHERE token1 <> '' GROUP BY token1);
        CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '';
        CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '';
        CREATE INDEX players_recent ON players(last_seen DESC, name);
        CREATE INDEX players_prefix ON players(name, last_seen);
        DROP INDEX scores_board;
        CREATE INDEX scores_rank ON scores(board, wins DESC, player);
        """,
        // 9: every game ends. `last_active`: a lower bound on the
        // last time a game in progress was touched (created, left memory; its
        // moves carry their own time), for the sweep that aborts games left
        // untouched (`untouchedGames`). The networks the people played from
        // (an IPv4 address, an IPv6 /64), and indexes on the active games'
        // players and networks, so the caps on games in progress count a few
        // index entries. An index on the games on a clock, the only ones
        // loaded at start.
        """
        ALTER TABLE games ADD COLUMN last_active INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN net0 TEXT NOT NULL DEFAULT '';
        ALTER TABLE games ADD COLUMN net1 TEXT NOT NULL DEFAULT '';
        UPDATE games SET last_active = started_at WHERE status = 'active';
        CREATE INDEX games_untouched ON games(last_active) WHERE status = 'active';
        CREATE INDEX games_clocked ON games(id) WHERE status = 'active' AND clock > 0;
        CREATE INDEX games_active_player0 ON games(player0 COLLATE NOCASE) WHERE status = 'active';
        CREATE INDEX games_active_player1 ON games(player1 COLLATE NOCASE) WHERE status = 'active';
        CREATE INDEX games_active_net0 ON games(net0) WHERE status = 'active' AND net0 <> '';
        CREATE INDEX games_active_net1 ON games(net1) WHERE status = 'active' AND net1 <> '';
        """,
        // 10: registered names. A name with a row here belongs to
        // whoever knows its password: `hash` is libxcrypt's yescrypt string
        // (`$y$…`, salt included; GhostAuth.PasswordHash), never the
        // password. A name without a row is a guest's.
        """
        CREATE TABLE accounts (
            name     TEXT NOT NULL PRIMARY KEY COLLATE NOCASE REFERENCES players(name),
            hash     TEXT NOT NULL,
            created  INTEGER NOT NULL,     -- unix seconds
            changed  INTEGER NOT NULL      -- the last password change
        ) WITHOUT ROWID;
        """,
        // 11: Glicko-2 ratings. One row per registered name and
        // rated board (`ghost`, `ghost-super`, `ghost-challenge`,
        // `hangman-duel`: the kind, then its variant), written only by rated
        // games; the computer has no row (its levels' ratings are fixed in
        // the code). `best_*`: the win over the highest-rated opponent.
        // `listed`: whether the name may appear on TOP (enough games, RD low
        // enough, registered), kept up to date at each write so that TOP is
        // one walk of a partial index. Per game: whether it is rated, and
        // each seat's rating before it and its change (whole points), set at
        // its end. Each seat's finished games, open or private (`watch`),
        // newest first, for HISTORY.
        """
        CREATE TABLE ratings (
            player       TEXT NOT NULL COLLATE NOCASE REFERENCES players(name),
            board        TEXT NOT NULL,
            rating       REAL NOT NULL,
            deviation    REAL NOT NULL,
            volatility   REAL NOT NULL,
            games        INTEGER NOT NULL DEFAULT 0,
            wins         INTEGER NOT NULL DEFAULT 0,
            losses       INTEGER NOT NULL DEFAULT 0,
            last_played  INTEGER NOT NULL,          -- unix seconds
            best_game    INTEGER,                   -- the best win: its game,
            best_opponent TEXT,                     -- opponent,
            best_rating  INTEGER,                   -- and the opponent's rating before it
            listed       INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (player, board)
        ) WITHOUT ROWID;
        CREATE INDEX ratings_top ON ratings(board, rating DESC, player) WHERE listed = 1;
        ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN rating0 INTEGER;   -- seat 0's rating before the game (rated games)
        ALTER TABLE games ADD COLUMN rating1 INTEGER;
        ALTER TABLE games ADD COLUMN change0 INTEGER;   -- seat 0's rating change, set at the end
        ALTER TABLE games ADD COLUMN change1 INTEGER;
        CREATE INDEX games_history0 ON games(player0 COLLATE NOCASE, watch, ended_at DESC, id DESC) WHERE status = 'over';
        CREATE INDEX games_history1 ON games(player1 COLLATE NOCASE, watch, ended_at DESC, id DESC) WHERE status = 'over';
        """,
        // 12: fewer indexes on games: each one a game is in is
        // written when it starts and again when it ends, and is one more
        // page in the commit. `games_active` held the same rows as
        // `games_untouched` (every game in progress), and its one reader,
        // the load of every game in progress, reads that one instead. The
        // seats of the games in progress (names, networks) for the caps and
        // NAME are kept in memory, read at start (ActiveSeats.swift), and
        // with them whether each is on a clock: `games_clocked` goes too.
        """
        DROP INDEX games_active;
        DROP INDEX games_active_player0;
        DROP INDEX games_active_player1;
        DROP INDEX games_active_net0;
        DROP INDEX games_active_net1;
        DROP INDEX games_clocked;
        """,
        // 13: moves without a foreign key to games: SQLite
        // looked the game up at every letter's INSERT (a second
        // search of a table, every letter) to check a thing the
        // store already makes sure of: a move is written only by
        // `recordMove`, for a game the lobby holds in progress, which was
        // created by `createGame` in this turn or a committed one; no game is
        // ever deleted, so no move can lose its game either. (The check
        // caught only an unknown id, never a move for a finished game.)
        // SQLite cannot drop a constraint: the table is copied once, here.
        """
        CREATE TABLE moves13 (
            game_id   INTEGER NOT NULL,           -- games(id): checked by the store, not by SQLite
            round     INTEGER NOT NULL,
            ply       INTEGER NOT NULL,           -- 1 = first move of the round
            seat      INTEGER NOT NULL,
            move      TEXT NOT NULL,              -- as the kind encodes it: a letter is itself
            at        INTEGER NOT NULL,
            PRIMARY KEY (game_id, round, ply)
        ) WITHOUT ROWID;
        INSERT INTO moves13(game_id, round, ply, seat, move, at) SELECT game_id, round, ply, seat, move, at FROM moves;
        DROP TABLE moves;
        ALTER TABLE moves13 RENAME TO moves;
        """,
        // 14: resume tokens that name their game: 12 hex digits
        // of `id * 2 + seat`, then 80 random bits; the row stores `~` and
        // the secret (ResumeTokens.swift), and RESUME reads it by its id.
        // The token indexes keep only the tokens issued before (`< '~'`:
        // every hex digit is below it), so a new game's INSERT writes no
        // token index (two random keys, two more pages a commit). The
        // tokens already issued keep working through them.
        """
        DROP INDEX games_token0;
        DROP INDEX games_token1;
        CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '' AND token0 < '~';
        CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '' AND token1 < '~';
        """,
        // 15: time the daemon was down does not count toward
        // `--abandon-after` (DowntimeStore.swift). `alive_at`:
        // the last moment the daemon was known to run (written at its start,
        // by each sweep of untouched games, at most a minute apart, and at a
        // clean stop); NULL in a new database. Each start after a gap adds an
        // outage: when the daemon `resumed`, and the seconds it had been
        // `down` in all by then. A database from before this schema holds
        // games whose daemon's running time is unknown: every second before
        // the upgrade counts as down (its games get a whole `--abandon-after`
        // of running time from the upgrade). One row each, no scan of games.
        // `move_journal` (JournalScan.swift): the name of the move
        // journal the database expects, which its file's header carries, and
        // whether ghostd stopped cleanly, so that a journal that is missing,
        // emptied or another's is refused at start instead of losing
        // acknowledged moves. (Whether a damaged line was folded in already
        // is read from the tables: JournalRecovery.swift.)
        """
        CREATE TABLE running (
            id        INTEGER PRIMARY KEY CHECK (id = 1),
            alive_at  INTEGER                 -- unix seconds; NULL: never run
        );
        CREATE TABLE outages (
            resumed   INTEGER PRIMARY KEY,    -- unix seconds: the daemon started again
            down      INTEGER NOT NULL        -- seconds down in all, this outage and every earlier one
        );
        INSERT INTO running(id, alive_at)
            SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM games) THEN CAST(strftime('%s', 'now') AS INTEGER) END;
        INSERT INTO outages(resumed, down)
            SELECT alive_at, alive_at FROM running WHERE alive_at IS NOT NULL;
        CREATE TABLE move_journal (
            id     INTEGER PRIMARY KEY CHECK (id = 1),
            ident  TEXT,                      -- the journal its file's header must name; NULL: none made yet
            clean  INTEGER NOT NULL DEFAULT 0 -- 1: ghostd stopped with every line folded: a missing file loses nothing
        );
        INSERT INTO move_journal(id, ident, clean) VALUES (1, NULL, 0);
        """,
        // 16: a rating measures people. An older ghostd
        // rated games against the computer; they become unrated,
        // and if there were any, every rating is computed again from the
        // rated games between people (`replay-ratings`: the server does it
        // at its next start, RatingsReplay.swift; the store knows no formulas).
        """
        CREATE TABLE upgrade_work (
            name  TEXT PRIMARY KEY            -- work a migration leaves to the server's start
        ) WITHOUT ROWID;
        INSERT INTO upgrade_work(name)
            SELECT 'replay-ratings' WHERE EXISTS (SELECT 1 FROM games WHERE rated = 1 AND (bot0 IS NOT NULL OR bot1 IS NOT NULL));
        UPDATE games SET rated = 0, rating0 = NULL, rating1 = NULL, change0 = NULL, change1 = NULL
            WHERE rated = 1 AND (bot0 IS NOT NULL OR bot1 IS NOT NULL);
        """,
        // 17: between people (SocialStore.swift). Who follows whom and who
        // blocks whom (registered names' own lists, read whole at login:
        // each bounded by the server's --max-follows and --max-blocks),
        // reports for the operator (chat is stored only inside one), and
        // the operator's mutes and bans, of a name or of a network.
        """
        CREATE TABLE follows (
            follower  TEXT NOT NULL COLLATE NOCASE,
            followee  TEXT NOT NULL COLLATE NOCASE,
            since     INTEGER NOT NULL,
            PRIMARY KEY (follower, followee)
        ) WITHOUT ROWID;
        CREATE TABLE blocks (
            blocker  TEXT NOT NULL COLLATE NOCASE,
            blocked  TEXT NOT NULL COLLATE NOCASE,
            since    INTEGER NOT NULL,
            PRIMARY KEY (blocker, blocked)
        ) WITHOUT ROWID;
        CREATE TABLE reports (
            id        INTEGER PRIMARY KEY,
            reporter  TEXT NOT NULL COLLATE NOCASE,
            reported  TEXT NOT NULL COLLATE NOCASE,
            at        INTEGER NOT NULL,
            game_id   INTEGER,                  -- the game they shared, if any
            reason    TEXT NOT NULL,
            chat      TEXT NOT NULL DEFAULT ''  -- the reported name's last lines to the reporter, one a line
        );
        CREATE INDEX reports_by_reporter ON reports(reporter, at);
        CREATE TABLE sanctions (
            kind    TEXT NOT NULL CHECK (kind IN ('mute', 'ban', 'ban-network')),
            target  TEXT NOT NULL COLLATE NOCASE,   -- a name, or a network's key (NetworkKey)
            until   INTEGER,                        -- unix seconds; NULL: until lifted
            at      INTEGER NOT NULL,
            PRIMARY KEY (kind, target)
        ) WITHOUT ROWID;
        """,
    ]

}

extension Store {
    /// The schema this build makes and knows the newest of.
    public static var schemaVersion: Int { Migrations.all.count }
}
