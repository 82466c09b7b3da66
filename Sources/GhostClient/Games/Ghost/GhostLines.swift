import GhostCore
import GhostProtocol

/// Ghost's game fields, as the client reads them. `ServerLine` types the
/// generic header of each game line (id, players, reason …); what follows
/// it is the game kind's, and this is Ghost's reader. A second game kind
/// adds its own beside it (`Games/<Kind>/`). Missing or malformed fields
/// read as nil: the client then keeps what it had.
enum GhostLines {
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
        let ghost = letters(fields["ghost"])
        return Header(match: fields["rounds"] == "ghost" || ghost != nil, ghost: ghost, superghost: fields["variant"] == "super",
                      challenge: fields["variant"] == "challenge")
    }

    static func turn(_ fields: [Field]) -> Position {
        Position(fragment: fields["fragment"].flatMap(fragment), ghost: letters(fields["ghost"]),
                 last: fields["last"].flatMap { $0.isEmpty ? nil : $0 }, challenged: fields["challenged"] == "yes")
    }

    static func over(_ fields: [Field]) -> Position {
        var p = turn(fields)
        p.word = fields["word"].flatMap(fragment).flatMap { $0.isEmpty ? nil : $0 }
        return p
    }

    /// MOVE and OK LETTER: the letter played (a–z) and the fragment it made.
    static func move(_ fields: [Field]) -> (letter: Letter, fragment: String?)? {
        guard let letter = fields["letter"].flatMap({ Letter($0) }) else { return nil }
        return (letter, fields["fragment"].flatMap(fragment))
    }

    /// MOVE of a challenge (`challenge=yes`): the fragment challenged.
    static func challenge(_ fields: [Field]) -> String? {
        guard fields["challenge"] == "yes" else { return nil }
        return fields["fragment"].flatMap(fragment)
    }

    /// OK HINT of bluff and challenge: challenge (`challenge=yes`), the word
    /// that answers (`word=`), or none (`concede=yes`); nil for Ghost's hint.
    static func challengeHint(_ fields: [Field]) -> Notice? {
        if fields["challenge"] == "yes" { return .challengeHint }
        if let word = fields["word"].flatMap(fragment), !word.isEmpty { return .wordHint(word) }
        if fields["concede"] == "yes" { return .wordHint(nil) }
        return nil
    }

    /// MATCH: each seat's letters at the end.
    static func match(_ fields: [Field]) -> [String]? { letters(fields["ghost"]) }

    /// OK HINT: whether a win can be forced, and the letter perfect play picks.
    static func hint(_ fields: [Field]) -> (winning: Bool, letter: Letter)? {
        guard let letter = fields["letter"].flatMap({ Letter($0) }) else { return nil }
        return (fields["winning"] == "yes", letter)
    }

    /// A fragment is letters a–z (lowercase as shown); anything else is not one.
    static func fragment(_ value: String) -> String? {
        value.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }) ? value.lowercased() : nil
    }

    /// `ghost=GH,` → ["GH", ""]; nil unless it is two parts of G-H-O-S-T.
    /// An empty part is no letters (protocol 1 wrote `-`, still read).
    static func letters(_ value: String?) -> [String]? {
        guard let value else { return nil }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var out: [String] = []
        for p in parts {
            if p.isEmpty || p == "-" { out.append(""); continue }
            guard p.count <= 5, "GHOST".hasPrefix(p.uppercased()) else { return nil }
            out.append(p.uppercased())
        }
        return out
    }
}
