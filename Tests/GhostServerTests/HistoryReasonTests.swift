import Foundation
import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer

/// HISTORY of an aborted game said `reason=aborted`, a
/// reason documented nowhere, while its `ABORTED` (and `RESUME`) said why.
/// One vocabulary: HISTORY says what `ABORTED` said.
@Suite(.ownThread) struct HistoryReasonTests {
    @Test("A game left before its first move: ABORTED reason=left, and HISTORY's RESULT says result=aborted reason=left")
    func abortedGameKeepsItsReason() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=easy")
        _ = h.drain()
        h.send(1, "LEAVE")
        let left = h.drain()[1] ?? []
        #expect(left.contains { $0.hasPrefix("ABORTED id=1 reason=left") }, "\(left)")
        h.send(1, "HISTORY")
        let d = h.drain()[1] ?? []
        let result = try #require(d.first { $0.hasPrefix("RESULT id=1 ") }, "\(d)")
        #expect(result.contains(" result=aborted reason=left "), "\(result)")
    }
}

/// With `--scores-for registered`, `NEW rated=yes`
/// between two registered names on one network was joined and played
/// unrated, without a word. Now such a JOIN is `ERR cannot-rate`, and the
/// game stays open for someone from another network.
@Suite(.ownThread) struct RatedJoinNetworkTests {
    /// alice (1) and bob (2) registered from 10.0.0.1, carol (3) from 10.0.0.2.
    private func registerOnTwoNetworks(_ h: Harness) {
        for (id, name, address) in [(1, "alice", "10.0.0.1"), (2, "bob", "10.0.0.1"), (3, "carol", "10.0.0.2")] {
            h.connect(id, address: address)
            h.send(id, "NAME \(name)")
            h.send(id, "REGISTER \(LobbyRatingsTests.pw)")
            _ = h.drain()
        }
    }

    @Test("--scores-for registered: a JOIN of a rated=yes game from the host's network is ERR cannot-rate; from another network it starts rated")
    func ratedJoinNeedsAnotherNetwork() throws {
        var settings = Lobby.Settings()
        settings.scoresFor = .registered
        let h = try Harness(settings: settings)
        registerOnTwoNetworks(h)
        h.send(1, "NEW rated=yes")
        let code = try #require(h.drain()[1]?.first.flatMap { Message.parse($0)?["code"] })
        h.send(2, "JOIN \(code)")
        #expect(h.drain()[2] == ["ERR cannot-rate that game is rated (rated=yes), and this server rates only people on two different networks: join from another network, or ask for a game with rated=no"])
        h.send(3, "JOIN \(code)")
        let d = h.drain()
        #expect(d[3]?.contains { $0.hasPrefix("GAME id=1 ") && $0.hasSuffix(" ratings=1500?,1500?") } == true, "\(d[3] ?? [])")
    }

    @Test("--scores-for registered: two rated=yes seekers on one network are not paired; one from another network is")
    func ratedSeekersNeedTwoNetworks() throws {
        var settings = Lobby.Settings()
        settings.scoresFor = .registered
        let h = try Harness(settings: settings)
        registerOnTwoNetworks(h)
        h.send(1, "SEEK rated=yes")
        h.send(2, "SEEK rated=yes")
        var d = h.drain()
        #expect(d[2]?.contains { $0.hasPrefix("GAME ") } == false, "\(d[2] ?? [])")
        h.send(3, "SEEK rated=yes")
        d = h.drain()
        #expect(d[3]?.contains { $0.hasPrefix("GAME id=1 ") && $0.contains("players=alice,carol") } == true, "\(d[3] ?? [])")
    }
}
