import GameKit

// Word chain, a game kind used only by tests: written as a
// newcomer would, in one module, and added to a daemon by one catalog line
// (Tests/TestKindsDaemon/main.swift). Nothing outside this module names it.
//
// Two seats take turns to name a word (`CHAIN <w>`, the kind's own verb) that starts with the last
// letter of the word before it, from the kind's own small list, never a word
// used already in the game. A seat with no word gives up (`CONCEDE`) and
// loses (reason `stuck`). Against the computer at `easy` or `hard`
// (`bot=<level> [first=bot]`); `min=<n>` (3 to 6) is the shortest word
// allowed. Refusals have their own codes: `wrong-move`, `chain-broken`, `not-in-list`,
// `used-word`, `too-short`. Finished games count on boards of wins:
// `wordchain-game`, `wordchain-easy`, `wordchain-hard`.

/// The Word chain kind.
public final class WordChainKind: TypedGameDefinition {
    public let name = "wordchain"
    public let languages = ["en"]
    public init() {}

    /// The words a chain may use.
    public static let words: [String] = [
        "ant", "apple", "eagle", "eel", "egg", "elephant", "emu", "goat", "grape", "lemon", "lion",
        "newt", "nut", "olive", "owl", "rabbit", "rat", "tapir", "tea", "tiger", "toad", "tomato", "trout", "tuna",
    ]
    public static let minRange = 3...6
    /// The kind's own error codes (`ERR <code> <text>`).
    public enum Code {
        public static let wrongMove: KindErrorCode = "wrong-move"
        public static let chainBroken: KindErrorCode = "chain-broken"
        public static let notInList: KindErrorCode = "not-in-list"
        public static let usedWord: KindErrorCode = "used-word"
        public static let tooShort: KindErrorCode = "too-short"
    }
    /// Why a game ends: a seat gave up.
    public static let stuck = EndReason(rawValue: "stuck")

    public var optionKeys: [String] { ["min"] }
    public var wrongMoveCode: KindErrorCode { Code.wrongMove }
    public var errorCodes: [KindErrorCode: String] {
        [Code.wrongMove: "a move other than CHAIN or CONCEDE", Code.chainBroken: "the word does not start with the last one's last letter",
         Code.notInList: "the word is not in the list", Code.usedWord: "the word is used already", Code.tooShort: "the word is shorter than min="]
    }
    public var computerLevels: [BotLevel] { [.easy, .hard] }
    /// The kind's move verbs: `CHAIN <word>` names the next word, `CONCEDE` gives up.
    public var moveVerbs: [MoveVerb] {
        [MoveVerb(name: "CHAIN", arguments: .word, usage: "<word>",
                  help: "name a word that starts with the last letter of the one before") { .word($0.first ?? "") },
         MoveVerb(name: "CONCEDE", arguments: .none, usage: "", help: "give up: you have no word") { _ in .concede }]
    }
    public var summary: String { "Word chain (tests only): name a word that starts with the last letter of the one before" }
    public var settingKeys: [SettingSpec] {
        [SettingSpec(key: "wordchain-min", option: "min", defaultValue: "3") { value, _ in
            WordChainKind.minimum(value).map(String.init)
        }]
    }

    static func minimum(_ text: String) -> Result<Int, SetupError> {
        guard let n = Int(text), minRange.contains(n) else {
            return .failure(SetupError(code: .badValue, message: "min is a length from \(minRange.lowerBound) to \(minRange.upperBound)"))
        }
        return .success(n)
    }

    /// A game's setup, typed: the shortest word allowed. Stored as `min=<n>`.
    public struct Setup: KindSetup {
        public let minimum: Int
        public var variant: String { "" }
        public var settings: String { "min=\(minimum)" }
        init(minimum: Int) { self.minimum = minimum }
        public init?(variant: String, settings: String) {
            guard variant.isEmpty, settings.hasPrefix("min="),
                  case .success(let n) = WordChainKind.minimum(String(settings.dropFirst(4))) else { return nil }
            minimum = n
        }
    }

    public func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        WordChainKind.minimum(options["min"] ?? saved["min"] ?? "3").map { GameSetup(Setup(minimum: $0)) }
    }

    public func newGame(language: String, setup: Setup, seed: UInt64, starter: Int) -> (any Game)? {
        guard language == "en" else { return nil }
        return WordChainGame(minimum: setup.minimum, toMove: starter)
    }

    /// Easy names the first word that fits; hard the one that leaves the
    /// opponent fewest replies. With none, the computer gives up.
    public func computerMove(in game: any Game, level: BotLevel) -> Move? {
        guard let g = game as? WordChainGame, !g.isOver else { return nil }
        let fits = g.replies(after: g.chain.last)
        guard let first = fits.first else { return .concede }
        guard level == .hard else { return .word(first) }
        return .word(fits.min { g.replies(after: $0, also: $0).count < g.replies(after: $1, also: $1).count } ?? first)
    }


    /// How a game is shown (`VIEW`): the last word in cells, the words so
    /// far; the seat to move names a word or gives up.
    public func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView {
        guard let g = game as? WordChainGame else { return defaultView(of: game, for: viewer) }
        let rows = [ViewRow(key: "last", shape: .cells, value: g.chain.last ?? "", label: "Last word"),
                    ViewRow(key: "words", shape: .text, value: String(g.chain.count), label: "Words so far")]
        guard !g.isOver, viewer.seat == g.toMove else { return GameView(rows: rows, moves: []) }
        return GameView(rows: rows, moves: moveVerbs.map(ViewMove.init))
    }
}

/// A game of Word chain as a pure value.
public struct WordChainGame: Game {
    public let minimum: Int
    public private(set) var chain: [String] = []
    public private(set) var toMove: Int
    public private(set) var outcome: Outcome?
    /// Every accepted word and a give-up are stored moves: the ply is `moveCount`.
    public var moveCount: Int { chain.count + (outcome?.reason == WordChainKind.stuck ? 1 : 0) }

    init(minimum: Int, toMove: Int) {
        self.minimum = minimum
        self.toMove = toMove
    }

    /// The words that may follow `last` (any, to start), not used, long enough.
    func replies(after last: String?, also used: String? = nil) -> [String] {
        WordChainKind.words.filter { w in
            w.count >= minimum && !chain.contains(w) && w != used && (last.map { w.first == $0.last } ?? true)
        }
    }

    public mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        switch move {
        case .concede:
            let o = Outcome(loser: seat, reason: WordChainKind.stuck)
            outcome = o
            return o
        case .word(let w):
            func refuse(_ code: KindErrorCode, _ text: String) -> MoveError { .refused(code: code, message: text) }
            typealias Code = WordChainKind.Code
            guard WordChainKind.words.contains(w) else { throw refuse(Code.notInList, "\(w) is not in the list") }
            guard w.count >= minimum else { throw refuse(Code.tooShort, "a word has at least \(minimum) letters here") }
            if let last = chain.last, w.first != last.last { throw refuse(Code.chainBroken, "the word must start with \(last.last.map(String.init) ?? "")") }
            guard !chain.contains(w) else { throw refuse(Code.usedWord, "\(w) is used already") }
            chain.append(w)
            toMove = 1 - seat
            return nil
        default:
            throw .notAMove(WordChainGame.howToMove)
        }
    }

    public mutating func end(_ outcome: Outcome) {
        if self.outcome == nil { self.outcome = outcome }
    }

    public var publicFields: [Field] { [Field("last", chain.last ?? ""), Field("words", String(chain.count))] }
    public var setupFields: [Field] { [Field("min", String(minimum))] }

    public func moveFields(_ move: Move) -> [Field] {
        switch move {
        case .word(let w): [Field("word", w)]
        case .concede: [Field("concede", "yes")]
        default: []
        }
    }

    static let howToMove = "name a word: CHAIN <w>, or CONCEDE"


    public func explanation(loser: String, winner: String) -> String { "\(loser) had no word: \(winner) wins." }
}
