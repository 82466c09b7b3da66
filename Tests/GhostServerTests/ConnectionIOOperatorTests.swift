import Foundation
import Glibc
import Testing
import TestSupport
@testable import GhostServer
import GhostCore
import GhostProtocol
import GhostStore
import WordLists

/// An operator's request on the relay port apart from the loop
/// (Net/ConnectionIO+Operator.swift): the RELAY line for the port
/// `operator`, then one request line, applied by the lobby in the turn; its
/// answer and BYE queued but held until the commit, and replaced by
/// `ERR store-failed` if the turn is lost. No socket is read or written.
@Suite("ConnectionIO: an operator's request on the relay port", .ownThread)
final class ConnectionIOOperatorTests {
    let rig: ConnectionIORig
    var store: Store { rig.store }
    var table: ConnectionTable { rig.table }
    var io: ConnectionIO { rig.io }
    static let secret = "0123456789abcdef"

    init() throws {
        rig = try ConnectionIORig("ghostd-op")
        rig.io.relaySecret = Self.secret
    }

    /// A relay port's connection, greeted (its HELLO confirmed), its lines framed and served.
    private func relayConnection(_ id: ConnectionID, lines: [String]) -> Connection {
        let conn = Connection(id: id, fd: -1, peer: "127.0.0.1:5000", now: 0)
        conn.isRelay = true
        conn.mayNameItsClient = true
        table.connections[id] = conn
        io.greet(conn)
        table.committed()
        conn.releaseAll()
        conn.trimSent(all: true)
        conn.releasedUpTo = conn.trimmed
        conn.pending = lines.map { .line(Array($0.utf8)) }
        io.serve(conn)
        return conn
    }

    private static func text(_ conn: Connection) -> [String] {
        conn.output.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            .split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
    }

    @Test("Applied in the turn, answered ok, closed with BYE quit; nothing sendable before the commit; a second line is not read")
    func answeredAfterTheCommit() throws {
        let conn = relayConnection(3, lines: ["RELAY \(Self.secret) 127.0.0.1 operator operator",
                                              "ban ann until=forever", "unban ann"])
        #expect(Self.text(conn) == ["ok: ann: banned until lifted", "BYE quit operator request answered"])
        #expect(conn.sendableOutput == 0 && conn.closeAfterFlush)
        #expect(io.operatorRelays.isEmpty)
        try store.commit()
        let ban = try #require(try store.socialStore.sanction(.ban, on: "ann", now: 1))
        #expect(ban.until == nil)
    }

    @Test("A lost turn: the answer is withdrawn and replaced by ERR store-failed, then the BYE again")
    func lostTurn() throws {
        let conn = relayConnection(4, lines: ["RELAY \(Self.secret) 127.0.0.1 operator operator", "mute bob until=forever"])
        #expect(Self.text(conn) == ["ok: bob: muted until lifted", "BYE quit operator request answered"])
        store.rollback()
        _ = table.discardTurn()
        #expect(Self.text(conn) == ["ERR store-failed \(Lobby.storeFailedText)", "BYE quit operator request answered"])
    }

    @Test("A request line that does not parse gets error:, and the request is not applied; a wrong secret gets the relay's BYE")
    func refusals() throws {
        let bad = relayConnection(5, lines: ["RELAY \(Self.secret) 127.0.0.1 operator operator", "ban ann until=soon"])
        #expect(Self.text(bad) == ["error: request refused: ban: until= takes unix seconds or forever", "BYE quit operator request answered"])
        let stranger = relayConnection(6, lines: ["RELAY wrong 127.0.0.1 operator operator", "ban ann until=forever"])
        #expect(Self.text(stranger) == ["BYE shutdown not a relay of this server"])
        try store.commit()
        #expect(try store.socialStore.sanction(.ban, on: "ann", now: 1) == nil)
    }
}
