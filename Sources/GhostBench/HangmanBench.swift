import GameKit
import GhostCore
import HangmanCore
import WordLists

/// `ghost-bench hangman`: the computer guesser (the letter in the most words
/// still possible) against the fair and the evil computer, per language,
/// length and misses allowed: its win rate and its average mistakes. Evil
/// play and this guesser are both deterministic, so one evil game per case
/// says it all; fair games are played with seeds 0..<games. Two tables: the
/// guesser as it plays duels, knowing every word of the language's list, then
/// the same guesser knowing only the common words the computer sets from.
enum HangmanBench {
    static let lengths = 4...12
    static let missesAllowed = [6, 8]

    static func run(folder: String, games: Int, seed: UInt64) throws {
        let dictionaries = try Dictionaries.load(folder: folder)
        let kind = HangmanKind(dictionaries: dictionaries, phrases: [:])
        print("hangman: the computer guesser against fair (\(games) seeded games a case) and evil (one game: both sides are deterministic)")
        print("the computer sets from: " + dictionaries.languages.map { "\($0) \(kind.secretWordCount(language: $0)) words" }.joined(separator: ", "))
        table(kind, dictionaries.languages, games: games, seed: seed, commonOnly: false)
        print("\nthe same guesser knowing only the words the computer sets from")
        table(kind, dictionaries.languages, games: games, seed: seed, commonOnly: true)
    }

    static func table(_ kind: HangmanKind, _ languages: [String], games: Int, seed: UInt64, commonOnly: Bool) {
        print("lang  length  misses   fair won  fair mistakes   evil    evil mistakes")
        for lang in languages {
            for length in lengths {
                for misses in missesAllowed {
                    var won = 0, mistakes = 0, played = 0
                    for g in 0..<games {
                        guard let r = play(kind, lang, .fair, length, misses, seed &+ UInt64(g), commonOnly) else { continue }
                        played += 1
                        if r.won { won += 1 }
                        mistakes += r.mistakes
                    }
                    let evil = play(kind, lang, .evil, length, misses, seed, commonOnly)
                    let fair = played == 0 ? "      -          -   " : String(format: "%7.1f%%  %8.2f     ",
                        100 * Double(won) / Double(played), Double(mistakes) / Double(played))
                    let evilText = evil.map { "\($0.won ? "won " : "lost")   \($0.mistakes)" } ?? "-"
                    print("\(lang.padding(toLength: 4, withPad: " ", startingAt: 0))  \(String(format: "%6d  %6d", length, misses))  \(fair)  \(evilText)")
                }
            }
        }
    }

    /// One game with the computer guessing until the end; nil if the case has no words.
    static func play(_ kind: HangmanKind, _ lang: String, _ mode: HangmanMode, _ length: Int, _ misses: Int,
                     _ seed: UInt64, _ commonOnly: Bool = false) -> (won: Bool, mistakes: Int)? {
        guard var game = kind.game(language: lang, mode: mode, length: length, misses: misses, seed: seed) else { return nil }
        while !game.isOver {
            guard let letter = commonOnly ? game.likeliestCommonLetter : game.likeliestLetter else { return nil }
            do { _ = try game.play(.letter(letter), by: 1) } catch { return nil }
        }
        return (game.outcome?.loser == 0, game.mistakes)
    }
}
