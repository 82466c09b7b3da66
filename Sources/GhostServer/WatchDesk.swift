import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// Watching games in progress (`lobby.watching`) (`GAMES`, `WATCH`, `UNWATCH`): a watcher gets
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
final class WatchDesk: GamePart {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift).
    let rooms: Rooms
    /// The part it uses, below it (GamePart): a game's ratings, in GAME.
    let ratings: RatingDesk
    /// Who watches each game (Watchers.swift).
    let watchers = Watchers()

    init(context: LobbyContext, rooms: Rooms, ratings: RatingDesk) {
        self.context = context
        self.rooms = rooms
        self.ratings = ratings
    }

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
            guard let room = rooms[gameID], !room.game.isOver else { continue }
            reply(id, liveLine(room))
            count += 1
        }
        reply(id, .ok(.games(count: count, more: rooms.open.count > count)))
    }

    /// A game as GAMES lists it: who plays, how far it is, how it was set up.
    func liveLine(_ room: Room) -> ServerLine {
        .live(id: room.id, kind: GameKind(rawValue: room.kind.name), players: room.names, lang: room.lang,
              moves: room.game.moveCount, watchers: watcherCount(room.id),
              fields: room.game.setupFields + room.kind.gameFields(room.match) + (room.clock.map { [Field("clock", "\($0)")] } ?? []))
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
        guard let room = rooms[gameID], !room.game.isOver, room.open else {
            return reply(id, .error(.noSuchGame, "no game in progress has the id \(gameID); GAMES lists them"))
        }
        if session.watching != gameID { stopWatching(id) }
        watchers.add(id, to: gameID)
        sessions.update(id) { $0.watching = gameID }
        reply(id, .ok(.watch(id: gameID)))
        for line in watcherState(room) { reply(id, line) }
    }

    /// UNWATCH.
    func unwatch(_ id: ConnectionID, _ session: Session) {
        guard let gameID = session.watching else {
            return reply(id, .error(.notWatching, "you are not watching a game"))
        }
        stopWatching(id)
        reply(id, .ok(.unwatch(id: gameID)))
    }

    /// A watcher of a game that has ended learns its end from RESUME: not
    /// again, after, from the watchers' last batch (Watchers.skip).
    func skip(_ gameID: Int, for id: ConnectionID) { watchers.skip(gameID, for: id) }

    /// Who watches a game now (SAY among watchers).
    func members(of gameID: Int) -> [ConnectionID] {
        guard let group = watchers.groups[gameID], !group.closing else { return [] }
        return group.members
    }

    /// The connection watches nothing from now on (it may have watched nothing).
    func stopWatching(_ id: ConnectionID) {
        guard let gameID = sessions[id]?.watching else { return }
        sessions.update(id) { $0.watching = nil }
        watchers.remove(id, from: gameID)
    }

    // MARK: What watchers get

    /// The full state of a game for a watcher: GAME without a token or any
    /// seat's private fields, with `watching=yes`; the pending offer; who is
    /// away; TURN with the kind's state fields.
    func watcherState(_ room: Room) -> [ServerLine] {
        var lines: [ServerLine] = [
            .game(id: room.id, kind: GameKind(rawValue: room.kind.name), lang: room.lang, players: room.names, token: nil,
                  round: room.match.round, bot: room.namedLevel, fields: room.game.setupFields + room.kind.gameFields(room.match),
                  clock: room.clock, audience: Audience(open: room.open, watchers: watcherCount(room.id), watching: true),
                  ratings: ratings.tableRating(room)?.shown),
        ]
        if let offer = room.offer {
            lines.append(.offer(id: room.id, player: room.names[offer.seat], kind: offer.kind, lang: offer.lang))
        }
        for seat in 0..<2 where room.isAway(seat) {
            lines.append(.adjourned(id: room.id, player: room.names[seat], grace: graceLeft(room)))
        }
        lines.append(stateTurnLine(room))
        return lines
    }

    /// The longest a large audience's lines wait for their batch.
    static let maxWatchBatchInterval = 1.0

    /// A line for the game's watchers (never one meant for one seat): at
    /// once without batching, otherwise with the next batch (Watchers.swift).
    @inline(__always)
    func toWatchers(_ gameID: Int, _ line: ServerLine) {
        // No game watched (nearly always): the outbox and the settings are not
        // fetched for nothing (an unowned reference checked, retained and
        // released at every broadcast, several a letter).
        guard !watchers.groups.isEmpty else { return }
        watchers.send(line, to: gameID, batchInterval: settings.watchBatchInterval, outbox: outbox)
    }

    /// The game is over (its last lines are on their way): its watchers no
    /// longer watch. The group goes at the commit, once its lines are out.
    func endWatching(_ gameID: Int) { watchers.end(gameID, sessions: sessions) }

    /// Whether some watchers wait for `tick` (a cheap test, for every loop turn).
    var anyDue: Bool { !watchers.due.isEmpty }

    /// When `tick` next has something to tell watchers.
    var watchersDue: Double? { watchers.nextDue(settings) }

    /// From `tick`: WATCHERS and the batches that are due (Watchers.swift).
    func tellWatchers(_ now: Double) {
        watchers.tell(now, settings: settings, rooms: rooms, sessions: sessions, outbox: outbox, state: watcherState)
    }

    // MARK: Commits and failed writes

    /// A command starts: what it sends watchers may be withdrawn from here on.
    func beginCommand() {
        if !watchers.marks.isEmpty { watchers.marks.removeAll(keepingCapacity: true) }
    }

    /// At the commit: the groups of finished games whose lines are out go.
    func dropClosedWatches() {
        if !watchers.closed.isEmpty { watchers.dropClosed() }
    }

    /// The command in progress was undone: its lines for watchers are
    /// withdrawn, and a game it ended is watched again.
    func undoWatching() { watchers.undo(sessions: sessions) }

    /// A turn was lost: each game still in progress is watched again as it
    /// is now; the watchers of a game that no longer is are told.
    func recoverWatchers() {
        watchers.recover(rooms: rooms, sessions: sessions, outbox: outbox, state: watcherState)
    }
}
