/// A move verb of a game kind: a command a player sends in a game of that
/// kind. Every move is one: Ghost's `LETTER`, `WORD`, `CHALLENGE` and
/// `CONCEDE`, Hangman's `LETTER`, `SOLVE` and `WORD`, the tests' kinds'
/// `CHAIN` or `HIDE`; the protocol has no move of its own. The kind
/// declares it in `GameDefinition.moveVerbs`; the protocol reads a line
/// that starts with it (GhostProtocol's `KindVerbs`), checks its
/// arguments' shape and gives the lobby a `Command.kindMove`; HELP lists
/// it with its usage and help; the game takes the `Move` it stands for.
/// Two kinds may declare one verb (both `LETTER`) if it takes the same arguments.
public struct MoveVerb: Sendable {
    /// What the verb takes after it, which the protocol checks before any game sees it.
    /// Every argument is folded to lowercase (ASCII) before the game sees it.
    public enum Arguments: Sendable, Equatable {
        /// Nothing.
        case none
        /// One word: letters a-z, at most `MoveVerb.maxWordBytes` bytes.
        case word
        /// One letter a-z, then perhaps `then` (`LETTER p front`): the
        /// move's arguments are the letter, or the letter and `then`. A line
        /// holding just one letter is the kinds' `LETTER <c>` (Protocol.md).
        case letter(then: String?)
        /// One answer: letters a-z, with `/`, `'` and `-` between them (a
        /// phrase), at most `MoveVerb.maxWordBytes` bytes.
        case answer
        /// One word of any bytes but spaces, at most `MoveVerb.maxWordBytes`
        /// bytes: which it takes is the game's to say (`Game.refuses`).
        case anyWord
    }

    /// The longest word a verb takes, in bytes (a phrase with its `/`).
    public static let maxWordBytes = 80

    /// Whether `text` is what `.answer` takes: letters a-z, with `/`, `'` and
    /// `-` between them, at least one letter.
    public static func isAnswer(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == 0x2F || $0 == 0x27 || $0 == 0x2D })
            && text.utf8.contains(where: { (0x61...0x7A).contains($0) })
    }

    /// The refusal of an answer that `isAnswer` does not take.
    public static let answerRefusal = "an answer is letters a-z, with / between the words of a phrase"

    /// The verb as HELP spells it: uppercase letters A-Z, 2 to 16 of them,
    /// and not one of the protocol's verbs (those are always the protocol's).
    /// Case-insensitive on the wire, as every verb.
    public let name: String
    public let arguments: Arguments
    /// The arguments after the verb as HELP shows them (`<word>`); empty for none.
    public let usage: String
    /// What the verb does, in one line (HELP).
    public let help: String
    /// The move it stands for, from its arguments as checked (`.word`: one
    /// lowercase word; `.none`: none; `.letter`: the letter, perhaps then
    /// its `then`). By default `Move.own` with the verb and its word.
    public let move: @Sendable (_ arguments: [String]) -> Move

    public init(name: String, arguments: Arguments, usage: String, help: String,
                move: @escaping @Sendable (_ arguments: [String]) -> Move) {
        self.name = name
        self.arguments = arguments
        self.usage = usage
        self.help = help
        self.move = move
    }

    /// A verb whose move is itself (`Move.own`): the game is given the verb and its word.
    public init(name: String, arguments: Arguments, usage: String, help: String) {
        self.init(name: name, arguments: arguments, usage: usage, help: help) { .own(verb: name, word: $0.first ?? "") }
    }

    /// `LETTER <c> [front]`, the verb a line of one letter stands for: the
    /// letter as `Move.letter`, with `front` as `Move.front`. A kind whose
    /// moves are letters declares it (Ghost, Hangman); every kind that does
    /// declares it alike, and refuses in its game what it does not take
    /// (a letter at the front, outside Superghost).
    public static func letter(usage: String = "<c> [front]", help: String) -> MoveVerb {
        MoveVerb(name: letterName, arguments: .letter(then: frontWord), usage: usage, help: help) { arguments in
            guard let letter = arguments.first.flatMap({ Letter($0) }) else { return .own(verb: letterName, word: "") }
            return arguments.count > 1 ? .front(letter) : .letter(letter)
        }
    }

    /// The letter verb's name, and the word after the letter that puts it at the front.
    public static let letterName = "LETTER"
    public static let frontWord = "front"

    /// `NAME usage`, as HELP shows it.
    public var synopsis: String { usage.isEmpty ? name : name + " " + usage }

    /// Whether `name` is a verb a kind may declare: 2 to 16 letters A-Z.
    public static func isName(_ name: String) -> Bool {
        (2...16).contains(name.utf8.count) && name.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }
}
