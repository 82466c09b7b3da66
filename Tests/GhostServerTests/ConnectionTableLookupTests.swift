import Testing
import GhostProtocol
@testable import GhostServer

/// ConnectionTable remembers the connection it found last (a command's
/// replies go to one connection several times in a row): a connection
/// removed, or another under the same id, is never answered from memory.
@Suite("ConnectionTable: the connection found last")
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
        #expect(!a.output.isEmpty)
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
}
