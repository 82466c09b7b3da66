import Foundation
import Testing
import TestSupport

/// Hidden words over real sockets, as with `nc`, against the test daemon:
/// both players hide at once (TURN names both), each word reaches its
/// owner only (GAME's `mine=`, VIEW, MOVES' `play=hidden`), and the game
/// ends in a draw (`OVER … draw=`, HISTORY's `result=draw`).
@Suite("EndToEnd: Hidden words over the line protocol", .hangLimit)
struct HiddenWordsEndToEndTests {
    /// The `key=value` fields of a line.
    static func fields(_ line: String) -> [String: String] {
        var out: [String: String] = [:]
        for part in line.split(separator: " ").dropFirst() {
            guard let eq = part.firstIndex(of: "=") else { continue }
            out[String(part[..<eq])] = String(part[part.index(after: eq)...])
        }
        return out
    }

    /// A private game between two line clients: the host's NEW, the guest's
    /// JOIN; the game's id and the guest's resume token.
    static func privateGame(_ host: LineClient, _ guest: LineClient, options: String = "") throws -> (id: String, token: String) {
        try host.send("NEW game=hiddenwords" + options)
        let ok = try host.expectPrefix("OK NEW ")
        let code = try #require(fields(ok)["code"])
        try guest.send("JOIN \(code)")
        let game = fields(try guest.readUntil(prefix: "GAME ").line)
        return (try #require(game["id"]), try #require(game["token"]))
    }

    @Test("HIDE at once and in secret, GUESS in turns, a draw when both find the other's word; MOVES, VIEW, RESUME and HISTORY keep the secret")
    func draw() throws {
        let daemon = try DaemonProcess.start(binary: try DaemonProcess.testKindsBinaryPath())
        defer { daemon.kill() }
        let ann = try LineClient(port: daemon.port, label: "ann"), ben = try LineClient(port: daemon.port, label: "ben")
        try ann.login("ann")
        try ben.login("ben")

        try ann.send("HELP")
        let help = try ann.readUntil(prefix: "OK HELP").skipped
        #expect(help.contains("HELP NEW game=hiddenwords [bot=easy|hard [first=bot]] [guesses=<guesses>] - Hidden words (tests only): both hide a word at once, then guess each other's"))
        #expect(help.contains("HELP HIDE <word> - game=hiddenwords: hide your word (both players at once; only you see it)"))
        #expect(help.contains("HELP GUESS <word> - game=hiddenwords: guess the other player's hidden word"))

        let (id, token) = try HiddenWordsEndToEndTests.privateGame(ann, ben, options: " guesses=2")
        // Both may move: TURN names both players.
        try ben.expect("TURN id=\(id) player=ann,ben phase=hiding guessed=0,0")
        #expect(try ann.readUntil(prefix: "TURN ").line == "TURN id=\(id) player=ann,ben phase=hiding guessed=0,0")

        // ben hides first, though ann is the starter; ann sees that he did, not what.
        try ben.send("HIDE bear")
        try ben.expect("OK HIDE hid=yes phase=hiding guessed=0,0")
        try ben.expect("MOVE id=\(id) player=ben hid=yes phase=hiding guessed=0,0")
        try ben.expect("TURN id=\(id) player=ann phase=hiding guessed=0,0")
        try ann.expect("MOVE id=\(id) player=ben hid=yes phase=hiding guessed=0,0")
        try ann.expect("TURN id=\(id) player=ann phase=hiding guessed=0,0")
        try ben.send("HIDE wolf")
        try ben.expect("ERR hidden-already your word is hidden: wait for the other player's")
        try ben.send("GUESS wolf")
        try ben.expect("ERR not-your-turn it is ann's turn")
        // The kind's own verbs only: the protocol's WORD is refused with its code.
        try ann.send("WORD wolf")
        try ann.expect("ERR wrong-move hide a word with HIDE <w>, then guess with GUESS <w>")

        // MOVES keeps ben's word hidden while the game is on; VIEW shows it to ben only.
        try ann.send("MOVES \(id)")
        try ann.expect("PLAYED n=1 round=1 player=ben play=hidden")
        try ann.expect("OK MOVES id=\(id) count=1 more=no status=live")
        try ben.send("VIEW \(id)")
        let benView = try ben.readUntil(prefix: "OK VIEW ")
        #expect(benView.skipped.contains("ROW key=mine shape=cells value=bear - Your word"))
        #expect(benView.line == "OK VIEW id=\(id) game=hiddenwords lang=en turn=ann rows=4 moves=0")
        try ann.send("VIEW \(id)")
        let annView = try ann.readUntil(prefix: "OK VIEW ")
        #expect(!annView.skipped.contains { $0.contains("bear") })
        #expect(annView.skipped.contains("CAN verb=HIDE takes=word - hide your word (both players at once; only you see it)"))

        // ben comes back on his token: GAME says his own word (mine=), to him only.
        ben.close()
        try ann.expectPrefix("ADJOURNED id=\(id) player=ben ")
        let back = try LineClient(port: daemon.port, label: "ben again")
        try back.send("RESUME \(token)")
        let state = try back.readUntil(prefix: "TURN ")
        #expect(state.skipped.contains { $0.hasPrefix("GAME id=\(id) game=hiddenwords ") && $0.hasSuffix(" guesses=2 mine=bear") })
        #expect(state.line == "TURN id=\(id) player=ann phase=hiding guessed=0,0")
        try ann.readUntil(prefix: "RETURNED id=\(id) player=ben")

        // ann hides; the guesses alternate, ann first; both find the other's word: a draw.
        try ann.send("HIDE wolf")
        try ann.expect("OK HIDE hid=yes phase=guessing guessed=0,0")
        try ann.expect("MOVE id=\(id) player=ann hid=yes phase=guessing guessed=0,0")
        try ann.expect("TURN id=\(id) player=ann phase=guessing guessed=0,0")
        try ann.send("GUESS bear")
        try ann.expect("OK GUESS guess=bear common=4 hit=yes phase=guessing guessed=1,0")
        try back.readUntil(prefix: "TURN id=\(id) player=ben phase=guessing guessed=1,0")
        try back.send("GUESS wolf")
        try back.expect("OK GUESS guess=wolf common=4 hit=yes phase=guessing guessed=1,1")
        for c in [ann, back] {
            try c.readUntil(prefix: "MOVE id=\(id) player=ben guess=wolf")
            try c.expect("OVER id=\(id) draw=ann,ben reason=both phase=guessing guessed=1,1 words=wolf,bear")
            try c.expect("INFO Both found the other's word: a draw.")
            // A draw counts a game, won by neither, on the kind's board of wins.
            try c.expect(lines: ["RANK name=ann rank=1 wins=0", "RANK name=ben rank=1 wins=0"])
        }
        // Over: the hidden words show in MOVES, and the game is a draw in the history.
        try ann.send("MOVES \(id)")
        try ann.expect(lines: ["PLAYED n=1 round=1 player=ben play=move:HIDE:bear", "PLAYED n=2 round=1 player=ann play=move:HIDE:wolf",
                               "PLAYED n=3 round=1 player=ann play=move:GUESS:bear", "PLAYED n=4 round=1 player=ben play=move:GUESS:wolf",
                               "OK MOVES id=\(id) count=4 more=no status=over"])
        try ann.send("HISTORY")
        #expect(try ann.readUntil(prefix: "RESULT ").line.contains(" result=draw reason=both "))
        // The token of a drawn game says how it ended.
        try back.send("RESUME \(token)")
        try back.expect("OK RESUME id=\(id) status=over game=hiddenwords")
        try back.expectPrefix("OVER id=\(id) draw=ann,ben reason=both phase=guessing guessed=1,1 words=wolf,bear ended=")
    }
}
