import GhostProtocol
import GameKit

/// What a game kind says on the screens all games share: the main screen's
/// entries and the quick-match screen. Each game module gives its own
/// (`Games/<Kind>`); `ClientGames` is the one table that names them, so the
/// core asks for a kind's texts and never tests which kind it is.
public struct GameTexts: Sendable {
    /// The game's name ("Ghost", "Hangman").
    public var name: String
    /// The main screen's "Game type: …" value.
    public var typeName: String
    /// The main screen's entries.
    public var quickMatch: String
    public var newPrivate: String
    public var rules: String
    public var scores: String
    /// What a seek of this game looks for, in a language (its name): the quick-match screen.
    public var seeking: @Sendable (String) -> String
    /// A seek queue of this game (WAITING) by its rounds: "single game", "duel".
    public var queue: @Sendable (Rounds) -> String
    /// A game in progress by how it was set up (a `LIVE` line's fields), on
    /// the list of games to watch: "Superghost", "Hangman (evil)".
    public var setup: @Sendable ([Field]) -> String
}

/// The game kinds this client plays, and where each one's texts come from:
/// the client's counterpart of the server's `GameCatalog`. A new kind adds
/// its module under `Games/` and one entry here.
enum ClientGames {
    static let kinds: [GameKind] = [.ghost, .hangman]
    /// The kind a server plays when none is named: a protocol-1 GAME line
    /// (no `game=`) is one, and TOP asks for its list without `game=`.
    static let defaultKind: GameKind = .ghost

    /// `kind`'s texts in `t`'s language; `match`: Ghost's saved game type (a match to GHOST).
    static func texts(_ kind: GameKind, _ t: Strings, match: Bool = false) -> GameTexts {
        switch kind {
        case .hangman: t.hangman.texts(t)
        default: t.ghostTexts(match: match)
        }
    }

    static func plays(_ kind: String) -> Bool { kinds.contains(GameKind(rawValue: kind)) }

    /// Kinds that `--game` starts playing at once (resuming an adjourned
    /// game, else one against the computer with the saved settings).
    static let playedAtOnce: [GameKind] = [.hangman]

    /// Kinds whose games are a word to guess: a replay shows the pattern
    /// (from the review), not a fragment built from the moves.
    static let guessAWord: [GameKind] = [.hangman]
}
