import GhostProtocol
import GameKit

/// A game kind this client has no code for: the server
/// announces it in `HELP` (`HELP NEW game=<kind> <usage> - <summary>`), and
/// `VIEW` describes its games in words that hold for every kind. Everything
/// here is what the server said; the client holds no rules of such a kind.

/// A kind the server plays that is not one of the client's built-in kinds
/// (`ClientGames.kinds`): from its `HELP NEW game=<kind>` line.
public struct AnnouncedKind: Equatable, Sendable {
    public var kind: GameKind
    /// The HELP line's text: "Word chain (tests only): name a word …".
    public var summary: String
    /// The computer's levels, from the usage's `[bot=a|b [first=bot]]`
    /// (empty: the kind has no computer to play).
    public var levels: [String]

    public init(kind: GameKind, summary: String, levels: [String]) {
        self.kind = kind
        self.summary = summary
        self.levels = levels
    }

    /// Its name for people: the summary's words before its first ": " (as
    /// every kind's HELP line starts, "Hangman: …"), else the kind's own name.
    public var name: String {
        if let colon = summary.firstRange(of: ": "), summary.distance(from: summary.startIndex, to: colon.lowerBound) <= 32,
           colon.lowerBound > summary.startIndex {
            return String(summary[..<colon.lowerBound])
        }
        return kind.rawValue
    }

    /// What the game is, without its name: the summary after the first ": ".
    public var about: String {
        if let colon = summary.firstRange(of: ": "), name != kind.rawValue { return String(summary[colon.upperBound...]) }
        return summary
    }

    /// A `HELP` data line read as a kind's `NEW` line, nil for any other:
    /// `NEW game=<kind> … [bot=a|b [first=bot]] …`.
    public static func parse(usage: String, text: String) -> AnnouncedKind? {
        let words = usage.split(separator: " ")
        guard words.first == "NEW", words.count > 1, words[1].hasPrefix("game=") else { return nil }
        let name = words[1].dropFirst(5).filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        guard !name.isEmpty, name.count <= 32 else { return nil }
        var levels: [String] = []
        if let bot = usage.firstRange(of: "bot=") {
            let value = usage[bot.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "|" || $0 == "-" || $0 == "_" }
            levels = value.split(separator: "|").map(String.init).filter { !$0.isEmpty }
        }
        return AnnouncedKind(kind: GameKind(rawValue: String(name)), summary: text, levels: Array(levels.prefix(8)))
    }
}

/// One row of a game's board, as `VIEW` draws it (`ROW`).
public struct ViewRowLine: Equatable, Sendable {
    public var key: String
    public var shape: ViewRow.Shape
    public var value: String
    public var max: Int?
    /// The player whose row it is (a match's G-H-O-S-T letters), named.
    public var seat: String?
    public var label: String
}

/// A move the player may send now, as `VIEW` offers it (`CAN`).
public struct ViewMoveLine: Equatable, Sendable {
    public var verb: String
    public var takes: ViewMove.Takes
    public var then: String?
    public var help: String

    /// The command it sends, with `argument` when it takes one.
    public func command(_ argument: String) -> Command {
        let words = (takes == .none ? [] : [argument]) + (then.map { [$0] } ?? [])
        return .kindMove(verb: verb, arguments: words)
    }
}

/// The board of a game of a kind this client has no code for
/// (`Game.generic`): the last `VIEW` answer, the move chosen and the word typed.
public struct GenericBoard: Equatable, Sendable {
    public var kind: GameKind
    /// The board, top to bottom, and the moves the asker may send now: the
    /// last `VIEW` answered (nil before the first answer).
    public var rows: [ViewRowLine]?
    public var moves: [ViewMoveLine] = []
    /// The `VIEW` lines being received.
    var incomingRows: [ViewRowLine] = []
    var incomingMoves: [ViewMoveLine] = []
    /// The move chosen (an index into `moves`), and the word typed for it.
    public var cursor = 0
    public var field = ""

    public init(kind: GameKind) { self.kind = kind }

    /// The move chosen, if any.
    public var chosen: ViewMoveLine? { moves.indices.contains(cursor) ? moves[cursor] : nil }

    /// Letters type into a field: a move takes a word, or more than one takes a letter.
    public var typesText: Bool {
        moves.contains { $0.takes == .word } || moves.filter { $0.takes == .letter }.count > 1
    }

    /// The one move that takes a letter, played at once by a letter key (no field).
    public var letterMove: ViewMoveLine? {
        guard !typesText else { return nil }
        return moves.first { $0.takes == .letter }
    }
}

extension GenericBoard: GameBoard {
    /// TURN and MOVE: the board is the server's next `VIEW` answer (asked by
    /// the generic reducer); a move's first field is what the caption says it played.
    mutating func reduce(_ line: BoardLine) -> BoardOutcome {
        var out = BoardOutcome()
        switch line {
        case .turn:
            out.turnNotices = .staleIfTheTurnPassed
        case let .move(_, fields):
            guard let first = fields.first(where: { $0.key != "id" && $0.key != "player" }) else { return out }
            out.played = BoardOutcome.Played(label: first.value == "yes" ? first.key : first.value, key: nil)
        }
        return out
    }
}

extension GameInfo {
    /// The board of a game of a kind this client has no code for (nil in another's).
    public var generic: GenericBoard? {
        get { if case .generic(let b) = board { b } else { nil } }
        set { if let newValue { board = .generic(newValue) } }
    }
}
