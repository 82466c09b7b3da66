/// The values the store takes and gives: games, moves, score rows, and the
/// preferences' keys. The store knows no rules: a game is its kind's text.

/// Per-name preferences, with their defaults registered here and nowhere else.
public enum Preference: String, CaseIterable, Sendable {
    /// The dictionary for new games.
    case language = "lang"

    public var defaultValue: String {
        switch self {
        case .language: return "en"
        }
    }
}

/// A game in progress as the store keeps it. The store knows no rules: a
/// game is its kind, settings, seats and match score, and the moves of the
/// round in play as text; the server restores it by replaying those moves.
public struct StoredGame: Sendable, Equatable {
    public var id: Int
    /// The game kind (`ghost`), and its variant, settings and seed as the kind wrote them.
    public var kind: String
    public var variant: String = ""
    public var settings: String = ""
    public var seed: UInt64 = 0
    public var lang: String
    /// Seat order.
    public var players: [String]
    public var tokens: [String]
    /// Per seat: the computer's level, or nil for a person.
    public var bots: [String?] = [nil, nil]
    /// Rounds a seat may lose before it loses the match (1: a single game).
    public var rounds: Int = 1
    /// Rounds lost so far, per seat.
    public var losses: [Int] = [0, 0]
    /// The round in play, and the seat that started it.
    public var round: Int = 1
    public var starter: Int = 0
    /// A pending offer: who made it, what (`restart` or `lang`), and the language for `lang`.
    public var offer: Offer?
    /// Per seat: has this seat made an offer since the last move?
    public var offerSpent: [Bool] = [false, false]
    public var startedAt: Int = 0
    /// Seconds per move, 0 for a game without a clock (the lobby's, like the seats).
    public var clock: Int = 0
    /// Whether others may watch the game (false: `NEW watch=no`).
    public var watch = true
    /// The moves of the round in play, in order.
    public var moves: [StoredMove] = []

    public struct Offer: Sendable, Equatable {
        public var seat: Int
        public var kind: String
        public var lang: String?
        public init(seat: Int, kind: String, lang: String?) {
            self.seat = seat
            self.kind = kind
            self.lang = lang
        }
    }
}

/// One move as the store keeps it: the seat and the move's text.
public struct StoredMove: Sendable, Equatable {
    public var seat: Int
    public var move: String
    public init(seat: Int, move: String) {
        self.seat = seat
        self.move = move
    }
}

/// A new game, as the server asks the store to record it.
public struct NewGame: Sendable {
    public var kind: String
    public var variant: String
    public var settings: String
    public var seed: UInt64
    public var lang: String
    public var players: [String]
    public var tokens: [String]
    public var bots: [String?]
    public var rounds: Int
    public var starter: Int
    /// Seconds per move, 0 for no clock.
    public var clock: Int
    /// Whether others may watch the game (false: `NEW watch=no`).
    public var watch: Bool

    public init(kind: String, variant: String = "", settings: String = "", seed: UInt64 = 0, lang: String,
                players: [String], tokens: [String], bots: [String?] = [nil, nil], rounds: Int = 1, starter: Int = 0,
                clock: Int = 0, watch: Bool = true) {
        self.kind = kind
        self.variant = variant
        self.settings = settings
        self.seed = seed
        self.lang = lang
        self.players = players
        self.tokens = tokens
        self.bots = bots
        self.rounds = rounds
        self.starter = starter
        self.clock = clock
        self.watch = watch
    }
}

/// One line of the high-score list.
public struct ScoreRow: Sendable, Equatable {
    public var rank: Int
    public var name: String
    public var wins: Int
    public var played: Int
}

/// One line of a best-games list: a finished game, its place (1 = best;
/// every entry has its own place) and what the list shows of it.
public struct BestGameRow: Sendable, Equatable {
    public var rank: Int
    public var game: Int
    public var name: String
    /// The fields as the game kind wrote them (`word=peach mistakes=1 …`).
    public var fields: String

    public init(rank: Int, game: Int, name: String, fields: String) {
        self.rank = rank
        self.game = game
        self.name = name
        self.fields = fields
    }
}
