import GameKit

// Hidden words, a game kind used only by tests, unlike the three before
// it: both players act at once in its first phase, each secretly, and a
// game can end in a draw. It is this folder (its module and its tests) and
// one line in the tests' catalog (Tests/TestKinds); nothing else names it.
//
// First both players hide a word of the list at once (`HIDE <w>`): only
// its owner sees it. Then they take turns to guess the other's word
// (`GUESS <w>`), the starter first; each guess says how many of its letters
// stand where the hidden word has the same letter (`common=`). Once both
// have guessed as often: if both found, a draw (`both`); if one did, they
// win (`found`); after `guesses=<n>` each (2 to 6, 4 by default) with
// neither, a draw (`even`). Against the computer at `easy` or `hard`.

/// The Hidden words kind.
public final class HiddenWordsKind: TypedGameDefinition {
    public let name = "hiddenwords"
    public let languages = ["en"]
    public init() {}

    /// The words a player may hide and guess: four letters each.
    public static let words: [String] = [
        "bear", "boar", "bull", "calf", "crab", "deer", "duck", "frog", "goat", "hare", "lamb", "lion",
        "mole", "mule", "newt", "seal", "slug", "swan", "toad", "wasp", "wolf", "worm",
    ]
    public static let guessRange = 2...6
    /// The kind's own error codes (`ERR <code> <text>`).
    public enum Code {
        public static let wrongMove: KindErrorCode = "wrong-move"
        public static let notInList: KindErrorCode = "not-in-list"
        public static let wrongPhase: KindErrorCode = "wrong-phase"
        public static let hiddenAlready: KindErrorCode = "hidden-already"
        public static let guessedAlready: KindErrorCode = "guessed-already"
    }
    /// Why a game ends: one player found the other's word; both did (a
    /// draw); neither did with every guess spent (a draw).
    public static let found = EndReason(rawValue: "found")
    public static let both = EndReason(rawValue: "both")
    public static let even = EndReason(rawValue: "even")
    public static let hide = "HIDE", guess = "GUESS"

    public var wrongMoveCode: KindErrorCode { Code.wrongMove }
    public var errorCodes: [KindErrorCode: String] {
        [Code.wrongMove: "a move other than HIDE or GUESS", Code.notInList: "the word is not in the list",
         Code.wrongPhase: "HIDE once the words are hidden, or GUESS before yours is",
         Code.hiddenAlready: "your word is hidden already", Code.guessedAlready: "you guessed that word already"]
    }
    public var computerLevels: [BotLevel] { [.easy, .hard] }
    public var moveVerbs: [MoveVerb] {
        [MoveVerb(name: HiddenWordsKind.hide, arguments: .word, usage: "<word>",
                  help: "hide your word (both players at once; only you see it)"),
         MoveVerb(name: HiddenWordsKind.guess, arguments: .word, usage: "<word>", help: "guess the other player's hidden word")]
    }
    public var summary: String { "Hidden words (tests only): both hide a word at once, then guess each other's" }
    public var settingKeys: [SettingSpec] {
        [SettingSpec(key: "hiddenwords-guesses", option: "guesses", defaultValue: "4") { value, _ in
            HiddenWordsKind.guesses(value).map(String.init)
        }]
    }

    static func guesses(_ text: String) -> Result<Int, SetupError> {
        guard let n = Int(text), guessRange.contains(n) else {
            return .failure(SetupError(code: .badValue, message: "guesses is a number from \(guessRange.lowerBound) to \(guessRange.upperBound)"))
        }
        return .success(n)
    }

    /// A game's setup, typed: the guesses each player has. Stored as `guesses=<n>`.
    public struct Setup: KindSetup {
        public let guesses: Int
        public var variant: String { "" }
        public var settings: String { "guesses=\(guesses)" }
        init(guesses: Int) { self.guesses = guesses }
        public init?(variant: String, settings: String) {
            guard variant.isEmpty, settings.hasPrefix("guesses="),
                  case .success(let n) = HiddenWordsKind.guesses(String(settings.dropFirst(8))) else { return nil }
            guesses = n
        }
    }

    public func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        HiddenWordsKind.guesses(options["guesses"] ?? saved["guesses"] ?? "4").map { GameSetup(Setup(guesses: $0)) }
    }

    public func newGame(language: String, setup: Setup, seed: UInt64, starter: Int) -> (any Game)? {
        guard language == "en" else { return nil }
        return HiddenWordsGame(guesses: setup.guesses, starter: starter, seed: seed)
    }

    public func computerMove(in game: any Game, level: BotLevel) -> Move? {
        guard case .move(let move) = computerPlay(in: game, seat: game.toMove, level: level) else { return nil }
        return move
    }

    /// The computer hides a word the game's seed picks; then easy guesses
    /// the list in order, hard only words that agree with its clues so far.
    public func computerPlay(in game: any Game, seat: Int, level: BotLevel) -> ComputerPlay {
        guard let g = game as? HiddenWordsGame, !g.isOver, (0...1).contains(seat) else { return .none }
        if g.hidden[seat] == nil {
            let words = HiddenWordsKind.words
            return .move(.own(verb: HiddenWordsKind.hide, word: words[Int((g.seed >> UInt64(seat * 16)) % UInt64(words.count))]))
        }
        guard !g.hiding, seat == g.toMove else { return .none }
        let untried = HiddenWordsKind.words.filter { w in !g.guesses[seat].contains { $0.word == w } }
        let agreeing = untried.filter { w in g.guesses[seat].allSatisfy { HiddenWordsGame.common(w, $0.word) == $0.common } }
        guard let word = (level == .hard ? agreeing.first : nil) ?? untried.first else { return .none }
        return .move(.own(verb: HiddenWordsKind.guess, word: word))
    }

    /// A hidden word stays secret until the game is over (`MOVES`: `play=hidden`).
    public func hidesMove(_ move: Move, by seat: Int) -> Bool {
        if case .own(HiddenWordsKind.hide, _) = move { return true }
        return false
    }

    /// How a game is shown (`VIEW`): the viewer's own word (never the
    /// other's before the end), each player's guesses with their clues, and
    /// the move the viewer may make now.
    public func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView {
        guard let g = game as? HiddenWordsGame else { return defaultView(of: game, for: viewer) }
        var rows: [ViewRow] = []
        if let seat = viewer.seat, let mine = g.hidden[seat] {
            rows.append(ViewRow(key: "mine", shape: .cells, value: mine, label: "Your word"))
        }
        if g.isOver {
            for seat in 0..<2 { rows.append(ViewRow(key: "word", shape: .cells, value: g.hidden[seat] ?? "", seat: seat, label: "word")) }
        }
        rows.append(ViewRow(key: "phase", shape: .text, value: g.hiding ? "hiding" : "guessing", label: "Phase"))
        for seat in 0..<2 {
            let said = g.guesses[seat].map { "\($0.word)=\($0.common)" }.joined(separator: ",")
            rows.append(ViewRow(key: "guesses", shape: .text, value: said.isEmpty ? "-" : said, seat: seat, label: "guesses"))
        }
        guard !g.isOver, let seat = viewer.seat else { return GameView(rows: rows, moves: []) }
        let verbs = moveVerbs
        if g.hidden[seat] == nil, let hide = verbs.first { return GameView(rows: rows, moves: [ViewMove(hide)]) }
        if !g.hiding, seat == g.toMove, let guess = verbs.last { return GameView(rows: rows, moves: [ViewMove(guess)]) }
        return GameView(rows: rows, moves: [])
    }
}

/// A game of Hidden words as a pure value.
public struct HiddenWordsGame: Game {
    /// One guess and its clue: the letters in the same place as the hidden word's.
    public struct Guess: Sendable, Equatable {
        public let word: String
        public let common: Int
    }

    public let guessesEach: Int
    public let starter: Int
    /// Where the computer's hidden word comes from.
    public let seed: UInt64
    public private(set) var hidden: [String?] = [nil, nil]
    public private(set) var guesses: [[Guess]] = [[], []]
    public private(set) var outcome: Outcome?
    /// The last guess played (its MOVE line says how it went).
    private var lastGuess: Guess?

    init(guesses: Int, starter: Int, seed: UInt64) {
        guessesEach = guesses
        self.starter = starter == 1 ? 1 : 0
        self.seed = seed
    }

    /// Still hiding: a word is missing.
    public var hiding: Bool { hidden[0] == nil || hidden[1] == nil }
    public var bothToMove: Bool { outcome == nil && hidden[0] == nil && hidden[1] == nil }
    /// While hiding, a seat whose word is missing (the starter first);
    /// then the starter, unless it has guessed once more than the other.
    public var toMove: Int {
        if hiding { return hidden[starter] == nil ? starter : 1 - starter }
        return guesses[starter].count > guesses[1 - starter].count ? 1 - starter : starter
    }
    public var moveCount: Int { hidden.filter { $0 != nil }.count + guesses[0].count + guesses[1].count }

    /// Letters of `a` and `b` in the same place.
    static func common(_ a: String, _ b: String) -> Int {
        zip(a.utf8, b.utf8).filter { $0 == $1 }.count
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        guard outcome == nil else { throw .gameOver }
        guard (0...1).contains(seat) else { throw .notYourTurn }
        typealias Code = HiddenWordsKind.Code
        func refuse(_ code: KindErrorCode, _ text: String) -> MoveError { .refused(code: code, message: text) }
        switch move {
        case .own(HiddenWordsKind.hide, let word):
            guard hidden[seat] == nil else {
                throw refuse(hiding ? Code.hiddenAlready : Code.wrongPhase, hiding ? "your word is hidden: wait for the other player's" : "the words are hidden: GUESS <word>")
            }
            guard HiddenWordsKind.words.contains(word) else { throw refuse(Code.notInList, "\(word) is not in the list") }
            hidden[seat] = word
            lastGuess = nil
            return nil
        case .own(HiddenWordsKind.guess, let word):
            guard hidden[seat] != nil else { throw refuse(Code.wrongPhase, "hide your word first: HIDE <word>") }
            guard !hiding, seat == toMove else { throw .notYourTurn }
            guard HiddenWordsKind.words.contains(word) else { throw refuse(Code.notInList, "\(word) is not in the list") }
            guard !guesses[seat].contains(where: { $0.word == word }) else { throw refuse(Code.guessedAlready, "you guessed \(word) already") }
            let guess = Guess(word: word, common: HiddenWordsGame.common(word, hidden[1 - seat] ?? ""))
            guesses[seat].append(guess)
            lastGuess = guess
            return judge()
        default:
            throw .notAMove(HiddenWordsGame.howToMove)
        }
    }

    /// Once both have guessed as often: a hit decides, two hits or none left draw.
    private mutating func judge() -> Outcome? {
        guard guesses[0].count == guesses[1].count, let n = guesses.first?.count else { return nil }
        let hit = (0..<2).map { seat in guesses[seat].last?.word == hidden[1 - seat] }
        let ended: Outcome?
        switch (hit[0], hit[1]) {
        case (true, true): ended = .draw(HiddenWordsKind.both)
        case (true, false): ended = Outcome(loser: 1, reason: HiddenWordsKind.found)
        case (false, true): ended = Outcome(loser: 0, reason: HiddenWordsKind.found)
        case (false, false): ended = n >= guessesEach ? .draw(HiddenWordsKind.even) : nil
        }
        outcome = ended
        return ended
    }

    public mutating func end(_ outcome: Outcome) {
        if self.outcome == nil { self.outcome = outcome }
    }

    public var publicFields: [Field] {
        [Field("phase", hiding ? "hiding" : "guessing"), Field("guessed", "\(guesses[0].count),\(guesses[1].count)")]
    }
    public var setupFields: [Field] { [Field("guesses", String(guessesEach))] }
    /// Only its owner sees a hidden word.
    public func privateFields(for seat: Int) -> [Field] {
        guard (0...1).contains(seat), let mine = hidden[seat] else { return [] }
        return [Field("mine", mine)]
    }
    /// Both words, once it is over.
    public var finalFields: [Field] { publicFields + [Field("words", "\(hidden[0] ?? "-"),\(hidden[1] ?? "-")")] }

    /// A HIDE says only that a word was hidden; a GUESS its clue.
    public func moveFields(_ move: Move) -> [Field] {
        switch move {
        case .own(HiddenWordsKind.hide, _): return [Field("hid", "yes")]
        case .own(HiddenWordsKind.guess, let word):
            let common = lastGuess?.word == word ? lastGuess?.common ?? 0 : 0
            return [Field("guess", word), Field("common", String(common)), Field("hit", common == 4 ? "yes" : "no")]
        default: return []
        }
    }

    static let howToMove = "hide a word with HIDE <w>, then guess with GUESS <w>"

    public func explanation(loser: String, winner: String) -> String {
        outcome?.reason == HiddenWordsKind.found ? "\(winner) found \(loser)'s hidden word: \(winner) wins." : "\(winner) wins."
    }

    public func drawExplanation(names: [String]) -> String {
        outcome?.reason == HiddenWordsKind.both ? "Both found the other's word: a draw." : "Nobody found the other's word: a draw."
    }
}
