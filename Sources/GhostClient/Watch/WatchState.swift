import GhostProtocol
import GameKit

/// Watching games in progress: the list of live games (GAMES),
/// and the game watched. The watched game itself is `ClientState.game`,
/// drawn by its kind's play screen in a read-only mode (`GameInfo.watching`).

/// A game in progress that may be watched: one `LIVE` line.
public struct LiveGame: Equatable, Sendable {
    public var id: Int
    public var kind: GameKind
    public var players: [String]
    public var lang: String
    public var moves: Int
    public var watchers: Int
    /// How it was set up: the kind's fields (`variant=super`, `mode=evil`,
    /// `rounds=ghost`), and `clock=`.
    public var fields: [Field]

    /// This client can show it: a built-in kind on its own screen, any other
    /// on the generic one, from VIEW; a line without a kind cannot.
    public var watchable: Bool { !kind.rawValue.isEmpty }

    /// Seconds per move, if on a clock.
    public var clock: Int? { fields["clock"].flatMap { Int($0) } }
}

/// Everything the client keeps about watching, apart from the watched game's board.
public struct WatchClient: Equatable, Sendable {
    /// The last GAMES answer (nil while it is on its way), and whether the
    /// server has more games than it listed (`more=yes`).
    public var games: [LiveGame]?
    public var more = false
    /// The LIVE lines being received.
    var incoming: [LiveGame] = []
    /// Index into `games` of the game chosen (always a watchable one, if any).
    public var cursor = 0
    /// When GAMES was last sent (monotonic seconds): the list shown is
    /// asked again `WatchFeature.watchRefreshSeconds` later.
    public var askedAt: Double = 0
    /// The game WATCH asked for, until it is answered.
    public var asked: Int?
    /// The game watched (from `OK WATCH id=`), nil when none.
    public var id: Int?
    /// The game UNWATCH left, until its OK: its lines still on their way are dropped.
    var left: Int?
    /// The watched game ended (its final OVER, or MATCH): the server stopped
    /// sending its lines; the screen shows the end until a key goes back.
    public var ended = false
    /// How it ended: who won, who lost, and why (a Ghost game; Hangman keeps
    /// its end in `HangmanClient.ended`).
    public var result: GameResult?

    public init() {}

    /// The game chosen on the list, if it can be watched.
    public var chosen: LiveGame? {
        guard let games, games.indices.contains(cursor), games[cursor].watchable else { return nil }
        return games[cursor]
    }
}
