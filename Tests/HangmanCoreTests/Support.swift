import Foundation
import Testing
import WordLists
import HangmanCore
import GameKit

/// The package root: this file is Tests/HangmanCoreTests/Support.swift.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The repository's English list, loaded once; nil when unreadable (tests `#require` it).
let englishWords: WordList? = try? WordList(contentsOfFile:
    packageRoot.appendingPathComponent("Dictionaries/en.txt").path)
let englishKind: HangmanKind? = englishWords.map {
    HangmanKind(dictionaries: Dictionaries(lists: ["en": $0]), phrases: [:])
}

/// A kind over a hand-made English list (and phrases).
func kind(_ words: [String], phrases: [String] = []) -> HangmanKind {
    HangmanKind(dictionaries: Dictionaries(lists: ["en": WordList(words: words)]),
                phrases: phrases.isEmpty ? [:] : ["en": phrases])
}

/// A new game on a hand-made list; fails the test when there is none.
func game(_ words: [String], _ mode: HangmanMode, length: Int, misses: Int = 8, seed: UInt64 = 1,
          phrases: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> HangmanGame {
    try #require(kind(words, phrases: phrases).game(language: "en", mode: mode, length: length, misses: misses, seed: seed),
                 sourceLocation: sourceLocation)
}

extension HangmanGame {
    /// The guesser plays `text`: one letter, or a SOLVE.
    @discardableResult
    mutating func guess(_ text: String) throws(MoveError) -> Outcome? {
        try play(text.count == 1 && Letter(text) != nil ? .letter(Letter(text)!) : .word(text), by: 1)
    }

    /// The public fields as one line: `pattern=__e missed=c left=7`.
    var line: String { publicFields.map(\.description).joined(separator: " ") }
}

func line(_ fields: [Field]) -> String { fields.map(\.description).joined(separator: " ") }
