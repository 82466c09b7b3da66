import GhostProtocol
import GameKit

/// The high scores: Ghost's boards (SCORES), and an announced kind's
/// (Games/Generic).
enum ScoresFeature {
    static func scoresKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let count = st.highScores.scores?.count ?? 0
        switch key {
        case .down: st.highScores.scoresOffset = min(st.highScores.scoresOffset + 1, max(0, count - 1))
        case .up: st.highScores.scoresOffset = max(0, st.highScores.scoresOffset - 1)
        case .pageDown: st.highScores.scoresOffset = min(st.highScores.scoresOffset + 10, max(0, count - 1))
        case .pageUp: st.highScores.scoresOffset = max(0, st.highScores.scoresOffset - 10)
        case .home: st.highScores.scoresOffset = 0
        case .left where st.highScores.scoresKind != nil, .right where st.highScores.scoresKind != nil:
            let modes = GenericFeature.scoresKindModes(st)
            let i = modes.firstIndex(of: st.highScores.scoresKindMode) ?? 0
            st.highScores.scoresKindMode = modes[(i + (key == .right ? 1 : modes.count - 1)) % modes.count]
            loadScores(&st, &fx)
        case .left, .right:
            let boards = Board.all
            let i = boards.firstIndex(of: st.highScores.scoresBoard) ?? 0
            st.highScores.scoresBoard = boards[(i + (key == .right ? 1 : boards.count - 1)) % boards.count]
            loadScores(&st, &fx)
        case .escape, .enter, .backspace, .char("q"):
            let back = st.highScores.scoresReturn
            st.go(back)
            if back == .over { st.menuIndex = OverMenuItem.allCases.firstIndex(of: .scores) ?? 0 }
        default: break
        }
    }

    static func goToScores(_ st: inout ClientState, from origin: Screen, _ fx: inout [ClientEffect]) {
        st.highScores.scoresReturn = origin
        st.go(.scores)
        loadScores(&st, &fx)
    }

    /// Asks for the current board's high scores.
    static func loadScores(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.highScores.scores = nil
        st.highScores.scoresOffset = 0
        st.highScores.incomingScores = []
        if let kind = st.highScores.scoresKind {
            // An announced kind's board of wins (Games/Generic).
            st.send(.bestGames(ClientState.scoresLimit, game: kind, mode: st.highScores.scoresKindMode), &fx)
        } else {
            st.send(.scores(ClientState.scoresLimit, board: st.highScores.scoresBoard), &fx)
        }
    }

    /// SCORE lines, the answer to SCORES coming in (`LineOwner.scores`).
    static func line(_ st: inout ClientState, _ line: ServerLine) {
        guard case let .score(rank, name, wins, played, _) = line else { return }
        if st.highScores.incomingScores.count < 1_000 { st.highScores.incomingScores.append(ScoreEntry(rank: rank, name: name, wins: wins, played: played)) }
    }

    /// OK SCORES: the table shown.
    static func reply(_ st: inout ClientState) {
        st.highScores.scores = st.highScores.incomingScores
        st.highScores.incomingScores = []
    }

    /// SCORES refused.
    static func refused(_ st: inout ClientState, _ code: ErrorCode, _ text: String) {
        st.highScores.scores = []
        st.show(.serverError(code: code, text: text))
    }
}
