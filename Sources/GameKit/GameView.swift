/// How a game is shown to one viewer, in words any client can draw without
/// knowing the kind: its board as labelled rows, and the moves the viewer
/// may send now with what each does. A kind says it (`GameDefinition.view`);
/// the protocol carries it (`VIEW <id>`: `ROW` and `CAN` lines); a client
/// that knows a kind may draw it richer, and one that does not still plays it.
public struct GameView: Sendable, Equatable {
    /// The board, top to bottom.
    public var rows: [ViewRow]
    /// What the viewer may send now, in the order to offer them: nothing
    /// when it is not their turn, the game is over, or they watch.
    public var moves: [ViewMove]

    public init(rows: [ViewRow], moves: [ViewMove]) {
        self.rows = rows
        self.moves = moves
    }
}

/// Who a view is for: a seat of the game (its own secrets included), or a
/// watcher (what every seat may see, nothing more).
public enum Viewer: Sendable, Equatable {
    case seat(Int)
    case watcher

    /// The seat, if the viewer has one.
    public var seat: Int? {
        if case .seat(let s) = self { return s }
        return nil
    }
}

/// One row of a game's board.
public struct ViewRow: Sendable, Equatable {
    /// How a row's value is drawn.
    public enum Shape: String, Sendable, CaseIterable {
        /// A word or number, as it is.
        case text
        /// One cell per character: a letter, `_` for one still hidden, `/`
        /// between words (a Hangman pattern, a Ghost fragment).
        case cells
        /// A number out of `max` (misses left of 8).
        case count
    }

    /// What the row is, a word of the kind's (`fragment`, `pattern`): the
    /// same in every language, for a client that draws the kind its own way.
    public var key: String
    public var shape: Shape
    /// Never holds a space or a control character (a protocol value).
    public var value: String
    /// `count`'s whole (the misses a game allows); nil otherwise.
    public var max: Int?
    /// A row that belongs to one seat (a match's G-H-O-S-T letters); nil:
    /// the game's.
    public var seat: Int?
    /// The row's name for people, in the game's language (`Fragment`).
    public var label: String

    public init(key: String, shape: Shape, value: String, max: Int? = nil, seat: Int? = nil, label: String) {
        self.key = key
        self.shape = shape
        self.value = value
        self.max = max
        self.seat = seat
        self.label = label
    }
}

/// A move the viewer may send now: a protocol verb or the kind's own
/// (`LETTER`, `CHALLENGE`, `CHAIN`), what it takes, and what it does.
public struct ViewMove: Sendable, Equatable {
    /// What the verb takes after it.
    public enum Takes: String, Sendable, CaseIterable {
        case none
        /// One letter a-z.
        case letter
        /// One word (`WORD`, `SOLVE`, a kind's `.word` verb).
        case word
    }

    /// The verb, uppercase, as HELP spells it.
    public var verb: String
    public var takes: Takes
    /// A word the line ends with after the argument (`LETTER p front`); nil for none.
    public var then: String?
    /// What it does, for people, in the game's language.
    public var help: String

    public init(verb: String, takes: Takes, then: String? = nil, help: String) {
        self.verb = verb
        self.takes = takes
        self.then = then
        self.help = help
    }

    /// A kind's own move verb, offered as it is declared.
    public init(_ verb: MoveVerb) {
        let takes: Takes
        switch verb.arguments {
        case .none: takes = .none
        case .letter: takes = .letter
        case .word, .answer, .anyWord: takes = .word
        }
        self.init(verb: verb.name, takes: takes, help: verb.help)
    }
}

extension GameDefinition {
    /// A kind that does not say how it is shown: its public state, one text
    /// row a field (the seat's own fields too, to that seat), and its own
    /// move verbs to the seat to move. Enough to play it; a kind says more.
    public func defaultView(of game: any Game, for viewer: Viewer) -> GameView {
        var fields = game.isOver ? game.finalFields : game.publicFields
        if let seat = viewer.seat { fields += game.privateFields(for: seat) }
        let rows = fields.map { ViewRow(key: $0.key, shape: .text, value: $0.value, label: $0.key) }
        let mine = !game.isOver && viewer.seat == game.toMove
        return GameView(rows: rows, moves: mine ? moveVerbs.map(ViewMove.init) : [])
    }
}
