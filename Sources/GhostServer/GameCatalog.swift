import Dispatch
import GameKit
import GhostCore
import HangmanCore

/// The game kinds this server plays: the one place that names them. The
/// lobby, the store and the protocol hold games only through GameKit's
/// `Game` and `GameDefinition`; adding a kind is a module of its own plus one
/// entry here.
struct GameCatalog {
    private let kinds: [String: any GameDefinition]
    /// The kind of a game when a command does not name one.
    let defaultKind: any GameDefinition

    init(dictionaries: Dictionaries) {
        // Each kind prepares its tables on its own core: startup is the
        // slower of the two, not their sum.
        let built = Built()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 {
                built.ghost = GhostKind(dictionaries: dictionaries)
            } else {
                built.hangman = HangmanKind(dictionaries: dictionaries, phrases: dictionaries.phrases)
            }
        }
        let ghost = built.ghost ?? GhostKind(dictionaries: dictionaries)
        let hangman = built.hangman ?? HangmanKind(dictionaries: dictionaries, phrases: dictionaries.phrases)
        kinds = [ghost.name: ghost, hangman.name: hangman]
        defaultKind = ghost
    }

    /// The kinds as the two startup threads leave them; each slot is written
    /// by one thread and read after both have finished.
    private final class Built: @unchecked Sendable {
        var ghost: GhostKind?
        var hangman: HangmanKind?
    }

    subscript(name: String) -> (any GameDefinition)? { kinds[name] }

    var names: [String] { kinds.keys.sorted() }
}
