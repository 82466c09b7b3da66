import GameKit
import GhostCore
import HangmanCore
import WordLists

/// The game kinds this server plays: the one place that names them. The
/// lobby, the store and the protocol hold games only through GameKit's
/// `Game` and `GameDefinition`; adding a kind is a module of its own plus one
/// entry here.
struct GameCatalog {
    private let kinds: [String: any GameDefinition]
    /// The kind of a game when a command does not name one.
    let defaultKind: any GameDefinition

    init(dictionaries: Dictionaries) {
        // Hangman builds its word tables on a thread of its own (HangmanKind).
        let hangman = HangmanKind(dictionaries: dictionaries, phrases: dictionaries.phrases)
        let ghost = GhostKind(dictionaries: dictionaries)
        kinds = [ghost.name: ghost, hangman.name: hangman]
        defaultKind = ghost
    }

    subscript(name: String) -> (any GameDefinition)? { kinds[name] }

    /// The move verbs of the catalog's kinds, known without loading a
    /// dictionary (the docs' test reads them).
    static let moveVerbs = GhostKind.verbs + HangmanKind.verbs

    var names: [String] { kinds.keys.sorted() }
}
