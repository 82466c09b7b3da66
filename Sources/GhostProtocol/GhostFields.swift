import GhostCore

/// Ghost's game fields: what follows the generic header of its GAME, TURN,
/// MOVE, OVER and MATCH lines, and its OK LETTER and OK HINT replies. (The
/// server's side; it moves to the Ghost game kind's module with the game
/// abstraction. Clients read them in their own Ghost module.)
public enum GhostFields {
    /// GAME: `rounds=ghost ghost=<letters>` in a match, nothing otherwise.
    public static func game(ghost: [Int]?) -> [Field] {
        guard let ghost else { return [] }
        return [Field("rounds", "ghost"), Field("ghost", letters(ghost))]
    }

    /// TURN: `fragment=<f> [ghost=<letters>]`.
    public static func turn(fragment: String, ghost: [Int]?) -> [Field] {
        guard let ghost else { return [Field("fragment", fragment)] }
        return [Field("fragment", fragment), Field("ghost", letters(ghost))]
    }

    /// MOVE and OK LETTER: `letter=<c> fragment=<f>`.
    public static func move(letter: String, fragment: String) -> [Field] {
        [Field("letter", letter), Field("fragment", fragment)]
    }

    /// OVER: `fragment=<f> [ghost=<letters>]`.
    public static func over(fragment: String, ghost: [Int]?) -> [Field] {
        turn(fragment: fragment, ghost: ghost)
    }

    /// MATCH: `ghost=<letters>`.
    public static func match(ghost: [Int]) -> [Field] {
        [Field("ghost", letters(ghost))]
    }

    /// Each seat's letters of G-H-O-S-T: `GhostKind.letters`.
    public static func letters(_ counts: [Int]) -> String { GhostKind.letters(counts) }
}
