/// What the web port answers to a request's head: a file of the web
/// client, the WebSocket upgrade at `/ws`, or a refusal. Pure: the server
/// writes the response and, after an upgrade, serves the protocol.
public enum WebRoutes {
    /// The path of the WebSocket.
    public static let socketPath = "/ws"

    public enum Decision: Equatable, Sendable {
        /// Write the response and close.
        case respond(HTTPResponse)
        /// Write the 101 and carry the protocol over WebSocket.
        case upgrade(HTTPResponse)
    }

    /// `secure`: the request came over TLS (its origin is `https://`).
    /// `origins`: `--web-origin`'s list of other origins allowed to open the WebSocket.
    public static func decide(_ head: HTTPRequestHead, secure: Bool, origins: [String]) -> Decision {
        // A request needs one Host (RFC 9112 §3.2), for HTTP/1.1.
        let host = head.field("host")
        if head.version == "HTTP/1.1", host == nil || head.count("host") != 1 {
            return .respond(.error(400, "one Host header field is required"))
        }
        guard head.method == "GET" else {
            return .respond(.error(405, "only GET is served", fields: [("Allow", "GET")]))
        }
        if head.path == socketPath { return upgrade(head, host: host, secure: secure, origins: origins) }
        guard let asset = WebAssets.all[head.path] else { return .respond(.error(404, "no such page")) }
        // Revalidated at each load (no-cache): a browser that has this version gets 304 and no body.
        let validators = [("ETag", asset.etag), ("Cache-Control", "no-cache")]
        if let known = head.field("if-none-match"), known.split(separator: ",").contains(where: { $0.trimmingSpaces == asset.etag }) {
            return .respond(HTTPResponse(status: 304, fields: validators))
        }
        return .respond(HTTPResponse(status: 200, fields: [("Content-Type", asset.contentType)] + validators, body: asset.bytes))
    }

    /// The WebSocket opening handshake (RFC 6455 §4.2.1), the Origin checked
    /// first: a page of another site may not open a connection in its
    /// visitor's name (cross-site WebSocket hijacking).
    static func upgrade(_ head: HTTPRequestHead, host: String?, secure: Bool, origins: [String]) -> Decision {
        if let origin = head.field("origin") ?? (head.count("origin") > 1 ? "" : nil) {
            guard allowed(origin: origin, host: host, secure: secure, origins: origins) else {
                return .respond(.error(403, "this origin may not open the WebSocket (ghostd --web-origin lists those that may)"))
            }
        }
        guard head.version == "HTTP/1.1", head.tokens("upgrade").contains("websocket"),
              head.tokens("connection").contains("upgrade") else {
            return .respond(.error(426, "the WebSocket needs Upgrade: websocket and Connection: Upgrade",
                                   fields: [("Upgrade", "websocket"), ("Connection", "Upgrade")]))
        }
        guard head.field("sec-websocket-version") == "13" else {
            return .respond(.error(426, "WebSocket version 13 only", fields: [("Sec-WebSocket-Version", "13")]))
        }
        guard let key = head.field("sec-websocket-key"), WebSocketAccept.isValidKey(key) else {
            return .respond(.error(400, "Sec-WebSocket-Key must be the base64 of 16 bytes"))
        }
        guard let accept = WebSocketAccept.value(forKey: key) else {
            return .respond(.error(500, "cannot compute the accept key"))
        }
        return .upgrade(HTTPResponse(status: 101, fields: [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                                           ("Sec-WebSocket-Accept", accept)]))
    }

    /// The page's own origin (the scheme of this port and the Host it was
    /// asked by), or one listed by `--web-origin`, compared as RFC 6454
    /// serializes them: lowercase scheme and host, the port only if it is not
    /// the scheme's default.
    public static func allowed(origin: String, host: String?, secure: Bool, origins: [String]) -> Bool {
        let asked = origin.lowercased()
        if let host, asked == normalized((secure ? "https://" : "http://") + host.lowercased()) { return true }
        return origins.contains { normalized($0.lowercased()) == asked }
    }

    /// `http://example.org:80` is `http://example.org`; a trailing `/` goes.
    static func normalized(_ origin: String) -> String {
        var text = origin
        if text.hasSuffix("/") { text.removeLast() }
        if text.hasPrefix("http://"), text.hasSuffix(":80") { text.removeLast(3) }
        if text.hasPrefix("https://"), text.hasSuffix(":443") { text.removeLast(4) }
        return text
    }
}
