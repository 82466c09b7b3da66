import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The W3C WebDriver protocol (https://www.w3.org/TR/webdriver2/) spoken to a
// local chromedriver: JSON over HTTP/1.1 on a loopback port. No third-party
// package and no URLSession: one request per connection (`Connection: close`)
// on a blocking socket with a deadline is all chromedriver needs, and it keeps
// every failure a plain error with the command in its message.

// MARK: JSON

/// A JSON value, as WebDriver sends and takes them (script results,
/// arguments, capabilities). Literals build one: `["a": 1, "b": [true, nil]]`.
public enum JSON: Equatable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    public init(nilLiteral: ()) { self = .null }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var double: Double? { if case .number(let n) = self { n } else { nil } }
    /// The number when it is a whole one.
    public var int: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9e15 else { return nil }
        return Int(n)
    }
    public var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
    public var object: [String: JSON]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    public subscript(key: String) -> JSON? { object?[key] }
    public subscript(index: Int) -> JSON? {
        guard let a = array, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// JavaScript's truthiness, so that `waitFor` treats a value as the page would.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .number(let n): n != 0 && !n.isNaN
        case .string(let s): !s.isEmpty
        case .array, .object: true
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        // JSONDecoder reads a Bool only from true/false and a number never from
        // them, so the order below keeps the two apart.
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSON].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): if let i = int { try c.encode(i) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public static func parse(_ data: Data) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: data)
    }

    /// Compact JSON text, keys sorted (so it reads the same every time).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every case encodes (non-finite numbers aside, which WebDriver never sends).
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    public var description: String { String(decoding: encoded(), as: UTF8.self) }
}

// MARK: Errors

public struct WebDriverError: Error, CustomStringConvertible {
    public let description: String
    /// WebDriver's error code (`no such element`, `javascript error`, …), when the driver sent one.
    public let code: String?
    public init(_ description: String, code: String? = nil) {
        self.description = description
        self.code = code
    }
}

// MARK: HTTP

/// A minimal HTTP/1.1 client for a server on 127.0.0.1: one request per
/// connection, bodies framed by Content-Length (or chunked, or the close).
public struct LoopbackHTTP: Sendable {
    public let port: Int
    public init(port: Int) { self.port = port }

    /// Sends one request and returns the status and body. Throws when the
    /// connection fails or the whole exchange takes longer than `timeout` seconds.
    public func request(_ method: String, _ path: String, body: Data? = nil,
                        timeout: Double) throws -> (status: Int, body: Data) {
        let deadline = monotonicNow() + timeout
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WebDriverError("socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var tv = timeval(tv_sec: Int(timeout.rounded(.up)), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))

        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        addr.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw WebDriverError("connect 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }

        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nAccept: application/json\r\n"
        if let body { head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n" }
        var out = Data(head.utf8) + Data("\r\n".utf8)
        if let body { out += body }
        try out.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(fd, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw WebDriverError("\(method) \(path): send: \(String(cString: strerror(errno)))") }
                sent += n
            }
        }

        // Read until the body is complete (Content-Length) or the server closes.
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength: Int?
        while true {
            if let end = headerEnd, let length = contentLength, data.count - end >= length { break }
            guard monotonicNow() < deadline else {
                throw WebDriverError("\(method) \(path): no complete answer within \(timeout) s")
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { continue }   // the deadline check ends it
            guard n >= 0 else { throw WebDriverError("\(method) \(path): recv: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if headerEnd == nil, let range = data.range(of: Data("\r\n\r\n".utf8)) {
                headerEnd = range.upperBound - data.startIndex
                contentLength = Self.header("content-length", in: data.prefix(range.lowerBound - data.startIndex)).flatMap { Int($0) }
            }
        }
        guard let end = headerEnd else {
            throw WebDriverError("\(method) \(path): the connection closed before a complete HTTP header (\(data.count) bytes)")
        }
        let headText = data.prefix(end)
        let statusLine = String(decoding: headText.prefix(while: { $0 != 13 }), as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw WebDriverError("\(method) \(path): bad status line \(statusLine.debugDescription)")
        }
        var payload = Data(data.dropFirst(end))
        if let length = contentLength {
            payload = Data(payload.prefix(length))
        } else if Self.header("transfer-encoding", in: headText)?.lowercased().contains("chunked") == true {
            payload = try Self.dechunk(payload)
        }
        return (status, payload)
    }

    /// A header's value (the first with that name, case-insensitive).
    static func header(_ name: String, in head: Data) -> String? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == name {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Joins a chunked body's chunks.
    static func dechunk(_ body: Data) throws -> Data {
        var bytes = [UInt8](body)[...]
        var out = Data()
        while true {
            guard let lineEnd = bytes.firstIndex(of: 13), lineEnd + 1 < bytes.endIndex else {
                throw WebDriverError("bad chunked body")
            }
            let sizeText = String(decoding: bytes[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw WebDriverError("bad chunk size \(sizeText.debugDescription)")
            }
            bytes = bytes[(lineEnd + 2)...]
            if size == 0 { return out }
            guard bytes.count >= size else { throw WebDriverError("truncated chunk") }
            out.append(contentsOf: bytes.prefix(size))
            bytes = bytes.dropFirst(size + 2)
        }
    }
}

// MARK: WebDriver commands

/// The WebDriver endpoint of one chromedriver: sends commands and unwraps
/// their `{"value": …}` answers, turning `{"value": {"error": …}}` into a
/// thrown `WebDriverError`.
public struct WebDriverClient: Sendable {
    public let http: LoopbackHTTP
    /// Seconds a single command may take (a navigation waits for the page's load).
    public var commandTimeout: Double

    public init(port: Int, commandTimeout: Double = 120) {
        self.http = LoopbackHTTP(port: port)
        self.commandTimeout = commandTimeout
    }

    /// Sends a command; `body` is required for POST (WebDriver wants `{}` when there is nothing).
    @discardableResult
    public func command(_ method: String, _ path: String, _ body: JSON? = nil, timeout: Double? = nil) throws -> JSON {
        let payload = method == "POST" ? (body ?? [:]).encoded() : nil
        let (status, data) = try http.request(method, path, body: payload, timeout: timeout ?? commandTimeout)
        let answer: JSON
        do {
            answer = try JSON.parse(data)
        } catch {
            throw WebDriverError("\(method) \(path): HTTP \(status), not JSON: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        let value = answer["value"] ?? .null
        if let code = value["error"]?.string {
            let message = value["message"]?.string ?? ""
            throw WebDriverError("\(method) \(path): \(code): \(message.prefix(2000))", code: code)
        }
        guard (200..<300).contains(status) else {
            throw WebDriverError("\(method) \(path): HTTP \(status): \(answer.description.prefix(500))")
        }
        return value
    }
}

/// The W3C name of an element reference in a WebDriver answer.
let webElementKey = "element-6066-11e4-a52e-4f735466cecf"

/// WebDriver's code points for the keys that are not characters
/// (https://www.w3.org/TR/webdriver2/#keyboard-actions), by their DOM `key` name.
public let webDriverKeys: [String: String] = [
    "Cancel": "\u{E001}", "Help": "\u{E002}", "Backspace": "\u{E003}", "Tab": "\u{E004}",
    "Clear": "\u{E005}", "Return": "\u{E006}", "Enter": "\u{E007}", "Shift": "\u{E008}",
    "Control": "\u{E009}", "Alt": "\u{E00A}", "Pause": "\u{E00B}", "Escape": "\u{E00C}",
    "Space": " ", "PageUp": "\u{E00E}", "PageDown": "\u{E00F}", "End": "\u{E010}",
    "Home": "\u{E011}", "ArrowLeft": "\u{E012}", "ArrowUp": "\u{E013}", "ArrowRight": "\u{E014}",
    "ArrowDown": "\u{E015}", "Insert": "\u{E016}", "Delete": "\u{E017}", "Meta": "\u{E03D}",
    "F1": "\u{E031}", "F2": "\u{E032}", "F3": "\u{E033}", "F4": "\u{E034}", "F5": "\u{E035}",
    "F6": "\u{E036}", "F7": "\u{E037}", "F8": "\u{E038}", "F9": "\u{E039}", "F10": "\u{E03A}",
    "F11": "\u{E03B}", "F12": "\u{E03C}",
]
