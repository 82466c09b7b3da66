import GhostProtocol

/// Watching in the client's core: the list of live games (GAMES → LIVE
/// lines → OK GAMES), WATCH and UNWATCH, and the keys of a watcher, whose
/// game is drawn by its kind's own play screen (GAME's `watching=yes` marks
/// it read-only). The generic core calls in here at one point each
/// (`line`, for the lines `LineOwner.watch` names, `watchReply`, `watchError`, `watchingKey`), as it does for
/// Hangman; which screen a watched game gets is decided where a player's is.
/// Lines, replies and refusals are reduced by `WatchClient` itself (below),
/// which changes only its own state and returns what the parent must do.
enum WatchFeature {
    /// How many live games to ask for.
    static let watchLimit = CommandParser.defaultGames
    /// How often the list shown is asked again. As long as a reconnecting
    /// client waits at most (`maxBackoff`): after a server restart, games
    /// without a clock are listed only once a player is back (RESUME loads
    /// them), so the list asked at the greeting may be empty.
    static let watchRefreshSeconds = ClientState.maxBackoff


    // MARK: The list

    /// The list of live games, asked for afresh (`w` on the main screen, `r` on the list).
    static func openWatchList(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if st.screen != .watchList { st.go(.watchList) }
        st.watch.games = nil
        st.watch.incoming = []
        st.watch.more = false
        st.watch.askedAt = st.now
        st.send(.games(limit: WatchFeature.watchLimit), &fx)
    }


    /// Each tick: the list shown is asked again every few seconds, keeping
    /// what it shows (and the game chosen) until the answer replaces it;
    /// games that start, end or come back after a restart appear by themselves.
    static func watchListTick(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard let due = st.watchListDue, st.now >= due, !st.watchingAGame else { return }
        st.watch.incoming = []
        st.watch.askedAt = st.now
        st.send(.games(limit: WatchFeature.watchLimit), &fx)
    }

    static func watchListKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let games = st.watch.games ?? []
        let choosable = games.indices.filter { games[$0].watchable }
        switch key {
        case .up, .down:
            guard !choosable.isEmpty else { return }
            let here = choosable.firstIndex(of: st.watch.cursor) ?? 0
            let next = key == .up ? max(0, here - 1) : min(choosable.count - 1, here + 1)
            st.watch.cursor = choosable[next]
        case .home:
            if let first = choosable.first { st.watch.cursor = first }
        case .end:
            if let last = choosable.last { st.watch.cursor = last }
        case .enter:
            guard let game = st.watch.chosen, st.watch.asked == nil else { return }
            if st.send(.watch(game.id), &fx) { st.watch.asked = game.id }
        case .char("r"), .char("R"):
            openWatchList(&st, &fx)
        case .escape, .backspace, .char("q"):
            st.goToMain()
        default:
            break
        }
    }

    // MARK: Watching

    /// A watcher's keys: none plays. Esc (or q) stops watching (UNWATCH) and
    /// goes back to the list; once the game has ended, Enter too.
    static func watchingKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .escape, .backspace, .char("q"), .char("Q"):
            backToWatchList(&st, &fx)
        case .enter where st.watch.ended:
            backToWatchList(&st, &fx)
        default:
            break  // letters and the rest: a watcher plays nothing, and nothing is sent
        }
    }

    /// Stops watching (UNWATCH, unless the game's end already stopped it) and shows the list again.
    static func backToWatchList(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if let id = st.watch.id, !st.watch.ended {
            st.send(.unwatch, &fx)
            // Lines of that game already on their way are dropped until OK UNWATCH.
            st.watch.left = id
        }
        stopWatching(&st)
        openWatchList(&st, &fx)
    }

    /// Forgets the watched game (its board, its end).
    static func stopWatching(_ st: inout ClientState) {
        if st.game?.watching == true { st.game = nil }
        if st.watch.id != nil, st.watch.ended { st.hangman.ended = nil }
        st.watch.id = nil
        st.watch.asked = nil
        st.watch.ended = false
        st.watch.result = nil
    }

    /// The watched game ended: the server sends no more of it.
    static func watchedGameEnded(_ st: inout ClientState, _ result: GameResult?) {
        st.watch.ended = true
        st.watch.result = result
        st.gameMenuOpen = false
        st.confirmLeave = false
    }

    // MARK: Server lines, replies and refusals (scoped)

    /// Hands a line of the watch feature's (`LineOwner.watch`) to
    /// `WatchClient.line`, which changes only its own state, and does what it
    /// asks of the rest of the client.
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        guard case .aborted(let reason) = st.watch.line(line) else { return }
        // The watched game was aborted (no score): the server has stopped
        // the watching. Back to the list, asked afresh, saying why.
        stopWatching(&st)
        openWatchList(&st, &fx)
        st.show(.aborted(reason))
    }

    static func watchReply(_ st: inout ClientState, _ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) {
        _ = st.watch.reply(reply)
    }

    static func watchError(_ st: inout ClientState, _ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        switch st.watch.refused(verb, code) {
        case .notMine, .taken:
            break
        case .show:
            st.show(.serverError(code: code, text: text))
        case .refusedWatch:
            if st.screen == .watchList { openWatchList(&st, &fx) }
            st.show(.watchRefused(code))
        }
    }
}

extension ClientState {
    /// Whether the keys belong to a watched game (playing nothing).
    var watchingAGame: Bool {
        watch.id != nil && (game?.watching == true || watch.ended)
    }
    /// When the list on screen is next asked again, if it is shown and answered.
    var watchListDue: Double? {
        guard screen == .watchList, link == .online, watch.games != nil, !pending.contains(.games) else { return nil }
        return watch.askedAt + WatchFeature.watchRefreshSeconds
    }
}

/// The watch feature's own reducer: it changes only `WatchClient`, and says
/// what the rest of the client must do (as TCA's delegate actions), so the
/// parent's state is changed by the parent only.
extension WatchClient {
    enum LineOutcome: Equatable {
        /// Not a line of the watch feature's.
        case notMine
        /// Taken (a LIVE line, or a line of a game no longer watched, dropped).
        case taken
        /// The watched game was aborted: stop watching, list again, say why.
        case aborted(AbortReason)
    }

    mutating func line(_ line: ServerLine) -> LineOutcome {
        switch line {
        case let .live(id, kind, players, lang, moves, watchers, fields):
            if incoming.count < 1_000 {
                incoming.append(LiveGame(id: id, kind: kind, players: players, lang: lang, moves: moves,
                                         watchers: watchers, fields: fields))
            }
            return .taken
        case let .over(id, _, _, _, _, _), let .match(id, _, _, _), let .drawn(id, _, _, _, _):
            // The end of a game no longer watched (UNWATCH crossed it), or a
            // repeat of the end already shown: not this client's game.
            return id == left || (ended && id == self.id) ? .taken : .notMine
        case let .aborted(id, reason, _):
            guard id == self.id, !ended else { return id == left ? .taken : .notMine }
            return .aborted(reason)
        default:
            if let id = line.gameID, id == left { return .taken }
            return .notMine
        }
    }

    /// Takes the replies to GAMES, WATCH and UNWATCH.
    mutating func reply(_ reply: Reply) -> Bool {
        switch reply {
        case let .games(_, more):
            let was = chosen?.id
            games = incoming
            incoming = []
            self.more = more
            placeCursor(keeping: was)
            return true
        case let .watch(id):
            asked = nil
            self.id = id
            ended = false
            result = nil
            return true
        case .unwatch:
            left = nil
            return true
        default:
            return false
        }
    }

    enum RefusalOutcome: Equatable {
        case notMine, taken
        /// Show the server's refusal.
        case show
        /// WATCH refused: say why, and list again.
        case refusedWatch
    }

    /// Takes the refusals of GAMES, WATCH and UNWATCH.
    mutating func refused(_ verb: Verb?, _ code: ErrorCode) -> RefusalOutcome {
        switch verb {
        case .games?:
            incoming = []
            games = []
            return .show
        case .watch?:
            // Ended meanwhile, made private, or this client is busy: say so, and list again.
            asked = nil
            return code == .noName ? .notMine : .refusedWatch
        case .unwatch?:
            // The game ended as UNWATCH went out: nothing to stop.
            left = nil
            return code == .noName ? .notMine : .taken
        default:
            return .notMine
        }
    }

    /// The cursor on the game it was on, if still listed, else on the first that can be watched.
    mutating func placeCursor(keeping id: Int?) {
        let games = games ?? []
        if let id, let i = games.firstIndex(where: { $0.id == id && $0.watchable }) {
            cursor = i
        } else {
            cursor = games.firstIndex(where: { $0.watchable }) ?? 0
        }
    }
}

extension ServerLine {
    /// The game a game event is about, if it is one.
    var gameID: Int? {
        switch self {
        case let .turn(id, _, _, _, _), let .move(id, _, _), let .adjourned(id, _, _), let .returned(id, _),
             let .claimable(id, _), let .offer(id, _, _, _), let .accepted(id, _, _), let .declined(id, _, _),
             let .cancelled(id, _, _), let .rematch(id, _), let .watchers(id, _):
            return id
        case let .game(id, _, _, _, _, _, _, _, _, _, _, _):
            return id
        default:
            return nil
        }
    }
}
