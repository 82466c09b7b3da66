import Foundation
import Testing
import GhostProtocol
@testable import GhostServer

/// Between two people `GAME`'s `record=` added up every
/// Ghost variant, while against the computer it was per variant. It is per
/// variant between people too (Superghost's record apart from Ghost's), and
/// `PROFILE`'s `VERSUS` lines name the variant.
@Suite struct LobbyRecordPerVariantTests {
    /// alice (1) and bob (2) seek with `options`; the first seat plays a
    /// letter, then connection `loser` leaves (a loss). Returns each one's GAME line.
    private func play(_ h: Harness, _ options: String, loser: Int) throws -> (alice: String, bob: String) {
        h.send(1, "SEEK" + options)
        h.send(2, "SEEK" + options)
        let d = h.drain()
        let a = try #require(d[1]?.first { $0.hasPrefix("GAME ") }, "\(d)")
        let b = try #require(d[2]?.first { $0.hasPrefix("GAME ") }, "\(d)")
        // The first seat plays a letter (LEAVE before any move aborts), then the loser leaves.
        let players = try #require(Message.parse(a)?["players"])
        h.send(players.hasPrefix("alice") ? 1 : 2, "p")
        h.send(loser, "LEAVE")
        let end = h.drain()
        #expect(end[1]?.contains { $0.hasPrefix("OVER ") && $0.contains(" reason=left") } == true, "\(end)")
        return (a, b)
    }

    @Test("Item 19: GAME's record= between two people is per variant (Superghost apart from Ghost), and PROFILE's VERSUS names the variant")
    func recordPerVariant() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        // A Ghost game: alice wins (bob leaves).
        let first = try play(h, "", loser: 2)
        #expect(!first.alice.contains("record="))
        // Their first Superghost game: no record, although they have a Ghost one.
        let super1 = try play(h, " variant=super", loser: 1)
        #expect(super1.alice.contains("variant=super") && !super1.alice.contains("record="), "\(super1.alice)")
        // The second Superghost game: bob 1-0 in Superghost, from each side.
        let super2 = try play(h, " variant=super", loser: 1)
        #expect(super2.alice.hasSuffix(" record=0-1") && super2.bob.hasSuffix(" record=1-0"), "\(super2)")
        // Back to Ghost: alice 1-0 in Ghost, the Superghost games not in it.
        let ghost2 = try play(h, "", loser: 1)
        #expect(ghost2.alice.hasSuffix(" record=1-0") && ghost2.bob.hasSuffix(" record=0-1"), "\(ghost2)")
        // PROFILE: one VERSUS line per variant, Ghost's without variant=.
        h.send(1, "PROFILE bob")
        let profile = h.drain()[1] ?? []
        #expect(profile.filter { $0.hasPrefix("VERSUS ") } == ["VERSUS game=ghost record=1-1", "VERSUS game=ghost variant=super record=0-2"],
                "\(profile)")
    }
}
