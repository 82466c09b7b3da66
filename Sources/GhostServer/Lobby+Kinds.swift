import GhostProtocol

/// What the lobby reads from a game kind's declarations (issue #25): the
/// option keys and computer levels of NEW and SEEK, the boards of SCORES,
/// HELP's line per kind. The lobby names no kind here; each kind says what
/// is its own (GameKit's `GameDefinition`).
extension Lobby {
    /// A NEW's or SEEK's options as the kind they name takes them, or nil
    /// after an `ERR`: each key must be one the kind declares (`optionKeys`),
    /// and `bot=<level>` one of its `computerLevels`; a kind without levels
    /// reads `bot=` as its own option (Hangman's `bot=guesser`). Options
    /// without `game=` are the default kind's, checked as before.
    func kindOptions(_ given: GameOptions, _ id: ConnectionID) -> GameOptions? {
        guard let name = given.game?.rawValue, let kind = kind(named: name) else { return given }
        var options = given
        if let level = options.bot, !kind.computerLevels.contains(level) {
            guard kind.optionKeys.contains("bot") else {
                let levels = kind.computerLevels.map(\.rawValue).joined(separator: "|")
                reply(id, .error(.badArguments, levels.isEmpty ? "game=\(kind.name) has no computer player"
                                                                : "game=\(kind.name) plays the computer at bot=\(levels)"))
                return nil
            }
            options.bot = nil
            options.settings["bot"] = level.rawValue
            if options.botFirst {
                reply(id, .error(.badArguments, "first= needs bot="))
                return nil
            }
        }
        for key in options.settings.keys.sorted() where !kind.optionKeys.contains(key) {
            let others = kindNames.filter { self.kind(named: $0)?.optionKeys.contains(key) == true }
            reply(id, .error(.badArguments, others.isEmpty
                ? "game=\(kind.name) takes no \(key)=: usage: NEW \(kind.usage)"
                : "\(key)= is for game=\(others.joined(separator: "|"))"))
            return nil
        }
        return options
    }

    /// `SCORES game=<kind> [mode=<board>]` of a kind that ranks people by
    /// wins: its board `<prefix>-<mode>` (`mode=game` by default; `match`,
    /// a level, `<level>-match`), as `SCORES` lists Ghost's. Nil when the
    /// kind ranks games instead; a best-games list of the kind with that
    /// mode comes first (the caller asks `bestGamesBoard` before this).
    func winsBoard(of kind: any GameDefinition, mode: String?) -> Board? {
        guard kind.ranksByWins else { return nil }
        let levels: [BotLevel?] = [nil] + kind.computerLevels.map { $0 }
        let boards = levels.flatMap { [Board(kind: kind.boardPrefix, computer: $0), Board(kind: kind.boardPrefix, computer: $0, match: true)] }
        let wanted = kind.boardPrefix.map { "\($0)-\(mode ?? "game")" } ?? (mode ?? "game")
        return boards.first { $0.name == wanted }
    }

    /// The HELP lines of the kinds: `HELP <usage of NEW> - <summary>`, one per kind.
    var kindHelp: [ServerLine] {
        kindNames.compactMap { kind(named: $0) }.map { .helpEntry(usage: "NEW \($0.usage)", text: $0.summary) }
    }

    /// A board of wins, top n: `SCORE` lines, then `OK SCORES`.
    func listScores(_ n: Int, board: Board, _ id: ConnectionID) {
        guard let rows = persist({ try store.scores(board: board.name, limit: n) }),
              let owners = persist({ try store.registered(among: rows.map(\.name)) }) else { return failed(id) }
        for r in rows {
            reply(id, .score(rank: r.rank, name: r.name, wins: r.wins, played: r.played, registered: owners.contains(r.name)))
        }
        reply(id, .ok(.scores(count: rows.count, board: board)))
    }
}
