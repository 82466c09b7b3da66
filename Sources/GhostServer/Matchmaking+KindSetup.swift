import GameKit
import GhostProtocol

/// Whether a game can be set up as asked, before anything waits for it
/// (this was `ghostVariantHolds`, Ghost's variant checked in the
/// lobby). The kind says, through its `setup`, which checks its options in
/// the language (Ghost: a variant needs the language's word list); the
/// lobby names no kind and no option.
extension Matchmaking {
    /// Whether the kind the options name (the default kind without `game=`)
    /// takes them in `lang`; otherwise replies with the kind's error. The
    /// game's setup is made again when it starts, from the same options.
    func setupHolds(_ options: GameOptions, _ lang: String, _ id: ConnectionID) -> Bool {
        setUp(options, lang: lang, id) != nil
    }
}
