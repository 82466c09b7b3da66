import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
@testable import GhostServer

/// The caps on games in progress per name and per network:
/// QUIT leaves an adjourned game behind, so a name can pile them up; past
/// the cap NEW, SEEK, JOIN and REMATCH get `ERR too-many-games`.
@Suite(.ownThread) struct LobbyGameCapsTests {
    private func settings(perName: Int = 10, perNetwork: Int = 100) -> Lobby.Settings {
        var s = Lobby.Settings()
        s.botDelay = 0
        s.maxGamesPerName = perName
        s.maxGamesPerNetwork = perNetwork
        return s
    }

    private func token(_ lines: [String]?) throws -> String {
        let game = try #require(lines?.first { $0.hasPrefix("GAME ") })
        return try #require(Message.parse(game)?["token"])
    }

    static let password = "alice's password"

    /// `id` logs in to `name`, registered with `password` on first use
    /// (only a registered name can leave several games waiting
    /// for its player; a guest's name is kept for RESUME once one is).
    private func logIn(_ h: Harness, _ id: ConnectionID, _ name: String) throws {
        if try h.store.isRegistered(name) {
            h.send(id, "NAME \(name) \(Self.password)")
        } else {
            h.send(id, "NAME \(name)")
            h.send(id, "REGISTER \(Self.password)")
        }
        _ = h.drain()
    }

    /// `name` on connection `id` from `address` starts a game against the
    /// computer, plays a letter and quits: one adjourned game more. With
    /// `registered`, the name is registered and logged in to.
    private func abandon(_ h: Harness, _ id: ConnectionID, _ name: String, address: String = "", registered: Bool = false) throws -> String {
        h.connect(id, address: address)
        if registered { try logIn(h, id, name) } else { h.send(id, "NAME \(name)") }
        h.send(id, "NEW bot=hard")
        let t = try token(h.drain()[id])
        h.send(id, "p")
        h.disconnect(id)
        _ = h.drain()
        return t
    }

    @Test func aNameHasAtMostTenGamesInProgress() throws {
        let h = try Harness(settings: settings())
        var tokens: [String] = []
        for _ in 0..<10 { tokens.append(try abandon(h, 1, "alice", registered: true)) }
        h.connect(1)
        try logIn(h, 1, "alice")
        let refusal = "ERR too-many-games alice has 10 games in progress (adjourned ones too): RESUME one and finish or LEAVE it; a game nobody touches is aborted after 7 days"
        for line in ["NEW bot=hard", "SEEK", "NEW", "NEW game=hangman"] {
            h.send(1, line)
            #expect(h.drain() == [1: [refusal]], "\(line)")
        }
        h.named(2, "bob")
        h.send(2, "NEW")
        let code = try #require(h.drain()[2]?.first.flatMap { Message.parse($0)?["code"] })
        h.send(1, "JOIN \(code)")
        #expect(h.drain() == [1: [refusal]])
        // The cap counts across a restart: it is read from the store.
        let again = try Harness(directory: h.directory, settings: settings())
        again.connect(1)
        try logIn(again, 1, "ALICE")
        again.send(1, "NEW bot=hard")
        #expect(again.drain()[1] == [refusal.replacing("ERR too-many-games alice", with: "ERR too-many-games ALICE")])
        // Finishing one makes room.
        again.send(1, "RESUME \(tokens[0])")
        again.send(1, "LEAVE")
        _ = again.drain()
        again.send(1, "NEW bot=hard")
        #expect(again.drain()[1]?.first == "OK NEW bot=hard lang=en")
        // Another name is not limited by alice's games.
        again.named(3, "carol")
        again.send(3, "NEW bot=hard")
        #expect(again.drain()[3]?.first == "OK NEW bot=hard lang=en")
    }

    @Test func aNetworkHasAtMostItsCapOfGamesInProgress() throws {
        let h = try Harness(settings: settings(perNetwork: 3))
        // One IPv6 /64: each address in it counts for the whole network.
        _ = try abandon(h, 1, "ann", address: "2001:db8:1:2::5")
        _ = try abandon(h, 2, "ben", address: "2001:db8:1:2:aaaa::7")
        _ = try abandon(h, 3, "cy", address: "2001:0db8:0001:0002:ffff:ffff:ffff:ffff")
        h.connect(4, address: "2001:db8:1:2::99")
        h.send(4, "NAME dee")
        h.send(4, "NEW bot=easy")
        #expect(h.drain()[4]?.last == "ERR too-many-games your network has 3 games in progress (adjourned ones too); finish or LEAVE some first")
        // Another /64, and an IPv4 address, are not.
        h.connect(5, address: "2001:db8:1:3::5")
        h.send(5, "NAME eve")
        h.send(5, "NEW bot=easy")
        #expect(h.drain()[5]?.last?.hasPrefix("TURN ") == true)
        h.connect(6, address: "192.0.2.1")
        h.send(6, "NAME fay")
        h.send(6, "NEW bot=easy")
        #expect(h.drain()[6]?.last?.hasPrefix("TURN ") == true)
    }

    @Test func networksAreIPv4AddressesAndIPv6Slash64s() {
        #expect(NetworkKey.of("192.0.2.1") == "192.0.2.1")
        #expect(NetworkKey.of("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(NetworkKey.of("2001:db8::1") == "2001:db8::/64")
        #expect(NetworkKey.of("2001:0DB8:0000:0000:1:2:3:4") == "2001:db8::/64")
        #expect(NetworkKey.of("::1") == "::/64")
        #expect(NetworkKey.of("") == "")
    }
}
