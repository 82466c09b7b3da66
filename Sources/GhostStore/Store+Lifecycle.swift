/// What the lobby needs to keep only the games in use in memory (issue #24):
/// a game nobody is at is unloaded and found again here by its token; at
/// start only the games that must tick on their own (on a clock) are loaded.
extension Store {
    /// The game in progress that `token` is a seat's resume token of, with
    /// the moves of its round in play; nil if none. One look-up in each
    /// seat's token index, then the game by its id: it costs the same
    /// whatever the number of games. (The token indexes are partial, `<> ''`:
    /// SQLite uses them only when the query says so too; `token0 = ?` alone
    /// walked every game in progress, measured at 10,000 of them as most of
    /// the loop's time under a flood of RESUMEs of random tokens.)
    public func activeGame(token: String) throws -> StoredGame? {
        guard !token.isEmpty else { return nil }
        guard let id = try db.query("""
            SELECT id FROM games
            WHERE status = 'active' AND ((token0 = ? AND token0 <> '') OR (token1 = ? AND token1 <> '')) LIMIT 1
            """, .text(token), .text(token), row: { $0.int(0) }).first else { return nil }
        return try activeGame(id: id)
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

extension Store {
    /// The reason an aborted game is stored with; the why is in its
    /// `final_state` as `abort=<why>`.
    public static let abortedReason = "aborted"

    /// Ends a game in progress with no winner, no loser and no score (no
    /// board, no best-games entry, no head-to-head): status `over`, reason
    /// `aborted`, `final_state` `abort=<why>`. Returns whether it was in progress.
    @discardableResult
    public func abortGame(game: Int, why: String, now: Int) throws -> Bool {
        try write()
        try endActive(game: game)
        try db.run("UPDATE games SET status = 'over', winner = NULL, loser = NULL, reason = ?, final_state = ?, ended_at = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL WHERE id = ? AND status = 'active'",
                   .text(Store.abortedReason), .text("abort=" + why), .of(now), .of(game))
        return db.changes > 0
    }
}

extension Store {
    /// A new game's networks (the people's: an IPv4 address or an IPv6 /64
    /// prefix, "" for the computer or an unknown peer) and its first moment
    /// of activity. Called in the same turn as `createGame`.
    public func noteStarted(game: Int, networks: [String], now: Int) throws {
        try write()
        try db.run(SQLs.noteStarted, now, networks[safe: 0] ?? "", networks[safe: 1] ?? "", game)
        activeCounts.forgetAll()   // the game's networks were others (or none) until now
    }

    /// The networks a game's seats started from, as `noteStarted` stored
    /// them ("" for the computer, an unknown peer, or a game from before
    /// schema 9): one primary-key look-up. Empty if there is no such game.
    public func gameNetworks(game: Int) throws -> [String] {
        try db.query("SELECT net0, net1 FROM games WHERE id = ?", .of(game)) { [$0.text(0), $0.text(1)] }.first ?? []
    }

    /// The game was touched at `now`: it leaves memory (a RESUME or its moves
    /// kept it there), or the sweep finds it in use.
    public func touchGame(game: Int, at now: Int) throws {
        try write()
        try db.run(SQLs.touchGame, now, game)
    }

    /// At most `limit` games in progress whose `last_active` is before
    /// `cutoff`, the longest untouched first, each with the time of its
    /// last move (nil if none): an index range, whatever the number of games
    /// (`INDEXED BY`: without statistics SQLite took the index on `status`
    /// and sorted every game in progress).
    public func untouchedGames(before cutoff: Int, limit: Int) throws -> [(id: Int, lastActive: Int, lastMove: Int?)] {
        try db.query("""
            SELECT id, last_active, (SELECT max(at) FROM moves WHERE game_id = games.id) FROM games INDEXED BY games_untouched
            WHERE status = 'active' AND last_active < ? ORDER BY last_active LIMIT ?
            """, .of(cutoff), .of(max(0, limit))) { (id: $0.int(0), lastActive: $0.int(1), lastMove: $0.optionalInt(2)) }
    }
}

extension Store {
    /// How many games in progress `name` (any case) plays in, counting at
    /// most `limit` per seat: two bounded index ranges.
    public func activeGameCount(player name: String, limit: Int) throws -> Int {
        let key = ActiveGameCounts.Key.player(ActiveGameCounts.folded(name))
        if let n = activeCounts.count(key, below: limit) { return n }
        let n = try db.first(SQLs.gamesOfPlayer, name, limit, name, limit) { $0.int(0) } ?? 0
        activeCounts.read(key, n, limit: limit)
        return n
    }

    /// How many games in progress a person from `network` plays in (a game
    /// with both seats from it counts once), at most about `limit`.
    public func activeGameCount(network: String, limit: Int) throws -> Int {
        guard !network.isEmpty else { return 0 }
        let key = ActiveGameCounts.Key.network(network)
        if let n = activeCounts.count(key, below: limit) { return n }
        let n = try db.first(SQLs.gamesOfNetwork, network, limit, network, network, limit) { $0.int(0) } ?? 0
        activeCounts.read(key, n, limit: limit)
        return n
    }
}

extension Store {
    /// The games in progress `name` (any case) has a seat in, with the seat,
    /// at most `limit` per seat: two bounded ranges of the active-player
    /// indexes. (Whether a guest may take a name: not while one of its seats
    /// waits for its player to come back with RESUME; issue #26.)
    public func activeSeats(player name: String, limit: Int) throws -> [(game: Int, seat: Int)] {
        try db.query("""
            SELECT id, 0 FROM (SELECT id FROM games WHERE status = 'active' AND player0 = ? COLLATE NOCASE LIMIT ?)
            UNION ALL
            SELECT id, 1 FROM (SELECT id FROM games WHERE status = 'active' AND player1 = ? COLLATE NOCASE LIMIT ?)
            """, .text(name), .of(max(0, limit)), .text(name), .of(max(0, limit))) { (game: $0.int(0), seat: $0.int(1)) }
    }
}
