import GameKit
import Ratings

/// Who is rated, on which board, against what: the one place
/// that says it (the lobby asks, RatingDesk.swift; the store keeps).
///
/// - Boards: a rating per game kind and variant: `ghost`, `ghost-super`,
///   `ghost-challenge` and `hangman-duel`. Hangman against the computer's
///   setter (evil, fair, phrase) and the computer guesser (`bot=guesser`)
///   are never rated: they rank games on best-games lists instead.
/// - Only games between two registered names (both logged in) are rated,
///   and only if nobody asked `rated=no`. With `--scores-for registered`, a
///   game between two people is rated only when they play from two known,
///   different networks (as the lists count it).
/// - A game with a computer seat is never rated (a memoised
///   solver of the public word list beat Hard 40 times in 40 and led TOP):
///   a rating measures people. The computer keeps its own scores per level
///   (the SCORES boards, GAME's `record=`); `NEW bot=… rated=yes` is
///   `ERR cannot-rate`, and a game an older ghostd marked rated ends
///   unrated (`RatingDesk.tableRating`).
/// - A match (`rounds=ghost`) is one rated game, rated at its end by who
///   won the match. An aborted game is not rated.
/// - Glicko-2 as the Ratings core computes it, τ = 0.5, with lichess's
///   one-game rating periods: the time since the player's last rated game
///   on the board, in `periodSeconds`, widens RD before the game.
enum RatingsPolicy {
    /// lichess's rating period: 0.21436 periods a day, about 4.67 days.
    static let periodSeconds = 86_400 / 0.21436
    static let system = Glicko2(tau: 0.5, periodLength: periodSeconds)

    /// The most boards a name can have a rating on (PROFILE reads at most this many).
    static let maxBoards = 16

    /// The board a game is rated on, nil for a kind and variant that are
    /// never rated: each kind declares its boards (`GameDefinition.ratingBoards`).
    static func board(_ kind: (any GameDefinition)?, variant: String) -> String? {
        kind?.ratingBoards[variant]
    }

    /// Whether a game with these computer seats may be rated: only with none.
    static func mayBeRated(bots: SeatPair<BotLevel?>) -> Bool {
        bots[0] == nil && bots[1] == nil
    }

    /// Whole points, as shown.
    static func points(_ r: Rating) -> Int {
        let v = r.rating.rounded()
        return v.isFinite ? Int(max(0, min(v, 100_000))) : 1500
    }
}
