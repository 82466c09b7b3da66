import TestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A game kind that only the tests have (Word chain,
/// Tests/Kinds/WordChainKind), added as one module and one catalog line
/// (Tests/TestKinds), is played over real sockets like Ghost and
/// Hangman: NEW with a computer level and its own option, its moves and
/// error codes, a restart of the daemon (the game resumes from the store),
/// its boards in SCORES and its line in HELP.
@Suite("EndToEnd: a third game kind, used only by tests", .ownThread, .hangLimit)
struct EndToEndTestKindTests {
    /// Reads the lines up to and including the one starting with `prefix`.
    private func lines(_ c: LineClient, through prefix: String, timeout: Double = LineClient.defaultTimeout) throws -> [String] {
        let (skipped, line) = try c.readUntil(prefix: prefix, timeout: timeout)
        return skipped + [line]
    }

    @Test("Word chain: NEW bot=<level> min=<n>, its own verb CHAIN, its refusals, a restart and RESUME, SCORES game=wordchain mode=<level>, HELP")
    func wordChain() throws {
        let daemon = try DaemonProcess.start(binary: try DaemonProcess.testKindsBinaryPath())
        var running = daemon
        defer { _ = running.kill() }
        let name = E2E.name("chain")
        let c = try LineClient(port: daemon.port, label: name)
        try c.login(name)

        // HELP lists the kind, from what it declares.
        try c.send("HELP")
        let help = try lines(c, through: "OK HELP")
        #expect(help.contains("HELP NEW game=wordchain [bot=easy|hard [first=bot]] [min=<min>] - Word chain (tests only): name a word that starts with the last letter of the one before"))
        // Its own move verb too, after the kinds' NEW lines, and before OK HELP.
        #expect(help.suffix(3) == ["HELP CHAIN <word> - game=wordchain: name a word that starts with the last letter of the one before",
                                   "HELP CONCEDE - game=wordchain: give up: you have no word", "OK HELP"])
        // The verb is parsed from its declaration: its shape is checked, and it is a move (a game first).
        try c.send("CHAIN")
        try c.expect("ERR bad-arguments usage: CHAIN <word>")
        try c.send("chain two words")
        try c.expect("ERR bad-arguments usage: CHAIN <word>")
        try c.send("CHAIN ant")
        try c.expect("ERR not-in-game you are not in a game; SEEK, NEW or JOIN one")
        // A verb no kind declares is still unknown, with the same words.
        try c.send("CHAINS ant")
        try c.expect("ERR unknown-command unknown command; play one letter per line, or send HELP for the commands")

        // Its options and levels are its own, checked by the server from its declarations.
        try c.send("NEW game=wordchain variant=super")
        try c.expect("ERR bad-arguments variant= is for game=ghost")
        try c.send("NEW game=wordchain colour=red")
        try c.expect("ERR bad-arguments game=wordchain takes no colour=: usage: NEW game=wordchain [bot=easy|hard [first=bot]] [min=<min>]")
        try c.send("NEW game=wordchain bot=medium")
        try c.expect("ERR bad-arguments game=wordchain plays the computer at bot=easy|hard")
        try c.send("NEW game=wordchain bot=easy min=9")
        try c.expect("ERR bad-value min is a length from 3 to 6")

        // bot=<level> reaches the kind and the seat: the computer is bot-easy.
        try c.send("NEW game=wordchain bot=easy min=4")
        let start = try lines(c, through: "TURN ")
        #expect(start.first == "OK NEW game=wordchain min=4 lang=en bot=easy")
        let game = try #require(start.first { $0.hasPrefix("GAME ") })
        let fields = lineFields(game)
        #expect(fields["game"] == "wordchain" && fields["players"] == "\(name),bot-easy" && game.hasSuffix(" round=1 bot=easy min=4"))
        let id = try #require(fields["id"]), token = try #require(fields["token"])

        // Its refusals carry its own codes.
        try c.send("CHAIN zebra")
        try c.expect("ERR not-in-list zebra is not in the list")
        try c.send("Chain ANT")
        try c.expect("ERR too-short a word has at least 4 letters here")
        try c.send("LETTER a")
        try c.expect("ERR wrong-move name a word: CHAIN <w>, or CONCEDE")
        // Ghost's and Hangman's WORD is not Word chain's verb.
        try c.send("WORD olive")
        try c.expect("ERR wrong-move name a word: CHAIN <w>, or CONCEDE")
        // A word; the computer (easy: the first word of its list that fits) answers.
        try c.send("CHAIN olive")
        #expect(try lines(c, through: "TURN id=\(id) player=\(name)") == [
            "OK CHAIN word=olive last=olive words=1",
            "MOVE id=\(id) player=\(name) word=olive last=olive words=1",
            "TURN id=\(id) player=bot-easy last=olive words=1",
            "MOVE id=\(id) player=bot-easy word=eagle last=eagle words=2",
            "TURN id=\(id) player=\(name) last=eagle words=2",
        ])
        // VIEW: the kind's rows and its moves, for a client that does not know it.
        try c.send("VIEW \(id)")
        #expect(try lines(c, through: "OK VIEW") == [
            "ROW key=last shape=cells value=eagle - Last word",
            "ROW key=words shape=text value=2 - Words so far",
            "CAN verb=CHAIN takes=word - name a word that starts with the last letter of the one before",
            "CAN verb=CONCEDE takes=none - give up: you have no word",
            "OK VIEW id=\(id) game=wordchain lang=en turn=\(name) rows=2 moves=2",
        ])
        try c.send("CHAIN trout")
        try c.expect("ERR chain-broken the word must start with e")
        try c.send("CHAIN olive")
        try c.expect("ERR chain-broken the word must start with e")
        try c.send("CHAIN eagle")
        try c.expect("ERR used-word eagle is used already")

        // The daemon stops and starts again: the game is restored from the store.
        _ = running.terminate()
        running = try daemon.relaunch()
        let back = try LineClient(port: running.port, label: name + "'")
        try back.send("RESUME \(token)")
        let resumed = try lines(back, through: "TURN ")
        #expect(resumed.first == "OK RESUME id=\(id)")
        #expect(resumed.last == "TURN id=\(id) player=\(name) last=eagle words=2")

        // Giving up ends it: the computer wins, on its level's board.
        try back.send("CONCEDE")
        let over = try lines(back, through: "OVER ")
        #expect(over.last?.hasPrefix("OVER id=\(id) winner=bot-easy loser=\(name) reason=stuck") == true)
        try back.send("SCORES game=wordchain mode=easy")
        let scores = try lines(back, through: "OK SCORES")
        // (after the OVER's own lines: INFO, RANK)
        #expect(scores.filter { $0.hasPrefix("SCORE ") } == ["SCORE rank=1 name=\(name) wins=0 played=1"])
        #expect(scores.last == "OK SCORES count=1 board=wordchain-easy")
        try back.send("SCORES game=wordchain")
        #expect(try lines(back, through: "OK SCORES").last == "OK SCORES count=0 board=wordchain-game")
        try back.send("SCORES game=wordchain mode=medium")
        try back.expect("ERR bad-arguments no such high-score list: game=wordchain mode=medium")
    }

    @Test("Word chain's setting is listed by SETTINGS and fills NEW's option; first=bot at another level seats the computer first")
    func settingAndFirstBot() throws {
        let daemon = try DaemonProcess.start(binary: try DaemonProcess.testKindsBinaryPath())
        defer { _ = daemon.kill() }
        let name = E2E.name("chainset")
        let c = try LineClient(port: daemon.port, label: name)
        try c.login(name)
        try c.send("SET wordchain-min 9")
        try c.expect("ERR bad-value min is a length from 3 to 6")
        try c.send("SET wordchain-min 5")
        try c.expect("OK SET key=wordchain-min value=5")
        try c.send("SETTINGS")
        #expect(try lines(c, through: "OK SETTINGS").contains("SETTING key=wordchain-min value=5 default=3"))
        try c.send("NEW game=wordchain bot=hard first=bot")
        let start = try lines(c, through: "TURN id=")
        #expect(start.first == "OK NEW game=wordchain min=5 lang=en bot=hard")
        let game = try #require(start.first { $0.hasPrefix("GAME ") })
        #expect(lineFields(game)["players"] == "bot-hard,\(name)" && game.hasSuffix(" bot=hard min=5"))
        let id = try #require(lineFields(game)["id"])
        // The computer, in seat 0, names the first word; then it is the person's turn.
        let moved = try lines(c, through: "TURN id=\(id) player=\(name)")
        #expect(moved.contains { $0.hasPrefix("MOVE id=\(id) player=bot-hard word=") })
        try c.send("CHAIN ant")
        try c.expect("ERR too-short a word has at least 5 letters here")
    }

    @Test("A kind's own verb is refused by the games of other kinds (Ghost, Hangman) with their code for a move they do not take, and by a watcher")
    func kindVerbInOtherKinds() throws {
        let daemon = try DaemonProcess.start(binary: try DaemonProcess.testKindsBinaryPath())
        defer { _ = daemon.kill() }
        let name = E2E.name("chainother")
        let c = try LineClient(port: daemon.port, label: name)
        try c.login(name)
        try c.send("NEW bot=easy")
        let ghost = try lines(c, through: "TURN ")
        #expect(ghost.first?.hasPrefix("OK NEW") == true)
        try c.send("CHAIN ant")
        try c.expect("ERR not-a-letter play one letter a-z")
        try c.send("LEAVE")
        _ = try lines(c, through: "OK LEAVE")
        try c.send("NEW game=hangman")
        // The first Hangman game waits for the word tables (built at start, seconds in a debug build).
        let hangman = try lines(c, through: "TURN ", timeout: 30)
        #expect(hangman.contains { $0.hasPrefix("OK NEW game=hangman") })
        let hangmanGame = try #require(hangman.first { $0.hasPrefix("GAME ") })
        let hangmanID = try #require(lineFields(hangmanGame)["id"])
        try c.send("CHAIN ant")
        try c.expect("ERR not-a-letter guess one letter a-z, as LETTER <c>")
        // A watcher may not send it, as any move.
        let watcher = try LineClient(port: daemon.port, label: name + "w")
        try watcher.login(E2E.name("chainwatch"))
        try watcher.send("WATCH \(hangmanID)")
        _ = try lines(watcher, through: "WATCHERS ")
        try watcher.send("CHAIN ant")
        try watcher.expect("ERR not-in-game you are watching game \(hangmanID): watchers cannot play; UNWATCH to stop watching")
    }

    @Test("Only the Word chain module and the test daemon's catalog line name the kind")
    func namedInOnePlace() throws {
        let root = URL(fileURLWithPath: DaemonProcess.packageRoot)
        let fm = FileManager.default
        var naming: [String] = []
        for top in ["Sources", "Tests", "Package.swift"] {
            let url = root.appendingPathComponent(top)
            let files = top.hasSuffix(".swift") ? [url] : (fm.enumerator(at: url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            for file in files where file.pathExtension == "swift" {
                guard let text = try? String(contentsOf: file, encoding: .utf8),
                      text.range(of: "wordchain", options: .caseInsensitive) != nil else { continue }
                naming.append(String(file.path.dropFirst(root.path.count + 1)))
            }
        }
        // This test and the end-to-end test above read it as a player would;
        // so do ghost-client's tests and the web client's test of a kind
        // they have no code for: neither client's sources name it.
        #expect(naming.sorted() == ["Tests/GhostClientTests/GenericKindEndToEndTests.swift",
                                    "Tests/GhostClientTests/GenericKindTests.swift",
                                    "Tests/GhostServerTests/EndToEndBrowserTests.swift", "Tests/GhostServerTests/EndToEndTestKindTests.swift",
                                    "Tests/Kinds/WordChainKind/Sources/WordChain.swift", "Tests/TestKinds/TestKinds.swift"])
    }
}
