import Testing
@testable import GhostClient
import GhostProtocol

/// The name screen's picker: the names used from this client (the config's
/// `names=`) first, then the server's (`NAMES`, or `NAMES prefix=` for what
/// is typed), without repeats; one NAMES in flight, stale answers ignored.
@Suite("Core: the name picker")
struct NamePickerTests {
    /// A returning player whose config holds `used` (most recent first), on
    /// the name screen, greeted, with `LANG` answered and `NAMES` unanswered.
    static func picker(_ used: [String], language: String = "en") -> ClientState {
        let config = ClientConfig(language: language, tutorialSeen: true, lastName: used.first, recentNames: used,
                                  server: "127.0.0.1:7777")
        let s = ClientState(config: config, serverAddress: "127.0.0.1:7777")
        return Fx.run(s, .tick(100), .connected, Fx.line(Fx.hello), Fx.line("OK LANG lang=\(language)")).0
    }

    /// The picker's rows: the name screen's lines from the field on, up to the status line.
    static func rows(_ s: ClientState, _ w: Int = 80, _ h: Int = 24) -> [String] {
        let lines = ScreenTests.plainLines(s, w, h)
        // The bottom three lines are the banner, the status line and the key help.
        guard let field = lines.firstIndex(where: { $0.contains(s.strings.nameLabel) }), field < h - 3 else { return lines }
        var rows = Array(lines[field..<(h - 3)])
        while rows.last == "" { rows.removeLast() }
        return rows
    }

    @Test("This client's names come first, then the server's most recent, each name once (any case)")
    func configNamesFirst() {
        var s = Self.picker(["Zed", "alice", "bob"])
        // Before the server answers: this client's names, the last one picked.
        #expect(s.filteredNames == ["Zed", "alice", "bob"])
        #expect(s.namePicker.nameCursor == 0)
        s = Fx.run(s, Fx.lines("NAME name=bob", "NAME name=carl", "NAME name=ZED", "NAME name=Alice", "NAME name=dora",
                               "OK NAMES count=5 more=no")).0
        #expect(s.namePicker.knownNames == ["bob", "carl", "ZED", "Alice", "dora"])
        #expect(s.pickerNames.here == ["Zed", "alice", "bob"])
        #expect(s.pickerNames.server == ["carl", "dora"])
        #expect(s.filteredNames == ["Zed", "alice", "bob", "carl", "dora"])
        #expect(s.namePicker.nameCursor == 0)
        #expect(Self.rows(s) == [
            "    Name: _",
            "",
            "  Used from this computer:",
            "  ▶ Zed",
            "    alice",
            "    bob",
            "  Recently used on this server:",
            "    carl",
            "    dora",
        ])
        // ↓ walks from this client's names into the server's; Enter takes it.
        let (t, fx) = Fx.run(s, .key(.down), .key(.down), .key(.down), .key(.enter))
        #expect(t.namePicker.nameCursor == 3)
        #expect(fx == [.send(.name("carl"))])
    }

    @Test("A name chosen before the server's greeting (Enter at once): \"not connected yet\", and it goes with the greeting")
    func chosenBeforeGreeting() {
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "wynn", recentNames: ["wynn"], server: "127.0.0.1:7777")
        var (s, fx) = Fx.run(ClientState(config: config, serverAddress: "127.0.0.1:7777"), .tick(100), .connected, .key(.enter))
        #expect(s.screen == .name)
        #expect(Fx.sent(fx) == [])
        #expect(s.alert?.notice == .notConnected)
        (s, fx) = Fx.run(s, Fx.line(Fx.hello))
        #expect(Fx.sent(fx) == ["LANG en", "NAME wynn"])
        (s, fx) = Fx.run(s, Fx.line("OK LANG lang=en"), Fx.line("OK NAME name=wynn lang=en"))
        #expect(s.myName == "wynn" && s.screen != .name)
    }

    @Test("An older config (only `name=`) lists that name first; `names=` is read and written back, bad entries dropped")
    func configFile() {
        let old = ClientConfig.parse("language=en\ntutorial=seen\nname=zoe\n")
        #expect(old.recentNames.isEmpty)
        #expect(old.usedNames == ["zoe"])
        let c = ClientConfig.parse("name=bob\nnames=bob,al ice,Carol,,carol,x!,dave\n")
        #expect(c.recentNames == ["bob", "Carol", "dave"])
        #expect(ClientConfig.parse(c.rendered) == c)
        #expect(c.rendered.contains("\nnames=bob,Carol,dave\n"))
        let many = ClientConfig.parse("names=" + (1...15).map { "n\($0)" }.joined(separator: ",") + "\n")
        #expect(many.recentNames == (1...10).map { "n\($0)" })
    }

    @Test("A name taken (OK NAME, or my seat in a resumed game) goes first in the config's list, which keeps 10")
    func rememberedOnSuccess() {
        var s = Self.picker((1...10).map { "n\($0)" })
        s = Fx.run(s, Fx.line("OK NAMES count=0 more=no")).0
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.keys("newbie") + [.key(.enter)])
        #expect(Fx.sent(fx) == ["NAMES prefix=n", "NAME newbie"])
        // Refused: nothing remembered.
        (s, fx) = Fx.run(s, Fx.lines("OK NAMES count=0 more=no", "ERR too-many-names too many new names from your address; try again later",
                                     "OK NAMES count=0 more=no"))
        #expect(Fx.sent(fx) == ["NAMES prefix=newbie"])
        #expect(!fx.contains(.saveConfig))
        #expect(s.config.recentNames.first == "n1")
        (s, fx) = Fx.run(s, .key(.enter), Fx.line("OK NAME name=newbie lang=en"), Fx.line("OK SETTINGS"))
        // Named, with its settings: the kinds the server plays are asked (HELP).
        #expect(fx == [.send(.name("newbie")), .saveConfig, .send(.settings), .send(.help)])
        #expect(s.config.lastName == "newbie")
        #expect(s.config.recentNames == ["newbie"] + (1...9).map { "n\($0)" })
        #expect(s.pending == [.help])
        // Taken again in another case: moved to the front, not repeated.
        (s, fx) = Fx.run(s, .key(.char("9")), Fx.line("NAME name=x"), Fx.line("OK NAMES count=1 more=no"))
        #expect(s.screen == .name)
        (s, fx) = Fx.run(s, Fx.keys("N5") + [.key(.enter)] + Fx.lines("OK NAMES count=0 more=no", "OK NAME name=N5 lang=en", "OK NAMES count=0 more=no", "OK SETTINGS"))
        #expect(Fx.sent(fx) == ["NAMES prefix=N", "NAME N5", "NAMES prefix=N5", "SETTINGS"])
        #expect(s.config.recentNames == ["N5", "newbie", "n1", "n2", "n3", "n4", "n6", "n7", "n8", "n9"])
        #expect(fx.contains(.saveConfig))
        // The same name again: nothing to save.
        (s, fx) = Fx.run(s, .key(.char("9")), Fx.line("OK NAMES count=0 more=no"), .key(.enter), Fx.line("OK NAME name=N5 lang=en"), Fx.line("OK SETTINGS"))
        #expect(fx == [.send(.recentNames), .send(.name("N5")), .send(.settings)])
        #expect(s.pending.isEmpty)

        // A resumed game names my seat: remembered too.
        let config = ClientConfig(language: "en", tutorialSeen: true, lastName: "eve", recentNames: ["bob", "eve"], token: Fx.token)
        var r = ClientState(config: config, serverAddress: "h:1")
        r = Fx.run(r, .connected, Fx.line(Fx.hello)).0
        (r, fx) = Fx.run(r, Fx.lines("OK LANG lang=en", "OK RESUME id=7",
                                     "GAME id=7 game=ghost lang=en players=alice,Eve token=\(Fx.token) round=1"))
        #expect(r.myName == "Eve")
        #expect(r.config.recentNames == ["Eve", "bob"])
        #expect(fx == [.saveConfig])
    }

    @Test("Typing searches the server with the typed NAMES prefix=; this client's matching names stay first")
    func prefixSearch() {
        var s = Self.picker(["u29995", "zoe"])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.lines("NAME name=u29999", "NAME name=u29998", "NAME name=u29997", "OK NAMES count=3 more=yes"))
        #expect(fx.isEmpty)
        #expect(s.namePicker.moreNames)
        (s, fx) = Fx.run(s, .key(.char("u")))
        #expect(fx == [.send(.names(prefix: "u", limit: CommandParser.defaultNames))])
        #expect(Fx.sent(fx) == ["NAMES prefix=u"])
        (s, fx) = Fx.run(s, Fx.lines("NAME name=u29999", "NAME name=u29995", "OK NAMES count=2 more=yes"))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, .key(.char("2")))
        #expect(Fx.sent(fx) == ["NAMES prefix=u2"])
        (s, fx) = Fx.run(s, Fx.lines("NAME name=u29999", "NAME name=u20000", "OK NAMES count=2 more=yes"))
        (s, fx) = Fx.run(s, Fx.keys("999"))
        #expect(Fx.sent(fx) == ["NAMES prefix=u29"])
        (s, fx) = Fx.run(s, Fx.lines("NAME name=u29999", "OK NAMES count=1 more=yes"))
        #expect(Fx.sent(fx) == ["NAMES prefix=u2999"])
        let answer = (0...9).reversed().map { "NAME name=u2999\($0)" } + ["OK NAMES count=10 more=no"]
        (s, fx) = Fx.run(s, answer.map { Fx.line($0) })
        #expect(fx.isEmpty)
        #expect(s.namePicker.knownNamesPrefix == "u2999" && !s.namePicker.moreNames)
        // u29995 is this client's: first, and not again among the server's.
        #expect(s.filteredNames == ["u29995", "u29999", "u29998", "u29997", "u29996", "u29994", "u29993", "u29992", "u29991", "u29990"])
        #expect(s.namePicker.nameCursor == nil)
        #expect(Self.rows(s) == [
            "  ▶ Name: u2999_",
            "",
            "  Used from this computer:",
            "    u29995",
            "  On this server, starting with “u2999”:",
            "    u29999", "    u29998", "    u29997", "    u29996", "    u29994",
            "    u29993", "    u29992", "    u29991", "    u29990",
        ])
        // Backspace to nothing: the most recent names again, the last name picked.
        (s, fx) = Fx.run(s, Array(repeating: ClientEvent.key(.backspace), count: 5)
                            + Fx.lines("OK NAMES count=0 more=no", "NAME name=u29999", "OK NAMES count=1 more=yes"))
        #expect(Fx.sent(fx) == ["NAMES prefix=u299", "NAMES"])
        #expect(s.namePicker.nameCursor == 0 && s.filteredNames == ["u29995", "zoe", "u29999"])
    }

    @Test("Fast typing: one NAMES in flight; an answer for a prefix no longer typed is ignored; only the latest counts")
    func staleAnswers() {
        var s = Self.picker(["zoe"])
        s = Fx.run(s, Fx.lines("NAME name=amy", "OK NAMES count=1 more=no")).0
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.keys("bo"))
        #expect(Fx.sent(fx) == ["NAMES prefix=b"])
        #expect(s.namePicker.namesSearching)
        #expect(Self.rows(s).suffix(2) == ["  On this server, starting with “bo”:", "    (searching…)"])
        // The answer for "b" is stale: ignored (bill does not start with "bo"), and "bo" is asked.
        (s, fx) = Fx.run(s, Fx.lines("NAME name=bill", "NAME name=bob", "OK NAMES count=2 more=yes"))
        #expect(fx == [.send(.names(prefix: "bo", limit: CommandParser.defaultNames))])
        #expect(s.namePicker.knownNames == ["amy"] && s.namePicker.knownNamesPrefix == "")
        #expect(s.filteredNames.isEmpty)
        // Typing on while "bo" is asked; then back to "bo" before it is answered.
        (s, fx) = Fx.run(s, .key(.char("b")), .key(.backspace))
        #expect(fx.isEmpty)
        (s, fx) = Fx.run(s, Fx.lines("NAME name=bob", "NAME name=boris", "OK NAMES count=2 more=no"))
        #expect(fx.isEmpty)
        #expect(s.filteredNames == ["bob", "boris"])
        #expect(!s.namePicker.namesSearching)
        // The cursor stays on its name when a newer answer reorders the list
        // (here, after a reconnection); on the last name if its name is gone.
        var r = Fx.run(Self.picker(["zoe"]), Fx.lines("NAME name=amy", "NAME name=bob", "OK NAMES count=2 more=no")
                                              + [.key(.down), .key(.down)]).0
        #expect(r.namePicker.nameCursor == 2)
        let again: [ClientEvent] = [.disconnected, .connected, Fx.line(Fx.hello), Fx.line("OK LANG lang=en")]
        r = Fx.run(r, again + Fx.lines("NAME name=bob", "NAME name=cy", "NAME name=amy", "OK NAMES count=3 more=no")).0
        #expect(r.filteredNames == ["zoe", "bob", "cy", "amy"])
        #expect(r.namePicker.nameCursor == 1)
        r = Fx.run(r, again + Fx.lines("NAME name=cy", "OK NAMES count=1 more=no")).0
        #expect(r.filteredNames == ["zoe", "cy"])
        #expect(r.namePicker.nameCursor == 0)
    }

    @Test("more=yes shows “… and more”, for what is typed now only; Dutch texts")
    func moreAndDutch() {
        var s = Self.picker(["zoe"], language: "nl")
        s = Fx.run(s, Fx.lines("NAME name=amy", "NAME name=bram", "OK NAMES count=2 more=yes")).0
        #expect(Self.rows(s) == [
            "    Naam: _",
            "",
            "  Gebruikt op deze computer:",
            "  ▶ zoe",
            "  Onlangs gebruikt op deze server:",
            "    amy",
            "    bram",
            "    … en meer: typ meer van een naam om hem te vinden",
        ])
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Fx.keys("q"))
        #expect(Fx.sent(fx) == ["NAMES prefix=q"])
        #expect(!s.namePicker.moreNames)
        #expect(Self.rows(s).suffix(2) == ["  Op deze server, beginnend met “q”:", "    (zoeken…)"])
        (s, _) = Fx.run(s, Fx.line("OK NAMES count=0 more=no"))
        #expect(Self.rows(s) == ["  ▶ Naam: q_", "", "  Op deze server, beginnend met “q”:", "    (geen naam begint zo)"])
        let en = Fx.run(Self.picker([]), Fx.lines("NAME name=amy", "OK NAMES count=1 more=yes")).0
        #expect(Self.rows(en).suffix(3) == ["  Recently used on this server:", "    amy", "    … and more: type more of a name to find it"])
        let none = Fx.run(Self.picker([]), Fx.line("OK NAMES count=0 more=no")).0
        #expect(Self.rows(none) == ["  ▶ Name: _", "", "  Recently used on this server:", "    (none yet)"])
    }

    @Test("A server that refuses NAMES prefix= (an older one): no loop, no alert, the list it gave is filtered")
    func olderServer() {
        var s = Self.picker(["zoe"])
        s = Fx.run(s, Fx.lines("NAME name=amy", "NAME name=abe", "NAME name=bob", "OK NAMES count=3")).0
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, .key(.char("a")), Fx.line("ERR bad-arguments usage: NAMES [n]"))
        #expect(Fx.sent(fx) == ["NAMES prefix=a"])
        #expect(s.alert == nil)
        #expect(s.filteredNames == ["amy", "abe"])
        (s, fx) = Fx.run(s, .key(.char("m")), .key(.backspace), .key(.backspace))
        #expect(fx.isEmpty)
        #expect(s.filteredNames == ["zoe", "amy", "abe", "bob"])
        // A plain NAMES that fails is said, once; it is not asked again in a loop.
        let t = Fx.run(Self.picker(["zoe"]), Fx.line("ERR flood too many commands; slow down")).0
        #expect(t.alert?.notice == .serverError(code: .flood, text: "too many commands; slow down"))
        #expect(t.pending.isEmpty)
    }

    @Test("Whatever the server holds (thousands of names, the longest ones): the picker fits and its keys work")
    func hostileLists() {
        var s = Self.picker(["zoe"])
        let many = (0..<12_000).map { Fx.line("NAME name=\(String(repeating: "w", count: 15))\($0 % 10)") }
        s = Fx.run(s, many + [Fx.line("OK NAMES count=12000 more=yes")]).0
        #expect(s.namePicker.knownNames.count == 10_000)
        #expect(s.filteredNames.count == 11)
        for (w, h) in [(60, 20), (80, 24), (96, 32)] {
            let lines = Screens.render(s, width: w, height: h, strings: s.strings)
            #expect(lines.count == h && lines.allSatisfy { Layout.visibleWidth($0) <= w })
        }
        var fx: [ClientEffect]
        (s, fx) = Fx.run(s, Array(repeating: ClientEvent.key(.down), count: 30) + [.key(.enter)])
        #expect(fx == [.send(.name("wwwwwwwwwwwwwww9"))])
        let lines = ScreenTests.plainLines(s, 60, 20)
        #expect(lines.contains("  ▶ wwwwwwwwwwwwwww9"))
    }
}
