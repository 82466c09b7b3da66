/// A move verb of a game kind's own: a command a player sends
/// in a game of that kind, besides the protocol's (`LETTER`, `WORD`, …).
/// The kind declares it in `GameDefinition.moveVerbs`; the protocol reads
/// a line that starts with it (GhostProtocol's `KindVerbs`), checks its
/// arguments' shape and gives the lobby a `Command.kindMove`; HELP lists
/// it with its usage and help; the game takes the `Move` it stands for.
/// Word chain, the tests' kind: `CHAIN <word>`.
public struct MoveVerb: Sendable {
    /// What the verb takes after it, which the protocol checks before any game sees it.
    public enum Arguments: Sendable, Equatable {
        /// Nothing.
        case none
        /// One word: letters a-z (any case on the wire, folded to
        /// lowercase), at most `MoveVerb.maxWordBytes` bytes.
        case word
    }

    /// The longest word `.word` takes, in bytes (as the protocol's `WORD`).
    public static let maxWordBytes = 80

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
    /// lowercase word; `.none`: none). By default `Move.own` with the verb
    /// and its word.
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

    /// `NAME usage`, as HELP shows it.
    public var synopsis: String { usage.isEmpty ? name : name + " " + usage }

    /// Whether `name` is a verb a kind may declare: 2 to 16 letters A-Z.
    public static func isName(_ name: String) -> Bool {
        (2...16).contains(name.utf8.count) && name.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }
}
