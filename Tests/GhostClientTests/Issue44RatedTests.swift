import Testing
@testable import GhostClient
import GhostProtocol

/// Issue #44, items 16 (who an empty rating list waits for, how many rated
/// games you still need, and `?` on listed provisional ratings), 15 (a game
/// says whether the server rates it) and 22 (the history list's language).
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

}
