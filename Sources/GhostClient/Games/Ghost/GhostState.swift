/// Ghost's part of a game in progress (`Game.ghost`): the fragment, the
/// variant's state (Superghost's side, bluff and challenge's answer) and a
/// match's letters, as the server last described them. Its reducer is
/// `GhostState.reduce` (GhostState+Reduce.swift) for TURN and MOVE, and
/// `GhostFeature.line` (Reducer+Ghost.swift) for GAME, OVER and MATCH; the table around it (players, turn,
/// clocks, offers, audience) is `GameInfo`'s.
public struct GhostState: Equatable, Sendable {
    public var fragment = ""
    /// A G-H-O-S-T match (`rounds=ghost`), and each seat's letters so far.
    public var match = false
    public var letters: [String] = ["", ""]
    /// A round of the match just ended (OVER), and the next has not begun.
    public var roundEnd: RoundEnd?
    /// How the previous round of the match ended, shown during this one.
    public var previousRound: RoundEnd?
    /// Superghost (GAME's `variant=super`), and whether the next letter goes
    /// at the front (Left arrow; Right puts it back at the end).
    public var superghost = false
    public var frontNext = false
    /// Superghost: the last letter went at the front (else at the end).
    public var lastAtFront = false
    /// Bluff and challenge (GAME's `variant=challenge`); whether the player
    /// to move is challenged (TURN's `challenged=yes`), by whom (the MOVE
    /// with `challenge=yes`), and the letters typed after the fragment for
    /// the answer (sent with Enter as `WORD <fragment+answer>`).
    public var challenge = false
    public var challenged = false
    public var challenger: String?
    public var answer = ""

    public init() {}
}

/// The board of a game in progress, one case a kind (the client
/// state scoped per game, as TCA's `Scope`): each kind's reducer changes
/// only its own case.
public enum Game: Equatable, Sendable {
    case ghost(GhostState)
    case hangman(HangmanBoard)
    /// A kind this client has no code for, drawn from `VIEW` (Games/Generic).
    case generic(GenericBoard)
}

extension GameInfo {
    /// The Ghost state, in a Ghost game (nil in another kind's); setting it
    /// makes the game a Ghost game.
    public var ghost: GhostState? {
        get { if case .ghost(let g) = board { g } else { nil } }
        set { if let newValue { board = .ghost(newValue) } }
    }

    /// The Hangman board, in a Hangman game (nil in another kind's).
    public var hangman: HangmanBoard? {
        get { if case .hangman(let b) = board { b } else { nil } }
        set { if let newValue { board = .hangman(newValue) } }
    }
}
