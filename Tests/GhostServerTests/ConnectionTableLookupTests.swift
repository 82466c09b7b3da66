import Testing
import GhostProtocol
@testable import GhostServer

/// ConnectionTable remembers the two connections it found last (a command's
/// replies go to one connection several times in a row, a game's lines
/// alternate between its two players): a connection removed, or another
/// under the same id, is never answered from memory.
@Suite("ConnectionTable: the connections found last")
struct ConnectionTableLookupTests {
    @Test("A removed connection is not found, nor sent to; a new one under its id is the one found and sent to")
    func removalAndReplacementForgetTheLastFound() {
        let table = ConnectionTable(maxOutputBytes: 1 << 20)
        let a = Connection(id: 1, fd: -1, peer: "127.0.0.1:5000", now: 0)
        let b = Connection(id: 2, fd: -1, peer: "127.0.0.1:5001", now: 0)
        table.connections[1] = a
        table.connections[2] = b
        #expect(table[1] === a && table[1] === a && table[2] === b && table[1] === a)
        table.send(.ok(.ping), to: 1)
        #expect(a.output.count > 0)
        let sent = a.output.count
        table.connections[1] = nil
        #expect(table[1] == nil)
        table.send(.ok(.ping), to: 1)
        #expect(a.output.count == sent)
        let c = Connection(id: 1, fd: -1, peer: "127.0.0.1:5002", now: 0)
        #expect(table[2] === b)
        table.connections[1] = c
        #expect(table[1] === c)
        table.send(.ok(.ping), to: 1)
        #expect(a.output.count == sent && c.output.count == sent)
        table.connections.removeAll()
        #expect(table[1] == nil && table[2] == nil)
    }

    @Test("Both remembered connections are forgotten on any change: the older one removed or replaced is not answered from memory")
    func theSecondRememberedIsForgottenToo() {
        let table = ConnectionTable(maxOutputBytes: 1 << 20)
        let a = Connection(id: 1, fd: -1, peer: "127.0.0.1:5000", now: 0)
        let b = Connection(id: 2, fd: -1, peer: "127.0.0.1:5001", now: 0)
        let c = Connection(id: 3, fd: -1, peer: "127.0.0.1:5002", now: 0)
        table.connections[1] = a
        table.connections[2] = b
        table.connections[3] = c
        // Alternating between two, then a third: each the right one.
        #expect(table[1] === a && table[2] === b && table[1] === a && table[2] === b && table[3] === c && table[1] === a)
        // 3 and 1 remembered: remove 3 (the older), then replace 1.
        table.connections[3] = nil
        #expect(table[3] == nil && table[1] === a)
        #expect(table[2] === b && table[1] === a)
        let a2 = Connection(id: 1, fd: -1, peer: "127.0.0.1:5003", now: 0)
        table.connections[1] = a2
        #expect(table[2] === b && table[1] === a2 && table[2] === b)
        table.send(.ok(.ping), to: 1)
        #expect(a.output.count == 0 && a2.output.count > 0)
    }
}
