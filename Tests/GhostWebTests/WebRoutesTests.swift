import Foundation
import Testing
@testable import GhostWeb

func head(_ text: String, maxFields: Int = 64) -> HTTPRequestHead? {
    try? HTTPRequestHead.parse(ArraySlice(Array(text.utf8)), maxFields: maxFields).get()
}

let upgradeFields = "Host: localhost:7780\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="

@Suite struct HTTPRequestHeadTests {
    @Test func aRequestLineAndFields() throws {
        let parsed = try #require(head("GET /app.js?v=1 HTTP/1.1\r\nHost: example.org\r\nAccept:  */* "))
        #expect(parsed.method == "GET")
        #expect(parsed.path == "/app.js")
        #expect(parsed.field("host") == "example.org")
        #expect(parsed.field("accept") == "*/*")
    }

    @Test func malformedHeadsAreRefused() {
        let bad: [String] = ["GET / HTTP/1.1 extra", "GET  / HTTP/1.1", "GET http://x/ HTTP/1.1", "GET / HTTP/1.1\r\n folded: x",
                             "GET / HTTP/1.1\r\nNo colon", "GET / HTTP/1.1\r\nBad\u{7F}: x", "G(T / HTTP/1.1", "GET / HTTP/1.1\r\nX: a\u{1}b"]
        for text in bad {
            let result = HTTPRequestHead.parse(ArraySlice(Array(text.utf8)), maxFields: 64)
            guard case .failure(.bad) = result else { Issue.record("\(text.debugDescription) was not refused: \(result)"); continue }
        }
        #expect(HTTPRequestHead.parse(ArraySlice(Array("GET / HTTP/2.0".utf8)), maxFields: 64) == .failure(.version))
    }

    @Test func tooManyFields() {
        let text = "GET / HTTP/1.1" + String(repeating: "\r\nX: y", count: 5)
        #expect(HTTPRequestHead.parse(ArraySlice(Array(text.utf8)), maxFields: 4) == .failure(.tooLarge("more than 4 header fields")))
    }
}

@Suite struct WebRequestReaderTests {
    @Test func theHeadEndsAtTheEmptyLineAndTheRestIsKept() {
        var reader = WebRequestReader(maxBytes: 8192, maxFields: 64)
        let bytes = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8) + [0x81, 0x80]
        var outcomes: [WebRequestReader.Outcome] = []
        for b in bytes { outcomes.append([b].withUnsafeBytes { reader.feed($0) }) }
        #expect(outcomes.dropLast(3).allSatisfy { $0 == .more })
        guard case .head(let parsed, let rest) = outcomes[outcomes.count - 3] else { Issue.record("no head: \(outcomes)"); return }
        #expect(parsed.path == "/")
        #expect(rest.isEmpty)
        var whole = WebRequestReader(maxBytes: 8192, maxFields: 64)
        guard case .head(_, let rest2) = bytes.withUnsafeBytes({ whole.feed($0) }) else { Issue.record("no head"); return }
        #expect(rest2 == [0x81, 0x80])
    }

    @Test func aHeadOverTheLimitIsRefusedWithoutWaitingForItsEnd() {
        var reader = WebRequestReader(maxBytes: 100, maxFields: 64)
        let bytes = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 200)).utf8)
        #expect(bytes.withUnsafeBytes { reader.feed($0) } == .failure(.tooLarge("a request head over 100 bytes")))
    }
}

@Suite struct WebRoutesTests {
    func decide(_ text: String, secure: Bool = false, origins: [String] = []) -> WebRoutes.Decision? {
        head(text).map { WebRoutes.decide($0, secure: secure, origins: origins) }
    }

    func status(_ decision: WebRoutes.Decision?) -> Int? {
        switch decision {
        case .respond(let r)?: r.status
        case .upgrade(let r)?: r.status
        case nil: nil
        }
    }

    @Test func theClientsFilesAndNothingElse() throws {
        guard case .respond(let page)? = decide("GET / HTTP/1.1\r\nHost: a") else { Issue.record("no page"); return }
        #expect(page.status == 200)
        #expect(page.body == WebAssets.all["/index.html"]?.bytes)
        #expect(status(decide("GET /app.js HTTP/1.1\r\nHost: a")) == 200)
        for path in ["/../etc/passwd", "/site/app.js", "/%2e%2e/x", "/index.html/", "//app.js", "/nope"] {
            #expect(status(decide("GET \(path) HTTP/1.1\r\nHost: a")) == 404, "\(path)")
        }
        #expect(status(decide("POST / HTTP/1.1\r\nHost: a")) == 405)
        #expect(status(decide("GET / HTTP/1.1")) == 400)
        #expect(status(decide("GET / HTTP/1.1\r\nHost: a\r\nHost: b")) == 400)
    }

    @Test func aFileTheBrowserHasIsNotSentAgain() throws {
        let asset = try #require(WebAssets.all["/app.js"])
        #expect(asset.etag.count == 22 && asset.etag.hasPrefix("\"") && asset.etag.hasSuffix("\""))
        #expect(Set(WebAssets.list.map(\.etag)).count == WebAssets.list.count)
        guard case .respond(let fresh)? = decide("GET /app.js HTTP/1.1\r\nHost: a") else { Issue.record("no file"); return }
        #expect(fresh.fields.contains { $0 == ("ETag", asset.etag) })
        guard case .respond(let same)? = decide("GET /app.js HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"x\", \(asset.etag)") else {
            Issue.record("no answer"); return
        }
        #expect(same.status == 304 && same.body.isEmpty)
        #expect(!String(decoding: same.wire(secure: false), as: UTF8.self).contains("Content-Length"))
        #expect(status(decide("GET /app.js HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"other\"")) == 200)
    }

    @Test func everyResponseCarriesTheSecurityHeaders() {
        let wire = String(decoding: HTTPResponse.error(404, "x").wire(secure: true), as: UTF8.self)
        #expect(wire.contains("\r\nContent-Security-Policy: default-src 'none'; script-src 'self'"))
        #expect(wire.contains("frame-ancestors 'none'"))
        #expect(wire.contains("\r\nX-Content-Type-Options: nosniff\r\n"))
        #expect(wire.contains("\r\nStrict-Transport-Security: max-age=31536000\r\n"))
        #expect(!String(decoding: HTTPResponse.error(404, "x").wire(secure: false), as: UTF8.self).contains("Strict-Transport"))
    }

    @Test func theUpgrade() {
        guard case .upgrade(let r)? = decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: http://localhost:7780") else {
            Issue.record("no upgrade"); return
        }
        #expect(r.fields.contains { $0 == ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") })
        // Without Origin (not a browser): no page of another site can be behind it.
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields)) == 101)
    }

    @Test func aForeignOriginIsRefused() {
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: http://evil.example")) == 403)
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: https://localhost:7780")) == 403)
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: null")) == 403)
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: http://localhost:7780\r\nOrigin: http://localhost:7780")) == 403)
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: https://ghost.example.org", origins: ["https://ghost.example.org"])) == 101)
        #expect(status(decide("GET /ws HTTP/1.1\r\n" + upgradeFields + "\r\nOrigin: https://localhost:7780", secure: true)) == 101)
    }

    @Test func badUpgradesAreRefused() {
        #expect(status(decide("GET /ws HTTP/1.1\r\nHost: a")) == 426)
        let noKey = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13"
        #expect(status(decide(noKey)) == 400)
        #expect(status(decide(noKey.replacingOccurrences(of: "13", with: "8") + "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")) == 426)
    }
}

@Suite struct WebAssetsTests {
    /// The site folder, beside the module's sources.
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/GhostWeb/site")

    @Test("Every file of Sources/GhostWeb/site is served, as it is on disk (Package.swift embeds each, WebAssets lists each)")
    func everyFileIsServed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.site.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == WebAssets.list.map { String($0.path.dropFirst()) }.sorted())
        for asset in WebAssets.list {
            let disk = try Data(contentsOf: Self.site.appendingPathComponent(String(asset.path.dropFirst())))
            #expect(Array(disk) == asset.bytes, "\(asset.path) is not what was embedded: rebuild")
        }
    }

    @Test("Every script the page loads is a module of the site, and no file holds inline script or style (the CSP forbids them)")
    func noInlineScript() throws {
        let html = String(decoding: WebAssets.all["/index.html"]?.bytes ?? [], as: UTF8.self)
        #expect(!html.contains("<script>"))
        #expect(!html.contains(" style=\""))
        #expect(html.range(of: #" on[a-z]+=""#, options: .regularExpression) == nil)
        for asset in WebAssets.list where asset.path.hasSuffix(".js") {
            let js = String(decoding: asset.bytes, as: UTF8.self)
            #expect(!js.contains("eval("), "\(asset.path)")
            #expect(js.range(of: #"\.(inner|outer)HTML|insertAdjacentHTML|document\.write"#, options: .regularExpression) == nil,
                    "\(asset.path): server text goes through textContent")
        }
    }
}
