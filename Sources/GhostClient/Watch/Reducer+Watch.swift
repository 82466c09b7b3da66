import GhostProtocol

/// Watching in the client's core: the list of live games (GAMES → LIVE
/// lines → OK GAMES), WATCH and UNWATCH, and the keys of a watcher, whose
/// game is drawn by its kind's own play screen (GAME's `watching=yes` marks
/// it read-only). The generic core calls in here at one point each
/// (`watchLine`, `watchReply`, `watchError`, `watchingKey`), as it does for
/// Hangman; which screen a watched game gets is decided where a player's is.
extension ClientState {
    /// How many live games to ask for.
    static let watchLimit = CommandParser.defaultGames

    /// Whether the keys belong to a watched game (playing nothing).
    var watchingAGame: Bool {
        watch.id != nil && (game?.watching == true || watch.ended)
    }

    // MARK: The list

    /// The list of live games, asked for afresh (`w` on the main screen, `r` on the list).
    mutating func openWatchList(_ fx: inout [ClientEffect]) {
        if screen != .watchList { go(.watchList) }
        watch.games = nil
        watch.incoming = []
        watch.more = false
        send(.games(limit: ClientState.watchLimit), &fx)
    }

    mutating func watchListKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let games = watch.games ?? []
        let choosable = games.indices.filter { games[$0].watchable }
        switch key {
        case .up, .down:
            guard !choosable.isEmpty else { return }
            let here = choosable.firstIndex(of: watch.cursor) ?? 0
            let next = key == .up ? max(0, here - 1) : min(choosable.count - 1, here + 1)
            watch.cursor = choosable[next]
        case .home:
            if let first = choosable.first { watch.cursor = first }
        case .end:
            if let last = choosable.last { watch.cursor = last }
        case .enter:
            guard let game = watch.chosen, watch.asked == nil else { return }
            if send(.watch(game.id), &fx) { watch.asked = game.id }
        case .char("r"), .char("R"):
            openWatchList(&fx)
        case .escape, .backspace, .char("q"):
            goToMain()
        default:
            break
        }
    }

    /// The cursor on the game it was on, if still listed, else on the first that can be watched.
    mutating func placeWatchCursor(keeping id: Int?) {
        let games = watch.games ?? []
        if let id, let i = games.firstIndex(where: { $0.id == id && $0.watchable }) {
            watch.cursor = i
        } else {
            watch.cursor = games.firstIndex(where: { $0.watchable }) ?? 0
        }
    }

    // MARK: Watching

    /// A watcher's keys: none plays. Esc (or q) stops watching (UNWATCH) and
    /// goes back to the list; once the game has ended, Enter too.
    mutating func watchingKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .escape, .backspace, .char("q"), .char("Q"):
            backToWatchList(&fx)
        case .enter where watch.ended:
            backToWatchList(&fx)
        default:
            break  // letters and the rest: a watcher plays nothing, and nothing is sent
        }
    }

    /// Stops watching (UNWATCH, unless the game's end already stopped it) and shows the list again.
    mutating func backToWatchList(_ fx: inout [ClientEffect]) {
        if let id = watch.id, !watch.ended {
            send(.unwatch, &fx)
            // Lines of that game already on their way are dropped until OK UNWATCH.
            watch.left = id
        }
        stopWatching()
        openWatchList(&fx)
    }

    /// Forgets the watched game (its board, its end).
    mutating func stopWatching() {
        if game?.watching == true { game = nil }
        if watch.id != nil, watch.ended { hangman.ended = nil }
        watch.id = nil
        watch.asked = nil
        watch.ended = false
        watch.result = nil
    }

    /// The watched game ended: the server sends no more of it.
    mutating func watchedGameEnded(_ result: GameResult?) {
        watch.ended = true
        watch.result = result
        gameMenuOpen = false
        confirmLeave = false
    }

    // MARK: Server lines

    /// Takes the lines that belong to watching; returns false for the others.
    mutating func watchLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .live(id, kind, players, lang, moves, watchers, fields):
            if watch.incoming.count < 1_000 {
                watch.incoming.append(LiveGame(id: id, kind: kind, players: players, lang: lang, moves: moves,
                                               watchers: watchers, fields: fields))
            }
            return true
        case let .watchers(id, count):
            if var g = currentGame(id) {
                g.watchers = max(0, count)
                game = g
            }
            return true
        case let .over(id, _, _, _, _, _), let .match(id, _, _, _):
            // The end of a game no longer watched (UNWATCH crossed it), or a
            // repeat of the end already shown: not this client's game.
            return id == watch.left || (watch.ended && id == watch.id)
        case let .aborted(id, reason, _):
            guard id == watch.id, !watch.ended else { return id == watch.left }
            // The watched game was aborted (no score): the server has stopped
            // the watching. Back to the list, asked afresh, saying why.
            stopWatching()
            openWatchList(&fx)
            show(.aborted(reason))
            return true
        default:
            if let id = line.gameID, id == watch.left { return true }
            return false
        }
    }

    // MARK: Replies

    mutating func watchReply(_ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) -> Bool {
        switch reply {
        case let .games(_, more):
            let was = watch.chosen?.id
            watch.games = watch.incoming
            watch.incoming = []
            watch.more = more
            placeWatchCursor(keeping: was)
            return true
        case let .watch(id):
            watch.asked = nil
            watch.id = id
            watch.ended = false
            watch.result = nil
            return true
        case .unwatch:
            watch.left = nil
            return true
        default:
            return false
        }
    }

    mutating func watchError(_ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) -> Bool {
        switch verb {
        case .games?:
            watch.incoming = []
            watch.games = []
            show(.serverError(code: code, text: text))
            return true
        case .watch?:
            // Ended meanwhile, made private, or this client is busy: say so, and list again.
            watch.asked = nil
            guard code != .noName else { return false }
            if screen == .watchList { openWatchList(&fx) }
            show(.watchRefused(code))
            return true
        case .unwatch?:
            // The game ended as UNWATCH went out: nothing to stop.
            watch.left = nil
            return code != .noName
        default:
            return false
        }
    }
}

extension ServerLine {
    /// The game a game event is about, if it is one.
    var gameID: Int? {
        switch self {
        case let .turn(id, _, _, _), let .move(id, _, _), let .adjourned(id, _, _), let .returned(id, _),
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
