import GameKit
import HangmanWire

/// How a Hangman game is shown to a client that does not know Hangman
/// (`VIEW`): the pattern in cells, the letters missed, the misses left out
/// of those allowed, the setter's own word to the setter only; the guesser
/// guesses a letter or the answer, a duel's setter first sets the word.
extension HangmanKind {
    public func view(of game: any Game, match: Match, for viewer: Viewer, language: String) -> GameView {
        guard let hangman = game as? HangmanGame else { return defaultView(of: game, for: viewer) }
        let t = HangmanViewTexts(dutch: language == "nl")
        let fields = hangman.isOver ? hangman.finalFields + hangman.publicFields : hangman.publicFields
        func value(_ key: String) -> String { fields.first { $0.key == key }?.value ?? "" }
        let missed = value(HangmanWire.Key.missed)
        var rows = [
            ViewRow(key: HangmanWire.Key.pattern, shape: .cells, value: hangman.pattern, label: t.pattern),
            ViewRow(key: HangmanWire.Key.missed, shape: .cells, value: missed == HangmanWire.noneMissed ? "" : missed, label: t.missed),
            ViewRow(key: HangmanWire.Key.left, shape: .count, value: String(hangman.left), max: hangman.misses, label: t.left),
        ]
        // The answer: once the game is over to everyone, before that to a duel's setter only.
        let answer = hangman.isOver ? value(HangmanWire.Key.word) : viewer.seat.flatMap { seat in
            hangman.privateFields(for: seat).first { $0.key == HangmanWire.Key.word }?.value
        }
        if let answer, !answer.isEmpty {
            rows.append(ViewRow(key: HangmanWire.Key.word, shape: .cells, value: answer, label: hangman.isOver ? t.answer : t.yourWord))
        }
        guard !hangman.isOver, viewer.seat == hangman.toMove else { return GameView(rows: rows, moves: []) }
        if hangman.mode == .duel && hangman.toMove == 0 {
            return GameView(rows: rows, moves: [ViewMove(verb: "WORD", takes: .word, help: t.setWord)])
        }
        return GameView(rows: rows, moves: [ViewMove(verb: "LETTER", takes: .letter, help: t.guessLetter),
                                            ViewMove(verb: "SOLVE", takes: .word, help: hangman.mode == .phrase ? t.solvePhrase : t.solveWord)])
    }
}

/// Hangman's words for `VIEW`, in the game's language.
struct HangmanViewTexts {
    let dutch: Bool
    var pattern: String { dutch ? "Te raden" : "To guess" }
    var missed: String { dutch ? "Gemist" : "Missed" }
    var left: String { dutch ? "Nog te missen" : "Misses left" }
    var answer: String { dutch ? "Het antwoord" : "The answer" }
    var yourWord: String { dutch ? "Jouw woord" : "Your word" }
    var setWord: String { dutch ? "het woord kiezen dat de ander raadt" : "choose the word the other player guesses" }
    var guessLetter: String { dutch ? "een letter raden" : "guess a letter" }
    var solveWord: String { dutch ? "het hele woord raden (fout kost een misser)" : "guess the whole word (wrong costs a miss)" }
    var solvePhrase: String { dutch ? "de hele zin raden, / tussen de woorden (fout kost een misser)" : "guess the whole phrase, / between its words (wrong costs a miss)" }
}
