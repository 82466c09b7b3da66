import Glibc
import GhostProtocol
import GhostWeb

/// A connection of the web port: first an HTTP request (a file of the web
/// client, or the WebSocket upgrade at `/ws`), then, upgraded, the line
/// protocol carried in WebSocket frames, one line per text message both
/// ways (WebPort.swift drives the request; the connection's reads and
/// writes come here through `Connection.receive` and `transmit`).
///
/// Reading, each client frame is decoded (`WebSocketDecoder`) and each
/// line given to the connection's framer with its LF, as if read from a
/// TCP socket: every limit, budget and cost of the plain port applies.
/// Writing, each whole line of the connection's output becomes one text
/// frame. The bytes a socket has not taken yet (a frame's rest, a pong,
/// the close frame, the HTTP response) wait in `unsent`, which is written
/// before anything else; it holds at most one write's worth of frames.
final class WebSession {
    enum Phase {
        /// Reading the request's head.
        case request
        /// A response is written, then the connection closes.
        case responding
        /// Upgraded: the line protocol over WebSocket.
        case socket
    }

    var phase = Phase.request
    /// Over TLS (`--web-tls-port`): its origin is `https://`.
    let secure: Bool
    /// Since when the request has been awaited (the connection's start, or its TLS handshake's end).
    var since: Double
    var reader: WebRequestReader
    var decoder = WebSocketDecoder(maxMessageBytes: LineFramer.defaultMaxLineBytes)
    /// Bytes read after the request's head (a client's first frames), decoded before the socket is read.
    var carried: [UInt8] = []
    /// Lines decoded and not yet given to the framer, each with its LF.
    private var decoded: [UInt8] = []
    private var decodedHead = 0
    /// Bytes to write before any more of the connection's output.
    private(set) var unsent: [UInt8] = []
    private var unsentHead = 0
    /// The close frame is queued: nothing may follow it.
    private(set) var closeSent = false
    /// The client's close frame came: the end of its input.
    private(set) var peerClosed = false
    /// The client broke the protocol: the close code and why.
    private(set) var failure: (code: WebSocketFrame.CloseCode, reason: String)?

    /// Lines of output turned into frames at a time, at most: bounds `unsent`.
    static let encodeChunk = 16 * 1024

    init(secure: Bool, since: Double, maxRequestBytes: Int, maxFields: Int) {
        self.secure = secure
        self.since = since
        self.reader = WebRequestReader(maxBytes: maxRequestBytes, maxFields: maxFields)
    }

    var hasUnsent: Bool { unsentHead < unsent.count }
    var hasDecoded: Bool { decodedHead < decoded.count }
    /// The client's close frame came, or it broke the protocol: the next read ends its input.
    var inputEnded: Bool { peerClosed || failure != nil }
    /// Why it failed, for the log.
    var failureText: String? { failure.map { "WebSocket protocol error \($0.code.rawValue): \($0.reason)" } }

    // MARK: Reading

    /// `read(2)` for an upgraded connection: lines decoded from its frames,
    /// each ending with LF. 0 once the client's close frame came (after
    /// every line before it); -1 with `EPROTO` once it broke the protocol;
    /// else what the socket's read (`raw`) returned.
    func receive(_ buffer: UnsafeMutableRawPointer?, _ count: Int,
                 raw: (UnsafeMutableRawPointer?, Int) -> Int) -> Int {
        guard let buffer, count > 0 else { return 0 }
        while true {
            if hasDecoded {
                let n = min(count, decoded.count - decodedHead)
                decoded.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { buffer.copyMemory(from: base + decodedHead, byteCount: n) }
                }
                decodedHead += n
                if decodedHead == decoded.count {
                    decoded.removeAll(keepingCapacity: decoded.capacity <= 4096)
                    decodedHead = 0
                }
                return n
            }
            if failure != nil {
                errno = EPROTO
                return -1
            }
            if peerClosed { return 0 }
            if !carried.isEmpty {
                let bytes = carried
                carried = []
                bytes.withUnsafeBytes { decode($0) }
                continue
            }
            let n = raw(buffer, count)
            guard n > 0 else { return n }
            decode(UnsafeRawBufferPointer(start: buffer, count: n))
        }
    }

    private func decode(_ bytes: UnsafeRawBufferPointer) {
        decoder.feed(bytes) { event in
            switch event {
            case .line(let line):
                decoded.append(contentsOf: line)
                decoded.append(0x0A)
            case .ping(let payload):
                if !closeSent { WebSocketFrame.append(.pong, payload, to: &unsent) }
            case .pong:
                break
            case .close:
                peerClosed = true
            case .fail(let code, let reason):
                failure = (code, reason)
            }
        }
    }

    // MARK: Writing

    /// `send(2)` for an upgraded connection: takes whole lines of `buffer`
    /// (at most `encodeChunk` bytes of them), each as one text frame without
    /// its CRLF, once what waits in `unsent` is written; says how many bytes
    /// it took, or -1 (with `raw`'s errno) if the socket takes nothing now.
    func transmit(_ buffer: UnsafeRawPointer?, _ count: Int, raw: (UnsafeRawPointer?, Int) -> Int) -> Int {
        guard writeUnsent(raw) else { return -1 }
        guard let buffer, count > 0 else { return 0 }
        // Nothing follows a close frame (RFC 6455 §5.5.1): the rest is dropped.
        if closeSent { return count }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        var taken = 0
        while taken < count, taken < WebSession.encodeChunk {
            var end = taken
            while end < count, bytes[end] != 0x0A { end += 1 }
            // The line without its CRLF (the server's line end).
            let stop = end > taken && bytes[end - 1] == 0x0D ? end - 1 : end
            WebSocketFrame.append(.text, UnsafeRawBufferPointer(rebasing: bytes[taken..<stop]), to: &unsent)
            taken = min(count, end + 1)
        }
        _ = writeUnsent(raw)   // what the socket does not take now waits in `unsent`
        return taken
    }

    /// Writes what waits in `unsent`; false if some is left (errno says why: EAGAIN, or an error).
    func writeUnsent(_ raw: (UnsafeRawPointer?, Int) -> Int) -> Bool {
        while hasUnsent {
            let n = unsent.withUnsafeBytes { bytes in raw(bytes.baseAddress.map { $0 + unsentHead }, bytes.count - unsentHead) }
            if n > 0 {
                unsentHead += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                if n == 0 { errno = EAGAIN }
                return false
            }
        }
        unsent.removeAll(keepingCapacity: unsent.capacity <= 4096)
        unsentHead = 0
        return true
    }

    /// An HTTP response (a file, an error, the 101) to write first.
    func queue(_ bytes: [UInt8]) {
        unsent.append(contentsOf: bytes)
    }

    /// Queues the close frame, once: the client's failure's code, else the
    /// one its BYE maps to (`code`).
    func queueClose(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        guard phase == .socket, !closeSent else { return }
        closeSent = true
        if let failure {
            WebSocketFrame.close(failure.code, failure.reason, to: &unsent)
        } else {
            WebSocketFrame.close(code, reason, to: &unsent)
        }
    }

    /// The close code a BYE maps to (nil: the client went, or sent its close).
    static func closeCode(for bye: ByeCode?) -> WebSocketFrame.CloseCode {
        switch bye {
        case nil, .quit?, .replaced?: .normal
        case .shutdown?: .goingAway
        case .outputOverflow?: .tooBig
        case .flood?, .nameTimeout?, .idleTimeout?, .full?, .banned?: .policyViolation
        }
    }
}
