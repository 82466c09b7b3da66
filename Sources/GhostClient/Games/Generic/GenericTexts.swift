import GhostProtocol

/// The generic screen's words (Games/Generic), in both languages. What a
/// kind this client has no code for says itself (its rows' labels, its
/// moves' help, its summary) is the server's, in the game's language.
public struct GenericTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    private var dutch: Bool { code == "nl" }

    /// The turn's line on the generic screen.
    var genericYourTurn: String { dutch ? "Jij bent aan de beurt" : "Your turn" }
    /// While both players may move, to a watcher.
    func genericBothToMove(_ a: String, _ b: String) -> String { dutch ? "\(a) en \(b) zijn aan zet" : "\(a) and \(b) to move" }
    /// A game that ended in a draw.
    var itsADraw: String { dutch ? "Gelijkspel!" : "It is a draw!" }

    /// Above the moves offered.
    var genericMovesTitle: String { dutch ? "Je zetten:" : "Your moves:" }

    /// The field of a move that takes a word ("Word: ant_").
    var genericWordLabel: String { dutch ? "Woord: " : "Word: " }
    /// What a move that takes a letter or a word shows after its verb.
    var genericTakesWord: String { dutch ? "<woord>" : "<word>" }
    var genericTakesLetter: String { dutch ? "<letter>" : "<letter>" }

    /// Before the first VIEW answer.
    var genericLoading: String { dutch ? "Het bord wordt opgevraagd…" : "Asking the server for the board…" }

    /// The generic screen's key help: with a word to type, with only moves to choose, and while the other moves.
    var genericHelpWord: String {
        dutch ? "a–z typen · ↑/↓ zet · Enter sturen · Esc menu · Ctrl-C stoppen (het spel wacht op je)"
            : "a–z type · ↑/↓ move · Enter send · Esc menu · Ctrl-C quit (the game waits for you)"
    }
    var genericHelpLetter: String {
        dutch ? "a–z letter spelen · ↑/↓ zet · Enter sturen · Esc menu · Ctrl-C stoppen (het spel wacht op je)"
            : "a–z play a letter · ↑/↓ move · Enter send · Esc menu · Ctrl-C quit (the game waits for you)"
    }
    var genericHelpMoves: String {
        dutch ? "↑/↓ zet · Enter sturen · Esc menu · Ctrl-C stoppen (het spel wacht op je)"
            : "↑/↓ move · Enter send · Esc menu · Ctrl-C quit (the game waits for you)"
    }
    var genericHelpWait: String {
        dutch ? "Esc menu · Ctrl-C stoppen (het spel wacht op je)" : "Esc menu · Ctrl-C quit (the game waits for you)"
    }

    /// A kind's move refused in the server's words (a code the client has no words for).
    func kindRefused(_ text: String) -> String { dutch ? "Geweigerd: \(text)" : "Refused: \(text)" }

    /// "Play the computer" chosen for a kind the server plays without one.
    func noComputer(_ name: String) -> String {
        dutch ? "Deze server speelt \(name) niet tegen de computer." : "This server has no computer to play \(name)."
    }

    /// The main menu's `?` for a kind the client has no code for: it has no
    /// rules page here (the games panel says what the game is); the game
    /// offers the moves. Two rows at most at 60 columns, a name of 32.
    func kindRules(_ name: String) -> String {
        dutch ? "Geen spelregels voor \(name): het spel biedt je zetten aan." : "No rules page for \(name): its moves are offered in the game."
    }

    /// Enter on a move that takes a word, before a word was typed.
    var typeAWord: String { dutch ? "Typ eerst een woord, dan Enter." : "Type a word first, then Enter." }

    /// The replay of a kind without a position to draw: its moves, one a line.
    func replayMoveLine(_ n: Int, _ who: String, _ play: String) -> String { "\(n). \(who): \(play)" }
}

extension Strings {
    /// The generic screen's texts in this language.
    public var generic: GenericTexts { GenericTexts(code: code) }

    /// An announced kind's texts on the screens all games share.
    func genericTexts(_ name: String) -> GameTexts {
        let t = self
        return GameTexts(name: name, typeName: name, quickMatch: t.menuQuickMatch, newPrivate: t.menuNewPrivate,
                         rules: t.menuRules, scores: t.menuScores,
                         seeking: { t.code == "nl" ? "Op zoek naar een tegenstander voor \(name) in het \($0)…" : "Looking for an opponent for \(name) in \($0)…" },
                         queue: { _ in name }, setup: { _ in name })
    }
}
