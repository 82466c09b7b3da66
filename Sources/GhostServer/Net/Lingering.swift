import CGhostSys
import Glibc

/// Sockets ghostd closed itself after their `BYE`, closed the
/// way web servers close (Apache's lingering close): the sending side is
/// shut (the client reads the `BYE`, then the end of the stream), and what
/// the client still sends is read and thrown away until it closes too, or
/// for at most `seconds`. A socket closed with unread input, or that gets
/// input after its close, is reset by the kernel, and a reset can take the
/// `BYE` from a client that reads it late.
///
/// The connection has left the table (and every count and limit) before it
/// lingers; only its descriptor is here, watched by epoll under its old
/// connection id (ids are never reused). At most `maxSockets` linger at
/// once; past that a socket is closed at once, as before.
struct Lingering {
    /// How long a closed client has to read its `BYE` (Protocol.md §7).
    static let seconds = 2.0
    /// The most sockets lingering at once (each is a descriptor).
    static let maxSockets = 1_024

    private var fds: [ConnectionID: Int32] = [:]
    /// Ids with their deadlines, oldest first (every linger is as long).
    private var queue: [(id: ConnectionID, until: Double)] = []
    private var head = 0

    var count: Int { fds.count }
    /// When the oldest lingering socket is closed, if any lingers.
    /// (That of a socket closed early may wake the loop once for nothing.)
    var nextDeadline: Double? { head < queue.count ? queue[head].until : nil }

    /// Takes over `fd` (its connection is gone): shuts its sending side and
    /// returns true, or returns false if it cannot linger (the caller closes it).
    mutating func add(_ id: ConnectionID, fd: Int32, now: Double) -> Bool {
        guard fds.count < Lingering.maxSockets, ghost_shutdown_write(fd) == 0 else { return false }
        fds[id] = fd
        queue.append((id, now + Lingering.seconds))
        return true
    }

    /// The descriptor of a lingering socket, nil if `id` is not one.
    func fd(of id: ConnectionID) -> Int32? { fds[id] }

    /// Reads and discards what the client sent (at most `chunks` reads of
    /// `buffer`, so that one client cannot hold the loop); closes the
    /// socket once the client has closed it or it fails. Returns the
    /// descriptor to take out of epoll when it closed.
    mutating func drain(_ id: ConnectionID, into buffer: inout [UInt8], chunks: Int = 4) -> Int32? {
        guard let fd = fds[id] else { return nil }
        for _ in 0..<chunks {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return nil }
            if n < 0 && errno == EINTR { continue }
            fds[id] = nil   // the end of its stream, or an error: done
            return fd
        }
        return nil
    }

    /// The sockets whose time is up, taken out (the caller closes them).
    mutating func expire(now: Double) -> [Int32] {
        var out: [Int32] = []
        while head < queue.count, queue[head].until <= now {
            if let fd = fds.removeValue(forKey: queue[head].id) { out.append(fd) }
            head += 1
        }
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return out
    }

    /// Every lingering socket, taken out (stopping).
    mutating func removeAll() -> [Int32] {
        let out = Array(fds.values)
        fds.removeAll()
        queue.removeAll()
        head = 0
        return out
    }
}
