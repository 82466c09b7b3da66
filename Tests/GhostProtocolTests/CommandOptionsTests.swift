import Testing
import GameKit
@testable import GhostProtocol

/// The byte paths of option splitting (`CommandTable.asciiWord`,
/// `namesKind`, `options`, `ASCII.lowercased`) answer exactly as the
/// `Character` paths they stand in for, on ASCII words and on every other
/// kind: non-ASCII, `=` joined to a combining mark, `≠`, upper case, empty
/// keys and values.
@Suite struct CommandOptionsTests {
    /// Pieces the words are made of.
    static let pieces: [String] = [
        "", "=", "==", "game", "GAME", "GaMe", "game=", "Game=", "hangman", "HANGMAN", "ghost", "Ghost", "mode", "evil",
        "length", "8", "misses", "bot", "first", "rounds", "x", "é", "e\u{301}", "=\u{301}", "\u{301}", "≠", "=\u{338}",
        "ﬆ", "K", "\u{212A}", "ß", "\u{0600}", "🙂", " ", "\t", "-", "_", "1300-1700", "Z", "A", "a=A", "@", "[", "`", "{",
    ]

    /// Words of one to three pieces: every pair, and a spread of triples.
    static let words: [Substring] = {
        var words: [String] = pieces
        for a in pieces { for b in pieces { words.append(a + b) } }
        for (i, a) in pieces.enumerated() {
            for (j, b) in pieces.enumerated() where (i + j) % 3 == 0 {
                words.append(a + b + pieces[(i * 7 + j) % pieces.count])
            }
        }
        return words.map { Substring($0) }
    }()

    @Test func asciiWordSplitsAtTheFirstEquals() {
        for word in Self.words {
            let ascii = word.unicodeScalars.allSatisfy(\.isASCII)
            guard let split = CommandTable.asciiWord(word) else {
                #expect(!ascii, "\(Array(word.unicodeScalars))")
                continue
            }
            #expect(ascii)
            if let eq = word.firstIndex(of: "=") {
                #expect(split == .option(key: ASCII.lowercased(word[..<eq]), value: ASCII.lowercased(word[word.index(after: eq)...])))
            } else {
                #expect(split == .word)
            }
        }
        #expect(CommandTable.asciiWord("Mode=EVIL=x") == .option(key: "mode", value: "evil=x"))
        #expect(CommandTable.asciiWord("=") == .option(key: "", value: ""))
        #expect(CommandTable.asciiWord("évil") == nil)
    }

    @Test func namesKindAsTheStringTest() {
        for kind in [nil, GameKind(rawValue: "ghost"), GameKind(rawValue: "hangman"), GameKind(rawValue: "é"), GameKind(rawValue: "\u{212A}")] as [GameKind?] {
            for word in Self.words {
                #expect(CommandTable.namesKind(word, otherThan: kind) == CommandTable.namesKind(word, otherThan: kind, general: true),
                        "\(kind?.rawValue ?? "nil") \(Array(word.unicodeScalars))")
            }
        }
        #expect(CommandTable.namesKind("GAME=Hangman", otherThan: GameKind(rawValue: "ghost")))
        #expect(!CommandTable.namesKind("game=GHOST", otherThan: GameKind(rawValue: "ghost")))
        #expect(CommandTable.namesKind("game=", otherThan: GameKind(rawValue: "ghost")))
        #expect(!CommandTable.namesKind("game", otherThan: nil))
    }

    @Test func lowercasedFoldsOnlyAToZ() {
        for word in Self.words {
            let expected = String(decoding: word.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
            #expect(ASCII.lowercased(word) == expected)
            #expect(ASCII.lowercased(word.utf8) == expected)
            #expect(Array(ASCII.lowercased(word.utf8).utf8) == Array(expected.utf8))
        }
        #expect(ASCII.lowercased("GAME=HangMan") == "game=hangman")
        #expect(ASCII.lowercased("ﬆ\u{212A}É") == "ﬆ\u{212A}É")
    }

    /// JOIN's code and a verb spelled in any case: upper-cased in place, as
    /// the byte-by-byte map it stands in for (non-ASCII left as it is).
    @Test func uppercasedFoldsOnlyAToZ() {
        for word in Self.words {
            let expected = String(decoding: word.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
            #expect(ASCII.uppercased(word) == expected)
            #expect(ASCII.uppercased(String(word)) == expected)
            #expect(Array(ASCII.uppercased(word).utf8) == Array(expected.utf8))
            #expect(Array(ASCII.uppercased(word.dropFirst()).utf8) == Array(expected.utf8.dropFirst(word.first.map { String($0).utf8.count } ?? 0)))
        }
        #expect(ASCII.uppercased("k7x-Q2mz_ﬆ\u{212A}é") == "K7X-Q2MZ_ﬆ\u{212A}é")
        #expect(ASCII.uppercased(Substring("join abcdef").dropFirst(5)) == "ABCDEF")
    }

    /// Whole option lists, fast and general, with and without kind keys.
    @Test func optionsAsTheCharacterPath() {
        let words = Self.words
        let keys = ["rounds", "game", "mode", "length", "misses", "bot", "x"]
        var lists: [[Substring]] = words.map { [$0] }
        for (i, w) in words.enumerated() where i % 5 == 0 {
            lists.append([w, words[(i * 31 + 7) % words.count]])
            lists.append(["game=hangman", w, words[(i * 17 + 3) % words.count], "mode=evil"])
        }
        lists.append(["game=hangman", "mode=evil", "length=8", "misses=8"])
        lists.append(["GAME=hangman", "MODE=evil", "mode=fair"])
        for list in lists {
            for kindKeys in [false, true] {
                let fast = CommandTable.options(list, keys: keys, kindKeys: kindKeys)
                let general = CommandTable.options(list, keys: keys, kindKeys: kindKeys, general: true)
                #expect(String(describing: fast) == String(describing: general), "\(list.map { Array($0.unicodeScalars) })")
            }
        }
        let split = try? CommandTable.options(["GAME=hangman", "MODE=Evil", "n"], keys: keys, kindKeys: false).get()
        #expect(split?.options.all == [.init(key: "game", value: "hangman"), .init(key: "mode", value: "evil")])
        #expect(split?.words == ["n"])
    }
}
