import Testing
@testable import GhostClient

@Suite("Keys from terminal bytes")
struct KeyDecoderTests {
    func decode(_ bytes: [UInt8]) -> [Key] {
        var d = KeyDecoder()
        return d.feed(bytes)
    }

    @Test("Letters, digits, Enter (CR, LF, CRLF), Tab, Backspace, Ctrl-C, Ctrl-D")
    func plain() {
        #expect(decode(Array("aZ7".utf8)) == [.char("a"), .char("Z"), .char("7")])
        #expect(decode([0x0D, 0x0A, 0x0D, 0x0A, 0x0A]) == [.enter, .enter, .enter])
        #expect(decode([0x09, 0x7F, 0x08, 0x03, 0x04, 0x01]) == [.tab, .backspace, .backspace, .ctrlC, .ctrlD, .other])
    }

    @Test("Arrows (CSI and SS3), Home/End, Delete, PageUp/Down, unknown sequences")
    func sequences() {
        #expect(decode(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(decode(Array("\u{1B}OA\u{1B}OD".utf8)) == [.up, .left])
        #expect(decode(Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[5~\u{1B}[6~".utf8))
                == [.home, .end, .home, .end, .delete, .pageUp, .pageDown])
        #expect(decode(Array("\u{1B}[1;5C\u{1B}[15~x".utf8)) == [.right, .other, .char("x")])
    }

    @Test("A lone ESC is the Esc key; held when more may follow, then flushed")
    func escape() {
        #expect(decode([0x1B]) == [.escape])
        #expect(decode([0x1B, 0x1B]) == [.escape, .escape])
        var d = KeyDecoder()
        #expect(d.feed([0x1B], final: false) == [])
        #expect(d.hasPending)
        #expect(d.feed([0x5B, 0x41], final: false) == [.up])
        #expect(d.feed([0x1B], final: false) == [])
        #expect(d.feed([], final: true) == [.escape])
        #expect(!d.hasPending)
        // Alt+x: Esc, then x.
        #expect(decode([0x1B, 0x78]) == [.escape, .char("x")])
    }

    @Test("UTF-8, also split across reads; invalid bytes become .other")
    func utf8() {
        #expect(decode(Array("é€".utf8)) == [.char("é"), .char("€")])
        var d = KeyDecoder()
        let bytes = Array("é".utf8)
        #expect(d.feed([bytes[0]], final: false) == [])
        #expect(d.feed([bytes[1]], final: false) == [.char("é")])
        #expect(decode([0xFF, 0x80, 0x61]) == [.other, .other, .char("a")])
        #expect(decode([0xC3]) == [.other])
    }

    @Test("Only a-z and A-Z are letters")
    func letters() {
        #expect(Key.char("a").letter == "a")
        #expect(Key.char("Q").letter == "q")
        for k in [Key.char("é"), .char("1"), .char("["), .char(" "), .enter, .up] { #expect(k.letter == nil) }
        #expect(Key.char("4").digit == 4)
        #expect(Key.char("a").digit == nil)
    }
}
