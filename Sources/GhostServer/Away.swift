import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// Away and back (`lobby.away`): a player who goes away adjourns the game,
/// RESUME brings them back, CLAIM takes the win after the grace period; and
/// the clock (`nextDeadline`, `tick`): the computer's moves, games on a
/// clock, grace periods: it sets each game's deadline in `deadlines` (the
/// lobby's registry, which the rooms touch as they change).
final class Away: Broadcasting {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift).
    let rooms: Rooms
    /// When each game next needs the clock: the computer to play, or a grace
    /// period to end (kept by the rooms, which touch it as they change).
    let deadlines: Deadlines<Room>
    /// The parts it uses, below it (GamePart): the tick's and RESUME's.
    let watching: WatchDesk
    let lifecycle: Lifecycle
    let play: GamePlay
    let recovery: RecoveryDesk
    /// Who waits for an opponent: asked at every loop turn whether seekers
    /// are due (Waiting.swift).
    let waiting: Waiting

    init(context: LobbyContext, rooms: Rooms, deadlines: Deadlines<Room>, watching: WatchDesk, lifecycle: Lifecycle,
         play: GamePlay, recovery: RecoveryDesk, waiting: Waiting) {
        self.context = context
        self.rooms = rooms
        self.deadlines = deadlines
        self.watching = watching
        self.lifecycle = lifecycle
        self.play = play
        self.recovery = recovery
        self.waiting = waiting
    }

    // MARK: Away and back

    func adjourn(_ gameID: Int, seat: Int) {
        guard let room = rooms[gameID] else { return }
        room.seats[seat] = nil
        room.awaySince[seat] = clock.monotonic
        room.claimAnnounced = false
        log("game \(gameID) adjourned: \(room.names[seat]) is away")
        broadcast(gameID, .adjourned(id: gameID, player: room.names[seat], grace: graceLeft(room)))
        broadcast(gameID, .info("\(room.names[seat]) is away. The game waits; if they are still away \(Int(settings.graceSeconds)) s into their turn, you may CLAIM it."))
    }

    /// Why a name may not take its seat again (the operator banned it: Moderation.swift), nil if it may.
    var refusal: (String) -> ServerLine? = { _ in nil }

    func resume(_ token: String, _ id: ConnectionID, _ session: Session) {
        // A game not in memory is loaded from the store (Lifecycle.swift).
        var found = rooms.tokens[token]
        if found == nil {
            guard let loaded = persist({ try lifecycle.loadGame(token: token) }) else { return failed(id) }
            found = loaded
        }
        guard let (gameID, seat) = found, let room = rooms[gameID] else {
            // A finished game's token: how it ended, so a player who was away learns the result.
            guard let done = persist({ try store.finishedGame(token: token) }) else { return failed(id) }
            guard let done else { return reply(id, .error(.badToken, "no game in progress has that token")) }
            // A watcher of the game learns its end here: not again, after, from its watchers' last batch.
            watching.skip(done.id, for: id)
            // The kind, unless the default: a client learns whose words its OVER is in.
            reply(id, .ok(.resume(id: done.id, over: true, game: done.kind == catalog.defaultKind.name ? nil : done.kind)))
            if done.reason == Store.abortedReason {
                // No winner: ABORTED says why and when (Lifecycle.swift).
                let why = ScoresDesk.fields(stored: done.finalState).first { $0.key == "abort" }?.value ?? ""
                return reply(id, .aborted(id: done.id, reason: AbortReason(rawValue: why), ended: done.endedAt))
            }
            let fields = ScoresDesk.fields(stored: done.finalState) + [Field("ended", "\(done.endedAt)")]
            guard let winner = done.winner, let loser = done.loser else {
                return reply(id, .drawn(id: done.id, players: done.players, reason: OverReason(rawValue: done.reason), fields: fields))
            }
            return reply(id, .over(id: done.id, winner: winner, loser: loser, reason: OverReason(rawValue: done.reason), fields: fields))
        }
        if case .playing(let g, let s) = session.state, g == gameID, s == seat {
            reply(id, .ok(.resume(id: gameID)))
            return play.sendState(gameID, to: seat)
        }
        guard !isPlaying(session) else {
            return reply(id, .error(.busy, "you are in another game"))
        }
        let name = room.names[seat]
        if let banned = refusal(name) { return reply(id, banned) }
        // Whoever else holds this name gives it up, unless it is playing with it.
        if let holder = sessions.names[name.lowercased()], holder != id, holder != room.seats[seat] {
            if let other = sessions[holder], isPlaying(other) {
                return reply(id, .error(.nameTaken, "\(name) is playing another game on another connection"))
            }
            if let other = sessions[holder] { waiting.stopWaiting(holder, other) }
            // Its rematch request goes with the name (as at NAME).
            forgetLastGame(holder)
            sessions.update(holder) { $0.name = nil }
            outbox.send(.info("The player \(name) came back with their resume token; send NAME to pick a name."), to: holder)
        }
        // A stale connection still in the seat is replaced.
        if let old = room.seats[seat], old != id {
            sessions.update(old) { $0.state = .idle }
            sessions.update(old) { $0.name = nil }
            outbox.close(old, .replaced, "your seat in game \(gameID) was resumed from another connection")
        }
        waiting.stopWaiting(id, session)
        watching.stopWatching(id)
        if let mine = session.name, mine.lowercased() != name.lowercased(), sessions.names[mine.lowercased()] == id {
            sessions.names[mine.lowercased()] = nil
        }
        sessions.names[name.lowercased()] = id
        sessions.update(id) { $0.name = name }
        sessions.update(id) { $0.state = .playing(game: gameID, seat: seat) }
        forgetLastGame(id)
        let wasAway = room.seats[seat] == nil
        room.seats[seat] = id
        room.awaySince[seat] = nil
        room.claimAnnounced = false
        reply(id, .ok(.resume(id: gameID)))
        play.sendState(gameID, to: seat)
        play.scheduleComputer(gameID)
        if wasAway {
            if let other = room.seats[1 - seat] { outbox.send(.returned(id: gameID, player: name), to: other) }
            watching.toWatchers(gameID, .returned(id: gameID, player: name))
        }
        log("game \(gameID) resumed: \(name) is back")
    }

    private func isPlaying(_ s: Session) -> Bool {
        if case .playing = s.state { return true }
        return false
    }

    func claim(_ id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let room = rooms[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        let stalling = !room.isAway(1 - seat) && room.game.toMove != seat && room.stallDeadline(settings) != nil
        guard room.isAway(1 - seat) || stalling else {
            return reply(id, .error(.notClaimable, room.bot(1 - seat) != nil ? "the computer never leaves" : "your opponent is here"))
        }
        guard room.game.toMove != seat, let deadline = room.claimDeadline(settings) else {
            return reply(id, .error(.notClaimable, "it is your turn: the grace period runs only while the absent player is to move"))
        }
        guard clock.monotonic >= deadline else {
            return reply(id, .error(.notClaimable, stalling
                ? "\(room.names[1 - seat]) has \(graceLeft(room)) s left to move before you may claim"
                : "the grace period ends in \(graceLeft(room)) s"))
        }
        let info = stalling ? "\(room.names[1 - seat]) did not move for \(Int(settings.moveTimeout)) s; \(room.names[seat]) claimed the game." : nil
        guard play.finish(gameID, loser: 1 - seat, reason: .abandoned, ack: (id, .ok(.claim)), info: info) else { return failed(id) }
    }

    /// The next moment the clock matters to a game (the computer plays, a
    /// grace period ends), if any (monotonic seconds). Costs the games changed
    /// since the last call plus O(log n): see `Deadlines`.
    var nextDeadline: Double? {
        refreshDeadlines()
        // Asked at every loop turn: no array, and the watchers' only when some wait.
        var next = deadlines.next
        if let d = waiting.seekersDue, next.map({ d < $0 }) ?? true { next = d }
        if watching.anyDue, let d = watching.watchersDue, next.map({ d < $0 }) ?? true { next = d }
        return next
    }

    /// Plays the computer's moves that are due, ends the games whose player
    /// to move ran out of time, announces the grace periods that have ended,
    /// and tells waiting seekers how the other seek queues changed.
    func tick() {
        refreshDeadlines()
        let now = clock.monotonic
        if let due = waiting.seekersDue, due <= now { waiting.tellSeekers() }
        if watching.anyDue { watching.tellWatchers(now) }
        lifecycle.sweepUntouchedIfDue(now: now)
        for gameID in deadlines.takeDue(now) {
            if lifecycle.lifecycleTick(gameID, now: now) { continue }
            if let room = rooms[gameID] {
                deadlines.touch(room)   // whatever happens next, its deadline is worked out again
                if let due = room.botDue, due <= now { recovery.runCommand(game: gameID, savepoint: false) { play.playComputer(gameID) } }
            }
            if let room = rooms[gameID], let due = room.clockDeadline(), due <= now {
                let loser = room.game.toMove
                log("game \(gameID): \(room.names[loser]) ran out of time")
                recovery.runCommand(game: gameID) { play.finish(gameID, loser: loser, reason: .time) }
                // Not stored (the disk is full): try again a little later, not every loop turn.
                if let again = rooms[gameID], let due = again.clockDeadline(), due <= now {
                    again.timeRetry = now + RecoveryDesk.storeRetrySeconds
                }
                continue
            }
            guard let room = rooms[gameID], !room.claimAnnounced,
                  let deadline = room.claimDeadline(context.settings), deadline <= now else { continue }
            room.claimAnnounced = true
            // To the player who may claim (and the watchers), as Protocol.md
            // §4 says; the one who did not move, if here, is told in words
            // (it got CLAIMABLE about itself).
            let stalled = room.game.toMove
            let absent = room.names[stalled]
            let claimable = ServerLine.claimable(id: gameID, player: absent)
            let info = ServerLine.info(room.isAway(stalled)
                ? "\(absent) has been away past the grace period: send CLAIM to take the win, or keep waiting."
                : "\(absent) has not moved for \(Int(settings.moveTimeout)) s: send CLAIM to take the win, or keep waiting.")
            outbox.send(claimable, toEach: [room.seats[1 - stalled]])
            outbox.send(info, toEach: [room.seats[1 - stalled]])
            watching.toWatchers(gameID, claimable)
            watching.toWatchers(gameID, info)
            if !room.isAway(stalled), let here = room.seats[stalled] {
                outbox.send(.info("You have not moved for \(Int(settings.moveTimeout)) s: \(room.names[1 - stalled]) may now claim the game; move to play on."), to: here)
            }
        }
        refreshDeadlines()
    }

    /// Works out again the deadline of each room changed since the last time.
    private func refreshDeadlines() {
        deadlines.drainTouched { room in
            // A room replaced or removed since it was touched has no deadline
            // (`listed`: it is the one in `rooms`, known without a look-up;
            // the one that replaced it has its own).
            deadlines.set(room, room.listed ? deadline(of: room) : nil)
        }
    }

    /// The next moment the clock matters to this game, if any.
    func deadline(of room: Room) -> Double? {
        // Asked for every room a turn touched: no array, no copy of the settings.
        var next = room.botDue
        func earlier(_ d: Double?) { if let d, next.map({ d < $0 }) ?? true { next = d } }
        if !room.claimAnnounced { earlier(room.claimDeadline(context.settings)) }
        earlier(room.clockDeadline())
        earlier(lifecycle.lifecycleDeadline(room))
        return next
    }
}
