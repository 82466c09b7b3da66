/// Gathers a request's head from the bytes of a connection, bounded: at most
/// `maxBytes` before its empty line (`--web-max-request-bytes`). What came
/// after the empty line (a WebSocket client's first frames) is kept for the
/// WebSocket decoder.
public struct WebRequestReader: Sendable {
    public let maxBytes: Int
    public let maxFields: Int
    private var buffer: [UInt8] = []

    public init(maxBytes: Int, maxFields: Int) {
        self.maxBytes = maxBytes
        self.maxFields = maxFields
    }

    public enum Outcome: Equatable, Sendable {
        /// Not finished: more bytes are needed.
        case more
        /// The head, and the bytes that followed it.
        case head(HTTPRequestHead, rest: [UInt8])
        case failure(HTTPRequestHead.Failure)
    }

    /// Adds bytes read; says whether the head is complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let searchFrom = max(0, buffer.count - 3)
        buffer.append(contentsOf: bytes)
        if let end = WebRequestReader.endOfHead(buffer, from: searchFrom) {
            guard end.head <= maxBytes else { return .failure(.tooLarge("a request head over \(maxBytes) bytes")) }
            let rest = Array(buffer[end.rest...])
            let parsed = HTTPRequestHead.parse(buffer[..<end.head], maxFields: maxFields)
            buffer = []
            switch parsed {
            case .success(let head): return .head(head, rest: rest)
            case .failure(let failure): return .failure(failure)
            }
        }
        if buffer.count > maxBytes + 4 { return .failure(.tooLarge("a request head over \(maxBytes) bytes")) }
        return .more
    }

    /// Bytes held so far.
    public var count: Int { buffer.count }

    /// Where the head ends (before CRLF CRLF, or LF LF) and what follows starts.
    private static func endOfHead(_ bytes: [UInt8], from start: Int) -> (head: Int, rest: Int)? {
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return (i, i + 2) }
                if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A {
                    let head = i > 0 && bytes[i - 1] == 0x0D ? i - 1 : i
                    return (head, i + 3)
                }
            }
            i += 1
        }
        return nil
    }
}
