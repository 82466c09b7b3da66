/// What a game kind tells about a finished game afterwards (`MOVES`,
/// `REVIEW`): the lobby hands it the stored moves, the kind says what they
/// were worth. Nothing here knows a kind.

/// One round of a game as the store keeps it, for a review.
public struct ReviewRound: Sendable, Equatable {
    /// The round's number in the game (from 1; a restart also counts as a round).
    public var round: Int
    /// The round's seed (`Lobby.roundSeed`): the kind replays the round from it.
    public var seed: UInt64
    /// The moves in order, by seat.
    public var moves: [SeatMove]
    /// Whether this is the game's last round (it ended however the game
    /// ended: a rule, or a seat leaving, staying away or running out of time).
    /// An earlier round either ended by the rules (a match went on) or was
    /// started over.
    public var isLast: Bool

    public init(round: Int, seed: UInt64, moves: [SeatMove], isLast: Bool) {
        self.round = round
        self.seed = seed
        self.moves = moves
        self.isLast = isLast
    }
}

/// A move and the seat that made it.
public struct SeatMove: Sendable, Equatable {
    public var seat: Int
    public var move: Move
    public init(seat: Int, move: Move) {
        self.seat = seat
        self.move = move
    }
}

/// What a finished game was set up with, and its rounds.
public struct ReviewRequest: Sendable, Equatable {
    public var language: String
    public var variant: String
    public var settings: String
    public var rounds: [ReviewRound]
    /// A match over several rounds (its lines name their round).
    public var isMatch: Bool

    public init(language: String, variant: String, settings: String, rounds: [ReviewRound], isMatch: Bool = false) {
        self.language = language
        self.variant = variant
        self.settings = settings
        self.rounds = rounds
        self.isMatch = isMatch
    }
}

/// One reviewed move: `PLY n=<ply> [round=<r>] player=<seat's name> <fields>`.
public struct ReviewedPly: Sendable, Equatable {
    public var round: Int
    /// The move's number in its round, from 1 (the store's ply).
    public var ply: Int
    public var seat: Int
    /// The kind's fields, in wire order (Ghost: `play= fragment= outcome= [better=]`).
    public var fields: [Field]

    public init(round: Int, ply: Int, seat: Int, fields: [Field]) {
        self.round = round
        self.ply = ply
        self.seat = seat
        self.fields = fields
    }
}

/// A kind's answer to a review.
public enum ReviewResult: Sendable, Equatable {
    /// The reviewed moves, and the fields of the final `OK REVIEW` line after
    /// `id=` (Ghost: `mistake=<n>|none [round=<r>]`).
    case reviewed(plies: [ReviewedPly], fields: [Field])
    /// The kind does not review such a game (a Hangman phrase): why, as a sentence.
    case unavailable(String)
    /// The review needs work that goes on off the server's thread (a
    /// Superghost position being solved, a Hangman review too long for the
    /// thread): ask again in about this many seconds.
    case later(seconds: Double)
}
