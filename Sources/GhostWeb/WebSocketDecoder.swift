/// Reads a client's WebSocket frames (RFC 6455 §5) from the bytes of a
/// connection, in bounded memory, and turns each text message into a line
/// of the protocol. Everything a client sends may be hostile: a frame that
/// breaks the RFC fails the connection with the close code the RFC names,
/// and a message longer than a line (`maxMessageBytes`, the protocol's
/// 512 bytes) fails it with 1009 before its payload is read.
///
/// - Client frames must be masked (1002 otherwise); reserved bits and
///   opcodes are refused (1002); a binary message gets 1003.
/// - Control frames (ping, pong, close) are final and at most 125 bytes,
///   and may come between the fragments of a message.
/// - A text message must be valid UTF-8 (1007). It is one line: a trailing
///   LF or CRLF is allowed and dropped; a CR or LF anywhere else gets 1007.
public struct WebSocketDecoder: Sendable {
    public enum Event: Equatable, Sendable {
        /// A whole text message: one line, without its end.
        case line([UInt8])
        case ping([UInt8])
        case pong
        /// The client's close frame: its code (nil: none given).
        case close(UInt16?)
        /// The client broke the protocol: close with this code and reason.
        case fail(WebSocketFrame.CloseCode, String)
    }

    public let maxMessageBytes: Int
    /// Bytes of a frame not yet complete (at most a header and `maxMessageBytes`).
    private var buffer: [UInt8] = []
    /// The text message being assembled from fragments, if one is.
    private var message: [UInt8] = []
    private var inMessage = false
    /// Once failed or closed, nothing more is read.
    public private(set) var finished = false

    public init(maxMessageBytes: Int = 512) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bytes held for an unfinished frame.
    public var pendingBytes: Int { buffer.count }

    /// Feeds bytes read from the connection; calls `emit` for each event, in order.
    /// After `.close` or `.fail`, the rest is ignored.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Event) -> Void) {
        guard !finished else { return }
        buffer.append(contentsOf: bytes)
        var at = 0
        while !finished, let consumed = nextFrame(from: at, emit) {
            at += consumed
        }
        if finished {
            buffer = []
        } else if at == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1024)
        } else if at > 0 {
            buffer.removeFirst(at)
        }
    }

    /// Reads one frame at `start` if it is complete: the bytes it took, or nil.
    private mutating func nextFrame(from start: Int, _ emit: (Event) -> Void) -> Int? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let b0 = buffer[start], b1 = buffer[start + 1]
        let fin = b0 & 0x80 != 0
        guard b0 & 0x70 == 0 else { return fail(.protocolError, "reserved bits set (no extension was agreed)", emit) }
        guard let opcode = WebSocketFrame.Opcode(rawValue: b0 & 0x0F) else {
            return fail(.protocolError, "unknown opcode \(b0 & 0x0F)", emit)
        }
        guard b1 & 0x80 != 0 else { return fail(.protocolError, "a client's frames must be masked", emit) }
        var length = Int(b1 & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            guard buffer[start + 2] & 0x80 == 0 else { return fail(.protocolError, "a frame length with its top bit set", emit) }
            var long: UInt64 = 0
            for i in 2..<10 { long = long << 8 | UInt64(buffer[start + i]) }
            length = long > UInt64(Int32.max) ? Int(Int32.max) : Int(long)
            headerLength = 10
        }
        if opcode.isControl {
            guard fin else { return fail(.protocolError, "a fragmented control frame", emit) }
            guard length <= 125 else { return fail(.protocolError, "a control frame over 125 bytes", emit) }
        } else {
            switch opcode {
            case .binary: return fail(.unsupportedData, "binary messages are not part of the protocol: send text", emit)
            case .continuation where !inMessage: return fail(.protocolError, "a continuation frame with no message to continue", emit)
            case .text where inMessage: return fail(.protocolError, "a new message before the last one was finished", emit)
            default: break
            }
            // Refused before its payload is read: a line is at most this long.
            if (inMessage ? message.count : 0) + length > maxMessageBytes {
                return fail(.tooBig, "a message is one line, at most \(maxMessageBytes) bytes", emit)
            }
        }
        let total = headerLength + 4 + length
        guard available >= total else { return nil }
        let maskAt = start + headerLength
        let mask = (buffer[maskAt], buffer[maskAt + 1], buffer[maskAt + 2], buffer[maskAt + 3])
        var payload = [UInt8](repeating: 0, count: length)
        let payloadAt = maskAt + 4
        for i in 0..<length {
            let key: UInt8
            switch i & 3 {
            case 0: key = mask.0
            case 1: key = mask.1
            case 2: key = mask.2
            default: key = mask.3
            }
            payload[i] = buffer[payloadAt + i] ^ key
        }
        switch opcode {
        case .ping: emit(.ping(payload))
        case .pong: emit(.pong)
        case .close: return closeFrame(payload, emit) ? total : nil
        case .text where fin:
            // A whole message in one frame (nearly always): its payload is the line.
            guard deliver(payload, emit) else { return nil }
        case .text, .continuation:
            if !inMessage { message = [] }
            message += payload
            inMessage = !fin
            if fin {
                let whole = message
                message = []
                guard deliver(whole, emit) else { return nil }
            }
        case .binary: break
        }
        return total
    }

    /// A whole text message: checked, and emitted as a line. False if it failed the connection.
    private mutating func deliver(_ message: [UInt8], _ emit: (Event) -> Void) -> Bool {
        var line = message
        // ASCII (nearly every line) is UTF-8: the validator is for the rest.
        guard line.allSatisfy({ $0 < 0x80 }) || String(validating: line, as: UTF8.self) != nil else {
            _ = fail(.invalidPayload, "a text message must be valid UTF-8", emit)
            return false
        }
        if line.last == 0x0A {
            line.removeLast()
            if line.last == 0x0D { line.removeLast() }
        }
        guard !line.contains(0x0A), !line.contains(0x0D) else {
            _ = fail(.invalidPayload, "a message is one line: no CR or LF but at its end", emit)
            return false
        }
        emit(.line(line))
        return true
    }

    /// The client's close frame; false if it was malformed (failed).
    private mutating func closeFrame(_ payload: [UInt8], _ emit: (Event) -> Void) -> Bool {
        if payload.isEmpty {
            finished = true
            emit(.close(nil))
            return true
        }
        guard payload.count >= 2 else { _ = fail(.protocolError, "a close frame of one byte", emit); return false }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        // Codes a peer may send (RFC 6455 §7.4): 1000-1003, 1007-1014, and 3000-4999.
        let valid = (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
        guard valid else { _ = fail(.protocolError, "close code \(code) may not be sent", emit); return false }
        guard String(validating: payload[2...], as: UTF8.self) != nil else {
            _ = fail(.invalidPayload, "a close reason must be valid UTF-8", emit)
            return false
        }
        finished = true
        emit(.close(code))
        return true
    }

    private mutating func fail(_ code: WebSocketFrame.CloseCode, _ reason: String, _ emit: (Event) -> Void) -> Int? {
        finished = true
        emit(.fail(code, reason))
        return nil
    }
}
