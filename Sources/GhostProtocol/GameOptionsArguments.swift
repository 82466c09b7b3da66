import GameKit

/// SEEK's and NEW's options (`GameOptions`): the words they are read
/// from, and written as, in their canonical order.
enum GameOptionsArguments {
    /// `[rounds=one|<match>]` for SEEK; also `[bot=<level>] [first=bot|me]` for NEW;
    /// `game=<kind>` and that kind's own options (`mode=`, `length=`,
    /// `misses=`, and `bot=` when the kind is not the default one) for both.
    /// `game=<defaultKind>` is read as no `game=` (`GameOptions.game` nil).
    /// The keys NEW and SEEK take (a kind's own come on top with `game=`):
    /// made once, not at each command.
    /// (A list, not a `Set`: a dozen short keys are compared faster than one is hashed.)
    private static let seekKeys: [String] = ["rounds", "game", "clock", "rated", "range", GameOptions.variantKey] + GameOptions.settingKeys
    private static let newKeys: [String] = ["rounds", "game", "clock", "rated", "bot", "first", "watch", GameOptions.variantKey] + GameOptions.settingKeys

    static func parse(_ args: [Substring], allowBot: Bool, defaultKind: GameKind?) -> Result<GameOptions, ArgumentError> {
        let keys = allowBot ? newKeys : seekKeys
        // With `game=<kind>` (not the default kind), any other key is the
        // kind's own option: the kind declares its keys, the server checks them.
        let named = args.contains { CommandTable.namesKind($0, otherThan: defaultKind) }
        return CommandTable.options(args, keys: keys, kindKeys: named).flatMap { split in
            guard split.words.isEmpty else { return .failure(.usage) }
            var o = GameOptions()
            // Two or more of the kind's options: one allocation, not one per
            // growth (none at all for none: an empty dictionary allocates nothing).
            let kindOptions = split.kindKeys.count + split.options.all.count { GameOptions.settingKeys.contains($0.key) || $0.key == GameOptions.variantKey }
            if kindOptions > 1 { o.settings.reserveCapacity(kindOptions) }
            if let g = split.options["game"] {
                guard isWord(g) else { return .failure(.usage) }
                if g != defaultKind?.rawValue { o.game = GameKind(rawValue: g) }
            }
            // The common keys, then the kind's own (two loops: no array joined per command).
            func setting(_ key: String) -> ArgumentError? {
                guard let value = split.options[key] else { return nil }
                guard o.game != nil else {
                    return .other(CommandError(.badArguments, "\(key)= is another game's option: name it, game=<kind>"))
                }
                guard isWord(value) else { return .usage }
                o.settings[key] = value
                return nil
            }
            for key in GameOptions.settingKeys { if let e = setting(key) { return .failure(e) } }
            for key in split.kindKeys { if let e = setting(key) { return .failure(e) } }
            if let v = split.options[GameOptions.variantKey] {
                // Another kind's variant= is its own option: the server says whether it has one.
                guard isWord(v) else { return .failure(.usage) }
                o.variant = v
            }
            if let r = split.options["rounds"] {
                guard let rounds = r == "1" ? .one : Rounds(rawValue: r) else { return .failure(.usage) }
                o.rounds = rounds
            }
            // SEEK takes no bot=: with game=<kind> it is that kind's own
            // option (in `settings` above, for the server to refuse or take).
            if allowBot, let b = split.options["bot"] {
                // A level for any kind (the server checks the kind has it);
                // another word is a kind's own option (Hangman's bot=guesser).
                if let level = BotLevel(rawValue: b) {
                    o.bot = level
                } else {
                    guard o.game != nil, isWord(b) else { return .failure(.usage) }
                    o.settings["bot"] = b
                }
            }
            if let first = split.options["first"] {
                guard first == "bot" || first == "me" else { return .failure(.usage) }
                guard o.bot != nil else { return .failure(.other(CommandError(.badArguments, "first= needs bot="))) }
                o.botFirst = first == "bot"
            }
            if let w = split.options["watch"] {
                guard w == "yes" || w == "no" else { return .failure(.usage) }
                o.watch = w == "yes"
            }
            if let r = split.options["rated"] {
                guard r == "yes" || r == "no" else { return .failure(.usage) }
                o.rated = r == "yes"
            }
            if let r = split.options["range"] {
                guard let range = ratingRange(r) else {
                    return .failure(.other(CommandError(.badValue, "range= is <low>-<high>, two ratings from \(GameOptions.ratingRange.lowerBound) to \(GameOptions.ratingRange.upperBound), low first (range=1300-1700)")))
                }
                o.range = range
            }
            if let c = split.options["clock"] {
                // A number of seconds; the server says which are allowed (bad-value).
                guard (1...9).contains(c.utf8.count), c.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(c) else {
                    return .failure(.other(CommandError(.badValue, "clock= is a number of seconds per move")))
                }
                o.clock = seconds
            }
            return .success(o)
        }
    }

    /// `1300-1700`: two ratings within `GameOptions.ratingRange`, the lower first.
    static func ratingRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...4).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let low = Int(parts[0]), let high = Int(parts[1]), low <= high,
              GameOptions.ratingRange.contains(low), GameOptions.ratingRange.contains(high) else { return nil }
        return low...high
    }

    /// An option value: 1-16 letters and digits.
    static func isWord(_ s: some StringProtocol) -> Bool {
        (1...16).contains(s.utf8.count) && s.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The words of SEEK's and NEW's options, in their canonical order.
    static func words(_ o: GameOptions) -> [String] {
        var words: [String] = []
        if let game = o.game { words.append("game=\(game.rawValue)") }
        for key in GameOptions.settingKeys { if let v = o.settings[key] { words.append("\(key)=\(v)") } }
        // A kind's other options, in key order.
        for (key, v) in o.settings.sorted(by: { $0.key < $1.key })
        where !GameOptions.settingKeys.contains(key) && key != GameOptions.variantKey && key != "bot" {
            words.append("\(key)=\(v)")
        }
        if let v = o.variant { words.append("\(GameOptions.variantKey)=\(v)") }
        if let bot = o.settings["bot"] { words.append("bot=\(bot)") }
        if let bot = o.bot { words.append("bot=\(bot.rawValue)") }
        if o.botFirst { words.append("first=bot") }
        if o.rounds != .one { words.append("rounds=\(o.rounds.rawValue)") }
        if let clock = o.clock { words.append("clock=\(clock)") }
        if !o.watch { words.append("watch=no") }
        if let rated = o.rated { words.append("rated=\(rated ? "yes" : "no")") }
        if let range = o.range { words.append("range=\(range.lowerBound)-\(range.upperBound)") }
        return words
    }
}
