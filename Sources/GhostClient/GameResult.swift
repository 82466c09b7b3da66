import GhostProtocol
import GameKit

public struct RankEntry: Equatable, Sendable {
    public var name: String
    public var rank: Int
    public var wins: Int
}

/// A finished game: OVER, its INFO and its RANK lines.
public struct GameResult: Equatable, Sendable {
    public var id: Int
    public var winner: String
    public var loser: String
    public var reason: OverReason
    /// Nobody won (`OVER … draw=`): `winner` and `loser` are empty.
    public var drawn = false
    public var fragment: String
    /// After a dead fragment: a word the fragment before the last letter led to (`word=`).
    public var word: String?
    /// Both players, in seat order, as the game had them.
    public var players: [String] = []
    /// The INFO line that follows OVER: the reason in the server's words.
    public var info: String?
    public var ranks: [RankEntry] = []
    /// I asked for a rematch (OK REMATCH status=asked).
    public var rematchAsked = false
    /// The opponent asked for a rematch (REMATCH event).
    public var rematchOfferedBy: String?
    /// A rematch request (either's) lapsed: the opponent moved on (CANCELLED kind=rematch).
    public var rematchLapsed = false
    /// A whole G-H-O-S-T match ended (MATCH), with each seat's letters.
    public var match = false
    public var ghost: [String] = []
    /// The computer's level, if the opponent was the computer.
    public var bot: BotLevel?
    /// A Superghost game: a dead fragment is one no word contains.
    public var superghost = false
    /// A bluff and challenge game (with `superghost`: the variant, for a match's title).
    public var challenge = false
    /// It ended while this player was away: RESUME answered with its OVER
    /// (`ended=`, unix seconds).
    public var endedAt: Int?
    /// A game of a kind this client has no code for (Games/Generic): its kind.
    public var kind: GameKind?
}

extension Board {
    /// The board a finished game counts on.
    public static func of(bot: BotLevel?, match: Bool) -> Board {
        Board(mode: match ? .match : .game, bot: bot)
    }
}
