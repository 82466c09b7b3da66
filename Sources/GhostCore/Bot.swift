/// A computer player: a choice of letter for any position, from a solved game.
///
/// Hard, when winning, picks at random among the winning letters; when
/// losing, it plays the letter after which the opponent has the fewest
/// winning replies (the most ways to go wrong), ties broken by the letter that
/// keeps the game alive longest, then at random. It never loses from a
/// winning position.
public struct Bot: Sendable {
    public static let mediumSkill = 0.6

    public let level: BotLevel
    public let solver: Solver

    public init(level: BotLevel, solver: Solver) {
        self.level = level
        self.solver = solver
    }

    /// The letter to play in `game` (whose turn it is).
    public func choose(in game: GhostGame, using rng: inout some RandomNumberGenerator) -> Letter {
        let moves = solver.moves(node: game.node, length: game.fragment.utf8.count)
        switch level {
        case .easy: return Bot.safe(moves, &rng)
        case .hard: return Bot.best(moves, &rng)
        case .medium:
            return Double.random(in: 0..<1, using: &rng) < Bot.mediumSkill ? Bot.best(moves, &rng) : Bot.safe(moves, &rng)
        }
    }

    public func choose(in game: GhostGame) -> Letter {
        var rng = SystemRandomNumberGenerator()
        return choose(in: game, using: &rng)
    }

    /// A random letter that does not lose on the spot (any letter if all do).
    static func safe(_ moves: [Solver.Move], _ rng: inout some RandomNumberGenerator) -> Letter {
        let safe = moves.filter { $0.kind != .losesAtOnce }
        return (safe.isEmpty ? moves : safe).randomElement(using: &rng)?.letter ?? Letter.all[0]
    }

    /// Perfect play, as described on the type.
    static func best(_ moves: [Solver.Move], _ rng: inout some RandomNumberGenerator) -> Letter {
        let winning = moves.filter { $0.kind == .winning }
        if let pick = winning.randomElement(using: &rng) { return pick.letter }
        let alive = moves.filter { $0.kind == .losing }
        guard let fewest = alive.map(\.opponentWinningReplies).min() else {
            return moves.randomElement(using: &rng)?.letter ?? Letter.all[0]
        }
        let trickiest = alive.filter { $0.opponentWinningReplies == fewest }
        let longest = trickiest.map(\.reach).max() ?? 0
        return trickiest.filter { $0.reach == longest }.randomElement(using: &rng)?.letter ?? Letter.all[0]
    }

    /// A hint for the player to move: is the position winning, and a good letter.
    public func hint(for game: GhostGame) -> (winning: Bool, letter: Letter) {
        var rng = SystemRandomNumberGenerator()
        let moves = solver.moves(node: game.node, length: game.fragment.utf8.count)
        return (moves.contains { $0.kind == .winning }, Bot.best(moves, &rng))
    }
}
