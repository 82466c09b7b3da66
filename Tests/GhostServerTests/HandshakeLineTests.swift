import Testing
@testable import GhostServer

/// The TLS handshakes on the threads and the line of those waiting for a
/// place (Net/HandshakeLine.swift), with connections that have no sockets.
@Suite("HandshakeLine: at most `capacity` steps away, the rest first come first served")
struct HandshakeLineTests {
    private static func conns(_ n: Int) -> [Connection] {
        (0..<n).map { Connection(id: ConnectionID(10 + $0), fd: -1, peer: "127.0.0.1:\(5000 + $0)", now: 0) }
    }

    @Test("Steps go while there is room; the line gives the longest waiting first, only while there is room")
    func order() {
        var line = HandshakeLine(capacity: 2)
        let c = Self.conns(5)
        line.sent(c[0]); line.sent(c[1])
        #expect(!line.hasRoom)
        line.wait(c[2]); line.wait(c[3]); line.wait(c[4])
        #expect(line.next() == nil, "no room: nobody leaves the line")
        #expect(line.cameBack(c[0].id) === c[0])
        #expect(line.cameBack(c[0].id) == nil, "each step comes back once")
        let first = line.next()
        #expect(first === c[2])
        line.sent(c[2])
        #expect(line.next() == nil)
        #expect(line.waitingCount { _ in true } == 2)
        #expect(line.waitingCount { $0.id != c[3].id } == 1)
        _ = line.cameBack(c[1].id)
        _ = line.cameBack(c[2].id)
        #expect(line.next() === c[3] && line.next() === c[4] && line.next() == nil)
        line.compact()
        #expect(line.waitingCount { _ in true } == 0)
    }

    @Test("Under a flood the line never empties, and what was taken leaves its front: the order holds")
    func flood() {
        var line = HandshakeLine(capacity: 1)
        let c = Self.conns(3000)
        for conn in c { line.wait(conn) }
        var taken: [ConnectionID] = []
        for _ in 0..<2500 {
            guard let conn = line.next() else { break }
            taken.append(conn.id)
            line.sent(conn)
            _ = line.cameBack(conn.id)
            line.compact()
        }
        #expect(taken == c.prefix(2500).map(\.id))
        #expect(line.waitingCount { _ in true } == 500)
        #expect(line.removeAll().isEmpty && line.waitingCount { _ in true } == 0)
    }
}
