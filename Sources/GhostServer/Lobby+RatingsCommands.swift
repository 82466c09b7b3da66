import GhostProtocol
import GhostStore

/// TOP, PROFILE and HISTORY (issue #28): reads only, each bounded (a
/// LIMITed walk of an index, or a few primary-key look-ups; QueryPlanTests).
extension Lobby {
    /// `TOP [game=<kind>] [variant=<v>] [n]`: a rated board's leaders, the
    /// names `listed` there (registered, at least `topMinGames` rated games,
    /// RD at most `topMaxDeviation` as of their last game), best first.
    func top(_ n: Int, game: GameKind, variant: String?, _ id: ConnectionID) {
        let kind = self.kind(named: game.rawValue)
        let variant = variant ?? kind?.twoPlayerOptions["mode"] ?? ""
        guard let board = RatingsPolicy.board(kind, variant: variant) else {
            return reply(id, .error(.badArguments, "no rating list for that game: TOP, TOP variant=super, TOP variant=challenge or TOP game=hangman"))
        }
        guard let rows = persist({ try store.topRatings(board: board, limit: min(n, CommandParser.maxTop)) }) else { return failed(id) }
        for (i, r) in rows.enumerated() {
            let shown = ShownRating(Lobby.points(r.rating), provisional: r.deviation > 110)
            reply(id, .ratingData(.leader(rank: i + 1, name: r.name, rating: shown, deviation: Lobby.points(r.deviation),
                                          games: r.games, wins: r.wins, losses: r.losses)))
        }
        reply(id, .ok("TOP", ("count", String(rows.count)), ("board", board)))
    }

    /// `PROFILE <name>`: each of its ratings, then the asker's record
    /// against it per game kind (between two people, as GAME's `record=`).
    func profile(_ asked: String, _ id: ConnectionID, _ session: Session) {
        guard let stored = persist({ try store.storedName(asked) }) else { return failed(id) }
        guard let name = stored else { return reply(id, .error(.noSuchName, "nobody called \(asked) has played here")) }
        guard let rows = persist({ try store.ratings(of: name, limit: RatingsPolicy.maxBoards) }),
              let registered = persist({ try store.isRegistered(name) }) else { return failed(id) }
        for r in rows {
            reply(id, .ratingData(.rating(board: r.board, rating: ShownRating(Lobby.points(r.rating), provisional: r.deviation > 110),
                                          deviation: Lobby.points(r.deviation), games: r.games, wins: r.wins, losses: r.losses,
                                          best: r.best.map { RatedWin(game: $0.game, opponent: $0.opponent, rating: $0.rating) })))
        }
        if let me = session.name, me.lowercased() != name.lowercased() {
            for kind in kindNames {
                guard let (mine, theirs) = persist({ try store.headToHead(kind: kind, me, name) }) else { return failed(id) }
                guard mine + theirs > 0 else { continue }
                reply(id, .ratingData(.versus(game: kind, record: HeadToHead(mine: mine, theirs: theirs))))
            }
        }
        reply(id, .ok("PROFILE", ("name", name), ("registered", registered ? "yes" : "no"),
                      ("ratings", String(rows.count))))
    }

    /// `HISTORY [name] [n]`: the name's finished games (the asker's own
    /// without a name), newest first; a private game (`watch=no`) only in
    /// its own players' history as they ask for it.
    func history(_ name: String?, limit: Int, _ id: ConnectionID, _ session: Session) {
        guard let asked = name ?? session.name else {
            return reply(id, .error(.noName, "send NAME <name> first, or ask HISTORY <name>"))
        }
        let own = session.name?.lowercased() == asked.lowercased()
        guard let stored = persist({ try store.storedName(asked) }) else { return failed(id) }
        guard let who = stored else { return reply(id, .error(.noSuchName, "nobody called \(asked) has played here")) }
        guard let rows = persist({ try store.history(of: who, includePrivate: own, limit: min(limit, CommandParser.maxHistory)) })
        else { return failed(id) }
        let key = who.lowercased()
        for row in rows {
            let seat = row.players.first?.lowercased() == key ? 0 : 1
            let opponent = row.players.indices.contains(1 - seat) ? row.players[1 - seat] : "?"
            let result = row.winner.map { $0.lowercased() == key ? "win" : "loss" } ?? "aborted"
            let change = row.changes.indices.contains(seat) ? row.changes[seat] : nil
            reply(id, .ratingData(.result(id: row.id, game: row.kind, variant: row.variant.isEmpty ? nil : row.variant,
                                          opponent: opponent, result: result, reason: row.reason, change: change, ended: row.endedAt)))
        }
        reply(id, .ok("HISTORY", ("name", who), ("count", String(rows.count))))
    }

    /// A stored double as whole points (finite, not negative).
    static func points(_ x: Double) -> Int {
        let v = x.rounded()
        return v.isFinite ? Int(max(0, min(v, 100_000))) : 0
    }
}
