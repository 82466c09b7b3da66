/// The web client's files, embedded in ghostd when it is built (SwiftPM's
/// `embedInCode`, Package.swift): each is served at its own fixed path, and
/// no path a client sends ever reaches the file system. The files are in
/// `site/`, written by hand: no framework and no build step.
public struct WebAsset: Sendable {
    public let path: String
    public let contentType: String
    public let bytes: [UInt8]
    /// Its entity tag: the start of its SHA-1 (libcrypto), quoted. A browser
    /// that has the file asks with `If-None-Match` and gets `304`, no body.
    public let etag: String

    public init(path: String, contentType: String, bytes: [UInt8]) {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        self.etag = "\"" + (WebSocketAccept.sha1Hex(bytes).map { String($0.prefix(20)) } ?? String(bytes.count)) + "\""
    }
}

public enum WebAssets {
    /// Every file served, by path (`/` is index.html).
    public static let all: [String: WebAsset] = {
        var table: [String: WebAsset] = [:]
        for asset in list { table[asset.path] = asset }
        table["/"] = table["/index.html"]
        return table
    }()

    /// The files, one line each: a file added to `site/` is added here and in Package.swift.
    public static let list: [WebAsset] = [
        WebAsset(path: "/index.html", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        WebAsset(path: "/style.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
        WebAsset(path: "/app.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
        WebAsset(path: "/ui.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.ui_js),
        WebAsset(path: "/setup.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.setup_js),
        WebAsset(path: "/game.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.game_js),
        WebAsset(path: "/lists.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.lists_js),
        WebAsset(path: "/settings.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.settings_js),
        WebAsset(path: "/protocol.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.protocol_js),
        WebAsset(path: "/board.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.board_js),
        WebAsset(path: "/i18n.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.i18n_js),
        WebAsset(path: "/social.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.social_js),
    ]

    /// Bytes of every file together.
    public static var totalBytes: Int { list.reduce(0) { $0 + $1.bytes.count } }
}
