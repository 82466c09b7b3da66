import Foundation
import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer
import GhostStore

/// Friends, invitations, chat, blocking and the operator's sanctions
/// (issue #47) in the lobby, with a real store and a manual clock.
@Suite("Lobby: follows and presence, invitations, chat, blocks, reports, mutes and bans", .ownThread)
struct LobbySocialTests {
    /// A registered name on connection `id`.
    private func registered(_ h: Harness, _ id: ConnectionID, _ name: String) {
        h.named(id, name)
        h.send(id, "REGISTER password-of-\(name)")
        #expect(h.drain()[id] == ["OK REGISTER name=\(name)"])
    }

    /// The code of the INVITE event in `lines`.
    private func code(_ lines: [String]?) throws -> String {
        let line = try #require(lines?.first { $0.hasPrefix("INVITE ") })
        return try #require(Message.parse(line)?["code"])
    }

    @Test("FOLLOW needs two registered names; FOLLOWING shows who is online and playing; ONLINE and OFFLINE at most once a minute")
    func followAndPresence() throws {
        let h = try Harness()
        registered(h, 1, "ann")
        registered(h, 2, "bob")
        h.named(3, "cy")
        h.send(3, "FOLLOW bob")
        h.send(1, "FOLLOW cy")
        h.send(1, "FOLLOW ann")
        h.send(1, "FOLLOW Bob")
        #expect(h.drain() == [
            3: ["ERR not-registered FOLLOW is for registered names: REGISTER <password> first"],
            1: ["ERR not-registered cy is not a registered name: only those can be followed",
                "ERR bad-arguments you cannot follow yourself", "OK FOLLOW name=bob online=yes"],
        ])
        h.send(1, "FOLLOWING")
        #expect(h.drain() == [1: ["FRIEND name=bob online=yes", "OK FOLLOWING count=1"]])
        // bob leaves: ann hears it at once (nothing was told within the minute).
        h.disconnect(2)
        #expect(h.drain() == [1: ["OFFLINE name=bob"]])
        h.send(1, "FOLLOWING")
        #expect(h.drain() == [1: ["FRIEND name=bob online=no seen=\(h.clock.wall)", "OK FOLLOWING count=1"]])
        // Back within the minute: not told at once; at the minute's end, ONLINE (the state then).
        h.clock.advance(10)
        h.connect(4)
        h.send(4, "NAME bob password-of-bob")
        #expect(h.drain()[1] == nil)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 50)
        h.clock.advance(50)
        h.tick()
        #expect(h.drain() == [1: ["ONLINE name=bob"]])
        // Gone and back within the next minute: nothing at all.
        h.disconnect(4)
        h.clock.advance(5)
        h.connect(5)
        h.send(5, "NAME bob password-of-bob")
        h.checkPasswords()
        h.clock.advance(60)
        h.tick()
        #expect(h.drain()[1] == nil)
        // Playing a game that may be watched: FOLLOWING says which.
        h.named(6, "dan")
        h.send(5, "SEEK")
        h.send(6, "SEEK")
        _ = h.drain()
        h.send(1, "FOLLOWING")
        #expect(h.drain() == [1: ["FRIEND name=bob online=yes playing=1", "OK FOLLOWING count=1"]])
        h.send(1, "UNFOLLOW bob")
        h.send(1, "FOLLOWING")
        #expect(h.drain() == [1: ["OK UNFOLLOW name=bob", "OK FOLLOWING count=0"]])
    }

    @Test("SET presence off: shown offline to followers, no events, no seen=; back on: ONLINE")
    func presenceOff() throws {
        var settings = Lobby.Settings()
        settings.presenceInterval = 0
        let h = try Harness(settings: settings)
        registered(h, 1, "ann")
        registered(h, 2, "bob")
        h.send(1, "FOLLOW bob")
        _ = h.drain()
        h.send(2, "SET presence off")
        #expect(h.drain() == [2: ["OK SET key=presence value=off"], 1: ["OFFLINE name=bob"]])
        h.send(1, "FOLLOWING")
        #expect(h.drain() == [1: ["FRIEND name=bob online=no", "OK FOLLOWING count=1"]])
        h.disconnect(2)
        #expect(h.drain()[1] == nil)
        h.connect(3)
        h.send(3, "NAME bob password-of-bob")
        #expect(h.drain()[1] == nil)
        h.send(3, "SET presence on")
        #expect(h.drain() == [3: ["OK SET key=presence value=on"], 1: ["ONLINE name=bob"]])
    }

    @Test("INVITE: the invitee gets the code, only it may JOIN; DECLINE tells the inviter; LEAVE and a disconnection withdraw it")
    func invitations() throws {
        let h = try Harness()
        h.named(1, "ann")
        h.named(2, "bob")
        h.named(3, "cy")
        h.send(1, "INVITE bob clock=30")
        let d = h.drain()
        let c = try code(d[2])
        #expect(d[1] == ["OK INVITE code=\(c) name=bob game=ghost lang=en clock=30",
                         "INFO Invited bob: the game starts when they JOIN \(c); LEAVE to take the invitation back."])
        #expect(d[2] == ["INVITE from=ann code=\(c) game=ghost lang=en clock=30"])
        h.send(3, "JOIN \(c)")
        h.send(3, "DECLINE \(c)")
        #expect(h.drain() == [3: ["ERR no-such-game no open private game has that code", "ERR no-such-game no invitation to you has that code"]])
        h.send(2, "DECLINE \(c.lowercased())")
        #expect(h.drain() == [2: ["OK DECLINE code=\(c)"], 1: ["DECLINED name=bob code=\(c)", "INFO bob declined your invitation."]])
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: ["ERR not-in-game you are not in a game, a seek or a private game"]])
        // Taken back: WITHDRAWN, by LEAVE and by going away.
        h.send(1, "INVITE bob")
        let c2 = try code(h.drain()[2])
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: ["OK LEAVE"], 2: ["WITHDRAWN from=ann code=\(c2)"]])
        h.send(1, "INVITE bob game=hangman")
        let c3 = try code(h.drain()[2])
        h.disconnect(1)
        #expect(h.drain() == [2: ["WITHDRAWN from=ann code=\(c3)"]])
        // Accepted: the game starts as any private game's; nothing is withdrawn.
        h.named(4, "ann")
        h.send(4, "INVITE bob")
        let c4 = try code(h.drain()[2])
        h.send(2, "JOIN \(c4)")
        let started = h.drain()
        #expect(started[2]?.first == "OK JOIN code=\(c4) lang=en")
        #expect(started[2]?.contains { $0.hasPrefix("WITHDRAWN") } == false)
        #expect(h.lobby.invitations.count == 0)
    }

    @Test("INVITE refusals: offline and blocking read the same; in a game; friends only; nobody; yourself; the computer; the caps")
    func inviteRefusals() throws {
        var settings = Lobby.Settings()
        settings.maxInvitesPerName = 2
        settings.maxInvitesPerNetwork = 3
        let h = try Harness(settings: settings)
        registered(h, 1, "ann")
        registered(h, 2, "bob")
        h.send(1, "INVITE zed")
        h.send(1, "INVITE ann")
        h.send(1, "INVITE bob bot=easy")
        #expect(h.drain() == [1: ["ERR unavailable zed is not online", "ERR bad-arguments you cannot invite yourself",
                                  "ERR bad-arguments INVITE plays a person: to play the computer, NEW bot=<level>"]])
        h.send(2, "BLOCK ann")
        h.send(1, "INVITE bob")
        #expect(h.drain() == [2: ["OK BLOCK name=ann"], 1: ["ERR unavailable bob is not online"]])
        h.send(2, "UNBLOCK ann")
        h.send(2, "SET invites friends")
        h.send(1, "INVITE bob")
        #expect(h.drain() == [2: ["OK UNBLOCK name=ann", "OK SET key=invites value=friends"],
                              1: ["ERR unavailable bob takes invitations from friends only"]])
        h.send(2, "FOLLOW ann")
        _ = h.drain()
        h.send(1, "INVITE bob")
        #expect(h.drain()[2]?.first?.hasPrefix("INVITE from=ann") == true)
        h.send(1, "LEAVE")
        h.send(2, "SET invites nobody")
        h.send(1, "INVITE bob")
        #expect(h.drain()[1]?.last == "ERR unavailable bob takes no invitations")
        h.send(2, "SET invites anyone")
        // Caps: two open to bob; three from one network.
        for (id, name) in [(3, "c1"), (4, "c2"), (5, "c3")] { h.named(id, name) }
        h.send(3, "INVITE bob")
        h.send(4, "INVITE bob")
        h.send(5, "INVITE bob")
        var d = h.drain()
        #expect(d[5] == ["ERR too-many-invites bob has 2 invitations open; try again later"])
        h.send(5, "INVITE ann")
        h.named(6, "c4")
        h.send(6, "INVITE ann")
        d = h.drain()
        #expect(d[6] == ["ERR too-many-invites your address has 3 invitations open; LEAVE one first"])
        // In a game.
        h.send(3, "LEAVE")
        h.send(4, "LEAVE")
        h.send(5, "LEAVE")
        h.send(2, "SEEK")
        h.send(6, "SEEK")
        _ = h.drain()
        h.send(1, "INVITE bob")
        #expect(h.drain()[1] == ["ERR unavailable bob is in a game"])
    }

    @Test("SAY: to the opponent, never the watchers; among watchers, never the players; blocked, chat off: dropped and OK all the same")
    func chat() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.named(3, "cy")
        h.named(4, "dan")
        h.send(3, "WATCH 1")
        h.send(4, "WATCH 1")
        _ = h.drain()
        h.send(1, "SAY good luck, bob \u{202E}!")
        #expect(h.drain() == [1: ["OK SAY"], 2: ["SAID id=1 player=alice - good luck, bob !"]])
        h.send(3, "SAY  she will win ")
        #expect(h.drain() == [3: ["OK SAY"], 4: ["SAID id=1 player=cy watcher=yes - she will win"]])
        h.send(2, "BLOCK alice")
        h.send(1, "SAY are you there?")
        h.send(4, "SET chat off")
        h.send(3, "SAY hello")
        #expect(h.drain() == [2: ["OK BLOCK name=alice"], 1: ["OK SAY"], 4: ["OK SET key=chat value=off"], 3: ["OK SAY"]])
        h.named(5, "eve")
        h.send(5, "SAY anyone?")
        h.send(5, "SAY")
        h.send(5, "SAY \u{200B}")
        #expect(h.drain() == [5: ["ERR not-in-game SAY is for your game, or the game you watch", "ERR bad-arguments usage: SAY <text>",
                                  "ERR bad-arguments say something: the text is empty"]])
        let long = String(repeating: "é", count: 201)
        h.send(1, "SAY \(long)")
        #expect(h.drain() == [1: ["ERR bad-arguments a text is at most 200 characters"]])
        // A repeat costs more (the loop's budget reads the surcharge).
        _ = h.lobby.takeSurcharge()
        h.send(1, "SAY gg")
        #expect(h.lobby.takeSurcharge() == 0)
        h.send(1, "SAY GG")
        #expect(h.lobby.takeSurcharge() == ChatDesk.repeatSurcharge)
    }

    @Test("BLOCK: SEEK never pairs the two, either way; BLOCKS lists; a guest's blocks last as long as its connection")
    func blocksAndSeeks() throws {
        let h = try Harness()
        registered(h, 1, "ann")
        h.named(2, "bob")
        h.send(1, "BLOCK bob")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        var d = h.drain()
        #expect(d[1]?.contains { $0.hasPrefix("GAME") } == false && d[2]?.contains { $0.hasPrefix("GAME") } == false)
        h.named(3, "cy")
        h.send(3, "SEEK")
        d = h.drain()
        #expect(d[3]?.contains { $0.hasPrefix("GAME id=1") } == true && d[1]?.contains { $0.hasPrefix("GAME id=1") } == true)
        h.send(2, "LEAVE")
        h.send(2, "BLOCK dan")
        h.send(2, "BLOCKS")
        h.send(1, "BLOCKS")
        #expect(h.drain() == [2: ["OK LEAVE", "OK BLOCK name=dan", "BLOCKED name=dan", "OK BLOCKS count=1"],
                              1: ["BLOCKED name=bob", "OK BLOCKS count=1"]])
        // Stored for the registered name, across connections.
        h.disconnect(1)
        h.connect(4)
        h.send(4, "NAME ann password-of-ann")
        h.send(4, "BLOCKS")
        #expect(h.drain()[4]?.dropFirst() == ["OK NAME name=ann lang=en registered=yes", "BLOCKED name=bob", "OK BLOCKS count=1"])
    }

    @Test("REPORT stores the reason with the reported name's last lines to the reporter; at most so many a day")
    func reports() throws {
        var settings = Lobby.Settings()
        settings.maxReportsPerDay = 2
        let h = try Harness(settings: settings)
        try h.pairAliceAndBob()
        for text in ["hi", "you are bad", "really bad"] { h.send(2, "SAY \(text)") }
        h.send(1, "REPORT bob rude in chat")
        h.send(1, "REPORT nobody spam")
        h.send(1, "REPORT alice me")
        #expect(h.drain()[1]?.suffix(3) == ["OK REPORT name=bob", "ERR no-such-name nobody has used the name nobody here",
                                            "ERR bad-arguments you cannot report yourself"])
        let report = try #require(try h.store.socialStore.reports(limit: 10).first)
        #expect(report.reporter == "alice" && report.reported == "bob" && report.reason == "rude in chat" && report.game == 1)
        #expect(report.chat == ["hi", "you are bad", "really bad"])
        h.send(1, "REPORT bob again")
        h.send(1, "REPORT bob and again")
        #expect(h.drain()[1] == ["OK REPORT name=bob",
                                 "ERR too-many-reports you have made 2 reports in a day, the most there may be; the operator reads them"])
    }

    @Test("The operator: a ban closes the name's connection and refuses NAME; a mute refuses SAY; a network ban closes and refuses; lifted, all is as before")
    func sanctions() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        let until = h.clock.wall + 86_400
        #expect(try h.lobby.apply(.mute(name: "Alice", until: until)) == "Alice: muted until \(Moderation.shown(until))")
        h.send(1, "SAY hi")
        #expect(h.drain()[1] == ["ERR muted the server's operator muted you until \(Moderation.shown(until))"])
        #expect(try h.lobby.apply(.ban(name: "bob", until: nil)) == "bob: banned until lifted")
        #expect(h.outbox.closed.contains(2))
        h.connect(7)
        h.send(7, "NAME bob")
        #expect(h.drain()[7]?.last == "ERR banned the server's operator banned bob")
        #expect(try h.lobby.apply(.unban(name: "bob")) == "bob: mute and ban lifted")
        #expect(try h.lobby.apply(.unban(name: "alice")) == "alice: mute and ban lifted")
        h.send(1, "SAY hi")
        #expect(h.drain()[1] == ["OK SAY"])
        // A network: its connections close, and a new one is closed at once.
        h.connect(8, address: "203.0.113.9")
        _ = h.drain()
        #expect(try h.lobby.apply(.banNetwork(address: "203.0.113.7", until: nil))
                == "network 203.0.113.7 (from 203.0.113.7): banned until lifted; 0 connection(s) closed")
        #expect(try h.lobby.apply(.banNetwork(address: "203.0.113.9", until: nil))
                == "network 203.0.113.9 (from 203.0.113.9): banned until lifted; 1 connection(s) closed")
        h.connect(9, address: "203.0.113.9")
        #expect(h.outbox.closed.contains(8) && h.outbox.closed.contains(9))
        #expect(try h.lobby.apply(.unbanNetwork(address: "203.0.113.9")) == "network 203.0.113.9: ban lifted")
        h.connect(10, address: "203.0.113.9")
        #expect(!h.outbox.closed.contains(10))
        // A banned network is banned after a restart too (read at the start).
        let again = try Harness(directory: h.directory)
        again.connect(11, address: "203.0.113.7")
        #expect(again.outbox.closed.contains(11))
    }
}
