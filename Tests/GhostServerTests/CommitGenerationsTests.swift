import Testing
import GhostProtocol
@testable import GhostServer

/// "Commit before replying" with a syncer (`--durability full`), apart from
/// the loop (Net/CommitGenerations.swift): which queued replies may go, as
/// generations reach the disk. Connections without sockets; bytes queued
/// through the connection table, as the lobby queues them.
@Suite("CommitGenerations: replies released as commits reach the disk")
struct CommitGenerationsTests {
    private static func setUp(_ ids: [ConnectionID]) -> (ConnectionTable, [Connection]) {
        let table = ConnectionTable(maxOutputBytes: 1 << 20)
        let conns = ids.map { Connection(id: $0, fd: -1, peer: "127.0.0.1:\(5000 + $0)", now: 0) }
        for conn in conns { table.connections[conn.id] = conn }
        return (table, conns)
    }

    /// Queues a line that shows a change (`revealing`), as a move's reply does.
    private static func queue(_ table: ConnectionTable, _ conn: Connection, _ text: String, revealing: Bool = true) {
        let before = conn.revealing
        table.send(.info(text), to: conn.id)
        // (The table marks every line to a connection that is not the one
        // being served as revealing; a reply of a command that reveals
        // nothing is not, which this stands for.)
        conn.revealing = before || revealing
    }

    @Test("Without a syncer every generation is durable at once: sealed replies go at once")
    func noSyncer() {
        let (table, conns) = Self.setUp([1])
        var g = CommitGenerations()
        Self.queue(table, conns[0], "moved")
        #expect(g.wrote(startedAt: 0, synced: true) == 1)
        g.seal(conns[0])
        #expect(conns[0].releasedUpTo == conns[0].queuedEnd && g.waiting == 0)
        #expect(g.committed == 1 && g.durable == 1)
    }

    @Test("With a syncer a revealing reply waits for its generation; a release lets it go once, in order, and reports the commit's time")
    func waitsForItsGeneration() {
        let (table, conns) = Self.setUp([1, 2])
        let (a, b) = (conns[0], conns[1])
        var g = CommitGenerations()
        Self.queue(table, a, "first move")
        #expect(g.wrote(startedAt: 10, synced: false) == 1)
        g.seal(a)
        #expect(a.releasedUpTo == 0 && g.waiting == 1)
        let firstEnd = a.queuedEnd
        Self.queue(table, a, "second move")
        Self.queue(table, b, "second move")
        #expect(g.wrote(startedAt: 11, synced: false) == 2)
        g.seal(a)
        g.seal(b)
        #expect(g.waiting == 3)
        var released: [ConnectionID] = []
        var seconds: [Double] = []
        g.release(upTo: 1, at: 12, isOpen: { _ in true }, released: { released.append($0.id) }, commitSeconds: { seconds.append($0) })
        #expect(released == [1] && a.releasedUpTo == firstEnd && b.releasedUpTo == 0)
        #expect(seconds == [2])
        // An older generation again releases nothing.
        g.release(upTo: 1, at: 13, isOpen: { _ in true }, released: { released.append($0.id) }, commitSeconds: { seconds.append($0) })
        #expect(released == [1])
        g.release(upTo: 2, at: 14, isOpen: { _ in true }, released: { released.append($0.id) }, commitSeconds: { seconds.append($0) })
        #expect(released == [1, 1, 2] && a.releasedUpTo == a.queuedEnd && b.releasedUpTo == b.queuedEnd)
        #expect(seconds == [2, 3] && g.waiting == 0 && g.durable == 2)
    }

    @Test("A reply that shows no change (PING, an ERR) goes at once unless something queued before it still waits; a turn that wrote nothing waits behind one that syncs")
    func nonRevealing() {
        let (table, conns) = Self.setUp([1, 2])
        let (a, b) = (conns[0], conns[1])
        var g = CommitGenerations()
        _ = g.wrote(startedAt: 0, synced: false)
        // b's PING: nothing of b's waits, so it goes although generation 1 syncs.
        Self.queue(table, b, "pong", revealing: false)
        g.seal(b)
        #expect(b.releasedUpTo == b.queuedEnd && g.waiting == 0)
        // a's move waits; a's PING after it must not overtake it.
        Self.queue(table, a, "moved")
        g.seal(a)
        Self.queue(table, a, "pong", revealing: false)
        g.seal(a)
        #expect(a.releasedUpTo == 0 && g.waiting == 2)
        // A turn that wrote nothing, whose reply shows state, waits for generation 1 too.
        Self.queue(table, b, "state")
        g.seal(b)
        #expect(g.waiting == 3)
        var released: [ConnectionID] = []
        g.release(upTo: 1, at: 1, isOpen: { _ in true }, released: { released.append($0.id) }, commitSeconds: { _ in })
        #expect(released == [1, 1, 2] && a.releasedUpTo == a.queuedEnd && b.releasedUpTo == b.queuedEnd)
    }

    @Test("A connection closed while its replies waited is skipped at the release")
    func closedIsSkipped() {
        let (table, conns) = Self.setUp([1])
        var g = CommitGenerations()
        Self.queue(table, conns[0], "moved")
        _ = g.wrote(startedAt: 0, synced: false)
        g.seal(conns[0])
        var released: [ConnectionID] = []
        g.release(upTo: 1, at: 1, isOpen: { _ in false }, released: { released.append($0.id) }, commitSeconds: { _ in })
        #expect(released.isEmpty && conns[0].releasedUpTo == 0 && g.waiting == 0)
    }
}
