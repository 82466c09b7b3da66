import Foundation
import Testing
import GhostCore
import GhostServer
import TestSupport

/// Bluff and challenge on a real ghostd over TCP, on the real English list.
/// Serialized: both tests seek the same queue of the shared daemon.
@Suite("EndToEnd: bluff and challenge", .ownThread, .serialized, .hangLimit)
struct EndToEndChallengeTests {
    /// Two players SEEK variant=challenge; returns them and the game's id.
    private func start(_ daemon: DaemonProcess, _ a: String, _ b: String) throws -> (Player, Player, String) {
        let ann = try E2E.player(daemon, a)
        let ben = try E2E.player(daemon, b)
        try ann.send("SEEK variant=challenge")
        try ann.expect("OK SEEK lang=en")
        try ann.client.expectPrefix("INFO Waiting for another player")
        try ben.send("SEEK variant=challenge")
        try ben.expect("OK SEEK lang=en")
        let header = try ann.client.expectPrefix("GAME id=")
        let f = lineFields(header)
        let id = try #require(f["id"])
        #expect(header == "GAME id=\(id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(f["token"] ?? "") round=1 variant=challenge")
        try ann.expect("TURN id=\(id) player=\(ann.name) fragment=")
        _ = try ben.client.expectPrefix("GAME id=\(id) ")
        try ben.expect("TURN id=\(id) player=\(ann.name) fragment=")
        return (ann, ben, id)
    }

    private func letter(_ id: String, _ p: Player, _ other: Player, _ letter: String, _ fragment: String) throws {
        try p.send(letter)
        let move = "MOVE id=\(id) player=\(p.name) letter=\(letter) fragment=\(fragment)"
        try p.expect(lines: ["OK LETTER letter=\(letter) fragment=\(fragment)", move])
        try other.expect(move)
        for q in [p, other] { try q.expect("TURN id=\(id) player=\(other.name) fragment=\(fragment)") }
    }

    private func challenge(_ id: String, _ p: Player, _ other: Player, _ fragment: String) throws {
        try p.send("CHALLENGE")
        let move = "MOVE id=\(id) player=\(p.name) challenge=yes fragment=\(fragment)"
        try p.expect(lines: ["OK CHALLENGE fragment=\(fragment)", move])
        try other.expect(move)
        for q in [p, other] { try q.expect("TURN id=\(id) player=\(other.name) fragment=\(fragment) challenged=yes") }
    }

    /// j, a, i; ben challenges "jai"; ann answers "jail" and ben loses
    /// the challenge. Every line checked.
    @Test("a failed challenge: the challenged player names a word")
    func aFailedChallenge() throws {
        try E2E.withDaemon { daemon in
            let (ann, ben, id) = try start(daemon, "cann", "cben")
            try letter(id, ann, ben, "j", "j")
            try letter(id, ben, ann, "a", "ja")
            try letter(id, ann, ben, "i", "jai")
            try challenge(id, ben, ann, "jai")
            // Only an answer now: a letter is refused, and nothing changes.
            try ann.send("l")
            _ = try ann.expectError("challenge-pending")
            try ben.send("CONCEDE")
            _ = try ben.expectError("not-your-turn")
            try ann.send("WORD jail")
            let move = "MOVE id=\(id) player=\(ann.name) word=jail fragment=jai"
            try ann.expect(lines: ["OK WORD word=jail fragment=jai", move])
            try ben.expect(move)
            for p in [ann, ben] {
                try p.expect("OVER id=\(id) winner=\(ann.name) loser=\(ben.name) reason=challenge-failed fragment=jai word=jail")
                try p.expect("INFO \"jai\" could be \"jail\", so \(ben.name) loses the challenge.")
            }
        }
    }

    /// q, z: a dead fragment, and play goes on; ann challenges; ben
    /// concedes and loses the bluff.
    @Test("a bluff called: the challenged player concedes")
    func aBluffCalled() throws {
        try E2E.withDaemon { daemon in
            let (ann, ben, id) = try start(daemon, "dann", "dben")
            try letter(id, ann, ben, "q", "q")
            try letter(id, ben, ann, "z", "qz")
            try challenge(id, ann, ben, "qz")
            try ben.send("CONCEDE")
            let move = "MOVE id=\(id) player=\(ben.name) concede=yes fragment=qz"
            try ben.expect(lines: ["OK CONCEDE fragment=qz", move])
            try ann.expect(move)
            for p in [ann, ben] {
                try p.expect("OVER id=\(id) winner=\(ann.name) loser=\(ben.name) reason=bluff fragment=qz")
                try p.expect("INFO \(ben.name) conceded: \"qz\" can't be extended: no word starts with it.")
            }
        }
    }
}
