import CGhostSys
import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The thin connection layer: one non-blocking TCP socket, driven by the
/// caller's poll loop. Lines in, lines out; no protocol knowledge.
final class Connection {
    enum Event: Equatable {
        case connected
        case line(String)
        /// Connecting failed, or the connection dropped; `why` is for people.
        case closed(why: String)
    }

    let address: ServerAddress
    private(set) var fd: Int32 = -1
    private(set) var connecting = false
    private var framer = LineFramer(maxLineBytes: 64 * 1024)
    private var outbox: [UInt8] = []
    /// Which of the host's addresses to try next (rotates on failures).
    private var addressIndex: Int32 = 0

    init(address: ServerAddress) {
        self.address = address
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
        framer = LineFramer(maxLineBytes: 64 * 1024)
        return nil
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        connecting = false
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
        return Int16(POLLIN) | (connecting || !outbox.isEmpty ? Int16(POLLOUT) : 0)
    }

    /// Handles poll's answer for the socket.
    func handle(revents: Int16) -> [Event] {
        guard fd >= 0 else { return [] }
        var events: [Event] = []
        if connecting {
            guard revents & (Int16(POLLOUT) | Int16(POLLERR) | Int16(POLLHUP)) != 0 else { return [] }
            let err = ghost_client_socket_error(fd)
            guard err == 0 else {
                addressIndex &+= 1
                close()
                return [.closed(why: String(cString: strerror(err)))]
            }
            connecting = false
            events.append(.connected)
            flush()
        }
        if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
            events += readAvailable()
        }
        if fd >= 0 && revents & Int16(POLLOUT) != 0 { flush() }
        return events
    }

    private func readAvailable() -> [Event] {
        var events: [Event] = []
        var buf = [UInt8](repeating: 0, count: 16 * 1024)
        // At most a few reads per turn, so the terminal stays responsive.
        for _ in 0..<8 {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buf.withUnsafeBytes { raw in
                    framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { frame in
                        if case .line(let bytes) = frame { events.append(.line(String(decoding: bytes, as: UTF8.self))) }
                    }
                }
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

    private func flush() {
        while fd >= 0 && !connecting && !outbox.isEmpty {
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
