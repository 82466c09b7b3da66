import GhostProtocol
import GameKit

/// The table every game has, whatever its kind: a game that starts
/// (`gameStarted`, called by each kind), TURN and MOVE (scoped into the kind's
/// board: `Game.reduce`, Reducer+Board.swift), the audience, an absent player,
/// offers, rematches, an abort, and the end's INFO and RANK.
enum TableFeature {
    /// The table's lines (`LineOwner.table`).
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .watchers(id, count):
            // The audience is the table's, whoever watches.
            if var g = st.currentGame(id) {
                g.watchers = max(0, count)
                st.game = g
            }
        case let .turn(id, player, fields, clock, deadline):
            turn(&st, id: id, player: player, fields: fields, clock: clock, deadline: deadline)
        case let .move(id, player, fields):
            move(&st, id: id, player: player, fields: fields)
        case let .aborted(id, reason, _):
            // A game aborted while its player was away ends here, not with an OVER.
            st.resumedOverKind = nil
            aborted(&st, id: id, reason: reason, &fx)
        case .info(let text):
            // The INFO right after OVER says why, in words (a round of a match's: `GhostFeature.line`).
            if st.screen == .over, st.result != nil, st.result?.info == nil, st.result?.ranks.isEmpty == true {
                st.result?.info = text
            }
        case let .rank(name, rank, wins):
            guard (st.result?.ranks.count ?? 2) < 2 else { return }
            st.result?.ranks.append(RankEntry(name: name, rank: rank, wins: wins))
        case let .adjourned(id, player, grace):
            guard var g = st.currentGame(id), !st.isMe(player) else { return }
            g.away = player
            g.grace = grace
            g.claimable = false
            // Away, the grace period counts instead of the countdown.
            if g.toMove == player { g.deadlineDue = nil }
            st.game = g
        case let .returned(id, player):
            guard var g = st.currentGame(id) else { return }
            g.away = nil
            g.claimable = false
            st.game = g
            st.show(.returned(player))
        case let .claimable(id, _):
            guard var g = st.currentGame(id) else { return }
            g.claimable = true
            st.game = g
        case let .offer(id, player, kind, lang):
            guard var g = st.currentGame(id) else { return }
            g.offer = Offer(player: player, kind: kind, lang: lang)
            st.game = g
        case let .accepted(id, player, _), let .declined(id, player, _):
            guard var g = st.currentGame(id) else { return }
            g.offer = nil
            st.game = g
            if !st.isMe(player) {
                if case .accepted = line { st.show(.accepted(player)) } else { st.show(.declined(player)) }
            }
        case let .rematch(id, player):
            guard st.result?.id == id else { return }
            st.result?.rematchOfferedBy = player
            st.result?.rematchLapsed = false
        case let .cancelled(id, _, kind):
            // An offer a move cancelled, or a rematch request that lapsed.
            if kind == .rematch {
                guard st.result?.id == id else { return }
                st.result?.rematchOfferedBy = nil
                st.result?.rematchAsked = false
                st.result?.rematchLapsed = true
            } else if var g = st.currentGame(id) {
                g.offer = nil
                st.game = g
            }
        default:
            break
        }
    }

    // MARK: A game that starts

    static func gameStarted(_ st: inout ClientState, id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
                            board: Game, record: HeadToHead? = nil, clock: Int? = nil, audience: Audience? = nil,
                            _ fx: inout [ClientEffect]) {
        guard players.count == 2 else { return }
        var info = GameInfo(id: id, lang: lang, players: players, round: round)
        info.bot = bot
        info.clock = clock
        info.watchers = audience?.watchers ?? 0
        info.open = audience?.open ?? true
        info.watching = audience?.watching ?? false
        // A game of this client's own: whatever it watched is over.
        if !info.watching, st.watch.id != nil { WatchFeature.stopWatching(&st) }
        info.board = board
        if let old = st.game, old.id == id, old.round == info.round {
            // The same round again (a RESUME): keep what the screen showed
            // (each kind keeps its own board's: `ghostStarted`, `hangmanStarted`).
            info.lastMove = old.lastMove
            info.toMove = old.toMove
        }
        // A later round (a match's, a restart's) follows moves; the same game again keeps what it knew.
        info.personMoved = round > 1 || (st.game.map { $0.id == id && $0.personMoved } ?? false)
        st.game = info
        st.seatTaken = false
        if let token, ClientConfig.isToken(token) { st.setToken(token, &fx) }
        // Which seat is mine: my name, or the name this client last used (a watcher has none).
        if !info.watching, let me = st.myName ?? st.config.lastName, let mine = players.first(where: { $0.lowercased() == me.lowercased() }) {
            st.myName = mine
            st.named = true
            if st.config.remember(mine) { fx.append(.saveConfig) }
        }
        // The running score is the server's record against this opponent in
        // this kind of game (GAME's record=), and nothing else: never
        // counted here, never carried from another kind.
        if players.contains(where: st.isMe) { st.game?.record = record }
        st.lobby = nil
        st.result = nil
        if st.screen != .game { st.go(.game) }
        st.gameMenuOpen = false
        st.confirmLeave = false
    }

    // MARK: TURN and MOVE

    // TURN and MOVE of the game on screen, as TCA's `Scope`: the table's
    // fields that every kind has (who is to move, the clock, the last move,
    // the key flash, an offer a move cancels, the alerts about the turn) are
    // changed here, once; the board is changed by the kind's own reducer
    // (`GameBoard.reduce`, in Games/<Kind>/), which sees only its board and
    // the line's fields, and returns what the table must know (`BoardOutcome`).

    /// TURN: who is to move now, and the position.
    static func turn(_ st: inout ClientState, id: Int, player: String, fields: [Field], clock: Int?, deadline: TurnDeadline? = nil) {
        guard var g = st.currentGame(id) else { return }
        g.clockDue = clock.map { st.now + Double($0) }
        g.deadline = deadline
        g.deadlineDue = deadline.map { st.now + Double($0.seconds) }
        let out = g.board.reduce(.turn(fields))
        // Moves this client did not see changed the board (across a daemon
        // restart): the caption says nothing stale.
        if out.missedMoves {
            g.lastMove = nil
            g.personMoved = true
        }
        // A Hangman position with guesses in it, or a person's word set, was moved in.
        if let b = g.hangman, !b.missed.isEmpty || !b.wrongWords.isEmpty || !b.found.isEmpty
            || (b.isDuel && !b.pattern.isEmpty && g.players.first.map { !$0.hasPrefix("bot-") } == true) {
            g.personMoved = true
        }
        let stale = switch out.turnNotices {
        case .kept: false
        case .staleIfTheTurnPassed: g.toMove != player
        case .stale: true
        }
        if stale, st.alert?.notice.isAboutTheTurn == true { st.alert = nil }
        g.toMove = player
        // The state sent on RESUME names who played the last move (a seat of this table only).
        if let last = out.lastMove, g.players.contains(last.player) { g.lastMove = last }
        st.game = g
    }

    /// MOVE: a move played by `player`.
    static func move(_ st: inout ClientState, id: Int, player: String, fields: [Field]) {
        guard var g = st.currentGame(id) else { return }
        let out = g.board.reduce(.move(by: player, fields))
        if !player.hasPrefix("bot-") { g.personMoved = true }
        if let played = out.played {
            g.lastMove = LastMove(player, played.label)
            if let key = played.key {
                g.flash = key
                g.flashUntil = st.now + ClientState.flashSeconds
            }
            // A move cancels a pending offer.
            g.offer = nil
        }
        st.game = g
    }

    // MARK: ABORTED

    /// `ABORTED id=<id> reason=<reason>`: a game of this player's
    /// ended with no winner and no score (no first move, untouched for days, or
    /// left before the first move). The token is spent; the player is back on the
    /// main screen with a line saying why. A watched game's end is the watch
    /// code's (it stops with the game).
    static func aborted(_ st: inout ClientState, id: Int, reason: AbortReason, _ fx: inout [ClientEffect]) {
        if let g = st.game, g.id != id || g.watching { return }
        guard st.game != nil || st.screen == .resuming || st.screen == .game else { return }
        st.game = nil
        st.setToken(nil, &fx)
        st.goToMain()
        st.show(.aborted(reason))
    }

    // MARK: Replies and refusals about the game

    /// The answers about the game: a rematch asked, an offer sent, a game
    /// resumed that had ended meanwhile (`LineOwner.table`).
    static func reply(_ st: inout ClientState, _ reply: Reply, _ fx: inout [ClientEffect]) {
        switch reply {
        case .rematch(let status):
            if status == .asked {
                st.result?.rematchAsked = true
                st.result?.rematchLapsed = false
            }
        case .restart(let status), .lang(_, let status?):
            if status == .offered { st.show(.offerSent) }
        case .resume(_, over: true, let game):
            // The game ended while this player was away: its OVER follows (the
            // game-over screen); the token is spent, and the name taken back.
            // A kind this client draws from VIEW (or every kind, on plain
            // screens) ends on the generic feature, in no kind's words.
            st.resumedOverKind = game.flatMap { st.plainScreens || !ClientGames.plays($0) ? GameKind(rawValue: $0) : nil }
            st.setToken(nil, &fx)
            st.game = nil
            if !st.named, let name = st.myName ?? st.config.lastName {
                st.myName = name
                st.resultAfterLogin = true
                AccountFeature.sendName(&st, name, &fx)
            }
        default:
            break
        }
    }

    /// The refusals about the game: RESUME, and a letter out of turn or not a letter.
    static func refused(_ st: inout ClientState, _ verb: Verb?, move: String?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        if move == Command.letterVerb {
            if code == .notYourTurn { st.show(.notYourTurn) }
            if code == .notALetter { st.show(.lettersOnly) }
            return
        }
        switch (verb, code) {
        case (.resume?, _):
            if code == .badToken { st.setToken(nil, &fx) }
            defer { st.show(code == .badToken ? .gameEnded : .serverError(code: code, text: text)) }
            if st.screen == .resuming || st.screen == .game {
                st.game = nil
                if !st.named, let name = st.myName ?? st.config.lastName {
                    // Take the name back and carry on from the main screen.
                    st.myName = name
                    AccountFeature.sendName(&st, name, &fx)
                    st.goToMain()
                } else {
                    st.goHome(&fx)
                }
            }
        default:
            break
        }
    }
}
