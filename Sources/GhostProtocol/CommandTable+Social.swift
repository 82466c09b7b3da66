import GameKit

/// FOLLOW, UNFOLLOW, FOLLOWING, INVITE, SAY, BLOCK, UNBLOCK, BLOCKS, REPORT
/// and DECLINE's two forms: the commands between people, apart from the
/// games' (Protocol.md §3, "Friends, invitations, chat and blocking").
extension CommandTable {
    /// The longest text SAY and REPORT take, in characters (Unicode scalars).
    public static let maxChatText = 200

    static func socialSpec(_ verb: Verb) -> CommandSpec {
        switch verb {
        case .follow:
            return nameSpec(verb, cost: 4, help: "see when a registered name is online (ONLINE and OFFLINE events, FOLLOWING); you must be registered too",
                            make: Command.follow) { if case .follow(let n) = $0 { n } else { nil } }
        case .unfollow:
            return nameSpec(verb, cost: 2, help: "stop following a name", make: Command.unfollow) { if case .unfollow(let n) = $0 { n } else { nil } }
        case .following:
            return plain(verb, cost: 4, .following, "the names you follow, one FRIEND line each: online or when last seen, and the game they play if it may be watched")
        case .invite:
            return CommandSpec(verb: verb, cost: 8, usage: "<name> [game=<kind>] [<the kind's options>] [clock=<seconds>] [watch=no] [rated=yes|no]",
                               help: "open a private game for one name only and send it the code: it answers with JOIN <code> or DECLINE <code>; NEW's options, without bot=",
                               parse: { invite($0, defaultKind: nil) },
                               arguments: { c in
                                   guard case let .invite(name, options) = c else { return nil }
                                   return [name] + GameOptionsArguments.words(options)
                               },
                               parseKinds: invite)
        case .say:
            var spec = CommandSpec(verb: verb, cost: 4, usage: "<text>",
                                   help: "in a game, say something to your opponent; watching, to the other watchers: the rest of the line, 1-\(maxChatText) characters",
                                   parse: { _ in .failure(.usage) },
                                   arguments: { if case .say(let text) = $0 { [text] } else { nil } })
            spec.parseRest = { rest in text(rest).map { .say($0) } }
            return spec
        case .block:
            return nameSpec(verb, cost: 4, help: "never get invitations, chat or a game found by SEEK from that name (it is not told)",
                            make: Command.block) { if case .block(let n) = $0 { n } else { nil } }
        case .unblock:
            return nameSpec(verb, cost: 2, help: "stop blocking a name", make: Command.unblock) { if case .unblock(let n) = $0 { n } else { nil } }
        case .blocks:
            return plain(verb, cost: 4, .blocks, "the names you block, one BLOCKED line each")
        default:
            var spec = CommandSpec(verb: .report, cost: 8, usage: "<name> <reason>",
                                   help: "report a name to the server's operator, with what it last said to you; the reason is the rest of the line",
                                   parse: { _ in .failure(.usage) },
                                   arguments: { if case let .report(name, reason) = $0 { [name, reason] } else { nil } })
            spec.parseRest = report
            return spec
        }
    }

    /// `DECLINE` (an offer in your game) or `DECLINE <code>` (an invitation).
    static var declineSpec: CommandSpec {
        CommandSpec(verb: .decline, cost: 1, usage: "[<code>]",
                    help: "decline your opponent's offer; with a code, an invitation (INVITE) sent to you",
                    parse: { args in
                        switch args.count {
                        case 0: .success(.decline)
                        case 1: .success(.declineInvite(ASCII.uppercased(args[0])))
                        default: .failure(.usage)
                        }
                    },
                    arguments: {
                        switch $0 {
                        case .decline: []
                        case .declineInvite(let code): [code]
                        default: nil
                        }
                    })
    }

    /// A verb whose one argument is a name.
    private static func nameSpec(_ verb: Verb, cost: Int, help: String, make: @escaping @Sendable (String) -> Command,
                                 name: @escaping @Sendable (Command) -> String?) -> CommandSpec {
        CommandSpec(verb: verb, cost: cost, usage: "<name>", help: help,
                    parse: { args in
                        one(args).flatMap { word in
                            CommandParser.isValidName(word)
                                ? .success(make(String(word)))
                                : .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
                        }
                    },
                    arguments: { name($0).map { [$0] } })
    }

    /// `INVITE <name> [options]`: NEW's options, but never the computer.
    private static func invite(_ args: [Substring], defaultKind: GameKind?) -> Result<Command, ArgumentError> {
        guard let first = args.first else { return .failure(.usage) }
        guard CommandParser.isValidName(first) else {
            return .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
        }
        return GameOptionsArguments.parse(Array(args.dropFirst()), allowBot: true, defaultKind: defaultKind).flatMap { options in
            guard options.bot == nil, !options.botFirst else {
                return .failure(.other(CommandError(.badArguments, "INVITE plays a person: to play the computer, NEW bot=<level>")))
            }
            return .success(.invite(name: String(first), options: options))
        }
    }

    /// The text after the verb: the rest of the line after the one space
    /// (or tab) that follows it, made chat text (`ChatText.cleaned`).
    /// Split by Unicode scalars, not characters: a space followed by a
    /// combining mark is one character, and the line must parse the same
    /// after it is rendered again (the fuzzer found `REPORT A  \u{650}t`).
    private static func text(_ rest: Substring) -> Result<String, ArgumentError> {
        let scalars = rest.unicodeScalars
        guard let first = scalars.first, first == " " || first == "\t" else { return .failure(.usage) }
        switch ChatText.cleaned(Substring(scalars.dropFirst())) {
        case .success(let t): return .success(t)
        case .failure(let e): return .failure(.other(e))
        }
    }

    /// `REPORT <name> <reason>`: the name is the first word; the reason
    /// the rest of the line, as SAY's text.
    private static func report(_ rest: Substring) -> Result<Command, ArgumentError> {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        let start = rest.unicodeScalars.drop(while: isSpace)
        let name = start.prefix(while: { !isSpace($0) })
        guard !name.isEmpty else { return .failure(.usage) }
        guard CommandParser.isValidName(Substring(name)) else {
            return .failure(.other(CommandError(.badName, "a name is 1-16 letters, digits, - or _")))
        }
        return text(Substring(start[name.endIndex...])).map { .report(name: String(Substring(name)), reason: $0) }
    }
}

/// What chat may hold (SAY's text, REPORT's reason): it reaches another
/// person's terminal or page. Control characters never get this far (the
/// server refuses a line holding one, Protocol.md §1); Unicode's format
/// characters, which reorder or hide text (bidi overrides, zero-width
/// characters), are removed here; spaces at either end go.
public enum ChatText {
    /// Whether a scalar is one that chat drops: a format character that
    /// can reorder, join or hide text, or a control.
    public static func isDropped(_ v: UInt32) -> Bool {
        Sanitize.isControl(v) || v == 0xAD || (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2060...0x206F).contains(v) || v == 0xFEFF || (0xFFF9...0xFFFB).contains(v) || v == 0x061C || v == 0x180E
    }

    /// The text as chat keeps it, or why it cannot be: nothing left, or more
    /// than `CommandTable.maxChatText` characters.
    public static func cleaned(_ text: some StringProtocol) -> Result<String, CommandError> {
        // One pass over the scalars: the kept ones, without the spaces at
        // either end (a trim through `reversed()` views cost thousands of
        // instructions a character: the bench's 200-character SAY took 1 M).
        var scalars = String.UnicodeScalarView()
        var pendingSpaces = 0
        var count = 0
        for s in text.unicodeScalars where !isDropped(s.value) {
            if s.value == 0x20 {
                if count > 0 { pendingSpaces += 1 }
                continue
            }
            count += pendingSpaces + 1
            guard count <= CommandTable.maxChatText else {
                return .failure(CommandError(.badArguments, "a text is at most \(CommandTable.maxChatText) characters"))
            }
            for _ in 0..<pendingSpaces { scalars.append(" ") }
            pendingSpaces = 0
            scalars.append(s)
        }
        guard count > 0 else { return .failure(CommandError(.badArguments, "say something: the text is empty")) }
        return .success(String(scalars))
    }
}
