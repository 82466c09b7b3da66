import GhostProtocol
import GhostStore

/// Every game ends (issue #24): a game costs memory only while someone is at
/// it. The rules, with their settings (`Lobby.Settings`, Protocol.md §7):
///
/// - Unloading: a game without a clock that no person is at (every person's
///   seat is away) leaves memory `unloadAfter` seconds after the last one
///   left. Its resume tokens go with it; `RESUME <token>` finds it again in
///   the store with one indexed look-up and rebuilds it by replaying its
///   moves (`makeTable`). An opponent who is present keeps it loaded (and
///   may CLAIM after the grace period, as before).
/// - At start only the games on a clock are loaded: they keep their time and
///   end by themselves within their period. Every other game in progress
///   stays in the store until a player resumes it, so start-up time and
///   memory do not grow with abandoned games.
/// - "Games in progress" in memory (`tables`, STATS `games_in_progress`,
///   GAMES) are the loaded games: the ones someone is at, or that wait for
///   a present opponent's CLAIM, a clock, or the unloading delay.
extension Lobby {
    // MARK: Unloading

    /// When the game leaves memory, if nothing else keeps it: no clock, and
    /// every person's seat away; `unloadAfter` seconds after the last left.
    func unloadDeadline(_ table: Table) -> Double? {
        guard settings.unloadAfter >= 0, table.clock == nil else { return nil }
        var since: Double?
        for seat in 0..<2 where table.bot(seat) == nil {
            guard table.seats[seat] == nil, let away = table.awaySince[seat] else { return nil }
            since = max(since ?? away, away)
        }
        guard let since else { return nil }
        return since + settings.unloadAfter
    }

    /// Takes a game out of memory (it stays in the store, as it is): its
    /// tokens, its deadlines, and its watchers, who are told it ended here.
    func unload(_ gameID: Int) {
        guard let table = tables[gameID] else { return }
        endWatching(gameID)
        for t in table.tokens { tokenIndex[t] = nil }
        tables[gameID] = nil
        deadlines.touch(table)   // its deadline goes with it
        log("game \(gameID) unloaded: nobody is at it")
    }

    /// The lifecycle's part of `tick` for one game that is due: unloads it if
    /// its time has come. Returns true if the game is gone from memory.
    func lifecycleTick(_ gameID: Int, now: Double) -> Bool {
        guard let table = tables[gameID] else { return true }
        if let due = unloadDeadline(table), due <= now {
            unload(gameID)
            return true
        }
        return false
    }

    /// The next moment the lifecycle needs the clock for this game, if any.
    func lifecycleDeadline(_ table: Table) -> Double? {
        unloadDeadline(table)
    }

    // MARK: Reloading

    /// The seat whose token this is, in a game in progress that was not in
    /// memory: read from the store, rebuilt by replay and loaded, every seat
    /// away. Nil if no game in progress has the token (or it is the
    /// computer's), or if the game cannot be rebuilt here (logged). A failed
    /// read throws (the caller answers `ERR store-failed`).
    func loadGame(token: String) throws -> (game: Int, seat: Int)? {
        guard let stored = try store.activeGame(token: token), tables[stored.id] == nil else { return nil }
        guard let table = makeTable(stored, now: clock.monotonic) else {
            log("game \(stored.id) not loaded: no game kind \(stored.kind), no word list for \(stored.lang), or its moves do not replay")
            return nil
        }
        let seat = stored.tokens.first == token ? 0 : 1
        guard table.bot(seat) == nil else { return nil }
        tables[stored.id] = table
        for s in 0..<2 where table.bot(s) == nil { tokenIndex[table.tokens[s]] = (stored.id, s) }
        log("game \(stored.id) loaded from the store")
        return (stored.id, seat)
    }

    /// Per seat, whether that person has moved in a stored game: a seat with
    /// a move in the round in play, and both seats once a round has ended.
    static func movedSeats(_ g: StoredGame) -> [Bool] {
        if g.round > 1 || g.losses.contains(where: { $0 > 0 }) { return [true, true] }
        var moved = [false, false]
        for m in g.moves where (0...1).contains(m.seat) { moved[m.seat] = true }
        return moved
    }
}
