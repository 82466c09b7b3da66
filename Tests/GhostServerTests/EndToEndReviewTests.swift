import Foundation
import GhostCore
import TestSupport
import Testing
import GameKit

/// `MOVES` and `REVIEW` over real sockets, on the daemon's real
/// English list: a finished Ghost game with a known mistake, a live game
/// anyone may watch, a private game refused to a third party, and the rule
/// that no Hangman word is shown before its game has ended (a duel and a
/// game against the computer). Each test has a daemon of its own (game ids
/// from 1) and runs on a thread of its own.
@Suite("EndToEnd: MOVES and REVIEW", .ownThread, .hangLimit)
struct EndToEndReviewTests {
    @Test("Ghost: MOVES of a live game from a third party, REVIEW refused until the end, then MOVES and REVIEW with the mistake; a private game is no-such-game to others")
    func ghost() async throws {
        try await TestSupport.onOwnThread { try Self.ghostGames() }
    }

    @Test("Hangman: a duel's word is play=hidden until the end, the computer's word is in no line before it; both shown after")
    func hangman() async throws {
        try await TestSupport.onOwnThread { try Self.hangmanGames() }
    }

    static func ghostGames() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        // The known mistake: ann's first letter x loses where some letter won; ben answers with a winning y.
        let solver = Solver(rules: GhostRules(words: WordLists.en))
        try #require(solver.isWinning(""))
        let winners = solver.winningLetters("").map(\.description)
        let x = try #require(Letter.all.first { l in
            WordLists.safeLetters(after: "", in: WordLists.en).contains(l.character) && solver.isWinning(l.description)
        }).description
        let y = try #require(solver.winningLetters(x).first).description

        let ann = try E2E.player(daemon, "ann")
        let ben = try E2E.player(daemon, "ben")
        let carol = try E2E.player(daemon, "carol")
        let game = try Game.privateGame(host: ann, guest: ben)
        let id = game.id
        try ann.send(x)
        try ben.client.readUntil(prefix: "TURN id=\(id) player=\(ben.name)")
        try ben.send(y)
        try ann.client.readUntil(prefix: "TURN id=\(id) player=\(ann.name)")
        let played = ["PLAYED n=1 round=1 player=\(ann.name) play=\(x)", "PLAYED n=2 round=1 player=\(ben.name) play=\(y)"]
        try carol.send("MOVES \(id)")
        try carol.expect(lines: played + ["OK MOVES id=\(id) count=2 more=no status=live"])
        try carol.send("REVIEW \(id)")
        try carol.expect("ERR not-over game \(id) is in progress: it can be reviewed once it is over")

        try ann.send("LEAVE")
        try ann.client.readUntil(prefix: "OK LEAVE")
        try carol.send("MOVES \(id)")
        try carol.expect(lines: played + ["OK MOVES id=\(id) count=2 more=no status=over"])
        try carol.send("REVIEW \(id)")
        try carol.expect(lines: [
            "PLY n=1 player=\(ann.name) play=\(x) fragment=\(x) outcome=loss better=\(winners.joined(separator: ","))",
            "PLY n=2 player=\(ben.name) play=\(y) fragment=\(x)\(y) outcome=win",
            "OK REVIEW id=\(id) mistake=1",
        ])

        // A private game: its player sees it, a third party gets no-such-game, in progress and over.
        let dave = try E2E.player(daemon, "dave")
        try dave.send("NEW bot=easy watch=no")
        let header = try dave.client.readUntil(prefix: "GAME ").line
        let secret = try #require(lineFields(header)["id"])
        try dave.client.readUntil(prefix: "TURN ")
        try dave.send(x)
        try dave.client.readUntil(prefix: "TURN id=\(secret) player=\(dave.name)")
        try carol.send("MOVES \(secret)")
        try carol.expect("ERR no-such-game no game has the id \(secret) that you may see")
        try dave.send("MOVES \(secret)")
        try dave.expect("PLAYED n=1 round=1 player=\(dave.name) play=\(x)")
        try dave.client.readUntil(prefix: "OK MOVES id=\(secret) count=2 more=no status=live")
        try dave.send("LEAVE")
        try dave.client.readUntil(prefix: "OK LEAVE")
        try carol.send("REVIEW \(secret)")
        try carol.expect("ERR no-such-game no game has the id \(secret) that you may see")
    }

    static func hangmanGames() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--bot-delay", "0"])
        defer { daemon.kill() }
        let ann = try E2E.player(daemon, "ann")
        let ben = try E2E.player(daemon, "ben")
        let carol = try E2E.player(daemon, "carol")
        // A duel: ann sets "house", ben guesses e.
        try ann.send("NEW game=hangman mode=duel length=5")
        // The first Hangman command waits for the word tables (built at start, seconds in a debug build).
        let ok = try ann.client.readUntil(prefix: "OK NEW code=", timeout: 30).line
        let code = try #require(lineFields(ok)["code"])
        try ben.send("JOIN \(code)")
        try ben.client.readUntil(prefix: "TURN id=1 player=\(ann.name)")
        try ann.client.readUntil(prefix: "TURN id=1 player=\(ann.name)")
        try ann.send("WORD house")
        try ben.client.readUntil(prefix: "TURN id=1 player=\(ben.name)")
        try ben.send("e")
        try ben.client.readUntil(prefix: "TURN id=1 player=\(ben.name)")
        for _ in 0..<2 { try ann.client.readUntil(prefix: "TURN id=1 player=\(ben.name)") }
        let hidden = ["PLAYED n=1 round=1 player=\(ann.name) play=hidden", "PLAYED n=2 round=1 player=\(ben.name) play=e",
                      "OK MOVES id=1 count=2 more=no status=live"]
        for p in [carol, ben, ann] {
            try p.send("MOVES 1")
            try p.expect(lines: hidden)
        }
        try ben.send("LEAVE")
        try ben.client.readUntil(prefix: "OK LEAVE")
        try carol.send("MOVES 1")
        try carol.expect(lines: ["PLAYED n=1 round=1 player=\(ann.name) play=word:house", "PLAYED n=2 round=1 player=\(ben.name) play=e",
                                 "OK MOVES id=1 count=2 more=no status=over"])
        try carol.send("REVIEW 1")
        try carol.expect("PLY n=1 player=\(ann.name) play=word:house")
        let guess = try carol.client.readLine()
        #expect(guess.hasPrefix("PLY n=2 player=\(ben.name) play=e pattern=____e candidates="), "\(guess)")
        try carol.expect("OK REVIEW id=1")

        // Against the fair computer: its word is never a move, and no line shows it before the end.
        let dave = try E2E.player(daemon, "dave")
        try dave.send("NEW game=hangman mode=fair length=5")
        try dave.client.readUntil(prefix: "TURN id=2 player=\(dave.name)")
        try dave.send("e")
        try dave.client.readUntil(prefix: "TURN id=2 player=\(dave.name)")
        try carol.send("MOVES 2")
        let before = [try carol.client.readLine(), try carol.client.readLine()]
        #expect(before == ["PLAYED n=1 round=1 player=\(dave.name) play=e", "OK MOVES id=2 count=1 more=no status=live"])
        try carol.send("REVIEW 2")
        try carol.expect("ERR not-over game 2 is in progress: it can be reviewed once it is over")
        try dave.send("LEAVE")
        let over = try dave.client.readUntil(prefix: "OVER id=2 ").line
        let word = try #require(lineFields(over)["word"])
        #expect(word.count == 5)
        #expect(!before.contains { $0.contains(word) })
    }
}
