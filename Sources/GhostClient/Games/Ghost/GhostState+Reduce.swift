import GhostProtocol
import GameKit

/// Ghost's child reducer (TCA's `Scope`): TURN and MOVE change the Ghost
/// board, and nothing else; what the table around it must do (the last
/// move, the key flash, the offer a letter cancels) comes back as a
/// `BoardOutcome` for the table (`TableFeature.turn`, `.move`).
extension GhostState: GameBoard {
    /// What a Ghost line says, read by `GhostLines`.
    enum Event: Equatable {
        /// TURN: the position (the fragment, a match's letters, `last=`, `challenged=`).
        case turn(GhostLines.Position)
        /// MOVE of a letter: the letter, and the fragment it made (if said).
        case letter(Letter, fragment: String?)
        /// MOVE with `challenge=yes`: `by` challenged the fragment.
        case challenge(by: String)
    }

    mutating func reduce(_ line: BoardLine) -> BoardOutcome {
        switch line {
        case .turn(let fields):
            return reduce(.turn(GhostLines.turn(fields)))
        case let .move(player, fields):
            if GhostLines.challenge(fields) != nil { return reduce(.challenge(by: player)) }
            guard let move = GhostLines.move(fields) else { return BoardOutcome() }
            return reduce(.letter(move.letter, fragment: move.fragment))
        }
    }

    mutating func reduce(_ event: Event) -> BoardOutcome {
        var out = BoardOutcome()
        switch event {
        case .turn(let position):
            // A fragment this client did not see being built (moves missed across a daemon restart).
            if let f = position.fragment, f != fragment { out.missedMoves = true }
            out.turnNotices = position.fragment != fragment ? .stale : .staleIfTheTurnPassed
            fragment = position.fragment ?? fragment
            // The state sent on RESUME names who played the fragment's last letter (`last=`).
            if let last = position.last, let letter = fragment.last { out.lastMove = LastMove(last, String(letter)) }
            if let letters = position.ghost { self.letters = letters }
            // Bluff and challenge: a new challenge starts an empty answer.
            if position.challenged != challenged { answer = "" }
            challenged = position.challenged
            if !challenged { challenger = nil }
        case let .letter(letter, made):
            // Superghost: the letter went at the front when the new fragment starts with it before the old one.
            let before = fragment
            fragment = made ?? (fragment + letter.description)
            lastAtFront = superghost && !before.isEmpty
                && fragment.lowercased() == (letter.description + before).lowercased()
                && fragment.lowercased() != (before + letter.description).lowercased()
            out.played = BoardOutcome.Played(label: letter.description, key: letter.character)
        case .challenge(let player):
            challenger = player
        }
        return out
    }

    /// GAME: the board a game (or the next round of a match) starts with.
    /// `previous` is the Ghost board this client showed for the same game:
    /// the same round again (a RESUME) keeps what the screen showed; the
    /// next round of a match says how the last one ended.
    static func started(_ header: GhostLines.Header, previous: GhostState?, sameRound: Bool) -> GhostState {
        var ghost = GhostState()
        ghost.match = header.match
        ghost.superghost = header.superghost
        ghost.challenge = header.challenge
        if let letters = header.ghost { ghost.letters = letters }
        if sameRound, let o = previous {
            ghost.fragment = o.fragment
            ghost.previousRound = o.previousRound
            ghost.challenged = o.challenged
            ghost.challenger = o.challenger
            ghost.answer = o.answer
        } else if !sameRound {
            ghost.previousRound = previous?.roundEnd
        }
        return ghost
    }
}
