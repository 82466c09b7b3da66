import Testing
import GhostProtocol
@testable import GhostServer

/// A lost turn withdraws exactly the lines queued since the last commit:
/// its marks count from the connection's first
/// byte, so bytes sent and trimmed from the front of the buffer meanwhile
/// (a flush, `trimSent`) cannot shift them. With marks counted in the
/// buffer, a trim between the mark and the withdrawal left the head of a
/// withdrawn reply in place, with `ERR store-failed` glued to it, and an
/// acknowledgement of a change that was never stored.
@Suite("Connection: withdrawing a lost turn's lines")
struct ConnectionWithdrawTests {
    static func text(_ c: Connection) -> String { String(decoding: c.output.bytes[c.written...], as: UTF8.self) }

    /// A table with one connection, settled (its HELLO confirmed).
    static func table() -> (ConnectionTable, Connection) {
        let table = ConnectionTable(maxOutputBytes: 1 << 20)
        let c = Connection(id: 1, fd: -1, peer: "127.0.0.1:5000", now: 0)
        table.connections[1] = c
        table.settle(c)
        return (table, c)
    }

    @Test("Bytes sent and trimmed after the turn's mark do not shift it: the turn's lines go whole, the earlier ones stay whole")
    func trimmedAfterTheMark() {
        let (table, c) = Self.table()
        // A committed turn: 100 lines, released; 60 of them sent.
        for i in 0..<100 { table.send(.info("confirmed \(i)"), to: 1) }
        table.committed()
        c.releaseAll()
        let confirmed = c.output.count
        c.written = confirmed * 6 / 10
        // The next turn queues a reply, then the flush of the earlier lines trims what was sent.
        table.countCommand(c)
        table.send(.info("not stored"), to: 1)
        let unsent = Array(c.output.bytes[c.written..<confirmed])
        c.trimSent(all: false)
        // The turn's commit fails.
        _ = table.discardTurn()
        let expected = String(decoding: unsent, as: UTF8.self) + "ERR store-failed \(Lobby.storeFailedText)\r\n"
        #expect(Self.text(c) == expected)
    }

    @Test("A command undone after a trim takes back only its own lines")
    func commandAfterTrim() {
        let (table, c) = Self.table()
        table.send(.info("kept"), to: 1)
        table.committed()
        c.releaseAll()
        c.written = 3
        table.beginCommand()
        table.send(.info("undone"), to: 1)
        c.trimSent(all: false)
        table.discardCommand()
        #expect(Self.text(c) == "O kept\r\n")
    }
}
