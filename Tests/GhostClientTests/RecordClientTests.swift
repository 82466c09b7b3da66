import Testing
import TestSupport
@testable import GhostClient
import GhostProtocol
import GameKit

/// Builders for the record: a rated game's end, the history
/// list, a replay with its review, a profile and the leaders.
enum RFx {
    /// Game 7, alice beat bob with PEAR, rated: OVER carries the ratings after it and their changes.
    static func ratedOver(language: String = "en", colour: Bool = false) -> ClientState {
        let s = Fx.inGame(fragment: "pea", language: language, colour: colour)
        return Fx.run(s, Fx.lines("MOVE id=7 player=bob letter=r fragment=pear",
                                  "OVER id=7 winner=alice loser=bob reason=word fragment=pear ratings=1662?,1338? changes=+162,-162",
                                  "INFO \"pear\" is a word longer than 3 letters, so bob loses.")).0
    }

    static let historyLines = [
        "RESULT id=12 game=ghost opponent=bob result=loss reason=dead change=-9 ended=1700000000",
        "RESULT id=11 game=ghost variant=super opponent=bot-hard result=win reason=word change=+15 ended=1699990000",
        "RESULT id=9 game=hangman variant=duel opponent=carol result=aborted reason=server-restart ended=1699900000",
    ]

    /// alice on her history list (`h` on the main screen).
    static func history(language: String = "en", colour: Bool = false) -> ClientState {
        let s = Fx.run(Fx.named("alice", language: language, colour: colour), .key(.char("h"))).0
        return Fx.run(s, historyLines.map { Fx.line($0) } + [Fx.line("OK HISTORY name=alice count=3")]).0
    }

    /// Game 12 replayed: alice P, bob E, alice Q (dead: she lost it; R or L would have won).
    static let movesLines = [
        "PLAYED n=1 round=1 player=alice play=p",
        "PLAYED n=2 round=1 player=bob play=e",
        "PLAYED n=3 round=1 player=alice play=q",
        "OK MOVES id=12 count=3 more=no status=over",
    ]
    static let reviewLines = [
        "PLY n=1 player=alice play=p fragment=p outcome=win",
        "PLY n=2 player=bob play=e fragment=pe outcome=loss",
        "PLY n=3 player=alice play=q fragment=peq outcome=loss better=r,l",
        "OK REVIEW id=12 mistake=3",
    ]

    static func replay(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(history(language: language, colour: colour), [.key(.enter)] + movesLines.map { Fx.line($0) }).0
    }

    static func reviewed(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(replay(language: language, colour: colour), [.key(.char("r"))] + reviewLines.map { Fx.line($0) }).0
    }

    static let profileLines = [
        "RATING board=ghost rating=1512 rd=80 games=14 wins=9 losses=5 best=11 best_opponent=bot-hard best_rating=2200",
        "RATING board=ghost-super rating=1480? rd=240 games=2 wins=0 losses=2",
        "OK PROFILE name=alice registered=yes ratings=2",
    ]

    static func profile(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(history(language: language, colour: colour), [.key(.char("p"))] + profileLines.map { Fx.line($0) }).0
    }

    static func leaders(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(profile(language: language, colour: colour),
               [.key(.char("t"))] + Fx.lines("LEADER rank=1 name=dora rating=1710 rd=60 games=40 wins=30 losses=10",
                                             "LEADER rank=2 name=alice rating=1512 rd=80 games=14 wins=9 losses=5",
                                             "OK TOP count=2 board=ghost")).0
    }

    static func text(_ s: ClientState, _ language: String = "en", width: Int = 80, height: Int = 24) -> String {
        Screens.render(s, width: width, height: height, strings: .forLanguage(language)).map(Layout.plain).joined(separator: "\n")
    }
}

@Suite("Client: ratings, history, replay, review, profile (#28)", .ownThread)
struct RecordReducerTests {
    @Test("A rated game's OVER (ratings= changes=) shows your rating and its change on the end screen, and the opponent's; an unrated one shows none")
    func ratingOnTheEndScreen() {
        let s = RFx.ratedOver()
        #expect(s.screen == .over)
        #expect(s.record.ended == EndRatings(id: 7, players: ["alice", "bob"],
                                             ratings: SeatRatings([ShownRating(1662, provisional: true), ShownRating(1338, provisional: true)],
                                                                  changes: [162, -162])))
        #expect(RFx.text(s).contains("Your rating: 1662? (+162), provisional · bob: 1338? (−162)"))
        #expect(RFx.text(RFx.ratedOver(language: "nl"), "nl").contains("Je rating: 1662? (+162), voorlopig · bob: 1338? (−162)"))
        // Unrated: no rating line at all.
        let plain = Fx.over()
        #expect(plain.record.ended == nil && !RFx.text(plain).contains("rating"))
        // A settled rating against the computer: no "provisional", the computer's +0.
        var c = Fx.named()
        c = Fx.run(c, Fx.lines("GAME id=8 game=ghost lang=en players=alice,bot-hard token=\(Fx.token) round=1 bot=hard ratings=1500,2200",
                               "OVER id=8 winner=bot-hard loser=alice reason=word fragment=pear ratings=1497,2200 changes=-3,+0")).0
        #expect(RFx.text(c).contains("Your rating: 1497 (−3) · Computer (hard): 2200 (±0)"))
    }

    @Test("A rated Hangman duel's end shows the ratings beside the gallows")
    func ratingOnTheHangmanEnd() {
        let s = Fx.run(HangmanDuelReducerTests.guessing(),
                       Fx.lines("MOVE id=2 player=bob word=zephyr hit=yes pattern=zephyr missed=- left=10",
                                "OVER id=2 winner=bob loser=alice reason=solved word=zephyr mistakes=0 pattern=zephyr ratings=1480,1520 changes=-20,+20")).0
        #expect(RFx.text(s, width: 120, height: 40).contains("Your rating: 1520 (+20)"))
    }

    @Test("h on the main screen sends HISTORY; RESULT lines and OK HISTORY build the list, newest first; ↑/↓ move; Esc goes back")
    func historyList() {
        let (s, fx) = Fx.run(Fx.named(), .key(.char("h")))
        #expect(Fx.sent(fx) == ["HISTORY 50"])
        #expect(s.screen == .record(.history) && s.record.history == nil)
        #expect(RFx.text(s).contains("Asking the server for your games…"))
        let h = RFx.history()
        #expect(h.record.history?.map(\.id) == [12, 11, 9])
        #expect(h.record.history?.first == HistoryEntry(id: 12, game: "ghost", variant: nil, opponent: "bob", result: "loss",
                                                        reason: "dead", change: -9, ended: 1_700_000_000))
        let text = RFx.text(h)
        #expect(text.contains("▶ lost · Ghost · vs bob"))
        #expect(text.contains("2023-11-14 22:13 UTC · a dead end · rating −9"))
        #expect(text.contains("won · Superghost · vs Computer (hard)"))
        #expect(RFx.text(RFx.history(language: "nl"), "nl").contains("▶ verloren · Ghost · tegen bob"))
        var m = Fx.run(h, .key(.down), .key(.down), .key(.down)).0
        #expect(m.record.cursor == 2)
        m = Fx.run(m, .key(.up)).0
        #expect(m.record.cursor == 1)
        #expect(Fx.run(h, .key(.escape)).0.screen == .main)
        // r asks again; an empty history says so.
        #expect(Fx.sent(Fx.run(h, .key(.char("r"))).1) == ["HISTORY 50"])
        let empty = Fx.run(Fx.named(), .key(.char("h")), Fx.line("OK HISTORY name=alice count=0")).0
        #expect(empty.record.history == [] && RFx.text(empty).contains("You have not finished a game yet."))
        #expect(Fx.sent(Fx.run(empty, .key(.enter)).1).isEmpty)
    }

    @Test("Enter on a game sends MOVES; ←/→ step through it, the fragment shown per step; Home/End; Esc back to the list")
    func replaySteps() {
        let (s, fx) = Fx.run(RFx.history(), .key(.enter))
        #expect(Fx.sent(fx) == ["MOVES 12"])
        #expect(s.screen == .record(.replay) && s.record.replay?.moves == nil)
        var r = RFx.replay()
        #expect(r.record.replay?.moves?.map(\.play) == ["p", "e", "q"])
        // It opens at the end: the position the game ended in.
        #expect(r.record.replay?.step == 3)
        #expect(RFx.text(r).contains("Move 3 of 3"))
        #expect(RFx.text(r).contains("You played Q"))
        // The fragment in block letters: P, E, Q.
        #expect(RFx.text(r, width: 60, height: 20).contains("████  █████  ███"))
        r = Fx.run(r, .key(.left)).0
        #expect(r.record.replay?.step == 2 && r.record.replay?.fragment(at: 2) == "pe")
        #expect(RFx.text(r).contains("Move 2 of 3") && RFx.text(r).contains("bob played E"))
        r = Fx.run(r, .key(.home)).0
        #expect(r.record.replay?.step == 0 && RFx.text(r).contains("The start · 3 moves"))
        r = Fx.run(r, .key(.left)).0
        #expect(r.record.replay?.step == 0)
        r = Fx.run(r, .key(.right), .key(.end), .key(.right)).0
        #expect(r.record.replay?.step == 3)
        #expect(RFx.text(RFx.replay(language: "nl"), "nl").contains("Je speelde Q"))
        #expect(Fx.run(r, .key(.escape)).0.screen == .record(.history))
    }

    @Test("Superghost's front letters and a match's rounds: the fragment of each step is the round's own")
    func replayFragments() {
        var r = Replay(id: 3)
        r.moves = [ReplayMove(n: 1, round: 1, player: "a", play: "e"), ReplayMove(n: 2, round: 1, player: "b", play: "<p"),
                   ReplayMove(n: 3, round: 1, player: "a", play: "a"), ReplayMove(n: 1, round: 2, player: "b", play: "x"),
                   ReplayMove(n: 2, round: 2, player: "a", play: "challenge")]
        #expect((0...5).map(r.fragment(at:)) == ["", "e", "pe", "pea", "x", "x"])
    }

    @Test("r sends REVIEW; the losing move is marked “Q lost it: R or L would have won”, in English and Dutch; m jumps to it")
    func review() {
        let (s, fx) = Fx.run(RFx.replay(), .key(.char("r")))
        #expect(Fx.sent(fx) == ["REVIEW 12"])
        #expect(s.record.replay?.review == .asking && RFx.text(s).contains("Asking the server for the review…"))
        // A second r while it is on its way sends nothing.
        #expect(Fx.sent(Fx.run(s, .key(.char("r"))).1).isEmpty)
        var r = RFx.reviewed()
        #expect(r.record.replay?.mistakeStep == 3)
        var text = RFx.text(r)
        #expect(text.contains("✗ “Q” lost it: “R” or “L” would have won."))
        #expect(text.contains("From here you could not win against perfect play."))
        #expect(text.contains("Your first mistake was move 3 (m shows it)."))
        let nl = RFx.text(RFx.reviewed(language: "nl"), "nl")
        #expect(nl.contains("✗ “Q” verspeelde de winst: “R” of “L” had gewonnen."))
        #expect(nl.contains("Je eerste fout was zet 3 (m toont hem)."))
        r = Fx.run(r, .key(.home), .key(.right)).0
        text = RFx.text(r)
        #expect(text.contains("From here you could force a win.") && !text.contains("lost it"))
        r = Fx.run(r, .key(.char("m"))).0
        #expect(r.record.replay?.step == 3)
        // Already reviewed: r sends nothing more.
        #expect(Fx.sent(Fx.run(r, .key(.char("r"))).1).isEmpty)
    }

    @Test("REVIEW refused: not-ready is asked again (r too, issue #44 item 21); no-review says so for good; a game nobody threw away says so")
    func reviewRefusals() {
        var (s, _) = Fx.run(RFx.replay(), .key(.char("r")), Fx.line("ERR not-ready the review of game 12 is being worked out: ask again in 2 s"))
        #expect(s.record.replay?.review == .notReady)
        #expect(RFx.text(s).contains("still working the review out: it appears here by itself"))
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.char("r")))
        #expect(Fx.sent(fx) == ["REVIEW 12"])
        s = Fx.run(s, Fx.line("ERR no-review no review for this game")).0
        #expect(s.record.replay?.review == .refused(.noReview) && RFx.text(s).contains("This kind of game has no review."))
        #expect(Fx.sent(Fx.run(s, .key(.char("r"))).1).isEmpty)
        let clean = Fx.run(RFx.replay(), [.key(.char("r"))] + Fx.lines("PLY n=1 player=alice play=p fragment=p outcome=win",
                                                                         "PLY n=2 player=bob play=e fragment=pe outcome=loss",
                                                                         "PLY n=3 player=alice play=q fragment=peq outcome=loss",
                                                                         "OK REVIEW id=12 mistake=none")).0
        #expect(clean.record.replay?.mistakeStep == nil && RFx.text(clean).contains("Nobody threw a win away."))
        // A review of another game (the list was left meanwhile) is not this replay's.
        let other = Fx.run(RFx.replay(), [.key(.char("r"))] + Fx.lines("PLY n=1 player=x play=a fragment=a outcome=win", "OK REVIEW id=99 mistake=none")).0
        #expect(other.record.replay?.review == .asking)
    }

    @Test("p on the history list sends PROFILE; RATING lines show each rating, its RD, games and best win; t sends TOP; ←/→ another list")
    func profileAndLeaders() {
        let (s, fx) = Fx.run(RFx.history(), .key(.char("p")))
        #expect(Fx.sent(fx) == ["PROFILE alice"])
        #expect(s.screen == .record(.profile) && RFx.text(s).contains("Asking the server for the profile…"))
        let p = RFx.profile()
        #expect(p.record.profile?.ratings.count == 2 && p.record.profile?.registered == true)
        let text = RFx.text(p)
        #expect(text.contains("1512 ±80 · 14 games: 9 won, 5 lost"))
        #expect(text.contains("best win: against Computer (hard) (2200), game 11"))
        #expect(text.contains("1480? ±240 · 2 games: 0 won, 2 lost"))
        #expect(text.contains("? = provisional"))
        #expect(RFx.text(RFx.profile(language: "nl"), "nl").contains("14 spellen: 9 gewonnen, 5 verloren"))
        // o: the opponent's profile, with your record against them; the computer has none.
        var (o, ofx) = Fx.run(RFx.history(), .key(.char("o")))
        #expect(Fx.sent(ofx) == ["PROFILE bob"])
        o = Fx.run(o, Fx.lines("VERSUS game=ghost record=2-1", "OK PROFILE name=bob registered=no ratings=0")).0
        #expect(RFx.text(o).contains("Profile · bob") && RFx.text(o).contains("This is a guest's name")
                    && RFx.text(o).contains("You against bob: 2–1 (Ghost)"))
        #expect(Fx.sent(Fx.run(RFx.history(), .key(.down), .key(.char("o"))).1).isEmpty)
        // TOP.
        let (l0, lfx) = Fx.run(p, .key(.char("t")))
        #expect(Fx.sent(lfx) == ["TOP 20"])
        #expect(l0.screen == .record(.leaders))
        let l = RFx.leaders()
        #expect(l.record.leaders?.map(\.name) == ["dora", "alice"])
        #expect(RFx.text(l).contains("▶      2  alice") && RFx.text(l).contains("Leaders · Ghost"))
        let (n, nfx) = Fx.run(l, .key(.right))
        #expect(Fx.sent(nfx) == ["TOP 20 variant=super"] && n.record.leaders == nil)
        let (h, hfx) = Fx.run(l, .key(.left))
        #expect(Fx.sent(hfx) == ["TOP 20 game=hangman"] && RFx.text(h).contains("Leaders · Hangman duel"))
        let empty = Fx.run(h, Fx.line("OK TOP count=0 board=hangman-duel")).0
        #expect(RFx.text(empty).contains("Nobody on this list yet"))
        // Esc: the profile, then the list.
        let back = Fx.run(l, .key(.escape)).0
        #expect(back.screen == .record(.profile))
        #expect(Fx.run(back, .key(.escape)).0.screen == .record(.history))
    }

    @Test("Errors end the waiting: ERR on HISTORY, MOVES, PROFILE, TOP shows an empty screen and says why")
    func errors() {
        let h = Fx.run(Fx.named(), .key(.char("h")), Fx.line("ERR no-such-name nobody called alice has played here")).0
        #expect(h.record.history == [] && h.alert != nil)
        let m = Fx.run(RFx.history(), .key(.enter), Fx.line("ERR no-such-game no game has the id 12 that you may see")).0
        #expect(m.record.replay?.moves == [] && RFx.text(m).contains("No move was made in this game."))
        let p = Fx.run(RFx.history(), .key(.char("p")), Fx.line("ERR no-such-name nobody called alice has played here")).0
        #expect(p.record.profile?.ratings == [] && p.alert != nil)
    }

    @Test("After a reconnection the record screen on show asks again for what it was waiting for")
    func reconnect() {
        let s = Fx.run(Fx.named(), .key(.char("h")), .disconnected).0
        let (t, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx).last == "HISTORY 50" && t.screen == .record(.history))
    }
}

@Suite("Client: the record's screens fit (#28)", .ownThread)
struct RecordScreenTests {
    @Test("Every record screen fits 60×20 in both languages, with its key help whole")
    func fits() {
        let states = [RFx.ratedOver(), RFx.history(), RFx.replay(), RFx.reviewed(), RFx.profile(), RFx.leaders(),
                      Fx.run(RFx.reviewed(), .key(.home), .key(.right)).0]
        for language in ["en", "nl"] {
            for s in states {
                let lines = Screens.render(s, width: 60, height: 20, strings: .forLanguage(language))
                #expect(lines.count == 20)
                #expect(lines.allSatisfy { Layout.visibleWidth($0) <= 60 })
            }
        }
        #expect(RFx.text(RFx.history(), width: 60, height: 20).contains("Enter replay"))
        // The main screen names the key at every size, 60×20 too (Issue44ReviewKeyTests).
        #expect(RFx.text(Fx.named(), width: 120, height: 40).contains("w watch games · h your games · Ctrl-C quit"))
        #expect(RFx.text(Fx.named()).contains("h your games"))
        #expect(RFx.text(Fx.named(), width: 60, height: 20).contains("h your games"))
    }
}

@Suite("Client: replaying Hangman and matches (#28)", .ownThread)
struct RecordReplayKindsTests {
    /// alice's history with one Hangman game against the evil computer (id 20) and one duel (id 21), alice guessing.
    static func hangmanHistory() -> ClientState {
        let s = Fx.run(Fx.named(), .key(.char("h"))).0
        return Fx.run(s, Fx.lines("RESULT id=20 game=hangman variant=evil opponent=bot-hangman result=loss reason=hanged ended=1700000000",
                                  "RESULT id=21 game=hangman variant=duel opponent=bob result=win reason=solved change=+11 ended=1699990000",
                                  "OK HISTORY name=alice count=2")).0
    }

    @Test("A Hangman game against the evil computer: the review gives each guess's pattern, the words left and one it could have been")
    func evilReview() {
        var s = Fx.run(Self.hangmanHistory(), [.key(.enter)] + Fx.lines("PLAYED n=1 round=1 player=alice play=e",
                                                                         "PLAYED n=2 round=1 player=alice play=a",
                                                                         "OK MOVES id=20 count=2 more=no status=over")).0
        #expect(RFx.text(s).contains("You played A"))
        s = Fx.run(s, [.key(.char("r"))] + Fx.lines("PLY n=1 player=alice play=e pattern=_e__ family=310 word=bear",
                                                     "PLY n=2 player=alice play=a pattern=_ea_ family=12 word=bead",
                                                     "OK REVIEW id=20")).0
        let text = RFx.text(s, width: 120, height: 40)
        #expect(text.contains("_ E A _") && text.contains("the computer could still choose from 12 words, such as “BEAD”."))
        #expect(!text.contains("Nobody threw a win away."))
        #expect(RFx.text(s, "nl", width: 120, height: 40).contains("kon de computer nog uit 12 woorden kiezen, zoals “BEAD”."))
    }

    @Test("A Hangman duel: the pattern of each step is worked out from the setter's word; the best letter by information from the review")
    func duelReplay() {
        var s = Fx.run(Self.hangmanHistory(), [.key(.down), .key(.enter)]
                       + Fx.lines("PLAYED n=1 round=1 player=bob play=word:pear", "PLAYED n=2 round=1 player=alice play=e",
                                  "PLAYED n=3 round=1 player=alice play=x", "PLAYED n=4 round=1 player=alice play=word:pear",
                                  "OK MOVES id=21 count=4 more=no status=over")).0
        #expect((0...4).map { s.record.replay?.pattern(at: $0) } == ["____", "____", "_e__", "_e__", "pear"])
        s = Fx.run(s, .key(.left), .key(.left)).0
        #expect(RFx.text(s).contains("_ E _ _") && RFx.text(s).contains("You played E"))
        s = Fx.run(s, [.key(.char("r"))] + Fx.lines("PLY n=1 player=bob play=word:pear",
                                                     "PLY n=2 player=alice play=e pattern=_e__ candidates=1200 best=e",
                                                     "OK REVIEW id=21")).0
        #expect(RFx.text(s).contains("Before this guess 1200 words fitted what was known; the best letter was E."))
    }

    @Test("A match's review: PLY lines carry round=, the mistake is the one of its round")
    func matchReview() {
        var r = Replay(id: 5)
        r.moves = [ReplayMove(n: 1, round: 1, player: "a", play: "q"), ReplayMove(n: 1, round: 2, player: "b", play: "z"),
                   ReplayMove(n: 2, round: 2, player: "a", play: "x")]
        r.review = .done(plies: [ReviewPly(n: 1, round: 1, player: "a", fields: [Field("play", "q"), Field("outcome", "loss")]),
                                 ReviewPly(n: 1, round: 2, player: "b", fields: [Field("play", "z"), Field("outcome", "loss"),
                                                                                 Field("better", "a,<s")])],
                         mistake: 1, mistakeRound: 2)
        #expect(r.mistakeStep == 2)
        #expect(r.ply(at: 1)?.play == "q" && r.ply(at: 2)?.better == ["a", "<s"] && r.ply(at: 3) == nil)
        #expect(Strings.en.record.lostIt("z", better: ["a", "<s"]) == "“Z” lost it: “A” or S at the front would have won.")
        #expect(Strings.nl.record.lostIt("z", better: ["a", "<s"]) == "“Z” verspeelde de winst: “A” of S vooraan had gewonnen.")
    }
}
