import GhostProtocol

/// Hangman's child reducer (TCA's `Scope`): TURN and MOVE change the Hangman
/// board, and nothing else; what the table around it must do (the last
/// move, the offer a guess cancels) comes back as a `BoardOutcome` for the
/// table (`TableFeature.turn`, `.move`).
extension HangmanBoard: GameBoard {
    /// What a Hangman line says, read by `HangmanLines.position`.
    enum Event: Equatable {
        /// TURN: the pattern, the wrong letters and the misses left.
        case turn(HangmanLines.Position)
        /// MOVE: the same, with the guess and whether it hit.
        case move(HangmanLines.Position)
    }

    mutating func reduce(_ line: BoardLine) -> BoardOutcome {
        switch line {
        case .turn(let fields): reduce(.turn(HangmanLines.position(fields)))
        case .move(_, let fields): reduce(.move(HangmanLines.position(fields)))
        }
    }

    mutating func reduce(_ event: Event) -> BoardOutcome {
        var out = BoardOutcome()
        switch event {
        case .turn(let p):
            apply(p)
        case .move(let p):
            apply(p)
            if let guess = p.guess, let hit = p.hit { lastGuess = LastGuess(guess: guess, hit: hit) }
            if let guess = p.guess, p.hit == false, guess.count > 1 { wrongWords.append(guess) }
            out.played = BoardOutcome.Played(label: p.guess ?? "")
        }
        return out
    }

    /// The position a line says (TURN, MOVE, OK WORD): what it leaves out stays.
    mutating func apply(_ p: HangmanLines.Position) {
        if let pattern = p.pattern { self.pattern = pattern }
        // An open duel's length comes with the word's first pattern.
        if length == 0 { length = pattern.count(where: { $0 != "/" && $0 != "'" && $0 != "-" }) }
        if let missed = p.missed { self.missed = missed }
        if let left = p.left { self.left = left }
    }

    /// GAME of the same game again (a RESUME): keep what the screen showed until TURN.
    mutating func resume(from old: HangmanBoard) {
        pattern = old.pattern
        missed = old.missed
        left = old.left
        lastGuess = old.lastGuess
        word = word ?? old.word
    }
}
