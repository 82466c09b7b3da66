/// WebSocket frames as the server writes them (RFC 6455 §5.2): never
/// masked, never fragmented; and the close codes it uses.
public enum WebSocketFrame {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
        public var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// Close codes (RFC 6455 §7.4.1).
    public enum CloseCode: UInt16, Sendable {
        case normal = 1000
        case goingAway = 1001
        case protocolError = 1002
        case unsupportedData = 1003
        case invalidPayload = 1007
        case policyViolation = 1008
        case tooBig = 1009
        case internalError = 1011
    }

    /// Appends one final, unmasked frame carrying `payload`.
    public static func append(_ opcode: Opcode, _ payload: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        appendHeader(opcode, length: payload.count, to: &out)
        out.append(contentsOf: payload)
    }

    public static func append(_ opcode: Opcode, _ payload: [UInt8], to out: inout [UInt8]) {
        payload.withUnsafeBytes { append(opcode, $0, to: &out) }
    }

    /// A final frame's header for `length` bytes of payload (2, 4 or 10 bytes).
    public static func appendHeader(_ opcode: Opcode, length: Int, to out: inout [UInt8]) {
        out.append(0x80 | opcode.rawValue)
        if length < 126 {
            out.append(UInt8(length))
        } else if length <= 0xFFFF {
            out.append(126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xFF))
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
    }

    /// A close frame: the code, then a reason of at most 123 bytes (cut at a character's start).
    public static func close(_ code: CloseCode, _ reason: String, to out: inout [UInt8]) {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > 123 {
            var cut = 123
            while cut > 0, reasonBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            reasonBytes.removeSubrange(cut...)
        }
        payload += reasonBytes
        append(.close, payload, to: &out)
    }
}
