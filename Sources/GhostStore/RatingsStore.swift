/// One name's Glicko-2 rating on one board (schema 11), on the Glicko
/// scale, with its record there. The store knows no formulas: the server
/// computes, the store keeps.
public struct StoredRating: Sendable, Equatable {
    public var name: String
    /// `ghost`, `ghost-super`, `ghost-challenge`, `hangman-duel`.
    public var board: String
    public var rating: Double
    public var deviation: Double
    public var volatility: Double
    public var games = 0
    public var wins = 0
    public var losses = 0
    /// Unix seconds of the last rated game (RD widens from here).
    public var lastPlayed = 0
    /// The win over the highest-rated opponent.
    public var best: BestWin?

    public init(name: String, board: String, rating: Double, deviation: Double, volatility: Double,
                games: Int = 0, wins: Int = 0, losses: Int = 0, lastPlayed: Int = 0, best: BestWin? = nil) {
        self.name = name
        self.board = board
        self.rating = rating
        self.deviation = deviation
        self.volatility = volatility
        self.games = games
        self.wins = wins
        self.losses = losses
        self.lastPlayed = lastPlayed
        self.best = best
    }
}

/// A rated win: the game, the opponent, and the opponent's rating before it.
public struct BestWin: Sendable, Equatable {
    public var game: Int
    public var opponent: String
    public var rating: Int
    public init(game: Int, opponent: String, rating: Int) {
        self.game = game
        self.opponent = opponent
        self.rating = rating
    }
}

/// One finished game as HISTORY lists it.
public struct HistoryRow: Sendable, Equatable {
    public var id: Int
    public var kind: String
    public var variant: String
    public var players: [String]
    public var winner: String?
    public var loser: String?
    public var reason: String
    /// Per seat: the rating change of a rated game (nil: unrated).
    public var changes: [Int?]
    public var endedAt: Int
    /// Whether others may see it (false: `NEW watch=no`).
    public var open: Bool
    /// Its language (the stored game's `lang`: the one it ended in).
    public var lang: String
    /// Rounds a seat may lose before it loses (1: a single game; more: a match).
    public var rounds: Int = 1
    /// Whether it ended in a draw: over with no winner, and not aborted.
    public var drawn: Bool = false
}

/// Ratings (schema 11; the store split by what it stores): each
/// name's Glicko-2 rating per board, a rated game's ratings and changes on
/// its row, and HISTORY's walk of a name's finished games. `Store` owns one
/// over its connection, and the server calls it as `Store.ratingStore` (a
/// rated game's row is the game store's: Store+Ratings.swift); it writes
/// only inside `Store`'s transaction (`willWrite`).
public final class RatingsStore {
    let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}

    init(db: StoreDB) {
        self.db = db
    }

    // Each call one primary-key look-up, or a LIMITed walk of an index.

    private static let ratingColumns = """
        player, board, rating, deviation, volatility, games, wins, losses, last_played, best_game, best_opponent, best_rating
        """

    private static func storedRating(_ r: Row) -> StoredRating {
        StoredRating(name: r.text(0), board: r.text(1), rating: r.double(2), deviation: r.double(3), volatility: r.double(4),
                     games: r.int(5), wins: r.int(6), losses: r.int(7), lastPlayed: r.int(8),
                     best: r.optionalInt(9).map { BestWin(game: $0, opponent: r.text(10), rating: r.int(11)) })
    }


    /// The rating of `name` (any case) on `board`, nil if it has never played a rated game there.
    public func rating(of name: String, board: String) throws -> StoredRating? {
        try db.query("SELECT \(RatingsStore.ratingColumns) FROM ratings WHERE player = ? AND board = ?", .text(name), .text(board),
                     row: RatingsStore.storedRating).first
    }

    /// Every rating of `name`, by board (a walk of the primary key; a name
    /// has at most one row per rated board, and at most `limit` are read).
    public func ratings(of name: String, limit: Int) throws -> [StoredRating] {
        try db.query("SELECT \(RatingsStore.ratingColumns) FROM ratings WHERE player = ? ORDER BY board LIMIT ?",
                     .text(name), .of(max(0, limit)), row: RatingsStore.storedRating)
    }

    /// Writes a rating (new or replaced); `listed`: whether it may be on TOP.
    public func saveRating(_ r: StoredRating, listed: Bool) throws {
        try willWrite()
        try db.run("""
            INSERT INTO ratings(\(RatingsStore.ratingColumns), listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(player, board) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
                volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, losses = excluded.losses,
                last_played = excluded.last_played, best_game = excluded.best_game, best_opponent = excluded.best_opponent,
                best_rating = excluded.best_rating, listed = excluded.listed
            """, .text(r.name), .text(r.board), .real(r.rating), .real(r.deviation), .real(r.volatility),
                   .of(r.games), .of(r.wins), .of(r.losses), .of(r.lastPlayed),
                   .of(r.best?.game), .of(r.best?.opponent), .of(r.best?.rating), .of(listed ? 1 : 0))
    }

    /// Takes a name off TOP on every board (its account is gone).
    public func unlistRatings(of name: String) throws {
        try willWrite()
        try db.run("UPDATE ratings SET listed = 0 WHERE player = ?", .text(name))
    }

    /// The leaders of a board, best first: at most `limit` of the names
    /// listed there (a walk of the partial index `ratings_top`).
    public func topRatings(board: String, limit: Int) throws -> [StoredRating] {
        try db.query("SELECT \(RatingsStore.ratingColumns) FROM ratings WHERE board = ? AND listed = 1 ORDER BY rating DESC, player LIMIT ?",
                     .text(board), .of(max(0, limit)), row: RatingsStore.storedRating)
    }

    /// The finished games of `name` (any case), newest first, at most
    /// `limit`; its private ones (`watch=no`) only with `includePrivate`.
    /// Walks the indexes `games_history0`/`games_history1`, at most `limit`
    /// entries of each seat and kind of game (open, private). An aborted
    /// game's reason is why (`no-first-move`, `untouched`, `left`: what its
    /// `ABORTED` said, kept in `final_state`), not the stored `aborted`.
    public func history(of name: String, includePrivate: Bool, limit: Int) throws -> [HistoryRow] {
        let n = max(0, limit)
        var rows: [HistoryRow] = []
        for seat in 0..<2 {
            for open in includePrivate ? [1, 0] : [1] {
                rows += try db.query("""
                    SELECT id, kind, variant, player0, player1, winner, loser,
                           CASE WHEN reason = '\(Store.abortedReason)' AND final_state LIKE 'abort=%' THEN substr(final_state, 7)
                                ELSE coalesce(reason, '') END,
                           change0, change1,
                           coalesce(ended_at, 0), watch, lang, rounds,
                           winner IS NULL AND coalesce(reason, '') <> '\(Store.abortedReason)'
                    FROM games WHERE status = 'over' AND player\(seat) = ? COLLATE NOCASE AND watch = ?
                    ORDER BY ended_at DESC, id DESC LIMIT ?
                    """, .text(name), .of(open), .of(n)) { r in
                    HistoryRow(id: r.int(0), kind: r.text(1), variant: r.text(2), players: [r.text(3), r.text(4)],
                               winner: r.optionalText(5), loser: r.optionalText(6), reason: r.text(7),
                               changes: [r.optionalInt(8), r.optionalInt(9)], endedAt: r.int(10), open: r.int(11) != 0,
                               lang: r.text(12), rounds: r.int(13), drawn: r.int(14) != 0)
                }
            }
        }
        var seen = Set<Int>()
        return Array(rows.sorted { ($0.endedAt, $0.id) > ($1.endedAt, $1.id) }.filter { seen.insert($0.id).inserted }.prefix(n))
    }
}
