/// A response of the web port, written whole: the status line, the
/// security headers every response carries, and a body. HTTP/1.1, and
/// the connection closes after it (but after a 101, which becomes a WebSocket).
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var fields: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, fields: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
    }

    /// A plain-text error page (`404 Not Found`, and why).
    public static func error(_ status: Int, _ text: String, fields: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, fields: [("Content-Type", "text/plain; charset=utf-8")] + fields,
                     body: Array("\(status) \(reason(status)): \(text)\n".utf8))
    }

    /// The page may run only its own scripts and styles, talk only to its own
    /// server, and be framed by nobody (clickjacking): a strict policy with no
    /// inline script or style. (`connect-src 'self'` covers ws: and wss: to the same host.)
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The bytes on the wire. `secure`: served over TLS, so HSTS is sent.
    /// `head`: the fields only (a 101 has no body).
    public func wire(secure: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        if status != 101 {
            // (A 304 has no body, and its length would be the file's.)
            if status != 304 { text += "Content-Length: \(body.count)\r\n" }
            text += "Connection: close\r\n"
            text += "Content-Security-Policy: \(HTTPResponse.contentSecurityPolicy)\r\n"
            text += "X-Content-Type-Options: nosniff\r\n"
            text += "X-Frame-Options: DENY\r\n"
            text += "Referrer-Policy: no-referrer\r\n"
            text += "Cross-Origin-Opener-Policy: same-origin\r\n"
            text += "Cross-Origin-Resource-Policy: same-origin\r\n"
            if secure { text += "Strict-Transport-Security: max-age=31536000\r\n" }
        }
        text += "\r\n"
        return Array(text.utf8) + body
    }

    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
