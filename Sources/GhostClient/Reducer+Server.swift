import GhostWire
import GhostProtocol

/// Server lines, decoded: replies (OK/ERR, matched to the oldest command
/// awaiting one), data lines (NAME, SCORE) and events. Lines the client does
/// not know never arrive here (`ServerLine(decoding:)` returns nil for
/// them); game lines whose fields the client cannot read are ignored, never
/// trusted. Control characters are gone and lengths capped by the decoder.
extension ClientState {
    mutating func server(_ line: ServerLine, _ fx: inout [ClientEffect]) {
        // Whether a game that starts is rated is the server's word (GAME's
        // `ratings=`), whichever kind's reducer takes the GAME line.
        defer {
            if case let .game(id, _, _, _, _, _, _, _, _, _, _, ratings) = line, game?.id == id { game?.ratings = ratings }
        }
        if RecordFeature.recordLine(&self, line, &fx) { return }
        if WatchFeature.watchLine(&self, line, &fx) { return }
        if HangmanFeature.hangmanLine(&self, line, &fx) { return }
        if genericLine(line, &fx) { return }
        if GhostFeature.ghostLine(&self, line, &fx) { return }
        switch line {
        case let .hello(_, _, languages): hello(languages: languages, &fx)
        case .ok(let reply): ok(reply, &fx)
        case let .error(code, text): error(code, text, &fx)
        case .nameEntry(let name):
            if !name.isEmpty, incomingNames.count < 10_000 { incomingNames.append(name) }
        case let .score(rank, name, wins, played, _):
            if incomingScores.count < 1_000 { incomingScores.append(ScoreEntry(rank: rank, name: name, wins: wins, played: played)) }
        case .helpEntry:
            break  // taken by `genericLine`
        case .bestScore, .bestRank:
            break  // the client shows Ghost's boards only
        case .setting, .stat, .view:
            break  // SETTINGS' lines are Hangman's, VIEW's the generic screen's; the client never asks for STATS
        case .ratingData, .played, .ply:
            break  // taken by `recordLine`
        case .live:
            break  // taken by `watchLine`
        case let .watchers(id, count):
            // The audience is the table's, whoever watches.
            if var g = currentGame(id) {
                g.watchers = max(0, count)
                game = g
            }
        case let .waiting(kind, lang, rounds, count, clock, variant):
            // Only the games this client plays (as for GAME). A later WAITING
            // for the same queue replaces the earlier one; count=0: it emptied.
            guard ClientGames.plays(kind) || announced(GameKind(rawValue: kind)) != nil, case .seeking = lobby else { return }
            let queue = OtherSeekers(lang: lang, match: rounds == .ghost, count: count, game: GameKind(rawValue: kind), clock: clock,
                                     variant: variant)
            if let i = otherSeekers.firstIndex(where: { $0.lang == lang && $0.match == queue.match && $0.game == queue.game && $0.clock == clock
                                                        && $0.variant == variant }) {
                if count > 0 { otherSeekers[i] = queue } else { otherSeekers.remove(at: i) }
            } else if count > 0, otherSeekers.count < 20 {
                otherSeekers.append(queue)
            }
        case .game, .over, .match:
            break  // taken by each kind's reducer (`ghostLine`, `hangmanLine`)
        case let .turn(id, player, fields, clock, deadline):
            turn(id: id, player: player, fields: fields, clock: clock, deadline: deadline)
        case let .move(id, player, fields):
            move(id: id, player: player, fields: fields)
        case let .aborted(id, reason, _):
            aborted(id: id, reason: reason, &fx)
        case .info(let text):
            // The INFO right after OVER says why, in words (a round of a match's: `ghostLine`).
            if screen == .over, result != nil, result?.info == nil, result?.ranks.isEmpty == true {
                result?.info = text
            }
        case let .rank(name, rank, wins):
            guard (result?.ranks.count ?? 2) < 2 else { return }
            result?.ranks.append(RankEntry(name: name, rank: rank, wins: wins))
        case let .adjourned(id, player, grace):
            guard var g = currentGame(id), !isMe(player) else { return }
            g.away = player
            g.grace = grace
            g.claimable = false
            // Away, the grace period counts instead of the countdown.
            if g.toMove == player { g.deadlineDue = nil }
            game = g
        case let .returned(id, player):
            guard var g = currentGame(id) else { return }
            g.away = nil
            g.claimable = false
            game = g
            show(.returned(player))
        case let .claimable(id, _):
            guard var g = currentGame(id) else { return }
            g.claimable = true
            game = g
        case let .offer(id, player, kind, lang):
            guard var g = currentGame(id) else { return }
            g.offer = Offer(player: player, kind: kind, lang: lang)
            game = g
        case let .accepted(id, player, _), let .declined(id, player, _):
            guard var g = currentGame(id) else { return }
            g.offer = nil
            game = g
            if !isMe(player) {
                if case .accepted = line { show(.accepted(player)) } else { show(.declined(player)) }
            }
        case let .rematch(id, player):
            guard result?.id == id else { return }
            result?.rematchOfferedBy = player
            result?.rematchLapsed = false
        case let .cancelled(id, _, kind):
            // An offer a move cancelled, or a rematch request that lapsed.
            if kind == .rematch {
                guard result?.id == id else { return }
                result?.rematchOfferedBy = nil
                result?.rematchAsked = false
                result?.rematchLapsed = true
            } else if var g = currentGame(id) {
                g.offer = nil
                game = g
            }
        case .bye(let code, _):
            // The server closes this connection next. `replaced`: another
            // connection (a second client on the same settings file) resumed
            // this seat; do not take it back on reconnecting, or the two
            // would take it from each other forever.
            if code == .replaced { seatTaken = true }
            // The server closes only a connection without a name for want of
            // one: a name it held was taken from it by the same name logged in
            // on another connection (its INFO is free text, never read).
            if code == .nameTimeout, named {
                signedOut = true
                show(.signedOut)
            }
        }
    }

    /// The game an event is about, if it is the one on screen.
    func currentGame(_ id: Int) -> GameInfo? {
        guard let g = game, g.id == id else { return nil }
        return g
    }

    // MARK: Replies

    mutating func ok(_ reply: Reply, _ fx: inout [ClientEffect]) {
        if case .help = reply { dropAnsweredHelp(unless: true) } else { dropAnsweredHelp(unless: false) }
        let first = sent.isEmpty ? nil : sent.removeFirst()
        if case .account(let command)? = first, AccountFeature.accountReply(&self, reply, to: command, &fx) { return }
        let verb = first?.verb
        if WatchFeature.watchReply(&self, reply, to: verb, &fx) { return }
        if RecordFeature.recordReply(&self, reply, to: verb, &fx) { return }
        if genericReply(reply, to: first, &fx) { return }
        if HangmanFeature.hangmanReply(&self, reply, to: verb, &fx) { return }
        if GhostFeature.ghostReply(&self, reply) { return }
        switch reply {
        case .name(let name, _):
            myName = name
            named = true
            // The picker lists it first from now on.
            if config.remember(name) { fx.append(.saveConfig) }
            if case .command? = first { account.namedAsGuest(name) }
            if screen == .name || screen == .account(.login) {
                if resultAfterLogin && result != nil { go(.over) } else { goToMain() }
            }
            resultAfterLogin = false
            // The game went on in another window (same settings file) and this
            // window was sent to the name screen: choosing a name here takes
            // the game back, rather than leaving it
            // adjourned for a new game to overwrite its token.
            if seatTaken, let token = config.token, game == nil {
                seatTaken = false
                go(.resuming)
                send(.resume(token), &fx)
                return
            }
            HangmanFeature.hangmanNamed(&self, &fx)
        case .names(_, let more):
            let asked = namesAsked.isEmpty ? nil : namesAsked.removeFirst()
            let answer = incomingNames
            incomingNames = []
            // Only the answer for what is typed now counts (a stale one
            // would put back names the typing has since ruled out).
            if let asked, asked == (namesSearchRefused ? "" : namesQuery) {
                let picked = nameCursor.flatMap { filteredNames.indices.contains($0) ? filteredNames[$0] : nil }
                knownNames = answer
                knownNamesPrefix = asked
                knownNamesMore = more
                // The cursor stays on the name it was on, if still listed.
                nameCursor = picked.flatMap { filteredNames.firstIndex(of: $0) }
                preselectLastName()
            }
            // Typed on while this was asked: ask for what is typed now.
            if screen == .name { askNames(&fx) }
        case .scores:
            scores = incomingScores
            incomingScores = []
        case let .seek(lang, rounds, _):
            if game == nil {
                lobby = .seeking(lang: lang, match: rounds == .ghost, game: seekGame)
                otherSeekers = []
                go(.waiting)
            }
        case let .new(code, _, lang, rounds, _):
            // Against the computer there is no code: the GAME follows at once.
            if let code, game == nil {
                lobby = .hosting(code: code, lang: lang, match: rounds == .ghost)
                go(.waiting)
            }
        case .join:
            codeField = ""
        case .leave:
            if screen == .waiting { goToMain() }
            lobby = nil
        case .rematch(let status):
            if status == .asked {
                result?.rematchAsked = true
                result?.rematchLapsed = false
            }
        case .restart(let status), .lang(_, let status?):
            if status == .offered { show(.offerSent) }
        case .games, .watch, .unwatch:
            break  // taken by `watchReply`
        case .hint:
            break  // taken by `ghostReply`
        case .resume(_, over: true):
            // The game ended while this player was away: its OVER follows (the
            // game-over screen); the token is spent, and the name taken back.
            setToken(nil, &fx)
            game = nil
            if !named, let name = myName ?? config.lastName {
                myName = name
                resultAfterLogin = true
                AccountFeature.sendName(&self, name, &fx)
            }
        case .lang(_, nil), .letter, .accept, .decline, .resume, .claim, .help, .ping, .quit, .bestGames, .set, .settings, .stats, .other:
            break
        }
    }

    mutating func error(_ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        dropAnsweredHelp(unless: false)
        let first = sent.isEmpty ? nil : sent.removeFirst()
        if AccountFeature.accountError(&self, code, text, to: first, &fx) { return }
        let verb = first?.verb
        if HangmanFeature.hangmanError(&self, verb, code, text, &fx) { return }
        if WatchFeature.watchError(&self, verb, code, text, &fx) { return }
        if RecordFeature.recordError(&self, verb, code, text, &fx) { return }
        if genericError(verb, code, text, &fx) { return }
        switch (verb, code) {
        case (.resume?, _):
            if code == .badToken { setToken(nil, &fx) }
            defer { show(code == .badToken ? .gameEnded : .serverError(code: code, text: text)) }
            if screen == .resuming || screen == .game {
                game = nil
                if !named, let name = myName ?? config.lastName {
                    // Take the name back and carry on from the main screen.
                    myName = name
                    AccountFeature.sendName(&self, name, &fx)
                    goToMain()
                } else {
                    goHome(&fx)
                }
            }
        case (.name?, _):
            if screen != .name { goToNameScreen(&fx) }
            show(.serverError(code: code, text: text))
        case (.letter?, .notYourTurn):
            show(.notYourTurn)
        case (.letter?, .notALetter):
            show(.lettersOnly)
        case (_, .noName):
            named = false
            account.loggedIn = nil
            goToNameScreen(&fx)
            show(.serverError(code: code, text: text))
        case (.scores?, _):
            scores = []
            show(.serverError(code: code, text: text))
        case (.names?, _):
            incomingNames = []
            let asked = namesAsked.isEmpty ? "" : namesAsked.removeFirst()
            if asked.isEmpty {
                show(.serverError(code: code, text: text))
            } else if code == .badArguments || code == .unknownCommand {
                // A server that does not search: filter the list it gave.
                namesSearchRefused = true
            }
            // Not asked again here: the next keypress asks (a server that
            // refuses every NAMES is not asked in a loop).
        default:
            show(.serverError(code: code, text: text))
        }
    }

    // MARK: Games

    mutating func gameStarted(id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
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
        if !info.watching, watch.id != nil { WatchFeature.stopWatching(&self) }
        info.board = board
        if let old = game, old.id == id, old.round == info.round {
            // The same round again (a RESUME): keep what the screen showed
            // (each kind keeps its own board's: `ghostStarted`, `hangmanStarted`).
            info.lastMove = old.lastMove
            info.toMove = old.toMove
        }
        // A later round (a match's, a restart's) follows moves; the same game again keeps what it knew.
        info.personMoved = round > 1 || (game.map { $0.id == id && $0.personMoved } ?? false)
        game = info
        seatTaken = false
        if let token, ClientConfig.isToken(token) { setToken(token, &fx) }
        // Which seat is mine: my name, or the name this client last used (a watcher has none).
        if !info.watching, let me = myName ?? config.lastName, let mine = players.first(where: { $0.lowercased() == me.lowercased() }) {
            myName = mine
            named = true
            if config.remember(mine) { fx.append(.saveConfig) }
        }
        // The running score is the server's record against this opponent in
        // this kind of game (GAME's record=), and nothing else: never
        // counted here, never carried from another kind.
        if players.contains(where: isMe) { game?.record = record }
        lobby = nil
        result = nil
        if screen != .game { go(.game) }
        gameMenuOpen = false
        confirmLeave = false
    }

}
