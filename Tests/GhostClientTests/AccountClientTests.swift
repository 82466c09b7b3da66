import Foundation
import Testing
@testable import GhostClient
import GhostProtocol

/// Builders for the registered-name tests.
enum AFx {
    /// Every line sent, as the connection writes it (commands with a password too).
    static func sent(_ effects: [ClientEffect]) -> [String] {
        effects.compactMap {
            switch $0 {
            case .send(let c): c.rendered
            case .sendAccount(let c): c.line
            default: nil
            }
        }
    }

    /// Greeted, with `name` the last name used, its NAME sent (Enter on the
    /// name screen) and not yet answered.
    static func namedAsked(_ name: String = "ann", language: String = "en", transport: PasswordTransport = .loopback) -> (ClientState, [ClientEffect]) {
        var s = Fx.online(language: language, lastName: name)
        s.account.transport = transport
        s = Fx.run(s, Fx.line("OK LANG lang=\(language)"), Fx.line("OK NAMES count=0")).0
        return Fx.run(s, .key(.enter))
    }

    /// On the login screen for `name` (the server said ERR password-required).
    static func login(_ name: String = "ann", language: String = "en", transport: PasswordTransport = .loopback) -> ClientState {
        Fx.run(namedAsked(name, language: language, transport: transport).0, Fx.line("ERR password-required")).0
    }

    /// Types `text` (a paste of several characters is typed the same way).
    static func type(_ text: String) -> [ClientEvent] { text.map { .key(.char($0)) } }
}

@Suite("Registered names: logging in, registering, changing the password")
struct AccountClientTests {
    @Test("ERR password-required asks the password; Enter sends NAME name password (spaces and all); a wrong one says so and asks again; the right one logs in")
    func loginPath() {
        let (asked, fx0) = AFx.namedAsked()
        #expect(AFx.sent(fx0) == ["NAME ann"])
        var (s, fx) = Fx.run(asked, Fx.line("ERR password-required"))
        #expect(fx.isEmpty)
        #expect(s.screen == .account(.login))
        #expect(s.account.loginName == "ann")
        (s, fx) = Fx.run(s, AFx.type(" pass word "))
        #expect(fx.isEmpty)
        #expect(s.account.typedCount == 11)
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(fx == [.sendAccount(.login(name: "ann", password: " pass word "))])
        #expect(AFx.sent(fx) == ["NAME ann  pass word "])
        #expect(s.account.typedCount == 0)
        (s, fx) = Fx.run(s, Fx.line("ERR bad-password"))
        #expect(fx.isEmpty)
        #expect(s.screen == .account(.login))
        #expect(s.alert?.notice == .account(.badPassword))
        #expect(s.account.remembered == nil)
        // Empty: nothing is sent.
        (s, fx) = Fx.run(s, .key(.enter))
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .account(.typeAPassword))
        (s, fx) = Fx.run(s, AFx.type("correct horse") + [.key(.backspace), .key(.char("e")), .key(.enter)])
        #expect(AFx.sent(fx) == ["NAME ann correct horse"])
        (s, fx) = Fx.run(s, Fx.line("OK NAME name=ann lang=en registered=yes"))
        #expect(s.screen == .main)
        #expect(s.named && s.myName == "ann")
        #expect(s.account.loggedIn == "ann")
        #expect(s.account.remembered == Login(name: "ann", password: "correct horse"))
        // Logged in: the main screen offers to change the password (0), not to register.
        #expect(ScreenTests.plainLines(s).contains("    a  Change your password"))
        (s, _) = Fx.run(s, .key(.char("0")))
        #expect(s.screen == .account(.change))
        // Esc on the login screen goes back to choosing a name.
        let (back, _) = Fx.run(AFx.login(), AFx.type("abc") + [.key(.escape)])
        #expect(back.screen == .name)
        #expect(back.account.typedCount == 0)
    }

    @Test("ERR too-many-attempts shows the wait, counts it down on the screen, and a password confirmed during it goes by itself when it is over")
    func tooManyAttempts() {
        var (s, fx) = Fx.run(AFx.login(), AFx.type("guess one") + [.key(.enter)])
        #expect(AFx.sent(fx) == ["NAME ann guess one"])
        (s, fx) = Fx.run(s, Fx.line("ERR too-many-attempts try again in 8 s"))
        #expect(s.screen == .account(.login))
        #expect(s.alert?.notice == .account(.tooManyAttempts(8)))
        #expect(s.account.retryAt == 108)
        #expect(ScreenTests.plainLines(s).contains { $0.contains("Too many wrong passwords: you can try again in 8 s.") })
        (s, fx) = Fx.run(s, [.tick(103)] + AFx.type("guess two") + [.key(.enter)])
        #expect(fx.isEmpty)
        // Kept, not dropped: it goes once the wait is over.
        #expect(s.alert?.notice == .account(.sendingIn(5)))
        #expect(ScreenTests.plainLines(s, 60, 20).contains { $0.contains("sending yours in 5 s…") })
        #expect(s.nextDeadline.map { $0 <= 104.01 } == true)
        (s, fx) = Fx.run(s, .tick(108))
        #expect(AFx.sent(fx) == ["NAME ann guess two"])
        (s, _) = Fx.run(s, Fx.line("OK NAME name=ann lang=en registered=yes"))
        #expect(s.account.retryAt == nil)
        // The server busy with hashing: said, and asked again.
        (s, _) = Fx.run(AFx.login(), AFx.type("whatever1") + [.key(.enter), Fx.line("ERR server-busy too many passwords being checked; try again")])
        #expect(s.screen == .account(.login))
        #expect(s.alert?.notice == .account(.serverBusy))
    }

    @Test("Register: the entry on the main screen asks a new password twice (8 to 200 characters), sends REGISTER, and logs in; then changing it sends PASSWORD")
    func registerAndChange() {
        var (s, fx) = Fx.run(Fx.named("alice"), .key(.char("0")))
        #expect(s.screen == .account(.register))
        (s, fx) = Fx.run(s, AFx.type("short") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .account(.passwordForm))
        #expect(!s.account.confirming)
        (s, fx) = Fx.run(s, AFx.type("ab cd") + [.key(.enter)])
        // "short" + "ab cd": ten characters, the first typing.
        #expect(fx.isEmpty)
        #expect(s.account.confirming)
        #expect(s.alert?.notice == .account(.typeItAgain))
        (s, fx) = Fx.run(s, AFx.type("shortab ce") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .account(.passwordsDiffer))
        #expect(!s.account.confirming && s.account.typedCount == 0)
        (s, fx) = Fx.run(s, AFx.type(" my secret ") + [.key(.enter)] + AFx.type(" my secret ") + [.key(.enter)])
        #expect(fx == [.sendAccount(.register(password: " my secret "))])
        #expect(AFx.sent(fx) == ["REGISTER  my secret "])
        (s, fx) = Fx.run(s, Fx.line("OK REGISTER name=alice"))
        #expect(fx.isEmpty)
        #expect(s.screen == .main)
        #expect(s.alert?.notice == .account(.registered("alice")))
        #expect(s.account.loggedIn == "alice")
        #expect(s.account.remembered == Login(name: "alice", password: " my secret "))
        // Change it.
        (s, fx) = Fx.run(s, [.key(.char("0"))] + AFx.type("new password 2") + [.key(.enter)] + AFx.type("new password 2") + [.key(.enter)])
        #expect(AFx.sent(fx) == ["PASSWORD new password 2"])
        (s, fx) = Fx.run(s, Fx.line("OK PASSWORD"))
        #expect(s.screen == .main)
        #expect(s.alert?.notice == .account(.passwordChanged))
        #expect(s.account.remembered == Login(name: "alice", password: "new password 2"))
        // 200 characters at most are typed.
        (s, _) = Fx.run(s, [.key(.char("0"))] + AFx.type(String(repeating: "x", count: 250)))
        #expect(s.account.typedCount == 200)
        // The server's refusals.
        var t = Fx.run(Fx.named("bob"), [.key(.char("0"))] + AFx.type("12345678") + [.key(.enter)] + AFx.type("12345678") + [.key(.enter)]).0
        t = Fx.run(t, Fx.line("ERR name-registered")).0
        #expect(t.screen == .main)
        #expect(Screens.noticeText(t.alert!.notice, t.strings) == "That name is registered already: choose another, or log in with its password.")
        #expect(t.account.loggedIn == nil && t.account.remembered == nil)
    }

    @Test("The password is kept in memory for the process: after a drop the client logs in again by itself; a changed one is asked again")
    func reconnectLogsInAgain() {
        var (s, fx) = Fx.run(AFx.login(), AFx.type("correct horse") + [.key(.enter), Fx.line("OK NAME name=ann lang=en registered=yes")])
        (s, fx) = Fx.run(s, .disconnected)
        #expect(s.account.loggedIn == nil)
        (s, fx) = Fx.run(s, .connected, Fx.line(Fx.hello))
        #expect(AFx.sent(fx) == ["LANG en", "NAME ann correct horse"])
        (s, fx) = Fx.run(s, Fx.line("OK LANG lang=en"), Fx.line("OK NAME name=ann lang=en registered=yes"))
        #expect(s.screen == .main && s.account.loggedIn == "ann")
        // Changed meanwhile (another client): the login screen asks.
        (s, _) = Fx.run(s, .disconnected, .connected, Fx.line(Fx.hello), Fx.line("OK LANG lang=en"), Fx.line("ERR bad-password"))
        #expect(s.screen == .account(.login))
        #expect(s.account.remembered == nil)
        // Choosing the name again on the name screen uses the kept password too.
        var t = Fx.run(AFx.login(), AFx.type("correct horse") + [.key(.enter), Fx.line("OK NAME name=ann lang=en registered=yes")]).0
        t = Fx.run(t, .key(.char("9")), Fx.line("OK NAMES count=0")).0
        let (u, fx2) = Fx.run(t, AFx.type("bob") + [.key(.enter), Fx.line("OK NAME name=bob lang=en")])
        #expect(AFx.sent(fx2).suffix(2) == ["NAME bob", "SETTINGS"])
        #expect(u.account.loggedIn == nil)
        #expect(ScreenTests.plainLines(u).contains("    a  Register your name"))
        let (_, fx3) = Fx.run(u, .key(.char("9")), Fx.line("OK NAMES count=0"), .key(.char("a")), .key(.char("n")), .key(.char("n")), .key(.enter))
        #expect(AFx.sent(fx3).last == "NAME ann correct horse")
    }

    @Test("No password in clear to a server that is not this computer: the screens say why and send nothing (no --tls, no --insecure)")
    func refusedInClear() {
        let (asked, _) = AFx.namedAsked(transport: .clear)
        var (s, fx) = Fx.run(asked, Fx.line("ERR password-required"))
        #expect(s.screen == .account(.login))
        (s, fx) = Fx.run(s, AFx.type("secret words") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(s.alert?.notice == .account(.passwordInClear))
        let text = ScreenTests.plainLines(s).joined(separator: " ")
        #expect(text.contains("unencrypted"))
        #expect(text.contains("--tls"))
        var r = Fx.named("alice")
        r.account.transport = .clear
        (r, fx) = Fx.run(r, [.key(.char("0"))] + AFx.type("12345678") + [.key(.enter)] + AFx.type("12345678") + [.key(.enter)])
        #expect(fx.isEmpty)
        #expect(r.alert?.notice == .account(.passwordInClear))
        // --insecure, TLS and loopback may send.
        for transport in [PasswordTransport.insecure, .tls, .loopback] {
            let (t, fx) = Fx.run(AFx.login(transport: transport), AFx.type("secret words") + [.key(.enter)])
            #expect(AFx.sent(fx) == ["NAME ann secret words"], "\(transport)")
            _ = t
        }
        // What is a loopback address.
        for host in ["127.0.0.1", "127.9.8.7", "::1", "localhost", "LOCALHOST", "::ffff:127.0.0.1"] {
            #expect(ServerAddress(host: host, port: 1).isLoopback, "\(host)")
        }
        for host in ["10.0.0.1", "128.0.0.1", "::2", "example.com", "localhost.example.com", "::ffff:10.0.0.1"] {
            #expect(!ServerAddress(host: host, port: 1).isLoopback, "\(host)")
        }
        // Line mode: the lines that carry a password.
        for line in ["REGISTER abc", "register a b", "PASSWORD x", "NAME ann pw", "name ann two words"] {
            #expect(AccountCommand.carriesPassword(Array(line.utf8)), "\(line)")
        }
        for line in ["NAME ann", "REGISTER", "SEEK", "NAMES prefix=a"] {
            #expect(!AccountCommand.carriesPassword(Array(line.utf8)), "\(line)")
        }
    }

    @Test("The settings file never holds a password: not after logging in, registering, changing it or reconnecting")
    func settingsFileHasNoPassword() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ghost-account-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/config"
        let passwords = ["first secret", "second secret", "third secret"]
        var s = AFx.login()
        var all: [ClientEffect] = []
        func step(_ events: [ClientEvent]) throws {
            for e in events {
                let (n, fx) = reduce(s, e)
                s = n
                all += fx
                if fx.contains(.saveConfig) { try ConfigFile.save(s.config, to: path) }
            }
        }
        try step(AFx.type(passwords[0]) + [.key(.enter), Fx.line("OK NAME name=ann lang=en registered=yes")])
        try step([.key(.char("0"))] + AFx.type(passwords[1]) + [.key(.enter)] + AFx.type(passwords[1]) + [.key(.enter), Fx.line("OK PASSWORD")])
        try step([.disconnected, .connected, Fx.line(Fx.hello), Fx.line("OK LANG lang=en"), Fx.line("OK NAME name=ann lang=en registered=yes")])
        try step([.key(.char("9")), Fx.line("OK NAMES count=0")] + AFx.type("zed") + [.key(.enter), Fx.line("OK NAME name=zed lang=en")])
        try step([.key(.char("0"))] + AFx.type(passwords[2]) + [.key(.enter)] + AFx.type(passwords[2]) + [.key(.enter), Fx.line("OK REGISTER name=zed")])
        #expect(all.contains(.saveConfig))
        try ConfigFile.save(s.config, to: path)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("name=zed"))
        for p in passwords {
            #expect(!saved.contains(p))
            #expect(!s.config.rendered.contains(p))
            // Nor anywhere in the folder (no stray temporary file).
            for file in try FileManager.default.contentsOfDirectory(atPath: dir) {
                #expect(!(try String(contentsOfFile: dir + "/" + file, encoding: .utf8)).contains(p), "\(file)")
            }
            // Nor on any screen drawn along the way.
            #expect(!ScreenTests.plainLines(s).joined().contains(p))
        }
    }

    @Test("A certificate that does not verify is shown on the status line and not retried")
    func refusedConnection() {
        let why = TLSFailure.unverified("self-signed certificate")
        let (s, fx) = Fx.run(ClientState(config: ClientConfig(language: "en", tutorialSeen: true), serverAddress: "h:1"), .refused(why))
        #expect(fx.isEmpty)
        #expect(s.link == .refused(why))
        let en = ScreenTests.plainLines(s, 60, 20).suffix(4).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(en.contains("the server's certificate could not be verified: self-signed"))
        var nl = s
        nl.config.language = "nl"
        let text = ScreenTests.plainLines(nl, 60, 20).suffix(5).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("het certificaat van de server kon niet worden gecontroleerd: self-signed"))
        // Later ticks do not reconnect.
        #expect(Fx.run(s, .tick(500)).1.isEmpty)
    }
}

@Suite("Password screens")
struct AccountScreenTests {
    static func everyScreen(language: String, colour: Bool) -> [ClientState] {
        let login = Fx.run(AFx.login(language: language), AFx.type("hunter22")).0
        let longName = Fx.run(AFx.login("abcdefghijklmnop", language: language), AFx.type(String(repeating: "p", count: 200))).0
        let waiting = Fx.run(login, .key(.enter), Fx.line("ERR too-many-attempts try again in 300 s")).0
        let clear = AFx.login(language: language, transport: .clear)
        let main = Fx.named("alice", language: language, colour: colour)
        let register = Fx.run(main, [.key(.char("0"))] + AFx.type("hunter22")).0
        let confirm = Fx.run(register, .key(.enter), .key(.char("h"))).0
        var change = Fx.run(main, .key(.char("0"))).0
        change.account.loggedIn = "alice"
        change = Fx.run(change, .key(.escape), .key(.char("0"))).0
        var clearRegister = main
        clearRegister.account.transport = .clear
        clearRegister = Fx.run(clearRegister, .key(.char("0"))).0
        return [login, longName, waiting, clear, register, confirm, change, clearRegister].map {
            var s = $0
            s.colour = colour
            return s
        }
    }

    @Test("Every password screen fits 60×20 and 80×24 (and larger), its texts and key help whole, the password never shown", arguments: ["en", "nl"], [false, true])
    func fits(language: String, colour: Bool) {
        let screens = Self.everyScreen(language: language, colour: colour)
        for sub in [AccountScreen.login, .register, .change] { #expect(screens.contains { $0.screen == .account(sub) }) }
        for s in screens {
            for (w, h) in [(60, 20), (80, 24), (120, 40), (100, 30)] {
                let lines = Screens.render(s, width: w, height: h, strings: s.strings)
                #expect(lines.count == h, "\(s.screen) at \(w)x\(h)")
                for l in lines { #expect(Layout.visibleWidth(l) <= w, "\(s.screen) at \(w)x\(h): \(Layout.plain(l))") }
                if !colour { #expect(!lines.joined().contains("\u{1B}"), "\(s.screen) at \(w)x\(h)") }
                let plain = lines.map { Layout.plain($0).trimmingCharacters() }
                let text = plain.joined(separator: " ")
                #expect(!text.contains("hunter22") && !text.contains("ppppppppp"), "\(s.screen) at \(w)x\(h)")
                // The key help, whole, on the last row(s).
                let help = s.screen == .account(.login) ? s.strings.account.loginHelp : s.strings.account.newPasswordHelp
                if h <= Screens.maxHeight {
                    #expect(plain.suffix(2).joined(separator: " ").contains(help), "\(s.screen) at \(w)x\(h): \(plain.suffix(2))")
                }
                // The prompt, whole (rows joined), and the field or why there is none.
                let words = plain.joined(separator: " ").split(separator: " ").joined(separator: " ")
                if s.account.transport.allowsPasswords {
                    #expect(plain.contains { $0.contains("•") || $0.hasSuffix("_") }, "\(s.screen) at \(w)x\(h)")
                    #expect(words.contains(s.strings.account.passwordNotShown), "\(s.screen) at \(w)x\(h)")
                } else {
                    #expect(words.contains(s.strings.account.passwordInClear(s.serverAddress)), "\(s.screen) at \(w)x\(h): \(words)")
                }
                if let at = s.account.retryAt, at > s.now {
                    #expect(words.contains(s.strings.account.retryIn(300)), "\(s.screen) at \(w)x\(h)")
                }
            }
        }
    }

    @Test("The main screen keeps every entry (a registers, q quits) and every setting at 60×20 and 80×24, in both languages")
    func mainScreenFits() {
        for (w, h) in [(60, 20), (80, 24)] {
            for (lang, register, quit, watchers) in [("en", "a  Register your name", "q  Quit", "Watchers: allowed"),
                                                     ("nl", "a  Je naam registreren", "q  Stoppen", "Kijkers: toegestaan")] {
                let lines = ScreenTests.plainLines(Fx.named(language: lang), w, h)
                #expect(lines.contains { $0.hasSuffix(register) }, "\(lang) \(w)x\(h)")
                #expect(lines.contains { $0.hasSuffix(quit) }, "\(lang) \(w)x\(h)")
                #expect(lines.contains { $0.contains(watchers) }, "\(lang) \(w)x\(h): \(lines)")
                #expect(lines.contains { $0.hasSuffix("g  " + (lang == "en" ? "Quick match" : "Snel een spel")) }, "\(lang) \(w)x\(h)")
            }
        }
    }

    @Test("The login screen: the name, the password as •, the prompt; in both languages")
    func loginScreen() {
        let s = Fx.run(AFx.login(), AFx.type("a b c")).0
        let en = ScreenTests.plainLines(s, 60, 20)
        #expect(en[0].hasPrefix(" ghostd · Log in"))
        #expect(en.contains("  ▶ Password: •••••_"))
        #expect(en.joined(separator: " ").contains("The name “ann” is registered."))
        let nl = ScreenTests.plainLines(Fx.run(AFx.login(language: "nl"), AFx.type("a b c")).0, 60, 20)
        #expect(nl[0].hasPrefix(" ghostd · Inloggen"))
        #expect(nl.contains("  ▶ Wachtwoord: •••••_"))
        // Register: the first typing done, the second asked.
        let r = Fx.run(Fx.named("alice"), [.key(.char("0"))] + AFx.type("12345678") + [.key(.enter), .key(.char("x"))]).0
        let reg = ScreenTests.plainLines(r, 60, 20)
        #expect(reg[0].hasPrefix(" ghostd · Register your name"))
        #expect(reg.contains("    New password: ••••••••"))
        #expect(reg.contains("  ▶ Once more:    •_"))
    }
}
