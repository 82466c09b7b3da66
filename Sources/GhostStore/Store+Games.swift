/// The games' part of `Store`'s API, answered by its `GamesStore`.
extension Store {
    /// The reason an aborted game is stored with; the why is in its
    /// `final_state` as `abort=<why>`.
    public static let abortedReason = "aborted"

    /// Records a new game and returns its id. With `networks`, it is also
    /// what `GamesStore.noteStarted` records (the people's networks, and `now` as its
    /// last activity), in the same INSERT: an UPDATE after it cost as much
    /// again, and moved the row in the index of untouched games.
    public func createGame(_ g: NewGame, networks: [String]? = nil, now: Int) throws -> Int {
        try gameStore.createGame(g, networks: networks, now: now)
    }

    /// The id the next `createGame` gives its game, for its resume tokens
    /// (`ResumeTokens.prefix`): a token of the new form for that id and
    /// seat is stored as its secret. Valid until a rollback.
    public func nextGameID() throws -> Int {
        try gameStore.nextGameID()
    }

    /// A match goes on: the rounds lost so far, and the next round.
    public func nextRound(game: Int, round: Int, losses: [Int], starter: Int) throws {
        try gameStore.nextRound(game: game, round: round, losses: losses, starter: starter)
    }

    /// Records a move of the round in play. This is the hot path (one call
    /// per move): it waits in the move journal, with no SQL, until the
    /// turn's commit (MoveJournal.swift). The game row is not touched.
    public func recordMove(game: Int, round: Int, ply: Int, seat: Int, move: String, now: Int) throws {
        try gameStore.recordMove(game: game, round: round, ply: ply, seat: seat, move: move, now: now)
    }

    /// Stores the pending offer (or none) and which seats have spent theirs.
    public func setOffer(game: Int, offer: StoredGame.Offer?, spent: [Bool]) throws {
        try gameStore.setOffer(game: game, offer: offer, spent: spent)
    }

    /// Starts a new round of a game, possibly in another language.
    public func restartGame(game: Int, round: Int, lang: String, starter: Int = 0) throws {
        try gameStore.restartGame(game: game, round: round, lang: lang, starter: starter)
    }

    /// Records the end of a game (or match) and counts it on `board` for the
    /// players who are people (`people`; by default both). `finalState` is
    /// the last public state as the kind shows it (`fragment=qx`). Returns
    /// the places on `board` after it of the winner, then the loser, each
    /// if counted (`people` holds it): from the rows the counts wrote, so
    /// no look-up of a name again. A draw (`winner` and `loser` nil) counts
    /// a game for each of `people`, won by neither (`ScoresStore.countFinished`).
    @discardableResult
    public func finishGame(game: Int, winner: String?, loser: String?, reason: String, finalState: String,
                           losses: [Int]? = nil, board: String, people: [String]? = nil, now: Int) throws -> [ScoreRow] {
        try gameStore.finish(game: game, winner: winner, loser: loser, reason: reason, finalState: finalState, losses: losses, now: now)
        return try scoreStore.countFinished(winner: winner, loser: loser, board: board, people: people)
    }

    /// Every game in progress, oldest first, with the moves of its round in play.
    public func activeGames() throws -> [StoredGame] {
        try gameStore.activeGames()
    }

    /// One game, if it is in progress.
    public func activeGame(id: Int) throws -> StoredGame? {
        try gameStore.activeGame(id: id)
    }

    /// The moves of a game's round, in order.
    public func moves(game: Int, round: Int) throws -> [StoredMove] {
        try gameStore.moves(game: game, round: round)
    }

    /// A game's final record, or nil if not over.
    /// The finished game `token` was a seat's resume token of: its id, how it
    /// ended, and when (unix seconds; 0 if unknown).
    public func finishedGame(token: String) throws -> (id: Int, winner: String?, loser: String?, reason: String,
                                                       finalState: String, endedAt: Int, players: [String], kind: String)? {
        try gameStore.finishedGame(token: token)
    }

    public func result(game: Int) throws -> (winner: String, loser: String, reason: String, finalState: String)? {
        try gameStore.result(game: game)
    }

    /// The game in progress that `token` is a seat's resume token of, with
    /// the moves of its round in play; nil if none. A token of the new form
    /// names its game (ResumeTokens.swift): the row by its id, the secrets
    /// compared in constant time; an older token, one look-up in each seat's
    /// token index. It costs the same whatever the number of games.
    public func activeGame(token: String) throws -> StoredGame? {
        try gameStore.activeGame(token: token)
    }

    /// The games in progress on a clock: they end by themselves within their
    /// period, so the server loads them at start to keep their time.
    public func clockedGames() throws -> [StoredGame] {
        try gameStore.clockedGames()
    }

    /// The games among `ids` that are still in progress, by id.
    public func activeGames(ids: some Sequence<Int>) throws -> [StoredGame] {
        try gameStore.activeGames(ids: ids)
    }

    /// Ends a game in progress with no winner, no loser and no score (no
    /// board, no best-games entry, no head-to-head): status `over`, reason
    /// `aborted`, `final_state` `abort=<why>`. Returns whether it was in progress.
    @discardableResult
    public func abortGame(game: Int, why: String, now: Int) throws -> Bool {
        try gameStore.abortGame(game: game, why: why, now: now)
    }

    /// The networks a game's seats started from, as `GamesStore.noteStarted` stored
    /// them ("" for the computer, an unknown peer, or a game from before
    /// schema 9): from memory while it is in progress, else one primary-key
    /// look-up. Empty if there is no such game.
    public func gameNetworks(game: Int) throws -> [String] {
        try gameStore.gameNetworks(game: game)
    }

    /// The game was touched at `now`: it leaves memory (a RESUME or its moves
    /// kept it there), or the sweep finds it in use.
    public func touchGame(game: Int, at now: Int) throws {
        try gameStore.touchGame(game: game, at: now)
    }

    /// At most `limit` games in progress whose `last_active` is before
    /// `cutoff`, the longest untouched first, each with the time of its
    /// last move (nil if none): an index range, whatever the number of games
    /// (`INDEXED BY`: without statistics SQLite took the index on `status`
    /// and sorted every game in progress).
    public func untouchedGames(before cutoff: Int, limit: Int) throws -> [(id: Int, lastActive: Int, lastMove: Int?)] {
        try gameStore.untouchedGames(before: cutoff, limit: limit)
    }

    /// How many games in progress `name` (any case) plays in, counting at
    /// most `limit` per seat: no SQL (the seats kept in memory, `ActiveSeats`).
    public func activeGameCount(player name: String, limit: Int) throws -> Int {
        try gameStore.activeGameCount(player: name, limit: limit)
    }

    /// How many games in progress a person from `network` plays in (a game
    /// with both seats from it counts once), at most about `limit`.
    public func activeGameCount(network: String, limit: Int) throws -> Int {
        try gameStore.activeGameCount(network: network, limit: limit)
    }

    /// The games in progress `name` (any case) has a seat in, with the seat,
    /// at most `limit` per seat, seat 0's first, by id: read from the seats
    /// kept in memory (`ActiveSeats`), no SQL. (Whether a guest may take a name: not while one of its seats
    /// waits for its player to come back with RESUME.)
    public func activeSeats(player name: String, limit: Int) throws -> [(game: Int, seat: Int)] {
        try gameStore.activeSeats(player: name, limit: limit)
    }

    /// Game `id`, in progress or over; nil if there is none. One primary-key look-up.
    public func replayedGame(id: Int) throws -> ReplayedGame? {
        try gameStore.replayedGame(id: id)
    }

    /// The last `limit` moves of game `id`, in the order they were played:
    /// read newest first through the moves' primary key (game, round, ply),
    /// so O(limit + log N) whatever the number of moves stored.
    public func lastMoves(game id: Int, limit: Int) throws -> [ReplayedMove] {
        try gameStore.lastMoves(game: id, limit: limit)
    }
}
