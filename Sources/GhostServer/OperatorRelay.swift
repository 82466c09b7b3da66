#if canImport(Glibc)
import Glibc
#endif
import CGhostSys
import GhostStore

/// The command's side of an operator's request to a cluster (`ghostd
/// accounts mute|ban|unban --store …`, docs/cluster.md): the lease in
/// PostgreSQL names the leading node's relay port and the cluster's secret;
/// the command connects there, names itself `RELAY <secret> 127.0.0.1
/// operator operator`, sends its request line (`OperatorRequest.line`) and
/// reads the leader's answer, sent once the change is committed
/// (ConnectionIO+Operator.swift). From any machine that reaches the relay
/// port, with any data folder.
enum OperatorRelay {
    /// What became of the request.
    enum Outcome: Equatable {
        /// The leader did it: its `ok:` text (without `ok: `).
        case done(String)
        /// No node holds a live lease: nobody to ask (the caller writes the
        /// change to the store alone). `lapsed`: a node held it once (a
        /// cluster whose nodes are all stopped), not a store no node ever led.
        case noLeader(lapsed: Bool)
    }

    /// Why the leader did not do it.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case noStore(String)
        /// The leader answered `error: …`.
        case refused(String)
        /// The leader holds a live lease but has not said where it takes relays (it is starting).
        case notAdvertised(node: String, epoch: Int)
        /// The leader's relay port did not take the connection or the request.
        case unreachable(node: String, relay: String, why: String)
        /// The leader closed the connection without answering: with its BYE line, or "" (no BYE).
        case closed(node: String, bye: String)
        /// The request was sent, but no answer came in time.
        case noAnswer(node: String, seconds: Int)

        var description: String {
            switch self {
            case .noStore(let why): return "cannot read the cluster's lease from the store: \(why); nothing changed"
            case .refused(let why): return why
            case let .notAdvertised(node, epoch):
                return "node \(node) leads (epoch \(epoch)) but takes no relays yet (it is starting): try again in a moment; nothing changed"
            case let .unreachable(node, relay, why):
                return "node \(node) leads, but its relay port \(relay) cannot be reached (\(why)); nothing changed"
            case let .closed(node, bye) where bye.isEmpty:
                return "node \(node) closed the connection without answering: see `ghostd accounts list` for whether it was done"
            case let .closed(node, bye):
                return "node \(node) did not take the request (\(bye)); nothing changed"
            case let .noAnswer(node, seconds):
                return "node \(node) did not answer within \(seconds) s: see `ghostd accounts list` for whether it was done"
            }
        }
    }

    /// The relay line's client address and node name: the command is no node.
    static let clientAddress = "127.0.0.1"
    static let nodeName = "operator"

    /// Asks the node that leads the cluster on `store` to do `action`.
    static func send(_ action: OperatorAction, store: String, timeout: Double = OperatorRequest.replyTimeout) throws -> Outcome {
        let found: ClusterLease.Holder?
        do {
            found = try ClusterLease.peek(conninfo: store)
        } catch {
            throw Failure.noStore("\(error)")
        }
        guard let holder = found else { return .noLeader(lapsed: false) }
        guard holder.remaining > 0 else { return .noLeader(lapsed: true) }
        guard let target = StandbyRelay.Target(relay: holder.relay, secret: holder.secret) else {
            throw Failure.notAdvertised(node: holder.node, epoch: holder.epoch)
        }
        let deadline = monotonicSeconds() + timeout
        let fd = try connect(target, node: holder.node, relay: holder.relay, deadline: deadline)
        defer { close(fd) }
        let request = RelayLine.line(secret: target.secret, client: clientAddress, port: .operator, node: nodeName)
            + "\r\n" + OperatorRequest.line(action) + "\r\n"
        guard writeAll(Array(request.utf8), to: fd, deadline: deadline) else {
            throw Failure.unreachable(node: holder.node, relay: holder.relay, why: "cannot send the request: \(String(cString: strerror(errno)))")
        }
        var reader = LineReader()
        while let line = reader.next(fd, deadline: deadline) {
            if let outcome = try answer(line, node: holder.node) { return outcome }
        }
        if reader.ended { throw Failure.closed(node: holder.node, bye: "") }
        throw Failure.noAnswer(node: holder.node, seconds: Int(timeout.rounded()))
    }

    /// What a line from the leader says: the outcome, a failure (thrown),
    /// or nil (its greeting, or any line before the answer).
    static func answer(_ line: String, node: String) throws -> Outcome? {
        if line.hasPrefix("ok: ") { return .done(String(line.dropFirst(4))) }
        if line.hasPrefix("error: ") { throw Failure.refused(String(line.dropFirst(7))) }
        if line.hasPrefix("ERR store-failed") { throw Failure.refused("node \(node) could not store it; nothing changed") }
        if line.hasPrefix("BYE ") { throw Failure.closed(node: node, bye: String(line.prefix(200))) }
        return nil
    }

    /// A connection to the leader's relay port, made by `deadline`.
    private static func connect(_ target: StandbyRelay.Target, node: String, relay: String, deadline: Double) throws -> Int32 {
        var err = [CChar](repeating: 0, count: 256)
        let fd = ghost_client_connect(target.host, Int32(target.port), 0, &err, Int32(err.count))
        guard fd >= 0 else { throw Failure.unreachable(node: node, relay: relay, why: Server.text(err)) }
        guard wait(fd, for: Int16(POLLOUT), deadline: deadline) else {
            close(fd)
            throw Failure.unreachable(node: node, relay: relay, why: "no connection within the time allowed")
        }
        let error = ghost_client_socket_error(fd)
        guard error == 0 else {
            close(fd)
            throw Failure.unreachable(node: node, relay: relay, why: String(cString: strerror(error)))
        }
        return fd
    }

    /// Whether `fd` is ready for `events` before `deadline`.
    static func wait(_ fd: Int32, for events: Int16, deadline: Double) -> Bool {
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&entry, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if n < 0, errno == EINTR { continue }
            return n > 0
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, deadline: Double) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { ghost_send(fd, $0.baseAddress.map { $0 + done }, UInt(bytes.count - done)) }
            if n > 0 {
                done += n
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(fd, for: Int16(POLLOUT), deadline: deadline) else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// The leader's lines, read by a deadline (at most `limit` bytes in all).
    struct LineReader {
        static let limit = 64 * 1024
        private var buffer: [UInt8] = []
        private var total = 0
        /// The leader closed the connection (or it failed).
        private(set) var ended = false

        /// The next line (without its CR LF); nil at the end, or past the deadline.
        mutating func next(_ fd: Int32, deadline: Double) -> String? {
            while true {
                if let line = take() { return line }
                guard !ended, total < LineReader.limit, OperatorRelay.wait(fd, for: Int16(POLLIN), deadline: deadline) else { return nil }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                guard n > 0 else {
                    ended = true
                    continue
                }
                total += n
                buffer += chunk.prefix(n)
            }
        }

        /// A whole line from the buffer, if one is there.
        mutating func take() -> String? {
            guard let end = buffer.firstIndex(of: 0x0A) else { return nil }
            var line = buffer[..<end]
            if line.last == 0x0D { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            buffer.removeFirst(end + 1)
            return text
        }
    }
}
