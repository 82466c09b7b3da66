import CGhostSys
import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The thin connection layer: one non-blocking TCP socket, plain or TLS
/// (`--tls`), driven by the caller's poll loop. Lines in, lines out; no
/// protocol knowledge.
final class Connection {
    enum Event: Equatable {
        /// Connected (over TLS: the handshake done and the certificate checked).
        case connected
        case line(String)
        /// Connecting failed, or the connection dropped; `why` is for people.
        /// Connecting again may work.
        case closed(why: String)
        /// The connection cannot be made safely (TLS: the server's certificate
        /// does not verify, or no handshake is possible): connecting again
        /// the same way would fail the same way, so the caller does not.
        case refused(why: String)
    }

    let address: ServerAddress
    /// TLS settings (`--tls`), nil for plain TCP.
    let tls: TLSSettings?
    private(set) var fd: Int32 = -1
    /// Not yet usable: TCP connecting, or the TLS handshake under way.
    private(set) var connecting = false
    private var tcpUp = false
    private var session: TLSSession?
    /// What the TLS session waits for: readable (false) or writable (true).
    private var tlsWantsWrite = false
    private var framer = LineFramer(maxLineBytes: 64 * 1024)
    private var outbox: [UInt8] = []
    /// Which of the host's addresses to try next (rotates on failures).
    private var addressIndex: Int32 = 0

    init(address: ServerAddress, tls: TLSSettings? = nil) {
        self.address = address
        self.tls = tls
    }

    deinit { close() }

    var isOpen: Bool { fd >= 0 }
    var isConnected: Bool { fd >= 0 && !connecting }

    /// Starts connecting. Returns an error text if that failed at once.
    func start() -> String? {
        close()
        var error = [CChar](repeating: 0, count: 256)
        let fd = ghost_client_connect(address.host, Int32(address.port), addressIndex, &error, Int32(error.count))
        guard fd >= 0 else {
            addressIndex &+= 1
            return String(decoding: error.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        self.fd = fd
        connecting = true
        tcpUp = false
        framer = LineFramer(maxLineBytes: 64 * 1024)
        return nil
    }

    func close() {
        if let session, tcpUp, !connecting { session.shutdown() }
        session = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        connecting = false
        tcpUp = false
        tlsWantsWrite = false
        outbox.removeAll()
    }

    /// Queues a line (a line end is added).
    func send(_ line: String) { send(bytes: Array(line.utf8)) }

    /// Queues a line's bytes as they are (a line end is added).
    func send(bytes: [UInt8]) {
        guard fd >= 0 else { return }
        outbox += bytes
        outbox.append(0x0A)
        if !connecting { flush() }
    }

    /// The events to poll for.
    var pollEvents: Int16 {
        guard fd >= 0 else { return 0 }
        if !tcpUp { return Int16(POLLOUT) }
        if connecting { return tlsWantsWrite ? Int16(POLLOUT) : Int16(POLLIN) }
        return Int16(POLLIN) | (!outbox.isEmpty || tlsWantsWrite ? Int16(POLLOUT) : 0)
    }

    /// Handles poll's answer for the socket.
    func handle(revents: Int16) -> [Event] {
        guard fd >= 0 else { return [] }
        var events: [Event] = []
        if !tcpUp {
            guard revents & (Int16(POLLOUT) | Int16(POLLERR) | Int16(POLLHUP)) != 0 else { return [] }
            let err = ghost_client_socket_error(fd)
            guard err == 0 else {
                addressIndex &+= 1
                close()
                return [.closed(why: String(cString: strerror(err)))]
            }
            tcpUp = true
            if let tls {
                switch TLSSession.make(fd: fd, host: address.host, settings: tls) {
                case .success(let s): session = s
                case .failure(let f):
                    close()
                    return [.refused(why: f.text)]
                }
            }
        }
        if connecting, let session {
            switch session.handshake() {
            case .done:
                tlsWantsWrite = false
            case .wantRead:
                tlsWantsWrite = false
                return []
            case .wantWrite:
                tlsWantsWrite = true
                return []
            case .closed(let why):
                addressIndex &+= 1
                close()
                return [.closed(why: why)]
            case .refused(let why):
                close()
                return [.refused(why: why)]
            }
        }
        if connecting {
            connecting = false
            events.append(.connected)
            flush()
            // Bytes may have come with the end of the handshake.
            if session != nil { events += readAvailable() }
        }
        if fd >= 0, revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 || (tlsWantsWrite && session != nil) {
            events += readAvailable()
        }
        if fd >= 0, revents & Int16(POLLOUT) != 0 { flush() }
        return events
    }

    private func readAvailable() -> [Event] {
        var events: [Event] = []
        var buf = [UInt8](repeating: 0, count: 16 * 1024)
        // At most a few reads per turn, so the terminal stays responsive
        // (TLS reads go on while the session holds decrypted bytes, which
        // poll cannot see).
        var reads = 0
        while fd >= 0 {
            reads += 1
            if reads > 8, session?.hasBufferedBytes != true { break }
            if let session {
                let (n, step) = buf.withUnsafeMutableBytes { session.read($0) }
                if n > 0 {
                    feed(buf, n, &events)
                    continue
                }
                switch step {
                case .done, .wantRead:
                    tlsWantsWrite = false
                    return events
                case .wantWrite:
                    tlsWantsWrite = true
                    return events
                case .closed(let why):
                    close()
                    events.append(.closed(why: why))
                case .refused(let why):
                    close()
                    events.append(.closed(why: why))
                }
                return events
            }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                feed(buf, n, &events)
                if n < buf.count { break }
            } else if n == 0 {
                close()
                events.append(.closed(why: "the server closed the connection"))
                break
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                let why = errnoText()
                close()
                events.append(.closed(why: why))
                break
            }
        }
        return events
    }

    private func feed(_ buf: [UInt8], _ n: Int, _ events: inout [Event]) {
        buf.withUnsafeBytes { raw in
            framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { frame in
                if case .line(let bytes) = frame { events.append(.line(String(decoding: bytes, as: UTF8.self))) }
            }
        }
    }

    private func flush() {
        while fd >= 0 && !connecting && !outbox.isEmpty {
            if let session {
                let (n, step) = outbox.withUnsafeBytes { session.write($0) }
                if n > 0 {
                    outbox.removeFirst(n)
                    continue
                }
                // Want read or write: poll says when. A failure shows up on read.
                tlsWantsWrite = step == .wantWrite
                break
            }
            let n = outbox.withUnsafeBytes { ghost_send(fd, $0.baseAddress, UInt($0.count)) }
            if n > 0 {
                outbox.removeFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                // EAGAIN: wait for POLLOUT. Anything else shows up as an error on read.
                break
            }
        }
    }
}
