import GhostProtocol
import GhostWire
import GameKit

/// Ghost's part of the record feature: its rating lists, in the order ←/→
/// visit them on TOP, and their names and its variants' names for people.
enum GhostRecord {
    static let ratingBoards: [RatingBoardEntry] = [
        RatingBoardEntry(name: GhostWire.ratingBoard(nil), game: .ghost, variant: nil),
        RatingBoardEntry(name: GhostWire.ratingBoard(.superghost), game: .ghost, variant: GhostWire.Variant.superghost.rawValue),
        RatingBoardEntry(name: GhostWire.ratingBoard(.challenge), game: .ghost, variant: GhostWire.Variant.challenge.rawValue),
    ]
}

extension Strings {
    /// Ghost, Superghost or Challenge for a Ghost game; nil for another kind.
    func ghostKindName(_ game: String, _ variant: String?) -> String? {
        game == GhostWire.kind ? variantName(variant) : nil
    }

    /// The name of one of Ghost's rating lists; nil for another kind's.
    func ghostBoardName(_ board: String) -> String? {
        GhostRecord.ratingBoards.first { $0.name == board }.map { variantName($0.variant) }
    }
}
