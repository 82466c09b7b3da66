import GhostProtocol
import GameKit

public struct Offer: Equatable, Sendable {
    public var player: String
    public var kind: OfferKind
    public var lang: String?
}

/// How a round (of a match) or a game ended: an `OVER` line and its `INFO`.
public struct RoundEnd: Equatable, Sendable {
    public var winner: String
    public var loser: String
    public var reason: OverReason
    public var fragment: String
    /// The letters of G-H-O-S-T each seat holds afterwards (matches only).
    public var ghost: [String]
    public var info: String?
    /// After a dead fragment: a word the fragment before the last letter led to (`word=`).
    public var word: String?
}

/// The last letter (Ghost) or guess (Hangman) played, and by whom.
public struct LastMove: Equatable, Sendable {
    public var player: String
    public var letter: String
    public init(_ player: String, _ letter: String) {
        self.player = player
        self.letter = letter
    }
}

/// A game in progress, as the server last described it. Its `==` is the
/// synthesized one: every field counts.
public struct GameInfo: Equatable, Sendable {
    public var id: Int
    public var lang: String
    /// In seat order: players[0] starts every round.
    public var players: [String]
    public var round: Int
    /// Who is to move (from TURN); nil until the first TURN.
    public var toMove: String?
    /// The last letter played and by whom.
    public var lastMove: LastMove?
    /// The key that flashes on the keyboard, and until when.
    public var flash: Character?
    public var flashUntil: Double = 0
    /// The absent opponent (ADJOURNED), and the grace period they had.
    public var away: String?
    public var grace: Int?
    /// CLAIMABLE arrived: the absent player may be claimed against.
    public var claimable = false
    public var offer: Offer?
    /// The computer's level, in a game against it (`bot=`).
    public var bot: BotLevel?
    /// The kind's own state: Ghost's fragment and variants, or Hangman's board.
    public var board: Game = .ghost(GhostState())
    /// A game on a clock: the seconds per move (GAME's `clock=`), and when
    /// the time of the move in play runs out (monotonic seconds, from TURN's
    /// `clock=`; nil while the computer is to move).
    public var clock: Int?
    public var clockDue: Double?
    /// A game without a clock: what the mover's countdown leads to (TURN's
    /// `abort_in=` or `claim_in=`) and when it runs out
    /// (monotonic seconds); nil when the server sent none.
    public var deadline: TurnDeadline?
    public var deadlineDue: Double?
    /// Who watches (GAME's audience, then WATCHERS): how many, whether the
    /// game may be watched at all (`watch=no`), and whether this client is
    /// a watcher rather than a player (its keys play nothing).
    public var watchers = 0
    public var open = true
    public var watching = false
    /// The running score against the opponent: the server's head-to-head
    /// record in this kind of game before this one (GAME's `record=`), the
    /// receiver's wins first. Nil when the server sent none (a first game;
    /// the computer).
    public var record: HeadToHead?
    /// Whether the server rates this game, and each seat's rating before it
    /// (GAME's `ratings=`; nil: unrated, as every game against the computer
    /// is). The play screens say "rated" from it, never
    /// from what this client asked for.
    public var ratings: SeatRatings?
    /// Whether a person has moved in this game, as the server's MOVE and
    /// TURN lines show (the computer's moves do not count): before that,
    /// LEAVE aborts the game and nobody loses (Protocol.md, `ABORTED
    /// reason=left`). A position this client did not see
    /// built (a resumed game) counts as moved: the question then warns of a loss.
    public var personMoved = false

    public init(id: Int, lang: String, players: [String], round: Int) {
        self.id = id
        self.lang = lang
        self.players = players
        self.round = round
    }
}
