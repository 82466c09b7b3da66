import Dispatch
import Synchronization
import GameKit
import WordLists
import HangmanWire

/// Hangman as a game kind of the server: the words of each language by
/// length, the phrase lists it is handed, and the computer's play. Single
/// games only. Against the computer (evil, fair, phrase) the computer sets,
/// in seat 0, and never has to move; a duel is between two people.
///
/// Two lists per language: the language's word list (`Dictionaries.lists`,
/// Ghost's) says what is a word (a duel's `WORD`, what the computer guesser
/// considers), and its list of common words (`Dictionaries.common`, cut down
/// to the words of the language's list) is what the computer picks from: a
/// fair game's word, the evil families, a duel's word when the computer sets.
/// A language without a list of common words picks from its word list.
public final class HangmanKind: TypedGameDefinition {
    public let name = HangmanWire.kind
    public static let computerName = HangmanWire.computerName
    public static let defaultMisses = 8
    /// `length=any` picks among the lengths with at least this many words, so
    /// that evil play has room to dodge (a list with no such length: any length
    /// with a word). For phrases it picks a phrase and takes its length.
    public static let anyLengthMinimumWords = 100

    public let dictionaries: Dictionaries
    /// The words by length: built on a background thread as soon as the kind
    /// exists, so that the daemon opens its port without waiting for them;
    /// the first use waits if they are not ready yet (about 65 ms in release).
    var lexicons: [String: Lexicon] { tables.built.words }
    /// The words the computer picks from, by length: each language's common
    /// words that are in its list, or its whole list when it has no common list.
    var secretLexicons: [String: Lexicon] { tables.built.secrets }
    private let tables: Tables
    let phraseBooks: [String: PhraseBook]
    /// Reviews too long for the server's thread, worked out off it (HangmanKind+Review.swift).
    let offLoopReviews = OffLoopReviews()
    /// The work of reviews on the caller's thread (tests count it).
    let loopReviewWork = WorkCounter()

    /// Built once, by whichever comes first: the background thread or a use.
    private final class Tables: @unchecked Sendable {
        private let made = Mutex<(words: [String: Lexicon], secrets: [String: Lexicon])?>(nil)
        /// Set once `made` is, so that a use that finds the lock held by
        /// another use's read (not by the build) notes no wait.
        private let isBuilt = Atomic<Bool>(false)
        private let lists: [String: WordList]
        private let common: [String: CommonWords]
        init(_ lists: [String: WordList], common: [String: CommonWords]) {
            self.lists = lists
            self.common = common
        }
        var built: (words: [String: Lexicon], secrets: [String: Lexicon]) {
            // Built already (every use after the first): no wait.
            if case let done?? = made.withLockIfAvailable({ $0 }) { return done }
            // The lock is busy. Still being built (or not started): a one-off
            // wait, which the server does not charge to the command that met
            // it (OneOffWork). Built, and only read by another use that moment
            // (the background thread's late first look, say): no wait to note.
            if !isBuilt.load(ordering: .acquiring) { OneOffWork.noteWait() }
            return made.withLock { made in
                if let made { return made }
                var words: [String: Lexicon] = [:], secrets: [String: Lexicon] = [:]
                for (language, list) in lists {
                    (words[language], secrets[language]) = Lexicon.tables(list, common: common[language])
                }
                made = (words, secrets)
                isBuilt.store(true, ordering: .releasing)
                return (words, secrets)
            }
        }
    }

    /// The words of `dictionaries` and its lists of common words (`common`);
    /// `phrases`: each language's phrase list (`Dictionaries.phrases`, read from the `phrases` folder); lines that
    /// are not phrases are skipped.
    public init(dictionaries: Dictionaries, phrases: [String: [String]]) {
        self.dictionaries = dictionaries
        let tables = Tables(dictionaries.lists, common: dictionaries.commonWords)
        self.tables = tables
        DispatchQueue.global(qos: .userInitiated).async { _ = tables.built }
        self.phraseBooks = phrases.mapValues(PhraseBook.init).filter { !$0.value.all.isEmpty }
    }

    public var languages: [String] { dictionaries.languages }

    /// The longest word (at most 64 letters) of `language`.
    public func maxLength(language: String) -> Int? { lexicons[language]?.maxLength }

    /// How many words the computer picks from in `language` (its common words
    /// that are in its list, or its whole list without a list of common words).
    public func secretWordCount(language: String) -> Int {
        secretLexicons[language]?.byLength.reduce(0) { $0 + $1.count } ?? 0
    }

    /// The words the computer picks from for `mode`: a duel's setter is a
    /// person, who may set any word of the list.
    private func pool(_ mode: HangmanMode, _ language: String) -> Lexicon? {
        mode == .duel ? lexicons[language] : secretLexicons[language]
    }

    // MARK: Setting up

    // MARK: Best games and settings

    /// A solved game goes on its mode's list: fewest mistakes first, then the
    /// longer answer (the store breaks what is left by the earlier game).
    public func bestGame(_ game: any Game, outcome: Outcome, variant: String, language: String) -> BestGame? {
        guard let g = game as? HangmanGame, outcome.reason == .solved, let answer = g.answer else { return nil }
        return BestGame(board: HangmanWire.bestGamesBoard(g.mode), seat: 1, keys: [g.mistakes, -g.length],
                        fields: [Field(HangmanWire.Key.word, Phrase.slashed(answer)), Field(HangmanWire.Key.mistakes, "\(g.mistakes)"),
                                 Field(HangmanWire.Key.misses, "\(g.misses)"), Field(HangmanWire.Key.mode, g.mode.rawValue), Field(HangmanWire.Key.lang, language)])
    }

    /// `SCORES game=hangman [mode=<mode>]`: one list per mode, evil by default.
    /// Only duels between two people (or a person and the computer guesser,
    /// which the lobby leaves unrated as the kind's own computer) are rated.
    public var ratingBoards: [String: String] { HangmanWire.ratingBoards }

    public func bestGamesBoard(mode: String?) -> String? {
        guard let m = HangmanMode(rawValue: mode ?? HangmanMode.evil.rawValue) else { return nil }
        return HangmanWire.bestGamesBoard(m)
    }

    /// What a player can save for the next game (never the one in progress).
    public var settingKeys: [SettingSpec] {
        [SettingSpec(key: "hangman-mode", option: "mode", defaultValue: HangmanMode.evil.rawValue) { [self] value, language in
             guard let m = HangmanMode(rawValue: value), m != .duel else {
                 return .failure(SetupError(code: .badValue, message: "hangman-mode is evil, fair or phrase"))
             }
             // Checked in the connection's language, as a length is.
             if m == .phrase && phraseBooks[language] == nil {
                 return .failure(SetupError(code: "no-phrases", message: "no phrase list for \(language)"))
             }
             return .success(m.rawValue)
         },
         SettingSpec(key: "hangman-length", option: "length", defaultValue: "any") { [self] value, language in
             if value == "any" { return .success(value) }
             let n = maxLength(language: language) ?? 0
             guard value.utf8.count <= 3, let length = Int(value), (1...max(1, n)).contains(length),
                   (lexicons[language]?.words(length: length)?.count ?? 0) > 0 else {
                 return .failure(SetupError(code: .badValue,
                                            message: "hangman-length is any, or a length from 1 to \(n) that the \(language) list has words of"))
             }
             return .success("\(length)")
         },
         SettingSpec(key: "hangman-misses", option: "misses", defaultValue: "\(HangmanKind.defaultMisses)") { value, _ in
             guard value.utf8.count <= 3, let m = Int(value), (1...26).contains(m) else {
                 return .failure(SetupError(code: .badValue, message: "hangman-misses is a number from 1 to 26"))
             }
             return .success("\(m)")
         }]
    }

    /// `mode=`, `length=`, `misses=` and `bot=guesser` (the computer
    /// guesses a duel's word); the computer sets at one strength, no levels.
    public var optionKeys: [String] { ["mode", "length", "misses", "bot"] }
    public var usage: String { "game=hangman [mode=evil|fair|phrase|duel] [length=<n>|any] [misses=<n>] [bot=guesser]" }
    public var summary: String { "Hangman: guess the word letter by letter; mode=evil|fair|phrase against the computer, mode=duel between two" }

    /// The guesser's LETTER and SOLVE, and a duel's setter's WORD (`LETTER`
    /// and `WORD` take the arguments Ghost's take: one verb, two kinds).
    public var moveVerbs: [MoveVerb] { HangmanKind.verbs }

    /// SOLVE's spelling, which `HangmanGame.refuses` tells from WORD's.
    static let solveVerb = HangmanWire.Verb.solve

    public static let verbs = [
        MoveVerb.letter(usage: "<c>", help: "guess a letter"),
        MoveVerb(name: HangmanWire.Verb.solve, arguments: .answer, usage: "<answer>",
                 help: "guess the whole answer (a phrase with / between its words); a wrong answer costs a miss") { .word($0.first ?? "") },
        MoveVerb(name: HangmanWire.Verb.word, arguments: .anyWord, usage: "<word>",
                 help: "mode=duel: as the setter, choose the word to guess (a word of the game's dictionary)") { .word($0.first ?? "") },
    ]

    /// Two people play a duel: one sets the word, the other guesses it.
    public var twoPlayerOptions: [String: String] { ["mode": HangmanMode.duel.rawValue] }
    /// Hangman ranks solved games by mistakes, not players by wins.
    public var ranksByWins: Bool { false }

    public func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        guard lexicons[language] != nil else { return .failure(badValue("no word list for \(language)")) }
        // Options are checked, and so is a saved value (`SET`) that fills an
        // option left out: one that does not hold here (another language's
        // length, phrases where there are none) is refused with its code, and
        // the text names the setting, rather than silently replaced
        // (Protocol.md §3, SET).
        func pick<T>(_ key: String, default value: T, _ check: (String) -> Result<T, SetupError>) -> Result<T, SetupError> {
            if let text = options[key] { return check(text) }
            guard let text = saved[key] else { return .success(value) }
            switch check(text) {
            case .success(let v): return .success(v)
            case .failure(let e):
                return .failure(SetupError(code: e.code, message: "your saved hangman-\(key) \(text) does not fit here (\(e.message)): give \(key)= or SET hangman-\(key)"))
            }
        }
        let mode: HangmanMode, misses: Int, length: Int?
        switch pick("mode", default: .evil, { self.mode($0, language: language) }) {
        case .success(let m): mode = m
        case .failure(let e): return .failure(e)
        }
        switch pick("misses", default: HangmanKind.defaultMisses, HangmanKind.misses) {
        case .success(let m): misses = m
        case .failure(let e): return .failure(e)
        }
        // A duel's length is the setter's: only the command's `length=` fixes
        // it (a saved hangman-length is for the games the computer sets).
        let checkLength = { (text: String) in self.length(text, mode: mode, language: language) }
        switch mode == .duel ? options["length"].map(checkLength) ?? .success(nil) : pick("length", default: nil, checkLength) {
        case .success(let l): length = l
        case .failure(let e): return .failure(e)
        }
        // Without one, a duel's length stays open (`length=any`) until the setter's word sets it.
        let chosen: Setup
        if mode == .duel && length == nil {
            chosen = Setup(mode: mode, length: nil, misses: misses)
        } else if let n = length ?? anyLength(mode: mode, language: language, seed: seed) {
            chosen = Setup(mode: mode, length: n, misses: misses)
        } else {
            return .failure(badValue("no words to play with in \(language)"))
        }
        // `bot=guesser`: a duel where the computer guesses the word you set.
        var computerSeat: Int? = mode == .duel ? nil : 0
        if let bot = options["bot"] {
            guard bot == "guesser", mode == .duel else {
                return .failure(SetupError(code: .badArguments, message: "bot=guesser goes with mode=duel"))
            }
            computerSeat = 1
        }
        return .success(GameSetup(chosen, computerSeat: computerSeat,
                                  computerName: computerSeat == nil ? nil : HangmanKind.computerName))
    }

    private func badValue(_ message: String) -> SetupError { SetupError(code: .badValue, message: message) }

    private func mode(_ text: String, language: String) -> Result<HangmanMode, SetupError> {
        guard let mode = HangmanMode(rawValue: text) else {
            return .failure(badValue("mode is one of evil, fair, phrase, duel"))
        }
        if mode == .phrase && phraseBooks[language] == nil {
            return .failure(SetupError(code: "no-phrases", message: "no phrase list for \(language)"))
        }
        return .success(mode)
    }

    private static func misses(_ text: String) -> Result<Int, SetupError> {
        guard let m = Int(text), (1...26).contains(m) else {
            return .failure(SetupError(code: .badValue, message: "misses is a number from 1 to 26"))
        }
        return .success(m)
    }

    /// A length to play, or nil for `any`.
    private func length(_ text: String, mode: HangmanMode, language: String) -> Result<Int?, SetupError> {
        if text == "any" { return .success(nil) }
        guard let n = Setup.length(text) else { return .failure(badValue("length is a number or any")) }
        return length(n, mode: mode, language: language).map { $0 }
    }

    /// Whether `language` has words (or phrases) of `n` letters to play `mode` with.
    private func length(_ n: Int, mode: HangmanMode, language: String) -> Result<Int, SetupError> {
        if mode == .phrase {
            guard phraseBooks[language]?.byLetters[n] != nil else {
                return .failure(badValue("no phrase of \(n) letters in the \(language) list"))
            }
        } else {
            guard (lexicons[language]?.words(length: n)?.count ?? 0) > 0 else {
                return .failure(badValue("no word of \(n) letters in the \(language) list"))
            }
            // The computer sets from the common words: a length they lack is refused.
            guard (pool(mode, language)?.words(length: n)?.count ?? 0) > 0 else {
                return .failure(badValue("no common word of \(n) letters in the \(language) list for the computer to set"))
            }
        }
        return .success(n)
    }

    /// `length=any` made concrete from the seed.
    private func anyLength(mode: HangmanMode, language: String, seed: UInt64) -> Int? {
        if mode == .phrase {
            guard let all = phraseBooks[language]?.all, !all.isEmpty else { return nil }
            return Phrase.letterCount(all[seededPick(all.count, seed: seed, salt: Salt.length)])
        }
        guard let lexicon = pool(mode, language) else { return nil }
        var lengths = lexicon.byLength.indices.filter { lexicon.byLength[$0].count >= HangmanKind.anyLengthMinimumWords }
        if lengths.isEmpty { lengths = lexicon.byLength.indices.filter { $0 > 0 && lexicon.byLength[$0].count > 0 } }
        return lengths.isEmpty ? nil : lengths[seededPick(lengths.count, seed: seed, salt: Salt.length)]
    }

    // MARK: Games

    /// A Hangman game's setup, typed: its mode, length (nil: any, a duel's
    /// open length) and misses. Stored as the mode (`variant`) and
    /// `length=<n>|any misses=<m>` (`settings`); an empty variant is evil,
    /// missing settings take their defaults.
    public struct Setup: KindSetup {
        public let mode: HangmanMode
        public let length: Int?
        public let misses: Int

        public init(mode: HangmanMode, length: Int?, misses: Int = HangmanKind.defaultMisses) {
            self.mode = mode
            self.length = length
            self.misses = misses
        }

        public var variant: String { mode.rawValue }
        public var settings: String { "length=\(length.map(String.init) ?? "any") misses=\(misses)" }

        public init?(variant: String, settings: String) {
            guard let mode = variant.isEmpty ? .evil : HangmanMode(rawValue: variant) else { return nil }
            var length: Int?, misses = HangmanKind.defaultMisses
            // What the kind writes is ASCII, where a byte is a Character:
            // split by bytes, as every game's start reads it (the same splits).
            let pairs = settings.utf8.allSatisfy({ $0 < 0x80 })
                ? Setup.pairs(settings.utf8, space: 0x20, equals: 0x3D) { String(decoding: $0, as: UTF8.self) }
                : Setup.pairs(settings, space: " ", equals: "=") { String($0) }
            for (key, value) in pairs {
                switch key {
                case "misses":
                    guard case .success(let m) = HangmanKind.misses(value) else { return nil }
                    misses = m
                case "length" where value != "any":
                    guard let n = Setup.length(value) else { return nil }
                    length = n
                default: break
                }
            }
            self.init(mode: mode, length: length, misses: misses)
        }

        /// The `key=value` pairs of `settings`, split at `space` and at the
        /// first `equals` of each (pairs without one are left out).
        private static func pairs<C: Collection>(_ settings: C, space: C.Element, equals: C.Element,
                                                 _ text: (C.SubSequence) -> String) -> [(String, String)]
            where C.Element: Equatable, C.SubSequence.SubSequence == C.SubSequence {
            settings.split(separator: space).compactMap { pair in
                let kv = pair.split(separator: equals, maxSplits: 1)
                return kv.count == 2 ? (text(kv[0]), text(kv[1])) : nil
            }
        }

        /// A length as text: 1 to 999.
        static func length(_ text: String) -> Int? {
            guard let n = Int(text), n > 0, n <= 999 else { return nil }
            return n
        }
    }

    /// A game of `setup` (`starter` is ignored: the setter is seat 0): a
    /// length the language's list has no word of is no game.
    public func newGame(language: String, setup: Setup, seed: UInt64, starter: Int) -> (any Game)? {
        if let n = setup.length, case .failure = length(n, mode: setup.mode, language: language) { return nil }
        // A duel without a length (`length=any`, or none) is open: the setter's word sets it.
        if setup.mode == .duel && setup.length == nil { return openDuel(language: language, misses: setup.misses, seed: seed) }
        guard let n = setup.length ?? anyLength(mode: setup.mode, language: language, seed: seed) else { return nil }
        return game(language: language, mode: setup.mode, length: n, misses: setup.misses, seed: seed)
    }

    /// A duel whose length is open (`length=any`): the setter's word, any
    /// word of the language's list, sets it, and the game then plays on the
    /// words of that length (`game(language:mode:length:…)`). Nil without a
    /// word list for `language`.
    public func openDuel(language: String, misses: Int = HangmanKind.defaultMisses, seed: UInt64) -> HangmanGame? {
        guard (1...26).contains(misses), lexicons[language] != nil else { return nil }
        return HangmanGame(mode: .duel, language: language, length: 0, misses: misses, seed: seed,
                           words: WordsOfLength(length: 0), ofLength: { [self] n in
                               game(language: language, mode: .duel, length: n, misses: misses, seed: seed)
                           })
    }

    /// A new game, typed; nil when `language` has no word (or phrase) of `length` letters.
    public func game(language: String, mode: HangmanMode, length: Int, misses: Int = HangmanKind.defaultMisses, seed: UInt64) -> HangmanGame? {
        guard (1...26).contains(misses), let lexicon = lexicons[language] else { return nil }
        if mode == .phrase {
            guard let phrases = phraseBooks[language]?.byLetters[length], !phrases.isEmpty else { return nil }
            let phrase = phrases[seededPick(phrases.count, seed: seed, salt: Salt.answer)]
            return HangmanGame(mode: mode, language: language, length: length, misses: misses, seed: seed,
                               words: WordsOfLength(length: length), phrase: phrase)
        }
        guard let words = lexicon.words(length: length), words.count > 0 else { return nil }
        // A duel's computer setter picks a common word; with none of this length, any word.
        var secrets = secretLexicons[language]?.words(length: length) ?? words
        if mode == .duel && secrets.count == 0 { secrets = words }
        guard secrets.count > 0 else { return nil }
        return HangmanGame(mode: mode, language: language, length: length, misses: misses, seed: seed,
                           words: words, secrets: secrets)
    }

    /// Only a duel ever asks: as setter, a common word of the game's length
    /// picked with the seed (with the length open, first a length as
    /// `length=any` picks one for the computer's games); as guesser, the
    /// likeliest letter (every level alike).
    public func computerMove(in game: any Game, level: BotLevel) -> Move? {
        guard var g = game as? HangmanGame, !g.isOver, g.mode == .duel else { return nil }
        if g.toMove == 0 {
            if g.lengthIsOpen {
                guard let n = anyLength(mode: .fair, language: g.language, seed: g.seed),
                      let fixed = self.game(language: g.language, mode: .duel, length: n, misses: g.misses, seed: g.seed)
                else { return nil }
                g = fixed
            }
            guard g.answer == nil, g.secrets.count > 0 else { return nil }
            return .word(g.secrets.string(seededPick(g.secrets.count, seed: g.seed, salt: Salt.setter)))
        }
        return g.likeliestLetter.map { .letter($0) }
    }

    public func roundSummary(loser: Int, name: String, match: Match) -> String {
        loser == 0 ? "\(name) set the word and lost." : "\(name) is hanged."
    }

    public func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String {
        "\(winner) wins."
    }
}
