import Foundation
import Testing
import TestSupport
import GhostProtocol
import GhostStore
@testable import GhostServer
import GameKit

/// Glicko-2 ratings through the lobby: which games are rated,
/// the exact `ratings=`/`changes=` fields of GAME and OVER, the store's
/// record, `rated=`, `range=`, and a restart.
@Suite(.ownThread) struct LobbyRatingsTests {
    static let pw = "correct horse battery"

    /// `id` named `name` and registered; its lines dropped.
    func register(_ h: Harness, _ id: ConnectionID, _ name: String) {
        h.named(id, name)
        h.send(id, "REGISTER \(Self.pw)")
        #expect(h.drain()[id] == ["OK REGISTER name=\(name)"])
    }

    /// The resume token on the GAME line among `lines`.
    func token(_ lines: [String]?) throws -> String {
        let game = try #require(lines?.first { $0.hasPrefix("GAME ") })
        return try #require(Message.parse(game)?["token"])
    }

    /// alice (1) and bob (2) seek, are paired as game `id`, and play "pear": bob's loss.
    @discardableResult
    func seekAndPlayPear(_ h: Harness, game id: Int) -> [ConnectionID: [String]] {
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        _ = h.drain()
        return playPear(h, game: id)
    }

    /// alice (1) and bob (2) have sought and been paired; alice plays p, e, a, r's "pear" is bob's loss.
    func playPear(_ h: Harness, game id: Int) -> [ConnectionID: [String]] {
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "a")
        _ = h.drain()
        h.send(2, "r")
        return h.drain()
    }

    @Test("A game between two registered names is rated: GAME shows ratings=1500?,1500?, OVER the new ones and the changes; the store keeps them")
    func ratedGameBetweenRegisteredNames() throws {
        let h = try Harness()
        register(h, 1, "alice")
        register(h, 2, "bob")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        #expect(d[1] == ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                         "GAME id=1 game=ghost lang=en players=alice,bob token=\(ta) round=1 ratings=1500?,1500?",
                         "TURN id=1 player=alice fragment="])
        #expect(d[2] == ["OK SEEK lang=en", "GAME id=1 game=ghost lang=en players=alice,bob token=\(tb) round=1 ratings=1500?,1500?",
                         "TURN id=1 player=alice fragment="])
        let end = playPear(h, game: 1)
        let over = "OVER id=1 winner=alice loser=bob reason=word fragment=pear ratings=1662?,1338? changes=+162,-162"
        #expect(end[1]?.contains(over) == true, "\(end[1] ?? [])")
        #expect(end[2]?.contains(over) == true, "\(end[2] ?? [])")
        // The client decodes them.
        #expect(ServerLine(decoding: over) == .over(id: 1, winner: "alice", loser: "bob", reason: .init(rawValue: "word"),
                                                     fields: [Field("fragment", "pear")],
                                                     ratings: SeatRatings([ShownRating(1662, provisional: true), ShownRating(1338, provisional: true)],
                                                                          changes: [162, -162])))
        let alice = try #require(try h.store.ratingStore.rating(of: "alice", board: "ghost"))
        #expect((alice.games, alice.wins, alice.losses) == (1, 1, 0))
        #expect(abs(alice.rating - 1662.21) < 0.01 && abs(alice.deviation - 290.23) < 0.01)
        #expect(alice.best == BestWin(game: 1, opponent: "bob", rating: 1500))
        let bob = try #require(try h.store.ratingStore.rating(of: "bob", board: "ghost"))
        #expect((bob.games, bob.wins, bob.losses, bob.best) == (1, 0, 1, nil))
        #expect(try h.store.isRated(game: 1))
        // The next game shows the ratings as they are now.
        h.send(2, "SEEK")
        h.send(1, "SEEK")
        let next = h.drain()
        #expect(next[1]?.contains { $0.hasPrefix("GAME id=2 ") && $0.hasSuffix(" record=1-0 ratings=1338?,1662?") } == true, "\(next[1] ?? [])")
    }

    @Test("A guest's game is not rated: no ratings= on GAME or OVER, nothing stored; rated=yes from a guest is ERR cannot-rate")
    func guestGamesAreNotRated() throws {
        let h = try Harness()
        register(h, 1, "alice")
        h.named(2, "bob")
        h.send(2, "SEEK rated=yes")
        h.send(2, "NEW bot=easy rated=yes")
        h.send(2, "SEEK range=1300-1700")
        #expect(h.drain()[2] == [
            "ERR cannot-rate only registered names play rated games: REGISTER your name, or log in with NAME <name> <password>",
            // Against the computer the name does not matter: never rated.
            LobbyRatingsTests.computerNeverRated,
            "ERR cannot-rate only registered names play rated games: REGISTER your name, or log in with NAME <name> <password>",
        ])
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        let d = h.drain()
        #expect(d[2]?.contains { $0.hasPrefix("GAME ") && !$0.contains("ratings=") } == true, "\(d[2] ?? [])")
        let end = playPear(h, game: 1)
        #expect(end[2]?.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear") == true, "\(end[2] ?? [])")
        #expect(try h.store.ratingStore.rating(of: "alice", board: "ghost") == nil)
        #expect(try !h.store.isRated(game: 1))
    }

    @Test("rated=no keeps two registered names' game unrated; a game that is never rated refuses rated=yes")
    func ratedNo() throws {
        let h = try Harness()
        register(h, 1, "alice")
        register(h, 2, "bob")
        h.send(1, "NEW game=hangman rated=yes")
        #expect(h.drain()[1] == ["ERR cannot-rate that game is never rated: Ghost, Superghost, challenge and Hangman duels are"])
        h.send(1, "SEEK rated=no range=1000-2000")
        #expect(h.drain()[1] == ["ERR bad-arguments range= is for a rated seek; leave out rated=no"])
        h.send(1, "SEEK")
        h.send(2, "SEEK rated=no")
        let d = h.drain()
        #expect(d[1]?.contains { $0.hasPrefix("GAME ") && !$0.contains("ratings=") } == true, "\(d[1] ?? [])")
        _ = playPear(h, game: 1)
        #expect(try h.store.ratingStore.rating(of: "alice", board: "ghost") == nil)
    }

    /// A harness whose computer moves at once, and whose TOP lists a name after one game.
    func computerHarness(directory: String? = nil) throws -> Harness {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        settings.topMinGames = 1
        settings.topMaxDeviation = 350
        return try Harness(directory: directory, settings: settings)
    }

    static let computerNeverRated = "ERR cannot-rate a game against the computer is never rated: ratings are for games between registered names; leave out rated=yes"

    /// A solver beat Hard (then fixed at 2200) 40 times in 40 and led TOP.
    /// On the lobby's lists the first player wins with c (c, a, t, then the computer must make "cats").
    @Test("Against the computer nothing is rated: NEW bot=… rated=yes is ERR cannot-rate; a registered name who beats Hard has no rating, and GAME, OVER, HISTORY, PROFILE and TOP show none; the per-level board counts the win")
    func neverRatedAgainstTheComputer() throws {
        let h = try computerHarness()
        register(h, 1, "alice")
        h.send(1, "NEW bot=hard rated=yes")
        h.send(1, "NEW bot=easy first=bot rated=yes")
        h.send(1, "NEW game=hangman mode=duel bot=guesser rated=yes")
        #expect(h.drain()[1] == [Self.computerNeverRated, Self.computerNeverRated, Self.computerNeverRated])
        // The default for a registered name: unrated, no ratings= on GAME.
        h.send(1, "NEW bot=hard")
        let start = h.drain()[1] ?? []
        let game = try #require(start.first { $0.hasPrefix("GAME id=1 ") }, "\(start)")
        #expect(game.hasSuffix(" round=1 bot=hard"), "\(game)")
        h.send(1, "c")
        h.send(1, "t")
        let end = h.drain()[1] ?? []
        let over = try #require(end.first { $0.hasPrefix("OVER id=1 ") }, "\(end)")
        #expect(over.contains(" winner=alice loser=bot-hard ") && !over.contains("ratings=") && !over.contains("changes="), "\(over)")
        // Nothing stored as a rating.
        #expect(try h.store.ratingStore.rating(of: "alice", board: "ghost") == nil)
        #expect(try !h.store.isRated(game: 1))
        h.send(1, "HISTORY")
        h.send(1, "PROFILE alice")
        h.send(1, "TOP")
        h.send(1, "SCORES bot=hard")
        let d = h.drain()[1] ?? []
        let result = try #require(d.first { $0.hasPrefix("RESULT id=1 ") }, "\(d)")
        #expect(result.contains(" opponent=bot-hard result=win ") && !result.contains("change="), "\(result)")
        #expect(d.contains("OK PROFILE name=alice registered=yes ratings=0"), "\(d)")
        #expect(!d.contains { $0.hasPrefix("RATING ") || $0.hasPrefix("LEADER ") }, "\(d)")
        #expect(d.contains("OK TOP count=0 board=ghost min_games=1"), "\(d)")
        // Its own scores per level are kept as before.
        #expect(d.contains { $0.hasPrefix("SCORE rank=1 name=alice wins=1 played=1") }, "\(d)")
        // rated=no against the computer is taken (it changes nothing).
        h.send(1, "NEW bot=easy rated=no")
        #expect(h.drain()[1]?.contains { $0.hasPrefix("GAME id=2 ") && !$0.contains("ratings=") } == true)
    }

    @Test("A game against the computer that a ghostd before issue #43 marked rated ends unrated after a restart: no ratings= on RESUME's GAME or on OVER, no rating stored")
    func computerGameMarkedRatedBeforeTheFix() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-ratings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var resume = ""
        do {
            let h = try computerHarness(directory: dir)
            register(h, 1, "alice")
            h.send(1, "NEW bot=hard")
            resume = try token(h.drain()[1])
            h.send(1, "c")
            _ = h.drain()
            // As the old code stored it: rated, with the computer's fixed rating.
            try h.store.markRated(game: 1, ratings: [1500, 2200])
            try h.store.commit()
            #expect(try h.store.isRated(game: 1))
        }
        let h = try computerHarness(directory: dir)
        h.connect(1)
        h.send(1, "NAME alice \(Self.pw)")
        _ = h.drain()
        h.send(1, "RESUME \(resume)")
        let back = h.drain()[1] ?? []
        let game = try #require(back.first { $0.hasPrefix("GAME id=1 ") }, "\(back)")
        #expect(!game.contains("ratings="), "\(game)")
        h.send(1, "t")
        let end = h.drain()[1] ?? []
        let over = try #require(end.first { $0.hasPrefix("OVER id=1 ") }, "\(end)")
        #expect(over.contains(" winner=alice ") && !over.contains("ratings="), "\(over)")
        #expect(try h.store.ratingStore.rating(of: "alice", board: "ghost") == nil)
    }

    @Test("SEEK range= pairs only within the range, both ways; a bad range is ERR bad-value")
    func rangeSeek() throws {
        let h = try Harness()
        register(h, 1, "alice")
        register(h, 2, "bob")
        register(h, 3, "carol")
        h.send(1, "SEEK range=1700-1300")
        h.send(1, "SEEK range=13001700")
        h.send(1, "SEEK range=0-4001")
        let bad = "ERR bad-value range= is <low>-<high>, two ratings from 0 to 4000, low first (range=1300-1700)"
        #expect(h.drain()[1] == [bad, bad, bad])
        // alice (1500) wants 1600-1700: bob (1500) does not fit; he waits behind her.
        h.send(1, "SEEK range=1600-1700")
        h.send(2, "SEEK")
        var d = h.drain()
        #expect(d[2]?.contains { $0.hasPrefix("GAME ") } == false, "\(d[2] ?? [])")
        // carol (1500) asks 1400-1600: alice does not fit her? alice is 1500, in it, but carol is not in alice's range;
        // bob fits: carol and bob are paired, alice still waits.
        h.send(3, "SEEK range=1400-1600")
        d = h.drain()
        #expect(d[3]?.contains { $0.hasPrefix("GAME id=1 ") && $0.contains("players=bob,carol") } == true, "\(d[3] ?? [])")
        #expect(d[1] == nil)
    }

    @Test("Ratings survive a restart: the store keeps them and a reopened lobby shows them")
    func restartKeepsRatings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-ratings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let h = try Harness(directory: dir)
            register(h, 1, "alice")
            register(h, 2, "bob")
            seekAndPlayPear(h, game: 1)
        }
        let h = try Harness(directory: dir)
        h.connect(1)
        h.send(1, "NAME alice \(Self.pw)")
        h.connect(2)
        h.send(2, "NAME bob \(Self.pw)")
        _ = h.drain()
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        let d = h.drain()
        #expect(d[1]?.contains { $0.hasPrefix("GAME id=2 ") && $0.hasSuffix(" record=1-0 ratings=1662?,1338?") } == true, "\(d[1] ?? [])")
    }
}

/// TOP, PROFILE and HISTORY through the lobby: exact lines.
@Suite(.ownThread) struct LobbyRatingsCommandsTests {
    let base = LobbyRatingsTests()

    /// alice (1) beats bob (2) in a rated game (game 1), carol (3) is a guest.
    func aliceBeatsBob(settings: Lobby.Settings = Lobby.Settings()) throws -> Harness {
        let h = try Harness(settings: settings)
        base.register(h, 1, "alice")
        base.register(h, 2, "bob")
        h.named(3, "carol")
        base.seekAndPlayPear(h, game: 1)
        return h
    }

    @Test("TOP lists the names with enough games and a low enough RD, best first; a board without ratings is ERR bad-arguments")
    func top() throws {
        var settings = Lobby.Settings()
        settings.topMinGames = 1
        settings.topMaxDeviation = 300
        let h = try aliceBeatsBob(settings: settings)
        h.send(3, "TOP")
        h.send(3, "TOP game=ghost 1")
        h.send(3, "TOP variant=super")
        h.send(3, "TOP game=hangman variant=evil")
        h.send(3, "TOP 0")
        #expect(h.drain()[3] == [
            "LEADER rank=1 name=alice rating=1662? rd=290 games=1 wins=1 losses=0",
            "LEADER rank=2 name=bob rating=1338? rd=290 games=1 wins=0 losses=1",
            "OK TOP count=2 board=ghost min_games=1 max_rd=300",
            "LEADER rank=1 name=alice rating=1662? rd=290 games=1 wins=1 losses=0",
            "OK TOP count=1 board=ghost min_games=1 max_rd=300",
            "OK TOP count=0 board=ghost-super min_games=1 max_rd=300",
            "ERR bad-arguments no rating list for that game: TOP, TOP variant=super, TOP variant=challenge or TOP game=hangman",
            "ERR bad-arguments usage: TOP [game=<kind>] [variant=<variant>] [n]",
        ])
        // With the default settings (10 games, any RD) nobody is listed after one game.
        let strict = try aliceBeatsBob()
        strict.send(3, "TOP")
        #expect(strict.drain()[3] == ["OK TOP count=0 board=ghost min_games=10"])
    }

    @Test("PROFILE gives each rating with RD, games, wins, losses and best win, and the asker's record against the name")
    func profile() throws {
        let h = try aliceBeatsBob()
        h.send(2, "PROFILE alice")
        h.send(3, "PROFILE ALICE")
        h.send(3, "PROFILE carol")
        h.send(3, "PROFILE nobody")
        let d = h.drain()
        #expect(d[2] == [
            "RATING board=ghost rating=1662? rd=290 games=1 wins=1 losses=0 best=1 best_opponent=bob best_rating=1500",
            "VERSUS game=ghost record=0-1",
            "OK PROFILE name=alice registered=yes ratings=1",
        ])
        #expect(d[3] == [
            "RATING board=ghost rating=1662? rd=290 games=1 wins=1 losses=0 best=1 best_opponent=bob best_rating=1500",
            "OK PROFILE name=alice registered=yes ratings=1",
            "OK PROFILE name=carol registered=no ratings=0",
            "ERR no-such-name nobody called nobody has played here",
        ])
    }

    @Test("HISTORY lists finished games newest first with result, reason and rating change; private games only to their players")
    func history() throws {
        let h = try aliceBeatsBob()
        // A private (watch=no) unrated game between alice and carol, which carol wins by alice leaving.
        h.send(1, "NEW watch=no")
        let code = try #require(h.drain()[1]?.first.flatMap { Message.parse($0)?["code"] })
        h.send(3, "JOIN \(code)")
        h.send(1, "p")
        h.send(1, "LEAVE")
        _ = h.drain()
        let ended = { (id: Int) in try h.store.ratingStore.history(of: "alice", includePrivate: true, limit: 5).first { $0.id == id }?.endedAt ?? -1 }
        let e1 = try ended(1), e2 = try ended(2)
        h.send(1, "HISTORY")
        h.send(2, "HISTORY alice 5")
        h.send(3, "HISTORY 1")
        h.send(3, "HISTORY nobody")
        let d = h.drain()
        #expect(d[1] == [
            "RESULT id=2 game=ghost opponent=carol result=loss reason=left ended=\(e2) lang=en",
            "RESULT id=1 game=ghost opponent=bob result=win reason=word change=+162 ended=\(e1) lang=en",
            "OK HISTORY name=alice count=2",
        ])
        #expect(d[2] == [
            "RESULT id=1 game=ghost opponent=bob result=win reason=word change=+162 ended=\(e1) lang=en",
            "OK HISTORY name=alice count=1",
        ])
        #expect(d[3] == [
            "RESULT id=2 game=ghost opponent=alice result=win reason=left ended=\(e2) lang=en",
            "OK HISTORY name=carol count=1",
            "ERR no-such-name nobody called nobody has played here",
        ])
    }
}

/// rated=yes at NEW keeps guests out of a private game; a rated private game between registered names.
@Suite(.ownThread) struct LobbyRatedJoinTests {
    let base = LobbyRatingsTests()

    @Test("NEW rated=yes: a guest's JOIN is ERR cannot-rate and the game stays open; a registered name's JOIN starts it rated")
    func ratedPrivateGame() throws {
        let h = try Harness()
        base.register(h, 1, "alice")
        base.register(h, 2, "bob")
        h.named(3, "carol")
        h.send(1, "NEW rated=yes")
        let code = try #require(h.drain()[1]?.first.flatMap { Message.parse($0)?["code"] })
        h.send(3, "JOIN \(code)")
        #expect(h.drain()[3] == ["ERR cannot-rate that game is rated (rated=yes): log in to a registered name to join it"])
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        #expect(d[2]?.contains { $0.hasPrefix("GAME id=1 ") && $0.hasSuffix(" ratings=1500?,1500?") } == true, "\(d[2] ?? [])")
    }

    @Test("A rated game in progress stays rated across a restart: RESUME's GAME shows the ratings, read from the store")
    func ratedGameResumedAfterARestart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghostd-ratings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var token = ""
        do {
            let h = try Harness(directory: dir)
            base.register(h, 1, "alice")
            base.register(h, 2, "bob")
            h.send(1, "SEEK")
            h.send(2, "SEEK")
            token = try base.token(h.drain()[1])
            h.send(1, "p")
            _ = h.drain()
        }
        let h = try Harness(directory: dir)
        h.connect(1)
        h.send(1, "RESUME \(token)")
        let d = h.drain()
        #expect(d[1]?.contains("GAME id=1 game=ghost lang=en players=alice,bob token=\(token) round=1 ratings=1500?,1500?") == true,
                "\(d[1] ?? [])")
    }
}
