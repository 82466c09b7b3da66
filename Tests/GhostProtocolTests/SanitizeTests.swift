import Testing
import WordLists
import GhostProtocol

/// Control characters are judged in one place; every use agrees with it.
@Suite struct SanitizeTests {
    @Test func whatIsAControl() {
        for v: UInt32 in [0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F] {
            #expect(Sanitize.isControl(v), "\(v)")
        }
        for v: UInt32 in [0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x2028, 0x1F47B] {
            #expect(!Sanitize.isControl(v), "\(v)")
        }
    }

    /// The byte-level check the parser uses agrees with the scalar-level one
    /// on every valid UTF-8 string built from a trap alphabet.
    @Test func byteCheckAgreesWithScalars() {
        let alphabet: [Unicode.Scalar] = ["a", " ", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
                                          "\u{C2}", "\u{E9}", "\u{100}", "\u{2028}", "\u{1F47B}", "\u{85}"]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<(rng.next() % 6) { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let text = String(s)
            let scalars = text.unicodeScalars.contains { Sanitize.isControl($0.value) && $0 != "\t" }
            #expect(Sanitize.containsControl(utf8: Array(text.utf8), allowingTab: true) == scalars, "\(Array(text.utf8))")
            #expect(Sanitize.containsControl(utf8: Array(text.utf8), allowingTab: false) == Sanitize.containsControl(text))
            #expect(!Sanitize.containsControl(Sanitize.strippingControls(text)))
            #expect(Sanitize.strippingControls(text, keepingTabs: true).unicodeScalars.allSatisfy { !Sanitize.isControl($0.value) || $0 == "\t" })
        }
    }

    @Test func writingValuesAndText() {
        var out: [UInt8] = []
        Sanitize.appendValue("a b\u{1B}c\u{85}d\u{E9}", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "a_b_c_d\u{E9}")
        out = []
        Sanitize.appendText("a b\u{1B}c\u{85}d\t\u{E9}", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "a b c d \u{E9}")
        #expect(Sanitize.strippingControls("x\u{1B}[2Jy\u{9B}\tz") == "x[2Jyz")
        #expect(Sanitize.strippingControls("x\u{1B}[2Jy\u{9B}\tz", keepingTabs: true) == "x[2Jy\tz")
    }
}
