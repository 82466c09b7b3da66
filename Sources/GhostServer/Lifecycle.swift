import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// The life of a game (`lobby.lifecycle`). Every game ends: a game costs memory only while someone is at
/// it. The rules, with their settings (`Lobby.Settings`, Protocol.md §7):
///
/// - Unloading: a game without a clock that no person is at (every person's
///   seat is away) leaves memory `unloadAfter` seconds after the last one
///   left. Its resume tokens go with it; `RESUME <token>` finds it again in
///   the store with one indexed look-up and rebuilds it by replaying its
///   moves (`makeRoom`). An opponent who is present keeps it loaded (and
///   may CLAIM after the grace period, as before).
/// - At start only the games on a clock are loaded: they keep their time and
///   end by themselves within their period. Every other game in progress
///   stays in the store until a player resumes it, so start-up time and
///   memory do not grow with abandoned games.
/// - "Games in progress" in memory (`rooms`, STATS `games_in_progress`,
///   GAMES) are the loaded games: the ones someone is at, or that wait for
///   a present opponent's CLAIM, a clock, or the unloading delay.
final class Lifecycle: Broadcasting {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift), and when each next needs the clock.
    let rooms: Rooms
    let deadlines: Deadlines<Room>
    /// The parts it uses, below it (GamePart).
    let watching: WatchDesk
    let recovery: RecoveryDesk
    /// When the sweep for untouched games next runs (monotonic).
    var nextUntouchedSweep = -Double.infinity
    /// The last mark that the daemon runs (wall seconds; `DowntimeStore.markAlive`).
    var lastAliveMark = 0

    init(context: LobbyContext, rooms: Rooms, deadlines: Deadlines<Room>, watching: WatchDesk, recovery: RecoveryDesk) {
        self.context = context
        self.rooms = rooms
        self.deadlines = deadlines
        self.watching = watching
        self.recovery = recovery
    }

    // MARK: Unloading

    /// When the game leaves memory, if nothing else keeps it: no clock, and
    /// every person's seat away; `unloadAfter` seconds after the last left.
    @inline(__always)
    func unloadDeadline(_ room: Room) -> Double? {
        guard settings.unloadAfter >= 0, room.clock == nil, let since = lastLeft(room) else { return nil }
        return since + settings.unloadAfter
    }

    /// When the last person left a game nobody is at (monotonic seconds);
    /// nil while a person is at it (or it has none).
    @inline(__always)
    func lastLeft(_ room: Room) -> Double? {
        var since: Double?
        for seat in 0..<2 where room.bot(seat) == nil {
            guard room.seats[seat] == nil, let away = room.awaySince[seat] else { return nil }
            since = max(since ?? away, away)
        }
        return since
    }

    /// The same as a wall-clock second, for the store's `last_active`: the
    /// game's last activity (moves and RESUMEs kept a person at it until then).
    func lastLeftWall(_ room: Room) -> Int? {
        lastLeft(room).map { clock.wall - max(0, Int((clock.monotonic - $0).rounded(.down))) }
    }

    /// Takes a game out of memory (it stays in the store, as it is): its
    /// tokens, its deadlines, and its watchers, who are told it ended here.
    func unload(_ gameID: Int) {
        guard let room = rooms[gameID] else { return }
        // Its last activity is when the last person left it (a RESUME or its
        // moves kept them there; the sweep touches the games a person is
        // at): the sweep of untouched games counts from then, not from the
        // unload a minute later. Written here, not at
        // RESUME, so that a RESUME writes nothing: a turn whose commit failed
        // must not leave a connection seated by a RESUME it answered
        // `ERR store-failed` (found by the lobby fuzzer, seed 2450503838).
        let left = lastLeftWall(room) ?? clock.wall
        recovery.runCommand(game: gameID) { _ = persist({ try store.touchGame(game: gameID, at: left) }) }
        // Not stored: the failed write reloaded the game; it is unloaded later.
        guard rooms[gameID] === room else { return }
        watching.endWatching(gameID)
        for t in room.tokens { rooms.tokens[t] = nil }
        rooms.remove(gameID)
        deadlines.touch(room)   // its deadline goes with it
        log("game \(gameID) unloaded: nobody is at it")
    }

    /// The lifecycle's part of `tick` for one game that is due: aborts it if
    /// its first move did not come, unloads it if its time has come. Returns
    /// true if the game is gone from memory.
    func lifecycleTick(_ gameID: Int, now: Double) -> Bool {
        guard let room = rooms[gameID] else { return true }
        if let due = room.firstMoveDeadline(settings), due <= now {
            log("game \(gameID): \(room.names[room.game.toMove])'s first move did not come")
            recovery.runCommand(game: gameID) { abort(gameID, reason: .noFirstMove) }
            guard let again = rooms[gameID] else { return true }
            // Not stored (the disk is full): try again a little later, not every loop turn.
            again.timeRetry = now + RecoveryDesk.storeRetrySeconds
            return false
        }
        if let due = unloadDeadline(room), due <= now {
            unload(gameID)
            return true
        }
        return false
    }

    /// The next moment the lifecycle needs the clock for this game, if any.
    @inline(__always)
    func lifecycleDeadline(_ room: Room) -> Double? {
        if let first = room.firstMoveDeadline(settings) { return first }
        return unloadDeadline(room)
    }

    // No stalling: `firstMoveDeadline` and `stallDeadline` are the
    // room's (Room+Clocks.swift).

    // MARK: Aborting

    /// Ends a game with no winner and no score, stored first: both seats are
    /// told `ABORTED id=<id> reason=<reason>` and an INFO, go back to the
    /// lobby (no rematch), and its watchers' watching ends. `ack` goes first
    /// to the connection that asked. False (nothing changed) if it could not be stored.
    @discardableResult
    func abort(_ gameID: Int, reason: AbortReason, ack: (ConnectionID, ServerLine)? = nil) -> Bool {
        guard let room = rooms[gameID] else { return false }
        guard persist({ try store.abortGame(game: gameID, why: reason.rawValue, now: clock.wall) }) != nil else { return false }
        context.figures.gamesAborted += 1
        if let (id, line) = ack { reply(id, line) }
        broadcast(gameID, .aborted(id: gameID, reason: reason))
        broadcast(gameID, .info(Lifecycle.abortText(reason, room)))
        log("game \(gameID) aborted: \(reason)")
        for conn in room.seats {
            guard let conn else { continue }
            sessions.update(conn) { $0.state = .idle }
            sessions.update(conn) { $0.last = nil }
        }
        watching.endWatching(gameID)
        for t in room.tokens { rooms.tokens[t] = nil }
        recovery.noteRemoved(room)
        rooms.remove(gameID)
        deadlines.touch(room)   // its deadline goes with it
        return true
    }

    /// The INFO after ABORTED.
    static func abortText(_ reason: AbortReason, _ room: Room) -> String {
        switch reason {
        case .noFirstMove:
            return "\(room.names[room.game.toMove]) did not make a first move in time: the game is aborted, nobody wins."
        case .left:
            return "The game was left before its first move: it is aborted, nobody wins."
        default:
            return "Nobody played this game for too long: it is aborted, nobody wins."
        }
    }

    // MARK: Reloading

    /// The seat whose token this is, in a game in progress that was not in
    /// memory: read from the store, rebuilt by replay and loaded, every seat
    /// away. Nil if no game in progress has the token (or it is the
    /// computer's), or if the game cannot be rebuilt here (logged). A failed
    /// read throws (the caller answers `ERR store-failed`).
    func loadGame(token: String) throws -> (game: Int, seat: Int)? {
        guard let stored = try store.activeGame(token: token), rooms[stored.id] == nil else { return nil }
        guard let room = recovery.makeRoom(stored, now: clock.monotonic) else {
            log("game \(stored.id) not loaded: no game kind \(stored.kind), no word list for \(stored.lang), or its moves do not replay")
            return nil
        }
        let seat = stored.tokens.first == token ? 0 : 1
        guard room.bot(seat) == nil else { return nil }
        rooms.add(room)
        for s in 0..<2 where room.bot(s) == nil { rooms.tokens[room.tokens[s]] = (stored.id, s) }
        log("game \(stored.id) loaded from the store")
        return (stored.id, seat)
    }

    // MARK: Untouched games

    /// From `tick`: the sweep for untouched games, when it is due.
    func sweepUntouchedIfDue(now: Double) {
        if now >= nextUntouchedSweep { sweepUntouched(now: now) }
    }

    /// The most seconds between two sweeps for untouched games (the mark
    /// that the daemon runs is written at each), and the most games one
    /// sweep looks at: a sweep costs an index range of at most this many rows.
    static let untouchedSweepSeconds = 60.0
    static let untouchedSweepLimit = 100

    /// The daemon starts (from the lobby's init): the time since it last ran
    /// is an outage, which does not count toward `abandonAfter`
    /// (`DowntimeStore.recordStart`), committed at once, before anything is served.
    /// If it cannot be stored (a full disk), the daemon serves all the same:
    /// the next start counts the outage from the last mark that was.
    func recordStart() {
        let wall = clock.wall
        lastAliveMark = wall
        var gap = 0
        recovery.runCommand { gap = persist({ try store.downtime.recordStart(at: wall) }) ?? 0 }
        do {
            try store.commit()
            if gap > 0 { log("down for \(Lifecycle.duration(gap)) before this start: not counted toward --abandon-after") }
        } catch {
            log("cannot store this start in \(store.path): \(error)")
        }
    }

    /// The daemon runs: the mark of it, at most once a minute (from the sweep).
    private func markAlive(_ wall: Int) -> Bool {
        guard wall - lastAliveMark >= Int(Lifecycle.untouchedSweepSeconds) else { return true }
        lastAliveMark = wall
        return persist({ try store.downtime.markAlive(at: wall) }) != nil
    }

    /// Aborts the games in progress nobody touched (no move, no RESUME)
    /// while the daemon ran for `abandonAfter` seconds (its outages do not
    /// count: `DowntimeStore.runningCutoff`), at most `untouchedSweepLimit` a sweep,
    /// the longest untouched first; runs from `tick`, when the next game
    /// becomes due and at least once every `untouchedSweepSeconds`. A game
    /// in memory that a person is at is in use: its last activity becomes
    /// now; one nobody is at (not yet unloaded) counts from when the last
    /// person left, and is aborted in memory as it would be from the store
    /// (it waited for a second sweep). A game with a
    /// later move gets that move's time. Each aborted game is stored
    /// `aborted` with `abort=untouched`: no winner, no score; its players
    /// learn it on RESUME.
    func sweepUntouched(now: Double) {
        nextUntouchedSweep = now + Lifecycle.untouchedSweepSeconds
        let wall = clock.wall, seconds = settings.abandonAfter, limit = Lifecycle.untouchedSweepLimit
        recovery.runCommand {
            guard markAlive(wall), seconds > 0,
                  let cutoff = persist({ try store.downtime.runningCutoff(now: wall, seconds: seconds) }),
                  // The games due now, and those due within the longest wait, to wake for the first.
                  let rows = persist({ try store.untouchedGames(before: cutoff + Int(Lifecycle.untouchedSweepSeconds), limit: limit) })
            else { return }
            var aborted = 0, nextDue: Int?
            for row in rows {
                let touched: Int
                if let room = rooms[row.id], let left = lastLeftWall(room) {
                    touched = max(left, row.lastActive, row.lastMove ?? 0)
                    if touched < cutoff {
                        log("game \(row.id): untouched since \(touched)")
                        guard abort(row.id, reason: .untouched) else { return }
                        aborted += 1
                        continue
                    }
                    // Left later than the row says: the row takes that time, out of the range of the due.
                    if row.lastActive < cutoff {
                        guard persist({ try store.touchGame(game: row.id, at: touched) }) != nil else { return }
                    }
                } else if rooms[row.id] != nil {
                    guard persist({ try store.touchGame(game: row.id, at: wall) }) != nil else { return }
                    touched = wall
                } else {
                    touched = max(row.lastActive, row.lastMove ?? 0)
                    if touched < cutoff {
                        guard persist({ try store.abortGame(game: row.id, why: AbortReason.untouched.rawValue, now: wall) }) != nil else { return }
                        context.figures.gamesAborted += 1
                        aborted += 1
                        log("game \(row.id) aborted: untouched since \(touched)")
                        continue
                    }
                    // A later move: the row takes its time, and leaves the range of the due.
                    if row.lastActive < cutoff {
                        guard persist({ try store.touchGame(game: row.id, at: touched) }) != nil else { return }
                    }
                }
                // Due once the cutoff has passed it: `touched - cutoff + 1` s of running from now.
                nextDue = min(nextDue ?? .max, touched - cutoff + 1)
            }
            // A full batch goes on a minute later; else wake when the next game is due.
            if aborted < limit, let nextDue {
                nextUntouchedSweep = now + min(Lifecycle.untouchedSweepSeconds, Double(max(1, nextDue)))
            }
        }
    }

    /// "3 days", "5 h", "40 min", "12 s": an outage's length, for the log.
    static func duration(_ seconds: Int) -> String {
        if seconds >= 2 * 86_400 { return "\(seconds / 86_400) days" }
        if seconds >= 3_600 { return "\(seconds / 3_600) h" }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    // MARK: Caps on games in progress

    /// Whether the connection may start another game: its name has fewer than
    /// `maxGamesPerName` games in progress (adjourned ones included: QUIT
    /// leaves a game behind, and a name plays one game at a time on one
    /// connection), and its network fewer than `maxGamesPerNetwork`.
    /// Otherwise replies `ERR too-many-games`. The store counts them from
    /// the seats of the games in progress it keeps in memory (read from the
    /// database at start), so it holds across restarts and runs no SQL.
    func underGameCaps(_ id: ConnectionID, _ session: Session) -> Bool {
        let perName = settings.maxGamesPerName, perNetwork = settings.maxGamesPerNetwork
        if perName > 0, let name = session.name {
            guard let n = persist({ try store.activeGameCount(player: name, limit: perName) }) else {
                failed(id)
                return false
            }
            if n >= perName {
                reply(id, .error(.tooManyGames, "\(name) has \(perName) games in progress (adjourned ones too): RESUME one and finish or LEAVE it" + (settings.abandonAfter > 0 ? "; a game nobody touches is aborted after \(Lifecycle.days(settings.abandonAfter))" : "")))
                return false
            }
        }
        let net = session.network
        if perNetwork > 0, !net.isEmpty {
            guard let n = persist({ try store.activeGameCount(network: net, limit: perNetwork) }) else {
                failed(id)
                return false
            }
            if n >= perNetwork {
                reply(id, .error(.tooManyGames, "your network has \(perNetwork) games in progress (adjourned ones too); finish or LEAVE some first"))
                return false
            }
        }
        return true
    }

    /// "7 days", "1 day", "3600 s".
    static func days(_ seconds: Int) -> String {
        guard seconds % 86_400 == 0 else { return "\(seconds) s" }
        return seconds == 86_400 ? "1 day" : "\(seconds / 86_400) days"
    }
}
