/// The pure game abstraction every game kind implements: no names, sockets,
/// clocks or storage. The lobby holds games only through these types.

/// One `key=value` field of a protocol line, as a game describes its state.
public struct Field: Sendable, Hashable, CustomStringConvertible {
    public var key: String
    public var value: String
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
    public var description: String { "\(key)=\(value)" }
}

/// A move a seat makes. Every game kind takes the moves it understands and
/// refuses the others with `MoveError.notAMove`.
public enum Move: Sendable, Hashable {
    /// One letter: appended in Ghost, guessed in Hangman.
    case letter(Letter)
    /// One letter added at the front of the fragment (Superghost).
    case front(Letter)
    /// A whole word: the word a Hangman setter chooses, or a guess of it;
    /// in Ghost's bluff variant, the word that answers a challenge.
    case word(String)
    /// Ghost's bluff variant: the player to move says no word starts with
    /// the fragment (the previous player is bluffing).
    case challenge
    /// Ghost's bluff variant: the challenged player gives up (has no word).
    case concede
    /// A move of a kind's own verb (`MoveVerb`), as sent: the verb in
    /// capitals and its word (empty for a verb that takes none). The kind
    /// alone says what it means: one kind's `HIDE apple` is a secret.
    case own(verb: String, word: String)

    /// The move as the store keeps it: `p` for a letter, `<p` for a letter
    /// at the front, `word:<w>` for a word, `challenge` and `concede`;
    /// `move:<VERB>` or `move:<VERB>:<w>` for a kind's own verb.
    public var encoded: String {
        switch self {
        case .letter(let l): return l.description
        case .front(let l): return "<" + l.description
        case .word(let w): return "word:" + w
        case .challenge: return "challenge"
        case .concede: return "concede"
        case .own(let verb, let word): return word.isEmpty ? "move:" + verb : "move:" + verb + ":" + word
        }
    }

    public init?(encoded text: String) {
        if let l = Letter(text) {
            self = .letter(l)
        } else if text.hasPrefix("<"), let l = Letter(String(text.dropFirst())) {
            self = .front(l)
        } else if text.hasPrefix("word:") {
            self = .word(String(text.dropFirst(5)))
        } else if text == "challenge" {
            self = .challenge
        } else if text == "concede" {
            self = .concede
        } else if text.hasPrefix("move:") {
            let parts = text.dropFirst(5).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let verb = parts.first, MoveVerb.isName(String(verb)) else { return nil }
            self = .own(verb: String(verb), word: parts.count > 1 ? String(parts[1]) : "")
        } else {
            return nil
        }
    }
}

/// Why a game (or a round) ended: a word of the protocol's `reason=` field.
/// Each game kind adds its own reasons; the two below come from the seats.
public struct EndReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The loser left the game (LEAVE).
    public static let left = EndReason(rawValue: "left")
    /// The loser stayed away past the grace period and the opponent claimed the win.
    public static let abandoned = EndReason(rawValue: "abandoned")
    /// The loser's clock ran out: a game on a clock (`NEW clock=<seconds>`)
    /// gives each move that many seconds, and the player to move loses when
    /// they are up.
    public static let time = EndReason(rawValue: "time")

    /// Reasons that come from the seats rather than the rules: a match ends
    /// at once on these, whatever its score.
    public var endsMatch: Bool { self == .left || self == .abandoned || self == .time }
}

/// How a game ended: seat `loser` lost, for `reason`, or nobody did (a
/// draw, which only a kind's rules give). Seats are 0 and 1.
public struct Outcome: Sendable, Equatable {
    /// The seat that lost; nil for a draw.
    public let loser: Int?
    public let reason: EndReason
    /// The seat that won; nil for a draw.
    public var winner: Int? { loser.map { 1 - $0 } }
    public var isDraw: Bool { loser == nil }
    public init(loser: Int, reason: EndReason) {
        self.loser = loser
        self.reason = reason
    }
    private init(drawn reason: EndReason) {
        self.loser = nil
        self.reason = reason
    }
    /// Nobody won, for `reason` (a kind's own word: `even`).
    public static func draw(_ reason: EndReason) -> Outcome { Outcome(drawn: reason) }
}

/// Why a move was refused. `refused` carries an error code (the kind's own,
/// or one of the protocol's) and a sentence, for game-specific refusals.
public enum MoveError: Error, Sendable, Equatable {
    case gameOver
    case notYourTurn
    /// This game does not take that kind of move.
    case notAMove(String)
    case refused(code: KindErrorCode, message: String)
}

/// A computer player's strength.
public enum BotLevel: String, Sendable, CaseIterable, Codable {
    /// Avoids only the moves that lose on the spot; otherwise random.
    case easy
    /// Plays perfectly some of the time, otherwise like Easy.
    case medium
    /// Perfect play.
    case hard
}

/// Who sits in a seat.
public enum Seat: Sendable, Equatable {
    case person
    case computer(BotLevel)

    public var level: BotLevel? {
        if case .computer(let l) = self { return l }
        return nil
    }
}

/// One round of a two-seat game as a pure value.
public protocol Game: Sendable {
    /// The seat to move (0 or 1); meaningless once the game is over. While
    /// both seats may move (`bothToMove`), the one the server waits for
    /// first: its clock runs and its first move is due.
    var toMove: Int { get }
    /// Whether both seats may move now, in any order (a phase in which each
    /// sets a secret). The game still judges who may play (`notYourTurn`);
    /// TURN then names both players. False by default: one seat at a time.
    var bothToMove: Bool { get }
    /// Set once the game is over.
    var outcome: Outcome? { get }
    /// Whether `outcome` is set. A requirement (with the default below), so
    /// that a kind's own answer is specialized: asked through an existential
    /// at every move, the extension copied the whole outcome out first.
    var isOver: Bool { get }
    /// Moves played so far: 0 means nobody has moved yet (a restart is free).
    /// The ply contract: the lobby stores each move `play` takes (returns
    /// from without throwing) with `moveCount` after it as its ply, and
    /// restores a game by replaying its moves in ply order. So every such
    /// move counts, including one that loses (a challenged player's word
    /// that is not in the list), and a move `play` throws for counts not.
    var moveCount: Int { get }
    /// Seat `seat` plays `move`. Returns the outcome if this move ended the game.
    /// A move it throws for leaves the game as it was: the lobby plays on
    /// its room's game in place, and a refused move changes nothing.
    mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome?
    /// Ends the game for a reason from outside the rules (left, abandoned, time).
    /// No effect on a game that is over.
    mutating func end(_ outcome: Outcome)
    /// The state every seat may see, as protocol fields in wire order.
    var publicFields: [Field] { get }
    /// What only `seat` may see (a Hangman setter's word); nothing by default.
    func privateFields(for seat: Int) -> [Field]
    /// The fields that describe `move` on a MOVE line, before the public state.
    func moveFields(_ move: Move) -> [Field]
    /// A MOVE line's game fields once `move` has been played: `moveFields`,
    /// then `publicFields`. (A kind may build them at once: this runs for
    /// every move.)
    func fields(after move: Move) -> [Field]
    /// A sentence that says why the game ended, for people.
    func explanation(loser: String, winner: String) -> String
    /// The same for a draw, between the seats' `names` in seat order. Only a
    /// kind whose rules give draws is asked.
    func drawExplanation(names: [String]) -> String
    /// What this game was set up with, for the GAME line and the reply to
    /// NEW (Hangman: `mode=evil length=5 misses=8`); nothing by default.
    var setupFields: [Field] { get }
    /// The fields of the OVER line once the game is over (Hangman reveals
    /// its word here); the public state by default.
    var finalFields: [Field] { get }
    /// What OVER adds at its end, after the match's fields: words about how
    /// the game ended that are not its state (Ghost, after a dead fragment:
    /// `word=<w>`, a word the loser could have been heading for). Stored
    /// with the final fields. Nothing by default.
    var endFields: [Field] { get }
    /// What the TURN of the full state (sent at the start, at each round,
    /// and on RESUME) adds after the public state, which the TURN after each
    /// move leaves out because its MOVE just said it: Ghost names who played
    /// the fragment's last letter (`last=<name>`). `names` are the seats'
    /// names, in seat order. Nothing by default.
    func stateFields(names: [String]) -> [Field]
    /// Whether `seat` may restart the round (or switch its language) at
    /// once, without the opponent agreeing; otherwise it is an offer. Before
    /// the round's first move by default (a Hangman duel: only the setter,
    /// whose word is still to choose).
    func restartsAtOnce(by seat: Int) -> Bool
    /// A refusal of `move`, sent with the kind's verb `verb`, before `play`
    /// sees it: for a kind whose two verbs make one move (a Hangman setter
    /// sets the word with WORD, the guesser answers with SOLVE, both
    /// `Move.word`), or whose verb takes any word (`MoveVerb.Arguments.anyWord`)
    /// and refuses some by their shape. Nil, the move goes to `play`, by default.
    func refuses(_ move: Move, verb: String, by seat: Int) -> MoveError?
    /// How many times the server's first-move time (`ghostd
    /// --first-move-timeout`) the first move of `seat` may take before the
    /// game is aborted: 1 (a letter) by default; a kind whose first move
    /// asks more thought says more (a Hangman duel's setter choosing a word).
    func firstMoveTimeFactor(for seat: Int) -> Double
}

extension Game {
    public var isOver: Bool { outcome != nil }
    public var bothToMove: Bool { false }
    public func drawExplanation(names: [String]) -> String { "It is a draw." }
    public func privateFields(for seat: Int) -> [Field] { [] }
    public func fields(after move: Move) -> [Field] { moveFields(move) + publicFields }
    public var setupFields: [Field] { [] }
    public var finalFields: [Field] { publicFields }
    public var endFields: [Field] { [] }
    public func stateFields(names: [String]) -> [Field] { [] }
    public func restartsAtOnce(by seat: Int) -> Bool { moveCount == 0 }
    public func refuses(_ move: Move, verb: String, by seat: Int) -> MoveError? { nil }
    public func firstMoveTimeFactor(for seat: Int) -> Double { 1 }
}
