/// What a game kind offers the server: how to start and restore its games,
/// what the computer plays, and what the kind allows. The server's catalog
/// holds one value per kind and is the only place that names them.
public protocol GameDefinition: AnyObject, Sendable {
    /// The kind's name on the wire and in the store: `ghost`.
    var name: String { get }
    /// The languages it can be played in.
    var languages: [String] { get }
    /// Whether a match over several rounds can be played, and its length.
    var matchRounds: Int? { get }
    /// A new round in `language`, with `starter` to move first. `variant`,
    /// `settings` and `seed` are stored with the game, so replaying its moves
    /// on the same values restores it exactly.
    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any Game)?
    /// The computer's move at `level` in `game` (its turn).
    func computerMove(in game: any Game, level: BotLevel) -> Move?
    /// Whether the kind gives hints in a game against the computer at `level` (nil: two people).
    func allowsHints(against level: BotLevel?) -> Bool
    /// A hint for the seat to move, when the kind gives hints against `level`.
    func hint(in game: any Game, against level: BotLevel?) -> Hint?
    /// The match score as protocol fields (nothing for a single game), for
    /// TURN, OVER and MATCH lines.
    func matchFields(_ match: Match) -> [Field]
    /// The fields of a GAME line that describe the match (nothing for a single game).
    func gameFields(_ match: Match) -> [Field]
    /// A sentence for the end of a round that seat `loser` (called `name`)
    /// lost in a match that goes on; `match` counts that round already.
    func roundSummary(loser: Int, name: String, match: Match) -> String
    /// A sentence for the end of a match.
    func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String
}

/// A suggestion for the player to move.
public struct Hint: Sendable, Equatable {
    /// Whether the player can force a win from here.
    public var winning: Bool
    public var move: Move
    /// The reply's fields (`winning=yes letter=p`) and a sentence for people.
    public var fields: [Field]
    public var text: String
    public init(winning: Bool, move: Move, fields: [Field], text: String) {
        self.winning = winning
        self.move = move
        self.fields = fields
        self.text = text
    }
}
