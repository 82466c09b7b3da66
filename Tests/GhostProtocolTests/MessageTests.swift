import Testing
import GhostProtocol
import GhostCore

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
        (.game(id: 1, lang: "en", players: ["alice", "bob"], token: nil, round: 1),
         "GAME id=1 lang=en players=alice,bob round=1"),
        (.game(id: 1, lang: "en", players: ["alice", "bob"], token: "0123456789abcdef0123456789abcdef", round: 1),
         "GAME id=1 lang=en players=alice,bob token=0123456789abcdef0123456789abcdef round=1"),
        (.game(id: 7, lang: "nl", players: ["bob", "alice"], token: "ff", round: 3),
         "GAME id=7 lang=nl players=bob,alice token=ff round=3"),
        (.turn(id: 1, player: "alice", fields: [Field("fragment", "")]), "TURN id=1 player=alice fragment="),
        (.turn(id: 12, player: "bob", fields: [Field("fragment", "pea")]), "TURN id=12 player=bob fragment=pea"),
        (.move(id: 2, player: "bob", fields: [Field("letter", "e"), Field("fragment", "pe")]), "MOVE id=2 player=bob letter=e fragment=pe"),
        (.over(id: 3, winner: "a", loser: "b", reason: EndReason(rawValue: "word"), fields: [Field("fragment", "pear")]),
         "OVER id=3 winner=a loser=b reason=word fragment=pear"),
        (.over(id: 4, winner: "bob", loser: "alice", reason: EndReason(rawValue: "left"), fields: [Field("fragment", "")]),
         "OVER id=4 winner=bob loser=alice reason=left fragment="),
        (.over(id: 5, winner: "bob", loser: "alice", reason: EndReason(rawValue: "abandoned"), fields: [Field("fragment", "pe")]),
         "OVER id=5 winner=bob loser=alice reason=abandoned fragment=pe"),
        (.adjourned(id: 1, player: "alice", grace: 60), "ADJOURNED id=1 player=alice grace=60"),
        (.adjourned(id: 2, player: "bob", grace: 0), "ADJOURNED id=2 player=bob grace=0"),
        (.returned(id: 1, player: "alice"), "RETURNED id=1 player=alice"),
        (.claimable(id: 3, player: "bob"), "CLAIMABLE id=3 player=bob"),
        (.offer(id: 1, player: "alice", kind: "restart", lang: nil), "OFFER id=1 player=alice kind=restart"),
        (.offer(id: 1, player: "bob", kind: "lang", lang: "nl"), "OFFER id=1 player=bob kind=lang lang=nl"),
        (.accepted(id: 1, player: "bob", kind: "restart"), "ACCEPTED id=1 player=bob kind=restart"),
        (.accepted(id: 2, player: "alice", kind: "lang"), "ACCEPTED id=2 player=alice kind=lang"),
        (.declined(id: 1, player: "bob", kind: "restart"), "DECLINED id=1 player=bob kind=restart"),
        (.declined(id: 4, player: "alice", kind: "lang"), "DECLINED id=4 player=alice kind=lang"),
        (.rematch(id: 1, player: "alice"), "REMATCH id=1 player=alice"),
        (.rank(name: "alice", rank: 1, wins: 3), "RANK name=alice rank=1 wins=3"),
        (.rank(name: "bob", rank: 2, wins: 0), "RANK name=bob rank=2 wins=0"),
        (.nameEntry("Alice"), "NAME name=Alice"),
        (.score(rank: 1, name: "alice", wins: 3, played: 4), "SCORE rank=1 name=alice wins=3 played=4"),
        (.score(rank: 2, name: "bob", wins: 0, played: 1), "SCORE rank=2 name=bob wins=0 played=1"),
        (.ok("NAME", ("name", "alice"), ("lang", "en")), "OK NAME name=alice lang=en"),
        (.ok("RESUME", ("id", "1")), "OK RESUME id=1"),
        (.ok("RESTART", ("status", "offered")), "OK RESTART status=offered"),
        (.ok("LANG", ("lang", "nl"), ("status", "done")), "OK LANG lang=nl status=done"),
        (.ok("NAMES", ("count", "2")), "OK NAMES count=2"),
        (.error(.badToken, "no game in progress has that token"), "ERR bad-token no game in progress has that token"),
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

    /// The direct renderer the server uses writes exactly what `Message` writes.
    @Test(arguments: MessageTests.cases + MessageTests.hostileCases)
    func directRenderingMatchesMessage(_ line: ServerLine, _ expected: String) {
        var direct: [UInt8] = []
        line.appendWire(to: &direct)
        #expect(direct == line.message.wireBytes)
        if !expected.isEmpty { #expect(direct == Array((expected + "\r\n").utf8)) }
    }

    /// Odd values in every field of the lines with a direct renderer (no
    /// expected text: the check is against `Message`).
    static let hostileCases: [(ServerLine, String)] = {
        let odd = ["", "a b", "x\u{1B}[2Jy", "tab\there", "\u{85}c1", "n\u{FC}n", "line\r\nbreak", "\u{7F}", "=", "a,b"]
        var out: [(ServerLine, String)] = []
        for s in odd {
            out.append((.ok(verb: s, fields: [(s, s), ("k", s)]), ""))
            out.append((.turn(id: -5, player: s, fields: [Field("fragment", s), Field("ghost", GhostKind.letters([0, 5]))]), ""))
            out.append((.turn(id: Int.max, player: s, fields: [Field("fragment", s)]), ""))
            out.append((.move(id: Int.min, player: s, fields: [Field("letter", s), Field("fragment", s)]), ""))
            out.append((.over(id: 0, winner: s, loser: s, reason: EndReason(rawValue: s), fields: [Field("fragment", s), Field("ghost", GhostKind.letters([2, 9]))]), ""))
            out.append((.over(id: 10, winner: s, loser: s, reason: EndReason(rawValue: s), fields: [Field("fragment", s)]), ""))
            out.append((.game(id: 99, lang: s, players: [s, s], token: s, round: 12, bot: s, fields: [Field("rounds", "ghost"), Field("ghost", GhostKind.letters([1, 0]))]), ""))
            out.append((.game(id: 1, lang: s, players: [], token: nil, round: 0), ""))
            out.append((.info(s), ""))
            out.append((.error(.flood, s), ""))
            out.append((.rank(name: s, rank: 1_000_000, wins: -1), ""))
        }
        return out
    }()

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
        #expect(ServerLine.turn(id: 1, player: "a b\u{7}", fields: [Field("fragment", "")]).rendered == "TURN id=1 player=a_b_ fragment=")
        #expect(ServerLine.game(id: 2, lang: "e\nn", players: ["x\u{1B}y", "z\u{9B}"], token: nil, round: 1).rendered
                == "GAME id=2 lang=e_n players=x_y,z_ round=1")
        #expect(ServerLine.game(id: 2, lang: "en", players: ["a", "b"], token: "a b", round: 1).rendered
                == "GAME id=2 lang=en players=a,b token=a_b round=1")
        #expect(ServerLine.nameEntry("a b").rendered == "NAME name=a_b")
        #expect(ServerLine.offer(id: 1, player: "a", kind: "lang", lang: "n\tl").rendered
                == "OFFER id=1 player=a kind=lang lang=n_l")
        #expect(ServerLine.ok("NAME", ("name", "a\tb\u{7F}")).rendered == "OK NAME name=a_b_")
        #expect(ServerLine.over(id: 1, winner: "w w", loser: "l\r\nl", reason: EndReason(rawValue: "word"), fields: [Field("fragment", "pe a")]).rendered
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

    @Test func gameTokenIsOmittedWhenNil() throws {
        let without = ServerLine.game(id: 1, lang: "en", players: ["a", "b"], token: nil, round: 2)
        #expect(without.rendered == "GAME id=1 lang=en players=a,b round=2")
        #expect(without.message["token"] == nil)
        #expect(without.message.fields.map(\.key) == ["id", "lang", "players", "round"])
        let with = ServerLine.game(id: 1, lang: "en", players: ["a", "b"], token: "abc", round: 2)
        #expect(with.message.fields.map(\.key) == ["id", "lang", "players", "token", "round"])
        #expect(with.message["token"] == "abc")
        // Lines that differ only in the token are different lines.
        #expect(with != without)
        #expect(with != ServerLine.game(id: 1, lang: "en", players: ["a", "b"], token: "abd", round: 2))
        #expect(with != ServerLine.game(id: 1, lang: "en", players: ["a", "b"], token: "abc", round: 3))
        let parsed = try #require(Message.parse(with.rendered))
        #expect(parsed["round"] == "2")
        #expect(parsed["players"] == "a,b")
    }

    @Test func offerLangIsOmittedWhenNil() {
        #expect(ServerLine.offer(id: 1, player: "a", kind: "restart", lang: nil).message.fields.map(\.key)
                == ["id", "player", "kind"])
        #expect(ServerLine.offer(id: 1, player: "a", kind: "lang", lang: "nl").message.fields.map(\.key)
                == ["id", "player", "kind", "lang"])
    }

    @Test func nameDataLineIsKeywordNAME() throws {
        let m = try #require(Message.parse(ServerLine.nameEntry("bob").rendered))
        #expect(m.keyword == "NAME")
        #expect(m.words.isEmpty)
        #expect(m["name"] == "bob")
    }

    @Test func fieldOrderMattersForEquality() {
        let a = Message("OK", ["X"], fields: [("a", "1"), ("b", "2")])
        let b = Message("OK", ["X"], fields: [("b", "2"), ("a", "1")])
        #expect(a != b)
        #expect(a == Message("OK", ["X"], fields: [("a", "1"), ("b", "2")]))
        #expect(ServerLine.ok("NAME", ("name", "a")) != ServerLine.ok("NAME", ("name", "b")))
    }
}
