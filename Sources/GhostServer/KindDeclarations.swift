import GameKit
import GhostProtocol

/// What the game kinds of a server declare, checked once when the lobby is
/// made: a declaration the server could only drop or shadow (a verb the
/// protocol already has, two kinds' verbs of one name taking different
/// arguments, a setting key twice, two kinds of one name) stops the daemon
/// with a sentence that names the kind, rather than a verb that silently
/// never reaches it.
enum KindDeclarations {
    struct Conflict: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// Throws the first conflict among `kinds` (the catalog's, then any added).
    static func check(_ kinds: [any GameDefinition]) throws(Conflict) {
        var names = Set<String>()
        var verbs: [String: (kind: String, arguments: MoveVerb.Arguments)] = [:]
        var settings: [String: String] = [:]
        for kind in kinds {
            guard names.insert(kind.name).inserted else { throw Conflict(description: "two game kinds are named \(kind.name)") }
            for verb in kind.moveVerbs {
                guard MoveVerb.isName(verb.name) else {
                    throw Conflict(description: "game kind \(kind.name) declares the verb \(verb.name): a kind's verb is 2 to 16 letters A-Z")
                }
                guard Verb(rawValue: verb.name) == nil else {
                    throw Conflict(description: "game kind \(kind.name) declares the verb \(verb.name), which is the protocol's")
                }
                if let other = verbs[verb.name], other.arguments != verb.arguments {
                    throw Conflict(description: "game kinds \(other.kind) and \(kind.name) both declare \(verb.name), taking different arguments")
                }
                verbs[verb.name] = (kind.name, verb.arguments)
            }
            for setting in kind.settingKeys {
                if let other = settings[setting.key] {
                    throw Conflict(description: "game kinds \(other) and \(kind.name) both declare the setting \(setting.key)")
                }
                settings[setting.key] = kind.name
            }
        }
    }
}
