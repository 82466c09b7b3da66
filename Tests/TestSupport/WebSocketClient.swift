import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/WebSocket client for end-to-end tests of the web port,
/// over raw sockets: it sends exactly the bytes a test gives (a request
/// line by line, a frame malformed on purpose), and reads the server's
/// response and frames with a timeout, so a broken server fails the test.
/// Its frames are masked with a fixed key (it is a test).
public final class WebSocketClient {
    public static let defaultTimeout: Double = 10
    public let port: Int
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    /// The response's head once read (`readResponse`).
    public private(set) var responseHead = ""

    /// A server frame.
    public struct Frame: Equatable, CustomStringConvertible {
        public let opcode: UInt8
        public let fin: Bool
        public let payload: [UInt8]
        public init(opcode: UInt8, fin: Bool, payload: [UInt8]) {
            self.opcode = opcode
            self.fin = fin
            self.payload = payload
        }
        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code.
        public var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
        public var description: String {
            opcode == 1 ? "text \(text.debugDescription)" : "opcode \(opcode) \(closeCode.map { "code \($0) " } ?? "")\(String(decoding: payload.dropFirst(opcode == 8 ? 2 : 0), as: UTF8.self).debugDescription)"
        }
    }

    /// Connects to 127.0.0.1:port (from `source`, a 127.0.0.0/8 address, if given).
    public init(port: Int, source: String? = nil) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { throw DaemonError("connect to port \(port): \(String(cString: strerror(errno)))") }
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends bytes as they are.
    public func send(_ bytes: [UInt8]) throws {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw DaemonError("send: \(String(cString: strerror(errno)))") }
            at += n
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The opening handshake of RFC 6455 for `/ws` (with `origin`, if any, and more header lines).
    public static func upgradeRequest(path: String = "/ws", origin: String?, extra: [String] = []) -> String {
        var lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
        if let origin { lines.append("Origin: \(origin)") }
        return (lines + extra).joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// Opens the WebSocket (the page's own origin) and reads its HELLO.
    @discardableResult
    public static func open(port: Int, origin: String? = "http://127.0.0.1", source: String? = nil) throws -> (WebSocketClient, String) {
        let client = try WebSocketClient(port: port, source: source)
        try client.send(upgradeRequest(origin: origin))
        let head = try client.readResponse()
        guard head.hasPrefix("HTTP/1.1 101 ") else { throw DaemonError("no upgrade: \(head)") }
        let hello = try client.readText()
        return (client, hello)
    }

    /// Reads a response's head (up to its empty line); the body stays in the buffer.
    @discardableResult
    public func readResponse(timeout: Double = WebSocketClient.defaultTimeout) throws -> String {
        while true {
            if let end = find([13, 10, 13, 10]) {
                responseHead = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return responseHead
            }
            guard try fill(timeout) else { throw DaemonError("closed before a response; got \(String(decoding: buffer, as: UTF8.self).debugDescription)") }
        }
    }

    /// Reads the rest of the stream until the server closes it (a response's body).
    public func readToEnd(timeout: Double = WebSocketClient.defaultTimeout) throws -> [UInt8] {
        while try fill(timeout) {}
        defer { buffer = [] }
        return buffer
    }

    /// The next frame from the server.
    public func readFrame(timeout: Double = WebSocketClient.defaultTimeout) throws -> Frame {
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F)
                var header = 2
                if length == 126, buffer.count >= 4 {
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    header = 4
                } else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    header = 10
                }
                if length < 126 || header > 2, buffer.count >= header + length {
                    #expect(buffer[1] & 0x80 == 0, "a server's frames are never masked")
                    let frame = Frame(opcode: buffer[0] & 0x0F, fin: buffer[0] & 0x80 != 0, payload: Array(buffer[header..<(header + length)]))
                    buffer.removeFirst(header + length)
                    return frame
                }
            }
            guard try fill(timeout) else { throw DaemonError("closed before a whole frame; \(buffer.count) bytes left") }
        }
    }

    /// The next text frame's line (a control frame before it fails).
    public func readText(timeout: Double = WebSocketClient.defaultTimeout) throws -> String {
        let frame = try readFrame(timeout: timeout)
        guard frame.opcode == 1, frame.fin else { throw DaemonError("expected a text frame, got \(frame)") }
        return frame.text
    }

    /// Reads text frames until one starts with `prefix`.
    @discardableResult
    public func readUntil(_ prefix: String, timeout: Double = WebSocketClient.defaultTimeout) throws -> String {
        var seen: [String] = []
        while true {
            let frame = try readFrame(timeout: timeout)
            if frame.opcode == 1, frame.text.hasPrefix(prefix) { return frame.text }
            seen.append(frame.description)
            if frame.opcode == 8 { throw DaemonError("closed before \(prefix): \(seen)") }
        }
    }

    /// A client frame: masked (unless `masked` is false), final unless `fin` is false.
    public static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let m: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            out.append(m | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [m | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(m | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        if masked {
            out += mask
            for (i, b) in payload.enumerated() { out.append(b ^ mask[i & 3]) }
        } else {
            out += payload
        }
        return out
    }

    /// Sends one line as a text frame.
    public func sendLine(_ line: String) throws { try send(WebSocketClient.frame(1, Array(line.utf8))) }

    /// Whether the server closed the TCP connection within `timeout` (what is left unread is dropped).
    public func isClosed(timeout: Double = WebSocketClient.defaultTimeout) -> Bool {
        (try? readToEnd(timeout: timeout)) != nil
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }

    /// Reads what comes within `timeout`: true if some came, false at the end of the stream.
    private func fill(_ timeout: Double) throws -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, Int32(timeout * 1000))
        guard r > 0 else { throw DaemonError("nothing from the server within \(timeout) s; have \(buffer.count) bytes") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return false }
        buffer += chunk[0..<n]
        return true
    }
}
