import GhostProtocol
import GameKit

/// The record in the client's core: the end screen's rating
/// (OVER's `ratings= changes=`), the history list (HISTORY → RESULT lines),
/// the replay (MOVES → PLAYED lines) and its review (REVIEW → PLY lines),
/// the profile (PROFILE → RATING, VERSUS) and the leaders (TOP → LEADER).
/// The client hands it its own lines (`line`, for those `LineOwner.record`
/// names) and calls in at one point each: `recordReply`, `recordError`, `recordKey`, and `h` on the main screen.
enum RecordFeature {
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
    static func openHistory(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if st.screen != .record(.history) { st.go(.record(.history)) }
        // The cursor keeps its game, not its row, when the answer has newer games at the top.
        if let chosen = st.record.chosen { st.record.cursorGame = chosen.id }
        st.record.history = nil
        st.record.incomingHistory = []
        st.send(.history(name: nil, limit: RecordFeature.historyLimit), &fx)
    }

    /// A finished game's replay, its moves asked for (Enter on the history list).
    static func openReplay(_ st: inout ClientState, _ entry: HistoryEntry, _ fx: inout [ClientEffect]) {
        st.record.replayReturn = nil
        st.record.replay = Replay(id: entry.id, entry: entry)
        st.record.incomingMoves = []
        st.record.incomingPlies = []
        st.go(.record(.replay))
        st.send(.moves(entry.id), &fx)
    }

    /// The game that just ended, replayed with its review (item
    /// 17: `h` on the game-over screen): the lines the history list's Enter
    /// and the replay's `r` send (`MOVES <id>`, `REVIEW <id>`), on the same
    /// replay screen, whose Esc comes back to `from`, the game-over screen.
    static func openEndedReplay(_ st: inout ClientState, id: Int, game: GameKind, variant: String?, opponent: String, won: Bool,
                                from: Screen, _ fx: inout [ClientEffect]) {
        let entry = HistoryEntry(id: id, game: game.rawValue, variant: variant, opponent: opponent,
                                 result: won ? "win" : "loss", reason: "", change: nil, ended: Int(st.now))
        openReplay(&st, entry, &fx)
        st.record.replayReturn = from
        askReview(&st, &fx)
    }

    /// Asks for the review of the game replayed (`r` on the replay, or by
    /// itself after `not-ready`: `again`, which keeps the count of retries).
    static func askReview(_ st: inout ClientState, again: Bool = false, _ fx: inout [ClientEffect]) {
        guard let replay = st.record.replay else { return }
        switch replay.review {
        case .asking, .done, .refused: return
        case .none, .notReady: break
        }
        st.record.replay?.reviewRetryAt = nil
        if !again { st.record.replay?.reviewRetries = 0 }
        st.record.incomingPlies = []
        if st.send(.review(replay.id), &fx) { st.record.replay?.review = .asking }
    }

    /// A review still being worked out (`not-ready`), asked again once its
    /// retry is due (a tick), while its replay is on show and the server can hear it.
    static func retryReview(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard st.screen == .record(.replay), st.link == .online, let at = st.record.replay?.reviewRetryAt, at <= st.now else { return }
        askReview(&st, again: true, &fx)
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
    static func openProfile(_ st: inout ClientState, _ name: String, _ fx: inout [ClientEffect]) {
        st.record.profileName = name
        st.record.profile = nil
        st.record.incomingRatings = []
        st.record.incomingVersus = []
        st.go(.record(.profile))
        st.send(.profile(name), &fx)
    }

    /// The current rating list's leaders (`t` on the profile; ←/→ another list).
    static func openLeaders(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if st.screen != .record(.leaders) { st.go(.record(.leaders)) }
        st.record.leaders = nil
        st.record.incomingLeaders = []
        let boards = RecordClient.boards
        let b = boards[min(max(0, st.record.board), boards.count - 1)]
        st.send(.top(RecordFeature.leadersLimit, game: b.game == ClientGames.defaultKind ? nil : b.game, variant: b.variant), &fx)
    }

    /// After a reconnection: what the record screen on show was waiting for, asked again.
    static func recordReconnected(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard case .record(let sub) = st.screen else { return }
        switch sub {
        case .history where st.record.history == nil: openHistory(&st, &fx)
        case .replay:
            guard let replay = st.record.replay else { return }
            if replay.moves == nil { st.send(.moves(replay.id), &fx) }
            if replay.review == .asking { st.record.replay?.review = .none; askReview(&st, again: true, &fx) }
        case .profile where st.record.profile == nil: if let name = st.record.profileName { openProfile(&st, name, &fx) }
        case .leaders where st.record.leaders == nil: openLeaders(&st, &fx)
        default: break
        }
    }

    // MARK: Keys

    static func recordKey(_ st: inout ClientState, _ sub: RecordScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch sub {
        case .history: historyKey(&st, key, &fx)
        case .replay: replayKey(&st, key, &fx)
        case .profile: profileKey(&st, key, &fx)
        case .leaders: leadersKey(&st, key, &fx)
        }
    }

    static func historyKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let count = st.record.history?.count ?? 0
        switch key {
        case .up: st.record.cursor = max(0, st.record.cursor - 1)
        case .down: st.record.cursor = min(max(0, count - 1), st.record.cursor + 1)
        case .pageUp: st.record.cursor = max(0, st.record.cursor - 10)
        case .pageDown: st.record.cursor = min(max(0, count - 1), st.record.cursor + 10)
        case .home: st.record.cursor = 0
        case .end: st.record.cursor = max(0, count - 1)
        case .enter:
            if let entry = st.record.chosen { openReplay(&st, entry, &fx) }
        case .char("p"), .char("P"):
            if let me = st.myName { openProfile(&st, me, &fx) }
        case .char("o"), .char("O"):
            // The opponent's profile, with your record against them (the computer has none).
            if let them = st.record.chosen?.opponent, !them.hasPrefix("bot-") { openProfile(&st, them, &fx) }
        case .char("r"), .char("R"):
            openHistory(&st, &fx)
        case .escape, .backspace, .char("q"):
            st.goToMain()
        default:
            break
        }
    }

    static func replayKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        guard let replay = st.record.replay else { return st.go(.record(.history)) }
        let last = replay.moves?.count ?? 0
        switch key {
        case .left: st.record.replay?.step = max(0, replay.step - 1)
        case .right, .char(" "): st.record.replay?.step = min(last, replay.step + 1)
        case .home: st.record.replay?.step = 0
        case .end: st.record.replay?.step = last
        case .char("r"), .char("R"): askReview(&st, &fx)
        case .char("m"), .char("M"):
            // To the move that lost it.
            if let step = replay.mistakeStep { st.record.replay?.step = step }
        case .escape, .backspace, .char("q"), .enter:
            // Back where it was opened: the list, or the game-over screen (its entry chosen again).
            guard let back = st.record.replayReturn else { return st.go(.record(.history)) }
            st.record.replayReturn = nil
            // A game-over screen with no result left to show: the main screen, as its own Esc does.
            if back == .over && st.result == nil { return st.goToMain() }
            st.go(back)
            if back == .over { st.menuIndex = OverMenuItem.allCases.firstIndex(of: .review) ?? 0 }
        default:
            break
        }
    }

    static func profileKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char("t"), .char("T"): openLeaders(&st, &fx)
        case .char("x"), .char("X"):
            // Block another name (it is not told), asked first (Social/).
            if let name = st.record.profile?.name ?? st.record.profileName, !st.isMe(name), !name.hasPrefix("bot-") {
                SocialFeature.askBlock(&st, name)
            }
        case .escape, .backspace, .char("q"), .enter: st.go(.record(.history))
        default: break
        }
    }

    static func leadersKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let n = RecordClient.boards.count
        switch key {
        case .left, .right:
            st.record.board = (st.record.board + (key == .right ? 1 : n - 1)) % n
            openLeaders(&st, &fx)
        case .escape, .backspace, .char("q"), .enter:
            st.go(.record(.profile))
            if st.record.profile == nil, let name = st.record.profileName ?? st.myName { openProfile(&st, name, &fx) }
        default:
            break
        }
    }

    // MARK: Server lines

    /// Notes a rated game's end (OVER's ratings), whichever feature owns the OVER.
    static func noteRatings(_ st: inout ClientState, _ line: ServerLine) {
        let players: [String], id: Int, ratings: SeatRatings
        switch line {
        case let .over(overID, winner, loser, _, _, rated?):
            // The players in seat order, as GAME had them (OVER's ratings follow that order).
            (id, ratings) = (overID, rated)
            players = st.game.flatMap { $0.id == id ? $0.players : nil } ?? [winner, loser]
        case let .drawn(overID, seats, _, _, rated?):
            (id, players, ratings) = (overID, seats, rated)
        default:
            return
        }
        if st.game?.watching != true { st.record.ended = EndRatings(id: id, players: players, ratings: ratings) }
    }

    /// The record's data lines (`LineOwner.record`).
    static func line(_ st: inout ClientState, _ line: ServerLine) {
        switch line {
        case .ratingData(let data):
            switch data {
            case let .result(id, game, variant, opponent, result, reason, change, ended, match, lang):
                if st.record.incomingHistory.count < RecordFeature.recordLinesLimit {
                    st.record.incomingHistory.append(HistoryEntry(id: id, game: game, variant: variant, opponent: opponent, result: result,
                                                                  reason: reason, change: change, ended: ended, lang: lang, match: match))
                }
            case let .rating(board, rating, deviation, games, wins, losses, best):
                if st.record.incomingRatings.count < 100 {
                    st.record.incomingRatings.append(ProfileRating(board: board, rating: rating, deviation: deviation, games: games,
                                                                   wins: wins, losses: losses, best: best))
                }
            case let .versus(game, versus, variant):
                if st.record.incomingVersus.count < 100 { st.record.incomingVersus.append(Versus(game: game, record: versus, variant: variant)) }
            case let .leader(rank, name, rating, deviation, games, wins, losses):
                if st.record.incomingLeaders.count < RecordFeature.recordLinesLimit {
                    st.record.incomingLeaders.append(Leader(rank: rank, name: name, rating: rating, deviation: deviation, games: games,
                                                            wins: wins, losses: losses))
                }
            }
        case let .played(n, round, player, play):
            if st.record.incomingMoves.count < RecordFeature.recordLinesLimit {
                st.record.incomingMoves.append(ReplayMove(n: n, round: round, player: player, play: play))
            }
        case let .ply(n, round, player, fields):
            if st.record.incomingPlies.count < RecordFeature.recordLinesLimit {
                st.record.incomingPlies.append(ReviewPly(n: n, round: round, player: player, fields: fields))
            }
        default:
            break
        }
    }

    // MARK: Replies

    /// A reply's number field (digits only, at most 9 of them), nil otherwise.
    static func recordInt(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    static func recordReply(_ st: inout ClientState, _ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) {
        guard case let .other(_, fields) = reply else { return }
        switch verb {
        case .history?:
            st.record.history = st.record.incomingHistory
            st.record.incomingHistory = []
            if let id = st.record.cursorGame, let i = st.record.history?.firstIndex(where: { $0.id == id }) { st.record.cursor = i }
            st.record.cursorGame = nil
            st.record.cursor = min(st.record.cursor, max(0, (st.record.history?.count ?? 0) - 1))
        case .moves?:
            let moves = st.record.incomingMoves
            st.record.incomingMoves = []
            guard let id = RecordFeature.recordInt(fields["id"]), st.record.replay?.id == id else { return }
            st.record.replay?.moves = moves
            st.record.replay?.more = fields["more"] == "yes"
            // The replay opens at the end: the position the game ended in.
            st.record.replay?.step = moves.count
        case .review?:
            let plies = st.record.incomingPlies
            st.record.incomingPlies = []
            guard let id = RecordFeature.recordInt(fields["id"]), st.record.replay?.id == id else { return }
            st.record.replay?.review = .done(plies: plies, mistake: RecordFeature.recordInt(fields["mistake"]),
                                             mistakeRound: RecordFeature.recordInt(fields["round"]))
        case .profile?:
            let name = fields["name"] ?? st.record.profileName ?? ""
            st.record.profile = Profile(name: name, registered: fields["registered"] == "yes", ratings: st.record.incomingRatings,
                                        versus: st.record.incomingVersus)
            st.record.incomingRatings = []
            st.record.incomingVersus = []
        case .top?:
            st.record.leaders = st.record.incomingLeaders
            st.record.incomingLeaders = []
            st.record.leadersMinGames = RecordFeature.recordInt(fields["min_games"])
            st.record.leadersMaxRD = RecordFeature.recordInt(fields["max_rd"])
        default:
            return
        }
    }

    static func recordError(_ st: inout ClientState, _ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        guard code != .noName else { return }
        switch verb {
        case .history?:
            st.record.incomingHistory = []
            st.record.history = []
        case .moves?:
            st.record.incomingMoves = []
            if st.record.replay?.moves == nil { st.record.replay?.moves = [] }
        case .review?:
            st.record.incomingPlies = []
            // Still being worked out (Superghost solving, a long Hangman review): asked again by itself
            // after the wait the text names, a bounded number of times, then with `r`; anything else is final.
            guard code == .notReady else {
                st.record.replay?.review = .refused(code)
                return
            }
            st.record.replay?.review = .notReady
            if let tries = st.record.replay?.reviewRetries, tries < RecordFeature.reviewRetriesLimit {
                st.record.replay?.reviewRetries = tries + 1
                st.record.replay?.reviewRetryAt = st.now + RecordFeature.reviewRetryWait(text)
            } else {
                st.record.replay?.reviewRetryAt = nil
            }
            return
        case .profile?:
            st.record.incomingRatings = []
            st.record.incomingVersus = []
            st.record.profile = Profile(name: st.record.profileName ?? "", registered: false, ratings: [], versus: [])
        case .top?:
            st.record.incomingLeaders = []
            st.record.leaders = []
            st.record.leadersMinGames = nil
            st.record.leadersMaxRD = nil
        default:
            return
        }
        st.show(.serverError(code: code, text: text))
    }
}

extension ClientState {
    /// When the review is next asked for by itself, for the loop's wake-up; nil when it is not.
    var reviewRetryDeadline: Double? {
        guard screen == .record(.replay), link == .online, record.replay?.review == .notReady else { return nil }
        return record.replay?.reviewRetryAt
    }
}
