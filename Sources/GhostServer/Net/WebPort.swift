import CGhostSys
import Glibc
import GhostProtocol
import GhostWeb

/// The web ports' side of the loop (`--web-port`, `--web-tls-port`): each
/// connection's HTTP request, read in bounded memory and time, answered with
/// a file of the web client (then closed) or upgraded at `/ws` to a
/// WebSocket session, which from then on is served as a TCP connection is
/// (ConnectionIO.swift, its bytes through WebSession.swift): the same
/// lines, budgets, caps and timeouts. A request is work done for its
/// network: it waits while the network is over its budget, and costs.
final class WebPort {
    private let config: ServerConfig
    private let table: ConnectionTable
    private let stats: ServerStats
    private let admission: Admission
    private let io: ConnectionIO
    private let log: (String) -> Void

    /// Cost units of a request (a file or the upgrade), charged to its
    /// connection and network as a command's: the same as a command that
    /// reads the database.
    static let requestCost = 4.0

    init(config: ServerConfig, table: ConnectionTable, stats: ServerStats, admission: Admission, io: ConnectionIO,
         log: @escaping (String) -> Void) {
        self.config = config
        self.table = table
        self.stats = stats
        self.admission = admission
        self.io = io
        self.log = log
    }

    /// A client accepted on a web port: its request is awaited (once its
    /// TLS handshake is done, on `--web-tls-port`).
    func begin(_ conn: Connection, secure: Bool) {
        conn.web = WebSession(secure: secure, since: io.now, maxRequestBytes: config.webMaxRequestBytes,
                              maxFields: config.webMaxHeaderFields)
    }

    /// A web connection's TLS handshake is done: its request is awaited from now.
    func tlsEstablished(_ conn: Connection) {
        conn.web?.since = io.now
        io.setInterest(conn)
        // The request may have come with the handshake's last message, into
        // OpenSSL's buffer, which epoll cannot see: read at once (a read
        // that finds nothing costs a call), not only if OpenSSL says it holds some.
        readRequest(conn)
    }

    /// The request's bytes are there (ConnectionIO.readFrom): read them
    /// while its network is within its budget; once the head is whole, answer it.
    func readRequest(_ conn: Connection) {
        guard let web = conn.web, web.phase == .request, conn.dropReason == nil else { return }
        if io.inputWaits(conn) {
            // Not asked for input while it waits: a hang-up or an error.
            return drop(conn, "closed by peer")
        }
        switch io.budgets.verdict(own: conn.penalty, network: conn.network, now: io.now) {
        case .serve: break
        case .slowConnection(let until), .pauseNetwork(let until):
            return io.hold(conn, until: until, forNetwork: true)
        }
        while true {
            let count = io.readBuffer.withUnsafeMutableBytes { conn.rawReceive($0.baseAddress, $0.count) }
            if count == 0 { return drop(conn, "closed by peer") }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                return drop(conn, conn.tls?.failure ?? "read error: \(errnoText())")
            }
            let outcome = io.readBuffer.withUnsafeBytes { web.reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            switch outcome {
            case .more: continue
            case .failure(let failure): return answer(conn, web, WebPort.response(for: failure))
            case .head(let head, let rest): return answer(conn, web, head: head, rest: rest)
            }
        }
    }

    /// The status a head that cannot be read gets.
    static func response(for failure: HTTPRequestHead.Failure) -> HTTPResponse {
        switch failure {
        case .bad(let text): .error(400, text)
        case .tooLarge(let text): .error(431, text)
        case .version: .error(505, "HTTP/1.1 only")
        }
    }

    private func answer(_ conn: Connection, _ web: WebSession, head: HTTPRequestHead, rest: [UInt8]) {
        if let refusal = forwardedFor(conn, head) { return answer(conn, web, refusal) }
        switch WebRoutes.decide(head, secure: web.secure, origins: config.webOrigins) {
        case .respond(let response):
            answer(conn, web, response, what: "\(head.method) \(head.path)")
        case .upgrade(let response):
            upgrade(conn, web, response, rest: rest)
        }
    }

    /// Writes the response, then closes (`--web-request-timeout` for the client to read it).
    private func answer(_ conn: Connection, _ web: WebSession, _ response: HTTPResponse, what: String = "a malformed request") {
        charge(conn)
        stats.webRequests += 1
        web.queue(response.wire(secure: web.secure))
        web.phase = .responding
        conn.closeAfterFlush = true
        conn.closeReason = "web: \(what): \(response.status)"
        conn.closeDeadline = io.now + config.webRequestTimeout
        // An error is worth a log line (a file served is not: a page load is several).
        if response.status >= 400 { log("web request from \(conn.peer): \(what): \(response.status) \(HTTPResponse.reason(response.status))") }
        table.markDirty(conn)
        io.setInterest(conn)
    }

    /// The 101 is written first; the connection is a session from now, greeted with HELLO in a text frame.
    private func upgrade(_ conn: Connection, _ web: WebSession, _ response: HTTPResponse, rest: [UInt8]) {
        charge(conn)
        stats.webRequests += 1
        web.queue(response.wire(secure: web.secure))
        web.phase = .socket
        web.carried = rest
        stats.connectionsTotal += 1
        stats.webOpen += 1
        log("connection \(conn.id) opened from \(conn.peer) over WebSocket\(web.secure ? " (TLS)" : "")")
        io.greet(conn)
        table.markDirty(conn)
        io.setInterest(conn)
        io.noteBuffered(conn)
    }

    /// Behind a `--trusted-proxy`, the client's own address (the last of
    /// `X-Forwarded-For`, the one the proxy added) becomes the connection's,
    /// so that it counts by its own network; a refusal if that network may
    /// not open one more connection.
    private func forwardedFor(_ conn: Connection, _ head: HTTPRequestHead) -> HTTPResponse? {
        guard !config.trustedProxies.isEmpty, config.trustedProxies.contains(conn.ip),
              let last = head.fields.last(where: { $0.name == "x-forwarded-for" })?.value
                .split(separator: ",").last.map({ $0.trimmingSpaces }),
              NetworkKey.isAddress(last) else { return nil }
        return admission.readdress(conn, to: last, clients: table.count - 1, at: io.now).map { .error(503, $0) }
    }

    private func charge(_ conn: Connection) {
        io.budgets.charge(WebPort.requestCost, own: &conn.penalty, network: conn.network, now: io.now)
    }

    /// No request within `--web-request-timeout` (a slowloris), or a response
    /// not read in that time: it goes without a word.
    func timedOut(_ conn: Connection) {
        let reason = "web request not finished within \(Server.figure(config.webRequestTimeout)) s"
        if let web = conn.web, web.phase == .request {
            // One line, with what had come: a slowloris, or a request never read.
            log("web request from \(conn.peer): \(reason) (\(web.reader.count) bytes of its head read"
                + (conn.tls.map { $0.hasPending ? ", TLS input pending" : ", over TLS" } ?? "") + ")")
        }
        drop(conn, reason)
    }

    private func drop(_ conn: Connection, _ reason: String) {
        guard conn.dropReason == nil else { return }
        conn.dropReason = reason
        table.markDirty(conn)
    }
}
