import Testing
import TestSupport
@testable import GhostServer

/// The acceptor apart from the loop (Net/Acceptor.swift): its rest after
/// accept runs out of descriptors. No port is bound and no epoll set is
/// open (taking the listeners out of a closed set fails harmlessly), so
/// only its clock is exercised.
@Suite("Acceptor: the rest after accept runs out of descriptors", .ownThread)
struct AcceptorTests {
    private static func acceptor(backoff: Double) -> Acceptor {
        var config = ServerConfig()
        config.acceptBackoff = backoff
        let admission = Admission(maxClients: 10, maxPerNetwork: 0, maxUnnamed: 0, maxUnnamedPerNetwork: 0,
                                  connectsPerSecond: 0, connectBurst: 1)
        return Acceptor(config: config, epoll: Epoll(), admission: admission,
                        table: ConnectionTable(maxOutputBytes: config.maxOutputBytes),
                        stats: ServerStats(startedAt: 0), log: { _ in })
    }

    @Test("It rests for the backoff from its first failure, then resumes once")
    func backoff() {
        let a = Self.acceptor(backoff: 0.25)
        #expect(a.pausedUntil == nil)
        #expect(!a.resumeIfDue(now: 10))
        a.pause(now: 10)
        #expect(a.pausedUntil == 10.25)
        // Another failure while it rests does not put its end off.
        a.pause(now: 10.2)
        #expect(a.pausedUntil == 10.25)
        #expect(!a.resumeIfDue(now: 10.24))
        #expect(a.pausedUntil == 10.25)
        #expect(a.resumeIfDue(now: 10.25))
        #expect(a.pausedUntil == nil)
        // Resumed: nothing more to do until the next failure.
        #expect(!a.resumeIfDue(now: 11))
        a.pause(now: 12)
        #expect(a.pausedUntil == 12.25)
    }

    @Test("Unbound it has no listener, and closing it twice is harmless")
    func closing() {
        let a = Self.acceptor(backoff: 0.1)
        #expect(a.ports.isEmpty)
        #expect(a.boundPort == 0 && a.bound[.tls] == nil && a.bound[.web] == nil)
        a.close()
        a.close()
        #expect(a.ports.isEmpty)
    }

    @Test("Each port has its own epoll tag, none a connection's id")
    func tags() {
        let tags = Acceptor.Port.allCases.map(\.tag)
        #expect(Set(tags).count == tags.count)
        for port in Acceptor.Port.allCases { #expect(Acceptor.Port.of(tag: port.tag) == port) }
        #expect(Acceptor.Port.allCases.filter { $0 != .plain }.allSatisfy { $0.tag > UInt64(Int32.max) })
    }
}
