import GhostProtocol
import HangmanWire
import GameKit

/// Hangman's part of the record feature: its rating list (duels) and the
/// names of its games for people.
enum HangmanRecord {
    static let ratingBoards: [RatingBoardEntry] = [
        RatingBoardEntry(name: HangmanWire.duelRatingBoard, game: .hangman, variant: nil),
    ]
}

extension Strings {
    /// Hangman, or Hangman (evil) and the like, for a Hangman game; nil for another kind.
    func hangmanKindName(_ game: String, _ variant: String?) -> String? {
        guard game == HangmanWire.kind else { return nil }
        return hangman.gameName + (variant == HangmanWire.Mode.duel.rawValue || variant == nil ? "" : " (\(variant ?? ""))")
    }

    /// The name of Hangman's rating list; nil for another kind's.
    func hangmanBoardName(_ board: String) -> String? {
        board == HangmanWire.duelRatingBoard ? (code == "nl" ? "Galgje-duel" : "Hangman duel") : nil
    }
}
