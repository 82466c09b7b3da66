/// A finished rated game between two people, as the ratings' replay reads it.
public struct RatedGame: Sendable, Equatable {
    public var id: Int
    public var kind: String
    public var variant: String
    public var players: [String]
    public var winner: String
    /// Unix seconds.
    public var endedAt: Int
}

/// The ratings computed again from the rated games between people (schema
/// 16: an older ghostd rated games against the computer). Run
/// once, at the first start after the upgrade, and only if there were such
/// games: the one read here that grows with the database (every rated game),
/// which nothing a client sends can cause.
extension RatingsStore {
    /// Whether the ratings must be computed again (schema 16 found games
    /// against the computer rated, and made them unrated).
    public func ratingsReplayNeeded() throws -> Bool {
        try !db.query("SELECT 1 FROM upgrade_work WHERE name = 'replay-ratings'") { $0.int(0) }.isEmpty
    }

    /// Every finished rated game with a winner, in the order they ended.
    public func ratedGames() throws -> [RatedGame] {
        try db.query("""
            SELECT id, kind, variant, player0, player1, winner, ended_at FROM games
            WHERE rated = 1 AND status = 'over' AND winner IS NOT NULL AND bot0 IS NULL AND bot1 IS NULL
            ORDER BY ended_at, id
            """) { r in
            RatedGame(id: r.int(0), kind: r.text(1), variant: r.text(2), players: [r.text(3), r.text(4)],
                      winner: r.text(5), endedAt: r.int(6))
        }
    }

    /// Every rating replaced by `ratings` (each with whether it may be on
    /// TOP), and each replayed game's ratings before it and changes, in the
    /// turn's transaction (commit after); the replay's work is done.
    public func replaceRatings(_ ratings: [(rating: StoredRating, listed: Bool)],
                               games: [(id: Int, before: [Int], changes: [Int])]) throws {
        try willWrite()
        try db.run("DELETE FROM ratings")
        for (r, listed) in ratings { try saveRating(r, listed: listed) }
        for g in games {
            try db.run("UPDATE games SET rating0 = ?, rating1 = ?, change0 = ?, change1 = ? WHERE id = ?",
                       .of(g.before[safe: 0]), .of(g.before[safe: 1]), .of(g.changes[safe: 0]), .of(g.changes[safe: 1]), .of(g.id))
        }
        try db.run("DELETE FROM upgrade_work WHERE name = 'replay-ratings'")
    }
}
