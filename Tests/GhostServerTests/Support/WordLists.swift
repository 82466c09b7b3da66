import Foundation
import GhostCore
import TestSupport
import WordLists
import GameKit

/// The package's real word lists, loaded once (lazily, thread-safe) for tests
/// that pick letters or check premises against what the daemon uses.
enum WordLists {
    static let en: WordList = load("en")
    static let nl: WordList = load("nl")

    private static func load(_ code: String) -> WordList {
        let path = DaemonProcess.dictionariesFolder + "/\(code).txt"
        do {
            return try WordList(contentsOfFile: path)
        } catch {
            fatalError("cannot load \(path): \(error)")
        }
    }

    /// Letters c such that `fragment + c` keeps a game alive on `words`: some
    /// longer word starts with it, and it is not a word of 4 or more letters.
    static func safeLetters(after fragment: String, in words: WordList) -> [Character] {
        Letter.all.map(\.character).filter { c in
            let next = fragment + String(c)
            return words.isProperlyExtended(next) && !(next.count >= GhostRules.losingWordLength && words.isWord(next))
        }
    }
}
