/// A game kind's setup as a typed value of its own (Ghost's variant,
/// Hangman's mode, length and misses, Word chain's shortest word): what its
/// `setup` makes of a command's options, and what its `newGame` plays. The
/// text the store keeps (`variant`, `settings`) is only its stored form:
/// written once (`GameSetup(_:)`) and read back once (`init?(variant:settings:)`,
/// through `TypedGameDefinition`'s `newGame`), so no kind re-parses strings.
public protocol KindSetup: Sendable, Equatable {
    /// The stored form of the value: `variant` (the word of `variant=`,
    /// rating boards and best-games lists; empty for none) and `settings`.
    var variant: String { get }
    var settings: String { get }
    /// The value back from its stored form; nil for text it did not write.
    init?(variant: String, settings: String)
}

/// A kind whose setups are typed (`Setup`): it plays a game from its own
/// value, and GameKit decodes the stored text into it once, for the string
/// form of `GameDefinition.newGame` that the server calls.
public protocol TypedGameDefinition: GameDefinition {
    associatedtype Setup: KindSetup
    /// A new round of `setup` in `language`, with `starter` to move first.
    func newGame(language: String, setup: Setup, seed: UInt64, starter: Int) -> (any Game)?
}

extension TypedGameDefinition {
    /// The stored setup decoded once into the kind's own value, then played.
    public func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any Game)? {
        guard let setup = Setup(variant: variant, settings: settings) else { return nil }
        return newGame(language: language, setup: setup, seed: seed, starter: starter)
    }
}

extension GameSetup {
    /// What the store keeps of a kind's typed setup: its stored form.
    public init(_ setup: some KindSetup, computerSeat: Int? = nil, computerName: String? = nil) {
        self.init(variant: setup.variant, settings: setup.settings, computerSeat: computerSeat, computerName: computerName)
    }
}
