import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// The end of a game or match (`lobby.finishing`): its record, scores,
/// ratings and best-games entry in the store, then the announcement to
/// players and watchers, and the players back in the lobby.
final class Finishing: Broadcasting {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift), and when each next needs the clock.
    let rooms: Rooms
    let deadlines: Deadlines<Room>
    /// The parts it uses, below it (GamePart).
    let watching: WatchDesk
    let recovery: RecoveryDesk
    let ratings: RatingDesk

    init(context: LobbyContext, rooms: Rooms, deadlines: Deadlines<Room>, watching: WatchDesk, recovery: RecoveryDesk,
         ratings: RatingDesk) {
        self.context = context
        self.rooms = rooms
        self.deadlines = deadlines
        self.watching = watching
        self.recovery = recovery
        self.ratings = ratings
    }

    /// What the end of a game left on the high-score boards.
    /// Made only when a game ends. A class: a move that ends nothing holds a
    /// nil reference, where a struct (or an optional one) was destroyed
    /// through its type's metadata on every move.
    /// No optional tuples in it (copied through their metadata too).
    final class Finish {
        /// The people's places on the game's board by wins.
        var ranks: [ScoreRow] = []
        /// The game's entry on a best-games list, when it made the top places.
        var best: Best?
        /// A rated game's ratings after it, with the changes (OVER's `ratings= changes=`).
        var ratings: SeatRatings?
        /// The game's final and end fields, as `recordFinish` asked them
        /// (OVER and the log show them again: asked once).
        var fields: Fields?
    }

    /// A best-games entry that made the announced places.
    struct Best {
        var seat: Int, board: String, rank: Int, fields: [Field]
    }

    /// A finished game's final and end fields.
    struct Fields {
        var final: [Field], end: [Field]
    }

    /// A best-games entry is announced (`RANK board=…`) when it is among this many.
    static let announcedBestPlaces = 10

    /// The store's side of the end of a game or match: its record, the
    /// people's scores, and the game's entry on a best-games list if its kind
    /// gives one for a person. Returns the places they have now.
    func recordFinish(_ room: Room, outcome: Outcome, match: Match, final game: any Game) throws -> Finish {
        let names = room.names
        // Nobody's name for a draw: the store keeps it with neither.
        let winner = outcome.winner.map { names[$0] }, loser = outcome.loser.map { names[$0] }
        // What the game counts for (`--scores-for`, ScoringPolicy.swift).
        let counts = try ScoringPolicy(scoresFor: settings.scoresFor).decide(
            people: [room.bot(0) == nil, room.bot(1) == nil],
            owners: { let owners = try store.registered(among: names); return names.map(owners.contains) },
            networks: { try store.gameNetworks(game: room.id) })
        // People on a board of wins; a kind that ranks games otherwise keeps none here.
        var people: [String] = []
        if room.kind.ranksByWins {
            people.reserveCapacity(2)
            for seat in 0..<2 where counts.listed[seat] { people.append(names[seat]) }
        }
        let board = room.board.name
        let now = clock.wall
        let finish = Finish()
        let final = game.finalFields, end = game.endFields
        finish.fields = Fields(final: final, end: end)
        // The people's places come back from the counts: no look-up of a name again.
        finish.ranks = try store.finishGame(game: room.id, winner: winner, loser: loser, reason: outcome.reason.rawValue,
                                            finalState: ScoresDesk.stored(final, end),
                                            losses: match.isMatch ? match.losses : nil, board: board, people: people, now: now)
        // Two people's record against each other, per variant (ComputerRecord.swift).
        if counts.headToHead, let winner, let loser {
            try store.scoreStore.recordHeadToHead(kind: PeopleRecord.kind(room.kind, variant: room.record.variant), winner: winner, loser: loser)
        }
        if let won = outcome.winner { try recordComputerResult(room, winner: won, counts: counts) }
        finish.ratings = try ratings.rateFinish(room, winner: outcome.winner, now: now)
        if !GamePlay.wasRestarted(room.match),
           let entry = room.kind.bestGame(game, outcome: outcome, variant: room.record.variant, language: room.lang),
           (0...1).contains(entry.seat), counts.listed[entry.seat] {
            try store.scoreStore.recordBestGame(board: entry.board, game: room.id, name: room.names[entry.seat],
                                     key1: entry.keys.first ?? 0, key2: entry.keys.dropFirst().first ?? 0,
                                     fields: ScoresDesk.stored(entry.fields), now: now)
            if let rank = try store.scoreStore.bestGameRank(board: entry.board, game: room.id, within: Finishing.announcedBestPlaces) {
                finish.best = Best(seat: entry.seat, board: entry.board, rank: rank, fields: entry.fields)
            }
        }
        return finish
    }

    /// Announces the end of a game or match (already stored), then returns
    /// its players to the lobby.
    func announceFinish(_ gameID: Int, outcome: Outcome, match: Match, final game: any Game, finished: Finish,
                                info: String? = nil) {
        guard let room = rooms[gameID] else { return }
        // Every end passes here (a move, LEAVE, CLAIM, time): counted once (STATS).
        context.figures.gamesFinished += 1
        room.setGame(game)
        room.match = match
        let matchFields = room.kind.matchFields(match)
        // The game's last fields, asked once for OVER and the log (a single game has no match fields).
        let fields = finished.fields ?? Fields(final: game.finalFields, end: game.endFields)
        let final = fields.final, end = fields.end
        let ended = end.isEmpty ? final : final + end
        let overFields = matchFields.isEmpty ? ended : final + matchFields + end
        if let lost = outcome.loser {
            let winner = room.names[1 - lost], loser = room.names[lost]
            broadcast(room, .over(id: gameID, winner: winner, loser: loser, reason: outcome.reason,
                                  fields: overFields, ratings: finished.ratings))
            broadcast(room, .info(info ?? (outcome.reason == .abandoned
                ? "\(loser) stayed away past the grace period; \(winner) claimed the game."
                : game.explanation(loser: loser, winner: winner))))
            if match.isMatch {
                broadcast(room, .match(id: gameID, winner: winner, loser: loser, fields: matchFields))
                broadcast(room, .info(room.kind.matchSummary(loser: loser, winner: winner, match: match, reason: outcome.reason)))
            }
        } else {
            broadcast(room, .drawn(id: gameID, players: room.names, reason: outcome.reason, fields: overFields, ratings: finished.ratings))
            broadcast(room, .info(info ?? game.drawExplanation(names: room.names)))
        }
        for r in finished.ranks { broadcast(room, .rank(name: r.name, rank: r.rank, wins: r.wins)) }
        if let best = finished.best, let conn = room.seats[best.seat] {
            outbox.send(.bestRank(board: best.board, rank: best.rank, fields: best.fields), to: conn)
        }
        if settings.gameLog == .all {
            log(LineText.over(gameID, names: room.names, loser: outcome.loser, reason: outcome.reason.rawValue, fields: ended))
        }
        for (seat, conn) in room.seats.enumerated() {
            guard let conn else { continue }
            let other = room.seats[1 - seat]
            // Made in the session itself (one made outside was copied in and destroyed).
            sessions.update(conn) { s in
                s.state = .idle
                if let other {
                    s.last = Lobby.LastGame(game: gameID, lang: room.lang, seat: seat, opponent: other, match: match.isMatch,
                                            kind: room.kind.name, setup: GameSetup(variant: room.record.variant, settings: room.record.settings),
                                            clock: room.clock, watch: room.open)
                }
            }
        }
        watching.endWatching(gameID)
        for t in room.tokens { rooms.tokens[t] = nil }
        recovery.noteRemoved(room)
        rooms.remove(gameID)
        deadlines.touch(room)   // its deadline goes with it
    }
}
