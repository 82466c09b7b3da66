import GhostProtocol
import GameKit

/// A player's record: the ratings a finished game moved (OVER's
/// `ratings= changes=`), the list of finished games (HISTORY), a finished
/// game replayed move by move (MOVES) and reviewed (REVIEW), a profile
/// (PROFILE) and a rating list's leaders (TOP). Its reducer is
/// `RecordFeature` (Reducer+Record.swift).

/// The record's screens.
public enum RecordScreen: Equatable, Sendable {
    /// The finished games, newest first (HISTORY).
    case history
    /// One finished game, step by step (MOVES), with its review (REVIEW).
    case replay
    /// A name's ratings and the asker's record against it (PROFILE).
    case profile
    /// A rating list's leaders (TOP).
    case leaders
}

/// The ratings at the end of a rated game: OVER's `ratings=` and `changes=`,
/// in the seat order of its players.
public struct EndRatings: Equatable, Sendable {
    public var id: Int
    public var players: [String]
    public var ratings: SeatRatings

    /// The rating shown for `name`'s seat, and its change.
    public func of(_ name: String) -> (rating: ShownRating, change: Int?)? {
        guard let seat = players.firstIndex(where: { $0.lowercased() == name.lowercased() }),
              ratings.ratings.indices.contains(seat) else { return nil }
        let change = ratings.changes.flatMap { $0.indices.contains(seat) ? $0[seat] : nil }
        return (ratings.ratings[seat], change)
    }
}

/// One finished game on the history list: a `RESULT` line.
public struct HistoryEntry: Equatable, Sendable {
    public var id: Int
    public var game: String
    public var variant: String?
    public var opponent: String
    /// `win`, `loss` or `aborted`.
    public var result: String
    public var reason: String
    public var change: Int?
    /// Unix seconds.
    public var ended: Int
    /// The game's language (RESULT's `lang=`); nil from a server that does not say.
    public var lang: String? = nil
    /// A match to GHOST (`RESULT … rounds=ghost`).
    public var match = false
}

/// One move of a replay: a `PLAYED` line.
public struct ReplayMove: Equatable, Sendable {
    public var n: Int
    public var round: Int
    public var player: String
    /// As the store keeps it: `p`, `<p`, `challenge`, `word:<w>`, `concede`, `hidden`.
    public var play: String
}

/// One move of a review: a `PLY` line (Ghost: `play= fragment= outcome= [better=]`;
/// Hangman: `play= [pattern=] …`).
public struct ReviewPly: Equatable, Sendable {
    public var n: Int
    public var round: Int?
    public var player: String
    public var fields: [Field]

    public var play: String { fields["play"] ?? "" }
    public var fragment: String? { fields["fragment"] }
    /// `win` or `loss`: what perfect play from the position the move made gives its mover.
    public var outcome: String? { fields["outcome"] }
    /// The moves that would have kept the win (a mistake's line only).
    public var better: [String] { fields["better"].map { $0.split(separator: ",").map(String.init) } ?? [] }
    public var pattern: String? { fields["pattern"] }
}

/// Where the review of the replayed game stands.
public enum ReviewState: Equatable, Sendable {
    /// Not asked for.
    case none
    /// REVIEW sent, not answered.
    case asking
    /// The server is still solving it (`not-ready`): asked again by itself
    /// (`Replay.reviewRetryAt`) a bounded number of times, then with `r`.
    case notReady
    /// Refused for good (`no-review`, `not-over`, …).
    case refused(ErrorCode)
    /// The review: one line per move, and the first mistake (its `n` and `round`), if any.
    case done(plies: [ReviewPly], mistake: Int?, mistakeRound: Int?)
}

/// A finished game being replayed.
public struct Replay: Equatable, Sendable {
    public var id: Int
    /// The history entry it was opened from (its kind and opponent), if any.
    public var entry: HistoryEntry?
    /// The moves, nil while MOVES is on its way; `more`: earlier ones were left out.
    public var moves: [ReplayMove]?
    public var more = false
    /// How many moves are shown played (0: the start; `moves.count`: the end).
    public var step = 0
    public var review: ReviewState = .none
    /// When REVIEW is asked again by itself after `not-ready` (the client's
    /// clock, `ClientState.now`); nil when no retry is due.
    public var reviewRetryAt: Double?
    /// How many times REVIEW was asked again by itself since the last `r`.
    public var reviewRetries = 0

    /// Whether the game replayed is a Hangman game (its review names no losing move).
    public var isHangman: Bool { entry.map { ClientGames.guessAWord.contains(GameKind(rawValue: $0.game)) } ?? false }
}

/// One rating of a profile: a `RATING` line.
public struct ProfileRating: Equatable, Sendable {
    public var board: String
    public var rating: ShownRating
    public var deviation: Int
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var best: RatedWin?
}

/// The asker's record against a name in one kind of game.
public struct Versus: Equatable, Sendable {
    public var game: String
    public var record: HeadToHead
    /// Per variant (`VERSUS … variant=`): Superghost's record apart from Ghost's.
    public var variant: String? = nil
}

/// A PROFILE answer.
public struct Profile: Equatable, Sendable {
    public var name: String
    public var registered: Bool
    public var ratings: [ProfileRating]
    /// The asker's record against the name, per game kind.
    public var versus: [Versus]
}

/// One leader of a rating list: a `LEADER` line.
public struct Leader: Equatable, Sendable {
    public var rank: Int
    public var name: String
    public var rating: ShownRating
    public var deviation: Int
    public var games: Int
    public var wins: Int
    public var losses: Int
}

/// Everything the client keeps about records.
/// A rating list TOP knows: its name, and the game and variant TOP asks for.
public struct RatingBoardEntry: Sendable, Equatable {
    public let name: String
    public let game: GameKind
    public let variant: String?
}

public struct RecordClient: Equatable, Sendable {
    /// The ratings of the last rated game that ended (OVER), for its end screen.
    public var ended: EndRatings?

    /// The history list (nil while HISTORY is on its way), and the cursor on it.
    public var history: [HistoryEntry]?
    var incomingHistory: [HistoryEntry] = []
    public var cursor = 0
    /// The game the cursor was on when the list was asked for again: the
    /// cursor stays on it when newer games arrive at the top.
    var cursorGame: Int?

    /// The game replayed.
    public var replay: Replay?
    /// Where the replay's Esc goes when it was not opened from the list:
    /// the game-over screen it was opened from (nil: the list).
    public var replayReturn: Screen?
    var incomingMoves: [ReplayMove] = []
    var incomingPlies: [ReviewPly] = []

    /// The profile shown (nil while PROFILE is on its way), and whose.
    public var profileName: String?
    public var profile: Profile?
    var incomingRatings: [ProfileRating] = []
    var incomingVersus: [Versus] = []

    /// The rating list shown (nil while TOP is on its way), and which.
    public var leaders: [Leader]?
    var incomingLeaders: [Leader] = []
    public var board = 0
    /// Who the list shown waits for, as `OK TOP` says it (item
    /// 16): the rated games a name needs on it (`min_games=`) and the RD
    /// limit, when there is one (`max_rd=`); nil from a server that does not say.
    public var leadersMinGames: Int?
    public var leadersMaxRD: Int?

    public init() {}

    /// The rating lists TOP knows, in the order ←/→ visit them.
    /// Each game's own (Games/*/…Record.swift), the one place that lists the games.
    public static let boards: [RatingBoardEntry] = GhostRecord.ratingBoards + HangmanRecord.ratingBoards

    /// The game chosen on the history list.
    public var chosen: HistoryEntry? {
        guard let history, history.indices.contains(cursor) else { return nil }
        return history[cursor]
    }
}

extension Replay {
    /// The fragment (Ghost) after the first `step` moves of the replay: the
    /// letters of the round in play at that step (a new round starts empty).
    public func fragment(at step: Int) -> String {
        guard let moves else { return "" }
        var fragment = ""
        var round: Int?
        for m in moves.prefix(step) {
            if m.round != round || m.n == 1 { fragment = "" }
            round = m.round
            if m.play.hasPrefix("<"), m.play.count == 2 {
                fragment = String(m.play.dropFirst()) + fragment
            } else if m.play.count == 1 {
                fragment += m.play
            }
        }
        return fragment
    }

    /// A Hangman duel's pattern after the first `step` moves, worked out
    /// from the setter's word (its first move, `word:<w>`, shown once the
    /// game is over); nil when the moves do not name the word (against the
    /// computer the word is only in the review).
    public func pattern(at step: Int) -> String? {
        guard let moves, let first = moves.first, first.play.hasPrefix("word:") else { return nil }
        let word = first.play.dropFirst(5).lowercased()
        var guessed = Set<Character>()
        var solved = false
        for m in moves.dropFirst().prefix(max(0, step - 1)) {
            if m.play.count == 1, let c = m.play.lowercased().first { guessed.insert(c) }
            if m.play.hasPrefix("word:"), m.play.dropFirst(5).lowercased() == word { solved = true }
        }
        return String(word.map { solved || guessed.contains($0) || !$0.isLetter ? $0 : "_" })
    }

    /// The review's line for the move shown last (step ≥ 1), if reviewed.
    public func ply(at step: Int) -> ReviewPly? {
        guard case let .done(plies, _, _) = review, let moves, step >= 1, moves.indices.contains(step - 1) else { return nil }
        let m = moves[step - 1]
        return plies.first { $0.n == m.n && ($0.round ?? lastRound) == m.round && $0.player == m.player }
    }

    /// The step that shows the first mistake, if the review found one.
    public var mistakeStep: Int? {
        guard case let .done(plies, mistake?, round) = review, let moves else { return nil }
        let ply = plies.first { $0.n == mistake && (round == nil || $0.round == round) }
        guard let ply else { return nil }
        return moves.firstIndex { $0.n == ply.n && $0.player == ply.player && (ply.round ?? lastRound) == $0.round }.map { $0 + 1 }
    }

    /// The round of the last move: a review without `round=` covers it (a
    /// round started over counts for nothing).
    var lastRound: Int { moves?.last?.round ?? 1 }
}
