import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

extension InChromium {
/// The browser harness the web client's end-to-end tests stand on (issue
/// #46): a real headless Chromium driven over WebDriver (TestSupport's
/// Browser), on pages made here as `data:` URLs, so nothing of ghostd is
/// needed. Each test waits for conditions, never for a time, and runs on its
/// own thread (a browser blocks for seconds).
@Suite("Browser harness", .ownThread, storeIndependent, .serialized, .hangLimit)
struct BrowserHarnessTests {
    /// A page with a button that answers a moment later (a timer, as a
    /// server's answer would), a text field, and a log of the keys pressed.
    static let controls = """
    <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>controls</title></head><body>
    <button id="go">Go</button> <p id="out">waiting</p>
    <input id="name" autocomplete="off"> <p id="keys"></p>
    <script>
      document.getElementById('go').addEventListener('click', () =>
        setTimeout(() => { document.getElementById('out').textContent = 'clicked'; }, 300));
      document.addEventListener('keydown', (e) => {
        if (e.target.id !== 'name') document.getElementById('keys').textContent += '[' + e.key + ']';
      });
      console.error('deliberate error for consoleErrors');
    </script></body></html>
    """

    @Test("open, run, waitFor, click, type, press, text, exists, reload and consoleErrors drive a real page; close leaves no process")
    func drivesAPage() async throws {
        try await onOwnThread {
            let browser = try Browser("controls")
            let group = browser.driverPID
            try browser.open(Browser.dataURL(html: Self.controls))

            // run: arguments in, JSON out.
            #expect(try browser.run("return [arguments[0] + 1, arguments[1], {a: null, b: true}];", [41, "x"])
                    == [42, "x", ["a": nil, "b": true]])
            #expect(try browser.run("return document.title;") == "controls")
            #expect(try browser.exists("#go"))
            #expect(try !browser.exists("#missing"))

            // click, and waitFor what the timer shows later.
            #expect(try browser.text("#out") == "waiting")
            try browser.click("#go")
            try browser.waitFor("document.getElementById('out').textContent === 'clicked'", what: "the click's answer")
            #expect(try browser.text("#out") == "clicked")

            // type into a field (then into the focused one), read back.
            try browser.type("héllo", into: "#name")
            try browser.type(" wörld")
            #expect(try browser.text("#name") == "héllo wörld")

            // press: named keys and a letter, outside the field.
            try browser.run("document.activeElement.blur();")
            try browser.press("Escape")
            try browser.press("Enter")
            try browser.press("q")
            try browser.press("ArrowLeft")
            try browser.waitFor("document.getElementById('keys').textContent === '[Escape][Enter][q][ArrowLeft]'",
                                what: "the four keys in the page's log")

            // waitFor's timeout says what it waited for and what the page showed.
            do {
                try browser.waitFor("document.getElementById('out').textContent === 'never'", timeout: 0.5, what: "a text that never comes")
                Issue.record("waitFor did not time out")
            } catch let error as WebDriverError {
                #expect(error.description.contains("a text that never comes"), "\(error)")
                #expect(error.description.contains("clicked"), "the page's text is in the message: \(error)")
            }

            #expect(try browser.consoleErrors().contains { $0.contains("deliberate error for consoleErrors") })

            // reload: the page starts over.
            try browser.reload()
            try browser.waitFor("document.getElementById('out').textContent === 'waiting'", what: "the reloaded page")
            #expect(try browser.text("#name") == "")

            browser.close()
            #expect(Glibc.kill(-group, 0) == -1 && errno == ESRCH, "chromedriver's process group is gone")
        }
    }

    @Test("At 360×640 the viewport is exactly that and a screenshot is a 360×640 PNG; at 1280×800 likewise; dark and light schemes emulated")
    func screenshotSizes() async throws {
        try await onOwnThread {
            let browser = try Browser("phone", viewport: .phone)
            defer { browser.close() }
            try browser.open(Browser.dataURL(html: Self.goodPage))
            #expect(try browser.run("return [innerWidth, innerHeight, devicePixelRatio];") == [360, 640, 1])
            let png = try browser.screenshot()
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            #expect(Array(png[16..<24]) == [0, 0, 0x01, 0x68, 0, 0, 0x02, 0x80], "360 = 0x168, 640 = 0x280")
            #expect(Browser.pngSize(png) == .phone)

            try browser.setViewport(.desktop)
            #expect(try browser.run("return [innerWidth, innerHeight];") == [1280, 800])
            let folder = try DataDirectory()
            let path = folder.path + "/shots/desktop.png"
            try browser.saveScreenshot(path)
            #expect(Browser.pngSize(try Data(contentsOf: URL(fileURLWithPath: path))) == .desktop)

            // prefers-color-scheme, for screenshots in both schemes.
            try browser.emulateColorScheme("dark")
            #expect(try browser.run("return matchMedia('(prefers-color-scheme: dark)').matches;") == true)
            try browser.emulateColorScheme("light")
            #expect(try browser.run("return matchMedia('(prefers-color-scheme: light)').matches;") == true)
        }
    }

    @Test("Mobile emulation gives a 360×640 touch viewport from the start")
    func mobileEmulation() async throws {
        try await onOwnThread {
            var options = Browser.Options()
            options.viewport = .phone
            options.mobileEmulation = true
            let browser = try Browser("emulated phone", options: options)
            defer { browser.close() }
            try browser.open(Browser.dataURL(html: Self.goodPage))
            #expect(try browser.run("return [innerWidth, innerHeight, matchMedia('(pointer: coarse)').matches];") == [360, 640, true])
            #expect(Browser.pngSize(try browser.screenshot()) == .phone)
        }
    }

    /// A page that shows who this browser is: the name kept in localStorage
    /// (as the web client keeps its resume token), or "nobody".
    static let storagePage = """
    <!doctype html><html><head><title>storage</title></head><body>
    <p id="who"></p>
    <script>document.getElementById('who').textContent = localStorage.getItem('player') || 'nobody';</script>
    </body></html>
    """

    @Test("Two browsers on one origin are two players: each keeps its own localStorage across a reload, and its own language")
    func twoBrowsersTwoPlayers() async throws {
        try await onOwnThread {
            let server = try StaticHTTPServer(pages: ["/": .html(Self.storagePage)])
            defer { server.stop() }
            let alice = try Browser("alice", viewport: .phone)
            defer { alice.close() }
            var dutch = Browser.Options()
            dutch.language = "nl-NL"
            let bob = try Browser("bob", options: dutch)
            defer { bob.close() }
            try alice.open(server.url())
            try bob.open(server.url())
            #expect(try alice.text("#who") == "nobody")
            try alice.run("localStorage.setItem('player', 'alice');")
            try bob.run("localStorage.setItem('player', 'bob');")
            try alice.reload()
            try bob.reload()
            try alice.waitFor("document.getElementById('who').textContent === 'alice'", what: "alice's name after a reload")
            try bob.waitFor("document.getElementById('who').textContent === 'bob'", what: "bob's name after a reload")
            #expect(try alice.currentURL() == server.url())
            // Each browser's language is the one asked, whatever the machine's locale.
            #expect(try alice.run("return navigator.language;") == "en-US")
            #expect(try bob.run("return navigator.language;") == "nl-NL")
        }
    }

    /// A page that keeps the rules at both sizes: a wrapping paragraph, a
    /// flexible row, a long word allowed to break, and a visually hidden
    /// ARIA live region (which the rules leave out).
    static let goodPage = """
    <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
      body { margin: 0; font: 16px sans-serif; }
      main { padding: 8px; max-width: 600px; margin: auto; }
      .row { display: flex; flex-wrap: wrap; gap: 4px; }
      .row button { flex: 1 1 40px; }
      .word { overflow-wrap: anywhere; }
      .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    </style></head><body><main id="good">
    <h1>Ghost</h1>
    <p>Take turns adding letters; whoever completes a word loses the round. A longer paragraph wraps at any width.</p>
    <div class="row"><button>A</button><button>B</button><button>C</button><button>D</button><button>E</button>
    <button>F</button><button>G</button><button>H</button></div>
    <p class="word">Pneumonoultramicroscopicsilicovolcanoconiosisisaverylongword</p>
    <div class="sr-only" aria-live="polite">It is your turn; the fragment is PEA and it is very long indeed for one pixel</div>
    </main></body></html>
    """

    @Test("The layout rules pass a good page at 360×640 and 1280×800, and catch overflow, cut-off and shortened text")
    func layoutRules() async throws {
        try await onOwnThread {
            let browser = try Browser("layout", viewport: .phone)
            defer { browser.close() }
            try browser.open(Browser.dataURL(html: Self.goodPage))
            #expect(try assertLayout(browser, "the good page, phone").isEmpty)
            try browser.setViewport(.desktop)
            #expect(try assertLayout(browser, "the good page, desktop").isEmpty)
            try browser.setViewport(.phone)

            // An element wider than the phone: the page scrolls sideways, and the element is reported (not its children).
            try browser.open(Browser.dataURL(html: """
            <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="margin:0"><div id="wide" style="width:500px;background:#ccc"><span>too wide</span></div></body></html>
            """))
            let wide = try LayoutRules.violations(in: browser)
            #expect(wide.contains { $0.rule == "horizontal-scroll" }, "\(wide)")
            #expect(wide.contains { $0.rule == "outside-viewport" && $0.path.contains("div#wide") && $0.detail.contains("500") }, "\(wide)")
            #expect(!wide.contains { $0.path.contains("span") }, "only the outermost element: \(wide)")

            // A text drawn past the edge, under overflow-x: hidden on the body (the user cannot scroll to it).
            try browser.open(Browser.dataURL(html: """
            <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="margin:0;overflow-x:hidden"><p id="spill" style="width:100px;white-space:nowrap">This sentence runs on and on, far past the right edge of a phone, as a long name or a long word would</p></body></html>
            """))
            let spill = try LayoutRules.violations(in: browser)
            #expect(spill.contains { $0.rule == "text-outside-viewport" && $0.path.contains("p#spill") }, "\(spill)")

            // Text cut off by its box, and text shortened with an ellipsis.
            try browser.open(Browser.dataURL(html: """
            <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="margin:0">
            <div id="cut" style="width:80px;overflow:hidden;white-space:nowrap">A name far too long for its box</div>
            <div id="short" style="height:20px;overflow:hidden">One<br>Two<br>Three</div>
            <div id="dots" style="width:80px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">Another name far too long</div>
            </body></html>
            """))
            let cut = try LayoutRules.violations(in: browser)
            #expect(cut.contains { $0.rule == "cut-off" && $0.path == "div#cut" }, "\(cut)")
            #expect(cut.contains { $0.rule == "cut-off" && $0.path == "div#short" }, "\(cut)")
            #expect(cut.contains { $0.rule == "ellipsis" && $0.path == "div#dots" }, "\(cut)")
            #expect(!cut.contains { $0.rule == "horizontal-scroll" || $0.rule == "outside-viewport" }, "\(cut)")

            // assertLayout records the violations as the test's issue.
            withKnownIssue("the page above breaks the rules") {
                try assertLayout(browser, "the cut-off page")
            }
        }
    }
}
}
