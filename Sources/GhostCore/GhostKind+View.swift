import GameKit
import WordLists
import GhostWire

/// How a Ghost game is shown to a client that does not know Ghost (`VIEW`):
/// the fragment in cells, each seat's G-H-O-S-T letters in a match, and the
/// moves of the variant in play for the seat to move.
extension GhostKind {
    public func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView {
        guard let ghost = game as? any GhostVariant else { return defaultView(of: game, for: viewer) }
        let t = GhostViewTexts(dutch: language == "nl")
        var rows = [ViewRow(key: GhostWire.Key.fragment, shape: .cells, value: ghost.fragment, label: t.fragment)]
        if match.isMatch {
            for seat in 0..<2 {
                let lost = match.losses.indices.contains(seat) ? match.losses[seat] : 0
                rows.append(ViewRow(key: GhostWire.Key.ghost, shape: .cells, value: String("GHOST".prefix(lost)), seat: seat, label: t.letters))
            }
        }
        guard !game.isOver, viewer.seat == game.toMove else { return GameView(rows: rows, moves: []) }
        var moves = [ViewMove(verb: "LETTER", takes: .letter, help: t.letterAtEnd)]
        if game is Superghost {
            moves.append(ViewMove(verb: "LETTER", takes: .letter, then: "front", help: t.letterAtFront))
        } else if let challenge = game as? ChallengeGhost {
            if challenge.isChallenged {
                moves = [ViewMove(verb: "WORD", takes: .word, help: t.answer), ViewMove(verb: "CONCEDE", takes: .none, help: t.concede)]
            } else if !challenge.fragment.isEmpty {
                moves.append(ViewMove(verb: "CHALLENGE", takes: .none, help: t.challenge))
            }
        }
        return GameView(rows: rows, moves: moves)
    }
}

/// Ghost's words for `VIEW`, in the game's language.
struct GhostViewTexts {
    let dutch: Bool
    var fragment: String { dutch ? "Fragment" : "Fragment" }
    var letters: String { dutch ? "Letters van GHOST" : "Letters of GHOST" }
    var letterAtEnd: String { dutch ? "een letter achteraan" : "add a letter at the end" }
    var letterAtFront: String { dutch ? "een letter vooraan" : "add a letter at the front" }
    var challenge: String { dutch ? "uitdagen: er begint geen woord mee" : "challenge: no word starts with it" }
    var answer: String { dutch ? "een woord dat ermee begint" : "name a word that starts with it" }
    var concede: String { dutch ? "opgeven" : "give up" }
}
