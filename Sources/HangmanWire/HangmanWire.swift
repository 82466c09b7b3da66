import GameKit

/// Hangman's part of the wire, spelt once (as `GhostWire` is Ghost's): its
/// kind name, its modes, the keys of its game fields, its reasons for the
/// end of a game and the names of its boards. The server's Hangman kind
/// (HangmanCore) writes its lines with these, and the client's Hangman
/// module reads them with the same. Pure and small: the client links this,
/// not the word lists or the setters.
public enum HangmanWire {
    /// The kind's name on the wire (`game=hangman`) and in the store.
    @inlinable public static var kind: String { "hangman" }
    /// The computer's seat name when it sets (or guesses) the word.
    public static let computerName = "bot-hangman"

    /// How the setter plays (`mode=` of NEW, GAME, SCORE).
    public enum Mode: String, Sendable, CaseIterable {
        /// The computer sets and never commits: after each guess it keeps the
        /// largest family of words that fit what it has shown.
        case evil
        /// The computer picks a word at the start and keeps it.
        case fair
        /// The computer picks a phrase at the start and keeps it.
        case phrase
        /// Two people: seat 0 sets a word, seat 1 guesses it.
        case duel
    }

    /// Hangman's move verbs (`HangmanKind.moveVerbs`), as the client sends them.
    public enum Verb {
        /// The guesser's letter, `LETTER <c>` (GameKit's `MoveVerb.letter`).
        public static let letter = MoveVerb.letterName
        /// The guesser's whole answer, `SOLVE <answer>`.
        public static let solve = "SOLVE"
        /// A duel's setter's word, `WORD <word>`.
        public static let word = "WORD"
    }

    /// The keys of Hangman's game fields (GAME, TURN, MOVE, OVER, OK
    /// LETTER/SOLVE/WORD, SCORE, RANK, PLY), in one place.
    public enum Key {
        @inlinable public static var mode: String { "mode" }
        /// The answer's length in letters; `any` while a duel's is open.
        @inlinable public static var length: String { "length" }
        @inlinable public static var misses: String { "misses" }
        @inlinable public static var pattern: String { "pattern" }
        /// The letters guessed that are not in the answer; `-` for none.
        @inlinable public static var missed: String { "missed" }
        @inlinable public static var left: String { "left" }
        @inlinable public static var letter: String { "letter" }
        @inlinable public static var hit: String { "hit" }
        /// A whole answer (a phrase with `/` between its words).
        @inlinable public static var word: String { "word" }
        @inlinable public static var mistakes: String { "mistakes" }
        @inlinable public static var lang: String { "lang" }
        // REVIEW's PLY lines.
        @inlinable public static var play: String { "play" }
        @inlinable public static var family: String { "family" }
        @inlinable public static var candidates: String { "candidates" }
        @inlinable public static var best: String { "best" }
    }

    /// `length=any`: a duel whose length the setter's word sets.
    @inlinable public static var anyLength: String { "any" }
    /// `missed=-`: no letter missed.
    @inlinable public static var noneMissed: String { "-" }
    /// `hit=yes|no`.
    @inlinable public static var yes: String { "yes" }
    @inlinable public static var no: String { "no" }

    /// The best-games list of solved games of a mode (`SCORES game=hangman mode=<mode>`).
    public static func bestGamesBoard(_ mode: Mode) -> String { kind + "-" + mode.rawValue }
    /// The rating board of duels, the kind's one rated variant.
    public static let duelRatingBoard = kind + "-" + Mode.duel.rawValue
    /// The rating boards by variant (the mode): duels only.
    public static let ratingBoards: [String: String] = [Mode.duel.rawValue: duelRatingBoard]
}

/// Hangman's reasons for the end of a game (left and abandoned come from GameKit).
extension EndReason {
    /// The guesser found the answer: the setter (seat 0) loses.
    public static let solved = EndReason(rawValue: "solved")
    /// The guesser ran out of misses: the guesser (seat 1) loses.
    public static let hanged = EndReason(rawValue: "hanged")
}

extension GameKind {
    /// Hangman: guess a word (or a phrase) letter by letter.
    public static let hangman = GameKind(rawValue: HangmanWire.kind)
}
