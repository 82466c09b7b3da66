import GameKit
import GhostProtocol
import GhostStore

/// `MOVES <id>` and `REVIEW <id>` (a part of the
/// lobby of its own, with no state): a game's moves as they were
/// played, and a finished game reviewed move by move. Both read one game's
/// row and at most `Replay.maxMoves` of its moves through primary keys;
/// what a move was worth is the game kind's to say (`GameDefinition.review`),
/// and which moves stay secret until the end too (`hidesMove`).
///
/// Who may see a game: anyone, unless its players made it private (`NEW …
/// watch=no`); a private game only its players (the connection's name is
/// one of its two; a registered name is only ever used by its owner). A game
/// nobody may see is answered as one that does not exist, as `WATCH` does.
final class ReviewDesk: LobbyPart {
    let context: LobbyContext

    init(context: LobbyContext) {
        self.context = context
    }

    /// Game `gameID` if the asker may see it; otherwise the reply is sent and nil.
    private func visibleGame(_ gameID: Int, _ id: ConnectionID, _ session: Session) -> (ReplayedGame, any GameDefinition)? {
        guard let found = persist({ try store.replayedGame(id: gameID) }) else {
            failed(id)
            return nil
        }
        let name = session.name?.lowercased()
        guard let game = found, game.watch || game.players.contains(where: { $0.lowercased() == name }),
              let kind = kind(named: game.kind) else {
            reply(id, .error(.noSuchGame, "no game has the id \(gameID) that you may see"))
            return nil
        }
        return (game, kind)
    }

    /// Game `gameID`'s last `Replay.maxMoves` moves (one more, to tell whether there are more), or nil (the reply is sent).
    private func storedMoves(_ gameID: Int, _ id: ConnectionID) -> (moves: ArraySlice<ReplayedMove>, more: Bool)? {
        guard let rows = persist({ try store.lastMoves(game: gameID, limit: Replay.maxMoves + 1) }) else {
            failed(id)
            return nil
        }
        return (rows.suffix(Replay.maxMoves), rows.count > Replay.maxMoves)
    }

    /// MOVES <id>: `PLAYED n=<ply> round=<r> player=<name> play=<move>`
    /// lines, oldest first, then `OK MOVES id= count= more= status=`. While
    /// the game is in progress a move its kind keeps secret (a Hangman
    /// setter's word) is `play=hidden`.
    func showMoves(_ gameID: Int, _ id: ConnectionID, _ session: Session) {
        guard let (game, kind) = visibleGame(gameID, id, session), let (moves, more) = storedMoves(gameID, id) else { return }
        for m in moves {
            // A move that does not read back is hidden too, until the end.
            let hidden = !game.over && (Move(encoded: m.move).map { kind.hidesMove($0, by: m.seat) } ?? true)
            reply(id, .played(n: m.ply, round: m.round, player: ReviewDesk.player(game, m.seat), play: hidden ? "hidden" : m.move))
        }
        reply(id, .ok(.other(verb: Verb.moves.rawValue,
                             fields: [Field("id", String(gameID)), Field("count", String(moves.count)),
                                      Field("more", more ? "yes" : "no"), Field("status", game.over ? "over" : "live")])))
    }

    /// REVIEW <id>: the kind's `PLY` lines (`round=` in a match), then `OK
    /// REVIEW id=<id>` and the kind's fields. Only a finished game.
    func review(_ gameID: Int, _ id: ConnectionID, _ session: Session) {
        guard let (game, kind) = visibleGame(gameID, id, session) else { return }
        guard game.over else {
            return reply(id, .error(.notOver, "game \(gameID) is in progress: it can be reviewed once it is over"))
        }
        guard let (moves, more) = storedMoves(gameID, id) else { return }
        var rounds: [ReviewRound] = []
        for m in moves {
            // Past the limit, the oldest round may have lost its start: left out.
            if more, m.round == moves.first?.round, moves.first?.ply != 1 { continue }
            let move = Move(encoded: m.move)
            if rounds.last?.round != m.round {
                rounds.append(ReviewRound(round: m.round, seed: GamePlay.roundSeed(game.seed, round: m.round), moves: [],
                                          isLast: m.round == game.round))
            }
            // A move that does not read back spoils its round's replay: the kind leaves the round out.
            rounds[rounds.count - 1].moves.append(SeatMove(seat: m.seat, move: move ?? .concede))
        }
        let request = ReviewRequest(language: game.lang, variant: game.variant, settings: game.settings, rounds: rounds,
                                    isMatch: game.rounds > 1)
        switch kind.review(request) {
        case let .reviewed(plies, fields):
            for p in plies {
                reply(id, .ply(n: p.ply, round: game.rounds > 1 ? p.round : nil, player: ReviewDesk.player(game, p.seat), fields: p.fields))
            }
            reply(id, .ok(.other(verb: Verb.review.rawValue, fields: [Field("id", String(gameID))] + fields)))
        case .unavailable(let why):
            reply(id, .error(.noReview, why))
        case .later(let seconds):
            reply(id, .error(.notReady, "the review of game \(gameID) is being worked out: ask again in \(Int(seconds.rounded(.up))) s"))
        }
    }

    /// The name in `seat` of a stored game.
    private static func player(_ game: ReplayedGame, _ seat: Int) -> String {
        game.players.indices.contains(seat) ? game.players[seat] : "?"
    }
}
