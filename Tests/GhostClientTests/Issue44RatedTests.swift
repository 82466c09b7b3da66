import Testing
@testable import GhostClient
import GhostProtocol

/// Who an empty rating list waits for, how many rated games you still
/// need, and `?` on listed provisional ratings; a game says whether the
/// server rates it; the history list's language.
@Suite("Issue 44: rated games, the leaders' rule, the history's language")
struct Issue44RatedTests {
    static func text(_ s: ClientState, _ language: String = "en", width: Int = 80, height: Int = 24) -> String {
        // Wrapped lines joined, so a sentence is found whatever the width.
        Screens.render(s, width: width, height: height, strings: .forLanguage(language)).map { Layout.plain($0).trimmingSpaces }
            .joined(separator: " ")
    }

    // MARK: Item 16

    /// alice's profile, then the leaders of the board `→` pressed `right` times from Ghost, answered with `lines`.
    static func leaders(_ lines: [String], right: Int = 0, language: String = "en") -> ClientState {
        var s = Fx.run(RFx.profile(language: language), .key(.char("t"))).0
        for _ in 0..<right { s = Fx.run(s, .key(.right)).0 }
        return Fx.run(s, lines.map { Fx.line($0) }).0
    }

    @Test("Item 16: OK TOP's min_games= is read, and an empty list says after how many rated games a name is listed, in English and Dutch")
    func emptyListSaysTheRule() {
        let s = Self.leaders(["OK TOP count=0 board=ghost min_games=10"])
        #expect(s.record.leaders == [] && s.record.leadersMinGames == 10 && s.record.leadersMaxRD == nil)
        #expect(Self.text(s).contains("Nobody on this list yet: a registered name is listed once it has played 10 rated games here."))
        let nl = Self.leaders(["OK TOP count=0 board=ghost min_games=10"], language: "nl")
        #expect(Self.text(nl, "nl").contains("Nog niemand op deze lijst: een geregistreerde naam komt erop zodra die hier 10 spellen met rating heeft gespeeld."))
        // An RD limit (a server run with --top-max-rd 110) is said too.
        let strict = Self.leaders(["OK TOP count=0 board=ghost min_games=10 max_rd=110"])
        #expect(strict.record.leadersMaxRD == 110)
        #expect(Self.text(strict).contains("listed once it has played 10 rated games here and its rating is no longer provisional (no ?)."))
        #expect(Self.text(Self.leaders(["OK TOP count=0 board=ghost min_games=10 max_rd=110"], language: "nl"), "nl")
                    .contains("10 spellen met rating heeft gespeeld en de rating niet meer voorlopig is (geen ?)."))
        // A server that does not say: the general sentence, never "gewaardeerd".
        #expect(Self.text(Self.leaders(["OK TOP count=0 board=ghost"])).contains("it lists registered names with enough rated games."))
        let old = Self.text(Self.leaders(["OK TOP count=0 board=ghost"], language: "nl"), "nl")
        #expect(old.contains("genoeg spellen met rating") && !old.contains("gewaardeerd"))
    }

    @Test("Item 16: your own profile's games on the list's board tell how many more rated games you need (alice: 2 of 10 on Superghost); none once listed or past it")
    func gamesToGo() {
        // alice has 2 rated Superghost games (RFx.profileLines): 8 to go.
        let s = Self.leaders(["OK TOP count=0 board=ghost-super min_games=10"], right: 1)
        #expect(Self.text(s).contains("Leaders · Superghost") && Self.text(s).contains("You: 8 more rated games to go."))
        let nl = Self.leaders(["OK TOP count=0 board=ghost-super min_games=10"], right: 1, language: "nl")
        #expect(Self.text(nl, "nl").contains("Jij: nog 8 spellen met rating te gaan."))
        // No rating on Hangman duels: all 10; 14 Ghost games: nothing to go.
        #expect(Self.text(Self.leaders(["OK TOP count=0 board=hangman-duel min_games=10"], right: 3))
                    .contains("You: 10 more rated games to go."))
        #expect(!Self.text(Self.leaders(["OK TOP count=0 board=ghost min_games=10"])).contains("to go"))
        // min_games=1: one to go with no rating; a server that does not say: nothing.
        #expect(Self.text(Self.leaders(["OK TOP count=0 board=hangman-duel min_games=1"], right: 3)).contains("You: 1 more rated game to go."))
        #expect(!Self.text(Self.leaders(["OK TOP count=0 board=ghost-super"], right: 1)).contains("to go"))
    }

    @Test("Item 16: a listed provisional rating keeps its ?, and the list says what ? means; below it how far you are, where there is room")
    func provisionalLeaders() {
        let lines = ["LEADER rank=1 name=dora rating=1841? rd=199 games=10 wins=10 losses=0",
                     "LEADER rank=2 name=erin rating=1159? rd=199 games=10 wins=0 losses=10",
                     "OK TOP count=2 board=ghost-super min_games=10"]
        let s = Self.leaders(lines, right: 1)
        let text = Self.text(s)
        #expect(text.contains("1841?") && text.contains("? = provisional: too few games yet for a settled rating."))
        #expect(text.contains("You: 8 more rated games to go."))
        #expect(Self.text(Self.leaders(lines, right: 1, language: "nl"), "nl").contains("? = voorlopig"))
        // Settled ratings only: no note.
        #expect(!Self.text(RFx.leaders()).contains("? = provisional"))
        // At 60×20 the list comes first: the notes go where they do not fit, and nothing is cut.
        for language in ["en", "nl"] {
            let small = Screens.render(Self.leaders(lines, right: 1, language: language), width: 60, height: 20,
                                       strings: .forLanguage(language)).map(Layout.plain)
            #expect(small.count == 20 && small.allSatisfy { Layout.visibleWidth($0) <= 60 })
            #expect(small.joined().contains("dora") && small.joined().contains("erin"))
        }
    }

    // MARK: Item 15

    /// alice and bob in game 7, GAME ending `tail` (` ratings=…`, or nothing).
    static func ghostGame(_ tail: String, players: String = "alice,bob", language: String = "en") -> ClientState {
        Fx.run(Fx.named("alice", language: language), Fx.lines("GAME id=7 game=ghost lang=en players=\(players) token=\(Fx.token) round=1\(tail)",
                                                               "TURN id=7 player=alice fragment=")).0
    }

    @Test("Item 15: a rated Ghost game (GAME's ratings=) says “Rated game” under the players, in Dutch “Spel met rating”; an unrated one says nothing")
    func ratedGhostGame() {
        let rated = Self.ghostGame(" ratings=1500?,1512")
        #expect(rated.game?.ratings == SeatRatings([ShownRating(1500, provisional: true), ShownRating(1512, provisional: false)]))
        #expect(Self.text(rated).contains("Rated game"))
        let nl = Self.text(Self.ghostGame(" ratings=1500?,1512", language: "nl"), "nl")
        #expect(nl.contains("Spel met rating") && !nl.contains("gewaardeerd"))
        let unrated = Self.ghostGame("")
        #expect(unrated.game?.ratings == nil)
        #expect(!Self.text(unrated).contains("Rated") && !Self.text(unrated).contains("rated"))
        #expect(!Self.text(Self.ghostGame("", language: "nl"), "nl").contains("met rating"))
        // With a running score: one line, the mark first.
        let both = Self.ghostGame(" record=2-1 ratings=1500?,1512")
        #expect(Self.text(both).contains("Rated game · So far: you 2 – 1 bob"))
        // The next GAME (a rematch, unrated) forgets it.
        let next = Fx.run(rated, Fx.lines("GAME id=8 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1",
                                          "TURN id=8 player=alice fragment=")).0
        #expect(next.game?.ratings == nil && !Self.text(next).contains("Rated game"))
        // It fits 60×20 in both languages.
        for language in ["en", "nl"] {
            let small = Screens.render(Self.ghostGame(" record=12-10 ratings=1500?,1512", language: language), width: 60, height: 20,
                                       strings: .forLanguage(language)).map(Layout.plain)
            #expect(small.count == 20 && small.allSatisfy { Layout.visibleWidth($0) <= 60 })
            #expect(small.joined(separator: " ").contains(language == "nl" ? "Spel met rating" : "Rated game"))
        }
    }

    @Test("Item 15: against the computer nothing says rated (the server sends no ratings=), and the profile says the computer's games are never rated")
    func computerGamesAreNeverRated() {
        let bot = Fx.run(Fx.named("alice"), Fx.lines("GAME id=9 game=ghost lang=en players=alice,bot-hard token=\(Fx.token) round=1 bot=hard",
                                                     "TURN id=9 player=alice fragment=")).0
        #expect(bot.game?.ratings == nil && !Self.text(bot).lowercased().contains("rated"))
        let none = Fx.run(RFx.history(), [.key(.char("p"))] + Fx.lines("OK PROFILE name=alice registered=yes ratings=0")).0
        #expect(Self.text(none).contains("No rating yet: one comes with a rated game, between two registered names (never against the computer)."))
        let nl = Fx.run(RFx.history(language: "nl"), [.key(.char("p"))] + Fx.lines("OK PROFILE name=alice registered=yes ratings=0")).0
        #expect(Self.text(nl, "nl").contains("Nog geen rating: die komt na een spel met rating, tussen twee geregistreerde namen (tegen de computer nooit)."))
        let guest = Fx.run(RFx.history(language: "nl"), [.key(.char("p"))] + Fx.lines("OK PROFILE name=alice registered=no ratings=0")).0
        #expect(Self.text(guest, "nl").contains("registreer hem om met rating te spelen") && !Self.text(guest, "nl").contains("gewaardeerd"))
    }

    @Test("Item 15: a rated Hangman duel says so in its title (“duel · rated”, “duel · met rating”), the setter's and the guesser's; an unrated one does not")
    func ratedHangmanDuel() {
        func duel(_ tail: String, me: String = "bob") -> ClientState {
            Fx.run(HFx.hangmanMain(me), Fx.lines(
                "OK JOIN code=DNW73 lang=en",
                "GAME id=2 game=hangman lang=en players=alice,bob token=\(Fx.token) round=1 mode=duel length=6 misses=10\(tail)",
                "TURN id=2 player=alice pattern= missed=- left=10",
                "MOVE id=2 player=alice length=6 pattern=______ missed=- left=10",
                "TURN id=2 player=bob pattern=______ missed=- left=10")).0
        }
        #expect(Self.text(duel(" ratings=1480,1520"), width: 100).contains("Hangman · duel · rated · English"))
        #expect(Self.text(duel(" ratings=1480,1520"), "nl", width: 100).contains("Galgje · duel · met rating · Engels"))
        #expect(!Self.text(duel(""), width: 100).contains("rated"))
        // The setter sees it too.
        #expect(Self.text(duel(" ratings=1480,1520", me: "alice"), width: 100).contains("Hangman · duel · rated · English"))
    }

    // MARK: Item 22

    static let historyLines = [
        "RESULT id=12 game=ghost opponent=bob result=loss reason=dead change=-9 ended=1700000000 lang=nl",
        "RESULT id=11 game=hangman variant=duel opponent=carol result=win reason=solved change=+11 ended=1699990000 lang=en",
        "RESULT id=10 game=ghost opponent=dora result=win reason=word ended=1699980000",
    ]

    static func history(_ language: String = "en") -> ClientState {
        let s = Fx.run(Fx.named("alice", language: language), .key(.char("h"))).0
        return Fx.run(s, historyLines.map { Fx.line($0) } + [Fx.line("OK HISTORY name=alice count=3")]).0
    }

    @Test("Item 22: RESULT's lang= is read, and the history list names each game's language after its date (none from a server that does not say), fitting 60×20 in English and Dutch")
    func historyLanguage() {
        let s = Self.history()
        #expect(s.record.history?.map(\.lang) == ["nl", "en", nil])
        let en = Self.text(s)
        #expect(en.contains("2023-11-14 22:13 UTC · Dutch · a dead end · rating −9") || en.contains(" · Dutch · a dead end · rating −9"), "\(en)")
        #expect(en.contains(" · English · solved · rating +11"))
        let nl = Self.text(Self.history("nl"), "nl")
        #expect(nl.contains(" · Nederlands · doodlopend · rating −9") && nl.contains(" · Engels · geraden · rating +11"), "\(nl)")
        for language in ["en", "nl"] {
            let small = Screens.render(Self.history(language), width: 60, height: 20, strings: .forLanguage(language)).map(Layout.plain)
            #expect(small.count == 20 && small.allSatisfy { Layout.visibleWidth($0) <= 60 })
            #expect(small.joined(separator: " ").contains(language == "nl" ? "Nederlands" : "Dutch"))
        }
    }
}
