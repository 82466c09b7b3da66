import GameKit
import GhostProtocol

/// What a room's play changes in the room itself, once the store has it
/// (moved here from Lobby+Games.swift, now GamePlay.swift): a move, the next round of a match,
/// a restarted round, and the protocol's answer to a move the game refused.
/// The lobby stores first, then calls these, then tells the players.
extension Lobby.Room {
    /// A move by `seat` was stored (played on the room's game by `play`):
    /// a pending offer goes, and both seats may offer again, if
    /// `clearsOffer`; the turn's clock starts again. Runs for every move.
    @inline(__always)
    func played(by seat: Int, clearsOffer: Bool, now: Double) {
        if clearsOffer {
            offer = nil
            offerSpent = [false, false]
        }
        turnSince = now
        // Set only when they change: each set runs its observer, and
        // `play` touched the deadlines already.
        if claimAnnounced { claimAnnounced = false }
        if botDue != nil { botDue = nil }
        if bot(seat) == nil, !moved[seat] { moved[seat] = true }
    }

    /// A round of a match ended and the match goes on (stored): `next` is
    /// the new round, with the other seat to move first.
    func nextRound(_ next: any Game, match: Match, now: Double) {
        self.match = match
        setGame(next)
        turnSince = now
        claimAnnounced = false
    }

    /// The round was started again (stored), perhaps in another language:
    /// no offer pending or spent, the computer's move and the clock afresh.
    func restarted(_ game: any Game, match: Match, lang: String, now: Double) {
        self.lang = lang
        self.match = match
        setGame(game)
        botDue = nil
        offer = nil
        offerSpent = [false, false]
        turnSince = now
        claimAnnounced = false
    }

    /// The protocol's answer to a move the game refused.
    func refusal(_ error: MoveError) -> ServerLine {
        switch error {
        case .gameOver: return .error(.notInGame, "the game is over")
        case .notYourTurn: return .error(.notYourTurn, "it is \(names[game.toMove])'s turn")
        case .notAMove(let text): return .error(ErrorCode(kind.wrongMoveCode), text)
        case .refused(let code, let text): return .error(ErrorCode(code), text)
        }
    }
}
