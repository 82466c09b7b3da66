import GhostProtocol

/// The high scores: Ghost's boards (SCORES), and an announced kind's
/// (Games/Generic).
enum ScoresFeature {
    static func scoresKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let count = st.scores?.count ?? 0
        switch key {
        case .down: st.scoresOffset = min(st.scoresOffset + 1, max(0, count - 1))
        case .up: st.scoresOffset = max(0, st.scoresOffset - 1)
        case .pageDown: st.scoresOffset = min(st.scoresOffset + 10, max(0, count - 1))
        case .pageUp: st.scoresOffset = max(0, st.scoresOffset - 10)
        case .home: st.scoresOffset = 0
        case .left where st.scoresKind != nil, .right where st.scoresKind != nil:
            let modes = st.scoresKindModes
            let i = modes.firstIndex(of: st.scoresKindMode) ?? 0
            st.scoresKindMode = modes[(i + (key == .right ? 1 : modes.count - 1)) % modes.count]
            loadScores(&st, &fx)
        case .left, .right:
            let boards = Board.all
            let i = boards.firstIndex(of: st.scoresBoard) ?? 0
            st.scoresBoard = boards[(i + (key == .right ? 1 : boards.count - 1)) % boards.count]
            loadScores(&st, &fx)
        case .escape, .enter, .backspace, .char("q"):
            let back = st.scoresReturn
            st.go(back)
            if back == .over { st.menuIndex = OverMenuItem.allCases.firstIndex(of: .scores) ?? 0 }
        default: break
        }
    }

    static func goToScores(_ st: inout ClientState, from origin: Screen, _ fx: inout [ClientEffect]) {
        st.scoresReturn = origin
        st.go(.scores)
        loadScores(&st, &fx)
    }

    /// Asks for the current board's high scores.
    static func loadScores(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.scores = nil
        st.scoresOffset = 0
        st.incomingScores = []
        if let kind = st.scoresKind {
            // An announced kind's board of wins (Games/Generic).
            st.send(.bestGames(ClientState.scoresLimit, game: kind, mode: st.scoresKindMode), &fx)
        } else {
            st.send(.scores(ClientState.scoresLimit, board: st.scoresBoard), &fx)
        }
    }
}
