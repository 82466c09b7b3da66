import Testing
@testable import GhostClient
import GhostProtocol

/// Builders for watching: the list of live games, and a watched game of each kind.
enum WFx {
    static let liveLines = [
        "LIVE id=12 game=ghost players=alice,bob lang=en moves=3 watchers=1 variant=super clock=30",
        "LIVE id=9 game=scrabble players=dan,eve lang=en moves=7 watchers=0",
        "LIVE id=7 game=hangman players=bot-hangman,ann lang=nl moves=0 watchers=0 mode=evil length=5 misses=8",
        "LIVE id=4 game=ghost players=carol,bot-hard lang=nl moves=1 watchers=2 rounds=ghost",
    ]

    /// carol on the list of games in progress (`w` on the main screen).
    static func list(language: String = "en", colour: Bool = false, more: Bool = false) -> ClientState {
        let s = Fx.run(Fx.named("carol", language: language, colour: colour), .key(.char("w"))).0
        return Fx.run(s, WFx.liveLines.map { Fx.line($0) } + [Fx.line("OK GAMES count=4 more=\(more ? "yes" : "no")")]).0
    }

    /// carol watches game 12, alice (to move) vs bob, at "pe".
    static func ghost(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(list(language: language, colour: colour),
               [.key(.enter)] + Fx.lines("OK WATCH id=12",
                                         "GAME id=12 game=ghost lang=en players=alice,bob round=1 variant=super clock=30 watchers=2 watching=yes",
                                         "TURN id=12 player=bob fragment=p clock=30",
                                         "MOVE id=12 player=bob letter=e fragment=pe",
                                         "TURN id=12 player=alice fragment=pe clock=30")).0
    }

    /// carol watches game 7, the computer's word that ann guesses.
    static func hangman(language: String = "en", colour: Bool = false) -> ClientState {
        Fx.run(list(language: language, colour: colour),
               [.key(.down), .key(.enter)]
                   + Fx.lines("OK WATCH id=7",
                              "GAME id=7 game=hangman lang=nl players=bot-hangman,ann round=1 mode=evil length=5 misses=8 watchers=1 watching=yes",
                              "TURN id=7 player=ann pattern=_____ missed=- left=8",
                              "MOVE id=7 player=ann letter=e hit=yes pattern=_e___ missed=- left=8",
                              "MOVE id=7 player=ann letter=q hit=no pattern=_e___ missed=q left=7",
                              "TURN id=7 player=ann pattern=_e___ missed=q left=7")).0
    }
}

@Suite("Client: watching games in progress (#18)")
struct WatchReducerTests {
    @Test("w on the main screen sends GAMES; the LIVE lines and OK GAMES build the list, the cursor on the first game it can show")
    func listFromGames() {
        let (s, fx) = Fx.run(Fx.named("carol"), .key(.char("w")))
        #expect(Fx.sent(fx) == ["GAMES"])
        #expect(s.screen == .watchList && s.watch.games == nil)
        let l = WFx.list()
        #expect(l.watch.games?.map(\.id) == [12, 9, 7, 4])
        // Every kind can be watched: one the client has no code for on the generic screen.
        #expect(l.watch.games?.map(\.watchable) == [true, true, true, true])
        #expect(l.watch.games?.first?.clock == 30 && l.watch.games?.first?.fields["variant"] == "super")
        #expect(l.watch.cursor == 0 && l.watch.more == false)
        // ↓ moves to the next game; r asks the list afresh, the cursor on its first game.
        var (m, mfx) = Fx.run(l, .key(.down), .key(.down))
        #expect(m.watch.cursor == 2)
        (m, mfx) = Fx.run(m, .key(.char("r")))
        #expect(Fx.sent(mfx) == ["GAMES"])
        m = Fx.run(m, WFx.liveLines.dropFirst().map { Fx.line($0) } + [Fx.line("OK GAMES count=3 more=yes")]).0
        #expect(m.watch.games?.map(\.id) == [9, 7, 4] && m.watch.cursor == 0 && m.watch.more)
        // Esc: the main screen.
        #expect(Fx.run(l, .key(.escape)).0.screen == .main)
        // An empty list: nothing to choose; Enter sends nothing.
        let empty = Fx.run(Fx.named("carol"), .key(.char("w")), Fx.line("OK GAMES count=0 more=no")).0
        #expect(empty.watch.games == [] && Fx.sent(Fx.run(empty, .key(.enter), .key(.down)).1).isEmpty)
    }

    @Test("Enter sends WATCH; OK WATCH and GAME watching=yes show the game read-only on its own play screen")
    func enterWatches() {
        let (s, fx) = Fx.run(WFx.list(), .key(.enter))
        #expect(Fx.sent(fx) == ["WATCH 12"])
        #expect(s.watch.asked == 12)
        let g = WFx.ghost()
        #expect(g.screen == .game && g.watch.id == 12 && g.game?.watching == true)
        #expect(g.game?.ghost?.fragment == "pe" && g.game?.toMove == "alice" && g.game?.watchers == 2 && g.game?.ghost?.superghost == true)
        // Nothing of a player's: no token saved, not named after a seat.
        #expect(g.config.token == nil && g.myName == "carol")
        let h = WFx.hangman()
        #expect(h.screen == .hangman(.play) && h.watch.id == 7 && h.game?.hangman?.pattern == "_e___")
    }

    @Test("A watcher's letter keys, arrows, Tab and Enter send nothing and change nothing; a paste neither")
    func watcherKeysPlayNothing() {
        for s in [WFx.ghost(), WFx.hangman()] {
            let (after, fx) = Fx.run(s, Fx.keys("abz=1") + [.key(.left), .key(.tab), .key(.enter), .paste([.char("x"), .char("y")])])
            #expect(fx.isEmpty, "\(s.screen)")
            #expect(after.game == s.game && after.screen == s.screen && !after.gameMenuOpen && after.alert == nil)
        }
    }

    @Test("Esc (or q) sends UNWATCH and goes back to the list, asked afresh; lines of the game still on their way are dropped")
    func escUnwatches() {
        for s in [WFx.ghost(), WFx.hangman()] {
            var (after, fx) = Fx.run(s, .key(.escape))
            #expect(Fx.sent(fx) == ["UNWATCH", "GAMES"])
            #expect(after.screen == .watchList && after.game == nil && after.watch.id == nil)
            let id = s.watch.id ?? 0
            (after, fx) = Fx.run(after, Fx.lines("MOVE id=\(id) player=alice letter=a fragment=pea",
                                                 "OVER id=\(id) winner=bob loser=alice reason=word fragment=pea",
                                                 "OK UNWATCH id=\(id)"))
            #expect(after.screen == .watchList && after.result == nil && after.game == nil)
            #expect(Fx.sent(Fx.run(s, .key(.char("q"))).1) == ["UNWATCH", "GAMES"])
        }
    }

    @Test("WATCHERS updates the count, for a watcher and for a player; another game's count is ignored")
    func watchersCount() {
        var s = Fx.run(WFx.ghost(), Fx.line("WATCHERS id=12 count=5")).0
        #expect(s.game?.watchers == 5)
        s = Fx.run(s, Fx.line("WATCHERS id=3 count=9")).0
        #expect(s.game?.watchers == 5)
        var p = Fx.inGame(fragment: "pe")
        #expect(p.game?.watchers == 0)
        p = Fx.run(p, Fx.line("WATCHERS id=7 count=2")).0
        #expect(p.game?.watchers == 2)
        p = Fx.run(p, Fx.line("WATCHERS id=7 count=0")).0
        #expect(p.game?.watchers == 0)
        // GAME's audience: the count, and a private game.
        let g = Fx.run(Fx.named(), Fx.line("GAME id=8 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 watch=no")).0
        #expect(g.game?.open == false && g.game?.watching == false)
    }

    @Test("OVER ends the watching: the end stays on screen (who won, why) with no token or lists; Enter goes back to the list without UNWATCH")
    func overEndsWatching() {
        var (s, fx) = Fx.run(WFx.ghost(), Fx.lines("MOVE id=12 player=alice letter=a fragment=pea",
                                                   "TURN id=12 player=bob fragment=pea clock=30",
                                                   "MOVE id=12 player=bob letter=r fragment=pear",
                                                   "OVER id=12 winner=alice loser=bob reason=word fragment=pear",
                                                   "INFO \"pear\" is a word longer than 3 letters, so bob loses."))
        #expect(fx.isEmpty)
        #expect(s.screen == .game && s.watch.ended && s.watch.result?.winner == "alice" && s.game?.ghost?.roundEnd?.info != nil)
        #expect(s.result == nil && s.config.token == nil)
        // Letters still do nothing; Enter goes back (no UNWATCH: the server stopped).
        #expect(Fx.run(s, Fx.keys("ab")).1.isEmpty)
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(Fx.sent(fx) == ["GAMES"] && s.screen == .watchList && s.game == nil && !s.watch.ended)

        // Hangman: the end on its front side, without the best-games list asked for.
        var (h, hfx) = Fx.run(WFx.hangman(), Fx.lines("MOVE id=7 player=ann letter=a hit=no pattern=_e___ missed=aq left=0",
                                                      "OVER id=7 winner=bot-hangman loser=ann reason=hanged word=jelly pattern=_e___"))
        #expect(hfx.isEmpty)
        #expect(h.screen == .hangman(.play) && h.watch.ended && h.hangman.ended?.word == "jelly" && h.game == nil)
        (h, hfx) = Fx.run(h, .key(.escape))
        #expect(Fx.sent(hfx) == ["GAMES"] && h.screen == .watchList && h.hangman.ended == nil)
    }

    @Test("A match watched: a round's OVER keeps watching, the next round's GAME goes on, MATCH ends it")
    func matchWatched() {
        var s = Fx.run(WFx.list(), [.key(.end), .key(.enter)]
                       + Fx.lines("OK WATCH id=4", "GAME id=4 game=ghost lang=nl players=carol,bot-hard round=1 bot=hard rounds=ghost ghost=, watching=yes",
                                  "TURN id=4 player=carol fragment=q", "OVER id=4 winner=bot-hard loser=carol reason=dead fragment=qz ghost=g,")).0
        #expect(s.game?.ghost?.roundEnd != nil && !s.watch.ended)
        s = Fx.run(s, Fx.lines("GAME id=4 game=ghost lang=nl players=carol,bot-hard round=2 bot=hard rounds=ghost ghost=g, watching=yes",
                               "TURN id=4 player=bot-hard fragment=")).0
        #expect(s.game?.round == 2 && s.game?.ghost?.previousRound != nil && !s.watch.ended)
        s = Fx.run(s, Fx.lines("OVER id=4 winner=bot-hard loser=carol reason=word fragment=pear ghost=ghost,",
                               "MATCH id=4 winner=bot-hard loser=carol ghost=ghost,")).0
        #expect(s.watch.ended && s.watch.result?.match == true && s.screen == .game && s.result == nil)
    }

    @Test("WATCH refused: the list is asked again, and the status line says why in the client's words")
    func watchRefused() {
        let (s, fx) = Fx.run(WFx.list(), .key(.enter), Fx.line("ERR private-game that game keeps watchers out"))
        #expect(Fx.sent(fx) == ["WATCH 12", "GAMES"])
        #expect(s.screen == .watchList && s.watch.asked == nil)
        #expect(Screens.noticeText(s.alert!.notice, .en) == "That game is private: its players keep watchers out.")
        let gone = Fx.run(WFx.list(language: "nl"), .key(.enter), Fx.line("ERR no-such-game no game in progress has that id")).0
        #expect(Screens.noticeText(gone.alert!.notice, .nl) == "Dat spel is al afgelopen; de lijst is bijgewerkt.")
    }

    @Test("ABORTED of the watched game: back to the list, asked afresh without UNWATCH (the server stopped), the status line says why")
    func abortedEndsWatching() {
        let (s, fx) = Fx.run(WFx.ghost(), Fx.lines("ABORTED id=12 reason=no-first-move",
                                                   "INFO alice did not make a first move in time: the game is aborted, nobody wins."))
        #expect(Fx.sent(fx) == ["GAMES"])
        #expect(s.screen == .watchList && s.game == nil && s.watch.id == nil && s.config.token == nil)
        #expect(s.alert?.notice == .aborted(.noFirstMove))
        // Another game's ABORTED changes nothing for a watcher.
        let (t, tfx) = Fx.run(WFx.ghost(), Fx.line("ABORTED id=13 reason=untouched"))
        #expect(tfx.isEmpty && t.screen == .game && t.watch.id == 12)
    }

    @Test("A dropped connection while watching: back to the list, asked again once greeted")
    func reconnectWhileWatching() {
        var (s, fx) = Fx.run(WFx.ghost(), .disconnected)
        #expect(s.screen == .watchList && s.game == nil && s.watch.id == nil)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAME carol", "GAMES"])
    }

    @Test("p on the main screen keeps watchers out of the games opened here (NEW watch=no, saved); SEEK is unchanged")
    func privateGames() {
        var (s, fx) = Fx.run(Fx.named(), .key(.char("p")))
        #expect(s.config.privateGames && fx == [.saveConfig])
        #expect(ClientConfig.parse(s.config.rendered).privateGames)
        #expect(s.config.rendered.contains("watchers=no"))
        (_, fx) = Fx.run(s, .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW watch=no"])
        (_, fx) = Fx.run(s, .key(.char("2")), .key(.char("1")))
        #expect(Fx.sent(fx) == ["NEW bot=easy watch=no"])
        (_, fx) = Fx.run(s, .key(.char("1")))
        #expect(Fx.sent(fx) == ["SEEK"])
        // Hangman's games against the computer and duels too.
        var h = Fx.run(s, .key(.char("5"))).0
        #expect(h.config.game == .hangman)
        (h, fx) = Fx.run(h, .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW game=hangman mode=duel watch=no"])
        // p again: allowed, and nothing more is sent for it.
        (s, fx) = Fx.run(s, .key(.char("p")), .key(.char("3")))
        #expect(Fx.sent(fx) == ["NEW"] && !ClientConfig.parse(s.config.rendered).privateGames)
    }
}

@Suite("Screens: watching")
struct WatchScreenTests {
    /// Every screen watching adds or changes.
    static func everyScreen(language: String, colour: Bool) -> [ClientState] {
        let list = WFx.list(language: language, colour: colour, more: true)
        let loading = Fx.run(Fx.named("carol", language: language, colour: colour), .key(.char("w"))).0
        let empty = Fx.run(loading, Fx.line("OK GAMES count=0 more=no")).0
        let ghost = WFx.ghost(language: language, colour: colour)
        let ghostOver = Fx.run(ghost, Fx.lines("MOVE id=12 player=alice letter=r fragment=per", "OVER id=12 winner=bob loser=alice reason=dead fragment=perq word=perch")).0
        let hangman = WFx.hangman(language: language, colour: colour)
        let hangmanOver = Fx.run(hangman, Fx.line("OVER id=7 winner=ann loser=bot-hangman reason=solved word=jelly pattern=jelly")).0
        let player = Fx.run(Fx.inGame(fragment: "pe", language: language, colour: colour), Fx.line("WATCHERS id=7 count=2")).0
        let hangmanPlayer = Fx.run(HFx.playing(language: language, colour: colour), Fx.line("WATCHERS id=9 count=1")).0
        let privateMain = Fx.run(Fx.named(language: language, colour: colour), .key(.char("p"))).0
        return [list, loading, empty, ghost, ghostOver, hangman, hangmanOver, player, hangmanPlayer, privateMain]
    }

    @Test("Every watching screen fits 80×24 and 60×20 (and larger), key help whole; no escape bytes without colour", arguments: ["en", "nl"], [false, true])
    func fits(language: String, colour: Bool) {
        for s in Self.everyScreen(language: language, colour: colour) {
            for (w, h) in [(80, 24), (60, 20), (120, 40), (100, 30)] {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h, "\(s.screen) at \(w)x\(h)")
                for l in lines { #expect(Layout.visibleWidth(l) <= w, "\(s.screen) at \(w)x\(h): \(Layout.plain(l))") }
                if !colour { #expect(!lines.joined().contains("\u{1B}"), "\(s.screen) at \(w)x\(h)") }
                // The key help is there, whole (on one row, or two).
                let plain = lines.map { Layout.plain($0).trimmingCharacters() }
                let bottom = plain.suffix(2).joined(separator: " ")
                if h <= Screens.maxHeight {
                    #expect(bottom.contains("Esc") || bottom.contains("Ctrl-C"), "\(s.screen) at \(w)x\(h): \(bottom)")
                }
            }
        }
    }

    @Test("The list: each game's players and kind, then its language, moves, watchers and clock; a kind the client has no code for by its name; “… and more”")
    func list() {
        for (w, h) in [(80, 24), (60, 20)] {
            let en = ScreenTests.plainLines(WFx.list(more: true), w, h)
            #expect(en[0].hasPrefix(" ghostd · Games in progress"))
            #expect(en.contains { $0.hasPrefix("  ▶ alice vs bob — Superghost") }, "\(en)")
            #expect(en.contains { $0.contains("English · 3 moves · 1 watching · 0:30 a move") })
            // A kind the client has no code for by its name, watched on the generic screen.
            #expect(en.contains { $0.contains("dan vs eve — scrabble") } && en.contains { $0.contains("English · 7 moves · nobody watching") })
            #expect(en.contains { $0.contains("Computer vs ann — Hangman (evil)") })
            #expect(en.contains { $0.contains("carol vs Computer (hard) — Ghost (match to GHOST)") })
            #expect(en.contains { $0.contains("Dutch · 1 move · 2 watching") })
            #expect(en.contains { $0.contains("… and more") })
            #expect(helpOf(en).hasSuffix("↑/↓ choose · Enter watch · r refresh · Esc back · Ctrl-C quit"), "\(en)")
            let nl = ScreenTests.plainLines(WFx.list(language: "nl"), w, h)
            #expect(nl[0].hasPrefix(" ghostd · Lopende spellen"))
            #expect(nl.contains { $0.hasPrefix("  ▶ alice tegen bob — Superghost") })
            #expect(nl.contains { $0.contains("Engels · 3 zetten · 1 kijker · 0:30 per zet") })
            #expect(nl.contains { $0.contains("Nederlands · 0 zetten · nog geen kijkers") })
            #expect(helpOf(nl).hasSuffix("↑/↓ kiezen · Enter kijken · r vernieuwen · Esc terug · Ctrl-C stoppen"), "\(nl)")
        }
        // The cursor moves the marker; with colour the chosen game is in reverse video.
        let down = ScreenTests.plainLines(Fx.run(WFx.list(), .key(.down), .key(.down)).0)
        #expect(down.contains { $0.hasPrefix("  ▶ Computer vs ann") } && !down.contains { $0.contains("▶ alice") })
        #expect(Screens.render(WFx.list(colour: true)).contains { $0.contains("▶ \u{1B}[1;7malice vs bob") })
        let empty = Fx.run(Fx.named("carol"), .key(.char("w")), Fx.line("OK GAMES count=0 more=no")).0
        #expect(ScreenTests.plainLines(empty).contains { $0 == "  No games in progress." })
        let leeg = Fx.run(Fx.named("carol", language: "nl"), .key(.char("w")), Fx.line("OK GAMES count=0 more=no")).0
        #expect(ScreenTests.plainLines(leeg).contains { $0 == "  Er wordt nu geen spel gespeeld." })
        // Many games: the window follows the cursor.
        var many = Fx.run(Fx.named("carol"), .key(.char("w"))).0
        many = Fx.run(many, (1...30).map { Fx.line("LIVE id=\($0) game=ghost players=p\($0),q\($0) lang=en moves=\($0) watchers=0") }
                      + [Fx.line("OK GAMES count=30 more=no")]).0
        many = Fx.run(many, Array(repeating: ClientEvent.key(.down), count: 25)).0
        #expect(ScreenTests.plainLines(many, 60, 20).contains { $0.hasPrefix("  ▶ p26 vs q26") })
    }

    @Test("Watching Ghost: the board, the title says watching, the help whom and how to stop; the end says who won and why")
    func watchingGhost() {
        for (w, h) in [(80, 24), (60, 20)] {
            let en = ScreenTests.plainLines(WFx.ghost(), w, h)
            #expect(en[0].contains("Watching · Superghost · English · round 1") && en[0].contains("2 watching"))
            #expect(!en[0].contains("carol"))
            #expect(en.contains { $0.contains("▶ alice") && $0.contains("bob") && !$0.contains("(you)") })
            #expect(en.contains { $0.contains("alice is thinking… · 0:30 left") })
            #expect(en.contains { $0.contains("“PE” · 2 letters · bob played E") })
            #expect(en.contains { $0.contains("*E*") })
            #expect(helpOf(en).hasSuffix("Watching alice vs bob · Esc: stop watching · Ctrl-C quit"), "\(en)")
            #expect(!en.joined().contains("Your letter goes"), "Superghost's end choice is a player's")
            let nl = ScreenTests.plainLines(WFx.ghost(language: "nl"), w, h)
            #expect(nl[0].contains("Kijken · Superghost · Engels · ronde 1") && nl[0].contains("2 kijkers"))
            #expect(helpOf(nl).hasSuffix("Je kijkt naar alice tegen bob · Esc: stoppen met kijken · Ctrl-C stoppen"), "\(nl)")
        }
        let over = Fx.run(WFx.ghost(), Fx.lines("MOVE id=12 player=alice letter=r fragment=per",
                                                "OVER id=12 winner=bob loser=alice reason=dead fragment=perq word=perch")).0
        let end = ScreenTests.plainLines(over)
        #expect(end.contains { $0.trimmingCharacters() == "bob wins!" }, "\(end)")
        #expect(end.joined(separator: " ").contains("“PERQ”"))
        #expect(end[23] == " The game is over · Enter or Esc: back to the list · Ctrl-C quit")
        #expect(ScreenTests.plainLines(Fx.run(over, .resize(width: 80, height: 24)).0).count == 24)
        let nl = Fx.run(WFx.ghost(language: "nl"), Fx.line("OVER id=12 winner=bob loser=alice reason=time fragment=pe")).0
        #expect(ScreenTests.plainLines(nl)[23] == " Het spel is afgelopen · Enter of Esc: terug naar de lijst · Ctrl-C stoppen")
    }

    @Test("Watching Hangman: the gallows, the pattern and the keyboard, read-only; the end in a bystander's words, without a list")
    func watchingHangman() {
        for (w, h) in [(80, 24), (60, 20)] {
            let en = ScreenTests.plainLines(WFx.hangman(), w, h)
            #expect(en[0].hasPrefix(" ghostd · Watching · Hangman · evil · Dutch"))
            #expect(en.contains { $0.contains("ann is guessing…") } && en.contains { $0.contains("Misses left: 7 of 8") })
            #expect(en.contains { $0.contains("Wrong: Q") } && en.contains { $0.contains(" Q✗") } && en.contains { $0.contains(" E✓") })
            #expect(helpOf(en).hasSuffix("Watching Computer vs ann · Esc: stop watching · Ctrl-C quit"), "\(en)")
            let nl = ScreenTests.plainLines(WFx.hangman(language: "nl"), w, h)
            #expect(nl[0].hasPrefix(" ghostd · Kijken · Galgje · "), "\(nl[0])")
            #expect(helpOf(nl).hasSuffix("Je kijkt naar Computer tegen ann · Esc: stoppen met kijken · Ctrl-C stoppen"), "\(nl)")
        }
        let over = Fx.run(WFx.hangman(), Fx.line("OVER id=7 winner=ann loser=bot-hangman reason=solved word=jelly pattern=jelly")).0
        let end = ScreenTests.plainLines(over)
        #expect(end[0].hasPrefix(" ghostd · Watching · Hangman"))
        #expect(end.contains { $0.contains("Ann found it with 1 mistake.") || $0.contains("ann found it with 1 mistake.") }, "\(end)")
        #expect(end.contains { $0.contains("The word: JELLY") })
        #expect(!end.contains { $0.contains("Best games") })
        #expect(end[23] == " The game is over · Enter or Esc: back to the list · Ctrl-C quit")
    }

    @Test("Players see how many watch, only when some do: “2 watching” / “2 kijkers”; a private game says so")
    func playersSeeTheCount() {
        #expect(!ScreenTests.plainLines(Fx.inGame(fragment: "pe"))[0].contains("watching"))
        let p = Fx.run(Fx.inGame(fragment: "pe"), Fx.line("WATCHERS id=7 count=2")).0
        #expect(ScreenTests.plainLines(p)[0].hasSuffix("alice · 2 watching "))
        #expect(ScreenTests.plainLines(p, 60, 20)[0].hasSuffix("alice · 2 watching "))
        let nl = Fx.run(Fx.inGame(fragment: "pe", language: "nl"), Fx.line("WATCHERS id=7 count=1")).0
        #expect(ScreenTests.plainLines(nl)[0].hasSuffix("alice · 1 kijker "))
        let back = Fx.run(p, Fx.line("WATCHERS id=7 count=0")).0
        #expect(ScreenTests.plainLines(back)[0].hasSuffix("alice "))
        let h = Fx.run(HFx.playing(), Fx.line("WATCHERS id=9 count=3")).0
        #expect(ScreenTests.plainLines(h)[0].contains("· 3 watching"))
        let closed = Fx.run(Fx.named(), Fx.lines("GAME id=8 game=ghost lang=en players=alice,bob token=\(Fx.token) round=1 watch=no",
                                                 "TURN id=8 player=alice fragment=")).0
        #expect(ScreenTests.plainLines(closed)[0].hasSuffix("alice · private "))
    }

    @Test("The main screen: w in the key help, and the watchers setting under the menu (p), in English and Dutch, at 80×24 and 60×20")
    func mainScreen() {
        for (w, h) in [(80, 24), (60, 20)] {
            let en = ScreenTests.plainLines(Fx.named(), w, h)
            #expect(en.suffix(2).joined(separator: " ").contains("w watch games"))
            #expect(en.contains { $0.contains("Watchers: allowed (p)") })
            #expect(en.contains { $0.contains("q  Quit") })
            let closed = ScreenTests.plainLines(Fx.run(Fx.named(), .key(.char("p"))).0, w, h)
            #expect(closed.contains { $0.contains("Watchers: not allowed (p)") })
            let nl = ScreenTests.plainLines(Fx.named(language: "nl"), w, h)
            #expect(nl.suffix(2).joined(separator: " ").contains("w kijken"))
            #expect(nl.contains { $0.contains("Kijkers: toegestaan (p)") })
        }
        // The large title (the product's name) where there is room for it: the games come first at 80×24.
        #expect(ScreenTests.plainLines(Fx.named(), 100, 30).contains { $0.contains("████ █   █") })
    }
}

extension WatchScreenTests {
    @Test("A watcher is never asked for a key: no offer to answer, no win to claim")
    func noPlayersBanners() {
        let s = Fx.run(WFx.ghost(), Fx.lines("OFFER id=12 player=bob kind=restart", "ADJOURNED id=12 player=alice grace=60",
                                             "CLAIMABLE id=12 player=alice")).0
        let lines = ScreenTests.plainLines(s).joined(separator: " ")
        #expect(lines.contains("alice is away; the game waits"))
        #expect(!lines.contains("claim the win") && !lines.contains("accept or decline"))
    }
}

extension WatchScreenTests {
    @Test("A challenge game watched: who is challenged, but no answer prompt; the keys (!, letters, -) send nothing; the list names it")
    func challengeWatched() {
        var s = Fx.run(Fx.named("carol"), [.key(.char("w"))]
                       + Fx.lines("LIVE id=7 game=ghost players=alice,bob lang=en moves=3 watchers=0 variant=challenge",
                                  "OK GAMES count=1 more=no")).0
        #expect(ScreenTests.plainLines(s).contains { $0.hasPrefix("  ▶ alice vs bob — Bluff and challenge") })
        s = Fx.run(s, [.key(.enter)] + Fx.lines("OK WATCH id=7",
                                                "GAME id=7 game=ghost lang=en players=alice,bob round=1 variant=challenge watchers=1 watching=yes",
                                                "TURN id=7 player=alice fragment=jai",
                                                "MOVE id=7 player=alice challenge=yes fragment=jai",
                                                "TURN id=7 player=bob fragment=jai challenged=yes")).0
        let (after, fx) = Fx.run(s, Fx.keys("!l-") + [.key(.enter), .key(.backspace)].prefix(1))
        #expect(fx.isEmpty && after.game == s.game)
        let lines = ScreenTests.plainLines(s)
        #expect(lines[23] == " Watching alice vs bob · Esc: stop watching · Ctrl-C quit")
        #expect(!lines.joined().contains("Your word"))
    }
}

/// The key help at the bottom of a screen, its one or two rows joined (the
/// quit key takes a row of its own at 60 columns on some screens).
private func helpOf(_ lines: [String]) -> String {
    lines.suffix(2).map { $0.trimmingCharacters() }.joined(separator: " · ")
}
