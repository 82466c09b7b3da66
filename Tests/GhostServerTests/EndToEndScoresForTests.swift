import Foundation
import Testing
import GhostStore
import TestSupport

/// `--scores-for registered` over real sockets (ScoringPolicy.swift):
/// the "Farming" attack, two connections one person owns putting a name on
/// the duel best-games list with 0 mistakes, is refused; the same game
/// between two networks counts. Connections come from 127.0.0.x addresses
/// (LineClient `source:`), each its own network.
@Suite("EndToEnd: --scores-for registered and the farming attack", .ownThread, .hangLimit)
struct EndToEndScoresForTests {
    /// The accounts' password, and its yescrypt hash (made once with
    /// libxcrypt's crypt_gensalt("$y$") and crypt; it is no secret).
    static let password = "farming test password"
    static let hash = "$y$j9T$MRdUAWNdK.xaL436GnM/P1$NEhX8ruz8taYndfr79e.DyxrrENCAFijpCa1F00mk7A"

    /// A data folder whose database has `names` registered, made before the
    /// daemon starts (accounts are made offline; REGISTER has tests of its own).
    static func folder(registering names: [String]) throws -> DataDirectory {
        let data = try DataDirectory()
        let store = try openTestStore(data.path)
        for name in names { #expect(try store.createAccount(name, hash: hash, now: 1_700_000_000)) }
        try store.commit()
        store.close()
        return data
    }

    /// Logs in to a registered name. With `NAME <name> <password>` that
    /// is one line; a server without it refuses the password form
    /// (`ERR bad-arguments`) and takes `NAME <name>`.
    static func logIn(_ c: LineClient, _ name: String) throws {
        try c.send("NAME \(name) \(password)")
        let reply = try c.readLine()
        if reply.hasPrefix("OK NAME name=\(name) ") { return }
        #expect(reply.hasPrefix("ERR bad-arguments "), "\(reply)")
        try c.login(name)
    }

    /// A Hangman duel: `setter` sets "zephyr", `guesser` solves it at once
    /// (0 mistakes). Returns the guesser's lines from OVER to the OK of a PING after it.
    static func duel(setter: LineClient, guesser: LineClient, id: Int) throws -> [String] {
        try setter.send("NEW game=hangman mode=duel length=6 misses=10")
        let ok = try setter.expectPrefix("OK NEW code=", timeout: 30)
        let code = String(ok.split(separator: " ")[2].dropFirst(5))
        try guesser.send("JOIN \(code)")
        _ = try guesser.readUntil(prefix: "TURN id=\(id) ")
        _ = try setter.readUntil(prefix: "TURN id=\(id) ")
        try setter.send("WORD zephyr")
        _ = try guesser.readUntil(prefix: "TURN id=\(id) player=")
        try guesser.send("SOLVE zephyr")
        var lines = [try guesser.readUntil(prefix: "OVER id=\(id) ").line]
        try guesser.send("PING")
        while lines.last != "OK PING" { lines.append(try guesser.readLine()) }
        try setter.send("PING")
        _ = try setter.readUntil(prefix: "OK PING")
        return lines
    }

    /// A Ghost game `winner` wins because `loser` leaves after one letter.
    /// Returns the winner's lines from OVER to the OK of a PING after it.
    static func ghostGame(winner: LineClient, loser: LineClient, id: Int) throws -> [String] {
        try winner.send("SEEK")
        _ = try winner.expectPrefix("OK SEEK ")
        try loser.send("SEEK")
        _ = try winner.readUntil(prefix: "TURN id=\(id) ")
        _ = try loser.readUntil(prefix: "TURN id=\(id) ")
        try winner.send("p")
        _ = try loser.readUntil(prefix: "TURN id=\(id) ")
        try loser.send("LEAVE")
        var lines = [try winner.readUntil(prefix: "OVER id=\(id) ").line]
        try winner.send("PING")
        while lines.last != "OK PING" { lines.append(try winner.readLine()) }
        try loser.send("PING")
        _ = try loser.readUntil(prefix: "OK PING")
        return lines
    }

    @Test("Farming: ann and ben, registered, one network: the duel list and SCORES stay empty; ben against cy, another network, counts")
    func farmingIsRefused() throws {
        let data = try Self.folder(registering: ["ann", "ben", "cy"])
        let daemon = try DaemonProcess.start(extraArguments: ["--data", data.path, "--scores-for", "registered", "--bot-delay", "0"])
        defer { daemon.kill() }
        // One person, two connections from one network.
        let ann = try LineClient(port: daemon.port, label: "ann", source: "127.0.0.2")
        let ben = try LineClient(port: daemon.port, label: "ben", source: "127.0.0.2")
        try Self.logIn(ann, "ann")
        try Self.logIn(ben, "ben")
        #expect(try Self.duel(setter: ann, guesser: ben, id: 1) == [
            "OVER id=1 winner=ben loser=ann reason=solved word=zephyr mistakes=0 pattern=zephyr",
            "INFO ben found \"zephyr\" without a mistake.",
            "OK PING",
        ])
        #expect(try Self.ghostGame(winner: ben, loser: ann, id: 2) == [
            "OVER id=2 winner=ben loser=ann reason=left fragment=p",
            "INFO ann left the game.",
            "OK PING",
        ])
        try ben.send("SCORES game=hangman mode=duel")
        try ben.expect("OK SCORES count=0 board=hangman-duel")
        try ben.send("SCORES")
        try ben.expect("OK SCORES count=0 board=game")

        // cy from another network: the same games count, and SCORE marks the names.
        let cy = try LineClient(port: daemon.port, label: "cy", source: "127.0.0.3")
        try Self.logIn(cy, "cy")
        #expect(try Self.duel(setter: ann, guesser: cy, id: 3) == [
            // Rated too: two registered names on two networks; ann and ben's games above were not.
            "OVER id=3 winner=cy loser=ann reason=solved word=zephyr mistakes=0 pattern=zephyr ratings=1338?,1662? changes=-162,+162",
            "INFO cy found \"zephyr\" without a mistake.",
            "RANK board=hangman-duel rank=1 word=zephyr mistakes=0 misses=10 mode=duel lang=en",
            "OK PING",
        ])
        #expect(try Self.ghostGame(winner: cy, loser: ann, id: 4) == [
            "OVER id=4 winner=cy loser=ann reason=left fragment=p ratings=1662?,1338? changes=+162,-162",
            "INFO ann left the game.",
            "RANK name=cy rank=1 wins=1",
            "RANK name=ann rank=2 wins=0",
            "OK PING",
        ])
        try ben.send("SCORES game=hangman mode=duel")
        try ben.expect(lines: ["SCORE rank=1 name=cy word=zephyr mistakes=0 misses=10 mode=duel lang=en registered=yes",
                               "OK SCORES count=1 board=hangman-duel"])
        try ben.send("SCORES")
        try ben.expect(lines: ["SCORE rank=1 name=cy wins=1 played=1 registered=yes",
                               "SCORE rank=2 name=ann wins=0 played=1 registered=yes",
                               "OK SCORES count=2 board=game"])
    }
}
