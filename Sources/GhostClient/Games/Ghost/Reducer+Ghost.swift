import GhostProtocol
import GameKit

/// Ghost's lines: GAME, OVER, MATCH (and a round's INFO) of a Ghost game change its Ghost
/// state (`Game.ghost`) and the table around it. The generic core calls in
/// here at two points (`line`, for the lines `LineOwner.ghost` names, and `ghostReply`); TURN and MOVE
/// are the table's (`TableFeature.turn`, `.move`), which scopes them into
/// Ghost's board (`GhostState.reduce`, GhostState+Reduce.swift).
enum GhostFeature {
    /// Ghost's lines (`LineOwner.ghost`).
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .game(id, _, lang, players, token, round, bot, fields, record, clock, audience, _):
            ghostStarted(&st, id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                         header: GhostLines.game(fields), record: record, clock: clock, audience: audience, &fx)
        // OVER and MATCH of a game no longer shown too (the OVER that answers RESUME).
        case let .over(id, winner, loser, reason, fields, _):
            over(&st, id: id, winner: winner, loser: loser, reason: reason, position: GhostLines.over(fields), &fx)
            // The OVER that answers RESUME for a game that ended meanwhile says when.
            if st.result?.id == id, let ended = fields["ended"].flatMap({ Int($0) }), ended > 0 { st.result?.endedAt = ended }
        case let .match(id, winner, loser, fields):
            matchOver(&st, id: id, winner: winner, loser: loser, ghost: GhostLines.match(fields), &fx)
        case .info(let text):
            // The INFO right after a round's OVER says why, in words.
            guard var g = st.game?.ghost, var end = g.roundEnd, end.info == nil else { return }
            end.info = text
            g.roundEnd = end
            st.game?.ghost = g
        default:
            break
        }
    }

    /// Takes Ghost's replies: OK HINT (Ghost's, and bluff and challenge's).
    static func ghostReply(_ st: inout ClientState, _ reply: Reply) {
        guard case .hint(let fields) = reply else { return }
        if let hint = GhostLines.hint(fields) {
            st.show(.hint(winning: hint.winning, letter: hint.letter.description))
        } else if let notice = GhostLines.challengeHint(fields) {
            st.show(notice)
        }
    }

    static func ghostStarted(_ st: inout ClientState, id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
                             header: GhostLines.Header, record: HeadToHead?, clock: Int?, audience: Audience?,
                             _ fx: inout [ClientEffect]) {
        // The board this client showed for the same game, if any (a RESUME, the next round of a match).
        let old = st.game.flatMap { $0.id == id ? $0 : nil }
        let ghost = GhostState.started(header, previous: old?.ghost, sameRound: old?.round == round)
        TableFeature.gameStarted(&st, id: id, lang: lang, players: players, token: token, round: round, bot: bot, board: .ghost(ghost),
                                 record: record, clock: clock, audience: audience, &fx)
    }

    static func over(_ st: inout ClientState, id: Int, winner: String, loser: String, reason: OverReason, position: GhostLines.Position,
                     _ fx: inout [ClientEffect]) {
        guard st.game == nil || st.game?.id == id else { return }
        let end = RoundEnd(winner: winner, loser: loser, reason: reason,
                           fragment: position.fragment ?? st.game?.ghost?.fragment ?? "",
                           ghost: position.ghost ?? st.game?.ghost?.letters ?? [], word: position.word)
        if var g = st.game, var gs = g.ghost, g.watching, !gs.match, position.ghost == nil {
            // A watched game ended: its board stays, with who won and why, until a key goes back to the list.
            gs.roundEnd = end
            gs.fragment = end.fragment
            g.ghost = gs
            g.toMove = nil
            g.clockDue = nil
            st.game = g
            return WatchFeature.watchedGameEnded(&st, GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: end.fragment,
                                                                 word: end.word, players: g.players, bot: g.bot))
        }
        if var g = st.game, var gs = g.ghost, gs.match || position.ghost != nil {
            // A round of a match: the next round's GAME follows, or MATCH.
            gs.match = true
            gs.roundEnd = end
            if let letters = position.ghost { gs.letters = letters }
            gs.fragment = end.fragment
            g.ghost = gs
            g.toMove = nil
            st.game = g
            st.gameMenuOpen = false
            st.confirmLeave = false
            return
        }
        // The OVER that answers RESUME comes without GAME: the computer's
        // seat name says it was the computer (so the menu says Play again).
        let seatBot = [winner, loser].lazy.compactMap { $0.hasPrefix("bot-") ? BotLevel(rawValue: String($0.dropFirst(4))) : nil }.first
        st.result = GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: end.fragment, word: end.word,
                               players: st.game?.players ?? [winner, loser], bot: st.game?.bot ?? seatBot)
        st.result?.superghost = st.game?.ghost?.superghost ?? false
        st.result?.challenge = st.game?.ghost?.challenge ?? false
        st.game = nil
        st.setToken(nil, &fx)
        st.go(.over)
    }

    /// The end of a whole match: the last round's OVER came just before.
    static func matchOver(_ st: inout ClientState, id: Int, winner: String, loser: String, ghost: [String]?, _ fx: inout [ClientEffect]) {
        guard let g = st.game, g.id == id, let gs = g.ghost else { return }
        let last = gs.roundEnd
        // MATCH follows the last round's OVER; without one, the reason is unknown (empty).
        var r = GameResult(id: id, winner: winner, loser: loser, reason: last?.reason ?? OverReason(rawValue: ""),
                           fragment: last?.fragment ?? gs.fragment, word: last?.word, players: g.players, info: last?.info, bot: g.bot)
        r.match = true
        r.superghost = gs.superghost
        r.challenge = gs.challenge
        r.ghost = ghost ?? last?.ghost ?? gs.letters
        if g.watching {
            st.game?.clockDue = nil
            return WatchFeature.watchedGameEnded(&st, r)
        }
        st.result = r
        st.game = nil
        st.setToken(nil, &fx)
        st.go(.over)
    }
}
