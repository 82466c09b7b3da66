import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// Offers during a game (`lobby.offers`): RESTART and LANG, at once before
/// the first move of the round, otherwise as an offer the opponent must
/// ACCEPT or DECLINE.
final class Offers: GamePart {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift).
    let rooms: Rooms
    /// The part it uses, below it (GamePart).
    let play: GamePlay

    init(context: LobbyContext, rooms: Rooms, play: GamePlay) {
        self.context = context
        self.rooms = rooms
        self.play = play
    }

    // MARK: Offers

    /// RESTART or LANG during a game: at once before the first move of the
    /// round, otherwise as an offer the opponent must accept.
    func offerOrApply(kind: OfferKind, lang: String?, _ id: ConnectionID, _ session: Session) {
        /// The reply: `OK LANG lang=… status=…` or `OK RESTART status=…`.
        func ok(_ status: OfferStatus) -> ServerLine {
            .ok(kind == .lang ? .lang(lang: lang ?? "", status: status) : .restart(status: status))
        }
        guard case .playing(let gameID, let seat) = session.state, let room = rooms[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        // The kind decides whether its game, as set up, exists in that
        // language (a Hangman length the other list has no word of).
        if let lang, lang != room.lang,
           room.kind.newGame(language: lang, variant: room.record.variant, settings: room.record.settings,
                              seed: room.record.seed, starter: room.match.starter) == nil {
            let setup = room.record.settings.isEmpty ? "" : " (\(room.record.settings))"
            return reply(id, .error(.badValue, "this game cannot be played in \(lang) as it is set up\(setup); LEAVE it and start one in \(lang)"))
        }
        if room.game.restartsAtOnce(by: seat) || room.bot(1 - seat) != nil {
            // Before the first move (as the kind says), or against the computer (which always agrees).
            guard restart(gameID, lang: lang ?? room.lang) else { return failed(id) }
            reply(id, ok(.done))
            play.sendStateToAll(gameID)
            play.scheduleComputer(gameID)
            return
        }
        if let offer = room.offer {
            return reply(id, .error(.offerPending, offer.seat == seat
                ? "your offer is waiting for an answer" : "answer your opponent's offer first: ACCEPT or DECLINE"))
        }
        guard !room.offerSpent[seat] else {
            return reply(id, .error(.offerSpent, "you can offer again once a letter has been played"))
        }
        let offer = Offer(seat: seat, kind: kind, lang: lang)
        var spent = room.offerSpent
        spent[seat] = true
        guard persist({ try store.setOffer(game: gameID, offer: offer.stored, spent: spent) }) != nil else {
            return failed(id)
        }
        room.offer = offer
        room.offerSpent = spent
        reply(id, ok(.offered))
        let what = kind == .lang ? "switch to \(lang ?? "?") and restart" : "restart the round"
        play.broadcast(gameID, .offer(id: gameID, player: room.names[seat], kind: kind, lang: lang))
        if let other = room.seats[1 - seat] {
            outbox.send(.info("\(room.names[seat]) offers to \(what): ACCEPT or DECLINE."), to: other)
        }
    }

    func answerOffer(accept: Bool, _ id: ConnectionID, _ session: Session) {
        let ok = ServerLine.ok(accept ? .accept : .decline)
        guard case .playing(let gameID, let seat) = session.state, let room = rooms[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        guard let offer = room.offer, offer.seat != seat else {
            return reply(id, .error(.noOffer, "there is no offer from your opponent to answer"))
        }
        let name = room.names[seat]
        if accept {
            guard restart(gameID, lang: offer.lang ?? room.lang) else { return failed(id) }
            reply(id, ok)
            play.broadcast(gameID, .accepted(id: gameID, player: name, kind: offer.kind))
            play.sendStateToAll(gameID)
            play.scheduleComputer(gameID)
        } else {
            guard persist({ try store.setOffer(game: gameID, offer: nil, spent: room.offerSpent) }) != nil else {
                return failed(id)
            }
            room.offer = nil
            reply(id, ok)
            play.broadcast(gameID, .declined(id: gameID, player: name, kind: offer.kind))
        }
    }

    /// A new round of the game, perhaps in another language, started by the
    /// seat that started the round in play. Stored first; false if it could not be.
    private func restart(_ gameID: Int, lang: String) -> Bool {
        guard let room = rooms[gameID] else { return false }
        var match = room.match
        // Moves are keyed by round; a round without moves can be reused.
        match.restartRound(hadMoves: room.game.moveCount > 0)
        // A new round is a new draw (a fair or phrase Hangman's word): its
        // own seed, from the game's and the round's number, so that replay
        // after a crash makes the same one.
        guard let game = room.kind.newGame(language: lang, variant: room.record.variant, settings: room.record.settings,
                                            seed: GamePlay.roundSeed(room.record.seed, round: match.round), starter: match.starter),
              persist({ try store.restartGame(game: gameID, round: match.round, lang: lang, starter: match.starter) }) != nil
        else { return false }
        room.restarted(game, match: match, lang: lang, now: clock.monotonic)
        if settings.gameLog == .all { log("game \(gameID) restarted: round \(match.round), \(lang)") }
        return true
    }
}
