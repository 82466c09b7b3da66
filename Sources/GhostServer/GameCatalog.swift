import GameKit
import GhostCore

/// The game kinds this server plays: the one place that names them. The
/// lobby, the store and the protocol hold games only through GameKit's
/// `Game` and `GameKind`; adding a kind is a module of its own plus one
/// entry here.
struct GameCatalog {
    private let kinds: [String: any GameKind]
    /// The kind of a game when a command does not name one.
    let defaultKind: any GameKind

    init(dictionaries: Dictionaries) {
        let ghost = GhostKind(dictionaries: dictionaries)
        kinds = [ghost.name: ghost]
        defaultKind = ghost
    }

    subscript(name: String) -> (any GameKind)? { kinds[name] }

    var names: [String] { kinds.keys.sorted() }
}
