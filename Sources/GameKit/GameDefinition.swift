/// What a game kind offers the server: how to start and restore its games,
/// what the computer plays, and what the kind allows. The server's catalog
/// holds one value per kind and is the only place that names them.
public protocol GameDefinition: AnyObject, Sendable {
    /// The kind's name on the wire and in the store: `ghost`.
    var name: String { get }
    /// The languages it can be played in.
    var languages: [String] { get }
    /// Whether a match over several rounds can be played, and its length;
    /// nil (the default): the kind plays single games only, and the match
    /// members below keep their defaults.
    var matchRounds: Int? { get }
    /// A new round in `language`, with `starter` to move first. `variant`,
    /// `settings` and `seed` are stored with the game, so replaying its moves
    /// on the same values restores it exactly.
    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any Game)?
    /// The computer's move at `level` in `game` (its turn).
    func computerMove(in game: any Game, level: BotLevel) -> Move?
    /// What the computer does when its move is due: a move, or "not ready:
    /// ask again in this many seconds" (its move is still being worked out
    /// off the server's thread), or nothing. By default, `computerMove`.
    func computerPlay(in game: any Game, level: BotLevel) -> ComputerPlay
    /// The same for the computer at `seat`, which is the seat to move, or
    /// the other one while both seats may move (`Game.bothToMove`): a kind
    /// with such a phase answers here. By default `computerPlay(in:level:)`.
    func computerPlay(in game: any Game, seat: Int, level: BotLevel) -> ComputerPlay
    /// Whether the kind gives hints in a game against the computer at `level`
    /// (nil: two people). No hints by default.
    func allowsHints(against level: BotLevel?) -> Bool
    /// A hint for the seat to move, when the kind gives hints against `level`.
    func hint(in game: any Game, against level: BotLevel?) -> Hint?
    /// The match score as protocol fields (nothing for a single game, and
    /// nothing by default), for TURN, OVER and MATCH lines.
    func matchFields(_ match: Match) -> [Field]
    /// The fields of a GAME line that describe the match (nothing for a single game).
    func gameFields(_ match: Match) -> [Field]
    /// A sentence for the end of a round that seat `loser` (called `name`)
    /// lost in a match that goes on; `match` counts that round already.
    /// Only a kind with matches is asked (the default says who lost).
    func roundSummary(loser: Int, name: String, match: Match) -> String
    /// A sentence for the end of a match.
    func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String
    /// Checks the kind's own options of NEW or SEEK (`mode=evil length=5`,
    /// lowercase keys and values, already known to the protocol) in
    /// `language`, with `saved` (the player's saved settings, same keys)
    /// filling what is left out; gives what the store keeps.
    func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError>
    /// Options a game between two people takes unless the command says
    /// otherwise (Hangman: `mode=duel`); none by default.
    var twoPlayerOptions: [String: String] { get }
    /// Whether finished games count on boards of wins (Ghost); a kind that
    /// ranks its games otherwise says no.
    var ranksByWins: Bool { get }
    /// The entry a finished game makes on one of the kind's best-games lists
    /// (Hangman: a solved game, on `hangman-<mode>`), or nil: most games make
    /// none. `game` is over with `outcome`; `variant` and `language` are the
    /// game's. The server records it only when `seat` is a person.
    func bestGame(_ game: any Game, outcome: Outcome, variant: String, language: String) -> BestGame?
    /// The best-games list that `SCORES game=<kind> [mode=<mode>]` shows: its
    /// board name, or nil when the kind keeps no list for that mode (`mode`
    /// nil: the kind's default list, if it has one).
    func bestGamesBoard(mode: String?) -> String?
    /// The rating boards of this kind, by variant: a variant
    /// missing here is never rated. Default: none.
    var ratingBoards: [String: String] { get }
    /// The kind's own option keys of NEW and SEEK with `game=<kind>`
    /// (Hangman: `mode`, `length`, `misses`, `bot`): the protocol passes
    /// any `key=word` on, the lobby refuses a key the kind does not declare
    /// (`ERR bad-arguments`), and `setup` checks the values. Default: the
    /// options its settings fill (`settingKeys`).
    var optionKeys: [String] { get }
    /// The computer's levels the kind plays (`NEW game=<kind> bot=<level>
    /// [first=bot]`): the computer sits at that level, and a kind that ranks
    /// by wins scores the game on that level's board (`<kind>-easy`). A
    /// kind without levels reads `bot=` as one of its options (Hangman's
    /// `bot=guesser`). None by default.
    var computerLevels: [BotLevel] { get }
    /// The error code of a move the kind does not take (a `MoveError.notAMove`
    /// of its games): `not-a-letter` by default, Ghost's and Hangman's.
    var wrongMoveCode: KindErrorCode { get }
    /// The error codes of the kind's own refusals (`MoveError.refused`,
    /// `SetupError`) with what each means, beside the protocol's
    /// (Protocol.md §6). None by default.
    var errorCodes: [KindErrorCode: String] { get }
    /// One line for HELP: what a game of the kind is (`HELP game=<kind>
    /// <usage> - <this>`). Default: the kind's name.
    var summary: String { get }
    /// HELP's usage of the kind's NEW options. Default: `game=<kind>`, its
    /// levels and its option keys (`[length=<length>]`).
    var usage: String { get }
    /// The prefix of the names of the kind's boards of wins (`Board.kind`):
    /// its name by default (`hangman-game`); nil keeps protocol 1's short
    /// names (`game`, `easy-match`), which only Ghost, the first kind, has.
    var boardPrefix: String? { get }
    /// The settings a player can save for the kind's new games (`SET`,
    /// `SETTINGS`), in the order `SETTINGS` lists them.
    var settingKeys: [SettingSpec] { get }
    /// The kind's move verbs (`LETTER <c> [front]`, `CHAIN <word>`), in the
    /// order HELP lists them after the kind's NEW line: every move a player
    /// sends is one (the protocol has no move of its own). A game of another
    /// kind refuses them (its `wrongMoveCode`). None by default.
    var moveVerbs: [MoveVerb] { get }

    // Replay and review (`MOVES`, `REVIEW`; GameKit/Review.swift).
    /// Whether `move`, made by `seat`, stays secret until the game is over
    /// (a Hangman setter's word): `MOVES` shows it as `play=hidden` until
    /// then. No move is secret by default.
    func hidesMove(_ move: Move, by seat: Int) -> Bool
    /// The review of a finished game: per move, what it was worth. Work
    /// bounded by the game's own moves and what the kind holds in memory.
    /// By default the kind has no review.
    func review(_ request: ReviewRequest) -> ReviewResult

    // How a game is shown (`VIEW`; GameKit/GameView.swift).
    /// `game` (in a match at `match`, played in `language`) as `viewer` may
    /// see it: never another seat's secret. By default `defaultView`: the
    /// public fields as text rows and the kind's own verbs.
    func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView
}

extension GameDefinition {
    // Optional capabilities: a kind without matches or hints declares none
    // of these, rather than stubbing them.
    public var matchRounds: Int? { nil }
    public func allowsHints(against level: BotLevel?) -> Bool { false }
    public func hint(in game: any Game, against level: BotLevel?) -> Hint? { nil }
    public func matchFields(_ match: Match) -> [Field] { [] }
    public func gameFields(_ match: Match) -> [Field] { [] }
    public func roundSummary(loser: Int, name: String, match: Match) -> String { "\(name) loses the round." }
    public func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String { "\(winner) wins the match." }

    /// The computer is always ready: `computerMove`'s move, at once.
    public func computerPlay(in game: any Game, level: BotLevel) -> ComputerPlay {
        computerMove(in: game, level: level).map { .move($0) } ?? .none
    }

    public func computerPlay(in game: any Game, seat: Int, level: BotLevel) -> ComputerPlay {
        computerPlay(in: game, level: level)
    }

    public var twoPlayerOptions: [String: String] { [:] }
    public var ranksByWins: Bool { true }

    /// A kind without options of its own takes none.
    public func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        options.isEmpty ? .success(GameSetup()) : .failure(SetupError(code: .badArguments, message: "\(name) takes no such option"))
    }

    /// No best-games lists by default.
    public func bestGame(_ game: any Game, outcome: Outcome, variant: String, language: String) -> BestGame? { nil }
    public func bestGamesBoard(mode: String?) -> String? { nil }
    public var ratingBoards: [String: String] { [:] }
    public var boardPrefix: String? { name }
    public var optionKeys: [String] { settingKeys.map(\.option) }
    public var computerLevels: [BotLevel] { [] }
    public var summary: String { name }
    public var wrongMoveCode: KindErrorCode { .notALetter }
    public var errorCodes: [KindErrorCode: String] { [:] }

    /// HELP's usage of the kind's NEW: `game=<kind>`, its levels and its option keys.
    public var usage: String {
        var words = ["game=\(name)"]
        if !computerLevels.isEmpty { words.append("[bot=\(computerLevels.map(\.rawValue).joined(separator: "|")) [first=bot]]") }
        words += optionKeys.filter { $0 != "bot" || computerLevels.isEmpty }.map { "[\($0)=<\($0)>]" }
        return words.joined(separator: " ")
    }

    /// No settings by default.
    public var settingKeys: [SettingSpec] { [] }
    public var moveVerbs: [MoveVerb] { [] }

    public func hidesMove(_ move: Move, by seat: Int) -> Bool { false }
    public func review(_ request: ReviewRequest) -> ReviewResult { .unavailable("\(name) has no review") }
    public func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView {
        defaultView(of: game, for: viewer)
    }
}

/// One entry of a best-games list: a high-score board that ranks single
/// finished games (Hangman's solved games) rather than people by wins. The
/// store keeps it as given and knows nothing of what it means.
public struct BestGame: Sendable, Equatable {
    /// The list's name (`hangman-evil`): `board=` of `OK SCORES` and `RANK`.
    public var board: String
    /// Whose entry it is: the seat of the player it is listed under.
    public var seat: Int
    /// The ranking keys, exactly two: lower is better, the first key first;
    /// entries equal on both are ranked by game, the earlier game first.
    /// (Hangman: `[mistakes, -letters]`, fewest mistakes, then the longer word.)
    public var keys: [Int]
    /// What the list shows of the game: the fields of its `SCORE` line after
    /// `rank=` and `name=` (Hangman: `word= mistakes= misses= mode= lang=`).
    /// Values hold no spaces.
    public var fields: [Field]

    public init(board: String, seat: Int, keys: [Int], fields: [Field]) {
        self.board = board
        self.seat = seat
        self.keys = keys
        self.fields = fields
    }
}

/// The computer's answer when its move is due.
public enum ComputerPlay: Sendable, Equatable {
    /// Play this move now.
    case move(Move)
    /// Not ready (the position is still being solved, off the server's
    /// thread): ask again in `seconds`. The server's loop goes on meanwhile.
    case later(seconds: Double)
    /// No move (not the computer's game or turn).
    case none
}

/// A setting a player can save (`SET <key> <value>`) for a kind's new
/// games; `NEW` then fills the option `option` with it when the command
/// leaves that option out (passed to `setup` as `saved`).
public struct SettingSpec: Sendable {
    /// The key of `SET` and `SETTINGS`, lowercase and unique on the server:
    /// prefixed with the kind's name (`hangman-mode`).
    public var key: String
    /// The option of `NEW` it fills (`mode`), a key of `setup`'s `saved`.
    public var option: String
    /// The value a player has until they set one (`evil`).
    public var defaultValue: String
    /// Checks a value (lowercase, as sent) for a player whose language is
    /// `language`: the value to save (in its canonical spelling), or why it
    /// is refused (code `bad-value`, or another the kind documents, such as
    /// Hangman's `no-phrases`, and a sentence that says what is allowed).
    public var validate: @Sendable (_ value: String, _ language: String) -> Result<String, SetupError>

    public init(key: String, option: String, defaultValue: String,
                validate: @escaping @Sendable (_ value: String, _ language: String) -> Result<String, SetupError>) {
        self.key = key
        self.option = option
        self.defaultValue = defaultValue
        self.validate = validate
    }
}

/// A new game as its kind sets it up from a command's options: what the
/// store keeps with the game (`newGame` gets them back on every restore).
/// `variant` and `settings` are the stored form of the kind's own typed
/// setup (`KindSetup`, `GameSetup(_:)`): a kind builds them from its value,
/// never by hand.
public struct GameSetup: Sendable, Equatable {
    public var variant: String
    public var settings: String
    /// Which seat the computer takes when the kind puts it in one by itself
    /// (Hangman against the computer: the computer sets, seat 0), and how it is named.
    public var computerSeat: Int?
    public var computerName: String?
    public init(variant: String = "", settings: String = "", computerSeat: Int? = nil, computerName: String? = nil) {
        self.variant = variant
        self.settings = settings
        self.computerSeat = computerSeat
        self.computerName = computerName
    }
}

/// Why a kind refused a NEW's options: a protocol error code and a sentence.
public struct SetupError: Error, Sendable, Equatable {
    public var code: KindErrorCode
    public var message: String
    public init(code: KindErrorCode, message: String) {
        self.code = code
        self.message = message
    }
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
