import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers GET with fixed pages,
/// for browser tests that need a real origin (localStorage, cookies, two
/// browsers on one site) but not ghostd: the harness's own tests, and a web
/// page being written before the server serves it.
///
/// A thread per connection, `Connection: close`; unknown paths get 404. Stops (and frees its port) in `stop()` or deinit.
public final class StaticHTTPServer: @unchecked Sendable {
    public struct Page: Sendable {
        public var contentType: String
        public var body: Data
        public init(_ contentType: String, _ body: Data) {
            self.contentType = contentType
            self.body = body
        }
        public static func html(_ text: String) -> Page { Page("text/html; charset=utf-8", Data(text.utf8)) }
    }

    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var pages: [String: Page]
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free loopback port; `pages` maps paths ("/", "/app.js") to what they answer.
    public init(pages: [String: Page]) throws {
        self.pages = pages
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WebDriverError("socket: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw WebDriverError("cannot listen on 127.0.0.1: \(message)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
        let thread = Thread { [self] in serve() }
        thread.name = "static-http"
        thread.start()
    }

    /// `http://127.0.0.1:PORT` + path.
    public func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Replaces or adds a page.
    public func set(_ path: String, _ page: Page) {
        lock.lock()
        pages[path] = page
        lock.unlock()
    }

    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return }
        // Wakes accept() with an error; the thread then closes the socket.
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
    }

    deinit { stop() }

    private func serve() {
        defer {
            Glibc.close(listener)
            done.signal()
        }
        while true {
            let client = accept(listener, nil, nil)
            lock.lock()
            let over = stopped
            lock.unlock()
            if over {
                if client >= 0 { Glibc.close(client) }
                return
            }
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            // A thread per connection: Chromium opens spare connections it may
            // never send on, which must not hold up the one it uses.
            let thread = Thread { [self] in
                answer(client)
                Glibc.close(client)
            }
            thread.name = "static-http-connection"
            thread.start()
        }
    }

    /// Reads one request's head (up to 16 KiB, 10 s) and answers it.
    private func answer(_ fd: Int32) {
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.range(of: Data("\r\n\r\n".utf8)) == nil && request.count < 16384 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            request.append(contentsOf: buffer[0..<n])
        }
        let line = String(decoding: request.prefix(while: { $0 != 13 }), as: UTF8.self).split(separator: " ")
        var status = "404 Not Found"
        var page = Page("text/plain; charset=utf-8", Data("not found\n".utf8))
        if line.count >= 2, line[0] == "GET" {
            let path = String(line[1].prefix(while: { $0 != "?" && $0 != "#" }))
            lock.lock()
            let found = pages[path]
            lock.unlock()
            if let found {
                status = "200 OK"
                page = found
            }
        } else {
            status = "405 Method Not Allowed"
            page = Page("text/plain; charset=utf-8", Data("GET only\n".utf8))
        }
        let head = "HTTP/1.1 \(status)\r\nContent-Type: \(page.contentType)\r\nContent-Length: \(page.body.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let out = Data(head.utf8) + page.body
        out.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(fd, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                sent += n
            }
        }
    }
}
