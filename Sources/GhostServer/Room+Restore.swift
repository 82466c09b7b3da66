import GameKit
import GhostProtocol
import GhostStore

/// A room rebuilt from the store (moved here from Lobby+Recovery.swift,
/// Lobby+Lifecycle.swift and Lobby+Games.swift, now RecoveryDesk, Lifecycle and GamePlay): a stored game in progress
/// replayed move by move through its kind's game value, every seat empty,
/// and how two rooms, or a room and the store, compare.
extension Lobby.Room {
    /// A room for a stored game in progress, every seat empty, rebuilt by
    /// replaying its moves through its kind's game value (`restoreGames`
    /// builds its rooms here too); nil if its kind (`kind`, nil: not here) or
    /// language is not here, or its moves do not replay.
    static func restored(_ g: StoredGame, kind: (any GameDefinition)?, now: Double, deadlines: Deadlines<Lobby.Room>) -> Lobby.Room? {
        guard g.players.count == 2, g.tokens.count == 2, g.bots.count == 2, g.losses.count == 2, g.offerSpent.count == 2,
              let kind else { return nil }
        let match = Match(target: g.rounds, losses: g.losses, round: g.round, starter: g.starter)
        guard var game = kind.newGame(language: g.lang, variant: g.variant, settings: g.settings,
                                      seed: GamePlay.roundSeed(g.seed, round: match.round),
                                      starter: match.starter),
              replay(g.moves, on: &game) else { return nil }
        let bots = g.bots.map { $0.flatMap(BotLevel.init(rawValue:)) }
        let record = NewGame(kind: g.kind, variant: g.variant, settings: g.settings, seed: g.seed, lang: g.lang,
                             players: g.players, tokens: g.tokens, bots: g.bots, rounds: g.rounds, starter: g.starter,
                             clock: g.clock, watch: g.watch)
        let room = Lobby.Room(id: g.id, kind: kind, lang: g.lang, record: record, seats: [nil, nil],
                               occupants: SeatPair(bots[0].map(Seat.computer) ?? .person, bots[1].map(Seat.computer) ?? .person),
                               match: match, game: game, offer: Lobby.Offer(g.offer), offerSpent: g.offerSpent,
                               awaySince: [now, now], turnSince: now, deadlines: deadlines)
        room.moved = movedSeats(g)
        return room
    }

    /// Plays stored moves on a new game; false if one does not parse, is out
    /// of turn or illegal, or if they end the game (a stored round is in play).
    static func replay(_ moves: [StoredMove], on game: inout any Game) -> Bool {
        for m in moves {
            guard let move = Move(encoded: m.move) else { return false }
            do { _ = try game.play(move, by: m.seat) } catch { return false }
        }
        return !game.isOver
    }

    /// Per seat, whether that person has moved in a stored game: a seat with
    /// a move in the round in play, and both seats once a round has ended.
    static func movedSeats(_ g: StoredGame) -> SeatPair<Bool> {
        if g.round > 1 || g.losses.contains(where: { $0 > 0 }) { return SeatPair(true, true) }
        var moved = SeatPair(false, false)
        for m in g.moves where (0...1).contains(m.seat) { moved[m.seat] = true }
        return moved
    }

    /// Whether this room holds the position of `stored` (a room just rebuilt
    /// from the store).
    func holds(_ stored: Lobby.Room) -> Bool {
        match == stored.match && lang == stored.lang && !game.isOver
            && game.moveCount == stored.game.moveCount && game.toMove == stored.game.toMove
            && game.publicFields == stored.game.publicFields
            && offer == stored.offer && offerSpent == stored.offerSpent && names == stored.names && tokens == stored.tokens
    }

    /// Whether two rooms hold the same position (so the clocks carry over).
    static func samePosition(_ a: Lobby.Room, _ b: Lobby.Room) -> Bool {
        a.match.round == b.match.round && a.lang == b.lang && a.game.moveCount == b.game.moveCount
            && a.game.publicFields == b.game.publicFields
    }
}
