import GameKit
import GhostWire

/// Ghost's game fields as these tests build lines with them (a fixture: the
/// server's Ghost kind writes its own with `GhostWire`'s keys, the client
/// reads them with the same).
enum GhostFields {
    /// GAME: `rounds=ghost ghost=<letters>` in a match, nothing otherwise.
    static func game(ghost: [Int]?) -> [Field] {
        guard let ghost else { return [] }
        return [Field(GhostWire.Key.rounds, GhostWire.matchRounds), Field(GhostWire.Key.ghost, letters(ghost))]
    }

    /// TURN: `fragment=<f> [ghost=<letters>]`.
    static func turn(fragment: String, ghost: [Int]?) -> [Field] {
        guard let ghost else { return [Field(GhostWire.Key.fragment, fragment)] }
        return [Field(GhostWire.Key.fragment, fragment), Field(GhostWire.Key.ghost, letters(ghost))]
    }

    /// MOVE and OK LETTER: `letter=<c> fragment=<f>`.
    static func move(letter: String, fragment: String) -> [Field] {
        [Field(GhostWire.Key.letter, letter), Field(GhostWire.Key.fragment, fragment)]
    }

    /// OVER: `fragment=<f> [ghost=<letters>]`.
    static func over(fragment: String, ghost: [Int]?) -> [Field] {
        turn(fragment: fragment, ghost: ghost)
    }

    /// MATCH: `ghost=<letters>`.
    static func match(ghost: [Int]) -> [Field] {
        [Field(GhostWire.Key.ghost, letters(ghost))]
    }

    /// Each seat's letters of G-H-O-S-T: `GhostWire.letters`.
    static func letters(_ counts: [Int]) -> String { GhostWire.letters(counts) }
}
