import Testing
import GhostProtocol
@testable import GhostServer
import GameKit

/// A broadcast is rendered once, on the stack, and its bytes appended to each
/// recipient (a watchers' batch: into the first recipient's output, copied to
/// the others): each recipient gets exactly the line, after what it already
/// had, whatever the others had before it.
@Suite("ConnectionTable: a line to several connections")
struct ConnectionTableBroadcastTests {
    private static func wire(_ lines: [ServerLine]) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines { line.appendWire(to: &out) }
        return out
    }

    private static func table(_ ids: [ConnectionID]) -> (ConnectionTable, [Connection]) {
        let table = ConnectionTable(maxOutputBytes: 1 << 20)
        let conns = ids.map { Connection(id: $0, fd: -1, peer: "127.0.0.1:\(5000 + $0)", now: 0) }
        for conn in conns { table.connections[conn.id] = conn }
        return (table, conns)
    }

    @Test("Each recipient gets the line after its own earlier output; nil seats are skipped")
    func eachGetsTheLineAfterItsOwn() {
        let (table, conns) = Self.table([1, 2, 3])
        let (a, b, c) = (conns[0], conns[1], conns[2])
        table.send(.info("first for a"), to: 1)
        table.send(.ok(.ping), to: 1)
        table.send(.info("b alone"), to: 2)
        let turn = ServerLine.turn(id: 7, player: "bob", fields: [Field("fragment", "pe")])
        table.send(turn, toEach: [1, nil, 2])
        #expect(a.output.bytes == Self.wire([.info("first for a"), .ok(.ping), turn]))
        #expect(b.output.bytes == Self.wire([.info("b alone"), turn]))
        #expect(c.output.count == 0)
        // Again, with b first this time.
        let move = ServerLine.move(id: 7, player: "bob", fields: [Field("letter", "a")])
        table.send(move, toEach: [2, 1])
        #expect(a.output.bytes == Self.wire([.info("first for a"), .ok(.ping), turn, move]))
        #expect(b.output.bytes == Self.wire([.info("b alone"), turn, move]))
    }

    @Test("A closing first recipient gets nothing; the next ones get the line; a repeated one gets it twice")
    func closingAndRepeatedRecipients() {
        let (table, conns) = Self.table([1, 2, 3])
        let (a, b, c) = (conns[0], conns[1], conns[2])
        table.close(1, .quit, "goodbye")
        let closed = a.output.bytes
        table.send(.info("to c first"), to: 3)
        let line = ServerLine.watchers(id: 4, count: 2)
        table.send(line, toEach: [1, 2, 2, 3])
        #expect(a.output.bytes == closed)
        #expect(b.output.bytes == Self.wire([line, line]))
        #expect(c.output.bytes == Self.wire([.info("to c first"), line]))
    }

    @Test("A line longer than the stack buffer goes whole to each recipient, at every length around its size")
    func linesPastTheStackBuffer() {
        // "INFO " + text + CRLF: 7 bytes besides the text; the stack holds 1,024.
        for length in [1_016, 1_017, 1_018, 1_024, 3_000] {
            let (table, conns) = Self.table([1, 2])
            table.send(.ok(.ping), to: 2)
            let line = ServerLine.info(String((0..<length).map { $0 % 5 == 2 ? " " : "w" }))
            table.send(line, toEach: [1, 2])
            #expect(conns[0].output.bytes == Self.wire([line]), "length \(length)")
            #expect(conns[1].output.bytes == Self.wire([.ok(.ping), line]), "length \(length)")
        }
    }

    @Test("A batch of lines goes whole to each watcher, after what each had")
    func batches() {
        let (table, conns) = Self.table([1, 2])
        let (a, b) = (conns[0], conns[1])
        table.send(.ok(.ping), to: 1)
        let lines: [ServerLine] = [.watchers(id: 4, count: 1), .info("x y"), .watchers(id: 4, count: 2)]
        table.send(lines, toEach: [1, 2])
        #expect(a.output.bytes == Self.wire([.ok(.ping)] + lines))
        #expect(b.output.bytes == Self.wire(lines))
    }
}
