import GameKit
import GhostCore
import GhostProtocol

/// Watching games in progress (`GAMES`, `WATCH`, `UNWATCH`): a watcher gets
/// the game's full state as a player would, without anything meant for one
/// seat (no token, no kind's `privateFields`), then every line the players
/// get by `broadcast`, until the game's end. Nothing here knows a kind: what a
/// watcher sees is the kind's public fields, so a secret stays one by construction.
///
/// Watchers' copies are delivered in batches (`Settings.watchBatchInterval`):
/// a line for them is kept once per game, and the batch goes out from `tick`,
/// after the turn's commands, rendered once for all of them. A move then
/// costs the same whether one or a thousand watch, and the players' replies
/// are queued, and written, before the watchers'.
extension Lobby {
    /// Watchers written to per game and loop turn: a batch for a thousand
    /// goes out over several turns, and the players' commands are read and
    /// answered between them, never behind a thousand writes.
    static let watchSlice = 128

    /// The most lines of a game one batch carries to its watchers; past it
    /// they get the game's state instead (a game played that fast has no
    /// one who could follow it move by move).
    static let maxWatchBatchLines = 64

    /// How many watch the game now.
    func watcherCount(_ gameID: Int) -> Int { watchers.count(gameID) }

    /// Everyone watching a game, for STATS.
    var watcherTotal: Int { watchers.total }

    // MARK: Commands

    /// GAMES [n]: the games in progress anyone may watch, most recent first.
    /// O(n + log N): `rooms.open` keeps their ids in order.
    func listGames(_ limit: Int, _ id: ConnectionID) {
        var count = 0
        for gameID in rooms.open.newestFirst {
            guard count < limit else { break }
            // A game over is taken off the list in the same command; never listed.
            guard let table = rooms[gameID], !table.game.isOver else { continue }
            reply(id, liveLine(table))
            count += 1
        }
        reply(id, .ok(.games(count: count, more: rooms.open.count > count)))
    }

    /// A game as GAMES lists it: who plays, how far it is, how it was set up.
    func liveLine(_ table: Room) -> ServerLine {
        .live(id: table.id, kind: GameKind(rawValue: table.kind.name), players: table.names, lang: table.lang,
              moves: table.game.moveCount, watchers: watcherCount(table.id),
              fields: table.game.setupFields + table.kind.gameFields(table.match) + (table.clock.map { [Field("clock", "\($0)")] } ?? []))
    }

    /// WATCH <id>: from now on, the game's state and events.
    func watch(_ gameID: Int, _ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .playing: return reply(id, .error(.busy, "you are in a game; players cannot watch"))
        case .seeking: return reply(id, .error(.busy, "you are seeking a game; LEAVE to stop, then WATCH"))
        case .hosting(let code, _, _): return reply(id, .error(.busy, "you are hosting the private game \(code); LEAVE to close it, then WATCH"))
        case .idle: break
        }
        // A private game is answered as one that does not exist: its existence is its players' too.
        guard let table = rooms[gameID], !table.game.isOver, table.open else {
            return reply(id, .error(.noSuchGame, "no game in progress has the id \(gameID); GAMES lists them"))
        }
        if session.watching != gameID { stopWatching(id) }
        let group = watchers.groups[gameID] ?? WatchGroup()
        watchers.groups[gameID] = group
        if !group.members.contains(id) {
            group.members.append(id)
            watchers.due.insert(gameID)
        }
        // A batch half on its way is older than the state it gets now.
        if group.delivering, let i = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: i) }
        // The lines waiting for the others are older than the state it gets now.
        if !group.pending.isEmpty { group.joinedAt[id] = group.pending.count }
        sessions.byID[id]?.watching = gameID
        reply(id, .ok(.watch(id: gameID)))
        for line in watcherState(table) { reply(id, line) }
    }

    /// UNWATCH.
    func unwatch(_ id: ConnectionID, _ session: Session) {
        guard let gameID = session.watching else {
            return reply(id, .error(.notWatching, "you are not watching a game"))
        }
        stopWatching(id)
        reply(id, .ok(.unwatch(id: gameID)))
    }

    /// The connection watches nothing from now on (it may have watched nothing).
    func stopWatching(_ id: ConnectionID) {
        guard let gameID = sessions[id]?.watching else { return }
        sessions.byID[id]?.watching = nil
        guard let group = watchers.groups[gameID], let i = group.members.firstIndex(of: id) else { return }
        group.members.remove(at: i)
        group.joinedAt[id] = nil
        // The rest of a batch half on its way is not for it either (were the
        // game to end, its last batch goes to everyone it was meant for).
        if group.delivering, let j = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: j) }
        watchers.due.insert(gameID)
    }

    /// The connection was just told how a game it watched ended, another
    /// way than its watchers' batch (RESUME with a token of the game): the
    /// lines still on their way to the game's watchers are older than that,
    /// and none of them go to it.
    func skipWatchLines(_ gameID: Int, _ id: ConnectionID) {
        guard let group = watchers.groups[gameID], group.members.contains(id) else { return }
        if group.delivering, let i = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: i) }
        group.joinedAt[id] = group.pending.count
    }

    // MARK: What watchers get

    /// The full state of a game for a watcher: GAME without a token or any
    /// seat's private fields, with `watching=yes`; the pending offer; who is
    /// away; TURN with the kind's state fields.
    func watcherState(_ table: Room) -> [ServerLine] {
        var lines: [ServerLine] = [
            .game(id: table.id, kind: GameKind(rawValue: table.kind.name), lang: table.lang, players: table.names, token: nil,
                  round: table.match.round, bot: table.namedLevel, fields: table.game.setupFields + table.kind.gameFields(table.match),
                  clock: table.clock, audience: Audience(open: table.open, watchers: watcherCount(table.id), watching: true),
                  ratings: tableRating(table)?.shown),
        ]
        if let offer = table.offer {
            lines.append(.offer(id: table.id, player: table.names[offer.seat], kind: offer.kind, lang: offer.lang))
        }
        for seat in 0..<2 where table.isAway(seat) {
            lines.append(.adjourned(id: table.id, player: table.names[seat], grace: graceLeft(table)))
        }
        lines.append(stateTurnLine(table))
        return lines
    }

    /// How long a game's watchers' lines wait for their batch: the
    /// `watchBatchInterval`, or longer for a large audience,
    /// `watchBatchPerWatcher` for each watcher (at most `maxWatchBatchInterval`),
    /// so that the sends a second cost the same however many watch: a batch
    /// is one send per watcher.
    func batchInterval(_ group: WatchGroup) -> Double {
        min(max(settings.watchBatchInterval, Double(group.members.count) * settings.watchBatchPerWatcher),
            max(settings.watchBatchInterval, Lobby.maxWatchBatchInterval))
    }

    /// The longest a large audience's lines wait for their batch.
    static let maxWatchBatchInterval = 1.0

    /// A line for the game's watchers (never one meant for one seat): at
    /// once without batching, otherwise with the next batch.
    func toWatchers(_ gameID: Int, _ line: ServerLine) {
        guard let group = watchers.groups[gameID], !group.members.isEmpty, !group.closing else { return }
        guard settings.watchBatchInterval > 0 else { return outbox.send([line], toEach: group.members) }
        if watchers.marks[gameID] == nil { watchers.marks[gameID] = (group.pending.count, group.closing) }
        group.pending.append(line)
        watchers.due.insert(gameID)
    }

    /// The game is over (its last lines are on their way): its watchers no
    /// longer watch. The group goes at the commit, once its lines are out.
    func endWatching(_ gameID: Int) {
        guard let group = watchers.groups[gameID], !group.closing else { return }
        if watchers.marks[gameID] == nil { watchers.marks[gameID] = (group.pending.count, group.closing) }
        group.closing = true
        for m in group.members where sessions.byID[m]?.watching == gameID { sessions.byID[m]?.watching = nil }
        watchers.closed.append(gameID)
        watchers.due.insert(gameID)
    }

    /// When `tick` next has something to tell watchers: a batch to deliver,
    /// or a number of watchers to announce.
    var watchersDue: Double? {
        var next: Double?
        for gameID in watchers.due {
            guard let group = watchers.groups[gameID] else { return -.infinity }   // tick forgets it
            if group.delivering { return -.infinity }
            var due: Double?
            if !group.pending.isEmpty { due = group.closing ? -.infinity : group.deliveredAt + batchInterval(group) }
            if !group.closing, group.members.count != group.told {
                let told = group.toldAt + settings.watchersInterval
                due = min(due ?? told, told)
            }
            if due == nil { return -.infinity }   // nothing left: tick forgets it
            if let d = due, next.map({ d < $0 }) ?? true { next = d }
        }
        return next
    }

    /// From `tick`: announces changed numbers of watchers (WATCHERS, to the
    /// players and the watchers, at most once per `watchersInterval` per
    /// game) and delivers the batches that are due.
    func tellWatchers(_ now: Double) {
        for gameID in watchers.due {
            guard let group = watchers.groups[gameID] else {
                watchers.due.remove(gameID)
                continue
            }
            guard group.closing || rooms[gameID] != nil else {
                // The game is gone without an end (never expected): so is its watching.
                for m in group.members where sessions.byID[m]?.watching == gameID { sessions.byID[m]?.watching = nil }
                watchers.groups[gameID] = nil
                watchers.due.remove(gameID)
                continue
            }
            if !group.closing, group.members.count != group.told, now >= group.toldAt + settings.watchersInterval,
               let table = rooms[gameID] {
                group.told = group.members.count
                group.toldAt = now
                let line = ServerLine.watchers(id: gameID, count: group.told)
                outbox.send(line, toEach: table.seats)
                if !group.members.isEmpty {
                    if settings.watchBatchInterval > 0 { group.pending.append(line) } else { outbox.send([line], toEach: group.members) }
                }
            }
            if group.delivering {
                deliverSlice(gameID, group)
            } else if !group.pending.isEmpty, group.closing || now >= group.deliveredAt + batchInterval(group) {
                deliver(gameID, group, now)
            }
            if group.pending.isEmpty, !group.delivering, group.closing || group.members.count == group.told {
                watchers.due.remove(gameID)
                if group.members.isEmpty, group.told == 0, !group.closing { watchers.groups[gameID] = nil }
            }
        }
    }

    /// The pending lines become a batch for every watcher (those who came
    /// while they waited get what followed their state, at once); it goes
    /// out `watchSlice` watchers at a time, rendered once per slice.
    private func deliver(_ gameID: Int, _ group: WatchGroup, _ now: Double) {
        // A game faster than anyone can watch (more than `maxWatchBatchLines`
        // lines in one batch: a bench, a script): its watchers get its state
        // as it is now instead of every line, so what its watchers cost the
        // server per batch stays bounded. A game that is over sends its last
        // lines (its end among them).
        if group.pending.count > Lobby.maxWatchBatchLines {
            if !group.closing, let table = rooms[gameID] {
                group.pending = watcherState(table)
                group.joinedAt.removeAll()
            } else {
                // Who got some of these lines another way still gets none of those.
                let dropped = group.pending.count - Lobby.maxWatchBatchLines
                group.pending.removeFirst(dropped)
                for (m, first) in group.joinedAt { group.joinedAt[m] = max(0, first - dropped) }
            }
        }
        group.sendingTo.removeAll(keepingCapacity: true)
        if group.joinedAt.isEmpty {
            group.sendingTo.append(contentsOf: group.members)
        } else {
            group.sendingTo.append(contentsOf: group.members.lazy.filter { group.joinedAt[$0] == nil })
            for (m, first) in group.joinedAt.sorted(by: { $0.key < $1.key }) where first < group.pending.count {
                outbox.send(Array(group.pending[first...]), toEach: [m])
            }
            group.joinedAt.removeAll()
        }
        swap(&group.sending, &group.pending)
        group.pending.removeAll(keepingCapacity: true)
        group.sent = 0
        group.deliveredAt = now
        deliverSlice(gameID, group)
    }

    /// The next slice of the batch on its way; a watcher that stopped
    /// watching since it began is skipped, and so is one whose connection is
    /// gone (a game's end stops its watching before the last batch goes: a
    /// watcher that left meanwhile is still in that batch).
    private func deliverSlice(_ gameID: Int, _ group: WatchGroup) {
        let end = min(group.sendingTo.count, group.sent + Lobby.watchSlice)
        let slice = group.sendingTo[group.sent..<end].filter {
            guard let session = sessions[$0] else { return false }
            return session.watching == gameID || group.closing
        }
        outbox.send(group.sending, toEach: slice)
        group.sent = end
        if !group.delivering {
            group.sending.removeAll(keepingCapacity: true)
            group.sendingTo.removeAll(keepingCapacity: true)
            group.sent = 0
        }
    }

    // MARK: Commits and failed writes

    /// At the commit: the groups of finished games whose lines are out go.
    func dropClosedWatches() { watchers.dropClosed() }

    /// The command in progress was undone: its lines for watchers are
    /// withdrawn, and a game it ended is watched again.
    func undoWatching() {
        for (gameID, mark) in watchers.marks {
            guard let group = watchers.groups[gameID] else { continue }
            if group.pending.count > mark.pending { group.pending.removeLast(group.pending.count - mark.pending) }
            for (m, first) in group.joinedAt where first > group.pending.count { group.joinedAt[m] = group.pending.count }
            if group.closing && !mark.closing {
                group.closing = false
                for m in group.members where sessions.byID[m] != nil && sessions.byID[m]?.watching == nil { sessions.byID[m]?.watching = gameID }
            }
        }
        watchers.marks.removeAll(keepingCapacity: true)
    }

    /// A turn was lost (the store rolled it back, and its lines were
    /// withdrawn): each game still in progress is watched again as it is
    /// now, its watchers getting its full state; the watchers of a game
    /// that no longer is are told.
    func recoverWatchers() {
        watchers.marks.removeAll()
        for (gameID, group) in watchers.groups {
            group.pending.removeAll()
            group.joinedAt.removeAll()
            group.sending.removeAll()
            group.sendingTo.removeAll()
            group.sent = 0
            guard let table = rooms[gameID], !table.game.isOver else {
                for m in group.members where sessions[m]?.watching == gameID {
                    sessions.byID[m]?.watching = nil
                    outbox.send(.info("The server could not store the game you watched; you are not watching it now."), to: m)
                }
                watchers.groups[gameID] = nil
                watchers.due.remove(gameID)
                continue
            }
            group.members.removeAll { m in
                guard let s = sessions[m], s.state == .idle else { return true }
                return s.watching != gameID && s.watching != nil
            }
            group.closing = false
            for m in group.members { sessions.byID[m]?.watching = gameID }
            outbox.send(watcherState(table), toEach: group.members)
            watchers.due.insert(gameID)
        }
        watchers.closed.removeAll()
    }
}
