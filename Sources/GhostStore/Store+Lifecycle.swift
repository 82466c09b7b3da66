/// What the lobby needs to keep only the games in use in memory (issue #24):
/// a game nobody is at is unloaded and found again here by its token; at
/// start only the games that must tick on their own (on a clock) are loaded.
extension Store {
    /// The game in progress that `token` is a seat's resume token of, with
    /// the moves of its round in play; nil if none. One indexed look-up
    /// (the tokens are indexed): it costs the same whatever the number of games.
    public func activeGame(token: String) throws -> StoredGame? {
        guard !token.isEmpty else { return nil }
        return try loadActive("status = 'active' AND (token0 = ? OR token1 = ?)", .text(token), .text(token)).first
    }

    /// The games in progress on a clock: they end by themselves within their
    /// period, so the server loads them at start to keep their time.
    public func clockedGames() throws -> [StoredGame] {
        try loadActive("status = 'active' AND clock > 0")
    }

    /// The games among `ids` that are still in progress, by id.
    public func activeGames(ids: some Sequence<Int>) throws -> [StoredGame] {
        try ids.sorted().compactMap { try activeGame(id: $0) }
    }
}
