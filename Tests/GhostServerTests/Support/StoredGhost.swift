import GhostStore

/// What a stored Ghost game means, read back the way the server replays it:
/// the store keeps moves and match scores, not Ghost's fragment or turn.
extension StoredGame {
    /// The letters of the round in play.
    var fragment: String { moves.map(\.move).joined() }
    /// The seat to move: the starter, then turns alternate.
    var toMove: Int { (starter + moves.count) % 2 }
    /// "ghost" for a G-H-O-S-T match, "single" otherwise.
    var mode: String { rounds > 1 ? "ghost" : "single" }
    /// Letters of G-H-O-S-T earned per seat.
    var ghost: [Int] { losses }
}
