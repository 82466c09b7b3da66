import GhostProtocol

/// Watchers' delivery, moved here from the lobby (WatchDesk.swift keeps
/// the commands, WATCH, UNWATCH, GAMES, and what a watcher sees): who joins
/// and leaves a group, lines kept for the next batch, the batches sent
/// `WatchDesk.watchSlice` watchers per loop turn, WATCHERS, and putting groups
/// back after a command is undone or a turn is lost. What it needs of the
/// lobby (the settings, the sessions, the rooms, the outbox) it is given.
extension Watchers {
    // MARK: Joining and leaving

    /// `id` watches `gameID` from now on (WATCH): it gets the game's state
    /// from the lobby, so nothing older than that.
    func add(_ id: ConnectionID, to gameID: Int) {
        let group = groups[gameID] ?? WatchGroup()
        groups[gameID] = group
        if !group.members.contains(id) {
            group.members.append(id)
            due.insert(gameID)
        }
        // A batch half on its way is older than the state it gets now.
        if group.delivering, let i = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: i) }
        // The lines waiting for the others are older than the state it gets now.
        if !group.pending.isEmpty { group.joinedAt[id] = group.pending.count }
    }

    /// `id` no longer watches `gameID` (its session says so already).
    func remove(_ id: ConnectionID, from gameID: Int) {
        guard let group = groups[gameID], let i = group.members.firstIndex(of: id) else { return }
        group.members.remove(at: i)
        group.joinedAt[id] = nil
        // The rest of a batch half on its way is not for it either (were the
        // game to end, its last batch goes to everyone it was meant for).
        if group.delivering, let j = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: j) }
        due.insert(gameID)
    }

    /// The connection was just told how a game it watched ended, another
    /// way than its watchers' batch (RESUME with a token of the game): the
    /// lines still on their way to the game's watchers are older than that,
    /// and none of them go to it.
    func skip(_ gameID: Int, for id: ConnectionID) {
        guard let group = groups[gameID], group.members.contains(id) else { return }
        if group.delivering, let i = group.sendingTo[group.sent...].firstIndex(of: id) { group.sendingTo.remove(at: i) }
        group.joinedAt[id] = group.pending.count
    }

    // MARK: Lines for watchers

    /// How long a game's watchers' lines wait for their batch: the
    /// `watchBatchInterval`, or longer for a large audience,
    /// `watchBatchPerWatcher` for each watcher (at most `maxWatchBatchInterval`),
    /// so that the sends a second cost the same however many watch: a batch
    /// is one send per watcher.
    static func batchInterval(_ group: WatchGroup, _ settings: Lobby.Settings) -> Double {
        min(max(settings.watchBatchInterval, Double(group.members.count) * settings.watchBatchPerWatcher),
            max(settings.watchBatchInterval, WatchDesk.maxWatchBatchInterval))
    }

    /// A line for the game's watchers (never one meant for one seat): at
    /// once without batching (`batchInterval` 0), otherwise with the next batch.
    func send(_ line: ServerLine, to gameID: Int, batchInterval: Double, outbox: Outbox) {
        guard let group = groups[gameID], !group.members.isEmpty, !group.closing else { return }
        guard batchInterval > 0 else { return outbox.send([line], toEach: group.members) }
        if marks[gameID] == nil { marks[gameID] = (group.pending.count, group.closing) }
        group.pending.append(line)
        due.insert(gameID)
    }

    /// The game is over (its last lines are on their way): its watchers no
    /// longer watch. The group goes at the commit, once its lines are out.
    func end(_ gameID: Int, sessions: Sessions) {
        guard let group = groups[gameID], !group.closing else { return }
        if marks[gameID] == nil { marks[gameID] = (group.pending.count, group.closing) }
        group.closing = true
        for m in group.members where sessions.byID[IDKey(m)]?.watching == gameID { sessions.byID[IDKey(m)]?.watching = nil }
        closed.append(gameID)
        due.insert(gameID)
    }

    // MARK: Batches

    /// When `tick` next has something to tell watchers: a batch to deliver,
    /// or a number of watchers to announce.
    func nextDue(_ settings: Lobby.Settings) -> Double? {
        var next: Double?
        for gameID in due {
            guard let group = groups[gameID] else { return -.infinity }   // tick forgets it
            if group.delivering { return -.infinity }
            var due: Double?
            if !group.pending.isEmpty { due = group.closing ? -.infinity : group.deliveredAt + Watchers.batchInterval(group, settings) }
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
    /// game) and delivers the batches that are due. `state` is a room's
    /// full state for a watcher (`WatchDesk.watcherState`).
    func tell(_ now: Double, settings: Lobby.Settings, rooms: Rooms, sessions: Sessions, outbox: Outbox,
              state: (Lobby.Room) -> [ServerLine]) {
        for gameID in due {
            guard let group = groups[gameID] else {
                due.remove(gameID)
                continue
            }
            guard group.closing || rooms[gameID] != nil else {
                // The game is gone without an end (never expected): so is its watching.
                for m in group.members where sessions.byID[IDKey(m)]?.watching == gameID { sessions.byID[IDKey(m)]?.watching = nil }
                groups[gameID] = nil
                due.remove(gameID)
                continue
            }
            if !group.closing, group.members.count != group.told, now >= group.toldAt + settings.watchersInterval,
               let room = rooms[gameID] {
                group.told = group.members.count
                group.toldAt = now
                let line = ServerLine.watchers(id: gameID, count: group.told)
                outbox.send(line, toEach: room.seats)
                if !group.members.isEmpty {
                    if settings.watchBatchInterval > 0 { group.pending.append(line) } else { outbox.send([line], toEach: group.members) }
                }
            }
            if group.delivering {
                deliverSlice(gameID, group, sessions: sessions, outbox: outbox)
            } else if !group.pending.isEmpty, group.closing || now >= group.deliveredAt + Watchers.batchInterval(group, settings) {
                deliver(gameID, group, now, rooms: rooms, sessions: sessions, outbox: outbox, state: state)
            }
            if group.pending.isEmpty, !group.delivering, group.closing || group.members.count == group.told {
                due.remove(gameID)
                if group.members.isEmpty, group.told == 0, !group.closing { groups[gameID] = nil }
            }
        }
    }

    /// The pending lines become a batch for every watcher (those who came
    /// while they waited get what followed their state, at once); it goes
    /// out `watchSlice` watchers at a time, rendered once per slice.
    private func deliver(_ gameID: Int, _ group: WatchGroup, _ now: Double, rooms: Rooms, sessions: Sessions, outbox: Outbox,
                         state: (Lobby.Room) -> [ServerLine]) {
        // A game faster than anyone can watch (more than `maxWatchBatchLines`
        // lines in one batch: a bench, a script): its watchers get its state
        // as it is now instead of every line, so what its watchers cost the
        // server per batch stays bounded. A game that is over sends its last
        // lines (its end among them).
        if group.pending.count > WatchDesk.maxWatchBatchLines {
            if !group.closing, let room = rooms[gameID] {
                group.pending = state(room)
                group.joinedAt.removeAll()
            } else {
                // Who got some of these lines another way still gets none of those.
                let dropped = group.pending.count - WatchDesk.maxWatchBatchLines
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
        deliverSlice(gameID, group, sessions: sessions, outbox: outbox)
    }

    /// The next slice of the batch on its way; a watcher that stopped
    /// watching since it began is skipped, and so is one whose connection is
    /// gone (a game's end stops its watching before the last batch goes: a
    /// watcher that left meanwhile is still in that batch).
    private func deliverSlice(_ gameID: Int, _ group: WatchGroup, sessions: Sessions, outbox: Outbox) {
        let end = min(group.sendingTo.count, group.sent + WatchDesk.watchSlice)
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

    // MARK: Failed writes

    /// The command in progress was undone: its lines for watchers are
    /// withdrawn, and a game it ended is watched again.
    func undo(sessions: Sessions) {
        for (gameID, mark) in marks {
            guard let group = groups[gameID] else { continue }
            if group.pending.count > mark.pending { group.pending.removeLast(group.pending.count - mark.pending) }
            for (m, first) in group.joinedAt where first > group.pending.count { group.joinedAt[m] = group.pending.count }
            if group.closing && !mark.closing {
                group.closing = false
                for m in group.members where sessions.byID[IDKey(m)] != nil && sessions.byID[IDKey(m)]?.watching == nil { sessions.byID[IDKey(m)]?.watching = gameID }
            }
        }
        marks.removeAll(keepingCapacity: true)
    }

    /// A turn was lost (the store rolled it back, and its lines were
    /// withdrawn): each game still in progress is watched again as it is
    /// now, its watchers getting its full state (`state`); the watchers of
    /// a game that no longer is are told.
    func recover(rooms: Rooms, sessions: Sessions, outbox: Outbox, state: (Lobby.Room) -> [ServerLine]) {
        marks.removeAll()
        for (gameID, group) in groups {
            group.pending.removeAll()
            group.joinedAt.removeAll()
            group.sending.removeAll()
            group.sendingTo.removeAll()
            group.sent = 0
            guard let room = rooms[gameID], !room.game.isOver else {
                for m in group.members where sessions[m]?.watching == gameID {
                    sessions.update(m) { $0.watching = nil }
                    outbox.send(.info("The server could not store the game you watched; you are not watching it now."), to: m)
                }
                groups[gameID] = nil
                due.remove(gameID)
                continue
            }
            group.members.removeAll { m in
                guard let s = sessions[m], s.state == .idle else { return true }
                return s.watching != gameID && s.watching != nil
            }
            group.closing = false
            for m in group.members { sessions.byID[IDKey(m)]?.watching = gameID }
            outbox.send(state(room), toEach: group.members)
            due.insert(gameID)
        }
        closed.removeAll()
    }
}
