import Testing
import GhostProtocol

/// `Message`: a server line split into keyword, words, fields and text,
/// for tools and tests (clients decode `ServerLine`s).
@Suite struct MessageTests {
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
        #expect(Message.parse("INFO x=1 is text")?.text == "x=1 is text")
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
    }
}
