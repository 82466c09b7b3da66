import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

extension InChromium {
/// Every screen of the web client, in English and in Dutch, at a phone's
/// 360×640 and a desktop's 1280×800, against the page's own layout rules
/// (TestSupport's LayoutRules: no horizontal scroll, nothing past the
/// viewport's edge, no text cut off). With `GHOSTD_WEB_SCREENSHOTS=<folder>`
/// it also keeps a screenshot of each (scripts/web-screenshots.sh writes
/// docs/web/ so).
@Suite("EndToEnd: the web client's layout", .ownThread, storeIndependent, .serialized, .hangLimit)
struct EndToEndBrowserLayoutTests {
    static let sizes: [Viewport] = [.phone, .desktop]

    /// Checks the screen at both sizes (and keeps its screenshots if asked).
    static func check(_ b: Browser, _ language: String, _ screen: String) throws {
        for size in sizes {
            try b.setViewport(size)
            // The rules are read once the page has laid itself out at that size.
            try b.waitFor("window.innerWidth === \(size.width)", what: "the viewport at \(size.width)")
            try assertLayout(b, "\(language) \(screen)")
            if let folder = ProcessInfo.processInfo.environment["GHOSTD_WEB_SCREENSHOTS"], !folder.isEmpty {
                try b.saveScreenshot("\(folder)/\(language)-\(screen)-\(size.width)x\(size.height).png")
            }
        }
        try b.setViewport(.phone)
    }

    @Test("Every screen, both languages, 360×640 and 1280×800: no horizontal scroll, nothing cut off", arguments: ["en", "nl"])
    func everyScreen(_ language: String) async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb(["--bot-delay", "0"])
            defer { daemon.kill() }
            var options = Browser.Options()
            options.viewport = .phone
            options.language = language == "nl" ? "nl-NL" : "en-US"
            let b = try Browser("layout-\(language)", options: options)
            let screen = EndToEndBrowserTests.screen
            try b.open(EndToEndBrowserTests.page(port))
            try screen(b, "name")
            #expect(try b.run("return document.documentElement.lang").string == language)
            try Self.check(b, language, "name")
            // The longest name there is.
            let name = "Abcdefghijklmnop"
            try b.type(name, into: "#name-input")
            try b.click("#name-submit")
            try screen(b, "menu")
            try Self.check(b, language, "menu")
            try b.click("#menu-ghost")
            try screen(b, "setup")
            try Self.check(b, language, "setup-ghost")
            try b.click("#setup-start")
            try screen(b, "game")
            try EndToEndBrowserTests.play(b, "q")
            try b.waitFor("document.getElementById('status').dataset.turn === 'you'", what: "the computer's answer")
            try Self.check(b, language, "game-ghost")
            try EndToEndBrowserTests.resign(b)
            try Self.check(b, language, "over-ghost")
            try b.click("#act-menu")
            try screen(b, "menu")
            try b.click("#menu-hangman")
            try screen(b, "setup")
            try Self.check(b, language, "setup-hangman")
            try b.click("#setup-start")
            try screen(b, "game")
            for letter in "ea" {
                try b.press(String(letter))
                try b.waitFor("window.ghost.lines.some(l => l.startsWith('OK LETTER letter=\(letter)'))", what: "the guess \(letter)")
            }
            try Self.check(b, language, "game-hangman")
            try EndToEndBrowserTests.resign(b)
            try b.click("#act-menu")
            try screen(b, "menu")
            try b.click("#menu-scores")
            try screen(b, "list")
            try Self.check(b, language, "scores")
            try b.click("#list-back")
            try screen(b, "menu")
            try b.click("#menu-history")
            try screen(b, "list")
            try b.waitFor("document.querySelectorAll('#list-body tr').length >= 2", what: "the history's two games")
            try Self.check(b, language, "history")
            try b.click("#list-back")
            try screen(b, "menu")
            try b.click("#menu-settings")
            try screen(b, "settings")
            try Self.check(b, language, "settings")
            #expect(try b.consoleErrors().isEmpty)
        }
    }

    @Test("The screens between people (issue #47), both languages, 360×640 and 1280×800: friends and blocks, an invitation, chat under the board, a profile with its report form",
          arguments: ["en", "nl"])
    func socialScreens(_ language: String) async throws {
        try await onOwnThread {
            let (daemon, port) = try DaemonProcess.startWithWeb()
            defer { daemon.kill() }
            var options = Browser.Options()
            options.viewport = .phone
            options.language = language == "nl" ? "nl-NL" : "en-US"
            let b = try Browser("layout-social-\(language)", options: options)
            let other = try Browser("other-\(language)", viewport: .desktop)
            typealias E = EndToEndBrowserTests
            typealias Social = EndToEndBrowserSocialTests
            // The longest names there are.
            let name = "Abcdefghijklmnop", friend = "Ponmlkjihgfedcba"
            try E.enter(b, port: port, name: name)
            try E.enter(other, port: port, name: friend)
            try Social.register(b)
            try Social.register(other)
            try b.click("#menu-friends")
            try E.screen(b, "friends")
            try b.type(friend, into: "#friend-name")
            try b.click("#follow-submit")
            try E.line(b, "OK FOLLOW name=\(friend)")
            try b.type("Zyxwvutsrqponmlk", into: "#friend-name")
            try b.click("#friend-block-name")
            try E.line(b, "OK BLOCK name=Zyxwvutsrqponmlk")
            try b.waitFor("document.querySelector('#friends-list [data-name=\(friend)]') && document.querySelector('#blocks-list [data-name=Zyxwvutsrqponmlk]')",
                          what: "a friend and a block listed")
            try Self.check(b, language, "friends")
            let code = try Social.invite(other, name)
            try Social.waitForInvitation(b, code)
            try Self.check(b, language, "invitation")
            try b.click("#invites [data-test=invite-accept]")
            try E.screen(b, "game")
            try E.screen(other, "game")
            try other.click("#chat-open")
            try other.type(String(repeating: "Goedemiddag allemaal ", count: 9), into: "#chat-input")
            try other.press("Enter")
            try E.line(b, "SAID ")
            try b.click("#chat-open")
            try b.type("Good game", into: "#chat-input")
            try b.press("Enter")
            try b.waitFor("document.querySelectorAll('#chat-log [data-test=chat-line]').length === 2", what: "two chat lines")
            try Self.check(b, language, "game-chat")
            try b.click("#chat-profile")
            try E.screen(b, "list")
            try b.click("[data-test=profile-report]")
            try b.waitFor("document.getElementById('report-reason')", what: "the report form")
            try Self.check(b, language, "profile")
            try b.click("#list-back")
            try E.screen(b, "game")
            try E.resign(b)
            try b.click("#act-menu")
            try b.click("#menu-settings")
            try E.screen(b, "settings")
            try b.waitFor("document.querySelectorAll('#set-social select').length === 3", what: "the settings of friends and chat")
            try Self.check(b, language, "settings-social")
            #expect(try b.consoleErrors().isEmpty)
        }
    }
}
}
