import Testing
@testable import GhostWeb
import TestSupport

/// A client frame, masked (TestSupport's, as the end-to-end tests send them).
func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) -> [UInt8] {
    var frame = WebSocketClient.frame(opcode, payload, fin: fin, masked: masked)
    frame[0] |= rsv
    return frame
}

func decode(_ bytes: [UInt8], chunk: Int = Int.max, max: Int = 512) -> [WebSocketDecoder.Event] {
    var decoder = WebSocketDecoder(maxMessageBytes: max)
    var events: [WebSocketDecoder.Event] = []
    var at = 0
    while at < bytes.count {
        let end = min(bytes.count, at + chunk)
        bytes[at..<end].withUnsafeBytes { decoder.feed($0) { events.append($0) } }
        at = end
    }
    return events
}

@Suite(.ownThread) struct WebSocketDecoderTests {
    @Test func aTextFrameIsALine() {
        #expect(decode(clientFrame(1, Array("NAME alice".utf8))) == [.line(Array("NAME alice".utf8))])
    }

    @Test func framesSplitAnywhereDecodeTheSame() {
        let bytes = clientFrame(1, Array("PING".utf8)) + clientFrame(9, [7]) + clientFrame(1, Array("HELP".utf8))
        let whole = decode(bytes)
        #expect(whole == [.line(Array("PING".utf8)), .ping([7]), .line(Array("HELP".utf8))])
        for chunk in 1...bytes.count { #expect(decode(bytes, chunk: chunk) == whole) }
    }

    @Test func aTrailingLineEndIsDroppedAndAnInnerOneFails() {
        #expect(decode(clientFrame(1, Array("PING\r\n".utf8))) == [.line(Array("PING".utf8))])
        #expect(decode(clientFrame(1, Array("PING\n".utf8))) == [.line(Array("PING".utf8))])
        #expect(decode(clientFrame(1, Array("PING\nHELP".utf8))) == [.fail(.invalidPayload, "a message is one line: no CR or LF but at its end")])
    }

    @Test func fragmentsWithAControlFrameBetween() {
        let bytes = clientFrame(1, Array("NA".utf8), fin: false) + clientFrame(9, []) + clientFrame(0, Array("ME bob".utf8))
        #expect(decode(bytes) == [.ping([]), .line(Array("NAME bob".utf8))])
    }

    @Test func unmaskedFramesFail() {
        #expect(decode(clientFrame(1, Array("PING".utf8), masked: false)) == [.fail(.protocolError, "a client's frames must be masked")])
    }

    @Test func binaryReservedAndUnknownOpcodesFail() {
        #expect(decode(clientFrame(2, [1, 2])) == [.fail(.unsupportedData, "binary messages are not part of the protocol: send text")])
        #expect(decode(clientFrame(1, [0x41], rsv: 0x40)) == [.fail(.protocolError, "reserved bits set (no extension was agreed)")])
        #expect(decode(clientFrame(3, [])) == [.fail(.protocolError, "unknown opcode 3")])
    }

    @Test func controlFramesMustBeShortAndFinal() {
        #expect(decode(clientFrame(9, [UInt8](repeating: 0, count: 126))) == [.fail(.protocolError, "a control frame over 125 bytes")])
        #expect(decode(clientFrame(9, [], fin: false)) == [.fail(.protocolError, "a fragmented control frame")])
    }

    @Test func continuationAndInterleavingRules() {
        #expect(decode(clientFrame(0, [0x41])) == [.fail(.protocolError, "a continuation frame with no message to continue")])
        let two = clientFrame(1, [0x41], fin: false) + clientFrame(1, [0x42])
        #expect(decode(two) == [.fail(.protocolError, "a new message before the last one was finished")])
    }

    @Test func aMessageOverALineIsRefusedBeforeItsPayload() {
        // Only the header of a 1 MB frame is sent: refused at once.
        let header = Array(clientFrame(1, [UInt8](repeating: 0x61, count: 70_000)).prefix(14))
        #expect(decode(header) == [.fail(.tooBig, "a message is one line, at most 512 bytes")])
        let fragments = clientFrame(1, [UInt8](repeating: 0x61, count: 300), fin: false) + clientFrame(0, [UInt8](repeating: 0x61, count: 300))
        #expect(decode(fragments) == [.fail(.tooBig, "a message is one line, at most 512 bytes")])
        #expect(decode(clientFrame(1, [UInt8](repeating: 0x61, count: 512))) == [.line([UInt8](repeating: 0x61, count: 512))])
    }

    @Test func invalidUTF8Fails() {
        #expect(decode(clientFrame(1, [0x41, 0xFF])) == [.fail(.invalidPayload, "a text message must be valid UTF-8")])
        // A character split across two fragments is fine.
        let euro = Array("€".utf8)
        #expect(decode(clientFrame(1, [euro[0]], fin: false) + clientFrame(0, Array(euro[1...]))) == [.line(euro)])
    }

    @Test func closeFrames() {
        #expect(decode(clientFrame(8, [])) == [.close(nil)])
        #expect(decode(clientFrame(8, [0x03, 0xE8] + Array("bye".utf8))) == [.close(1000)])
        #expect(decode(clientFrame(8, [0x03])) == [.fail(.protocolError, "a close frame of one byte")])
        #expect(decode(clientFrame(8, [0x03, 0xEE])) == [.fail(.protocolError, "close code 1006 may not be sent")])
        // Nothing is read after a close.
        #expect(decode(clientFrame(8, []) + clientFrame(1, [0x41])) == [.close(nil)])
    }
}

@Suite(.ownThread) struct WebSocketFrameTests {
    @Test func lengthsUseTheShortestForm() {
        var out: [UInt8] = []
        WebSocketFrame.append(.text, [UInt8](repeating: 0x61, count: 125), to: &out)
        #expect(Array(out.prefix(2)) == [0x81, 125])
        out = []
        WebSocketFrame.append(.text, [UInt8](repeating: 0x61, count: 126), to: &out)
        #expect(Array(out.prefix(4)) == [0x81, 126, 0, 126])
        out = []
        WebSocketFrame.append(.text, [UInt8](repeating: 0x61, count: 70_000), to: &out)
        #expect(Array(out.prefix(10)) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
    }

    @Test func closeReasonIsCutAtACharacter() {
        var out: [UInt8] = []
        WebSocketFrame.close(.policyViolation, String(repeating: "é", count: 100), to: &out)
        #expect(out[0] == 0x88)
        #expect(Int(out[1]) <= 125)
        #expect(String(validating: out[4...], as: UTF8.self) != nil)
    }
}

@Suite(.ownThread) struct WebSocketAcceptTests {
    /// RFC 6455 §1.3's example.
    @Test func theRFCsExample() {
        #expect(WebSocketAccept.value(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func keysAreChecked() {
        #expect(WebSocketAccept.isValidKey("dGhlIHNhbXBsZSBub25jZQ=="))
        #expect(!WebSocketAccept.isValidKey("dGhlIHNhbXBsZSBub25jZQ="))
        #expect(!WebSocketAccept.isValidKey("dGhlIHNhbXBsZSBub25jZ!=="))
    }
}

@Suite(.ownThread) struct WebSocketMaskedFrameTests {
    /// A client's frame from GhostWeb's encoder (the benchmarks') is what the decoder reads, at every length form.
    @Test func theDecoderReadsTheEncodersMaskedFrames() {
        for length in [0, 5, 125, 126, 300, 512] {
            var frame: [UInt8] = []
            let line = [UInt8](repeating: 0x61, count: length)
            WebSocketFrame.appendMasked(.text, line, mask: 0xA1B2_C3D4, to: &frame)
            #expect(frame[1] & 0x80 != 0)
            #expect(decode(frame) == [.line(line)], "\(length)")
        }
    }
}
