import Testing
import GhostProtocol

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
private func line(_ s: String) -> LineFramer.Frame { .line(Array(s.utf8)) }
private func repeated(_ n: Int, _ byte: UInt8 = 0x61) -> [UInt8] { [UInt8](repeating: byte, count: n) }

@Suite struct LineFramerTests {
    @Test func lfAndCrlf() {
        var f = LineFramer()
        #expect(f.feed(bytes("PING\n")) == [line("PING")])
        #expect(f.feed(bytes("PING\r\n")) == [line("PING")])
        #expect(f.pendingBytes == 0)
    }

    @Test func severalLinesInOneFeed() {
        var f = LineFramer()
        #expect(f.feed(bytes("NAME alice\r\nSEEK\np\r\nLET")) == [line("NAME alice"), line("SEEK"), line("p")])
        #expect(f.pendingBytes == 3)
        #expect(f.feed(bytes("TER x\r\n")) == [line("LETTER x")])
        #expect(f.pendingBytes == 0)
    }

    @Test func lineSplitByteByByte() {
        var f = LineFramer()
        var frames: [LineFramer.Frame] = []
        for b in bytes("NAME bob\r\nQUIT\n") {
            frames += f.feed([b])
        }
        #expect(frames == [line("NAME bob"), line("QUIT")])
    }

    @Test func crAndLfInSeparateFeeds() {
        var f = LineFramer()
        #expect(f.feed(bytes("PING\r")) == [])
        #expect(f.feed(bytes("\n")) == [line("PING")])
    }

    @Test func onlyTheCrBeforeLfIsDropped() {
        var f = LineFramer()
        #expect(f.feed(bytes("a\rb\r\r\n")) == [line("a\rb\r")])
    }

    @Test func blankLines() {
        var f = LineFramer()
        #expect(f.feed(bytes("\n\r\n\n")) == [.line([]), .line([]), .line([])])
        #expect(f.feed([]) == [])
    }

    @Test func exactly512BytesIncludingLFIsAccepted() {
        var f = LineFramer()
        #expect(LineFramer.defaultMaxLineBytes == 512)
        #expect(f.feed(repeated(511) + [0x0A]) == [.line(repeated(511))])
        #expect(f.feed(repeated(510) + [0x0D, 0x0A]) == [.line(repeated(510))])
        // Same, split across feeds.
        #expect(f.feed(repeated(300)) == [])
        #expect(f.feed(repeated(211)) == [])
        #expect(f.pendingBytes == 511)
        #expect(f.feed([0x0A]) == [.line(repeated(511))])
    }

    @Test func bytes513IsRejectedOnce() {
        var f = LineFramer()
        #expect(f.feed(repeated(512) + [0x0A] + bytes("PING\n")) == [.tooLong, line("PING")])
        #expect(!f.isDiscarding)
    }

    @Test func bytes511PlusCrlfIsRejected() {
        var f = LineFramer()
        #expect(f.feed(repeated(511) + [0x0D, 0x0A]) == [.tooLong])
        #expect(f.feed(bytes("PING\r\n")) == [line("PING")])
    }

    @Test func tooLongReportedAsSoonAsLimitPasses() {
        var f = LineFramer()
        for _ in 0..<511 { #expect(f.feed([0x61]) == []) }
        #expect(f.pendingBytes == 511)
        #expect(f.feed([0x61]) == [.tooLong])  // 512 bytes can no longer end within 512
        #expect(f.pendingBytes == 0)
        #expect(f.isDiscarding)
        for _ in 0..<100 { #expect(f.feed([0x61]) == []) }
        #expect(f.feed([0x0A]) == [])
        #expect(!f.isDiscarding)
        #expect(f.feed(bytes("SEEK\n")) == [line("SEEK")])
    }

    @Test func megabyteLineWithoutNewlineInChunks() {
        var f = LineFramer()
        var frames: [LineFramer.Frame] = []
        let chunk = repeated(4096, 0x78)
        for _ in 0..<256 {
            frames += f.feed(chunk)
            #expect(f.pendingBytes <= 512)
        }
        #expect(frames == [.tooLong])
        #expect(f.feed(bytes("xyz\nPING\r\n")) == [line("PING")])
        #expect(f.pendingBytes == 0)
    }

    @Test func megabyteLineWithoutNewlineInOneFeed() {
        var f = LineFramer()
        #expect(f.feed(repeated(1 << 20)) == [.tooLong])
        #expect(f.pendingBytes <= 512)
        #expect(f.feed(bytes("\nLETTER a\n")) == [line("LETTER a")])
    }

    @Test func megabyteLineByteByByteKeepsMemoryBounded() {
        var f = LineFramer()
        var count = 0
        var maxPending = 0
        for _ in 0..<(1 << 20) {
            [UInt8(0x7A)].withUnsafeBytes { buf in
                f.feed(buf) { frame in
                    if frame == .tooLong { count += 1 }
                }
            }
            maxPending = max(maxPending, f.pendingBytes)
        }
        #expect(count == 1)
        #expect(maxPending <= 512)
        #expect(f.feed(bytes("\nPING\n")) == [line("PING")])
    }

    @Test func longLineThenNormalLinesInOneFeed() {
        var f = LineFramer()
        let input = bytes("p\n") + repeated(2000) + bytes("\r\nq\r\n\nr")
        #expect(f.feed(input) == [line("p"), .tooLong, line("q"), .line([])])
        #expect(f.pendingBytes == 1)
    }

    @Test func twoLongLinesGiveTwoReports() {
        var f = LineFramer()
        #expect(f.feed(repeated(600) + [0x0A] + repeated(600) + [0x0A]) == [.tooLong, .tooLong])
    }

    @Test func customLimit() {
        var f = LineFramer(maxLineBytes: 5)
        #expect(f.feed(bytes("abcd\nabcde\nab\r\n")) == [line("abcd"), .tooLong, line("ab")])
    }

    /// Each line is an array of its own size: a blank line allocates nothing,
    /// and a short line after a long one does not carry the long one's
    /// capacity (a server holds thousands of framed lines of a connection
    /// whose budget is spent; each used to cost the largest line's buffer).
    @Test func linesAreTheirOwnSize() {
        var f = LineFramer()
        let long = String(repeating: "a", count: 300)
        let frames = f.feed(bytes(long + "\n\nb\n" + long.prefix(100))) + f.feed(bytes("zz\n\n"))
        let lines = frames.compactMap { frame -> [UInt8]? in if case .line(let l) = frame { l } else { nil } }
        #expect(lines.map(\.count) == [300, 0, 1, 102, 0])
        #expect(lines[1].capacity == 0 && lines[4].capacity == 0, "\(lines.map(\.capacity))")
        #expect(lines[2].capacity < 64 && lines[3].capacity < 200, "\(lines.map(\.capacity))")
    }

    /// A one- or two-byte line's array is refilled for the next one: lines
    /// kept from earlier reads, and several short lines in one read, keep
    /// their own bytes (the refill copies a line still held).
    @Test func shortLinesKeptAcrossReadsKeepTheirBytes() {
        var f = LineFramer()
        var kept: [LineFramer.Frame] = []
        for piece in ["p\n", "e\r\n", "a\nc\r\nh\n", "\r\n", "x", "\n", "yz\n", "q\n", "NEW\n", "k\n"] {
            kept += f.feed(Array(piece.utf8))
        }
        #expect(kept == ["p", "e", "a", "c", "h", "", "x", "yz", "q", "NEW", "k"].map { .line(Array($0.utf8)) })
        // Read and let go one at a time, as the server does: each line right.
        var one = LineFramer()
        for letter in "peach" {
            let frames = one.feed(Array("\(letter)\r\n".utf8))
            #expect(frames == [.line(Array(String(letter).utf8))])
        }
    }
}
