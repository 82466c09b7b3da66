/// What `MOVES` and `REVIEW` read of one game: its row and its
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

/// Games and their moves (the store split by what it stores): a
/// game's row from its start to its end, the moves of its rounds, what the
/// lobby needs to keep only the games in use in memory (a game
/// nobody is at is unloaded and found again here by its token; at start only
/// the games on a clock are loaded), the caps' counts of games in progress,
/// and what MOVES and REVIEW read. `Store` owns one over its
/// connection and answers for it (Store+Games.swift); it writes only inside
/// `Store`'s transaction (`willWrite`).
final class GamesStore {
    let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}
    /// The seats of every game in progress, for the caps and NAME (ActiveSeats.swift).
    var activeSeats = ActiveSeats()
    /// The moves not yet in the `moves` table (MoveJournal.swift): every
    /// read of moves adds them.
    let journal: MoveJournal

    init(db: StoreDB, journal: MoveJournal) {
        self.db = db
        self.journal = journal
    }

    /// Records a new game and returns its id. With `networks`, it is also
    /// what `noteStarted` records (the people's networks, and `now` as its
    /// last activity), in the same row.
    ///
    /// Outside a transaction the start waits in the move journal
    /// (JournalStart.swift), and the turn commits by appending it; the
    /// row is inserted by the next transaction (`fold`), or by the first
    /// write to the game before that (`materialize`). Reads of a game add
    /// the waiting starts as they add the waiting moves. A game's start then
    /// costs no transaction of its own: its row goes in with its end.
    func createGame(_ g: NewGame, networks: [String]? = nil, now: Int) throws -> Int {
        // The id is chosen here, so that a token of the new form for it is
        // stored as its secret (ResumeTokens.swift): the server asked for it
        // (`nextGameID`) to make the tokens.
        let id = try nextGameID()
        let start = JournalStart(
            id: id, kind: g.kind, variant: g.variant, settings: g.settings, seed: Int(Int64(bitPattern: g.seed)),
            lang: g.lang, player0: g.players[safe: 0] ?? "?", player1: g.players[safe: 1] ?? "?",
            token0: ResumeTokens.stored(g.tokens[safe: 0] ?? "", game: id, seat: 0),
            token1: ResumeTokens.stored(g.tokens[safe: 1] ?? "", game: id, seat: 1),
            bot0: g.bots[safe: 0] ?? nil, bot1: g.bots[safe: 1] ?? nil, rounds: g.rounds, starter: g.starter,
            startedAt: now, clock: g.clock, watch: g.watch, lastActive: networks == nil ? 0 : now,
            net0: networks?[safe: 0] ?? "", net1: networks?[safe: 1] ?? "")
        if !db.isInTransaction && start.waits {
            journal.record(start)
        } else {
            try willWrite()
            try insert(start, ignoring: false)
        }
        nextID = id + 1
        activeSeats.add(id, .init(player0: g.players[safe: 0] ?? "?", player1: g.players[safe: 1] ?? "?",
                                  net0: networks?[safe: 0] ?? "", net1: networks?[safe: 1] ?? "", clocked: g.clock > 0))
        return id
    }

    /// The id `createGame` gives the next game (one more than the highest
    /// stored): read at start (`loadActiveSeats`), then counted here.
    /// Forgotten at any rollback (`forgetNextID`), as a rolled-back game
    /// gives its id back, and read again at the next game's start.
    private var nextID: Int?

    func nextGameID() throws -> Int {
        if let nextID { return nextID }
        let stored = try db.query("SELECT coalesce(max(id), 0) + 1 FROM games") { $0.int(0) }.first ?? 1
        let next = max(stored, (journal.starts.last?.id ?? 0) + 1)   // the waiting starts are the newest
        nextID = next
        return next
    }

    func forgetNextID() { nextID = nil }

    // MARK: Starts waiting in the journal

    /// The waiting starts inserted in the open transaction, in order: a
    /// write to such a game finds its row. Rolled back with it.
    private var inserted: [Int] = []

    /// Where the current command's inserted starts begin (`undoInserted`).
    var insertedMark: Int { inserted.count }

    /// The command's inserts were undone (`to` its mark), or the whole
    /// transaction's (`to: 0`).
    func undoInserted(to mark: Int) {
        if mark < inserted.count { inserted.removeSubrange(max(0, mark)...) }
    }

    /// The waiting start of game `id` whose row is not in the database (not
    /// even in the open transaction), if any.
    private func waitingStart(_ id: Int) -> JournalStart? {
        guard let start = journal.start(game: id), !inserted.contains(id) else { return nil }
        return start
    }

    /// Inserts game `id`'s waiting start in the open transaction, if it has
    /// one not inserted yet: a write to its row follows.
    private func materialize(_ id: Int) throws {
        guard let start = waitingStart(id) else { return }
        try insert(start, ignoring: true)
        inserted.append(id)
    }

    private func insert(_ s: JournalStart, ignoring: Bool) throws {
        try db.run(ignoring ? SQLs.recoverGame : SQLs.insertGame) { try GamesStore.bindStart(s, to: &$0) }
    }

    /// Binds a start's 20 columns (`SQLs.startColumns`) at 1...20.
    private static func bindStart(_ s: JournalStart, to st: inout Parameters) throws {
        let values: [any SQLBindable] = [s.id, s.kind, s.variant, s.settings, s.seed, s.lang, s.player0, s.player1,
                                         s.token0, s.token1, s.bot0, s.bot1, s.rounds, s.starter, s.startedAt, s.clock,
                                         s.watch ? 1 : 0, s.lastActive, s.net0, s.net1]
        for (i, v) in values.enumerated() { try st.bind(v, at: Int32(i + 1)) }
    }

    /// A match goes on: the rounds lost so far, and the next round.
    func nextRound(game: Int, round: Int, losses: [Int], starter: Int) throws {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET round = ?, lost0 = ?, lost1 = ?, starter = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL, offer_spent0 = 0, offer_spent1 = 0 WHERE id = ?",
                   .of(round), .of(losses[safe: 0] ?? 0), .of(losses[safe: 1] ?? 0), .of(starter), .of(game))
    }

    /// Records a move of the round in play. This is the hot path (one call
    /// per move): the move waits in the journal, with no SQL, and `Store`'s
    /// commit appends it to the journal's file, or inserts it with the
    /// turn's transaction if there is one (`fold`). The game row is not
    /// touched: the moves are the record of the round in play.
    func recordMove(game: Int, round: Int, ply: Int, seat: Int, move: String, now: Int) throws {
        try journal.record(JournalMove(game: game, round: round, ply: ply, seat: seat, move: move, at: now))
    }

    /// Inserts every start waiting in the journal whose row is not in yet,
    /// then every move, in the order played, in the open transaction
    /// (`Store.commit`): up to `SQLs.foldRows` moves a statement.
    func fold() throws {
        for start in journal.starts where !inserted.contains(start.id) {
            try insert(start, ignoring: true)
            inserted.append(start.id)
        }
        let moves = journal.moves
        var start = 0
        while start < moves.count {
            let count = min(SQLs.foldRows, moves.count - start)
            guard let sql = SQLs.foldMoves[safe: count - 1] else { return }
            try db.run(sql) { s in
                var at: Int32 = 0
                for i in start..<(start + count) {
                    let m = moves[i]
                    try s.bind(m.game, at: at + 1)
                    try s.bind(m.round, at: at + 2)
                    try s.bind(m.ply, at: at + 3)
                    try s.bind(m.seat, at: at + 4)
                    try s.bind(m.move, at: at + 5)
                    try s.bind(m.at, at: at + 6)
                    at += 6
                }
            }
            start += count
        }
    }

    /// Whether game `game` has its row in the table (one primary-key look-up).
    func hasRow(game: Int) throws -> Bool {
        try !db.query("SELECT 1 FROM games WHERE id = ?", .of(game)) { $0.int(0) }.isEmpty
    }

    /// How many moves of game `game`'s round `round` the table holds (its
    /// last ply: they are numbered from 1).
    func storedPlies(game: Int, round: Int) throws -> Int {
        try db.query("SELECT coalesce(max(ply), 0) FROM moves WHERE game_id = ? AND round = ?", .of(game), .of(round)) { $0.int(0) }.first ?? 0
    }

    /// Inserts the starts and moves found in the journal's file when the
    /// database opens, skipping any already stored (folded before the file
    /// was emptied).
    func insertRecovered(_ starts: [JournalStart], _ moves: [JournalMove]) throws {
        for s in starts { try insert(s, ignoring: true) }
        for m in moves {
            try db.run(SQLs.recoverMove, m.game, m.round, m.ply, m.seat, m.move, m.at)
        }
    }

    /// Stores the pending offer (or none) and which seats have spent theirs.
    func setOffer(game: Int, offer: StoredGame.Offer?, spent: [Bool]) throws {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET offer_seat = ?, offer_kind = ?, offer_lang = ?, offer_spent0 = ?, offer_spent1 = ? WHERE id = ?",
                   .of(offer?.seat), .of(offer?.kind), .of(offer?.lang),
                   .of(spent.first == true ? 1 : 0), .of(spent.last == true ? 1 : 0), .of(game))
    }

    /// Starts a new round of a game, possibly in another language.
    func restartGame(game: Int, round: Int, lang: String, starter: Int = 0) throws {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET round = ?, lang = ?, starter = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL, offer_spent0 = 0, offer_spent1 = 0 WHERE id = ?",
                   .of(round), .text(lang), .of(starter), .of(game))
    }

    /// Records the end of a game (or match): its row (the score boards are
    /// the score store's: `Store.finishGame` does both).
    func finish(game: Int, winner: String?, loser: String?, reason: String, finalState: String,
                losses: [Int]?, now: Int) throws {
        try willWrite()
        if let s = waitingStart(game) {
            // Its row, started and ended, in one INSERT.
            try db.run(SQLs.insertFinishedGame) { st in
                try GamesStore.bindStart(s, to: &st)
                let end: [any SQLBindable] = [winner, loser, reason, finalState, now, losses?[safe: 0], losses?[safe: 1]]
                for (i, v) in end.enumerated() { try st.bind(v, at: Int32(21 + i)) }
            }
            inserted.append(game)
        } else {
            try db.run(SQLs.finishGame, winner, loser, reason, finalState, now, losses?[safe: 0], losses?[safe: 1], game)
        }
        activeSeats.remove(game)
    }

    /// The game is rated; each seat's rating before it (whole points; nil
    /// for a seat that has none, which never happens in a rated game).
    func markRated(game: Int, ratings: [Int?]) throws {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET rated = 1, rating0 = ?, rating1 = ? WHERE id = ?",
                   .of(ratings[safe: 0] ?? nil), .of(ratings[safe: 1] ?? nil), .of(game))
    }

    /// Whether a game is rated (one primary-key look-up; a start waiting in
    /// the journal is not: `markRated` inserts its row).
    func isRated(game: Int) throws -> Bool {
        if waitingStart(game) != nil { return false }
        return try db.query("SELECT rated FROM games WHERE id = ?", .of(game)) { $0.int(0) }.first == 1
    }

    /// Each seat's rating change at the end of a rated game (nil: the computer's seat).
    func setRatingChanges(game: Int, changes: [Int?]) throws {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET change0 = ?, change1 = ? WHERE id = ?",
                   .of(changes[safe: 0] ?? nil), .of(changes[safe: 1] ?? nil), .of(game))
    }

    /// Reads the seats of every game in progress (at start): one walk of
    /// the index of games in progress.
    func loadActiveSeats() throws {
        activeSeats = ActiveSeats()
        for (id, seats) in try db.query("""
            SELECT id, player0, player1, net0, net1, clock FROM games INDEXED BY games_untouched WHERE status = 'active'
            """, row: { ($0.int(0), ActiveSeats.Seats(player0: $0.text(1), player1: $0.text(2), net0: $0.text(3), net1: $0.text(4),
                                                      clocked: $0.int(5) > 0)) }) {
            activeSeats.load(id, seats)
        }
        activeSeats.loaded()
        nextID = nil
        _ = try nextGameID()
    }

    /// Every game in progress, oldest first, with the moves of its round in play.
    func activeGames() throws -> [StoredGame] {
        // The index of untouched games holds every game in progress (schema 12
        // dropped `games_active`, which held the same rows); without
        // `INDEXED BY`, SQLite walked every game, and every move.
        try loadActive("status = 'active'", index: "games_untouched")
            + journal.starts.filter { !inserted.contains($0.id) }.map { $0.storedGame(moves: journal.moves(game: $0.id, round: 1)) }
    }

    /// One game, if it is in progress.
    func activeGame(id: Int) throws -> StoredGame? {
        if let start = waitingStart(id) { return start.storedGame(moves: journal.moves(game: id, round: 1)) }
        return try loadActive("status = 'active' AND id = ?", .of(id)).first
    }

    /// Games in progress that match `condition`, oldest first, with the moves
    /// of their round in play.
    func loadActive(_ condition: String, _ values: SQLValue..., index: String? = nil) throws -> [StoredGame] {
        let indexed = index.map { " INDEXED BY " + $0 } ?? ""
        var games = try db.query("""
            SELECT id, kind, variant, settings, seed, lang, player0, player1, token0, token1, bot0, bot1,
                   rounds, lost0, lost1, round, starter, offer_seat, offer_kind, offer_lang, offer_spent0, offer_spent1, started_at, clock, watch
            FROM games\(indexed) WHERE \(condition) ORDER BY id
            """, arguments: values) { r in
            StoredGame(id: r.int(0), kind: r.text(1), variant: r.text(2), settings: r.text(3),
                       seed: UInt64(bitPattern: Int64(r.int(4))), lang: r.text(5),
                       players: [r.text(6), r.text(7)],
                       tokens: [ResumeTokens.token(stored: r.text(8), game: r.int(0), seat: 0),
                                ResumeTokens.token(stored: r.text(9), game: r.int(0), seat: 1)],
                       bots: [r.optionalText(10), r.optionalText(11)], rounds: r.int(12), losses: [r.int(13), r.int(14)],
                       round: r.int(15), starter: r.int(16),
                       offer: r.optionalInt(17).map { StoredGame.Offer(seat: $0, kind: r.text(18), lang: r.optionalText(19)) },
                       offerSpent: [r.int(20) != 0, r.int(21) != 0], startedAt: r.int(22), clock: r.int(23),
                       watch: r.int(24) != 0)
        }
        var index: [Int: Int] = [:]
        for (i, g) in games.enumerated() { index[g.id] = i }
        for (id, seat, move) in try db.query("""
            SELECT m.game_id, m.seat, m.move FROM games g\(indexed) JOIN moves m ON g.id = m.game_id AND g.round = m.round
            WHERE g.\(condition.replacing("AND id", with: "AND g.id")) ORDER BY m.game_id, m.ply
            """, arguments: values, row: { ($0.int(0), $0.int(1), $0.text(2)) }) {
            if let i = index[id] { games[i].moves.append(StoredMove(seat: seat, move: move)) }
        }
        // The moves still in the journal come after every stored one.
        for i in games.indices where !journal.moves.isEmpty {
            games[i].moves += journal.moves(game: games[i].id, round: games[i].round)
        }
        return games
    }

    /// The moves of a game's round, in order (those still in the journal last).
    func moves(game: Int, round: Int) throws -> [StoredMove] {
        try db.query("SELECT seat, move FROM moves WHERE game_id = ? AND round = ? ORDER BY ply", .of(game), .of(round)) {
            StoredMove(seat: $0.int(0), move: $0.text(1))
        } + journal.moves(game: game, round: round)
    }

    /// A game's final record, or nil if not over.
    /// The finished game `token` was a seat's resume token of: its id, how it
    /// ended, and when (unix seconds; 0 if unknown).
    /// A draw has neither winner nor loser (nil), and `players` names its seats.
    func finishedGame(token: String) throws -> (id: Int, winner: String?, loser: String?, reason: String,
                                                       finalState: String, endedAt: Int, players: [String], kind: String)? {
        guard let found = try game(token: token), found.over else { return nil }
        return try db.query("""
            SELECT id, winner, loser, reason, coalesce(final_state, ''), coalesce(ended_at, 0), player0, player1, kind FROM games
            WHERE id = ? AND status = 'over'
            """, .of(found.id)) {
            (id: $0.int(0), winner: $0.optionalText(1), loser: $0.optionalText(2), reason: $0.text(3), finalState: $0.text(4),
             endedAt: $0.int(5), players: [$0.text(6), $0.text(7)], kind: $0.text(8))
        }.first
    }

    /// The game `token` is a seat's resume token of, and whether it is over;
    /// nil if none. A token of the new form (ResumeTokens.swift): its row by
    /// the id it names, the secrets compared in constant time. Any other
    /// token, or one whose secret does not match (so an unknown token costs
    /// the same whatever its form): one look-up in each seat's token index,
    /// which holds only the tokens issued before schema 14. (The indexes are
    /// partial: SQLite uses them only when the query says their conditions
    /// too; `token0 = ?` alone walked every game.)
    func game(token: String) throws -> (id: Int, over: Bool)? {
        guard !token.isEmpty else { return nil }
        let named = ResumeTokens.parse(token)
        if let named, let start = waitingStart(named.game) {
            // A start waiting in the journal: its row is in memory.
            if ResumeTokens.matches(stored: named.seat == 0 ? start.token0 : start.token1, secret: named.secret) {
                return (named.game, false)
            }
        } else if let named,
           let row = try db.query("SELECT CASE ? WHEN 0 THEN token0 ELSE token1 END, status FROM games WHERE id = ?",
                                  .of(named.seat), .of(named.game), row: { ($0.text(0), $0.text(1) == "over") }).first,
           ResumeTokens.matches(stored: row.0, secret: named.secret) {
            return (named.game, row.1)
        }
        return try db.query("""
            SELECT id, status FROM games
            WHERE (token0 = ? AND token0 <> '' AND token0 < '~') OR (token1 = ? AND token1 <> '' AND token1 < '~') LIMIT 1
            """, .text(token), .text(token), row: { ($0.int(0), $0.text(1) == "over") }).first
    }

    func result(game: Int) throws -> (winner: String, loser: String, reason: String, finalState: String)? {
        try db.query("SELECT winner, loser, reason, coalesce(final_state, '') FROM games WHERE id = ? AND status = 'over'", .of(game)) {
            (winner: $0.text(0), loser: $0.text(1), reason: $0.text(2), finalState: $0.text(3))
        }.first
    }

    /// The game in progress that `token` is a seat's resume token of, with
    /// the moves of its round in play; nil if none. The game by its token
    /// (`game(token:)`), then by its id: it costs the same whatever the
    /// number of games (measured at 10,000 games in progress under a flood
    /// of RESUMEs of random tokens).
    func activeGame(token: String) throws -> StoredGame? {
        guard let found = try game(token: token), !found.over else { return nil }
        return try activeGame(id: found.id)
    }

    /// The games in progress on a clock: they end by themselves within their
    /// period, so the server loads them at start to keep their time.
    func clockedGames() throws -> [StoredGame] {
        // From the seats in memory (schema 12 dropped `games_clocked`, which
        // every game's start and end evaluated), then each by its id.
        try activeGames(ids: activeSeats.clockedGames)
    }

    /// The games among `ids` that are still in progress, by id.
    func activeGames(ids: some Sequence<Int>) throws -> [StoredGame] {
        try ids.sorted().compactMap { try activeGame(id: $0) }
    }

    /// Ends a game in progress with no winner, no loser and no score (no
    /// board, no best-games entry, no head-to-head): status `over`, reason
    /// `aborted`, `final_state` `abort=<why>`. Returns whether it was in progress.
    @discardableResult
    func abortGame(game: Int, why: String, now: Int) throws -> Bool {
        try willWrite()
        try materialize(game)
        try db.run("UPDATE games SET status = 'over', winner = NULL, loser = NULL, reason = ?, final_state = ?, ended_at = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL WHERE id = ? AND status = 'active'",
                   .text(Store.abortedReason), .text("abort=" + why), .of(now), .of(game))
        guard try db.changes > 0 else { return false }
        activeSeats.remove(game)
        return true
    }

    /// A new game's networks (the people's: an IPv4 address or an IPv6 /64
    /// prefix, "" for the computer or an unknown peer) and its first moment
    /// of activity. Called in the same turn as `createGame`.
    func noteStarted(game: Int, networks: [String], now: Int) throws {
        try willWrite()
        try materialize(game)
        try db.run(SQLs.noteStarted, now, networks[safe: 0] ?? "", networks[safe: 1] ?? "", game)
        activeSeats.setNetworks(game, networks[safe: 0] ?? "", networks[safe: 1] ?? "")
    }

    /// The networks a game's seats started from, as `noteStarted` stored
    /// them ("" for the computer, an unknown peer, or a game from before
    /// schema 9): from memory while it is in progress, else one primary-key
    /// look-up. Empty if there is no such game.
    func gameNetworks(game: Int) throws -> [String] {
        if let seats = activeSeats.games[game] { return seats.networks }   // in progress: no SQL
        return try db.query("SELECT net0, net1 FROM games WHERE id = ?", .of(game)) { [$0.text(0), $0.text(1)] }.first ?? []
    }

    /// The game was touched at `now`: it leaves memory (a RESUME or its moves
    /// kept it there), or the sweep finds it in use.
    func touchGame(game: Int, at now: Int) throws {
        try willWrite()
        try materialize(game)
        try db.run(SQLs.touchGame, now, game)
    }

    /// At most `limit` games in progress whose `last_active` is before
    /// `cutoff`, the longest untouched first, each with the time of its
    /// last move (nil if none): an index range, whatever the number of games
    /// (`INDEXED BY`: without statistics SQLite took the index on `status`
    /// and sorted every game in progress).
    func untouchedGames(before cutoff: Int, limit: Int) throws -> [(id: Int, lastActive: Int, lastMove: Int?)] {
        let stored = try db.query("""
            SELECT id, last_active, (SELECT max(at) FROM moves WHERE game_id = games.id) FROM games INDEXED BY games_untouched
            WHERE status = 'active' AND last_active < ? ORDER BY last_active LIMIT ?
            """, .of(cutoff), .of(max(0, limit))) { (id: $0.int(0), lastActive: $0.int(1), lastMove: $0.optionalInt(2)) }
            .map { game in (id: game.id, lastActive: game.lastActive, lastMove: journal.lastMoveTime(game: game.id) ?? game.lastMove) }
        // The waiting starts' rows, which that read could not see (few: a
        // start waits until the next transaction).
        let waiting = journal.starts.filter { $0.lastActive < cutoff && !inserted.contains($0.id) }
        guard !waiting.isEmpty else { return stored }
        let merged = stored + waiting.map { (id: $0.id, lastActive: $0.lastActive, lastMove: journal.lastMoveTime(game: $0.id)) }
        return Array(merged.sorted { ($0.lastActive, $0.id) < ($1.lastActive, $1.id) }.prefix(max(0, limit)))
    }

    /// How many games in progress `name` (any case) plays in, counting at
    /// most `limit` per seat: no SQL (`ActiveSeats`).
    func activeGameCount(player name: String, limit: Int) throws -> Int {
        activeSeats.count(player: name, limit: limit)
    }

    /// How many games in progress a person from `network` plays in (a game
    /// with both seats from it counts once), at most about `limit`: no SQL.
    func activeGameCount(network: String, limit: Int) throws -> Int {
        activeSeats.count(network: network, limit: limit)
    }

    /// The games in progress `name` (any case) has a seat in, with the seat,
    /// at most `limit` per seat, seat 0's first, by id: no SQL. (Whether a
    /// guest may take a name: not while one of its seats waits for its
    /// player to come back with RESUME.)
    func activeSeats(player name: String, limit: Int) throws -> [(game: Int, seat: Int)] {
        activeSeats.seats(player: name, limit: limit)
    }

    /// Game `id`, in progress or over; nil if there is none. One primary-key look-up.
    func replayedGame(id: Int) throws -> ReplayedGame? {
        if let start = waitingStart(id) { return start.replayedGame }
        return try db.query("""
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
    /// The moves still in the journal are the newest (at most
    /// `MoveJournal.foldLimit` of them are looked at).
    func lastMoves(game id: Int, limit: Int) throws -> [ReplayedMove] {
        let waiting = journal.moves(game: id).suffix(max(0, limit))
            .map { ReplayedMove(round: $0.round, ply: $0.ply, seat: $0.seat, move: $0.move) }
        let stored = try db.query("SELECT round, ply, seat, move FROM moves WHERE game_id = ? ORDER BY round DESC, ply DESC LIMIT ?",
                                  .of(id), .of(max(0, limit - waiting.count))) {
            ReplayedMove(round: $0.int(0), ply: $0.int(1), seat: $0.int(2), move: $0.text(3))
        }
        return stored.reversed() + waiting
    }
}
