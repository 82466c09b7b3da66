/// The ratings' part of `Store`'s API, answered by its `RatingsStore`.
extension Store {
    /// The rating of `name` (any case) on `board`, nil if it has never played a rated game there.
    public func rating(of name: String, board: String) throws -> StoredRating? {
        try ratingStore.rating(of: name, board: board)
    }

    /// Every rating of `name`, by board (a walk of the primary key; a name
    /// has at most one row per rated board, and at most `limit` are read).
    public func ratings(of name: String, limit: Int) throws -> [StoredRating] {
        try ratingStore.ratings(of: name, limit: limit)
    }

    /// Writes a rating (new or replaced); `listed`: whether it may be on TOP.
    public func saveRating(_ r: StoredRating, listed: Bool) throws {
        try ratingStore.saveRating(r, listed: listed)
    }

    /// Takes a name off TOP on every board (its account is gone).
    public func unlistRatings(of name: String) throws {
        try ratingStore.unlistRatings(of: name)
    }

    /// The leaders of a board, best first: at most `limit` of the names
    /// listed there (a walk of the partial index `ratings_top`).
    public func topRatings(board: String, limit: Int) throws -> [StoredRating] {
        try ratingStore.topRatings(board: board, limit: limit)
    }

    /// The game is rated; each seat's rating before it (whole points; nil
    /// for a seat that has none, which never happens in a rated game).
    public func markRated(game: Int, ratings: [Int?]) throws {
        try gameStore.markRated(game: game, ratings: ratings)
    }

    /// Whether a game is rated (one primary-key look-up).
    public func isRated(game: Int) throws -> Bool {
        try gameStore.isRated(game: game)
    }

    /// Each seat's rating change at the end of a rated game (nil: the computer's seat).
    public func setRatingChanges(game: Int, changes: [Int?]) throws {
        try gameStore.setRatingChanges(game: game, changes: changes)
    }

    /// The finished games of `name` (any case), newest first, at most
    /// `limit`; its private ones (`watch=no`) only with `includePrivate`.
    /// Walks the indexes `games_history0`/`games_history1`, at most `limit`
    /// entries of each seat and kind of game (open, private).
    public func history(of name: String, includePrivate: Bool, limit: Int) throws -> [HistoryRow] {
        try ratingStore.history(of: name, includePrivate: includePrivate, limit: limit)
    }

    /// Whether the ratings must be computed again (schema 16 found games
    /// against the computer rated, and made them unrated): RatingsStore+Replay.swift.
    public func ratingsReplayNeeded() throws -> Bool {
        try ratingStore.ratingsReplayNeeded()
    }

    /// Every finished rated game with a winner, in the order they ended.
    public func ratedGames() throws -> [RatedGame] {
        try ratingStore.ratedGames()
    }

    /// Every rating replaced by `ratings` (each with whether it may be on
    /// TOP), and each replayed game's ratings before it and changes, in the
    /// turn's transaction (commit after); the replay's work is done.
    public func replaceRatings(_ ratings: [(rating: StoredRating, listed: Bool)],
                               games: [(id: Int, before: [Int], changes: [Int])]) throws {
        try ratingStore.replaceRatings(ratings, games: games)
    }
}
