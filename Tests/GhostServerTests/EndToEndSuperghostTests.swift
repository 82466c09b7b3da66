import Foundation
import Testing
import TestSupport
import GhostCore
import GhostServer

/// Superghost on a real ghostd over TCP, on the real English list.
@Suite("EndToEnd: Superghost", .ownThread, .hangLimit)
struct EndToEndSuperghostTests {
    /// Two players SEEK variant=super, add letters at both ends, and the one
    /// who makes "pear" (a word of 4 letters) loses; every line checked.
    @Test("a Superghost game to OVER, letters at both ends")
    func aWholeGame() throws {
        try E2E.withDaemon { daemon in
            let ann = try E2E.player(daemon, "sann")
            let ben = try E2E.player(daemon, "sben")
            try ann.send("SEEK variant=super")
            try ann.expect("OK SEEK lang=en")
            try ann.client.expectPrefix("INFO Waiting for another player")
            try ben.send("SEEK variant=super")
            try ben.expect("OK SEEK lang=en")
            let header = try ann.client.expectPrefix("GAME id=")
            let f = lineFields(header)
            let id = try #require(f["id"])
            #expect(header == "GAME id=\(id) game=ghost lang=en players=\(ann.name),\(ben.name) token=\(f["token"] ?? "") round=1 variant=super")
            try ann.expect("TURN id=\(id) player=\(ann.name) fragment=")
            _ = try ben.client.expectPrefix("GAME id=\(id) ")
            try ben.expect("TURN id=\(id) player=\(ann.name) fragment=")

            func move(_ p: Player, _ other: Player, _ line: String, _ letter: String, _ end: String, _ fragment: String, over: Bool = false) throws {
                try p.send(line)
                let moveLine = "MOVE id=\(id) player=\(p.name) letter=\(letter) end=\(end) fragment=\(fragment)"
                try p.expect(lines: ["OK LETTER letter=\(letter) end=\(end) fragment=\(fragment)", moveLine])
                try other.expect(moveLine)
                if !over {
                    try p.expect("TURN id=\(id) player=\(other.name) fragment=\(fragment)")
                    try other.expect("TURN id=\(id) player=\(other.name) fragment=\(fragment)")
                }
            }
            try move(ann, ben, "e", "e", "back", "e")
            try move(ben, ann, "LETTER p front", "p", "front", "pe")
            try move(ann, ben, "LETTER a", "a", "back", "pea")
            try move(ben, ann, "r", "r", "back", "pear", over: true)
            for p in [ann, ben] {
                try p.expect("OVER id=\(id) winner=\(ann.name) loser=\(ben.name) reason=word fragment=pear")
                try p.expect("INFO \"pear\" is a word longer than 3 letters, so \(ben.name) loses.")
            }
        }
    }
}
