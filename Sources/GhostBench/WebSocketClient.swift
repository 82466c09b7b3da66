import CGhostSys
import Foundation
import WordLists
import GhostWeb

/// A minimal WebSocket client (RFC 6455) for the benchmarks: the opening
/// handshake, masked text frames out (GhostWeb's client-side encoder), and
/// the server's unmasked frames in, read here apart from the server's code so
/// that the benchmark checks what the server writes rather than repeats it. The protocol rides on it one line per text message.
enum WebSocket {
    /// The opening handshake's request for `/ws` (version 13, a random key, no Origin).
    static func upgradeRequest(host: String, port: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 16)
        for i in key.indices { key[i] = UInt8.random(in: 0...255) }
        return Array(("GET /ws HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
    }

    /// The response's head, if `inbox` holds all of it: its status code and
    /// the bytes it took (the frames start after them).
    static func responseHead(_ inbox: [UInt8]) -> (status: Int, length: Int)? {
        guard inbox.count >= 4 else { return nil }
        for i in 3..<inbox.count where inbox[i] == 0x0A && inbox[i - 1] == 0x0D && inbox[i - 2] == 0x0A && inbox[i - 3] == 0x0D {
            // "HTTP/1.1 101 Switching Protocols": the second word.
            let words = inbox[..<i].split(separator: 0x20, maxSplits: 2)
            let status = words.count > 1 ? Int(String(decoding: words[1], as: UTF8.self)) ?? 0 : 0
            return (status, i + 1)
        }
        return nil
    }

    /// Appends one masked client frame (final, `opcode`, the payload masked
    /// with the key `mask`: a fresh one each frame, from a cheap generator, so
    /// that no system call for randomness weighs on a round trip) to `out`.
    static func appendFrame(_ payload: some Collection<UInt8>, opcode: UInt8 = 0x1, mask: UInt32, to out: inout [UInt8]) {
        WebSocketFrame.appendMasked(WebSocketFrame.Opcode(rawValue: opcode) ?? .text, payload, mask: mask, to: &out)
    }

    /// Each line of `text` (split at LF, a CR before it dropped) as a text message.
    static func frames(ofLines text: String, masks: inout SplitMix64) -> [UInt8] {
        var out: [UInt8] = []
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            appendFrame(line.last == 0x0D ? line.dropLast() : line, mask: UInt32(truncatingIfNeeded: masks.next()), to: &out)
        }
        return out
    }

    enum Event {
        /// A text message: one line of the protocol, without an end.
        case line(ArraySlice<UInt8>)
        /// The server's close frame: its code (0: none given).
        case close(Int)
        /// Anything else (ping, pong, binary): ignored by the benchmarks.
        case other
    }

    /// Takes the whole frames at the front of `inbox` (server frames are not
    /// masked; a masked one is unmasked all the same), calls `emit` for each,
    /// and removes them. Fragments are not put together: ghostd sends each
    /// line as one frame.
    static func takeFrames(_ inbox: inout [UInt8], _ emit: (Event) -> Void) {
        var at = 0
        while inbox.count - at >= 2 {
            let opcode = inbox[at] & 0x0F
            let masked = inbox[at + 1] & 0x80 != 0
            var length = Int(inbox[at + 1] & 0x7F)
            var header = 2
            if length == 126 {
                guard inbox.count - at >= 4 else { break }
                length = Int(inbox[at + 2]) << 8 | Int(inbox[at + 3])
                header = 4
            } else if length == 127 {
                guard inbox.count - at >= 10 else { break }
                length = (0..<8).reduce(0) { $0 << 8 | Int(inbox[at + 2 + $1]) }
                header = 10
            }
            if masked { header += 4 }
            guard inbox.count - at >= header + length else { break }
            let from = at + header, to = from + length
            if masked {
                for i in from..<to { inbox[i] ^= inbox[from - 4 + ((i - from) & 3)] }
            }
            switch opcode {
            case 0x1, 0x0: emit(.line(inbox[from..<to]))
            case 0x8: emit(.close(length >= 2 ? Int(inbox[from]) << 8 | Int(inbox[from + 1]) : 0))
            default: emit(.other)
            }
            at = to
        }
        if at > 0 { inbox.removeFirst(at) }
    }
}

/// One blocking connection that speaks the line protocol over plain TCP or
/// over a WebSocket, a line at a time: for the round-trip and hold benchmarks.
final class LineConnection {
    let fd: Int32
    let websocket: Bool
    /// The socket's bytes read so far, and whether it has ended (Sockets.swift).
    private let reader: LineReader
    private var lines: [[UInt8]] = []
    var closed: Bool { reader.closed }
    private var masks = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))

    /// Connects (and upgrades, over a WebSocket) and reads the server's first
    /// line (`HELLO …`); throws if that fails within `timeout` seconds.
    init(host: String, port: Int, websocket: Bool, source: String? = nil, timeout: Double = 10) throws {
        self.websocket = websocket
        fd = Sockets.connect(host: host, port: port, source: source, blocking: true)
        reader = LineReader(fd: fd)
        guard fd >= 0 else { throw BenchError("connect to \(host):\(port) failed: \(String(cString: strerror(errno)))") }
        let deadline = now() + timeout
        if websocket {
            guard Sockets.sendAll(fd, WebSocket.upgradeRequest(host: host, port: port)) else {
                close(fd)
                throw BenchError("the upgrade request to \(host):\(port) could not be sent")
            }
            var head: (status: Int, length: Int)?
            while head == nil {
                head = WebSocket.responseHead(reader.inbox)
                if head == nil && !reader.fill(until: deadline) {
                    close(fd)
                    throw BenchError("no upgrade from \(host):\(port) within \(timeout) s (got \(String(decoding: reader.inbox.prefix(200), as: UTF8.self)))")
                }
            }
            guard let head, head.status == 101 else {
                close(fd)
                throw BenchError("the upgrade was refused: \(String(decoding: reader.inbox.prefix(200), as: UTF8.self))")
            }
            reader.inbox.removeFirst(head.length)
        }
        guard let hello = line(until: deadline), hello.starts(with: "HELLO ".utf8) else {
            close(fd)
            throw BenchError("no HELLO from \(host):\(port) within \(timeout) s")
        }
    }

    deinit { close(fd) }

    /// Sends one line (without its end): a text frame, or the line and CR LF.
    func send(_ line: String) -> Bool {
        var out: [UInt8] = []
        if websocket {
            WebSocket.appendFrame(line.utf8, mask: UInt32(truncatingIfNeeded: masks.next()), to: &out)
        } else {
            out = Array(line.utf8) + [0x0D, 0x0A]
        }
        return Sockets.sendAll(fd, out)
    }

    /// The next line from the server (without its end), or nil at the end
    /// of the stream, a close frame, or the deadline (monotonic seconds).
    func line(until deadline: Double) -> [UInt8]? {
        while true {
            if !lines.isEmpty { return lines.removeFirst() }
            if websocket {
                var ended = false
                WebSocket.takeFrames(&reader.inbox) { event in
                    switch event {
                    case .line(let l): lines.append(Array(l))
                    case .close: ended = true
                    case .other: break
                    }
                }
                if ended { reader.closed = true }
                if !lines.isEmpty { continue }
            } else if let text = reader.takeLine() {
                return text
            }
            if closed || !reader.fill(until: deadline) { return nil }
        }
    }
}
