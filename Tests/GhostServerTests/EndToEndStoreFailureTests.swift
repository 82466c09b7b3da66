import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A database that cannot take more writes, against a real daemon: the
/// commands that need a write are refused with `ERR store-failed`, everyone
/// else is served, nothing unconfirmed is ever acknowledged, and writes work
/// again once there is room (Protocol.md §8, docs/durability.md "State, resumption and
/// durability").
@Suite("EndToEnd: a full database", .ownThread, .hangLimit)
struct EndToEndStoreFailureTests {
    static let storeFailed = "ERR store-failed the server could not store this; nothing was done"

    /// Registers names `<base>-0`, `<base>-1` … on one connection until one
    /// is refused; returns how many were stored and the refused name.
    static func fill(_ c: LineClient, base: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (stored: Int, refused: String) {
        for i in 0..<5000 {
            let name = "\(base)-\(i)"
            try c.send("NAME \(name)", sourceLocation: sourceLocation)
            let line = try c.readLine(sourceLocation: sourceLocation)
            if line == storeFailed { return (i, name) }
            if line != "OK NAME name=\(name) lang=en" {
                try c.fail("expected `OK NAME name=\(name) lang=en` or `\(storeFailed)`\n     got `\(line)`", sourceLocation)
            }
        }
        try c.fail("5000 names and the database is not full", sourceLocation)
    }

    /// What a player resuming after a restart hears about its absent opponent.
    static func away(_ game: Game, _ seat: Int) -> String {
        "ADJOURNED id=\(game.id) player=\(game.players[seat].name) grace=60"
    }

    /// PING, NAMES (`count` names stored; one reply lists 100 at most) and SCORES still work.
    static func expectReadsWork(_ c: LineClient, names count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try c.ping(sourceLocation: sourceLocation)
        try c.send("NAMES 100", sourceLocation: sourceLocation)
        let (entries, ok) = try c.readUntil(prefix: "OK NAMES", sourceLocation: sourceLocation)
        let listed = min(count, 100)
        #expect(ok == "OK NAMES count=\(listed) more=\(count > 100 ? "yes" : "no")" && entries.count == listed, "\(ok)",
                sourceLocation: sourceLocation)
        try c.send("SCORES", sourceLocation: sourceLocation)
        try c.expect("OK SCORES count=0 board=game", sourceLocation: sourceLocation)
    }

    @Test("--max-db-pages: past the limit NAME gets ERR store-failed; PING, NAMES, SCORES and a game with room go on; SIGKILL loses no acknowledged letter; a larger limit takes writes again", sqliteFilesOnly)
    func pageLimit() throws {
        // 1 page: the limit is the size the new database has (it is never set below it).
        let d = try DaemonProcess.start(extraArguments: ["--max-db-pages", "1", "--max-commands-per-second", "0"])
        defer { d.kill() }
        #expect(d.waitForStderrLine { $0.contains(" of at most ") && $0.contains(" pages)") } != nil, "\(d.stderrText)")
        // A game before the database is full: its moves fit in the page they have.
        var game = try Game.privateGame(host: try E2E.player(d, "alice"), guest: try E2E.player(d, "bob"))
        try game.play("p")
        let filler = try LineClient(port: d.port, label: "filler")
        let (stored, refused) = try Self.fill(filler, base: "fill")
        #expect(stored > 0)
        #expect(d.waitForStderrLine { $0.contains("store failure: ") && $0.contains("database or disk is full") } != nil,
                "\(d.stderrText)")
        // The refused NAME changed nothing: the connection keeps its last name.
        try Self.expectReadsWork(filler, names: 2 + stored)
        try filler.send("NAME fill-0")
        try filler.expect("OK NAME name=fill-0 lang=en")
        // The game goes on: its letters need no new page.
        try game.play("ea")
        try filler.send("NAME \(refused)")
        try filler.expect(Self.storeFailed)

        // A crash: every acknowledged letter is there after a restart on the same data.
        #expect(d.kill() == .signaled(SIGKILL))
        let again = try d.relaunch()
        defer { again.kill() }
        game.players[0] = try E2E.resume(again, game, seat: 0, extra: [Self.away(game, 1)], opponentPresent: false)
        game.players[1] = try E2E.resume(again, game, seat: 1)
        let c = try LineClient(port: again.port, label: "after")
        try c.send("NAME \(refused)")
        try c.expect(Self.storeFailed)
        #expect(again.terminate() == .exited(0))

        // Room again: the refused name is taken, and the game ends (which writes the scores).
        let roomy = try d.relaunch(extraArguments: ["--max-db-pages", "100000"])
        defer { roomy.kill() }
        game.players[0] = try E2E.resume(roomy, game, seat: 0, extra: [Self.away(game, 1)], opponentPresent: false)
        game.players[1] = try E2E.resume(roomy, game, seat: 1)
        let late = try LineClient(port: roomy.port, label: "late")
        try late.login(refused)
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.",
                            ranks: (1, 2))
        #expect(roomy.terminate() == .exited(0))
    }

    @Test("A commit that fails (the WAL cannot grow: ulimit -f): the turn's replies are withdrawn, its commands get ERR store-failed, both players get the stored state again; reads and moves alone go on; after a restart with room nothing acknowledged is lost", sqliteFilesOnly)
    func commitFailure() throws {
        // RLIMIT_FSIZE stands in for a full disk without privileges: writes past
        // 512 KB fail with EFBIG (SIGXFSZ ignored), so the WAL cannot grow.
        let d: DaemonProcess
        do {
            d = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "0"],
                                        shellPrefix: "trap '' XFSZ; ulimit -f 1024")
        } catch {
            // A system that refuses the limit: nothing to test here.
            print("commit failure: skipped, the daemon did not start under `ulimit -f`: \(error)")
            return
        }
        defer { d.kill() }
        var game = try Game.privateGame(host: try E2E.player(d, "alice"), guest: try E2E.player(d, "bob"))
        try game.play("p")
        // A Hangman game against the computer, whose guesses are writes of
        // the size of a letter: what is left after the fill is used up with them.
        let spare = try E2E.player(d, "spare").client
        try spare.send("NEW game=hangman mode=evil length=8 misses=26")
        // The first Hangman game waits for the word tables (built at start, seconds in a debug build).
        _ = try spare.expectPrefix("OK NEW game=hangman ", timeout: 30)
        _ = try spare.readUntil(prefix: "TURN ")
        let filler = try LineClient(port: d.port, label: "filler")
        let (stored, _) = try Self.fill(filler, base: "wal")
        #expect(d.waitForStderrLine { $0.contains("cannot commit to ") && $0.contains("the turn is rolled back") } != nil,
                "\(d.stderrText)")
        // A new name needs a few pages; a smaller write (a language
        // preference: one page) may still fit. Use that room up too.
        var refused = false
        for i in 0..<50 where !refused {
            let lang = i % 2 == 0 ? "nl" : "en"
            try filler.send("LANG \(lang)")
            let line = try filler.readLine()
            refused = line == Self.storeFailed
            if !refused && line != "OK LANG lang=\(lang)" { try filler.fail("got `\(line)`", #_sourceLocation) }
        }
        #expect(refused)
        // Moves alone still go: each waits in the move journal, beside the
        // full database (MoveJournal.swift). The spare game's guesses, and
        // two letters of the game.
        for letter in "zqxjkvwy" {
            try spare.send("LETTER \(letter)")
            let line = try spare.readLine()
            if !line.hasPrefix("OK LETTER ") { try spare.fail("got `\(line)`", #_sourceLocation) }
            _ = try spare.readUntil(prefix: "TURN ")
        }
        try game.play("ea")
        try Self.expectReadsWork(filler, names: 3 + stored)

        // A letter that ends the game writes its end (and takes the waiting
        // moves in): refused, and both players are sent the stored state again.
        let (alice, bob) = (game.players[0], game.players[1])
        try bob.send("r")
        try bob.expect(lines: [Self.storeFailed,
                               "GAME id=\(game.id) game=ghost lang=en players=\(alice.name),\(bob.name) token=\(game.tokens[1]) round=1",
                               "TURN id=\(game.id) player=\(bob.name) fragment=pea last=\(alice.name)"])
        try alice.expect(lines: ["GAME id=\(game.id) game=ghost lang=en players=\(alice.name),\(bob.name) token=\(game.tokens[0]) round=1",
                                 "TURN id=\(game.id) player=\(bob.name) fragment=pea last=\(alice.name)"])
        try alice.expectNothing(within: 0.2)
        #expect(d.isRunning)

        // A crash, then a restart with room: the acknowledged letters are
        // there (from the journal), the refused one is not.
        #expect(d.kill() == .signaled(SIGKILL))
        let again = try d.relaunch(extraArguments: ["--max-commands-per-second", "0"])
        defer { again.kill() }
        game.players[0] = try E2E.resume(again, game, seat: 0, extra: [Self.away(game, 1)], opponentPresent: false)
        game.players[1] = try E2E.resume(again, game, seat: 1)
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.",
                            ranks: (1, 2))
        let late = try LineClient(port: again.port, label: "late")
        try late.login("wal-\(stored)")
        #expect(again.terminate() == .exited(0))
    }
}
