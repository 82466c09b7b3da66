import CGhostSys
import Glibc
import GhostWeb

/// A standby's ports (docs/cluster.md): while this node waits for the
/// lease, a client who connects to any of them (plain, TLS, web, web TLS,
/// as configured) is carried to the leading node's relay port
/// (`--relay-port`), byte for byte both ways, after one line that names
/// the client and the port it reached to the leader with the cluster's
/// secret (`RelayLine`). The leader does everything else, the TLS
/// handshake (with its certificate) and the HTTP and WebSocket work too, so
/// whichever node a client reaches, it is one server: the same names,
/// games and replies, each reply sent only once the leader committed what
/// it confirms.
///
/// One epoll loop on the standby's main thread, between its tries to take
/// the lease (`Leadership.await`): nothing here parses the protocol, TLS
/// or HTTP. A plain client's bytes follow the RELAY line at once. Any other
/// client's wait, unread, for the leader's answer `OK RELAY` (at most
/// `--relay-answer-timeout`), so that the leader reads them as its own port's; any
/// other answer (a BYE: the leader does not serve that port, or the
/// client's network may not open one more), or none, ends the pair,
/// logged once per kind of answer in a row. A client's bytes wait in a
/// buffer of at most `bufferLimit` while the other side is slow (then its
/// side is read no more until it drains). Either side's end ends the pair: what the leader
/// sent first is written to the client as far as its socket takes it. With
/// no leader to reach (none advertised yet, or its port refusing), a plain
/// client gets `BYE shutdown`, a web one a 503, a TLS one is closed, and
/// each connects again (through the balancer) a moment later. Out of
/// descriptors, the ports leave epoll for 100 ms (`ServerConfig.acceptBackoff`; the pending
/// clients wait in the backlog), as the leader's do, instead of waking the
/// loop at once for ever.
final class StandbyRelay {
    /// Where the leader takes relays, and the secret they give.
    struct Target: Equatable {
        let host: String
        let port: Int
        let secret: String

        /// From the lease's `relay` column, "host:port" (an IPv6 host in brackets); nil if empty or unreadable.
        init?(relay: String, secret: String) {
            guard let colon = relay.lastIndex(of: ":"), let port = Int(relay[relay.index(after: colon)...]), port > 0 else { return nil }
            var host = String(relay[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !secret.isEmpty else { return nil }
            self.host = host
            self.port = port
            self.secret = secret
        }
    }

    /// A client's connection and its connection to the leader.
    private final class Pair {
        let client: Int32
        let upstream: Int32
        let port: RelayLine.Port
        let since: Double
        var connected = false
        /// Until the leader's answer (every port but plain): what it has said so far; nil once it said `OK RELAY`.
        var answer: [UInt8]?
        var toUpstream: [UInt8] = []
        var toClient: [UInt8] = []
        init(client: Int32, upstream: Int32, port: RelayLine.Port, since: Double) {
            self.client = client
            self.upstream = upstream
            self.port = port
            self.since = since
            answer = port == .plain ? nil : []
        }
    }

    static let bufferLimit = 256 * 1024
    /// How long a relay of a TLS or web client waits for the leader's `OK RELAY` (`--relay-answer-timeout`).
    private let answerSeconds: Double

    private let epfd: Int32
    /// The listening sockets, by their epoll data (counting down from `UInt64.max`; clients' are their descriptors).
    private var listeners: [UInt64: (fd: Int32, port: RelayLine.Port)] = [:]
    private var pairs: [Int32: Pair] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// This node's name, told to the leader with each client (STATS).
    private let node: String
    private let log: (String) -> Void
    /// The kind of the leader's refusal last logged (`refused`).
    private var refusalLogged = ""
    /// The leader's relay port, as the lease says (the caller keeps it current).
    var target: Target?
    /// Clients carried since the start, for the log.
    private(set) var carried = 0
    /// How long the ports rest when accept fails for want of descriptors (`ServerConfig.acceptBackoff`).
    private let acceptBackoff: Double
    /// Until when they rest; nil while they listen.
    private var pausedUntil: Double?

    /// Listens on `host` at each of `ports` (those this node serves once it
    /// leads: the plain one, and its TLS and web ones if configured); throws
    /// what binding or listening says, each port named by its option.
    init(host: String, ports: [(port: RelayLine.Port, number: Int)], backlog: Int, acceptBackoff: Double, answerTimeout: Double,
         node: String, log: @escaping (String) -> Void) throws {
        epfd = ghost_epoll_create()
        self.acceptBackoff = acceptBackoff
        answerSeconds = answerTimeout
        self.node = node
        self.log = log
        guard epfd >= 0 else { throw Server.StartError.system("epoll: \(errnoText())") }
        for (index, entry) in ports.enumerated() {
            var err = [CChar](repeating: 0, count: 256)
            let fd = ghost_listen(host, Int32(entry.number), Int32(backlog), &err, Int32(err.count))
            let option = Acceptor.Port(relayed: entry.port)?.option ?? ""
            guard fd >= 0 else {
                close()
                throw Server.StartError.system(option + Server.text(err))
            }
            let tag = UInt64.max - UInt64(index)
            listeners[tag] = (fd, entry.port)
            guard ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN), tag) == 0 else {
                close()
                throw Server.StartError.system("epoll: \(errnoText())")
            }
        }
    }

    /// Serves for at most `seconds`: new clients, and bytes both ways.
    func run(for seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        expireAnswers(now: monotonicSeconds())
        var datas = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            let now = monotonicSeconds()
            guard now < deadline else { return }
            resumeIfDue(now: now)
            let left = min(deadline, pausedUntil ?? deadline) - now
            let n = ghost_epoll_wait(epfd, &datas, &events, 64, Int32((max(left, 0) * 1000).rounded(.up)))
            if n < 0 { if errno == EINTR { continue }; return }
            for i in 0..<Int(n) {
                if let listener = listeners[datas[i]] { accept(listener.fd, listener.port); continue }
                let fd = Int32(truncatingIfNeeded: datas[i])
                guard let pair = pairs[fd] else { continue }
                ready(pair, fd: fd, events: events[i])
            }
        }
    }

    /// Closes the ports and every pair (this node leads now: its server binds the ports).
    func close() {
        for pair in Array(pairs.values) { end(pair) }
        for listener in listeners.values { Glibc.close(listener.fd) }
        listeners = [:]
        if epfd >= 0 { Glibc.close(epfd) }
    }

    private func accept(_ listener: Int32, _ port: RelayLine.Port) {
        var peer = [CChar](repeating: 0, count: 128)
        while true {
            let fd = ghost_accept(listener, &peer, Int32(peer.count))
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    // EMFILE, ENFILE, ENOBUFS, ENOMEM: a listener left in
                    // epoll would wake the loop at once, again and again.
                    return pause(errnoText())
                }
            }
            // As the leader's own ports do (TCP_NODELAY, keepalive): without
            // it a line to the client waited for its delayed ACK, up to 40 ms a turn.
            ghost_tune_socket(fd)
            let peerText = String(decoding: peer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let client = Connection.address(of: peerText)
            var err = [CChar](repeating: 0, count: 256)
            guard let target,
                  case let upstream = ghost_client_connect(target.host, Int32(target.port), 0, &err, Int32(err.count)), upstream >= 0 else {
                // No socket for the leader's side: out of descriptors too.
                if Server.text(err).hasPrefix("socket: ") {
                    refuse(fd, port, code: "full", "this node is out of connections; connect again in a moment")
                    return pause(Server.text(err))
                }
                refuse(fd, port, "the server is changing hands; connect again in a moment")
                continue
            }
            let pair = Pair(client: fd, upstream: upstream, port: port, since: monotonicSeconds())
            pair.toUpstream = Array((RelayLine.line(secret: target.secret, client: client, port: port, node: node) + "\r\n").utf8)
            pairs[fd] = pair
            pairs[upstream] = pair
            // The client is read once the leader's side is up (and has
            // answered, but for plain): until then only its hang-up (plain)
            // or an error is heard of. The leader's side is written once connected.
            _ = ghost_epoll_add(epfd, fd, port == .plain ? UInt32(GHOST_EPOLLRDHUP) : 0, UInt64(fd))
            _ = ghost_epoll_add(epfd, upstream, UInt32(GHOST_EPOLLOUT | GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(upstream))
            carried += 1
        }
    }

    /// Out of descriptors (`why`): logged, and the ports leave epoll for `acceptBackoff`.
    private func pause(_ why: String) {
        guard pausedUntil == nil else { return }
        log("standby: accept failed: \(why); pausing accept for \(Int(acceptBackoff * 1000)) ms")
        pausedUntil = monotonicSeconds() + acceptBackoff
        for listener in listeners.values { _ = ghost_epoll_remove(epfd, listener.fd) }
    }

    /// Once the rest is over, the ports are back in epoll (their pending clients then wake the loop).
    private func resumeIfDue(now: Double) {
        guard let until = pausedUntil, now >= until else { return }
        pausedUntil = nil
        for (tag, listener) in listeners { _ = ghost_epoll_add(epfd, listener.fd, UInt32(GHOST_EPOLLIN), tag) }
    }

    /// A client that cannot be carried is told so as its port speaks, if
    /// it can be (a line, an HTTP 503; nothing in clear to a TLS client), and closed.
    private func refuse(_ fd: Int32, _ port: RelayLine.Port, code: String = "shutdown", _ text: String) {
        let bytes: [UInt8] = switch port {
        case .plain, .operator: Array("BYE \(code) \(text)\r\n".utf8)
        case .web: HTTPResponse.error(503, text).wire(secure: false)
        case .tls, .webTLS: []
        }
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) } }
        Glibc.close(fd)
    }

    private func ready(_ pair: Pair, fd: Int32, events: UInt32) {
        if fd == pair.upstream, !pair.connected {
            guard events & UInt32(GHOST_EPOLLOUT) != 0 || events & UInt32(GHOST_EPOLLERR | GHOST_EPOLLHUP) != 0 else { return }
            guard ghost_client_socket_error(fd) == 0 else {
                if pair.answer != nil { refused(pair, said: []) }
                return end(pair)
            }
            pair.connected = true
        }
        if pair.answer != nil {
            // Waiting for the leader's answer: the client is asked for
            // nothing, so its event is an error or a hang-up.
            if fd == pair.client { return end(pair) }
            if events & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR | GHOST_EPOLLRDHUP) != 0, !readAnswer(pair) {
                return end(pair)
            }
            if pair.answer != nil {
                flush(pair)
                return interest(pair)
            }
        }
        let from = fd
        if events & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR | GHOST_EPOLLRDHUP) != 0 {
            // Read what there is, as far as the other side's buffer takes it.
            while (fd == pair.client ? pair.toUpstream.count : pair.toClient.count) < StandbyRelay.bufferLimit {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(from, $0.baseAddress, $0.count) }
                if n > 0 {
                    if fd == pair.client { pair.toUpstream += buffer[0..<n] } else { pair.toClient += buffer[0..<n] }
                    continue
                }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                if n < 0 && errno == EINTR { continue }
                // Its end (or an error): what is buffered for the other side goes as far as it can, then both close.
                flush(pair)
                return end(pair)
            }
        }
        flush(pair)
        interest(pair)
    }

    /// Reads the leader's answer: true while it may still come or once it
    /// is `OK RELAY` (what follows it is the client's); false if it is
    /// anything else, or the leader's side ended first (the client is told
    /// as `refuse` tells, and the caller ends the pair).
    private func readAnswer(_ pair: Pair) -> Bool {
        guard var answer = pair.answer else { return true }
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(pair.upstream, $0.baseAddress, $0.count) }
            if n > 0 {
                answer += buffer[0..<n]
                if answer.contains(0x0A) || answer.count > 512 { break }
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                pair.answer = answer
                return true
            }
            if n < 0 && errno == EINTR { continue }
            break
        }
        let end = answer.firstIndex(of: 0x0A).map { $0 + 1 } ?? answer.count
        if Array(answer[..<end]) == RelayLine.answer {
            pair.answer = nil
            pair.toClient += answer[end...]
            return true
        }
        refused(pair, said: answer[..<end])
        return false
    }

    /// The leader did not take a client (its line in `said`, a BYE), or
    /// did not answer: logged when its kind is new, and the client told as
    /// its port can be.
    private func refused(_ pair: Pair, said: ArraySlice<UInt8>) {
        var line = String(decoding: said.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        if line.isEmpty { line = "no answer" }
        // Logged when its kind (the port, and the BYE's code) differs from the last one logged:
        // a refusal's text may name the client's network, and a flood of them is not a flood of lines.
        let words = line.split(separator: " ", maxSplits: 2)
        let kind = "\(pair.port.rawValue) " + words.prefix(2).joined(separator: " ")
        if kind != refusalLogged {
            refusalLogged = kind
            log("standby: the leader did not take a \(pair.port.rawValue) client: \(line)")
        }
        // A BYE's text, after its code, for a web client's 503.
        let text = words.count == 3 && words[0] == "BYE" ? String(words[2]) : "the server cannot take this connection now"
        if pair.port == .web {
            let bytes = HTTPResponse.error(503, text).wire(secure: false)
            _ = bytes.withUnsafeBytes { ghost_send(pair.client, $0.baseAddress, UInt($0.count)) }
        }
    }

    /// Pairs whose leader has not answered within `answerSeconds` end.
    private func expireAnswers(now: Double) {
        for (fd, pair) in pairs where fd == pair.client && pair.answer != nil && now - pair.since > answerSeconds {
            refused(pair, said: [])
            end(pair)
        }
    }

    /// Writes what waits each way, as far as each socket takes it.
    private func flush(_ pair: Pair) {
        if pair.connected { write(&pair.toUpstream, to: pair.upstream) }
        write(&pair.toClient, to: pair.client)
    }

    private func write(_ bytes: inout [UInt8], to fd: Int32) {
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
            if n > 0 { bytes.removeFirst(n); continue }
            return   // EAGAIN (written when it drains) or an error (its read says so)
        }
    }

    /// Each side is read while the other's buffer has room, and written to
    /// while its own has bytes; until the leader's answer, only the
    /// leader's side is (the RELAY line out, the answer in).
    private func interest(_ pair: Pair) {
        guard pair.connected else { return }
        var client = UInt32(GHOST_EPOLLRDHUP), upstream = UInt32(GHOST_EPOLLRDHUP)
        if pair.answer != nil {
            client = 0
            upstream |= UInt32(GHOST_EPOLLIN)
        } else {
            if pair.toUpstream.count < StandbyRelay.bufferLimit { client |= UInt32(GHOST_EPOLLIN) }
            if pair.toClient.count < StandbyRelay.bufferLimit { upstream |= UInt32(GHOST_EPOLLIN) }
            if !pair.toClient.isEmpty { client |= UInt32(GHOST_EPOLLOUT) }
        }
        if !pair.toUpstream.isEmpty { upstream |= UInt32(GHOST_EPOLLOUT) }
        _ = ghost_epoll_modify(epfd, pair.client, client, UInt64(pair.client))
        _ = ghost_epoll_modify(epfd, pair.upstream, upstream, UInt64(pair.upstream))
    }

    private func end(_ pair: Pair) {
        for fd in [pair.client, pair.upstream] where pairs[fd] === pair {
            pairs[fd] = nil
            _ = ghost_epoll_remove(epfd, fd)
            Glibc.close(fd)
        }
    }
}
