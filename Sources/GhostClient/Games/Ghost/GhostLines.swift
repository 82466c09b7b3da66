import GhostWire
import GhostProtocol
import GameKit

/// Ghost's game fields, as the client reads them. `ServerLine` types the
/// generic header of each game line (id, players, reason …); what follows
/// it is the game kind's, and this is Ghost's reader. A second game kind
/// adds its own beside it (`Games/<Kind>/`). Missing or malformed fields
/// read as nil: the client then keeps what it had.
enum GhostLines {
    /// The keys of Ghost's fields, as the server's Ghost kind writes them.
    private typealias K = GhostWire.Key

    /// TURN and OVER: the fragment, and each seat's letters of G-H-O-S-T in a
    /// match; the TURN of a full state (RESUME) also says who played the
    /// fragment's last letter (`last=`).
    struct Position: Equatable {
        var fragment: String?
        var ghost: [String]?
        var last: String?
        /// OVER after a dead fragment: a word the loser could have been heading for.
        var word: String?
        /// Bluff and challenge: the player to move is challenged (`challenged=yes`).
        var challenged = false
    }

    /// GAME: a match (`rounds=ghost`) and each seat's letters so far.
    struct Header: Equatable {
        var match: Bool
        var ghost: [String]?
        /// Superghost (`variant=super`): letters at either end.
        var superghost = false
        /// Bluff and challenge (`variant=challenge`).
        var challenge = false
    }

    static func game(_ fields: [Field]) -> Header {
        let ghost = letters(fields[K.ghost])
        let variant = fields[K.variant].flatMap(GhostWire.Variant.init(rawValue:))
        return Header(match: fields[K.rounds] == GhostWire.matchRounds || ghost != nil, ghost: ghost, superghost: variant == .superghost,
                      challenge: variant == .challenge)
    }

    static func turn(_ fields: [Field]) -> Position {
        Position(fragment: fields[K.fragment].flatMap(fragment), ghost: letters(fields[K.ghost]),
                 last: fields[K.last].flatMap { $0.isEmpty ? nil : $0 }, challenged: fields[K.challenged] == GhostWire.yes)
    }

    static func over(_ fields: [Field]) -> Position {
        var p = turn(fields)
        p.word = fields[K.word].flatMap(fragment).flatMap { $0.isEmpty ? nil : $0 }
        return p
    }

    /// MOVE and OK LETTER: the letter played (a–z) and the fragment it made.
    static func move(_ fields: [Field]) -> (letter: Letter, fragment: String?)? {
        guard let letter = fields[K.letter].flatMap({ Letter($0) }) else { return nil }
        return (letter, fields[K.fragment].flatMap(fragment))
    }

    /// MOVE of a challenge (`challenge=yes`): the fragment challenged.
    static func challenge(_ fields: [Field]) -> String? {
        guard fields[K.challenge] == GhostWire.yes else { return nil }
        return fields[K.fragment].flatMap(fragment)
    }

    /// OK HINT of bluff and challenge: challenge (`challenge=yes`), the word
    /// that answers (`word=`), or none (`concede=yes`); nil for Ghost's hint.
    static func challengeHint(_ fields: [Field]) -> Notice? {
        if fields[K.challenge] == GhostWire.yes { return .challengeHint }
        if let word = fields[K.word].flatMap(fragment), !word.isEmpty { return .wordHint(word) }
        if fields[K.concede] == GhostWire.yes { return .wordHint(nil) }
        return nil
    }

    /// MATCH: each seat's letters at the end.
    static func match(_ fields: [Field]) -> [String]? { letters(fields[K.ghost]) }

    /// OK HINT: whether a win can be forced, and the letter perfect play picks.
    static func hint(_ fields: [Field]) -> (winning: Bool, letter: Letter)? {
        guard let letter = fields[K.letter].flatMap({ Letter($0) }) else { return nil }
        return (fields[K.winning] == GhostWire.yes, letter)
    }

    /// A fragment is letters a–z (lowercase as shown); anything else is not one.
    static func fragment(_ value: String) -> String? {
        value.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }) ? value.lowercased() : nil
    }

    /// `ghost=GH,` → ["GH", ""]: `GhostWire.letters`, the server's codec.
    static func letters(_ value: String?) -> [String]? { GhostWire.letters(value) }
}
