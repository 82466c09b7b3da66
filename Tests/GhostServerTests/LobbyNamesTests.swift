import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

@Suite("Lobby: names, scores and settings", .ownThread) struct LobbyNamesTests {
    @Test func namesListsTheMostRecentFirstBoundedWithAPrefixSearch() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 0
        let h = try Harness(settings: settings)
        h.connect(9)
        h.send(9, "NAMES")
        #expect(h.drain() == [9: ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl", "OK NAMES count=0 more=no"]])
        for (id, name) in [(1, "alice"), (2, "Zoe"), (3, "bob")] {
            h.named(ConnectionID(id), name)
            h.clock.advance(1)
        }
        h.disconnect(1)
        // A second spelling of a known name is the same name, and now the most recent.
        h.named(4, "ALICE")
        h.send(9, "NAMES")
        #expect(h.drain() == [9: ["NAME name=alice", "NAME name=bob", "NAME name=Zoe", "OK NAMES count=3 more=no"]])
        h.send(9, "NAMES 2")
        #expect(h.drain() == [9: ["NAME name=alice", "NAME name=bob", "OK NAMES count=2 more=yes"]])
        h.send(9, "NAMES prefix=Z")
        #expect(h.drain() == [9: ["NAME name=Zoe", "OK NAMES count=1 more=no"]])
        // `_` and `-` in a prefix are themselves, not patterns.
        h.named(5, "a_b")
        h.named(6, "axb")
        h.send(9, "NAMES prefix=a_")
        #expect(h.drain() == [9: ["NAME name=a_b", "OK NAMES count=1 more=no"]])
        // Many names: one reply holds at most 100, 20 unless asked.
        for i in 0..<120 { h.named(ConnectionID(100 + i), "u\(i)") }
        h.send(9, "NAMES")
        let twenty = h.drain()[9] ?? []
        #expect(twenty.count == 21 && twenty.last == "OK NAMES count=20 more=yes", "\(twenty)")
        h.send(9, "NAMES 100")
        #expect(h.drain()[9]?.last == "OK NAMES count=100 more=yes")
        h.send(9, "NAMES prefix=u11 100")
        // All in the same second: the tie goes by name.
        #expect(h.drain()[9] == ["NAME name=u11"] + (110..<120).map { "NAME name=u\($0)" } + ["OK NAMES count=11 more=no"])
        h.send(9, "names x")
        #expect(isErr(h.drain()[9]?.first, .badArguments))
    }

    @Test func newNamesAreLimitedPerAddressKnownOnesNever() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 6     // one every 10 s
        settings.newNameBurst = 3
        let h = try Harness(settings: settings)
        h.connect(1, address: "10.0.0.1")
        _ = h.drain()
        for name in ["n1", "n2", "n3"] {
            h.send(1, "NAME \(name)")
            #expect(h.drain() == [1: ["OK NAME name=\(name) lang=en"]])
        }
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["ERR too-many-names too many new names from your address; try again in 10 s, or use a name you have used before"]])
        // Nothing changed: still n3; a name used before is never limited.
        h.send(1, "NAME N1")
        #expect(h.drain() == [1: ["OK NAME name=N1 lang=en"]])
        h.send(1, "NAMES")
        #expect(h.drain() == [1: ["NAME name=n1", "NAME name=n2", "NAME name=n3", "OK NAMES count=3 more=no"]])
        // Another address has its own allowance.
        h.connect(2, address: "10.0.0.2")
        h.send(2, "NAME other")
        #expect(h.drain()[2]?.last == "OK NAME name=other lang=en")
        // Ten seconds later there is one more.
        h.clock.advance(4)
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["ERR too-many-names too many new names from your address; try again in 6 s, or use a name you have used before"]])
        h.clock.advance(6)
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["OK NAME name=n4 lang=en"]])
        h.send(1, "NAME n5")
        #expect(isErr(h.drain()[1]?.first, .tooManyNames))
    }

    @Test func scoresRankByWinsWithTies() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])
        h.quickGame(winner: 1, loser: 2)
        h.send(3, "SEEK")
        h.send(4, "SEEK")
        h.send(3, "p")   // a move first: LEAVE before any aborts
        h.send(4, "LEAVE")
        #expect(h.drain()[3]?.suffix(2) == ["RANK name=carol rank=1 wins=1", "RANK name=dave rank=3 wins=0"])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: [
            "SCORE rank=1 name=alice wins=1 played=1",
            "SCORE rank=1 name=carol wins=1 played=1",
            "SCORE rank=3 name=bob wins=0 played=1",
            "SCORE rank=3 name=dave wins=0 played=1",
            "OK SCORES count=4 board=game",
        ]])
        h.quickGame(winner: 2, loser: 4)
        h.quickGame(winner: 1, loser: 3)
        // alice 2/2, bob 1/2, carol 1/2, dave 0/2.
        h.send(2, "SCORES 3")
        #expect(h.drain() == [2: [
            "SCORE rank=1 name=alice wins=2 played=2",
            "SCORE rank=2 name=bob wins=1 played=2",
            "SCORE rank=2 name=carol wins=1 played=2",
            "OK SCORES count=3 board=game",
        ]])
        h.send(2, "SCORES 0")
        #expect(isErr(h.drain()[2]?.first, .badArguments))
        // Anyone may look, even without a name.
        h.connect(5)
        h.send(5, "SCORES 1")
        #expect(h.drain()[5]?.suffix(2) == ["SCORE rank=1 name=alice wins=2 played=2", "OK SCORES count=1 board=game"])
    }

    @Test func languagePreferencePersistsPerName() throws {
        let h = try Harness()
        h.connect(1)
        h.send(1, "NAME bob")
        h.send(1, "LANG nl")
        #expect(h.drain()[1] == ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl",
                                 "OK NAME name=bob lang=en", "OK LANG lang=nl"])
        h.disconnect(1)
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME bob")
        #expect(h.drain() == [2: ["OK NAME name=bob lang=nl"]])
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.first == "OK SEEK lang=nl")
        #expect(try h.store.preference(.language, for: "bob") == "nl")
        // Any spelling of the name finds the preference.
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME BOB")
        #expect(isErr(h.drain()[3]?.first, .nameTaken))
        h.disconnect(2)
        h.send(3, "NAME BOB")
        #expect(h.drain() == [3: ["OK NAME name=BOB lang=nl"]])
        // Another name keeps the default.
        h.send(3, "NAME carol")
        #expect(h.drain() == [3: ["OK NAME name=carol lang=en"]])
    }

    @Test func languageChosenBeforeTheNameBecomesItsPreference() throws {
        let h = try Harness()
        h.connect(1)
        h.send(1, "LANG nl")
        h.send(1, "NAME dora")
        #expect(h.drain()[1]?.suffix(2) == ["OK LANG lang=nl", "OK NAME name=dora lang=nl"])
        h.disconnect(1)
        h.connect(2)
        h.send(2, "NAME dora")
        #expect(h.drain()[2]?.last == "OK NAME name=dora lang=nl")
    }

    // MARK: Settings (this catalog's kinds have none: only lang; see LobbyKindTests for a kind's)

    @Test func setLangIsLangSavedPerName() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        // Before NAME, as LANG: kept on the connection, saved at NAME.
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=en default=en", "OK SETTINGS"]])
        h.send(1, "SET LANG NL")
        h.send(1, "NAME dora")
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["OK SET key=lang value=nl", "OK NAME name=dora lang=nl",
                                  "SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=nl default=en", "OK SETTINGS"]])
        #expect(try h.store.preference(.language, for: "dora") == "nl")
        h.send(1, "SET lang en")
        #expect(h.drain() == [1: ["OK SET key=lang value=en"]])
        #expect(try h.store.preference(.language, for: "dora") == "en")
        // Refused, and nothing changes.
        h.send(1, "SET lang de")
        h.send(1, "SET colour red")
        h.send(1, "SET lang")
        #expect(h.drain() == [1: ["ERR unknown-language languages here: en,nl",
                                  "ERR bad-arguments no setting colour; settings: hangman-mode,hangman-length,hangman-misses,presence,chat,invites,lang",
                                  "ERR bad-arguments usage: SET <key> <value>"]])
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=en default=en", "OK SETTINGS"]])
        // Seeking, like LANG: busy.
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "SET lang nl")
        #expect(isErr(h.drain()[1]?.first, .busy))
    }

    /// In a game, SET lang saves the language for the next games: the game
    /// in progress is not offered a switch and goes on in its language.
    @Test func setLangInAGameAppliesToTheNextGame() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "SET lang nl")
        #expect(h.drain() == [1: ["OK SET key=lang value=nl"]])
        h.send(1, "p")
        #expect(h.drain()[2]?.first == "MOVE id=1 player=alice letter=p fragment=p")
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=nl")
        // A new lobby on the same store (a restart) has it saved.
        let again = try Harness(directory: h.directory)
        again.named(5, "alice")
        again.send(5, "SETTINGS")
        #expect(again.drain() == [5: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=nl default=en", "OK SETTINGS"]])
        withExtendedLifetime(h) {}
    }

    @Test func scoresOfAKindWithoutAList() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "SCORES game=chess")
        h.send(1, "SCORES game=ghost 3")
        #expect(h.drain() == [1: ["ERR bad-arguments no such high-score list: game=chess", "OK SCORES count=0 board=game"]])
    }
}
