import Testing
@testable import GhostClient
import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

@Suite("Config file and command line")
struct ConfigAndOptionsTests {
    @Test("key=value: read and written back; junk and bad values ignored")
    func parse() {
        let c = ClientConfig(language: "nl", tutorialSeen: true, lastName: "alice", server: "h:1", token: Fx.token)
        #expect(ClientConfig.parse(c.rendered) == c)
        let odd = ClientConfig.parse("""
        # comment
        language = fr
        tutorial=seen
        name=al ice
        colour=blue
        no equals sign
        token=not-hex!
        server=127.0.0.1:7777\r
        """)
        #expect(odd == ClientConfig(language: nil, tutorialSeen: true, lastName: nil, server: "127.0.0.1:7777", token: nil))
        #expect(ClientConfig.parse("") == ClientConfig())
    }

    @Test("Default path: $XDG_CONFIG_HOME/ghost/config, else ~/.config/ghost/config")
    func defaultPath() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/ghost/config")
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/ghost/config")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/ghost/config")
    }

    @Test("Saving creates the folders, replaces the file atomically and leaves no temp file")
    func save() throws {
        var template = Array("/tmp/ghost-client-config-XXXXXX".utf8CString)
        let dir = try #require(template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap(mkdtemp) }.map { String(cString: $0) })
        defer { _ = system("rm -rf '\(dir)'") }
        let path = dir + "/a/b/ghost/config"
        #expect(ConfigFile.load(path).existed == false)
        var c = ClientConfig(language: "en", lastName: "bob")
        try ConfigFile.save(c, to: path)
        #expect(ConfigFile.load(path) == (c, true))
        c.token = Fx.token
        try ConfigFile.save(c, to: path)
        #expect(ConfigFile.load(path).config.token == Fx.token)
        let listing = try #require(opendir(dir + "/a/b/ghost"))
        var names: [String] = []
        while let e = readdir(listing) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(listing)
        #expect(names == ["config"])
    }

    @Test("Server addresses: host, host:port, IPv6 in brackets")
    func addresses() {
        #expect(ServerAddress("example.org") == ServerAddress(host: "example.org", port: 7777))
        #expect(ServerAddress("127.0.0.1:4000") == ServerAddress(host: "127.0.0.1", port: 4000))
        #expect(ServerAddress("[::1]:4000") == ServerAddress(host: "::1", port: 4000))
        #expect(ServerAddress("::1") == ServerAddress(host: "::1", port: 7777))
        #expect(ServerAddress("[::1]")?.description == "[::1]:7777")
        for bad in ["", "h:0", "h:70000", "h:x", "[::1", "[::1]x", "a b"] { #expect(ServerAddress(bad) == nil, "\(bad)") }
    }

    @Test("Options: server, --config, --lang, --help, --version; errors")
    func options() throws {
        let o = try ClientOptions.parse(["h:1", "--config", "/c", "--lang", "nl"]).get()
        #expect(o.server == ServerAddress(host: "h", port: 1))
        #expect(o.configPath == "/c")
        #expect(o.lang == "nl")
        #expect(try ClientOptions.parse(["--help"]).get().help)
        #expect(try ClientOptions.parse(["--version"]).get().version)
        #expect(try ClientOptions.parse(["--lang=en", "--config=/x"]).get().configPath == "/x")
        #expect(try ClientOptions.parse([]).get().server == nil)
        for bad in [["--lang", "fr"], ["--config"], ["--bogus"], ["a:1", "b:2"], ["h:0"]] {
            #expect(throws: ClientOptions.Failure.self) { try ClientOptions.parse(bad).get() }
        }
        // What each refusal says: the option or argument, and what is allowed.
        let failures: [([String], String)] = [
            (["--lang", "fr"], "--lang: fr is not one of the choices; allowed: en or nl"),
            (["--lang=EN"], "--lang: EN is not one of the choices; allowed: en or nl"),
            (["--config"], "--config needs a value; allowed: a file path"),
            (["--config", "--lang", "en"], "--config needs a value; allowed: a file path"),
            (["--config="], "--config: the value is empty; allowed: a file path"),
            (["--bogus"], "unknown option --bogus"),
            (["--lnag", "en"], "unknown option --lnag; did you mean --lang?"),
            (["--game", "chess"], "--game: chess is not one of the choices; allowed: ghost or hangman"),
            (["a:1", "b:2"], "unexpected argument b:2; allowed: options and one host[:port]"),
            (["h:0"], "host[:port]: h:0 is not valid; allowed: host, host:port or [IPv6]:port, with a port from 1 to 65535"),
            (["--version=1"], "--version takes no value"),
        ]
        for (args, text) in failures {
            if case .failure(let f) = ClientOptions.parse(args) {
                #expect(f.description == text, "\(args)")
            } else {
                Issue.record("\(args) was accepted")
            }
        }
        // --help and --version stop parsing wherever they come before an error.
        #expect(try ClientOptions.parse(["h:1", "--help", "--bogus"]).get().help)
        #expect(try ClientOptions.parse(["-V"]).get().version)
        #expect(try ClientOptions.parse(["--config", "/a", "--config=/b", "[::1]:9"]).get()
                == { var o = ClientOptions(); o.configPath = "/b"; o.server = ServerAddress(host: "::1", port: 9); return o }())
        // The usage line docs/client.md shows, made from the table.
        #expect(ClientOptions.usage.hasPrefix("Usage: ghost-client [host[:port]] [--config PATH] [--lang en|nl] [--game ghost|hangman] [--clock SECONDS] [--tls] [--tls-ca FILE] [--insecure] [--plain-screens] [--help] [--version]\n"))
        #expect(try ClientOptions.parse(["--game", "hangman"]).get().game == "hangman")
        for line in ClientOptions.usage.split(separator: "\n").dropFirst() {
            #expect(line.count <= 80 && !line.hasSuffix(" "), "`\(line)`")
        }
    }
}

@Suite("Block font and layout")
struct FontAndLayoutTests {
    @Test("Issue 13: line mode refuses --game (it plays nothing by itself) and says what to do; other options pass")
    func lineModeRefusesGame() throws {
        let hangman = try ClientOptions.parse(["--game", "hangman"]).get()
        #expect(ClientApp.lineModeRefusal(hangman)
                == "--game hangman needs a terminal: in line mode (stdin or stdout is not a terminal) the client only passes"
                    + " lines on, so send the game's commands yourself, e.g. NEW game=hangman")
        #expect(ClientApp.lineModeRefusal(try ClientOptions.parse(["--lang", "nl", "h:1"]).get()) == nil)
        #expect(ClientOptions.usage.contains("so --game and --clock are refused there (exit"))
        #expect(ClientApp.lineModeRefusal(try ClientOptions.parse(["--clock", "30"]).get())
                == "--clock 30 needs a terminal: in line mode (stdin or stdout is not a terminal) the client only passes"
                    + " lines on, so send clock= on your NEW or SEEK yourself, e.g. SEEK clock=30")
    }

    @Test("--clock <seconds>: 0 or a clock SEEK takes (all within NEW's range), else exit status 2 with what is allowed")
    func clockOption() throws {
        #expect(try ClientOptions.parse(["--clock", "30"]).get().clock == 30)
        #expect(try ClientOptions.parse(["--clock=600"]).get().clock == 600)
        #expect(try ClientOptions.parse(["--clock", "0"]).get().clock == 0)
        #expect(try ClientOptions.parse([]).get().clock == nil)
        // Every clock the client takes is one SEEK takes, and in NEW's range.
        for clock in ClientConfig.clockChoices.compactMap({ $0 }) {
            #expect(GameOptions.seekClocks.contains(clock) && GameOptions.clockRange.contains(clock))
            #expect(try ClientOptions.parse(["--clock", String(clock)]).get().clock == clock)
        }
        #expect(ClientConfig.clockChoices.compactMap { $0 } == GameOptions.seekClocks)
        let allowed = "allowed: 0 (no clock), 15, 30, 60, 120, 300 or 600"
        let failures: [([String], String)] = [
            (["--clock", "45"], "--clock: 45 is not one of the choices; \(allowed)"),
            (["--clock", "3601"], "--clock: 3601 is not one of the choices; \(allowed)"),
            (["--clock", "5"], "--clock: 5 is not one of the choices; \(allowed)"),
            (["--clock", "-30"], "--clock: -30 is not a whole number; \(allowed)"),
            (["--clock=-30"], "--clock: -30 is not a whole number; \(allowed)"),
            (["--clock", "30s"], "--clock: 30s is not a whole number; \(allowed)"),
            (["--clock="], "--clock: the value is empty; \(allowed)"),
            (["--clock"], "--clock needs a value; \(allowed)"),
        ]
        for (args, text) in failures {
            if case .failure(let f) = ClientOptions.parse(args) {
                #expect(f.description == text, "\(args)")
                #expect(ClientApp.main(["ghost-client"] + args) == 2, "\(args)")
            } else {
                Issue.record("\(args) was accepted")
            }
        }
        #expect(ClientOptions.usage.contains("--clock SECONDS"))
        let words = ClientOptions.usage.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("0 (no clock), 15, 30, 60, 120, 300 or 600 (saved; t on the main screen changes it)"))
    }

    @Test("--clock presets the main screen's clock (t goes on from it), and 0 clears a saved one")
    func clockOptionPresetsTheMainScreen() throws {
        var config = ClientConfig(language: "en")
        config.clock = 60
        // What the app does with --clock before the session starts.
        #expect(ClientApp.applying(try ClientOptions.parse(["--clock", "0"]).get(), to: config).clock == nil)
        config = ClientApp.applying(try ClientOptions.parse(["--clock", "120"]).get(), to: ClientConfig(language: "en"))
        #expect(config.clock == 120)
        #expect(ClientConfig.parse(config.rendered).clock == 120)
        var s = Fx.named()
        s.config = config
        #expect(Screens.render(s, width: 80, height: 24, strings: s.strings).joined(separator: "\n").contains("Clock: 2:00 a move"))
        let fx = Fx.run(s, .key(.char("1"))).1
        #expect(Fx.sent(fx) == ["SEEK clock=120"])
        // c goes on from the preset: the next clock, then the rest, then none.
        #expect(Fx.run(s, .key(.char("t"))).0.config.clock == 300)
    }

    @Test("Every glyph is 5 rows of equal width; A-Z and 0-9 are all there")
    func glyphs() {
        for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" {
            let g = BlockFont.glyphs[c]
            #expect(g?.count == 5, "\(c)")
            #expect(Set(g?.map(\.count) ?? []).count == 1, "\(c)")
        }
        #expect(BlockFont.width(of: "pea") == 5 + 1 + 5 + 1 + 5)
        #expect(BlockFont.width(of: "p!") == nil)
        #expect(BlockFont.render("pea", maxWidth: 16) == nil)
        #expect(BlockFont.draw("pea", maxWidth: 16) == ["P E A"])
        #expect(BlockFont.draw("pea", maxWidth: 3) == ["PEA"])
        #expect(BlockFont.draw("peafowl", maxWidth: 2) == ["PE"])
    }

    @Test("Widths skip escape sequences; truncation keeps them whole; wrap respects the width")
    func layout() {
        #expect(Layout.visibleWidth("\u{1B}[1;7mabc\u{1B}[0m") == 3)
        #expect(Layout.visibleWidth("漢字") == 4)
        #expect(Layout.truncate("\u{1B}[1mabcdef\u{1B}[0m", to: 3) == "\u{1B}[1mabc\u{1B}[0m")
        #expect(Layout.truncate("abc", to: 5) == "abc")
        let wrapped = Layout.wrap("• one two three four five six seven", width: 12)
        #expect(wrapped == ["• one two", "  three four", "  five six", "  seven"])
        #expect(Layout.wrap(String(repeating: "x", count: 25), width: 10).allSatisfy { $0.count <= 10 })
        #expect(Layout.fit(["a", "b", "c"], width: 5, height: 2) == ["a", "b"])
        #expect(Layout.fit(["a"], width: 5, height: 3) == ["a", "", ""])
    }
}
