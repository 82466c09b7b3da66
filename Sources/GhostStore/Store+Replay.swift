/// What `MOVES` and `REVIEW` read of one game (issue #28): its row and its
/// last moves, each through a primary key. Nothing here grows with the
/// number of games stored.

/// A game as `MOVES` and `REVIEW` need it: how it was set up, who played it,
/// whether others may see it, and whether (and how) it ended.
public struct ReplayedGame: Sendable, Equatable {
    public var id: Int
    public var kind: String
    public var variant: String
    public var settings: String
    public var seed: UInt64
    public var lang: String
    public var players: [String]
    /// Rounds a seat may lose before it loses the match (1: a single game).
    public var rounds: Int
    /// The round in play (or, once over, the last one).
    public var round: Int
    /// Others may watch it (false: `NEW … watch=no`).
    public var watch: Bool
    public var over: Bool
    /// Set once over (nil for an aborted game).
    public var winner: String?
    public var loser: String?
    public var reason: String?
}

/// One stored move.
public struct ReplayedMove: Sendable, Equatable {
    public var round: Int
    /// From 1 in each round.
    public var ply: Int
    public var seat: Int
    /// As the kind encodes it (`p`, `<p`, `word:<w>`, `challenge`, `concede`).
    public var move: String
}

extension Store {
    /// Game `id`, in progress or over; nil if there is none. One primary-key look-up.
    public func replayedGame(id: Int) throws -> ReplayedGame? {
        try db.query("""
            SELECT id, kind, variant, settings, seed, lang, player0, player1, rounds, round, watch, status, winner, loser, reason
            FROM games WHERE id = ?
            """, .of(id)) { r in
            ReplayedGame(id: r.int(0), kind: r.text(1), variant: r.text(2), settings: r.text(3),
                         seed: UInt64(bitPattern: Int64(r.int(4))), lang: r.text(5), players: [r.text(6), r.text(7)],
                         rounds: r.int(8), round: r.int(9), watch: r.int(10) != 0, over: r.text(11) == "over",
                         winner: r.optionalText(12), loser: r.optionalText(13), reason: r.optionalText(14))
        }.first
    }

    /// The last `limit` moves of game `id`, in the order they were played:
    /// read newest first through the moves' primary key (game, round, ply),
    /// so O(limit + log N) whatever the number of moves stored.
    public func lastMoves(game id: Int, limit: Int) throws -> [ReplayedMove] {
        try db.query("SELECT round, ply, seat, move FROM moves WHERE game_id = ? ORDER BY round DESC, ply DESC LIMIT ?",
                     .of(id), .of(max(0, limit))) {
            ReplayedMove(round: $0.int(0), ply: $0.int(1), seat: $0.int(2), move: $0.text(3))
        }.reversed()
    }
}
