import Foundation
import GhostCore
import WordLists

/// The package root: this file is Tests/GhostCoreTests/DictionaryFiles.swift.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // GhostCoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root

func dictionaryPath(_ language: String) -> String {
    packageRoot.appendingPathComponent("Dictionaries").appendingPathComponent("\(language).txt").path
}

/// The repository's word lists, each loaded once (global lets are lazy and thread-safe).
/// Nil when the file cannot be read; tests `#require` them.
let englishWords: WordList? = try? WordList(contentsOfFile: dictionaryPath("en"))
let dutchWords: WordList? = try? WordList(contentsOfFile: dictionaryPath("nl"))
