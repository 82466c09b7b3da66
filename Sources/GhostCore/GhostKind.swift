import Synchronization
import GameKit
import WordLists
import GhostWire

/// Ghost as a game kind of the server: its word lists, its solved games for
/// the computer, and the G-H-O-S-T match.
public final class GhostKind: TypedGameDefinition {
    public let name = GhostWire.kind
    /// Ghost, Superghost and bluff and challenge each have a rating board.
    public var ratingBoards: [String: String] { GhostWire.ratingBoards }
    /// A match is lost by the seat that spells G-H-O-S-T: five lost rounds.
    public static let matchRounds = 5

    public let dictionaries: Dictionaries
    /// Solved games per language, made up front: a computer move is a look-up
    /// and never holds up the server.
    public let solvers: [String: Solver]

    /// Superghost's infix index and solver per language: built on the first
    /// Superghost game of that language (`setup` queues it), not at startup.
    private let superBuilds: SuperBuilds

    /// Superghost's solving off the event loop (all languages): at most
    /// `SuperSolving.threads` solves at once, `SuperSolving.maxPending` waiting.
    let solving = SuperSolving()

    /// Seconds after which the lobby asks again for a Hard Superghost move
    /// whose position is still being solved.
    public static let superRetrySeconds = 0.5

    /// New Superghost positions the event loop may solve itself for one
    /// computer move or hint (4–9 ms; 96% of Hard's English moves after
    /// the opening need fewer), only for a position it has not tried since
    /// that was queued (asked for again while it is solved off the loop,
    /// a position is only read), and only as far as `loopAllowance` allows.
    public static let loopBudget = 250

    /// New Superghost positions the loop may solve a second, all games
    /// together (a token bucket holding at most `reviewBudget`): 15–30 ms
    /// of its time a second at most, however many games ask.
    public static let loopPositionsPerSecond = 1_000
    let loopAllowance = LoopAllowance(perSecond: Double(GhostKind.loopPositionsPerSecond), most: GhostKind.reviewBudget)

    /// The `variant=` of Superghost, on the wire and in the store (Ghost's is empty).
    public static let superVariant = GhostWire.Variant.superghost.rawValue
    /// The `variant=` of bluff and challenge: a dead fragment does not end
    /// the round; the next player may challenge it.
    public static let challengeVariant = GhostWire.Variant.challenge.rawValue

    public init(dictionaries: Dictionaries) {
        self.dictionaries = dictionaries
        var solvers: [String: Solver] = [:]
        for lang in dictionaries.languages {
            if let words = dictionaries[lang] { solvers[lang] = Solver(rules: GhostRules(words: words, language: lang)) }
        }
        self.solvers = solvers
        superBuilds = SuperBuilds(languages: dictionaries.languages) { [solving] solver in
            solving.submit("merge " + solver.rules.language, waits: false) { MergeJob(solver) }
        }
    }

    /// `variant=super|challenge`; the computer at each level.
    public var optionKeys: [String] { [GhostWire.Key.variant] }
    public var computerLevels: [BotLevel] { BotLevel.allCases }
    public var usage: String { "[game=ghost] [bot=easy|medium|hard [first=bot]] [variant=super|challenge] [rounds=ghost]" }
    public var summary: String {
        "Ghost (the default game): add a letter without making a word; variant=super adds at either end, variant=challenge lets you bluff"
    }

    /// A letter at the end (Superghost: or `front`), and bluff and
    /// challenge's CHALLENGE, WORD and CONCEDE. Hangman declares `LETTER`
    /// and `WORD` too, taking the same arguments.
    public var moveVerbs: [MoveVerb] { GhostKind.verbs }

    public static let verbs = [
        MoveVerb.letter(help: "play a letter at the end; variant=super: front puts it at the front; a line holding just one letter plays it at the end"),
        MoveVerb(name: GhostWire.Verb.word, arguments: .anyWord, usage: "<word>",
                 help: "variant=challenge: answer a challenge with a word that starts with the fragment") { .word($0.first ?? "") },
        MoveVerb(name: GhostWire.Verb.challenge, arguments: .none, usage: "",
                 help: "variant=challenge, on your turn: say no word starts with the fragment; the previous player must answer WORD <word> or CONCEDE") { _ in .challenge },
        MoveVerb(name: GhostWire.Verb.concede, arguments: .none, usage: "",
                 help: "variant=challenge: give up when challenged (you have no word): you lose") { _ in .concede },
    ]

    /// Ghost's boards keep protocol 1's short names (`game`, `hard-match`).
    public var boardPrefix: String? { nil }

    public var languages: [String] { dictionaries.languages }
    public var matchRounds: Int? { GhostKind.matchRounds }

    /// Superghost's solver for `language`, built on first use. A caller that
    /// finds it not built yet (being built by `setup`'s thread, or not
    /// started) waits for it, or builds it, and says so (`OneOffWork`), so
    /// that the server does not charge the wait to the line's sender.
    public func superSolver(language: String) -> SuperSolver? {
        guard let words = dictionaries[language], let slot = superBuilds.slot(language) else { return nil }
        if let built = slot.builtIfFree() { return built }
        OneOffWork.noteWait()
        return superBuilds.build(slot, words: words, language: language)
    }

    /// The build on a solving thread (`SolveJob`): no one waits.
    func buildSuperSolver(language: String) -> SuperSolver? {
        guard let words = dictionaries[language], let slot = superBuilds.slot(language) else { return nil }
        return superBuilds.build(slot, words: words, language: language)
    }

    /// Superghost's solver for `language` if it is built already; if not (or
    /// while it is being built), its build and the opening's solve are
    /// queued off the caller's thread, and nil: a command never waits for
    /// it (`REVIEW`, the computer's move).
    func readySuperSolver(language: String) -> SuperSolver? {
        guard dictionaries[language] != nil, let slot = superBuilds.slot(language) else { return nil }
        if let built = slot.builtIfFree() { return built }
        solveLater("", language: language, goal: .choice)
        return nil
    }

    /// Tests: how each language's infix index is made (a slow build under
    /// the test's control); before the first Superghost game.
    func buildInfixes(with make: @escaping @Sendable (WordList) -> Infixes) {
        superBuilds.makeInfixes.withLock { $0 = make }
    }

    /// A Ghost game's setup, typed: its variant (nil: Ghost itself), stored
    /// as the word of `variant=` (`super`, `challenge`, empty for Ghost).
    public struct Setup: KindSetup {
        public let ghostVariant: GhostWire.Variant?
        public init(_ variant: GhostWire.Variant?) { ghostVariant = variant }
        public init?(variant: String, settings: String) {
            guard settings.isEmpty else { return nil }
            if variant.isEmpty { ghostVariant = nil; return }
            guard let v = GhostWire.Variant(rawValue: variant) else { return nil }
            ghostVariant = v
        }
        public var variant: String { ghostVariant?.rawValue ?? "" }
        public var settings: String { "" }
    }

    /// `variant=super` is Superghost, `variant=challenge` bluff and
    /// challenge; without it, Ghost. No other option.
    public func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        guard options.keys.allSatisfy({ $0 == GhostWire.Key.variant }) else {
            return .failure(SetupError(code: .badArguments, message: "ghost takes no such option"))
        }
        guard let word = options[GhostWire.Key.variant] else { return .success(GameSetup(Setup(nil))) }
        guard let variant = GhostWire.Variant(rawValue: word) else {
            return .failure(SetupError(code: .badValue, message: "variant is super or challenge, or left out for Ghost"))
        }
        guard dictionaries[language] != nil else {
            return .failure(SetupError(code: .badValue, message: "no word list for \(language)"))
        }
        // Bluff and challenge plays on Ghost's word lists and solved games;
        // Superghost's solver is built, and its opening solved, off the server's thread.
        if variant == .superghost { solveLater("", language: language, goal: .choice) }
        return .success(GameSetup(Setup(variant)))
    }

    public func newGame(language: String, setup: Setup, seed: UInt64, starter: Int) -> (any Game)? {
        guard let words = dictionaries[language] else { return nil }
        switch setup.ghostVariant {
        case nil: return PlainGhost(rules: GhostRules(words: words, language: language), firstToMove: starter)
        case .superghost?:
            return superSolver(language: language).map { Superghost(rules: $0.rules, firstToMove: starter) }
        case .challenge?:
            return ChallengeGhost(rules: GhostRules(words: words, language: language), firstToMove: starter)
        }
    }

    private func solver(for game: some GhostVariant) -> Solver? { solvers[game.rules.language] }

    /// Superghost at Hard plays only solved moves. On the event loop
    /// (`judgeOnLoop`, never waiting for the solver's locks): what is
    /// settled; if that does not settle the move and the loop has not tried
    /// this position since it was queued, at most `loopBudget` new positions
    /// solved here; while it is not settled, its solve is queued off the
    /// loop (`SuperSolving`) and the lobby asks again in
    /// `superRetrySeconds`. Every other case is `computerMove`.
    public func computerPlay(in game: any Game, level: BotLevel) -> ComputerPlay {
        guard level == .hard, let ghost = game as? Superghost else {
            return computerMove(in: game, level: level).map { .move($0) } ?? .none
        }
        guard let solver = readySuperSolver(language: ghost.rules.language) else { return .later(seconds: GhostKind.superRetrySeconds) }
        let judged = judgeOnLoop(ghost, solver: solver)
        var rng = SystemRandomNumberGenerator()
        return judged.settled ? .move(SuperBot.best(judged.moves, &rng).move) : .later(seconds: GhostKind.superRetrySeconds)
    }

    /// The computer's move now (Easy, Medium; Hard outside Superghost). In
    /// Superghost, Easy needs only the rules; Medium's Hard moves are judged
    /// as Hard's (`judgeOnLoop`), and play a play not yet settled rather
    /// than a proven loss.
    public func computerMove(in game: any Game, level: BotLevel) -> Move? {
        if let ghost = game as? Superghost {
            var rng = SystemRandomNumberGenerator()
            let hardLike = level == .hard || (level == .medium && Double.random(in: 0..<1, using: &rng) < Bot.mediumSkill)
            guard hardLike, let solver = superBuilds.slot(ghost.rules.language)?.builtIfFree() else {
                return SuperBot.safe(ghost.rules, ghost.fragment, &rng).move
            }
            return SuperBot.best(judgeOnLoop(ghost, solver: solver).moves, &rng).move
        }
        if let ghost = game as? ChallengeGhost {
            return solver(for: ghost).map { BluffBot(level: level, solver: $0).choose(in: ghost) }
        }
        guard let ghost = game as? PlainGhost, let solver = solver(for: ghost) else { return nil }
        return .letter(Bot(level: level, solver: solver).choose(in: ghost))
    }

    /// Hints only against the Easy computer.
    public func allowsHints(against level: BotLevel?) -> Bool { level == .easy }

    public func hint(in game: any Game, against level: BotLevel?) -> Hint? {
        guard allowsHints(against: level), let ghost = game as? any GhostVariant else { return nil }
        if let ghost = ghost as? Superghost {
            // Judged as Hard's move (`judgeOnLoop`): "winning" once a winning
            // play is proven; the play is Hard's, or one not settled yet.
            guard let solver = superSolver(language: ghost.rules.language) else { return nil }
            let judged = judgeOnLoop(ghost, solver: solver)
            var rng = SystemRandomNumberGenerator()
            let hint = (winning: judged.moves.contains { $0.kind == .winning }, play: SuperBot.best(judged.moves, &rng))
            let letter = hint.play.letter.description
            let end = hint.play.front ? "front" : "back"
            return Hint(winning: hint.winning, move: hint.play.move,
                        fields: [Field(GhostWire.Key.winning, hint.winning ? "yes" : "no"), Field(GhostWire.Key.letter, letter), Field(GhostWire.Key.end, end)],
                        text: hint.winning
                            ? "You can force a win from here: try \(letter) at the \(end)."
                            : "With perfect play you lose from here; \(letter) at the \(end) gives your opponent the most chances to go wrong.")
        }
        guard let solver = solver(for: ghost) else { return nil }
        if let bluff = ghost as? ChallengeGhost, let hint = BluffBot.hint(for: bluff) { return hint }
        let hint = Bot(level: .hard, solver: solver).hint(for: ghost)
        let letter = hint.letter.description
        return Hint(winning: hint.winning, move: .letter(hint.letter),
                    fields: [Field(GhostWire.Key.winning, hint.winning ? "yes" : "no"), Field(GhostWire.Key.letter, letter)],
                    text: hint.winning
                        ? "You can force a win from here: try \(letter)."
                        : "With perfect play you lose from here; \(letter) gives your opponent the most chances to go wrong.")
    }

    public func matchFields(_ match: Match) -> [Field] {
        match.isMatch ? [Field(GhostWire.Key.ghost, GhostKind.letters(match.losses))] : []
    }

    public func gameFields(_ match: Match) -> [Field] {
        match.isMatch ? [Field(GhostWire.Key.rounds, GhostWire.matchRounds)] + matchFields(match) : []
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
    public static func letters(_ counts: [Int]) -> String { GhostWire.letters(counts) }
}

/// Superghost's solvers, one slot per language (made at the start, so
/// finding one takes no lock), each built once: the build holds its
/// language's slot only, so a build of one language never holds up
/// another's games, and a caller can tell a built solver from one it would
/// have to wait for (`builtIfFree`, lock-free) without waiting.
final class SuperBuilds: Sendable {
    final class Slot: Sendable {
        fileprivate let solver = Mutex<SuperSolver?>(nil)
        /// The solver once built: read without a lock.
        fileprivate let built = AtomicLazyReference<SuperSolver>()

        /// The solver if it is built; nil otherwise, at once.
        func builtIfFree() -> SuperSolver? {
            built.load()
        }
    }

    private let slots: [String: Slot]
    /// How an index is made (tests make it slow).
    let makeInfixes = Mutex<@Sendable (WordList) -> Infixes>({ Infixes(words: $0) })
    /// Given to each solver: its calls on the loop left positions to merge.
    private let onHandOff: @Sendable (SuperSolver) -> Void

    init(languages: [String], onHandOff: @escaping @Sendable (SuperSolver) -> Void) {
        slots = Dictionary(languages.map { ($0, Slot()) }, uniquingKeysWith: { first, _ in first })
        self.onHandOff = onHandOff
    }

    /// The language's slot; nil for a language without a word list.
    func slot(_ language: String) -> Slot? { slots[language] }

    /// The slot's solver, built first if need be (the caller waits for a build under way).
    func build(_ slot: Slot, words: WordList, language: String) -> SuperSolver {
        slot.solver.withLock { built in
            if let built { return built }
            let infixes = makeInfixes.withLock { $0 }(words)
            let made = SuperSolver(rules: GhostRules(words: words, language: language, infixes: infixes),
                                   maxPositions: SuperSolver.maxPositions, onHandOff: onHandOff)
            built = made
            return slot.built.storeIfNil(made)
        }
    }
}
