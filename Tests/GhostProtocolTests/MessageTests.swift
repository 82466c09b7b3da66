import Testing
import GhostProtocol

@Suite struct MessageTests {
    static let cases: [(ServerLine, String)] = [
        (.hello(version: "0.1.0", protocolVersion: 1, languages: ["en", "nl"]),
         "HELLO ghostd/0.1.0 protocol=1 languages=en,nl"),
        (.ok("PING"), "OK PING"),
        (.ok("NAME", ("name", "alice")), "OK NAME name=alice"),
        (.ok("NEW", ("code", "ABCDE"), ("lang", "en")), "OK NEW code=ABCDE lang=en"),
        (.ok("LETTER", ("letter", "x"), ("fragment", "pex")), "OK LETTER letter=x fragment=pex"),
        (.ok(verb: "SEEK", fields: [("lang", "nl")]), "OK SEEK lang=nl"),
        (.error(.notYourTurn, "it is bob's turn"), "ERR not-your-turn it is bob's turn"),
        (.error(.lineTooLong, "too long"), "ERR line-too-long too long"),
        (.info("Waiting for another player."), "INFO Waiting for another player."),
        (.game(id: 1, lang: "en", players: ["alice", "bob"]), "GAME id=1 lang=en players=alice,bob"),
        (.turn(id: 1, player: "alice", fragment: ""), "TURN id=1 player=alice fragment="),
        (.turn(id: 12, player: "bob", fragment: "pea"), "TURN id=12 player=bob fragment=pea"),
        (.move(id: 2, player: "bob", letter: "e", fragment: "pe"), "MOVE id=2 player=bob letter=e fragment=pe"),
        (.over(id: 3, winner: "a", loser: "b", reason: "word", fragment: "pear"),
         "OVER id=3 winner=a loser=b reason=word fragment=pear"),
        (.over(id: 4, winner: "bob", loser: "alice", reason: "left", fragment: ""),
         "OVER id=4 winner=bob loser=alice reason=left fragment="),
    ]

    @Test(arguments: MessageTests.cases)
    func rendering(_ line: ServerLine, _ expected: String) {
        #expect(line.rendered == expected)
        #expect(line.message.rendered == expected)
        #expect(line.message.description == expected)
    }

    @Test(arguments: MessageTests.cases)
    func wireBytesEndWithCRLF(_ line: ServerLine, _ expected: String) {
        let wire = line.message.wireBytes
        #expect(wire == Array((expected + "\r\n").utf8))
        #expect(wire.suffix(2) == [0x0D, 0x0A])
        #expect(!wire.dropLast(2).contains(0x0A))
        #expect(!wire.dropLast(2).contains(0x0D))
    }

    @Test(arguments: MessageTests.cases)
    func parseRoundTrips(_ line: ServerLine, _ expected: String) throws {
        let parsed = try #require(Message.parse(expected))
        #expect(parsed == line.message)
        #expect(parsed.rendered == expected)
    }

    @Test func errorWithEmptyTextHasNoTrailingSpace() {
        #expect(ServerLine.error(.busy, "").rendered == "ERR busy")
        #expect(ServerLine.info("").rendered == "INFO")
    }

    @Test func controlCharactersInFreeTextBecomeSpaces() {
        #expect(ServerLine.info("a\u{1B}[31mb\nc\rd\te\u{0}f\u{7F}g\u{9B}h\u{85}i").rendered
                == "INFO a [31mb c d e f g h i")
        #expect(ServerLine.error(.badName, "bad\r\nname").rendered == "ERR bad-name bad  name")
        // Non-control non-ASCII text is kept.
        #expect(ServerLine.info("caf\u{E9} id\u{E9}e\u{EB}n").rendered == "INFO caf\u{E9} id\u{E9}e\u{EB}n")
    }

    @Test func controlCharactersAndSpacesInValuesBecomeUnderscores() {
        #expect(ServerLine.turn(id: 1, player: "a b\u{7}", fragment: "").rendered == "TURN id=1 player=a_b_ fragment=")
        #expect(ServerLine.game(id: 2, lang: "e\nn", players: ["x\u{1B}y", "z\u{9B}"]).rendered
                == "GAME id=2 lang=e_n players=x_y,z_")
        #expect(ServerLine.ok("NAME", ("name", "a\tb\u{7F}")).rendered == "OK NAME name=a_b_")
        #expect(ServerLine.over(id: 1, winner: "w w", loser: "l\r\nl", reason: "word", fragment: "pe a").rendered
                == "OVER id=1 winner=w_w loser=l__l reason=word fragment=pe_a")
        #expect(Message("X y\u{1B}").rendered == "X_y_")
    }

    @Test func parseErrFields() throws {
        let m = try #require(Message.parse("ERR not-your-turn it is bob's turn"))
        #expect(m.keyword == "ERR")
        #expect(m.words == ["not-your-turn"])
        #expect(m.text == "it is bob's turn")
        #expect(m.fields.isEmpty)
        let bare = try #require(Message.parse("ERR busy"))
        #expect(bare.words == ["busy"])
        #expect(bare.text == nil)
        // Free text may hold '=' and still is text.
        let eq = try #require(Message.parse("ERR bad-arguments usage: a=b"))
        #expect(eq.text == "usage: a=b")
        #expect(eq.fields.isEmpty)
    }

    @Test func parseInfo() throws {
        let m = try #require(Message.parse("INFO \"pear\" is a word longer than 3 letters, so bob loses."))
        #expect(m.keyword == "INFO")
        #expect(m.words.isEmpty)
        #expect(m.fields.isEmpty)
        #expect(m.text == "\"pear\" is a word longer than 3 letters, so bob loses.")
        let info = ServerLine.info("x=1 is text")
        #expect(Message.parse(info.rendered) == info.message)
    }

    @Test func parseFields() throws {
        let m = try #require(Message.parse("OVER id=3 winner=a loser=b reason=word fragment=pear"))
        #expect(m.keyword == "OVER")
        #expect(m.words.isEmpty)
        #expect(m["id"] == "3")
        #expect(m["winner"] == "a")
        #expect(m["loser"] == "b")
        #expect(m["reason"] == "word")
        #expect(m["fragment"] == "pear")
        #expect(m["nope"] == nil)
        #expect(m.fields.map(\.key) == ["id", "winner", "loser", "reason", "fragment"])
        let t = try #require(Message.parse("TURN id=1 player=alice fragment="))
        #expect(t["fragment"] == "")
        let h = try #require(Message.parse("HELLO ghostd/0.1.0 protocol=1 languages=en,nl"))
        #expect(h.words == ["ghostd/0.1.0"])
        #expect(h["languages"] == "en,nl")
        #expect(Message.parse("") == nil)
        #expect(Message.parse("   ") == nil)
    }

    @Test func fieldOrderMattersForEquality() {
        let a = Message("OK", ["X"], fields: [("a", "1"), ("b", "2")])
        let b = Message("OK", ["X"], fields: [("b", "2"), ("a", "1")])
        #expect(a != b)
        #expect(a == Message("OK", ["X"], fields: [("a", "1"), ("b", "2")]))
        #expect(ServerLine.ok("NAME", ("name", "a")) != ServerLine.ok("NAME", ("name", "b")))
    }
}
