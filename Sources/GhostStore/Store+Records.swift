extension Store {
    // MARK: Head-to-head records

    /// How many finished games of `kind` each of two people has won against
    /// the other (a match counts once): `a`'s wins, then `b`'s. One look-up.
    public func headToHead(kind: String, _ a: String, _ b: String) throws -> (Int, Int) {
        let swapped = a.lowercased() > b.lowercased()
        let (first, second) = swapped ? (b, a) : (a, b)
        let row = try db.first(SQLs.headToHead, kind, first, second) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        return swapped ? (row.1, row.0) : row
    }

    /// Counts a finished game of `kind` between two people in their head-to-head record.
    public func recordHeadToHead(kind: String, winner: String, loser: String) throws {
        guard winner.lowercased() != loser.lowercased() else { return }
        try write()
        let winnerFirst = winner.lowercased() < loser.lowercased()
        try db.run(SQLs.recordHeadToHead, kind, winnerFirst ? winner : loser, winnerFirst ? loser : winner,
                   winnerFirst ? 1 : 0, winnerFirst ? 0 : 1)
    }

    // MARK: Best-games lists

    /// Records a finished game's entry on a best-games list (`board`), under
    /// `name`, ranked by `key1`, then `key2` (lower is better), then by game.
    /// `fields` are what the list shows, as the game kind wrote them.
    /// Recording the same game on the same board again replaces its entry.
    public func recordBestGame(board: String, game: Int, name: String, key1: Int, key2: Int, fields: String, now: Int) throws {
        try write()
        try db.run(SQLs.recordBestGame, board, game, name, key1, key2, fields, now)
    }

    /// The best `limit` entries of a best-games list, best first, with their
    /// places: 1, 2, 3 … (entries equal on both keys are ranked by game, the
    /// earlier first, so no two share a place). Read from the ranking index.
    public func bestGames(board: String, limit: Int) throws -> [BestGameRow] {
        var rank = 0
        return try db.query("SELECT game, name, fields FROM best_games WHERE board = ? ORDER BY key1, key2, game LIMIT ?",
                            .text(board), .of(limit)) { r in
            rank += 1
            return BestGameRow(rank: rank, game: r.int(0), name: r.text(1), fields: r.text(2))
        }
    }

    /// The place of `game`'s entry on a best-games list, or nil if it has
    /// none there. With `within`, nil too when it is not among the best
    /// `within` entries: that reads at most `within` rows of the index;
    /// without, it counts the entries ranked above it.
    public func bestGameRank(board: String, game: Int, within limit: Int? = nil) throws -> Int? {
        if let limit {
            let games = try db.query("SELECT game FROM best_games WHERE board = ? ORDER BY key1, key2, game LIMIT ?",
                                     .text(board), .of(limit)) { $0.int(0) }
            return games.firstIndex(of: game).map { $0 + 1 }
        }
        return try db.query("""
            SELECT (SELECT count(*) FROM best_games b WHERE b.board = g.board AND (b.key1, b.key2, b.game) < (g.key1, g.key2, g.game)) + 1
            FROM best_games g WHERE g.board = ? AND g.game = ?
            """, .text(board), .of(game)) { $0.int(0) }.first
    }

    /// A name's wins and games on a board, as stored (rank not filled in).
}
