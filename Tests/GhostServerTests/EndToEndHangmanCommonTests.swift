import Foundation
import Testing
import GhostCore
import TestSupport
import WordLists

/// Hangman's computer sets common words (Dictionaries/common), over a real
/// ghostd with the repository's Dictionaries folder, while SOLVE and a duel's
/// WORD still take any word of the language's list.
@Suite("EndToEnd: Hangman's common words", .ownThread, .hangLimit)
struct EndToEndHangmanCommonTests {
    static let common = try? WordList(contentsOfFile: DaemonProcess.dictionariesFolder + "/common/en.txt")

    /// The first word of the English list of `length` letters that is not a common word.
    static func rareWord(length: Int) throws -> String {
        let common = try #require(Self.common)
        let all = try String(contentsOfFile: DaemonProcess.dictionariesFolder + "/en.txt", encoding: .utf8)
        return try #require(all.split(separator: "\n").map(String.init).first { $0.count == length && !common.isWord($0) })
    }

    @Test("Evil and fair end on a common word; SOLVE with a rare word of the list is a wrong answer; length=2 has no common word but a duel may use it")
    func computerSetsCommonWords() throws {
        let common = try #require(Self.common)
        let rare = try Self.rareWord(length: 5)
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let c = try LineClient(port: daemon.port, label: "cora")
        try c.login("cora")

        try c.send("NEW game=hangman mode=evil length=2")
        try c.expect("ERR bad-value no common word of 2 letters in the en list for the computer to set", timeout: 30)
        try c.send("NEW game=hangman mode=fair length=2")
        try c.expect("ERR bad-value no common word of 2 letters in the en list for the computer to set")

        var id = 0
        for mode in ["evil", "fair"] {
            id += 1
            try c.send("NEW game=hangman mode=\(mode) length=5 misses=26")
            try c.expect("OK NEW game=hangman mode=\(mode) lang=en length=5 misses=26", timeout: 30)
            _ = try c.expectPrefix("GAME id=\(id) game=hangman lang=en players=bot-hangman,cora token=")
            try c.expect("TURN id=\(id) player=cora pattern=_____ missed=- left=26")
            try c.send("SOLVE \(rare)")
            try c.expect(lines: ["OK SOLVE word=\(rare) hit=no pattern=_____ missed=- left=25",
                                 "MOVE id=\(id) player=cora word=\(rare) hit=no pattern=_____ missed=- left=25",
                                 "TURN id=\(id) player=cora pattern=_____ missed=- left=25"])
            let (over, _) = try EndToEndHangmanTests.playOut(c, id: id)
            let word = EndToEndHangmanTests.field("word", over)
            #expect(over.contains(" reason=solved "), "\(over)")
            #expect(word.count == 5 && common.isWord(word), "\(mode): \(over)")
            _ = try c.expectPrefix("INFO ")
            _ = try c.expectPrefix("RANK ")
        }

        // A duel against the computer guesser: the setter may set a two-letter word.
        try c.send("NEW game=hangman mode=duel bot=guesser length=2 misses=8")
        try c.expect("OK NEW game=hangman mode=duel lang=en length=2 misses=8")
    }
}
