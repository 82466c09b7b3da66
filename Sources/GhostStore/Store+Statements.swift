extension Array {
    /// The element at `i`, or nil when out of range.
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// The statements of the store's hot paths (every letter, every game's start
/// and end), prepared once per connection and found by slot, not by text.
enum SQLs {
    /// Deferred: the turn's first write takes the write lock (BEGIN
    /// IMMEDIATE took the read snapshot and the lock at BEGIN, and the
    /// write took them again, every turn). ghostd is
    /// the database's only writer (DataFolderLock), so no other writer can
    /// commit between a turn's first read and its first write.
    static let begin = SQL("BEGIN")
    static let savepoint = SQL("SAVEPOINT command")
    static let release = SQL("RELEASE command")
    static let commit = SQL("COMMIT")
    /// A game's row as its start makes it (GamesStore.createGame): at once
    /// in a transaction, else when a start waiting in the journal is folded.
    static let insertGame = SQL(gameRowInsert("INSERT"))
    /// A start waiting in the journal, folded, or found in its file when the
    /// database opens: it may be stored already (folded before the file was
    /// emptied, or, in tests, by a second store on the same folder), and, as
    /// with the moves' fold, a row already there must not fail every later
    /// fold.
    static let recoverGame = SQL(gameRowInsert("INSERT OR IGNORE"))
    /// A game whose start waits in the journal, ended before its row was
    /// inserted (`GamesStore.finish`): its row as `insertGame` then
    /// `finishGame` leave it, in one INSERT (the UPDATE rewrote the row
    /// just inserted, and took it out of the index of untouched games); if
    /// the row is there after all (see `recoverGame`), the UPDATE's changes.
    static let insertFinishedGame = SQL("""
        INSERT INTO games(\(startColumns), status, winner, loser, reason, final_state, ended_at, lost0, lost1)
        VALUES (\(startValues), 'over', ?, ?, ?, ?, ?, coalesce(?, 0), coalesce(?, 0))
        ON CONFLICT(id) DO UPDATE SET status = 'over', winner = excluded.winner, loser = excluded.loser, reason = excluded.reason,
            final_state = excluded.final_state, ended_at = excluded.ended_at, lost0 = excluded.lost0, lost1 = excluded.lost1,
            offer_seat = NULL, offer_kind = NULL, offer_lang = NULL
        """)
    /// The columns a game's start sets, in the order `GamesStore.bindStart` binds them.
    private static let startColumns = """
        id, kind, variant, settings, seed, lang, player0, player1, token0, token1, bot0, bot1, rounds, starter, started_at, clock, watch,
        last_active, net0, net1
        """
    private static let startValues = repeatElement("?", count: 20).joined(separator: ", ")
    private static func gameRowInsert(_ verb: String) -> String {
        "\(verb) INTO games(\(startColumns)) VALUES (\(startValues))"
    }
    static let recordMove = SQL("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)")
    static let finishGame = SQL("UPDATE games SET status = 'over', winner = ?, loser = ?, reason = ?, final_state = ?, ended_at = ?, lost0 = coalesce(?, lost0), lost1 = coalesce(?, lost1), offer_seat = NULL, offer_kind = NULL, offer_lang = NULL WHERE id = ?")
    /// A finished game on a board (`ScoresStore.count`): an UPDATE of the
    /// row, which a loss makes without touching `wins`, so without moving
    /// the row in `scores_rank`; the INSERT only when there was no row (an
    /// upsert always set `wins`, and tried the INSERT first).
    static let countWin = SQL("UPDATE scores SET wins = wins + 1, played = played + 1 WHERE player = ? AND board = ?")
    static let countLoss = SQL("UPDATE scores SET played = played + 1 WHERE player = ? AND board = ?")
    static let firstScore = SQL("INSERT INTO scores(player, board, wins, played) VALUES (?, ?, ?, 1)")
    /// PostgreSQL's count of a finished game: one upsert, as the pipeline
    /// would wait for the UPDATE's count of rows before the INSERT (a round
    /// trip in the turn; BENCHMARKS.md, issue #48).
    static let countScore = SQL("""
        INSERT INTO scores(player, board, wins, played) VALUES (?, ?, ?, 1)
        ON CONFLICT(player, board) DO UPDATE SET wins = scores.wins + excluded.wins, played = scores.played + 1
        """)
    static let score = SQL("SELECT p.name, coalesce(s.wins, 0), coalesce(s.played, 0) FROM players p LEFT JOIN scores s ON s.player = p.name AND s.board = ? WHERE p.name = ?")
    static let noteStarted = SQL("UPDATE games SET last_active = ?, net0 = ?, net1 = ? WHERE id = ?")
    static let touchGame = SQL("UPDATE games SET last_active = max(last_active, ?) WHERE id = ? AND status = 'active'")
    static let headToHead = SQL("SELECT wins0, wins1 FROM rivals WHERE kind = ? AND player0 = ? AND player1 = ?")
    /// A finished game in a head-to-head record: an UPDATE of the
    /// winner's column, the INSERT only for the pair's first game.
    static let headToHeadWin0 = SQL("UPDATE rivals SET wins0 = wins0 + 1 WHERE kind = ? AND player0 = ? AND player1 = ?")
    static let headToHeadWin1 = SQL("UPDATE rivals SET wins1 = wins1 + 1 WHERE kind = ? AND player0 = ? AND player1 = ?")
    static let firstHeadToHead = SQL("INSERT INTO rivals(kind, player0, player1, wins0, wins1) VALUES (?, ?, ?, ?, ?)")
    /// PostgreSQL's head-to-head count: one upsert (see `countScore`).
    static let countHeadToHead = SQL("""
        INSERT INTO rivals(kind, player0, player1, wins0, wins1) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(kind, player0, player1) DO UPDATE SET wins0 = rivals.wins0 + excluded.wins0, wins1 = rivals.wins1 + excluded.wins1
        """)
    static let recordBestGame = SQL("""
        INSERT INTO best_games(board, game, name, key1, key2, fields, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(board, game) DO UPDATE SET name = excluded.name, key1 = excluded.key1, key2 = excluded.key2,
                                               fields = excluded.fields, finished_at = excluded.finished_at
        """)
    /// A move found in the journal's file when the database opens: it may
    /// have been folded already (MoveJournal.swift).
    static let recoverMove = SQL("INSERT OR IGNORE INTO moves(game_id, round, ply, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)")
    /// The journal's moves (MoveJournal.swift) go in by up to
    /// `foldRows` a statement: entry n inserts n + 1 rows. A statement
    /// costs a step and a reset besides its rows. `OR IGNORE`: a
    /// move at a place already stored (which the engine never makes: it
    /// numbers a round's moves) must not fail every later fold.
    static let foldRows = 8
    static let foldMoves: [SQL] = (1...foldRows).map { n in
        SQL("INSERT OR IGNORE INTO moves(game_id, round, ply, seat, move, at) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?)", count: n).joined(separator: ", "))
    }
}
