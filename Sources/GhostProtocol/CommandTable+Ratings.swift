import GameKit
/// TOP, PROFILE and HISTORY: their specs, apart from the
/// other commands' so that the table's rows stay one line each.
extension CommandTable {
    static func ratingsSpec(_ verb: Verb) -> CommandSpec {
        switch verb {
        case .top:
            return CommandSpec(verb: verb, cost: 4, usage: "[game=<kind>] [variant=<variant>] [n]",
                               help: "a rating list's leaders, top n (1-\(CommandParser.maxTop), default \(CommandParser.defaultTop)): registered names with enough rated games, on the kind's list (and its variant's)",
                               parse: { top($0, defaultKind: nil) },
                               arguments: { c in
                                   guard case let .top(n, game, variant) = c else { return nil }
                                   return [String(n)] + (game.map { ["game=\($0.rawValue)"] } ?? []) + (variant.map { ["variant=\($0)"] } ?? [])
                               },
                               parseKinds: top)
        case .profile:
            return CommandSpec(verb: verb, cost: 4, usage: "<name>",
                               help: "a name's ratings (RD, games, wins, losses, best win) and your head-to-head record against it",
                               parse: { args in
                                   one(args).flatMap { name in
                                       CommandParser.isValidName(name)
                                           ? .success(.profile(String(name)))
                                           : .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
                                   }
                               },
                               arguments: { if case .profile(let n) = $0 { [n] } else { nil } })
        default:
            return CommandSpec(verb: .history, cost: 4, usage: "[name] [n]",
                               help: "finished games, newest first: n of them (1-\(CommandParser.maxHistory), default \(CommandParser.defaultHistory)), yours or the name's (its private games only to itself)",
                               parse: history,
                               arguments: { c in
                                   guard case let .history(name, limit) = c else { return nil }
                                   // A name of digits only is followed by its number, which tells it from one.
                                   let digits = name.map { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } } ?? false
                                   return (name.map { [$0] } ?? []) + (limit == CommandParser.defaultHistory && !digits ? [] : [String(limit)])
                               })
        }
    }

    /// `TOP [game=<kind>] [variant=<v>] [n]`; the server says which boards
    /// exist. No `game=`, or `game=<defaultKind>`, is the default kind's (nil).
    private static func top(_ args: [Substring], defaultKind: GameKind?) -> Result<Command, ArgumentError> {
        options(args, keys: ["game", "variant"]).flatMap { split in
            listLength(split.words, standard: CommandParser.defaultTop, max: CommandParser.maxTop).flatMap { n in
                var game: GameKind?
                if let g = split.options["game"] {
                    guard GameOptionsArguments.isWord(g) else { return .failure(.usage) }
                    if g != defaultKind?.rawValue { game = GameKind(rawValue: g) }
                }
                if let v = split.options["variant"], !GameOptionsArguments.isWord(v) { return .failure(.usage) }
                return .success(.top(n, game: game, variant: split.options["variant"]))
            }
        }
    }

    /// `HISTORY [name] [n]`: one word of digits only is the number, any
    /// other one word the name; two words are the name, then the number.
    private static func history(_ args: [Substring]) -> Result<Command, ArgumentError> {
        guard args.count <= 2 else { return .failure(.usage) }
        let isNumber = { (w: Substring) in !w.isEmpty && w.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        var name: Substring?
        var numbers = args[...]
        if let first = args.first, args.count == 2 || !isNumber(first) {
            name = first
            numbers = args.dropFirst()
        }
        if let name, !CommandParser.isValidName(name) {
            return .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
        }
        return listLength(Array(numbers), standard: CommandParser.defaultHistory, max: CommandParser.maxHistory)
            .map { .history(name: name.map(String.init), limit: $0) }
    }
}
