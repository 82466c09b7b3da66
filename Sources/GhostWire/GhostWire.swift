import GameKit

/// Ghost's part of the wire, spelt once: its kind name, its variants, the
/// keys of its game fields and the codec of G-H-O-S-T letters. The server's
/// Ghost kind (GhostCore) writes its lines with these, and the client's
/// Ghost module reads them with the same: neither spells a key of its own.
/// Pure and small: the client links this, not the solver or the word lists.
public enum GhostWire {
    /// The kind's name on the wire (`game=ghost`) and in the store.
    @inlinable public static var kind: String { "ghost" }

    /// Ghost's variants (`variant=` of NEW, SEEK, GAME, TOP); Ghost itself has none.
    public enum Variant: String, Sendable, CaseIterable {
        /// Superghost: letters at either end.
        case superghost = "super"
        /// Bluff and challenge: a dead fragment does not end the round.
        case challenge
    }

    /// Ghost's move verbs (`GhostKind.moveVerbs`), as the client sends them.
    public enum Verb {
        /// `LETTER <c>`, and Superghost's `LETTER <c> front` (GameKit's `MoveVerb.letter`).
        public static let letter = MoveVerb.letterName
        /// Superghost's word after the letter: at the front.
        public static let front = MoveVerb.frontWord
        /// Bluff and challenge: the challenged player's answer, `WORD <word>`.
        public static let word = "WORD"
        public static let challenge = "CHALLENGE"
        public static let concede = "CONCEDE"
    }

    /// The keys of Ghost's game fields (GAME, TURN, MOVE, OVER, MATCH, OK
    /// LETTER, OK HINT), in one place. Inlinable literals: the server builds
    /// fields with them for every move, and a global `let` would cost a
    /// lazy-initialisation check at each use (callgrind-letters.py).
    public enum Key {
        @inlinable public static var fragment: String { "fragment" }
        @inlinable public static var letter: String { "letter" }
        /// Superghost: `end=front|back`, where the letter went.
        @inlinable public static var end: String { "end" }
        /// A match's letters of G-H-O-S-T per seat (`GH,`).
        @inlinable public static var ghost: String { "ghost" }
        /// `rounds=ghost` on a match's GAME line.
        @inlinable public static var rounds: String { "rounds" }
        @inlinable public static var variant: String { "variant" }
        /// The full TURN's player who played the fragment's last letter.
        @inlinable public static var last: String { "last" }
        @inlinable public static var word: String { "word" }
        @inlinable public static var challenge: String { "challenge" }
        @inlinable public static var challenged: String { "challenged" }
        @inlinable public static var concede: String { "concede" }
        /// OK HINT: whether a win can be forced.
        @inlinable public static var winning: String { "winning" }
    }

    /// `end=` of a Superghost letter.
    public enum End: String, Sendable {
        case front
        case back
    }

    /// `rounds=ghost`: a G-H-O-S-T match.
    @inlinable public static var matchRounds: String { "ghost" }

    /// Each seat's letters of G-H-O-S-T, seat order, comma-separated; empty
    /// for none, like every empty value: `GH,` (protocol 1 wrote `GH,-`).
    public static func letters(_ counts: [Int]) -> String {
        counts.map { String("GHOST".prefix(min(max($0, 0), 5))) }.joined(separator: ",")
    }

    /// `GH,` → ["GH", ""]; nil unless it is two parts of G-H-O-S-T. An empty
    /// part is no letters (protocol 1 wrote `-`, still read).
    public static func letters(_ value: String?) -> [String]? {
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

    /// `yes` for a flag that is set.
    @inlinable public static var yes: String { "yes" }

    /// The rating board of Ghost (nil) or a variant: `ghost`,
    /// `ghost-super`, `ghost-challenge`.
    public static func ratingBoard(_ variant: Variant?) -> String { variant.map { kind + "-" + $0.rawValue } ?? kind }
    /// The rating boards by variant (`""` for Ghost itself), as the server's kind declares them.
    public static let ratingBoards: [String: String] =
        Dictionary(uniqueKeysWithValues: ([nil] + Variant.allCases.map(Optional.some)).map { ($0?.rawValue ?? "", ratingBoard($0)) })
}

/// Ghost's own reasons for the end of a round (left and abandoned come from GameKit).
extension EndReason {
    /// The loser made a word longer than 3 letters.
    public static let word = EndReason(rawValue: "word")
    /// The loser made a fragment that no word extends.
    public static let dead = EndReason(rawValue: "dead")
    /// Bluff variant: the loser challenged, and the challenged player named a word.
    public static let challengeFailed = EndReason(rawValue: "challenge-failed")
    /// Bluff variant: the loser was challenged and named no word (a word
    /// not in the list, or `CONCEDE`).
    public static let bluff = EndReason(rawValue: "bluff")
}

extension GameKind {
    /// Ghost: add letters to a fragment without completing a word.
    public static let ghost = GameKind(rawValue: GhostWire.kind)
}
