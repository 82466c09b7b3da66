import Testing
import GhostProtocol
import GhostStore
import Ratings
@testable import GhostServer

/// Can two players reach TOP with the server's
/// Glicko-2, and what TOP says while nobody has. Item 22: HISTORY's
/// RESULT lines carry the game's language.
@Suite struct Issue44RatingsTests {
    /// Two new players (1500 / 350 / 0.06) play `n` rated games against each
    /// other back to back (`gap` seconds apart), A winning game i when
    /// `aWins(i)`, rated as the server rates them (`RatingsPolicy.system`).
    /// Each game's ratings after it.
    static func play(_ n: Int, gap: Double = 120, aWins: (Int) -> Bool) -> [(a: Rating, b: Rating)] {
        var a = Rating.initial, b = Rating.initial
        var after: [(a: Rating, b: Rating)] = []
        for i in 1...n {
            let elapsed = i == 1 ? 0 : gap
            let won = aWins(i)
            let na = RatingsPolicy.system.rate(a, after: Ratings.Game(b, won ? .win : .loss), elapsed: elapsed)
            let nb = RatingsPolicy.system.rate(b, after: Ratings.Game(a, won ? .loss : .win), elapsed: elapsed)
            (a, b) = (na, nb)
            after.append((a, b))
        }
        return after
    }

    /// The first game after which both RDs are at most `rd` (nil: never in these games).
    static func firstAtMost(_ rd: Double, _ games: [(a: Rating, b: Rating)]) -> Int? {
        games.firstIndex { $0.a.deviation <= rd && $0.b.deviation <= rd }.map { $0 + 1 }
    }

    @Test("Measured: two players' RD after N games against each other, back to back. Mixed results reach RD 110 in 13–35 games; one who wins every game leaves both above 110 for more than 400 games (RD 157 after 44)")
    func deviationBetweenTwoPlayers() {
        let rd = { (x: Rating) in Int(x.deviation.rounded()) }
        // Won in turn: both reach 110 after 13 games, 55 after 44 (127 after 10).
        let alternate = Self.play(44) { $0 % 2 == 0 }
        #expect(Self.firstAtMost(110, alternate) == 13)
        #expect(rd(alternate[9].a) == 127 && rd(alternate[43].a) == 55)
        // A wins 9 games in 10: 110 after 35 games.
        #expect(Self.firstAtMost(110, Self.play(60) { $0 % 10 != 0 }) == 35)
        // A wins every game: the ratings drift apart, each game tells less
        // (E(1 − E) shrinks), and RD stays provisional: 199 after 10 games,
        // 157 after 44, 124 after 200, 110 only
        // after more than 400.
        let lopsided = Self.play(450) { _ in true }
        #expect(rd(lopsided[9].a) == 199 && rd(lopsided[9].b) == 199)
        #expect(rd(lopsided[43].a) == 157 && rd(lopsided[199].a) == 124)
        #expect(Int(lopsided[43].a.rating.rounded()) == 1937 && Int(lopsided[43].b.rating.rounded()) == 1063)
        #expect((Self.firstAtMost(110, lopsided) ?? 0) > 400)
        // After the 10 games TOP asks for, RD is at most 199 whoever won:
        // well inside the default --top-max-rd 350 (any RD).
        for k in [1, 2, 3, 5, 10, 1000] {
            let games = Self.play(10) { $0 % k != 0 }
            #expect(games[9].a.deviation < 200 && games[9].b.deviation < 200, "A loses every \(k)th game: \(games[9])")
        }
        print("Issue #44 item 16, RD after n games between two players:",
              "alternate n=10 \(rd(alternate[9].a)) n=44 \(rd(alternate[43].a));",
              "one wins all n=10 \(rd(lopsided[9].a)) n=44 \(rd(lopsided[43].a)) n=200 \(rd(lopsided[199].a)),",
              "110 after \(Self.firstAtMost(110, lopsided).map(String.init) ?? "never")")
    }

    let base = LobbyRatingsTests()

    /// alice (1) and bob (2), registered, seek and alice wins "pear" `n` times.
    func aliceBeatsBob(_ n: Int, settings: Lobby.Settings = Lobby.Settings()) throws -> Harness {
        let h = try Harness(settings: settings)
        base.register(h, 1, "alice")
        base.register(h, 2, "bob")
        for game in 1...n {
            base.seekAndPlayPear(h, game: game)
            h.clock.advance(120)
        }
        return h
    }

    @Test("With the defaults (10 games, any RD) alice and bob, one of whom won all 10 games, are on TOP, provisional with ?; OK TOP says the rule (min_games=10)")
    func defaultsListProvisionalNames() throws {
        let h = try aliceBeatsBob(10)
        h.named(3, "carol")
        h.send(3, "TOP")
        #expect(h.drain()[3] == [
            "LEADER rank=1 name=alice rating=1841? rd=199 games=10 wins=10 losses=0",
            "LEADER rank=2 name=bob rating=1159? rd=199 games=10 wins=0 losses=10",
            "OK TOP count=2 board=ghost min_games=10",
        ])
    }

    @Test("Before 10 rated games nobody is listed, and OK TOP says min_games=10; with --top-max-rd 110 the RD limit is said too (max_rd=110) and the provisional names stay off")
    func topSaysTheRule() throws {
        let h = try aliceBeatsBob(9)
        h.send(1, "TOP")
        #expect(h.drain()[1] == ["OK TOP count=0 board=ghost min_games=10"])
        var strict = Lobby.Settings()
        strict.topMaxDeviation = 110
        let s = try aliceBeatsBob(10, settings: strict)
        s.send(1, "TOP variant=super 5")
        s.send(1, "TOP")
        #expect(s.drain()[1] == ["OK TOP count=0 board=ghost-super min_games=10 max_rd=110",
                                 "OK TOP count=0 board=ghost min_games=10 max_rd=110"])
    }

    @Test("HISTORY's RESULT ends with the game's language: lang=nl for a Dutch game, lang=en for an English one (exact lines)")
    func historyCarriesTheLanguage() throws {
        let h = try Harness()
        base.register(h, 1, "alice")
        base.register(h, 2, "bob")
        // An English game: alice wins "pear".
        base.seekAndPlayPear(h, game: 1)
        let e1 = h.clock.wall
        h.clock.advance(60)
        // A Dutch one: bob completes "huis" and loses.
        h.send(1, "LANG nl")
        h.send(2, "LANG nl")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        _ = h.drain()
        h.send(1, "h")
        h.send(2, "u")
        h.send(1, "i")
        _ = h.drain()
        h.send(2, "s")
        let end = h.drain()
        #expect(end[1]?.contains { $0.hasPrefix("OVER id=2 winner=alice loser=bob reason=word") } == true, "\(end[1] ?? [])")
        let e2 = h.clock.wall
        h.send(2, "HISTORY alice")
        let d = h.drain()[2] ?? []
        #expect(d.count == 3 && d[0].hasPrefix("RESULT id=2 game=ghost opponent=bob result=win reason=word change=+")
                && d[0].hasSuffix(" ended=\(e2) lang=nl"), "\(d)")
        #expect(d.dropFirst() == ["RESULT id=1 game=ghost opponent=bob result=win reason=word change=+162 ended=\(e1) lang=en",
                                  "OK HISTORY name=alice count=2"])
    }
}
