import Foundation
import Testing
import TestSupport

/// Bad input, framing and names against a real ghostd over TCP.
@Suite("EndToEnd: bad input and framing", .ownThread, .hangLimit)
struct EndToEndBadInputTests {
    /// Bad lines sent by the player to move, with the error code each must get.
    static let badMoves: [(bytes: [UInt8], code: String, what: String)] = [
        (Array("LETTER ab\n".utf8), "not-a-letter", "two letters"),
        (Array("LETTER\n".utf8), "not-a-letter", "no letter"),
        (Array("LETTER e e\n".utf8), "not-a-letter", "two arguments"),
        (Array("7\n".utf8), "not-a-letter", "a digit"),
        (Array("!\n".utf8), "not-a-letter", "punctuation"),
        (Array("é\n".utf8), "not-a-letter", "a non-ASCII letter"),
        (Array("ｅ\n".utf8), "not-a-letter", "a fullwidth letter"),
        (Array("LETTER é\n".utf8), "not-a-letter", "LETTER with a non-ASCII letter"),
        (Array("xyzzy\n".utf8), "unknown-command", "an unknown command"),
        (Array("ee\n".utf8), "unknown-command", "two bare letters"),
        ([0xC3, 0x28, 0x0A], "bad-encoding", "invalid UTF-8"),
        ([0x65, 0xFF, 0x0A], "bad-encoding", "a letter and an invalid byte"),
        ([0xC1, 0xA5, 0x0A], "bad-encoding", "an overlong encoding of e"),
        ([0x65, 0x00, 0x0A], "bad-character", "a letter and a NUL"),
        ([0x00, 0x0A], "bad-character", "a NUL"),
        (Array("\u{1B}[2J\n".utf8), "bad-character", "an ESC sequence"),
        (Array("e\u{1B}\n".utf8), "bad-character", "a letter and ESC"),
        (Array("e\u{7F}\n".utf8), "bad-character", "a letter and DEL"),
        (Array("e\u{85}\n".utf8), "bad-character", "a letter and a C1 control"),
        (Array("LETTER e\rx\n".utf8), "bad-character", "a CR inside the line"),
    ]

    @Test("Every bad input mid-game gets one ERR and changes nothing")
    func badInputMidGame() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            try game.play("p")
            let (mover, other) = (game.mover, game.waiter)   // guest to move, at "p"
            let bystander = try E2E.player(daemon, "bystander")

            // From the player to move (where a mistaken parse would play a letter),
            // then from the player waiting.
            for p in [mover, other] {
                for bad in Self.badMoves {
                    try p.client.sendRaw(bad.bytes)
                    let line = try p.client.readLine()
                    #expect(line.hasPrefix("ERR \(bad.code) ") && line.count > "ERR \(bad.code) ".count,
                            "\(bad.what) \(bad.bytes) from \(p.name): expected ERR \(bad.code), got `\(line)`")
                }
            }
            // Letters from someone outside the game.
            for line in ["e", "LETTER e"] {
                try bystander.send(line)
                try bystander.expectError("not-in-game")
            }
            // A letter out of turn.
            try other.send("a")
            try other.expect("ERR not-your-turn it is \(mover.name)'s turn")
            try other.send("LETTER a")
            try other.expectError("not-your-turn")

            // Nothing reached the opponent, nothing more reached the mover.
            try other.expectNothing(within: 0.3)
            try mover.expectNothing(within: 0.05)
            try bystander.expectNothing(within: 0.05)

            // The game goes on from "p" with the same player to move.
            try game.play("e")
            #expect(game.fragment == "pe")
            try game.play("a")
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        }
    }

    @Test("Errors outside a game, for each error code, change nothing")
    func errorsOutsideAGame() throws {
        try E2E.withDaemon { daemon in
            let c = try LineClient(port: daemon.port, label: "anon")
            // Before NAME.
            for (line, code) in [("p", "not-in-game"), ("LETTER p", "not-in-game"), ("SEEK", "no-name"), ("NEW", "no-name"),
                                 ("JOIN ABCDE", "no-name"), ("LEAVE", "not-in-game"), ("NAME", "bad-arguments"),
                                 ("NAME a b", "bad-password-form"), ("NAME a 12345678", "not-registered"), ("NAME bad!name", "bad-name"),
                                 ("NAME abcdefghijklmnopq", "bad-name"), ("NAME jösé", "bad-name"),
                                 ("PING x", "bad-arguments"), ("HELP me", "bad-arguments"), ("JOIN", "bad-arguments"),
                                 ("LANG", "bad-arguments"), ("LANG xx", "unknown-language"), ("LANG EN", "OK"),
                                 ("FOO bar", "unknown-command"), ("7", "not-a-letter")] {
                try c.send(line)
                if code == "OK" {
                    try c.expect("OK LANG lang=en")
                } else {
                    try c.expectError(code)
                }
            }
            try c.expectNothing(within: 0.1)

            let name = E2E.name("solo")
            try c.login(name)
            let p = Player(name: name, client: c)
            try p.send("JOIN 00000")              // five characters: never a code (they have eight)
            try p.expectError("no-such-game")
            let code = try Game.openGame(p)
            // Protocol.md §6: own-game is the answer to JOIN with your own code.
            try p.send("JOIN \(code)")
            let own = try p.client.readLine()
            #expect(own.hasPrefix("ERR own-game "), "JOIN of one's own code: expected ERR own-game, got `\(own)`")
            for (line, code) in [("NEW", "busy"), ("SEEK", "busy"), ("NAME other", "busy"), ("LANG nl", "busy"),
                                 ("JOIN 00000", "busy"), ("e", "not-in-game")] {
                try p.send(line)
                try p.expectError(code)
            }
            // Still hosting the same code: someone else can join it.
            let guest = try E2E.player(daemon, "guest")
            try guest.send("JOIN \(code)")
            try guest.expect("OK JOIN code=\(code) lang=en")
            _ = try Game.expectStart(players: [p, guest], lang: "en")
            // The code is used up.
            let third = try E2E.player(daemon, "third")
            try third.send("JOIN \(code)")
            try third.expectError("no-such-game")
            try p.send("NAME other")
            try p.expectError("busy")
            try guest.expectNothing(within: 0.1)
        }
    }

    @Test("CRLF and LF both work; blank lines get no reply; verbs are case-insensitive")
    func framingAndCase() throws {
        try E2E.withDaemon { daemon in
            let c = try LineClient(port: daemon.port, label: "framing")
            try c.send("PING\r\n")
            try c.expect("OK PING")
            try c.send("PING\n")
            try c.expect("OK PING")
            for blank in ["\n", "\r\n", "   \n", "\t \t\r\n"] { try c.send(blank) }
            try c.expectNothing(within: 0.3)
            for verb in ["ping", "Ping", "pInG", "  PING  ", "PING\t"] {
                try c.send(verb)
                try c.expect("OK PING")
            }
            // Several lines in one write, and one line split across writes.
            try c.sendRaw(Array("PING\r\nping\n\nPING\n".utf8))
            try c.expect(lines: ["OK PING", "OK PING", "OK PING"])
            try c.sendRaw(Array("PI".utf8))
            try c.expectNothing(within: 0.15)
            try c.sendRaw(Array("NG\r".utf8))
            try c.expectNothing(within: 0.15)
            try c.sendRaw([0x0A])
            try c.expect("OK PING")

            let name = E2E.name("case")
            try c.send("name \(name)")
            try c.expect("OK NAME name=\(name) lang=en")
            try c.send("help")
            let (infos, last) = try c.readUntil(prefix: "OK ")
            #expect(last == "OK HELP")
            #expect(infos.count >= 10 && infos.allSatisfy { $0.hasPrefix("HELP ") }, "\(infos)")
            for verb in ["NAME", "NAMES", "LANG", "SEEK", "NEW", "JOIN", "LETTER", "LEAVE", "RESTART", "ACCEPT", "DECLINE",
                         "RESUME", "CLAIM", "REMATCH", "SCORES", "HELP", "PING", "QUIT"] {
                #expect(infos.contains { $0.hasPrefix("HELP \(verb) ") }, "HELP lacks \(verb): \(infos)")
            }
            // QUIT adjourns a game (Protocol.md §3, §7); HELP must not say it is lost.
            let quit = infos.first { $0.hasPrefix("HELP QUIT ") } ?? ""
            #expect(!quit.contains("lost"), "HELP says: \(quit)")
            try c.send("Quit")
            try c.expect(lines: ["OK QUIT", "BYE quit goodbye"])
            try c.expectClosed()
        }
    }

    @Test("Lines up to 512 bytes with their end are accepted; longer ones are refused once")
    func lineLengthBoundary() throws {
        try E2E.withDaemon { daemon in
            let c = try LineClient(port: daemon.port, label: "boundary")
            try c.send("PING" + String(repeating: " ", count: 507))          // 511 + LF = 512
            try c.expect("OK PING")
            try c.send("PING" + String(repeating: " ", count: 506) + "\r\n") // 510 + CRLF = 512
            try c.expect("OK PING")
            try c.send("PING" + String(repeating: " ", count: 508))          // 512 + LF = 513
            try c.expectError("line-too-long")
            try c.expectNothing(within: 0.2)
            try c.ping()
        }
    }

    @Test("A 1 MB line gets one ERR line-too-long; other clients play meanwhile; the sender is still served")
    func megabyteLine() throws {
        try E2E.withDaemon { daemon in
            let blob = try LineClient(port: daemon.port, label: "blob")
            var game = try Game.privateGame(host: try E2E.player(daemon, "host"), guest: try E2E.player(daemon, "guest"))
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 16 * 1024)
            let total = 1024 * 1024
            var sent = 0
            var step = 0
            let letters = Array("pea")
            while sent < total {
                try blob.sendRaw(chunk, timeout: 10)   // keep going even after the server's ERR
                sent += chunk.count
                // Every 128 KiB, the others play a letter or PING.
                if sent % (128 * 1024) == 0 {
                    if step < letters.count {
                        try game.play(letters[step])
                    } else {
                        for p in game.players { try p.client.ping() }
                    }
                    step += 1
                }
            }
            try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
            for p in game.players { try p.client.ping() }

            try blob.expectError("line-too-long")
            try blob.expectNothing(within: 0.3)
            try blob.send("\n")                    // ends the discarded line: no reply
            try blob.expectNothing(within: 0.2)
            try blob.ping()
            let name = E2E.name("blob")
            try blob.login(name)
            try blob.expectNothing(within: 0.1)
        }
    }

    @Test("NAME is unique among live connections, case-insensitively; free again after disconnect")
    func nameCollision() throws {
        try E2E.withDaemon { daemon in
            let name = E2E.name("Zed")
            let holder = try LineClient(port: daemon.port, label: "holder")
            try holder.login(name)
            let other = try LineClient(port: daemon.port, label: "other")
            for variant in [name, name.lowercased(), name.uppercased()] {
                try other.send("NAME \(variant)")
                try other.expectError("name-taken")
            }
            // The holder may change the case of its own name.
            try holder.login(name.uppercased())
            try other.send("NAME \(name)")
            try other.expectError("name-taken")

            // Abrupt close: once the daemon has logged the close, the name is free.
            let opened = try #require(daemon.waitForStderrLine { $0.contains("opened from 127.0.0.1:\(holder.localPort)") },
                                      "no `opened from` log line for port \(holder.localPort)")
            let connID = try #require(Self.connectionID(in: opened))
            holder.close()
            #expect(daemon.waitForStderrLine { $0.contains("connection \(connID) closed") } != nil,
                    "no close log line for connection \(connID)")
            try other.login(name.lowercased())

            // QUIT: once the quitter sees EOF, the name is free.
            let third = try LineClient(port: daemon.port, label: "third")
            try third.send("NAME \(name)")
            try third.expectError("name-taken")
            try other.send("QUIT")
            try other.expect(lines: ["OK QUIT", "BYE quit goodbye"])
            try other.expectClosed()
            try third.login(name)
        }
    }

    static func connectionID(in line: String) -> Int? {
        guard let r = line.range(of: "connection ") else { return nil }
        return Int(line[r.upperBound...].prefix(while: \.isNumber))
    }
}
