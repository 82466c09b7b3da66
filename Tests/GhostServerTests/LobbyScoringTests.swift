import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer
import GhostStore

// `--scores-for` (ScoringPolicy.swift): who the high-score lists
// are for, the farming rule (two people count only from different
// networks), and `registered=yes` on SCORE lines in every mode.
// Accounts are made directly in the store (REGISTER has tests of its
// own), after the connection took its name: what is checked is the end of
// the game, not the login.

/// A lobby with `--scores-for <mode>`, no computer delay, and the test kind
/// `guess` (LobbyKindTests.swift), which has a board of wins and a
/// best-games list.
private func scoringHarness(_ mode: ScoresFor) throws -> Harness {
    var settings = Lobby.Settings()
    settings.botDelay = 0
    settings.scoresFor = mode
    return try Harness(settings: settings, extraKinds: [GuessKind()])
}

extension Harness {
    /// Connects from `address` and takes `name`; drops what that sent.
    func named(_ id: ConnectionID, _ name: String, from address: String) {
        connect(id, address: address)
        send(id, "NAME \(name)")
        _ = drain()
    }

    /// Registers `names` in the store (as REGISTER would, with a dummy hash).
    func register(_ names: String...) throws {
        for name in names { #expect(try store.createAccount(name, hash: "$y$test", now: clock.wall)) }
        try store.commit()
    }

    /// A Ghost game `winner` wins because `loser` leaves after one letter;
    /// returns the winner's lines from its OVER on.
    func ghostGame(winner: ConnectionID, loser: ConnectionID) -> [String] {
        send(winner, "SEEK")
        send(loser, "SEEK")
        send(winner, "p")
        send(loser, "LEAVE")
        return Array((drain()[winner] ?? []).drop { !$0.hasPrefix("OVER ") })
    }

    /// A guess duel: `setter` sets "dog", `guesser` finds it without a
    /// mistake; returns the guesser's lines from its OVER on.
    func guessDuel(setter: ConnectionID, guesser: ConnectionID) throws -> [String] {
        send(setter, "NEW game=guess mode=duel")
        let code = try #require(drain()[setter]?.first.flatMap { Message.parse($0)?["code"] })
        send(guesser, "JOIN \(code)")
        send(setter, "WORD dog")
        for l in "dog" { send(guesser, String(l)) }
        return Array((drain()[guesser] ?? []).drop { !$0.hasPrefix("OVER ") })
    }
}

@Suite(.ownThread) struct LobbyScoringTests {
    // MARK: --scores-for all (the default): as before, and the mark

    @Test func byDefaultGuestsScoreAsBeforeAndRegisteredNamesAreMarked() throws {
        let h = try scoringHarness(.all)
        h.named(1, "alice", from: "10.0.0.1")
        h.named(2, "bob", from: "10.0.0.1")
        try h.register("alice")
        // Two connections of one network, a guest among them: all counts, as before.
        #expect(h.ghostGame(winner: 2, loser: 1).suffix(2) == ["RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"])
        #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bob") == (0, 1))
        h.send(1, "SCORES")
        #expect(h.drain() == [1: [
            "SCORE rank=1 name=bob wins=1 played=1",
            "SCORE rank=2 name=alice wins=0 played=1 registered=yes",
            "OK SCORES count=2 board=game",
        ]])
        // A best-games list marks its names the same way.
        #expect(try h.guessDuel(setter: 2, guesser: 1).last == "RANK board=guess-duel rank=1 word=dog mistakes=0 misses=8 mode=duel lang=en")
        h.send(2, "SCORES game=guess mode=duel")
        #expect(h.drain() == [2: ["SCORE rank=1 name=alice word=dog mistakes=0 misses=8 mode=duel lang=en registered=yes",
                                  "OK SCORES count=1 board=guess-duel"]])
    }

    // MARK: --scores-for registered

    @Test func aGuestsWinDoesNotEnterTheScoresARegisteredNamesDoes() throws {
        let h = try scoringHarness(.registered)
        h.named(1, "alice", from: "10.0.0.1")
        h.named(2, "bob", from: "10.0.0.2")
        try h.register("bob")
        // The guest alice wins: only bob, registered, is on the board.
        #expect(h.ghostGame(winner: 1, loser: 2).suffix(1) == ["RANK name=bob rank=1 wins=0"])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["SCORE rank=1 name=bob wins=0 played=1 registered=yes", "OK SCORES count=1 board=game"]])
        // bob wins: his win counts; alice is still not listed.
        #expect(h.ghostGame(winner: 2, loser: 1).suffix(1) == ["RANK name=bob rank=1 wins=1"])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["SCORE rank=1 name=bob wins=1 played=2 registered=yes", "OK SCORES count=1 board=game"]])
        // A head-to-head record is kept only between two registered names.
        #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bob") == (0, 0))
        // The guest's solved duel is on no best-games list.
        let ending = try h.guessDuel(setter: 2, guesser: 1)
        #expect(ending.first == "OVER id=3 winner=alice loser=bob reason=solved word=dog mistakes=0")
        #expect(!ending.contains { $0.hasPrefix("RANK board=") })
        h.send(1, "SCORES game=guess mode=duel")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=guess-duel"]])
    }

    @Test func twoRegisteredNamesFromDifferentNetworksCount() throws {
        let h = try scoringHarness(.registered)
        h.named(1, "alice", from: "10.0.0.1")
        h.named(2, "bob", from: "2001:db8:1:2::7")
        try h.register("alice", "bob")
        #expect(h.ghostGame(winner: 1, loser: 2).suffix(2) == ["RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"])
        #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bob") == (1, 0))
        #expect(try h.guessDuel(setter: 2, guesser: 1).last == "RANK board=guess-duel rank=1 word=dog mistakes=0 misses=8 mode=duel lang=en")
        h.send(2, "SCORES")
        #expect(h.drain() == [2: [
            "SCORE rank=1 name=alice wins=1 played=1 registered=yes",
            "SCORE rank=2 name=bob wins=0 played=1 registered=yes",
            "OK SCORES count=2 board=game",
        ]])
        h.send(2, "SCORES game=guess mode=duel")
        #expect(h.drain() == [2: ["SCORE rank=1 name=alice word=dog mistakes=0 misses=8 mode=duel lang=en registered=yes",
                                  "OK SCORES count=1 board=guess-duel"]])
    }

    /// The "Farming" attack: two names one person owns, played
    /// against each other from one network, win nothing on the lists.
    @Test func farmingFromOneNetworkCountsOnNoList() throws {
        let h = try scoringHarness(.registered)
        // One IPv6 /64 is one network, whatever the addresses in it.
        h.named(1, "alice", from: "2001:db8:1:2::1")
        h.named(2, "bob", from: "2001:db8:1:2:ffff::9")
        try h.register("alice", "bob")
        let ghost = h.ghostGame(winner: 1, loser: 2)
        #expect(ghost.first == "OVER id=1 winner=alice loser=bob reason=left fragment=p")
        #expect(!ghost.contains { $0.hasPrefix("RANK ") })
        let duel = try h.guessDuel(setter: 2, guesser: 1)
        #expect(duel == ["OVER id=2 winner=alice loser=bob reason=solved word=dog mistakes=0", "INFO alice wins."])
        h.send(1, "SCORES")
        h.send(1, "SCORES game=guess mode=duel")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game", "OK SCORES count=0 board=guess-duel"]])
        // Their own record against each other is theirs: it is kept.
        #expect(try h.store.scoreStore.headToHead(kind: "ghost", "alice", "bob") == (1, 0))
    }

    @Test func twoPeopleWithoutAKnownNetworkCountOnNoList() throws {
        let h = try scoringHarness(.registered)
        h.named(1, "alice")   // no address: nothing proves they are apart
        h.named(2, "bob")
        try h.register("alice", "bob")
        #expect(!h.ghostGame(winner: 1, loser: 2).contains { $0.hasPrefix("RANK ") })
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])
    }

    @Test func againstTheComputerARegisteredNameCountsAGuestDoesNot() throws {
        let h = try scoringHarness(.registered)
        h.named(1, "alice", from: "10.0.0.1")
        h.named(2, "bob", from: "10.0.0.1")
        try h.register("alice")
        #expect(Array(h.play(1, "tac").drop { !$0.hasPrefix("OVER ") }) == [
            "OVER id=1 winner=alice loser=bot-guess reason=solved word=cat mistakes=0",
            "INFO alice wins.",
            "RANK name=alice rank=1 wins=1",
            "RANK board=guess-short rank=1 word=cat mistakes=0 misses=8 mode=short lang=en",
        ])
        #expect(Array(h.play(2, "tac").drop { !$0.hasPrefix("OVER ") }) == [
            "OVER id=2 winner=bob loser=bot-guess reason=solved word=cat mistakes=0",
            "INFO bob wins.",
        ])
        h.send(2, "SCORES game=guess")
        #expect(h.drain() == [2: ["SCORE rank=1 name=alice word=cat mistakes=0 misses=8 mode=short lang=en registered=yes",
                                  "OK SCORES count=1 board=guess-short"]])
    }

    // MARK: The decision itself

    @Test func thePolicyDecidesWithoutLookUpsByDefault() throws {
        struct Asked: Error {}
        let all = ScoringPolicy(scoresFor: .all)
        let noLookUp: () throws -> [Bool] = { throw Asked() }
        let noNetworks: () throws -> [String] = { throw Asked() }
        #expect(try all.decide(people: [true, true], owners: noLookUp, networks: noNetworks)
                == .init(listed: [true, true], headToHead: true))
        #expect(try all.decide(people: [false, true], owners: noLookUp, networks: noNetworks)
                == .init(listed: [false, true], headToHead: false))
        let owners = ScoringPolicy(scoresFor: .registered)
        // Against the computer the networks are not read.
        #expect(try owners.decide(people: [true, false], owners: { [true, false] }, networks: noNetworks)
                == .init(listed: [true, false], headToHead: false))
        #expect(try owners.decide(people: [true, true], owners: { [true, false] }, networks: { ["1.2.3.4", "1.2.3.5"] })
                == .init(listed: [true, false], headToHead: false))
        #expect(try owners.decide(people: [true, true], owners: { [true, true] }, networks: { ["1.2.3.4", "1.2.3.4"] })
                == .init(listed: [false, false], headToHead: true))
        #expect(try owners.decide(people: [true, true], owners: { [true, true] }, networks: { ["1.2.3.4", ""] })
                == .init(listed: [false, false], headToHead: true))
        #expect(try owners.decide(people: [true, true], owners: { [true, true] }, networks: { [] })
                == .init(listed: [false, false], headToHead: true))
        #expect(try owners.decide(people: [false, false], owners: noLookUp, networks: noNetworks)
                == .init(listed: [false, false], headToHead: false))
    }
}
