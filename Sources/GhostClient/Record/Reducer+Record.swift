import GhostProtocol

/// The record in the client's core: the end screen's rating
/// (OVER's `ratings= changes=`), the history list (HISTORY → RESULT lines),
/// the replay (MOVES → PLAYED lines) and its review (REVIEW → PLY lines),
/// the profile (PROFILE → RATING, VERSUS) and the leaders (TOP → LEADER).
/// The generic core calls in at one point each: `recordLine`,
/// `recordReply`, `recordError`, `recordKey`, and `h` on the main screen.
extension ClientState {
    /// How many finished games the history list asks for.
    static let historyLimit = 50
    /// How many leaders a rating list asks for.
    static let leadersLimit = 20
    /// The most lines of one answer kept (the server sends at most 600 moves).
    static let recordLinesLimit = 1_000
    /// How many times a review the server is still working out (`not-ready`)
    /// is asked for again by itself before `r` is needed.
    static let reviewRetriesLimit = 20
    /// The wait before asking again when `not-ready` names none, and the
    /// bounds of the one it names ("ask again in 2 s").
    static let reviewRetryDefault = 2.0
    static let reviewRetryBounds = 1.0...30.0

    // MARK: Opening the screens

    /// The history list, asked for afresh (`h` on the main screen).
    mutating func openHistory(_ fx: inout [ClientEffect]) {
        if screen != .record(.history) { go(.record(.history)) }
        // The cursor keeps its game, not its row, when the answer has newer games at the top.
        if let chosen = record.chosen { record.cursorGame = chosen.id }
        record.history = nil
        record.incomingHistory = []
        send(.history(name: nil, limit: ClientState.historyLimit), &fx)
    }

    /// A finished game's replay, its moves asked for (Enter on the history list).
    mutating func openReplay(_ entry: HistoryEntry, _ fx: inout [ClientEffect]) {
        record.replayReturn = nil
        record.replay = Replay(id: entry.id, entry: entry)
        record.incomingMoves = []
        record.incomingPlies = []
        go(.record(.replay))
        send(.moves(entry.id), &fx)
    }

    /// The game that just ended, replayed with its review (item
    /// 17: `h` on the game-over screen): the lines the history list's Enter
    /// and the replay's `r` send (`MOVES <id>`, `REVIEW <id>`), on the same
    /// replay screen, whose Esc comes back to `from`, the game-over screen.
    mutating func openEndedReplay(id: Int, game: GameKind, variant: String?, opponent: String, won: Bool,
                                  from: Screen, _ fx: inout [ClientEffect]) {
        let entry = HistoryEntry(id: id, game: game.rawValue, variant: variant, opponent: opponent,
                                 result: won ? "win" : "loss", reason: "", change: nil, ended: Int(now))
        openReplay(entry, &fx)
        record.replayReturn = from
        askReview(&fx)
    }

    /// Asks for the review of the game replayed (`r` on the replay, or by
    /// itself after `not-ready`: `again`, which keeps the count of retries).
    mutating func askReview(again: Bool = false, _ fx: inout [ClientEffect]) {
        guard let replay = record.replay else { return }
        switch replay.review {
        case .asking, .done, .refused: return
        case .none, .notReady: break
        }
        record.replay?.reviewRetryAt = nil
        if !again { record.replay?.reviewRetries = 0 }
        record.incomingPlies = []
        if send(.review(replay.id), &fx) { record.replay?.review = .asking }
    }

    /// A review still being worked out (`not-ready`), asked again once its
    /// retry is due (a tick), while its replay is on show and the server can hear it.
    mutating func retryReview(_ fx: inout [ClientEffect]) {
        guard screen == .record(.replay), link == .online, let at = record.replay?.reviewRetryAt, at <= now else { return }
        askReview(again: true, &fx)
    }

    /// When the review is next asked for by itself, for the loop's wake-up; nil when it is not.
    var reviewRetryDeadline: Double? {
        guard screen == .record(.replay), link == .online, record.replay?.review == .notReady else { return nil }
        return record.replay?.reviewRetryAt
    }

    /// The wait `ERR not-ready` names ("… ask again in 2 s"), within bounds; a default when it names none.
    static func reviewRetryWait(_ text: String) -> Double {
        let words = text.split(separator: " ")
        for i in words.indices.dropLast(2) where words[i] == "in" && words[i + 2].hasPrefix("s") {
            if let n = recordInt(String(words[i + 1])) {
                return min(max(Double(n), reviewRetryBounds.lowerBound), reviewRetryBounds.upperBound)
            }
        }
        return reviewRetryDefault
    }

    /// A name's profile (`p` on the history list: mine).
    mutating func openProfile(_ name: String, _ fx: inout [ClientEffect]) {
        record.profileName = name
        record.profile = nil
        record.incomingRatings = []
        record.incomingVersus = []
        go(.record(.profile))
        send(.profile(name), &fx)
    }

    /// The current rating list's leaders (`t` on the profile; ←/→ another list).
    mutating func openLeaders(_ fx: inout [ClientEffect]) {
        if screen != .record(.leaders) { go(.record(.leaders)) }
        record.leaders = nil
        record.incomingLeaders = []
        let boards = RecordClient.boards
        let b = boards[min(max(0, record.board), boards.count - 1)]
        send(.top(ClientState.leadersLimit, game: b.game == ClientGames.defaultKind ? nil : b.game, variant: b.variant), &fx)
    }

    /// After a reconnection: what the record screen on show was waiting for, asked again.
    mutating func recordReconnected(_ fx: inout [ClientEffect]) {
        guard case .record(let sub) = screen else { return }
        switch sub {
        case .history where record.history == nil: openHistory(&fx)
        case .replay:
            guard let replay = record.replay else { return }
            if replay.moves == nil { send(.moves(replay.id), &fx) }
            if replay.review == .asking { record.replay?.review = .none; askReview(again: true, &fx) }
        case .profile where record.profile == nil: if let name = record.profileName { openProfile(name, &fx) }
        case .leaders where record.leaders == nil: openLeaders(&fx)
        default: break
        }
    }

    // MARK: Keys

    mutating func recordKey(_ sub: RecordScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch sub {
        case .history: historyKey(key, &fx)
        case .replay: replayKey(key, &fx)
        case .profile: profileKey(key, &fx)
        case .leaders: leadersKey(key, &fx)
        }
    }

    mutating func historyKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let count = record.history?.count ?? 0
        switch key {
        case .up: record.cursor = max(0, record.cursor - 1)
        case .down: record.cursor = min(max(0, count - 1), record.cursor + 1)
        case .pageUp: record.cursor = max(0, record.cursor - 10)
        case .pageDown: record.cursor = min(max(0, count - 1), record.cursor + 10)
        case .home: record.cursor = 0
        case .end: record.cursor = max(0, count - 1)
        case .enter:
            if let entry = record.chosen { openReplay(entry, &fx) }
        case .char("p"), .char("P"):
            if let me = myName { openProfile(me, &fx) }
        case .char("o"), .char("O"):
            // The opponent's profile, with your record against them (the computer has none).
            if let them = record.chosen?.opponent, !them.hasPrefix("bot-") { openProfile(them, &fx) }
        case .char("r"), .char("R"):
            openHistory(&fx)
        case .escape, .backspace, .char("q"):
            goToMain()
        default:
            break
        }
    }

    mutating func replayKey(_ key: Key, _ fx: inout [ClientEffect]) {
        guard let replay = record.replay else { return go(.record(.history)) }
        let last = replay.moves?.count ?? 0
        switch key {
        case .left: record.replay?.step = max(0, replay.step - 1)
        case .right, .char(" "): record.replay?.step = min(last, replay.step + 1)
        case .home: record.replay?.step = 0
        case .end: record.replay?.step = last
        case .char("r"), .char("R"): askReview(&fx)
        case .char("m"), .char("M"):
            // To the move that lost it.
            if let step = replay.mistakeStep { record.replay?.step = step }
        case .escape, .backspace, .char("q"), .enter:
            // Back where it was opened: the list, or the game-over screen (its entry chosen again).
            guard let back = record.replayReturn else { return go(.record(.history)) }
            record.replayReturn = nil
            // A game-over screen with no result left to show: the main screen, as its own Esc does.
            if back == .over && result == nil { return goToMain() }
            go(back)
            if back == .over { menuIndex = OverMenuItem.allCases.firstIndex(of: .review) ?? 0 }
        default:
            break
        }
    }

    mutating func profileKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char("t"), .char("T"): openLeaders(&fx)
        case .escape, .backspace, .char("q"), .enter: go(.record(.history))
        default: break
        }
    }

    mutating func leadersKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let n = RecordClient.boards.count
        switch key {
        case .left, .right:
            record.board = (record.board + (key == .right ? 1 : n - 1)) % n
            openLeaders(&fx)
        case .escape, .backspace, .char("q"), .enter:
            go(.record(.profile))
            if record.profile == nil, let name = record.profileName ?? myName { openProfile(name, &fx) }
        default:
            break
        }
    }

    // MARK: Server lines

    /// Takes the record's data lines; notes a rated game's end (OVER's
    /// ratings) and lets the OVER go on. Returns false for the others.
    mutating func recordLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .over(id, winner, loser, _, _, ratings?):
            // The players in seat order, as GAME had them (OVER's ratings follow that order).
            let players = game.flatMap { $0.id == id ? $0.players : nil } ?? [winner, loser]
            if game?.watching != true { record.ended = EndRatings(id: id, players: players, ratings: ratings) }
            return false
        case let .drawn(id, players, _, _, ratings?):
            if game?.watching != true { record.ended = EndRatings(id: id, players: players, ratings: ratings) }
            return false
        case .ratingData(let data):
            switch data {
            case let .result(id, game, variant, opponent, result, reason, change, ended, match, lang):
                if record.incomingHistory.count < ClientState.recordLinesLimit {
                    record.incomingHistory.append(HistoryEntry(id: id, game: game, variant: variant, opponent: opponent, result: result,
                                                               reason: reason, change: change, ended: ended, lang: lang, match: match))
                }
            case let .rating(board, rating, deviation, games, wins, losses, best):
                if record.incomingRatings.count < 100 {
                    record.incomingRatings.append(ProfileRating(board: board, rating: rating, deviation: deviation, games: games,
                                                                wins: wins, losses: losses, best: best))
                }
            case let .versus(game, versus, variant):
                if record.incomingVersus.count < 100 { record.incomingVersus.append(Versus(game: game, record: versus, variant: variant)) }
            case let .leader(rank, name, rating, deviation, games, wins, losses):
                if record.incomingLeaders.count < ClientState.recordLinesLimit {
                    record.incomingLeaders.append(Leader(rank: rank, name: name, rating: rating, deviation: deviation, games: games,
                                                         wins: wins, losses: losses))
                }
            }
            return true
        case let .played(n, round, player, play):
            if record.incomingMoves.count < ClientState.recordLinesLimit {
                record.incomingMoves.append(ReplayMove(n: n, round: round, player: player, play: play))
            }
            return true
        case let .ply(n, round, player, fields):
            if record.incomingPlies.count < ClientState.recordLinesLimit {
                record.incomingPlies.append(ReviewPly(n: n, round: round, player: player, fields: fields))
            }
            return true
        default:
            return false
        }
    }

    // MARK: Replies

    /// A reply's number field (digits only, at most 9 of them), nil otherwise.
    static func recordInt(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    mutating func recordReply(_ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) -> Bool {
        guard case let .other(_, fields) = reply else { return false }
        switch verb {
        case .history?:
            record.history = record.incomingHistory
            record.incomingHistory = []
            if let id = record.cursorGame, let i = record.history?.firstIndex(where: { $0.id == id }) { record.cursor = i }
            record.cursorGame = nil
            record.cursor = min(record.cursor, max(0, (record.history?.count ?? 0) - 1))
        case .moves?:
            let moves = record.incomingMoves
            record.incomingMoves = []
            guard let id = ClientState.recordInt(fields["id"]), record.replay?.id == id else { return true }
            record.replay?.moves = moves
            record.replay?.more = fields["more"] == "yes"
            // The replay opens at the end: the position the game ended in.
            record.replay?.step = moves.count
        case .review?:
            let plies = record.incomingPlies
            record.incomingPlies = []
            guard let id = ClientState.recordInt(fields["id"]), record.replay?.id == id else { return true }
            record.replay?.review = .done(plies: plies, mistake: ClientState.recordInt(fields["mistake"]),
                                          mistakeRound: ClientState.recordInt(fields["round"]))
        case .profile?:
            let name = fields["name"] ?? record.profileName ?? ""
            record.profile = Profile(name: name, registered: fields["registered"] == "yes", ratings: record.incomingRatings,
                                     versus: record.incomingVersus)
            record.incomingRatings = []
            record.incomingVersus = []
        case .top?:
            record.leaders = record.incomingLeaders
            record.incomingLeaders = []
            record.leadersMinGames = ClientState.recordInt(fields["min_games"])
            record.leadersMaxRD = ClientState.recordInt(fields["max_rd"])
        default:
            return false
        }
        return true
    }

    mutating func recordError(_ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) -> Bool {
        guard code != .noName else { return false }
        switch verb {
        case .history?:
            record.incomingHistory = []
            record.history = []
        case .moves?:
            record.incomingMoves = []
            if record.replay?.moves == nil { record.replay?.moves = [] }
        case .review?:
            record.incomingPlies = []
            // Still being worked out (Superghost solving, a long Hangman review): asked again by itself
            // after the wait the text names, a bounded number of times, then with `r`; anything else is final.
            guard code == .notReady else {
                record.replay?.review = .refused(code)
                return true
            }
            record.replay?.review = .notReady
            if let tries = record.replay?.reviewRetries, tries < ClientState.reviewRetriesLimit {
                record.replay?.reviewRetries = tries + 1
                record.replay?.reviewRetryAt = now + ClientState.reviewRetryWait(text)
            } else {
                record.replay?.reviewRetryAt = nil
            }
            return true
        case .profile?:
            record.incomingRatings = []
            record.incomingVersus = []
            record.profile = Profile(name: record.profileName ?? "", registered: false, ratings: [], versus: [])
        case .top?:
            record.incomingLeaders = []
            record.leaders = []
            record.leadersMinGames = nil
            record.leadersMaxRD = nil
        default:
            return false
        }
        show(.serverError(code: code, text: text))
        return true
    }
}
