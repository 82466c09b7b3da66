import GameKit
import WordLists
import GhostWire
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
    public func choose(in game: some GhostVariant, using rng: inout some RandomNumberGenerator) -> Letter {
        let moves = solver.moves(node: game.node, length: game.fragment.utf8.count)
        switch level {
        case .easy: return Bot.safe(moves, &rng)
        case .hard: return Bot.best(moves, &rng)
        case .medium:
            return Double.random(in: 0..<1, using: &rng) < Bot.mediumSkill ? Bot.best(moves, &rng) : Bot.safe(moves, &rng)
        }
    }

    public func choose(in game: some GhostVariant) -> Letter {
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
    public func hint(for game: some GhostVariant) -> (winning: Bool, letter: Letter) {
        var rng = SystemRandomNumberGenerator()
        let moves = solver.moves(node: game.node, length: game.fragment.utf8.count)
        return (moves.contains { $0.kind == .winning }, Bot.best(moves, &rng))
    }
}

/// The computer in Superghost: the same levels as `Bot`, over the 52 plays
/// (a letter at either end). Hard plays a winning play when there is one;
/// when losing, where the opponent has the fewest winning replies, ties at
/// random. Each move solves at most `budget` new positions (the solver keeps
/// them): enough for every English position, and for Dutch ones once the
/// opening is solved (`GhostKind` does that in the background); a play the
/// budget left unsettled is preferred to a proven loss. (On the event loop,
/// `GhostKind` judges the position itself, never waiting for the solver's
/// locks, and uses `best`.)
public struct SuperBot: Sendable {
    public let level: BotLevel
    public let solver: SuperSolver

    /// New positions one move may solve (`SuperSolver.defaultBudget`).
    public let budget: Int

    public init(level: BotLevel, solver: SuperSolver, budget: Int = SuperSolver.defaultBudget) {
        self.level = level
        self.solver = solver
        self.budget = budget
    }

    public func choose(in game: Superghost, using rng: inout some RandomNumberGenerator) -> SuperSolver.Play {
        switch level {
        case .easy: return SuperBot.safe(solver.rules, game.fragment, &rng)
        case .hard: return SuperBot.best(solver.moves(game.fragment, budget: budget), &rng)
        case .medium:
            return Double.random(in: 0..<1, using: &rng) < Bot.mediumSkill
                ? SuperBot.best(solver.moves(game.fragment, budget: budget), &rng)
                : SuperBot.safe(solver.rules, game.fragment, &rng)
        }
    }

    public func choose(in game: Superghost) -> SuperSolver.Play {
        var rng = SystemRandomNumberGenerator()
        return choose(in: game, using: &rng)
    }

    /// Hard's play only once it is sure of it: a winning play when one is
    /// settled, else (every play settled, all losing) the losing play with
    /// the fewest winning replies; nil while neither holds within `budget`
    /// new positions (solve the position, and ask again). Never a guess.
    /// The replies are counted only when no play wins.
    public func settledChoice(in game: Superghost, using rng: inout some RandomNumberGenerator) -> SuperSolver.Play? {
        solver.withSession(budget: budget, waits: true) { session in
            let fragment = Array(game.fragment.utf8)
            let moves = session.moves(fragment, replies: false)
            if let pick = moves.filter({ $0.kind == .winning }).randomElement(using: &rng) { return pick.play }
            guard SuperBot.isSettled(moves) else { return nil }
            return SuperBot.best(session.moves(fragment, replies: true), &rng)
        }
    }

    public func settledChoice(in game: Superghost) -> SuperSolver.Play? {
        var rng = SystemRandomNumberGenerator()
        return settledChoice(in: game, using: &rng)
    }

    /// Whether perfect play is known from these judged plays: a winning one
    /// is settled, or none is left unsettled.
    public static func isSettled(_ moves: [SuperSolver.Judged]) -> Bool {
        moves.contains { $0.kind == .winning } || !moves.contains { $0.kind == nil }
    }

    /// A random play that does not lose on the spot (any play if all do):
    /// no solving needed, only the rules.
    static func safe(_ rules: GhostRules, _ fragment: String, _ rng: inout some RandomNumberGenerator) -> SuperSolver.Play {
        let f = Array(fragment.utf8)
        let safe = SuperSolver.plays.filter { rules.superVerdict($0.applied(to: f)) == .alive }
        return (safe.isEmpty ? SuperSolver.plays : safe).randomElement(using: &rng) ?? SuperSolver.plays[0]
    }

    /// A winning play; else one not yet settled (it may win); else the
    /// losing play with the fewest winning replies.
    static func best(_ moves: [SuperSolver.Judged], _ rng: inout some RandomNumberGenerator) -> SuperSolver.Play {
        if let pick = moves.filter({ $0.kind == .winning }).randomElement(using: &rng) { return pick.play }
        if let pick = moves.filter({ $0.kind == nil }).randomElement(using: &rng) { return pick.play }
        let alive = moves.filter { $0.kind == .losing }
        guard let fewest = alive.map(\.opponentWinningReplies).min() else {
            return moves.randomElement(using: &rng)?.play ?? SuperSolver.plays[0]
        }
        return alive.filter { $0.opponentWinningReplies == fewest }.randomElement(using: &rng)?.play ?? SuperSolver.plays[0]
    }

    /// A hint for the player to move: is the position winning, and a good play.
    public func hint(for game: Superghost) -> (winning: Bool, play: SuperSolver.Play) {
        var rng = SystemRandomNumberGenerator()
        let moves = solver.moves(game.fragment, budget: budget)
        return (moves.contains { $0.kind == .winning }, SuperBot.best(moves, &rng))
    }
}
