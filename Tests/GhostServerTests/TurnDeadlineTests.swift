import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer

/// A TURN in a game without a clock says how long its
/// player has before the game is aborted (no first move, `abort_in=`) or may
/// be claimed (no move, `claim_in=`), so that a client can count it down;
/// a Hangman duel's setter, choosing a word, has three times the first
/// move's time. With the daemon's limits (60 s, 300 s), a manual clock.
@Suite("TURN countdowns in games without a clock", .ownThread)
struct TurnDeadlineTests {
    private func gameToken(_ lines: [String]?) throws -> String {
        let game = try #require(lines?.first { $0.hasPrefix("GAME ") })
        return try #require(Message.parse(game)?["token"])
    }

    /// alice and bob, with the daemon's limits, paired by `SEEK<options>`: what each got.
    private func seekPair(_ options: String = "") throws -> (Harness, [ConnectionID: [String]]) {
        let h = try Harness(settings: .daemonStalling())
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK" + options)
        h.send(2, "SEEK" + options)
        return (h, h.drain())
    }

    @Test("Between two people: abort_in=60 for each first move, then claim_in=300; RESUME's TURN says what is left")
    func twoPeople() throws {
        let (h, start) = try seekPair()
        let t = try gameToken(start[1])
        #expect(start[1]?.last == "TURN id=1 player=alice fragment= abort_in=60")
        #expect(start[2]?.last == "TURN id=1 player=alice fragment= abort_in=60")
        h.clock.advance(10)
        h.send(1, "p")
        #expect(h.drain()[2] == ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p abort_in=60"])
        h.send(2, "e")
        #expect(h.drain()[1] == ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe claim_in=300"])
        // 100 s later alice takes her seat from another connection: 200 s left.
        h.clock.advance(100)
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t)")
        #expect(h.drain()[3]?.last == "TURN id=1 player=alice fragment=pe last=bob claim_in=200")
    }

    @Test("Against the computer: the person's first move has abort_in=60; the computer's TURN and later ones have none (nobody claims)")
    func againstTheComputer() throws {
        var settings = Lobby.Settings.daemonStalling()
        settings.botDelay = 0
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        #expect(h.drain()[1]?.last == "TURN id=1 player=alice fragment= abort_in=60")
        h.send(1, "p")
        let after = h.drain()[1] ?? []
        #expect(after.filter { $0.hasPrefix("TURN ") } == ["TURN id=1 player=bot-hard fragment=p", "TURN id=1 player=alice fragment=pe"])
    }

    @Test("A game on a clock has its clock=, never a countdown of these")
    func onAClock() throws {
        let (_, start) = try seekPair(" clock=30")
        #expect(start[1]?.last == "TURN id=1 player=alice fragment= clock=30")
    }

    @Test("A Hangman duel: the setter choosing a word has abort_in=180 and is aborted only then; the guesser's first guess abort_in=60")
    func duelSetterHasLonger() throws {
        let h = try Harness(settings: .daemonStalling())
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=hangman mode=duel length=3")
        let code = try #require(Message.parse(h.drain()[1]?.first ?? "")?["code"])
        h.send(2, "JOIN \(code)")
        #expect(h.drain()[2]?.last == "TURN id=1 player=alice pattern= missed=- left=8 abort_in=180")
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 180)
        h.clock.advance(179)
        h.tick()
        #expect(h.drain() == [:])
        h.send(1, "WORD cat")
        #expect(h.drain()[2] == ["MOVE id=1 player=alice length=3 pattern=___ missed=- left=8",
                                 "TURN id=1 player=bob pattern=___ missed=- left=8 abort_in=60"])
        h.clock.advance(60)
        h.tick()
        let aborted = ["ABORTED id=1 reason=no-first-move",
                       "INFO bob did not make a first move in time: the game is aborted, nobody wins."]
        #expect(h.drain() == [1: aborted, 2: aborted])
    }

    @Test("The wire: abort_in= and claim_in= are read into TurnDeadline and written back the same")
    func wire() throws {
        for line in ["TURN id=1 player=alice fragment= abort_in=60", "TURN id=1 player=bob fragment=pe claim_in=300"] {
            let parsed = try #require(ServerLine(decoding: line))
            guard case let .turn(_, _, fields, clock, deadline) = parsed else { Issue.record("\(parsed)"); continue }
            #expect(clock == nil)
            #expect(fields.map(\.key) == ["fragment"])
            #expect(deadline == (line.hasSuffix("abort_in=60") ? .abort(60) : .claim(300)))
            #expect(parsed.rendered == line)
        }
    }
}
