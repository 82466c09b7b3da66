/// Ghost as a game kind of the server: its word lists, its solved games for
/// the computer, and the G-H-O-S-T match.
public final class GhostKind: GameDefinition {
    public let name = "ghost"
    /// A match is lost by the seat that spells G-H-O-S-T: five lost rounds.
    public static let matchRounds = 5

    public let dictionaries: Dictionaries
    /// Solved games per language, made up front: a computer move is a look-up
    /// and never holds up the server.
    public let solvers: [String: Solver]

    public init(dictionaries: Dictionaries) {
        self.dictionaries = dictionaries
        var solvers: [String: Solver] = [:]
        for lang in dictionaries.languages {
            if let words = dictionaries[lang] { solvers[lang] = Solver(rules: GhostRules(words: words, language: lang)) }
        }
        self.solvers = solvers
    }

    public var languages: [String] { dictionaries.languages }
    public var matchRounds: Int? { GhostKind.matchRounds }

    public func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any Game)? {
        guard let words = dictionaries[language] else { return nil }
        return GhostGame(rules: GhostRules(words: words, language: language), firstToMove: starter)
    }

    private func solver(for game: GhostGame) -> Solver? { solvers[game.rules.language] }

    public func computerMove(in game: any Game, level: BotLevel) -> Move? {
        guard let ghost = game as? GhostGame, let solver = solver(for: ghost) else { return nil }
        return .letter(Bot(level: level, solver: solver).choose(in: ghost))
    }

    /// Hints only against the Easy computer.
    public func allowsHints(against level: BotLevel?) -> Bool { level == .easy }

    public func hint(in game: any Game, against level: BotLevel?) -> Hint? {
        guard allowsHints(against: level), let ghost = game as? GhostGame, let solver = solver(for: ghost) else { return nil }
        let hint = Bot(level: .hard, solver: solver).hint(for: ghost)
        let letter = hint.letter.description
        return Hint(winning: hint.winning, move: .letter(hint.letter),
                    fields: [Field("winning", hint.winning ? "yes" : "no"), Field("letter", letter)],
                    text: hint.winning
                        ? "You can force a win from here: try \(letter)."
                        : "With perfect play you lose from here; \(letter) gives your opponent the most chances to go wrong.")
    }

    public func matchFields(_ match: Match) -> [Field] {
        match.isMatch ? [Field("ghost", GhostKind.letters(match.losses))] : []
    }

    public func gameFields(_ match: Match) -> [Field] {
        match.isMatch ? [Field("rounds", "ghost")] + matchFields(match) : []
    }

    public func roundSummary(loser seat: Int, name: String, match: Match) -> String {
        let earned = match.losses.indices.contains(seat) ? match.losses[seat] : 0
        let letters = Array("GHOST")
        return "\(name) earns the letter \(letters[max(0, min(letters.count - 1, earned - 1))])."
    }

    public func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String {
        reason.endsMatch || (match.losses.max() ?? 0) < match.target
            ? "\(winner) wins the match."
            : "\(loser) spelled GHOST: \(winner) wins the match."
    }

    /// Each seat's letters of G-H-O-S-T, seat order, comma-separated; empty
    /// for none, like every empty value: `GH,` (protocol 1 wrote `GH,-`).
    public static func letters(_ counts: [Int]) -> String {
        counts.map { String("GHOST".prefix(min(max($0, 0), 5))) }.joined(separator: ",")
    }
}
