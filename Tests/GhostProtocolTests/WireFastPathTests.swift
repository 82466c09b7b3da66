import Testing
import WordLists
import GhostProtocol
import GameKit

/// The fast paths of rendering write exactly what the plain
/// rules say: a value's spaces and controls as `_`, free text's controls as
/// spaces, each scalar checked; numbers in decimal.
@Suite struct WireFastPathTests {
    /// The rule, scalar by scalar, with nothing fast about it.
    private func reference(_ s: String, replacement: Character, replacingSpace: Bool) -> String {
        String(s.unicodeScalars.map { Sanitize.isControl($0.value) || (replacingSpace && $0 == " ") ? replacement : Character($0) })
    }

    @Test("Values and text from a trap alphabet, short (inline) and long, render as the scalar rule says")
    func sanitizeAgreesWithTheRule() {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "~", "!", " ", "\t", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}",
                                          "\u{9F}", "\u{A0}", "\u{C2}", "\u{E9}", "\u{2028}", "\u{1F47B}"]
        var rng = SplitMix64(seed: 29)
        for round in 0..<6_000 {
            var s = String.UnicodeScalarView()
            // Mostly one kind of byte, so that clean strings of every length come up too.
            let kinds = round % 3 == 0 ? alphabet.count : 4
            for _ in 0..<(rng.next() % 40) { s.append(alphabet[Int(rng.next() % UInt64(kinds))]) }
            let text = String(s)
            var value: [UInt8] = [0x3E]
            Sanitize.appendValue(text, to: &value)
            #expect(String(decoding: value, as: UTF8.self) == ">" + reference(text, replacement: "_", replacingSpace: true), "\(Array(text.utf8))")
            var free: [UInt8] = []
            Sanitize.appendText(text, to: &free)
            #expect(String(decoding: free, as: UTF8.self) == reference(text, replacement: " ", replacingSpace: false), "\(Array(text.utf8))")
            // The same through a line, written on the stack (LineBuffer's one-pass check and copy).
            let asValue = reference(text, replacement: "_", replacingSpace: true)
            #expect(ServerLine.move(id: 1, player: text, fields: [Field("k", text)]).rendered == "MOVE id=1 player=\(asValue) k=\(asValue)",
                    "\(Array(text.utf8))")
            let asText = reference(text, replacement: " ", replacingSpace: false)
            #expect(ServerLine.info(text).rendered == (text.isEmpty ? "INFO" : "INFO " + asText), "\(Array(text.utf8))")
        }
    }

    @Test("Every scalar up to U+00FF, at every place of a clean value of 1 to 17 bytes, renders as the rule says (the word-wide check)")
    func everyByteAtEveryPlace() {
        for length in 1...17 {
            for at in 0..<length {
                for v in UInt32(0)...0xFF {
                    guard let odd = Unicode.Scalar(v) else { continue }
                    var s = String.UnicodeScalarView()
                    for i in 0..<length { s.append(i == at ? odd : Unicode.Scalar(UInt8(0x61 + i))) }
                    let text = String(s)
                    let asValue = reference(text, replacement: "_", replacingSpace: true)
                    #expect(ServerLine.nameEntry(text).rendered == "NAME name=" + asValue, "\(length) \(at) \(v)")
                    let asText = reference(text, replacement: " ", replacingSpace: false)
                    #expect(ServerLine.info(text).rendered == "INFO " + asText, "\(length) \(at) \(v)")
                }
            }
        }
    }

    @Test("Numbers render in decimal, one digit, many, negative, and the extremes")
    func decimals() {
        for n in [0, 7, 9, 10, 99, 100, 12_345, -1, -9, -10, -12_345, Int.max, Int.min] {
            #expect(ServerLine.watchers(id: n, count: n).rendered == "WATCHERS id=\(n) count=\(n)")
        }
    }

    @Test("GAME's record= renders as HeadToHead's description, without the string (every sign and size)")
    func recordAsItsDescription() {
        for (mine, theirs) in [(0, 0), (2, 1), (10, 0), (123, 4_567), (-1, 3), (Int.max, Int.min)] {
            let record = HeadToHead(mine: mine, theirs: theirs)
            let line = ServerLine.game(id: 7, kind: nil, lang: "en", players: ["ann", "bob"], token: nil, round: 1, bot: nil,
                                       fields: [], record: record, clock: 30)
            #expect(line.rendered == "GAME id=7 lang=en players=ann,bob round=1 record=\(record.description) clock=30")
        }
    }

    @Test("Keywords are written from the source as they were: every reply without fields, and OK LETTER")
    func keywords() {
        #expect(ServerLine.ok(.ping).rendered == "OK PING")
        #expect(ServerLine.ok(.settings).rendered == "OK SETTINGS")
        #expect(ServerLine.ok(.other(verb: "LETTER", fields: [])).rendered == "OK LETTER")
        #expect(ServerLine.info("x").rendered == "INFO x")
        #expect(ServerLine.bye(.quit, "goodbye").rendered == "BYE quit goodbye")
    }

    @Test("A line longer than the stack buffer is written whole, at every length around its size, after what the array held")
    func linesPastTheStackBuffer() {
        // "INFO " + text + CRLF: 7 bytes besides the text; the buffer holds 1,024.
        for length in [0, 1, 500, 1_010, 1_016, 1_017, 1_018, 1_019, 1_024, 1_025, 3_000] {
            let text = String((0..<length).map { i -> Character in i % 7 == 3 ? " " : i % 13 == 5 ? "\u{7}" : "x" })
            var out: [UInt8] = [0x41, 0x42]
            ServerLine.info(text).appendWire(to: &out)
            let expected = "AB" + (text.isEmpty ? "INFO" : "INFO " + text.replacingOccurrences(of: "\u{7}", with: " ")) + "\r\n"
            #expect(String(decoding: out, as: UTF8.self) == expected, "length \(length)")
        }
        // A value past the buffer on a line of fields.
        let long = String(repeating: "n", count: 2_000)
        #expect(ServerLine.move(id: 1, player: long, fields: [Field("letter", "a b")]).rendered == "MOVE id=1 player=\(long) letter=a_b")
    }
}
