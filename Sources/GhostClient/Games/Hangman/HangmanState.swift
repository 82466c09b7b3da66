import GhostProtocol

/// Hangman's part of the client state. The client holds no rules: every
/// value here is one the server sent (a pattern, the wrong letters, the
/// misses left), or one the player is typing.

/// The board of a Hangman game in progress, as the server last described it
/// (`GameInfo.hangman`; nil in a Ghost game).
public struct HangmanBoard: Equatable, Sendable {
    /// `evil`, `fair`, `phrase` or `duel`, as GAME says.
    public var mode: String
    /// Letters to find (a phrase: its letters, not its gaps); 0 in a duel
    /// whose length is open until the setter's word sets it (`length=any`).
    public var length: Int
    /// Misses allowed.
    public var misses: Int
    /// `_` for a letter not found, found letters in lowercase, `/` between
    /// the words of a phrase, apostrophes and hyphens as they are. Empty
    /// while a duel's setter has not chosen the word.
    public var pattern = ""
    /// The wrong letters, in the server's order (alphabetical).
    public var missed: [Character] = []
    /// Whole-word answers that missed (each cost a miss), as MOVE said them:
    /// listed under "Wrong:" after the letters.
    public var wrongWords: [String] = []
    /// What "Wrong:" lists: the wrong letters, then the wrong answers, in capitals.
    public var wrongShown: String { (missed.map { String($0) } + wrongWords).map { $0.uppercased() }.joined(separator: " ") }
    /// Misses still allowed.
    public var left: Int
    /// The setter's own word, once set (the setter's GAME line, or the WORD it typed).
    public var word: String?
    /// The last guess: a letter or a whole answer, and whether it hit.
    public var lastGuess: LastGuess?

    public init(mode: String, length: Int, misses: Int) {
        self.mode = mode
        self.length = length
        self.misses = misses
        left = misses
    }

    /// Mistakes so far: misses used (wrong answers count, and are not letters).
    public var mistakes: Int { max(0, misses - left) }

    /// The letters found so far (those shown in the pattern).
    public var found: Set<Character> {
        Set(pattern.filter { $0.isLetter && $0 != "_" }.map { Character($0.lowercased()) })
    }

    public var isDuel: Bool { mode == "duel" }
}

/// A guess, a letter or a whole answer, and whether it hit.
public struct LastGuess: Equatable, Sendable {
    public var guess: String
    public var hit: Bool
}

/// A server's refusal (`ERR <code> <text>`), kept to show.
public struct Refusal: Equatable, Sendable {
    public var code: ErrorCode
    public var text: String
}

/// A finished Hangman game: its board at the end, OVER's fields, the INFO
/// that followed, and its place on the best-games list (RANK board=).
public struct HangmanEnd: Equatable, Sendable {
    public var id: Int
    public var board: HangmanBoard
    public var players: [String]
    public var winner: String
    public var loser: String
    public var reason: OverReason
    /// The answer (in evil mode, the word the server settled on).
    public var word: String
    public var mistakes: Int
    public var info: String?
    /// `RANK board=… rank=`: where this game went on its list.
    public var rankBoard: String?
    public var rank: Int?
    /// REMATCH asked (a duel), or asked by the other player.
    public var rematchAsked = false
    public var rematchOfferedBy: String?
}

/// One row of a best-games list (`SCORE rank= name= word= mistakes= misses= mode= lang=`).
public struct HangmanScore: Equatable, Sendable {
    public var rank: Int
    public var name: String
    public var word: String
    public var mistakes: Int
    public var misses: Int?
    public var mode: String?
    public var lang: String?
}

/// One of Hangman's saved settings, and what the flipside shows of it.
public struct HangmanSetting: Equatable, Sendable {
    /// `hangman-length` …
    public var key: String
    /// The value the server has saved (SETTING, OK SET); nil until known.
    public var saved: String?
    /// The value on screen: the last one sent, which may have been refused.
    public var shown: String?
    /// The server's refusal of `shown` (ERR bad-value …), in its words.
    public var refusal: Refusal?
    /// The value refused: the row goes back to the saved
    /// value, and the refusal names this one.
    public var refused: String?

    public init(key: String) { self.key = key }

    public var value: String? { shown ?? saved }
}

/// The rows of the settings flipside, in order.
public enum HangmanSettingRow: Int, CaseIterable, Equatable, Sendable {
    case length, misses, mode

    public var key: String {
        switch self {
        case .length: "hangman-length"
        case .misses: "hangman-misses"
        case .mode: "hangman-mode"
        }
    }
}

/// Hangman's screens, dispatched from `Screen.hangman`.
public enum HangmanScreen: Equatable, Sendable {
    /// The front side: the gallows, the word, the keyboard; after the end, the result and the list.
    case play
    /// The flipside: the settings for the next game.
    case settings
    /// Against the computer: who guesses.
    case computer
    /// A best-games list, from the main screen.
    case scores
    /// How Hangman is played here.
    case rules
}

/// The entries of the Hangman computer screen.
public enum HangmanComputerItem: CaseIterable, Equatable, Sendable {
    case youGuess, computerGuesses, settings, back

    /// The screen's letters, the same in both languages:
    /// g you guess (a game, as the main menu's g), c the computer guesses (c
    /// the computer, as there), s settings, b back (q and Esc too).
    public var letter: String {
        switch self {
        case .youGuess: "g"
        case .computerGuesses: "c"
        case .settings: "s"
        case .back: "b"
        }
    }
}

/// Alerts of Hangman's own (the status line; chosen in the screen's language when drawn).
public enum HangmanNotice: Equatable, Sendable {
    /// A letter after the end of the game.
    case gameOver
    /// The same after a duel with a person, where Enter asks for a rematch.
    case duelOver
    /// ERR already-guessed: the letter (or answer) was tried before.
    case alreadyGuessed(String)
    /// ERR not-a-word for the duel's word (`length` 0: an open duel, any length).
    case notAWord(word: String, lang: String, length: Int)
    /// ERR no-phrases.
    case noPhrases
    /// A Hangman NEW refused for another reason (ERR bad-value …): the server's own text, which names it.
    case newRefused(String)
    /// A setting was saved (OK SET): it applies to the next game.
    case saved
    /// Type the answer / the word first.
    case typeSomething
}

/// Everything the client keeps about Hangman outside the board of a game in progress.
public struct HangmanClient: Equatable, Sendable {
    public var settings: [HangmanSetting] = HangmanSettingRow.allCases.map { HangmanSetting(key: $0.key) }
    /// The row selected on the flipside.
    public var settingsRow = 0
    /// Where the flipside and the lists go back to.
    public var returnTo: Screen = .main
    /// The last finished game, shown on the front side until the next starts.
    public var ended: HangmanEnd?
    /// The best-games list shown (nil while loading) and the one being received.
    public var scores: [HangmanScore]?
    var incomingScores: [HangmanScore] = []
    /// The list asked for: `evil`, `fair`, `phrase` or `duel`.
    public var scoresMode = "evil"
    public var scoresOffset = 0
    /// The whole answer being typed (`=` opened it), or nil.
    public var answer: String?
    /// The duel's word being typed by the setter (shown as `*`).
    public var wordField = ""
    /// The word last sent with WORD (kept for the setter's screen once accepted).
    var wordSent: String?
    /// The letter or answer last sent, to name it if it comes back refused.
    var guessSent: String?
    /// The keys of SET commands awaiting their reply, oldest first.
    var setKeys: [String] = []
    /// Enter during a game asks first: a new game gives this one up.
    public var confirmNew = false
    /// Start a game at once once named (`--game hangman`).
    public var playAtOnce = false
    /// The last game started from here, to start the same kind again.
    public var lastNew: Command?

    public init() {}

    /// The setting for a row of the flipside.
    public func setting(_ row: HangmanSettingRow) -> HangmanSetting {
        settings.first { $0.key == row.key } ?? HangmanSetting(key: row.key)
    }

    mutating func update(_ key: String, _ change: (inout HangmanSetting) -> Void) {
        guard let i = settings.firstIndex(where: { $0.key == key }) else { return }
        change(&settings[i])
    }
}
