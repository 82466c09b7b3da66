import GhostProtocol
import HangmanWire
import GameKit

/// Hangman's game fields, as the client reads them (`GhostLines` is Ghost's).
/// Missing or malformed fields read as nil: the client then keeps what it had.
enum HangmanLines {
    typealias K = HangmanWire.Key
    /// Hangman's reasons in OVER (HangmanCore's; the seats add `left` and `abandoned`).
    static let solved = OverReason.solved
    static let hanged = OverReason.hanged

    /// GAME: `mode= length= misses=`, and the setter's own `word=`. A duel
    /// whose length the setter's word sets says `length=any` until then: 0.
    static func game(_ fields: [Field]) -> HangmanBoard? {
        guard let mode = fields[K.mode].flatMap(word), let length = fields[K.length] == HangmanWire.anyLength ? 0 : count(fields[K.length]),
              let misses = count(fields[K.misses]) else { return nil }
        var board = HangmanBoard(mode: mode, length: length, misses: misses)
        board.word = fields[K.word].flatMap(answer)
        return board
    }

    /// TURN, MOVE, OK LETTER/SOLVE/WORD: `pattern= missed= left=`, and what was guessed.
    struct Position: Equatable {
        var pattern: String?
        var missed: [Character]?
        var left: Int?
        /// A letter (`letter=`) or a whole answer (`word=`), and `hit=`.
        var guess: String?
        var hit: Bool?
    }

    static func position(_ fields: [Field]) -> Position {
        Position(pattern: fields[K.pattern].flatMap(pattern), missed: fields[K.missed].flatMap(missed),
                 left: count(fields[K.left]),
                 guess: fields[K.letter].flatMap { Letter($0)?.description } ?? fields[K.word].flatMap(answer),
                 hit: fields[K.hit].map { $0 == HangmanWire.yes })
    }

    /// OVER: the answer, the mistakes and the final pattern.
    static func over(_ fields: [Field]) -> (word: String?, mistakes: Int?, pattern: String?) {
        (fields[K.word].flatMap(answer), count(fields[K.mistakes]), fields[K.pattern].flatMap(pattern))
    }

    /// RANK board=hangman-… and SCORE: `word= mistakes= misses= mode= lang=`.
    static func score(rank: Int, name: String, _ fields: [Field]) -> HangmanScore? {
        guard let word = fields[K.word].flatMap(answer), let mistakes = count(fields[K.mistakes]) else { return nil }
        return HangmanScore(rank: rank, name: name, word: word, mistakes: mistakes, misses: count(fields[K.misses]),
                            mode: fields[K.mode].flatMap(self.word), lang: fields[K.lang].flatMap(self.word))
    }

    /// A pattern: `_`, letters, and `/ ' -`; at most 200 characters (the decoder's cap).
    static func pattern(_ value: String) -> String? {
        value.utf8.allSatisfy({ isLetter($0) || $0 == 0x5F || $0 == 0x2F || $0 == 0x27 || $0 == 0x2D })
            ? value.lowercased() : nil
    }

    /// An answer: letters with `/ ' -` between them.
    static func answer(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.allSatisfy({ isLetter($0) || $0 == 0x2F || $0 == 0x27 || $0 == 0x2D }) else { return nil }
        return value.lowercased()
    }

    /// `missed=aeq` → [a, e, q]; `-` or empty is none.
    static func missed(_ value: String) -> [Character]? {
        if value == HangmanWire.noneMissed || value.isEmpty { return [] }
        guard value.utf8.allSatisfy(isLetter) else { return nil }
        return value.lowercased().map { $0 }
    }

    /// A small count (0–999).
    static func count(_ value: String?) -> Int? {
        guard let value, (1...3).contains(value.utf8.count), let n = Int(value), n >= 0 else { return nil }
        return n
    }

    /// A word of the protocol: letters, digits and `-`.
    static func word(_ value: String) -> String? {
        guard (1...32).contains(value.utf8.count),
              value.utf8.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else { return nil }
        return value.lowercased()
    }

    static func isLetter(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) }
}
