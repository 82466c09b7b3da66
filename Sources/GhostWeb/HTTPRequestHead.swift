/// An HTTP/1.1 request's head (its request line and header fields), parsed
/// in bounded memory from bytes anyone may send (RFC 9112). Only what the web
/// port needs is kept: the method, the path (the query is dropped), the
/// version and the header fields, their names lowercased. Nothing here
/// touches a socket (WebRequestReader buffers the bytes).
public struct HTTPRequestHead: Equatable, Sendable {
    public var method: String
    /// The path of the request target, without its query (`/`, `/app.js`).
    public var path: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields in order, names lowercased, values trimmed.
    public var fields: [(name: String, value: String)]

    public init(method: String, path: String, version: String, fields: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.version = version
        self.fields = fields
    }

    public static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.path == b.path && a.version == b.version
            && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// The value of the field `name` (lowercase), if it is there exactly once.
    public func field(_ name: String) -> String? {
        var found: String?
        for field in fields where field.name == name {
            if found != nil { return nil }
            found = field.value
        }
        return found
    }

    /// How many times the field `name` (lowercase) is there.
    public func count(_ name: String) -> Int { fields.lazy.filter { $0.name == name }.count }

    /// The comma-separated tokens of every `name` field, lowercased (`Connection: keep-alive, Upgrade`).
    public func tokens(_ name: String) -> [String] {
        fields.filter { $0.name == name }.flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
    }

    /// Why a head cannot be read: the status to answer with.
    public enum Failure: Error, Equatable, Sendable {
        /// Malformed: 400.
        case bad(String)
        /// Too long, or too many fields: 431.
        case tooLarge(String)
        /// Not HTTP/1.0 or 1.1: 505.
        case version
    }

    /// Parses a head, `bytes` being everything before its empty line (the
    /// CRLF CRLF excluded). At most `maxFields` fields.
    public static func parse(_ bytes: ArraySlice<UInt8>, maxFields: Int) -> Result<HTTPRequestHead, Failure> {
        var lines = split(bytes)
        guard !lines.isEmpty else { return .failure(.bad("empty request")) }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]), let target = visible(parts[1]),
              let version = visible(parts[2]) else { return .failure(.bad("malformed request line")) }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return version.hasPrefix("HTTP/") ? .failure(.version) : .failure(.bad("malformed request line"))
        }
        // Origin form only (`/path?query`): an absolute URI or `*` is no path of ours.
        guard target.hasPrefix("/") else { return .failure(.bad("the request target must be a path")) }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        guard lines.count <= maxFields else { return .failure(.tooLarge("more than \(maxFields) header fields")) }
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(lines.count)
        for line in lines {
            // Obsolete line folding (a line starting with a space or tab) is refused (RFC 9112 §5.2).
            guard let colon = line.firstIndex(of: 0x3A), let name = token(line[line.startIndex..<colon]) else {
                return .failure(.bad("malformed header field"))
            }
            let rawValue = line[(colon + 1)...]
            guard rawValue.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return .failure(.bad("a control character in a header field"))
            }
            let value = String(decoding: rawValue, as: UTF8.self).trimmingSpaces
            fields.append((name.lowercased(), value))
        }
        return .success(HTTPRequestHead(method: method, path: path, version: version, fields: fields))
    }

    /// The lines of a head: split at CRLF (a bare LF is taken as a line end too, as RFC 9112 §2.2 allows).
    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = start
        while i < bytes.endIndex {
            if bytes[i] == 0x0A {
                var end = i
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                lines.append(bytes[start..<end])
                start = i + 1
            }
            i += 1
        }
        var end = bytes.endIndex
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        if start < end || lines.isEmpty { lines.append(bytes[start..<end]) }
        return lines
    }

    /// A token (RFC 9110 §5.6.2): a method or a field name.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy(isTokenByte) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Visible ASCII, no spaces: a request target or a version.
    private static func visible(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (as HTTP's optional whitespace).
    public var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
