import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

extension InChromium {
/// The web client's side of issue #47 in a real headless Chromium against a
/// real ghostd: a page invites another by name and the other accepts with
/// its key and they play; an invitation declined; chat both ways, which
/// never plays a letter and shows the text as text; a block that stops the
/// blocked page's invitation; friends with their presence. Each step waits
/// for what a page shows or the protocol line it got, never for a time.
@Suite("EndToEnd: friends, invitations and chat in the web client", .ownThread, storeIndependent, .serialized, .hangLimit)
struct EndToEndBrowserSocialTests {
    typealias E = InChromium.EndToEndBrowserTests

    /// From the menu, `from` invites `name` to a game of Ghost through the
    /// friends screen and the setup screen; returns the invitation's code.
    static func invite(_ from: Browser, _ name: String) throws -> String {
        try from.click("#menu-friends")
        try E.screen(from, "friends")
        try from.type(name, into: "#friend-name")
        try from.click("#friend-invite-name")
        try E.screen(from, "setup")
        #expect(try from.text("#setup-title").contains(name))
        try from.click("#setup-start")
        try E.screen(from, "waiting")
        let ok = try E.line(from, "OK INVITE code=")
        let code = ok.split(separator: " ").first { $0.hasPrefix("code=") }.map { String($0.dropFirst(5)) } ?? ""
        #expect(code.count == 8, "\(ok)")
        // The code is the invitee's alone: the page does not show it.
        #expect(try from.run("return document.getElementById('code-box').hidden").isTruthy)
        return code
    }

    /// Waits until `b` shows the invitation with `code`.
    static func waitForInvitation(_ b: Browser, _ code: String) throws {
        try b.waitFor("!document.getElementById('invites').hidden && document.querySelector('#invites [data-test=invite][data-code=\"\(code)\"]')",
                      what: "\(b.label): the invitation \(code) on screen")
    }

    /// Registers the page's name with a password, from Settings, and goes back to the menu.
    /// alice and bob enter and register; alice follows bob from her friends screen.
    static func aliceFollowsBob(_ alice: Browser, _ bob: Browser, port: Int) throws {
        try E.enter(alice, port: port, name: "alice")
        try E.enter(bob, port: port, name: "bob")
        try register(alice)
        try register(bob)
        try alice.click("#menu-friends")
        try E.screen(alice, "friends")
        try alice.type("bob", into: "#friend-name")
        try alice.click("#follow-submit")
        try E.line(alice, "OK FOLLOW name=bob")
    }

    static func register(_ b: Browser) throws {
        try b.click("#menu-settings")
        try E.screen(b, "settings")
        try b.type("secret-password-1", into: "#register-password")
        try b.click("#register-submit")
        try E.line(b, "OK REGISTER ")
        try b.click("#settings-back")
        try E.screen(b, "menu")
    }

    @Test("A page invites another by name; the other sees it on its menu, accepts with Alt+Y, and they play a move")
    func inviteAccepted() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .desktop)
            let bob = try Browser("bob", viewport: .phone)
            try E.enter(alice, port: port, name: "alice")
            try E.enter(bob, port: port, name: "bob")
            let code = try Self.invite(alice, "bob")
            try E.line(bob, "INVITE from=alice code=\(code) ")
            try Self.waitForInvitation(bob, code)
            let text = try bob.text("#invites [data-test=invite]")
            #expect(text.contains("alice") && text.contains("Ghost"), "\(text)")
            // A screen reader hears it too.
            try bob.waitFor("document.getElementById('social-live').textContent.includes('alice')", what: "the invitation read out")
            #expect(try bob.run("return document.getElementById('social-live').getAttribute('aria-live')").string == "polite")
            try bob.press("Alt", "y")
            try E.line(bob, "OK JOIN")
            #expect(try bob.run("return window.ghost.sent.includes('JOIN \(code)')").isTruthy)
            try E.screen(alice, "game")
            try E.screen(bob, "game")
            try bob.waitFor("document.getElementById('invites').hidden", what: "the invitation gone once accepted")
            try alice.waitFor("['you', 'them'].includes(document.getElementById('status').dataset.turn)", what: "alice's status")
            let (first, second) = try E.turn(alice) == "you" ? (alice, bob) : (bob, alice)
            try E.play(first, "q")
            try E.line(second, "MOVE id=1 player=\(first.label) letter=q")
            #expect(try alice.consoleErrors().isEmpty)
            #expect(try bob.consoleErrors().isEmpty)
        }
    }

    @Test("A page declines an invitation: it goes from its screen, and the inviter is told and back at the menu")
    func inviteDeclined() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .phone)
            let bob = try Browser("bob", viewport: .desktop)
            try E.enter(alice, port: port, name: "alice")
            try E.enter(bob, port: port, name: "bob")
            let code = try Self.invite(alice, "bob")
            try Self.waitForInvitation(bob, code)
            try bob.click("#invites [data-test=invite-decline][data-code=\"\(code)\"]")
            try E.line(bob, "OK DECLINE code=\(code)")
            try bob.waitFor("document.getElementById('invites').hidden", what: "the invitation gone once declined")
            try E.line(alice, "DECLINED name=bob code=\(code)")
            try E.screen(alice, "menu")
            try alice.waitFor("document.getElementById('notice').textContent.includes('bob declined your invitation')",
                              what: "alice told that bob declined")
            try alice.waitFor("document.getElementById('social-live').textContent.includes('bob declined')", what: "and it is read out")
        }
    }

    @Test("Chat both ways in a game: / opens it, typing in it never plays a letter, Enter sends SAY, Esc leaves it; a SAID shows as text")
    func chatBothWays() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .desktop)
            let bob = try Browser("bob", viewport: .phone)
            _ = try E.privateGame(alice, bob, port: port)
            try alice.waitFor("['you', 'them'].includes(document.getElementById('status').dataset.turn)", what: "alice's status")
            for b in [alice, bob] {
                try b.waitFor("!document.getElementById('chat').hidden", what: "\(b.label)'s chat box")
            }
            // alice: the key opens the field; the letters typed there are words, not moves.
            try alice.run("document.activeElement && document.activeElement.blur()")
            try alice.press("/")
            try alice.waitFor("document.activeElement && document.activeElement.id === 'chat-input'", what: "the chat field focused by /")
            try alice.type("good game <b>x</b>", into: "#chat-input")
            try alice.press("Enter")
            try E.line(alice, "OK SAY")
            try E.line(bob, "SAID id=1 player=alice - good game <b>x</b>")
            try bob.waitFor("[...document.querySelectorAll('#chat-log [data-test=chat-line]')].some(l => l.textContent === 'alice: good game <b>x</b>')",
                            what: "bob shows alice's words, as text")
            #expect(try bob.run("return document.querySelectorAll('#chat-log b').length").int == 0)
            #expect(try bob.run("return document.getElementById('chat-log').getAttribute('role')").string == "log")
            let aliceSent = try alice.run("return window.ghost.sent")
            #expect(try alice.run("return window.ghost.sent.filter(l => /^(LETTER|PREPEND) /.test(l))").array?.isEmpty == true,
                    "typing in the chat played a letter: \(aliceSent)")
            // Esc leaves the field; the game's keys work again.
            try alice.press("Escape")
            try alice.waitFor("document.getElementById('chat-form').hidden && document.activeElement.id !== 'chat-input'", what: "the chat field closed")
            #expect(try alice.run("return document.body.dataset.screen").string == "game")
            // bob answers with the button.
            try bob.click("#chat-open")
            try bob.waitFor("document.activeElement && document.activeElement.id === 'chat-input'", what: "bob's chat field")
            try bob.type("thanks", into: "#chat-input")
            try bob.click("#chat-send")
            try E.line(alice, "SAID id=1 player=bob - thanks")
            try alice.waitFor("[...document.querySelectorAll('#chat-log [data-test=chat-line]')].some(l => l.textContent === 'bob: thanks')",
                              what: "alice shows bob's words")
            try bob.waitFor("[...document.querySelectorAll('#chat-log [data-test=chat-line]')].some(l => l.dataset.from !== 'alice' && l.textContent.endsWith('thanks'))",
                            what: "bob's own line in his log")
            #expect(try bob.run("return window.ghost.sent.filter(l => /^(LETTER|PREPEND) /.test(l))").array?.isEmpty == true)
            // The game goes on with the keys.
            let first = try E.turn(alice) == "you" ? alice : bob
            try first.press("q")
            try E.line(first, "OK LETTER letter=q")
            // Once the game is over nobody hears a SAY: the field goes, the lines said stay.
            try E.resign(alice)
            for b in [alice, bob] {
                try b.waitFor("!document.getElementById('result').hidden && document.getElementById('chat-open').hidden"
                              + " && document.getElementById('chat-form').hidden && document.querySelectorAll('#chat-log [data-test=chat-line]').length === 2",
                              what: "\(b.label): the chat's lines kept, its field gone, at the end")
            }
            try bob.press("/")
            #expect(try bob.run("return document.getElementById('chat-form').hidden").isTruthy)
            #expect(try alice.consoleErrors().isEmpty)
        }
    }

    @Test("A block from the friends screen: the blocked page's invitation is refused as if the blocker were offline, and never reaches the blocker")
    func blockStopsInvitations() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .desktop)
            let bob = try Browser("bob", viewport: .phone)
            try E.enter(alice, port: port, name: "alice")
            try E.enter(bob, port: port, name: "bob")
            try bob.click("#menu-friends")
            try E.screen(bob, "friends")
            try bob.type("alice", into: "#friend-name")
            try bob.click("#friend-block-name")
            try E.line(bob, "OK BLOCK name=alice")
            try bob.waitFor("document.querySelector('#blocks-list [data-test=blocked][data-name=alice]')", what: "alice in bob's blocks")
            // alice invites bob: refused, in the words for an offline name.
            try alice.click("#menu-friends")
            try E.screen(alice, "friends")
            try alice.type("bob", into: "#friend-name")
            try alice.click("#friend-invite-name")
            try E.screen(alice, "setup")
            try alice.click("#setup-start")
            try E.line(alice, "ERR unavailable")
            try alice.waitFor("document.getElementById('notice').textContent.includes('bob is not online')", what: "alice's refusal")
            #expect(try alice.run("return document.body.dataset.screen").string == "setup")
            // bob got nothing: after a round trip of his own, still no INVITE line.
            try bob.click("#friends-refresh")
            try bob.waitFor("window.ghost.lines.filter(l => l.startsWith('OK BLOCKS')).length >= 2", what: "bob's second BLOCKS")
            #expect(try bob.run("return window.ghost.lines.some(l => l.startsWith('INVITE '))").isTruthy == false)
            #expect(try bob.run("return document.getElementById('invites').hidden").isTruthy)
            // Unblocked from the list, alice's invitation reaches bob.
            try bob.click("#blocks-list [data-test=unblock][data-name=alice]")
            try E.line(bob, "OK UNBLOCK name=alice")
            try alice.click("#setup-start")
            try E.screen(alice, "waiting")
            let ok = try E.line(alice, "OK INVITE code=")
            let code = ok.split(separator: " ").first { $0.hasPrefix("code=") }.map { String($0.dropFirst(5)) } ?? ""
            try Self.waitForInvitation(bob, code)
            // alice cancels: the invitation is withdrawn from bob's screen.
            try alice.click("#waiting-cancel")
            try E.line(bob, "WITHDRAWN from=alice code=\(code)")
            try bob.waitFor("document.getElementById('invites').hidden", what: "the invitation withdrawn")
        }
    }

    @Test("Friends: two registered names, one follows the other from the friends screen and sees it online, then playing a game it may watch")
    func friendsWithPresence() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .phone)
            let bob = try Browser("bob", viewport: .desktop)
            try Self.aliceFollowsBob(alice, bob, port: port)
            try alice.waitFor("document.querySelector('#friends-list [data-test=friend][data-name=bob][data-online=yes]')", what: "bob online in alice's list")
            // bob plays the computer: alice's list says so, with a button to watch.
            try E.startFromMenu(bob, "#menu-ghost")
            try alice.click("#friends-refresh")
            try alice.waitFor("document.querySelector('#friends-list [data-name=bob] [data-test=friend-watch]')", what: "bob playing, to watch")
            #expect(try alice.text("#friends-list [data-name=bob] .presence").contains("playing game 1"))
            try alice.click("#friends-list [data-name=bob] [data-test=friend-watch]")
            try E.screen(alice, "game")
            try E.line(alice, "GAME id=1 ")
            // Unfollowed, bob leaves the list.
            try alice.click("#act-unwatch")
            try E.screen(alice, "menu")
            try alice.click("#menu-friends")
            try alice.click("#friends-list [data-name=bob] [data-test=friend-unfollow]")
            try E.line(alice, "OK UNFOLLOW name=bob")
            try alice.waitFor("!document.querySelector('#friends-list [data-test=friend][data-name=bob]')", what: "bob gone from the list")
        }
    }

    @Test("Presence live: a followed name that leaves turns offline in the list (OFFLINE), and online again when it comes back (ONLINE), with no refresh")
    func presenceLive() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--presence-interval", "0"])
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .desktop)
            var bob = try Browser("bob", viewport: .phone)
            try Self.aliceFollowsBob(alice, bob, port: port)
            try alice.waitFor("document.querySelector('#friends-list [data-test=friend][data-name=bob][data-online=yes]')", what: "bob online")
            bob.close()
            try E.line(alice, "OFFLINE name=bob")
            try alice.waitFor("document.querySelector('#friends-list [data-test=friend][data-name=bob][data-online=no]')", what: "bob offline, live")
            #expect(try alice.text("#friends-list [data-name=bob] .presence").contains("last seen"))
            bob = try Browser("bob again", viewport: .phone)
            try bob.open(E.page(port))
            try E.screen(bob, "name")
            try bob.type("bob", into: "#name-input")
            try bob.type("secret-password-1", into: "#password-input")
            try bob.click("#name-submit")
            try E.screen(bob, "menu")
            try E.line(alice, "ONLINE name=bob")
            try alice.waitFor("document.querySelector('#friends-list [data-test=friend][data-name=bob][data-online=yes]')", what: "bob online again, live")
            try alice.waitFor("document.getElementById('social-live').textContent.includes('bob')", what: "read out")
            bob.close()
        }
    }

    @Test("From the opponent's profile in a game: a report with its reason, and a block after which the opponent's chat never arrives")
    func blockAndReportFromTheProfile() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            let alice = try Browser("alice", viewport: .phone)
            let bob = try Browser("bob", viewport: .desktop)
            _ = try E.privateGame(alice, bob, port: port)
            try bob.click("#chat-open")
            try bob.type("you are slow", into: "#chat-input")
            try bob.press("Enter")
            try E.line(alice, "SAID id=1 player=bob - you are slow")
            // alice opens bob's profile from the game, reports him, then blocks him.
            try alice.waitFor("!document.getElementById('chat-profile').hidden && document.getElementById('chat-profile').dataset.name === 'bob'",
                              what: "the opponent's profile button")
            try alice.click("#chat-profile")
            try E.screen(alice, "list")
            try alice.click("[data-test=profile-report]")
            try alice.type("rude in chat", into: "#report-reason")
            try alice.click("[data-test=report-send]")
            try E.line(alice, "OK REPORT name=bob")
            #expect(try alice.run("return window.ghost.sent.includes('REPORT bob rude in chat')").isTruthy)
            try alice.click("[data-test=profile-block]")
            try E.line(alice, "OK BLOCK name=bob")
            try alice.click("#list-back")
            try E.screen(alice, "game")
            // bob is not told: his SAY is answered OK, and nothing reaches alice.
            try bob.type("hello?", into: "#chat-input")
            try bob.press("Enter")
            try bob.waitFor("window.ghost.lines.filter(l => l === 'OK SAY').length >= 2", what: "bob's second SAY answered")
            try alice.click("#chat-open")
            try alice.type("bye", into: "#chat-input")
            try alice.press("Enter")
            try E.line(alice, "OK SAY")
            #expect(try alice.run("return window.ghost.lines.some(l => l.includes('hello?'))").isTruthy == false)
            #expect(try alice.run("return [...document.querySelectorAll('#chat-log [data-test=chat-line]')].some(l => l.textContent.includes('hello?'))").isTruthy == false)
        }
    }

    @Test("Watchers chat among themselves: a watcher's line reaches the other watcher, marked, and never the player; a game against the computer has no chat box")
    func watchersChat() async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            let carol = try Browser("carol", viewport: .desktop)
            let dave = try Browser("dave", viewport: .phone)
            let erin = try Browser("erin", viewport: .phone)
            try E.enter(carol, port: port, name: "carol")
            try E.startFromMenu(carol, "#menu-ghost")
            try E.line(carol, "GAME id=1 ")
            #expect(try carol.run("return document.getElementById('chat').hidden").isTruthy)
            for w in [dave, erin] {
                try E.enter(w, port: port, name: w.label)
                try w.click("#menu-watch")
                try w.click("[data-test=watch-game][data-id=\"1\"]")
                try E.screen(w, "game")
                try w.waitFor("!document.getElementById('chat').hidden", what: "\(w.label)'s chat box while watching")
            }
            #expect(try dave.run("return document.getElementById('chat-profile').hidden").isTruthy)
            try dave.click("#chat-open")
            try dave.type("nice move", into: "#chat-input")
            try dave.press("Enter")
            try E.line(dave, "OK SAY")
            try E.line(erin, "SAID id=1 player=dave watcher=yes - nice move")
            try erin.waitFor("document.querySelector('#chat-log [data-test=chat-line].from-watcher[data-from=dave]')", what: "dave's line, a watcher's")
            // carol, the player, never hears the watchers: after a move of her own, still nothing.
            try E.play(carol, "q")
            #expect(try carol.run("return window.ghost.lines.some(l => l.startsWith('SAID '))").isTruthy == false)
        }
    }
}
}
