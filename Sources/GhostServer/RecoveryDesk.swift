import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// Recovery (`lobby.recovery`). When the store cannot take a write (a full disk, `--max-db-pages`), the
/// lobby keeps serving: the command whose write failed is undone and answered
/// `ERR store-failed`, and nothing unconfirmed is ever acknowledged.
///
/// - A failed statement: each command runs as a unit (`runCommand`). Its
///   writes are rolled back to the savepoint the store took before its first
///   write (a letter takes none, and is undone alone only if its first write
///   fails; otherwise the turn is lost, as below), everything it sent is
///   withdrawn from the outbox, the games it
///   touched are reloaded from the store (the lobby changes its rooms only
///   after a write, except in a few places that this reload covers: see
///   `resynchronise(game:)`), and its sender gets one `ERR store-failed`.
/// - A failed commit (`recoverLostTurn`): the store has rolled back the whole
///   turn; the event loop has withdrawn every reply of the turn and answered
///   each of its commands `ERR store-failed`. The lobby then puts back the
///   names and languages changed during the turn, reloads every game in
///   memory (and each the turn ended) from the store, not the games that
///   are only stored (Lifecycle.swift), keeps connected players seated where their
///   games still exist, returns the others to the lobby, and sends the
///   game's state again to each seated player whose lines were withdrawn
///   (the others saw nothing of the turn).
final class RecoveryDesk: GamePart {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift), and when each next needs the clock.
    let rooms: Rooms
    let deadlines: Deadlines<Room>
    /// The parts it uses, below it (GamePart): a command's watchers' lines,
    /// and who waits (a connection seated again stops waiting).
    let watching: WatchDesk
    let waiting: Waiting
    /// Failed writes and what a lost turn needs to be undone.
    var recovery = Recovery()
    /// Set only when the lobby could not resynchronise with the store after a
    /// failed write (the database cannot even be read): the server must then
    /// stop without sending this turn's replies (`Lobby.storeError`). SQLite's
    /// only: PostgreSQL out of reach is an `outage` instead.
    var storeError: Error?
    /// Set while PostgreSQL is out of reach: the server serves on without it
    /// (StoreOutage.swift), and puts the games back once it answers.
    var outage: StoreOutage?

    init(context: LobbyContext, rooms: Rooms, deadlines: Deadlines<Room>, watching: WatchDesk, waiting: Waiting) {
        self.context = context
        self.rooms = rooms
        self.deadlines = deadlines
        self.watching = watching
        self.waiting = waiting
    }

    /// The text of `ERR store-failed`.
    static let storeFailedText = "the server could not store this; nothing was done"
    /// Seconds before the computer tries again to play after a failed write.
    static let storeRetrySeconds = 1.0

    /// A connection's name and language, as they were before a change.
    struct Identity {
        let name: String?
        let lang: String
        let langChosen: Bool
    }

    /// What a failed write needs undone.
    struct Recovery {
        /// The first store error of the command in progress.
        var failure: Error?
        /// Games whose room the command in progress removed (they ended).
        var removedByCommand: [Int] = []
        /// Since the last commit: each connection's name and language before
        /// its first stored change of them.
        var identities: [ConnectionID: Identity] = [:]
        /// Since the last commit: the seats of the games whose room was
        /// removed (they ended), should the store get them back; a game's
        /// latest counts. A list, read only after a failure (`removedSeats`):
        /// a dictionary cost a hash to add each game's and the walk of its
        /// buckets to empty at every commit.
        var removed: [(game: Int, seats: [ConnectionID?])] = []

        /// The seats of the games `removed` holds, by game.
        var removedSeats: [Int: [ConnectionID?]] {
            Dictionary(removed.map { ($0.game, $0.seats) }, uniquingKeysWith: { _, latest in latest })
        }
    }

    // MARK: Commands as units

    /// Runs `body` (a command from `id`, or the computer's move in `game`) as
    /// one unit of the store and the outbox. This costs a few flag stores and
    /// an outbox mark, and, if the command writes and `savepoint` is set, a
    /// SAVEPOINT and its RELEASE (prepared statements, but with the page
    /// copies a savepoint makes, about as much as a letter's insert: letters
    /// go without). Without it, a command whose first write fails is still
    /// undone alone; if a later write fails, the whole turn is lost and
    /// `recoverLostTurn` undoes it. `identity` is the sender's session before
    /// a NAME or LANG.
    func runCommand(from id: ConnectionID? = nil, game: Int? = nil, identity: Session? = nil, savepoint: Bool = true,
                    _ body: () -> Void) {
        recovery.failure = nil
        watching.beginCommand()
        store.beginCommand(savepoint: savepoint)
        outbox.beginCommand()
        body()
        if recovery.failure == nil {
            do {
                let wrote = try store.endCommand()
                // Emptied keeping its buffer (`removeAll()` freed it, and the next game's end made another).
                while !recovery.removedByCommand.isEmpty { recovery.removedByCommand.removeLast() }
                if wrote, let id, let identity { noteIdentity(id, identity) }
                return
            } catch {
                storeFailed(error)
            }
        }
        undoCommand(from: id, game: game)
    }

    /// A store operation failed (from `persist`).
    func storeFailed(_ error: Error) {
        if recovery.failure == nil { recovery.failure = error }
        log("store failure: \(error)")
    }

    /// A game's room is going away (the game ended): remember who sat in it
    /// until the commit, in case the commit fails and the game comes back.
    func noteRemoved(_ room: Room) {
        recovery.removed.append((room.id, room.seats))
        recovery.removedByCommand.append(room.id)
    }

    /// The turn is committed: nothing of it can be lost any more.
    func committed() {
        watching.dropClosedWatches()
        if !recovery.identities.isEmpty { recovery.identities.removeAll(keepingCapacity: true) }
        // A few (nearly always): one by one, keeping the buffer (`removeAll` is the generic replaceSubrange).
        if recovery.removed.count <= 16 {
            while !recovery.removed.isEmpty { recovery.removed.removeLast() }
        } else {
            recovery.removed.removeAll(keepingCapacity: true)
        }
    }

    /// The command wrote: if it changed the sender's name or language,
    /// remember what they were before the turn, for a lost turn.
    private func noteIdentity(_ id: ConnectionID, _ before: Session) {
        guard recovery.identities[id] == nil, let after = sessions[id],
              after.name != before.name || after.lang != before.lang || after.langChosen != before.langChosen else { return }
        recovery.identities[id] = Identity(name: before.name, lang: before.lang, langChosen: before.langChosen)
    }

    /// A write of the command failed: roll its writes back, withdraw what it
    /// sent, put its games back as stored (the sender's, the computer's, and
    /// any the command ended), and answer its sender.
    private func undoCommand(from id: ConnectionID?, game: Int?) {
        outbox.discardCommand()
        watching.undoWatching()
        var games = recovery.removedByCommand
        recovery.removedByCommand.removeAll()
        if store.rollbackCommand() {
            if let id, case .playing(let g, _)? = sessions[id]?.state, !games.contains(g) { games.append(g) }
            if let game, !games.contains(game) { games.append(game) }
            do {
                try readingAfterFailure { for g in games { try resynchronise(game: g) } }
            } catch {
                cannotRead(error, after: "a failed write")
                if storeError != nil { return }
            }
        }
        // Otherwise SQLite rolled the whole turn back: the commit fails and
        // recoverLostTurn() puts everything back.
        if let id { reply(id, .error(.storeFailed, RecoveryDesk.storeFailedText)) }
    }

    // MARK: Reloading games from the store

    /// `read`, and on PostgreSQL, if it fails, once more after the store
    /// has its connection back (`Store.reconnect`): the loop waits for it
    /// (a restart takes a second or two), at most `--store-reconnect-wait`
    /// (`Settings.storeReconnectWait`), before an outage begins.
    private func readingAfterFailure<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch {
            // Out of reach already: the probe says when it is back, not a wait here.
            guard store.isPostgres, outage == nil else { throw error }
            log("cannot read \(store.path): \(error); waiting up to \(Server.figure(settings.storeReconnectWait)) s for it")
            guard store.reconnect(within: settings.storeReconnectWait) else { throw error }
            log("\(store.path) is back")
            return try read()
        }
    }

    /// The store could not be read after a failed write or commit. SQLite's
    /// file: the server must stop (`storeError`). PostgreSQL out of reach:
    /// an outage begins (or goes on), and the server serves without it.
    private func cannotRead(_ error: Error, after what: String) {
        log("cannot read \(store.path) after \(what): \(error)")
        guard let probe = store.probe else {
            storeError = error
            return
        }
        if let outage {
            // The probe found the server but it failed again: look again
            // (the clocks were moved on up to now).
            guard outage.isBack else { return }
            outage.stop()
            self.outage = StoreOutage(since: clock.monotonic, probe: probe, announced: outage.announced)
            return
        }
        log("\(store.path) is out of reach: serving on without it; every command but PING, HELP, STATS and QUIT gets ERR store-failed until it is back")
        outage = StoreOutage(since: clock.monotonic, probe: probe)
    }

    /// While the store is out of reach, once a second (the lobby's `tick`):
    /// tells every connection, the first time; once the probe finds the
    /// server, puts the games in memory back as stored (`recoverLostTurn`,
    /// with every seated player sent its game's state again), moves their
    /// clocks on by the outage's length, and tells everyone it is over.
    func outageTick(sendState: (_ game: Int, _ seat: Int) -> Void) {
        guard let outage else { return }
        if !outage.announced {
            outage.markAnnounced()
            for conn in sessions.keys.sorted() { outbox.send(.info(StoreOutage.announcement), to: conn) }
        }
        guard outage.isBack else { return }
        guard store.reconnect(within: 0) else {
            // Found by the probe, lost again before the loop's own connection: look again.
            outage.stop()
            if let probe = store.probe { self.outage = StoreOutage(since: outage.since, probe: probe, announced: true) }
            return
        }
        // The clocks first: a game put back in the same position keeps them.
        let now = clock.monotonic
        let length = max(0, now - outage.since)
        for room in rooms.byID.values {
            room.turnSince += length
            for seat in room.awaySince.indices { room.awaySince[seat] = room.awaySince[seat].map { $0 + length } }
        }
        recoverLostTurn(withdrawn: playingConnections(), sendState: sendState)
        // Not read after all (a new outage, from now): wait again.
        if let still = self.outage, still !== outage { return }
        outage.stop()
        self.outage = nil
        for room in rooms.byID.values where room.botDue != nil { room.botDue = now + RecoveryDesk.storeRetrySeconds }
        for conn in sessions.keys.sorted() { outbox.send(.info(StoreOutage.endText), to: conn) }
        log("\(store.path) is back after \(Int(length)) s: \(rooms.count) game(s) put back as stored")
    }

    /// Puts one game back as the store has it: after a failed command, the
    /// store is as it was before the command, and so is the game. This
    /// covers the places where the lobby changes a room before its write
    /// succeeds (a move is played on the room's game before `recordMove`,
    /// `Room.play`; a round's end changes the room before `nextRound`; LEAVE,
    /// CLAIM and the end of a game resign in the room before `finishGame`;
    /// an offer and a declined offer change the room before `setOffer`),
    /// and the game a failed command created (it is not in the store).
    func resynchronise(game id: Int) throws {
        let stored = try store.activeGame(id: id)
        let old = rooms[id]
        install(stored, id: id, replacing: old, seats: old?.seats ?? recovery.removed.last { $0.game == id }?.seats ?? [nil, nil])
    }

    /// A commit failed and the store rolled the turn back; the loop has
    /// withdrawn the turn's lines (from the connections in `withdrawn`) and
    /// answered its commands. Puts the lobby's memory back in step with the
    /// store and sends the state of its game to each seated player in
    /// `withdrawn` or seated again, through `sendState` (game, seat): the
    /// game play's, which is above this part, given by the lobby for the
    /// call. If the store cannot be read, sets `storeError` (the server must stop).
    func recoverLostTurn(withdrawn: Set<ConnectionID>, sendState: (_ game: Int, _ seat: Int) -> Void) {
        recovery.failure = nil
        for (conn, identity) in recovery.identities where sessions[conn] != nil {
            sessions.update(conn) { $0.name = identity.name }
            sessions.update(conn) { $0.lang = identity.lang }
            sessions.update(conn) { $0.langChosen = identity.langChosen }
        }
        let stored: [StoredGame]
        do {
            // The games in memory and those the turn ended, not every game
            // in the store: the others are not loaded (Lifecycle.swift).
            stored = try readingAfterFailure { try store.activeGames(ids: Set(rooms.keys).union(recovery.removed.map(\.game))) }
        } catch {
            cannotRead(error, after: "a failed commit")
            return
        }
        let wasPlaying = playingConnections()
        // Games started during the lost turn go first, so that their players are free.
        let storedIDs = Set(stored.map(\.id))
        for (key, old) in rooms.byID.sorted(by: { $0.key < $1.key }) where !storedIDs.contains(key.id) {
            install(nil, id: key.id, replacing: old, seats: old.seats)
        }
        var tell = withdrawn
        let removedSeats = recovery.removedSeats
        for g in stored {
            let old = rooms[g.id]
            // A game the lost turn did not change stays as it is.
            if let old, room(old, matches: g) { continue }
            let seated = install(g, id: g.id, replacing: old, seats: old?.seats ?? removedSeats[g.id] ?? [nil, nil])
            tell.formUnion(seated)
        }
        let ids = sessions.keys.sorted()
        // Whoever still thinks it plays a game that did not keep it is back in the lobby.
        for conn in ids {
            guard case .playing(let g, let s)? = sessions[conn]?.state else { continue }
            if rooms[g].map({ $0.seats.indices.contains(s) && $0.seats[s] == conn }) != true {
                sessions.update(conn) { $0.state = .idle }
            }
        }
        // Names: a seated player has its seat's name; the others keep theirs
        // unless a seated player now holds it.
        sessions.names.removeAll()
        for conn in ids {
            guard case .playing(let g, let s)? = sessions[conn]?.state, let room = rooms[g],
                  room.names.indices.contains(s) else { continue }
            sessions.update(conn) { $0.name = room.names[s] }
            sessions.names[room.names[s].lowercased()] = conn
        }
        for conn in ids {
            guard let session = sessions[conn], let name = session.name else { continue }
            if case .playing = session.state { continue }
            if let holder = sessions.names[name.lowercased()], holder != conn {
                sessions.update(conn) { $0.name = nil }
                outbox.send(.info("The server could not store your last changes, and \(name) is in a game on another connection; send NAME to pick a name."), to: conn)
            } else {
                sessions.names[name.lowercased()] = conn
            }
        }
        for conn in ids {
            guard let session = sessions[conn] else { continue }
            if case .playing(let g, let s) = session.state {
                if tell.contains(conn) { sendState(g, s) }
            } else if wasPlaying.contains(conn) {
                outbox.send(.info("The server could not store your game, so you are not in a game now."), to: conn)
            }
        }
        watching.recoverWatchers()
        committed()
        log("a turn could not be committed: \(rooms.count) game(s) reloaded from the store")
    }

    /// The connections seated in a game.
    private func playingConnections() -> Set<ConnectionID> {
        Set(sessions.compactMap { conn, s -> ConnectionID? in
            if case .playing = s.state { return conn }
            return nil
        })
    }

    /// Puts game `id` as stored (nil: not in progress) in place of the room
    /// in memory, seating each connection of `seats` that is free for it: in
    /// this game, idle, seeking or hosting (given up), or in a game that is
    /// no longer there. Returns the connections that were not in their seat.
    @discardableResult
    private func install(_ stored: StoredGame?, id: Int, replacing old: Room?, seats: [ConnectionID?]) -> [ConnectionID] {
        let now = clock.monotonic
        if let old {
            for t in old.tokens { rooms.tokens[t] = nil }
            rooms.remove(id)
            deadlines.touch(old)
        }
        guard let stored, let room = makeRoom(stored, now: now) else {
            for case let conn? in seats {
                if case .playing(id, _)? = sessions.byID[IDKey(conn)]?.state { sessions.update(conn) { $0.state = .idle } }
            }
            return []
        }
        var seatedAgain: [ConnectionID] = []
        for seat in 0..<2 where room.bot(seat) == nil {
            rooms.tokens[room.tokens[seat]] = (id, seat)
            guard seats.indices.contains(seat), let conn = seats[seat], let session = sessions[conn] else { continue }
            switch session.state {
            case .playing(let g, let s):
                if g == id ? s != seat : rooms[g] != nil { continue }
            case .seeking, .hosting:
                waiting.stopWaiting(conn, session)
            case .idle:
                break
            }
            if session.state != .playing(game: id, seat: seat) { seatedAgain.append(conn) }
            sessions.update(conn) { $0.state = .playing(game: id, seat: seat) }
            sessions.update(conn) { $0.last = nil }
            room.seats[seat] = conn
            room.awaySince[seat] = nil
        }
        // What is not stored (the clocks) carries over when the position did.
        if let old, Room.samePosition(old, room) {
            room.turnSince = old.turnSince
            room.claimAnnounced = old.claimAnnounced
            for seat in 0..<2 where room.seats[seat] == nil && room.bot(seat) == nil {
                room.awaySince[seat] = old.awaySince[seat] ?? now
            }
        }
        if !room.game.isOver, room.bot(room.game.toMove) != nil {
            // Not now: the store has just failed.
            room.botDue = max(old?.botDue ?? now, now + RecoveryDesk.storeRetrySeconds)
        }
        rooms.add(room)
        return seatedAgain
    }

    /// Whether the room holds the stored game's position (Room+Restore.swift).
    func room(_ t: Room, matches g: StoredGame) -> Bool {
        guard let stored = makeRoom(g, now: clock.monotonic) else { return false }
        return t.holds(stored)
    }

    /// A room for a stored game in progress, every seat empty (Room+Restore.swift);
    /// nil if its kind or language is not here, or its moves do not replay.
    func makeRoom(_ g: StoredGame, now: Double) -> Room? {
        Room.restored(g, kind: kind(named: g.kind), now: now, deadlines: deadlines)
    }
}
