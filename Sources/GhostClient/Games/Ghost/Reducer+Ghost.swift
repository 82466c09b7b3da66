import GhostProtocol

/// Ghost's reducer: GAME, TURN, MOVE, OVER and MATCH of a Ghost game change
/// only its Ghost state (`Game.ghost`) and the table around it, as Hangman's
/// reducer changes only its board. The generic core calls in here at one
/// point (`ghostLine`), after watching and Hangman.
extension ClientState {
    /// Takes Ghost's lines; returns false for other lines.
    mutating func ghostLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .game(id, kind, lang, players, token, round, bot, fields, record, clock, audience, _):
            // A kind of game this client cannot show is not started.
            guard (kind ?? ClientGames.defaultKind) == .ghost else { return false }
            ghostStarted(id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                         header: GhostLines.game(fields), record: record, clock: clock, audience: audience, &fx)
            return true
        case let .turn(id, player, fields, clock):
            guard var g = currentGame(id), var gs = g.ghost else { return false }
            g.clockDue = clock.map { now + Double($0) }
            let position = GhostLines.turn(fields)
            // A fragment this client did not see being built (moves missed
            // across a daemon restart): the caption says nothing stale, and
            // the state sent on RESUME names who played its last letter (`last=`).
            if let f = position.fragment, f != gs.fragment { g.lastMove = nil }
            if g.toMove != player || position.fragment != gs.fragment, alert?.notice.isAboutTheTurn == true { alert = nil }
            g.toMove = player
            gs.fragment = position.fragment ?? gs.fragment
            if let last = position.last, let letter = gs.fragment.last, g.players.contains(last) {
                g.lastMove = LastMove(last, String(letter))
            }
            if let letters = position.ghost { gs.letters = letters }
            // Bluff and challenge: a new challenge starts an empty answer.
            if position.challenged != gs.challenged { gs.answer = "" }
            gs.challenged = position.challenged
            if !gs.challenged { gs.challenger = nil }
            g.ghost = gs
            game = g
            return true
        case let .move(id, player, fields):
            guard var g = currentGame(id), var gs = g.ghost else { return false }
            defer { game = g }
            if GhostLines.challenge(fields) != nil {
                gs.challenger = player
                g.ghost = gs
                return true
            }
            guard let move = GhostLines.move(fields) else { return true }
            // Superghost: the letter went at the front when the new fragment starts with it before the old one.
            let before = gs.fragment
            gs.fragment = move.fragment ?? (gs.fragment + move.letter.description)
            gs.lastAtFront = gs.superghost && !before.isEmpty
                && gs.fragment.lowercased() == (move.letter.description + before).lowercased()
                && gs.fragment.lowercased() != (before + move.letter.description).lowercased()
            g.ghost = gs
            g.lastMove = LastMove(player, move.letter.description)
            g.flash = move.letter.character
            g.flashUntil = now + ClientState.flashSeconds
            // A letter cancels a pending offer.
            g.offer = nil
            return true
        // OVER and MATCH of a game no longer shown too (the OVER that answers RESUME).
        case let .over(id, winner, loser, reason, fields, _):
            over(id: id, winner: winner, loser: loser, reason: reason, position: GhostLines.over(fields), &fx)
            // The OVER that answers RESUME for a game that ended meanwhile says when.
            if result?.id == id, let ended = fields["ended"].flatMap({ Int($0) }), ended > 0 { result?.endedAt = ended }
            return true
        case let .match(id, winner, loser, fields):
            matchOver(id: id, winner: winner, loser: loser, ghost: GhostLines.match(fields), &fx)
            return true
        default:
            return false
        }
    }

    mutating func ghostStarted(id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
                               header: GhostLines.Header, record: HeadToHead?, clock: Int?, audience: Audience?,
                               _ fx: inout [ClientEffect]) {
        var ghost = GhostState()
        ghost.match = header.match
        ghost.superghost = header.superghost
        ghost.challenge = header.challenge
        if let letters = header.ghost { ghost.letters = letters }
        if let old = game, old.id == id {
            if old.round == round, let o = old.ghost {
                // The same round again (a RESUME): keep what the screen showed.
                ghost.fragment = o.fragment
                ghost.previousRound = o.previousRound
                ghost.challenged = o.challenged
                ghost.challenger = o.challenger
                ghost.answer = o.answer
            } else if old.round != round {
                // The next round of a match: say how the last one ended.
                ghost.previousRound = old.ghost?.roundEnd
            }
        }
        gameStarted(id: id, lang: lang, players: players, token: token, round: round, bot: bot, board: .ghost(ghost),
                    record: record, clock: clock, audience: audience, &fx)
    }

    mutating func over(id: Int, winner: String, loser: String, reason: OverReason, position: GhostLines.Position,
                       _ fx: inout [ClientEffect]) {
        guard game == nil || game?.id == id else { return }
        let end = RoundEnd(winner: winner, loser: loser, reason: reason,
                           fragment: position.fragment ?? game?.ghost?.fragment ?? "",
                           ghost: position.ghost ?? game?.ghost?.letters ?? [], word: position.word)
        if var g = game, var gs = g.ghost, g.watching, !gs.match, position.ghost == nil {
            // A watched game ended: its board stays, with who won and why, until a key goes back to the list.
            gs.roundEnd = end
            gs.fragment = end.fragment
            g.ghost = gs
            g.toMove = nil
            g.clockDue = nil
            game = g
            return watchedGameEnded(GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: end.fragment,
                                               word: end.word, players: g.players, bot: g.bot))
        }
        if var g = game, var gs = g.ghost, gs.match || position.ghost != nil {
            // A round of a match: the next round's GAME follows, or MATCH.
            gs.match = true
            gs.roundEnd = end
            if let letters = position.ghost { gs.letters = letters }
            gs.fragment = end.fragment
            g.ghost = gs
            g.toMove = nil
            game = g
            gameMenuOpen = false
            confirmLeave = false
            return
        }
        result = GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: end.fragment, word: end.word,
                            players: game?.players ?? [winner, loser], bot: game?.bot)
        result?.superghost = game?.ghost?.superghost ?? false
        game = nil
        setToken(nil, &fx)
        go(.over)
    }

    /// The end of a whole match: the last round's OVER came just before.
    mutating func matchOver(id: Int, winner: String, loser: String, ghost: [String]?, _ fx: inout [ClientEffect]) {
        guard let g = game, g.id == id, let gs = g.ghost else { return }
        let last = gs.roundEnd
        // MATCH follows the last round's OVER; without one, the reason is unknown (empty).
        var r = GameResult(id: id, winner: winner, loser: loser, reason: last?.reason ?? OverReason(rawValue: ""),
                           fragment: last?.fragment ?? gs.fragment, word: last?.word, players: g.players, info: last?.info, bot: g.bot)
        r.match = true
        r.ghost = ghost ?? last?.ghost ?? gs.letters
        if g.watching {
            game?.clockDue = nil
            return watchedGameEnded(r)
        }
        result = r
        game = nil
        setToken(nil, &fx)
        go(.over)
    }
}
