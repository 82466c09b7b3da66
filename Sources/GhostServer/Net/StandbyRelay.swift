import CGhostSys
import Glibc

/// A standby's plain port (docs/cluster.md): while this node waits for the
/// lease, a player who connects to it is carried to the leading node's
/// relay port (`--relay-port`), byte for byte both ways, after one line
/// that names the player to the leader with the cluster's secret
/// (`RelayLine`). The leader does everything else, so whichever node a
/// player reaches, it is one server: the same names, games and replies,
/// each reply sent only once the leader committed what it confirms.
///
/// One epoll loop on the standby's main thread, between its tries to take
/// the lease (`Leadership.await`): nothing here parses the protocol. A
/// player's bytes wait in a buffer of at most `bufferLimit` while the other
/// side is slow (then its side is read no more until it drains). Either
/// side's end ends the pair: what the leader sent first is written to the
/// player as far as its socket takes it. With no leader to reach (none
/// advertised yet, or its port refusing), a player gets `BYE shutdown` and
/// is closed, and connects again (through the balancer) a moment later.
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

    /// A player's connection and its connection to the leader.
    private final class Pair {
        let client: Int32
        let upstream: Int32
        var connected = false
        var toUpstream: [UInt8] = []
        var toClient: [UInt8] = []
        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }
    }

    static let bufferLimit = 256 * 1024
    private static let listenerTag = UInt64.max

    private let epfd: Int32
    private let listener: Int32
    private var pairs: [Int32: Pair] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// This node's name, told to the leader with each player (STATS).
    private let node: String
    /// The leader's relay port, as the lease says (the caller keeps it current).
    var target: Target?
    /// Players carried since the start, for the log.
    private(set) var carried = 0

    /// Listens on `host:port` (the plain port this node serves on once it
    /// leads); throws what binding or listening says.
    init(host: String, port: Int, backlog: Int, node: String) throws {
        var err = [CChar](repeating: 0, count: 256)
        let fd = ghost_listen(host, Int32(port), Int32(backlog), &err, Int32(err.count))
        guard fd >= 0 else { throw Server.StartError.system(Server.text(err)) }
        listener = fd
        epfd = ghost_epoll_create()
        self.node = node
        guard epfd >= 0, ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN), StandbyRelay.listenerTag) == 0 else {
            Glibc.close(fd)
            if epfd >= 0 { Glibc.close(epfd) }
            throw Server.StartError.system("epoll: \(errnoText())")
        }
    }

    /// Serves for at most `seconds`: new players, and bytes both ways.
    func run(for seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        var datas = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return }
            let n = ghost_epoll_wait(epfd, &datas, &events, 64, Int32((left * 1000).rounded(.up)))
            if n < 0 { if errno == EINTR { continue }; return }
            for i in 0..<Int(n) {
                if datas[i] == StandbyRelay.listenerTag { accept(); continue }
                let fd = Int32(truncatingIfNeeded: datas[i])
                guard let pair = pairs[fd] else { continue }
                ready(pair, fd: fd, events: events[i])
            }
        }
    }

    /// Closes the port and every pair (this node leads now: its server binds the port).
    func close() {
        for pair in Array(pairs.values) { end(pair) }
        Glibc.close(listener)
        Glibc.close(epfd)
    }

    private func accept() {
        var peer = [CChar](repeating: 0, count: 128)
        while true {
            let fd = ghost_accept(listener, &peer, Int32(peer.count))
            guard fd >= 0 else { return }
            let peerText = String(decoding: peer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let client = Connection.address(of: peerText)
            var err = [CChar](repeating: 0, count: 256)
            guard let target,
                  case let upstream = ghost_client_connect(target.host, Int32(target.port), 0, &err, Int32(err.count)), upstream >= 0 else {
                refuse(fd)
                continue
            }
            let pair = Pair(client: fd, upstream: upstream)
            pair.toUpstream = Array((RelayLine.line(secret: target.secret, client: client, port: .plain, node: node) + "\r\n").utf8)
            pairs[fd] = pair
            pairs[upstream] = pair
            // The player is read once the leader's side is up; the leader's side is written once connected.
            _ = ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLRDHUP), UInt64(fd))
            _ = ghost_epoll_add(epfd, upstream, UInt32(GHOST_EPOLLOUT | GHOST_EPOLLIN | GHOST_EPOLLRDHUP), UInt64(upstream))
            carried += 1
        }
    }

    /// No leader to carry a player to: it is told, and closed.
    private func refuse(_ fd: Int32) {
        let bye = Array("BYE shutdown the server is changing hands; connect again in a moment\r\n".utf8)
        _ = bye.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
        Glibc.close(fd)
    }

    private func ready(_ pair: Pair, fd: Int32, events: UInt32) {
        if fd == pair.upstream, !pair.connected {
            guard events & UInt32(GHOST_EPOLLOUT) != 0 || events & UInt32(GHOST_EPOLLERR | GHOST_EPOLLHUP) != 0 else { return }
            guard ghost_client_socket_error(fd) == 0 else { return end(pair) }
            pair.connected = true
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

    /// Each side is read while the other's buffer has room, and written to while its own has bytes.
    private func interest(_ pair: Pair) {
        guard pair.connected else { return }
        var client = UInt32(GHOST_EPOLLRDHUP), upstream = UInt32(GHOST_EPOLLRDHUP)
        if pair.toUpstream.count < StandbyRelay.bufferLimit { client |= UInt32(GHOST_EPOLLIN) }
        if pair.toClient.count < StandbyRelay.bufferLimit { upstream |= UInt32(GHOST_EPOLLIN) }
        if !pair.toClient.isEmpty { client |= UInt32(GHOST_EPOLLOUT) }
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
