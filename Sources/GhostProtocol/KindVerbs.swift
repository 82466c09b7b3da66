import GameKit
/// The move verbs of the server's game kinds (GameKit's `MoveVerb`), by
/// spelling: what `CommandParser.parse(_:kindVerbs:)` reads besides the
/// protocol's verbs. The protocol knows no kind: the server hands it the
/// verbs its kinds declare.
public struct KindVerbs: Sendable {
    private let byName: [String: MoveVerb]

    /// The verbs of `verbs`, by name. A name that is not a kind's verb
    /// (`MoveVerb.isName`), or that is one of the protocol's verbs, is left
    /// out (the protocol's verb wins); of two declarations of one name, the
    /// first counts.
    public init(_ verbs: [MoveVerb]) {
        var byName: [String: MoveVerb] = [:]
        for verb in verbs where MoveVerb.isName(verb.name) && Verb(rawValue: verb.name) == nil && byName[verb.name] == nil {
            byName[verb.name] = verb
        }
        self.byName = byName
    }

    public static let none = KindVerbs([])

    public var isEmpty: Bool { byName.isEmpty }

    /// The verb spelled `name` (uppercase), if a kind declares it.
    public subscript(name: String) -> MoveVerb? { byName[name] }
}

extension CommandParser {
    /// Parses one framed line as `parse(_:)` does, and a line whose first
    /// word is one of `kindVerbs` (any case) as that kind's move: its
    /// arguments checked for the verb's shape (`ERR bad-arguments usage:
    /// <VERB> <usage>` otherwise). Any other line is answered exactly as by
    /// `parse(_:)`, an unknown verb with `unknownCommand`.
    public static func parse(_ line: [UInt8], kindVerbs: KindVerbs) -> Result<Command?, CommandError> {
        let parsed = parse(line)
        guard !kindVerbs.isEmpty, case .failure(let e) = parsed, e == unknownCommand,
              let text = String(validating: line, as: UTF8.self) else { return parsed }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first, first.utf8.count <= 16, let verb = kindVerbs[ASCII.uppercased(first)] else { return parsed }
        let arguments = words.dropFirst().map { ASCII.lowercased($0) }
        if let refusal = refusal(of: arguments, for: verb) { return .failure(refusal) }
        return .success(.kindMove(verb: verb.name, arguments: arguments))
    }

    /// Why `arguments` (lowercase) are not what `verb` takes; nil if they are.
    static func refusal(of arguments: [String], for verb: MoveVerb) -> CommandError? {
        switch verb.arguments {
        case .none:
            return arguments.isEmpty ? nil : usage(verb)
        case .word:
            guard arguments.count == 1, (1...MoveVerb.maxWordBytes).contains(arguments[0].utf8.count),
                  arguments[0].utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else { return usage(verb) }
            return nil
        case .letter(let then):
            guard (1...2).contains(arguments.count), Letter(arguments[0]) != nil,
                  arguments.count == 1 || arguments[1] == then else {
                return CommandError(.notALetter, "play exactly one letter a-z, as \(verb.name) <c>")
            }
            return nil
        case .answer:
            guard arguments.count == 1 else { return usage(verb) }
            guard arguments[0].utf8.count <= MoveVerb.maxWordBytes, MoveVerb.isAnswer(arguments[0]) else {
                return CommandError(.badArguments, MoveVerb.answerRefusal)
            }
            return nil
        case .anyWord:
            guard arguments.count == 1 else { return usage(verb) }
            guard arguments[0].utf8.count <= MoveVerb.maxWordBytes else {
                return CommandError(.badArguments, "a word is at most \(MoveVerb.maxWordBytes) bytes")
            }
            return nil
        }
    }

    private static func usage(_ verb: MoveVerb) -> CommandError {
        CommandError(.badArguments, "usage: \(verb.synopsis)")
    }
}
