import Foundation
import Testing
import GameKit
import GhostWire
@testable import GhostProtocol
import HangmanWire
import WordLists

/// `CommandParser.parseASCII` (the byte-level parser every ASCII line takes)
/// answers exactly as `parseGeneral` (the parser it replaced, still taken by
/// every other line): the same command, or the same `ERR` code and text.
@Suite struct CommandParserASCIITests {
    /// Lines of every verb, with good, bad, missing and extra arguments.
    static let corpus: [String] = [
        "", " ", "\t", "a", " a ", "\ta\t", "A", "1", "@", " 1 ", "ab", "a b",
        "NAME alice", "name alice", "NAME alice secret", "NAME alice  two words", "NAME", "NAME a.b", "NAME abcdefghijklmnopq",
        "NAME alice\t", "NAME\talice", "REGISTER", "REGISTER secret", "REGISTER  two  words ", "PASSWORD", "PASSWORD new one",
        "NAMES", "NAMES 5", "NAMES al", "NAMES al 5", "NAMES prefix=al", "NAMES 0", "NAMES 101", "NAMES x y z",
        "LANG", "LANG en", "LANG fr", "LANG en fr", "SET", "SET lang en", "SET a", "SETTINGS", "SETTINGS x",
        "SEEK", "SEEK game=ghost", "SEEK game=hangman", "SEEK game=ghost game=ghost", "SEEK rated=yes", "SEEK bogus",
        "NEW", "new", "NeW", "NEW game=ghost", "NEW game=hangman mode=fair length=any misses=8", "NEW game=nope",
        "NEW rounds=3", "NEW rounds=0", "NEW bot=easy", "NEW bot", "NEW first=me", "NEW watch=no", "NEW clock=60",
        "NEW clock=60+5", "NEW range=100", "NEW variant=x", "NEW min=4", "NEW min=4 min=5", "NEW =", "NEW a=", "NEW =b",
        "JOIN", "JOIN abcd", "join ABCD", "JOIN ab cd", "JOIN ab-cd", "LETTER", "LETTER a", "LETTER ab", "LETTER a front",
        "LETTER a back", "letter  a", "SOLVE", "SOLVE word", "SOLVE two words", "SOLVE a/b", "WORD", "WORD abc", "WORD a b",
        "CHALLENGE", "CHALLENGE x", "CONCEDE", "LEAVE", "LEAVE now", "RESTART", "ACCEPT", "DECLINE", "RESUME", "RESUME tok",
        "RESUME tok en", "CLAIM", "REMATCH", "GAMES", "GAMES 5", "GAMES x", "WATCH", "WATCH 5", "WATCH x", "UNWATCH",
        "MOVES", "MOVES 5", "REVIEW", "REVIEW 5", "SCORES", "SCORES 5", "SCORES 500", "SCORES game=ghost", "SCORES x",
        "TOP", "TOP 5", "TOP game=ghost", "TOP variant=x", "TOP variant=", "PROFILE", "PROFILE alice", "PROFILE a b",
        "HISTORY", "HISTORY 5", "HISTORY alice 5", "HINT", "STATS", "HELP", "HELP x", "PING", "PING x", "QUIT", "QUIT x",
        "CHALLENGEX", "CHALLENGES", "KIND-MOVE", "kind-move", "VOWEL", "BUY a", "nonsense", "N", "NAMEalice",
        "ABCDEFGHIJ", "\u{7F}", "NAME al\u{1B}ice", "PING\r", "NEW\u{0}", "\u{0}", "LETTER\u{0}a",
    ]

    static func check(_ line: [UInt8]) {
        for kind in [nil, GameKind.ghost] as [GameKind?] {
            let ascii = CommandParser.parseASCII(line, defaultKind: kind)
            #expect(ascii == CommandParser.parseGeneral(line, defaultKind: kind), "\(line)")
            #expect(CommandParser.parse(line, defaultKind: kind) == CommandParser.parseGeneral(line, defaultKind: kind))
        }
    }

    @Test func corpusAgrees() {
        for text in Self.corpus {
            Self.check(Array(text.utf8))
            // The same line with other spacing and case.
            Self.check(Array(("  " + text + " \t").utf8))
            Self.check(Array(text.uppercased().utf8))
            Self.check(Array(text.lowercased().utf8))
            Self.check(Array(text.replacingOccurrences(of: " ", with: "\t").utf8))
            Self.check(Array(text.replacingOccurrences(of: " ", with: "  ").utf8))
        }
    }

    /// Every line of the corpus is taken by the ASCII parser (none is left to the other).
    @Test func asciiLinesTakeTheBytePath() {
        for text in Self.corpus {
            #expect(CommandParser.parseASCII(Array(text.utf8), defaultKind: nil) != nil, "\(text)")
        }
        #expect(CommandParser.parseASCII(Array("NAME \u{FC}".utf8), defaultKind: nil) == nil)
        #expect(CommandParser.parseASCII([0x4E, 0x45, 0x57, 0x20, 0xFF], defaultKind: nil) == nil)
    }

    /// Random lines over an alphabet of the verbs' letters, digits, `=`, `+`,
    /// `-`, spaces, tabs and control bytes (a fixed seed: the same lines each run).
    @Test func randomLinesAgree() {
        var rng = SplitMix64(seed: 29)   // WordLists': the same lines each run
        let words = ["NEW", "JOIN", "NAME", "name", "LETTER", "SEEK", "game=ghost", "game=hangman", "rounds=3", "5", "x",
                     "a", "SCORES", "TOP", "NAMES", "PASSWORD", "REGISTER", "SOLVE", "SET", "lang", "=", "clock=60+5", "PING"]
        let bytes: [UInt8] = Array("AEGIMNOSTWaegimnost019=+-/ \t".utf8) + [0x00, 0x0D, 0x1B, 0x7F]
        for _ in 0..<20_000 {
            var line: [UInt8] = []
            for _ in 0..<Int(rng.next() % 5) {
                if rng.next() % 3 == 0 {
                    for _ in 0..<Int(rng.next() % 6) { line.append(bytes[Int(rng.next() % UInt64(bytes.count))]) }
                } else {
                    line += Array(words[Int(rng.next() % UInt64(words.count))].utf8)
                }
                if rng.next() % 4 != 0 { line.append(rng.next() % 5 == 0 ? 0x09 : 0x20) }
            }
            Self.check(line)
        }
    }
}
