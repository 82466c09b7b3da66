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

    /// A final frame's header for `length` bytes of payload (2, 4 or 10
    /// bytes; `masked`: the mask bit set, as a client's frame has it).
    public static func appendHeader(_ opcode: Opcode, length: Int, masked: Bool = false, to out: inout [UInt8]) {
        let mask: UInt8 = masked ? 0x80 : 0
        out.append(0x80 | opcode.rawValue)
        if length < 126 {
            out.append(mask | UInt8(length))
        } else if length <= 0xFFFF {
            out.append(mask | 126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xFF))
        } else {
            out.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
    }

    /// One final frame as a client sends it: `payload` masked with the key
    /// `mask` (the benchmarks' client; a server's frames are never masked).
    public static func appendMasked(_ opcode: Opcode, _ payload: some Collection<UInt8>, mask: UInt32, to out: inout [UInt8]) {
        appendHeader(opcode, length: payload.count, masked: true, to: &out)
        let key = [UInt8(mask >> 24), UInt8((mask >> 16) & 0xFF), UInt8((mask >> 8) & 0xFF), UInt8(mask & 0xFF)]
        out += key
        for (i, b) in payload.enumerated() { out.append(b ^ key[i & 3]) }
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
