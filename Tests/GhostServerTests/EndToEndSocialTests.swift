import Foundation
import Testing
import TestSupport

/// Between people over real sockets (issue #47): presence, invitations
/// accepted and declined, chat to the opponent and never to watchers, a
/// block that keeps a name's invitation and chat away, and hostile chat:
/// escape sequences, invalid UTF-8, over-long lines and floods. What must
/// NOT arrive is checked without waiting for a time: the receiver sends
/// PING after the sender's command was answered, and its next line must be
/// `OK PING` (the server answers in order, and the sender's events were
/// written in the turn that answered it).
@Suite("EndToEnd: friends, invitations, chat and blocking", .ownThread, .hangLimit)
struct EndToEndSocialTests {
    /// A registered name on a new connection.
    static func registered(_ daemon: DaemonProcess, _ base: String) throws -> LineClient {
        let name = E2E.name(base)
        let c = try LineClient(port: daemon.port, label: name)
        try c.login(name)
        try c.send("REGISTER password-of-\(name)")
        try c.expect("OK REGISTER name=\(name)", timeout: 30)
        return c
    }

    /// The name a client logged in with (its label).
    static func name(_ c: LineClient) -> String { c.label }

    /// Nothing more arrived for `c`: its PING is answered next.
    static func nothingFor(_ c: LineClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try c.send("PING", sourceLocation: sourceLocation)
        try c.expect("OK PING", sourceLocation: sourceLocation)
    }

    static func code(_ line: String) -> String {
        line.split(separator: " ").first { $0.hasPrefix("code=") }.map { String($0.dropFirst(5)) } ?? ""
    }

    @Test("ONLINE and OFFLINE; an invitation declined, one accepted and played; SAY to the opponent, never the watchers; watchers among themselves")
    func presenceInvitationsAndChat() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--presence-interval", "0"])
        defer { daemon.kill() }
        let ann = try Self.registered(daemon, "ann")
        var bob = try Self.registered(daemon, "bob")
        let a = Self.name(ann), b = Self.name(bob)
        try ann.send("FOLLOW \(b)")
        try ann.expect("OK FOLLOW name=\(b) online=yes")
        bob.close()
        try ann.expect("OFFLINE name=\(b)")
        bob = try LineClient(port: daemon.port, label: b)
        try bob.send("NAME \(b) password-of-\(b)")
        try bob.expect("OK NAME name=\(b) lang=en registered=yes", timeout: 30)
        try ann.expect("ONLINE name=\(b)")

        // Declined.
        try ann.send("INVITE \(b) clock=60")
        let ok = try ann.expectPrefix("OK INVITE code=")
        let c1 = Self.code(ok)
        #expect(ok == "OK INVITE code=\(c1) name=\(b) game=ghost lang=en clock=60")
        try ann.expect("INFO Invited \(b): the game starts when they JOIN \(c1); LEAVE to take the invitation back.")
        try bob.expect("INVITE from=\(a) code=\(c1) game=ghost lang=en clock=60")
        try bob.send("DECLINE \(c1)")
        try bob.expect("OK DECLINE code=\(c1)")
        try ann.expect(lines: ["DECLINED name=\(b) code=\(c1)", "INFO \(b) declined your invitation."])

        // Accepted and played.
        try ann.send("INVITE \(b)")
        let c2 = Self.code(try ann.expectPrefix("OK INVITE code="))
        _ = try ann.expectPrefix("INFO Invited")
        try bob.expect("INVITE from=\(a) code=\(c2) game=ghost lang=en")
        try bob.send("JOIN \(c2)")
        try bob.expect("OK JOIN code=\(c2) lang=en")
        _ = try ann.expectPrefix("GAME id=1 ")
        _ = try ann.expectPrefix("TURN id=1 ")
        _ = try bob.expectPrefix("GAME id=1 ")
        _ = try bob.expectPrefix("TURN id=1 ")
        let watcher = try LineClient(port: daemon.port, label: "cy")
        try watcher.login("cy")
        try watcher.send("WATCH 1")
        _ = try watcher.readUntil(prefix: "TURN id=1")
        let other = try LineClient(port: daemon.port, label: "dan")
        try other.login("dan")
        try other.send("WATCH 1")
        _ = try other.readUntil(prefix: "TURN id=1")

        try ann.send("SAY good luck!")
        _ = try ann.readUntil(prefix: "OK SAY")   // (WATCHERS events come too)
        _ = try bob.readUntil(prefix: "SAID ")
        #expect(bob.received.last == "SAID id=1 player=\(a) - good luck!")
        try watcher.send("SAY who wins?")
        _ = try watcher.readUntil(prefix: "OK SAY")
        #expect(try other.readUntil(prefix: "SAID ").line == "SAID id=1 player=cy watcher=yes - who wins?")
        // Neither players' chat reached a watcher, nor a watcher's a player.
        for c in [watcher, other] {
            try c.send("PING")
            #expect(try c.readUntil(prefix: "OK PING").line == "OK PING")
            #expect(!c.received.contains { $0.hasPrefix("SAID id=1 player=\(a)") })
        }
        for c in [ann, bob] {
            try c.send("PING")
            _ = try c.readUntil(prefix: "OK PING")
            #expect(!c.received.contains { $0.hasPrefix("SAID id=1 player=cy") })
        }
    }

    @Test("A blocked name: its invitation is refused as if you were offline, its SAY never reaches you, and SEEK never pairs you")
    func blocking() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let ann = try LineClient(port: daemon.port, label: "ann")
        try ann.login("ann")
        let bob = try LineClient(port: daemon.port, label: "bob")
        try bob.login("bob")
        try bob.send("BLOCK ann")
        try bob.expect("OK BLOCK name=ann")
        try ann.send("INVITE bob")
        try ann.expect("ERR unavailable bob is not online")
        try ann.send("INVITE zed")
        try ann.expect("ERR unavailable zed is not online")
        try Self.nothingFor(bob)
        // In a game by a code (a block keeps no game away that you join yourself), chat is dropped.
        try ann.send("NEW")
        let code = Self.code(try ann.expectPrefix("OK NEW code="))
        _ = try ann.expectPrefix("INFO ")
        try bob.send("JOIN \(code)")
        try bob.expect("OK JOIN code=\(code) lang=en")
        _ = try bob.readUntil(prefix: "TURN id=1")
        _ = try ann.readUntil(prefix: "TURN id=1")
        try ann.send("SAY can you hear me?")
        try ann.expect("OK SAY")
        try Self.nothingFor(bob)
        try bob.send("SAY yes")
        try bob.expect("OK SAY")
        try ann.expect("SAID id=1 player=bob - yes")
        try ann.send("LEAVE")
        _ = try ann.readUntil(prefix: "OK LEAVE")
        // SEEK: never paired with each other; a third seeker is.
        try ann.send("SEEK")
        _ = try ann.readUntil(prefix: "OK SEEK")
        try bob.send("SEEK")
        _ = try bob.readUntil(prefix: "OK SEEK")
        let cy = try LineClient(port: daemon.port, label: "cy")
        try cy.login("cy")
        try cy.send("SEEK")
        try cy.expect("OK SEEK lang=en")
        #expect(try cy.readUntil(prefix: "GAME ").line.contains("players=ann,cy"))
    }

    @Test("Hostile chat: an escape sequence, invalid UTF-8 and a 10 KB line are refused; format characters are removed; no control character reaches the other player; a flood is slowed and dropped while the other player is served")
    func hostileChat() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let ann = try E2E.player(daemon, "ann")
        let bob = try E2E.player(daemon, "bob")
        _ = try Game.privateGame(host: ann, guest: bob)
        try ann.client.sendRaw(Array("SAY \u{1B}[2J\u{1B}]0;owned\u{07}hi\r\n".utf8))
        _ = try ann.client.expectError("bad-character")
        try ann.client.sendRaw(Array("SAY caf".utf8) + [0xC3, 0x28] + Array("\r\n".utf8))
        _ = try ann.client.expectError("bad-encoding")
        try ann.client.sendRaw(Array("SAY ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_240) + Array("\r\n".utf8))
        _ = try ann.client.expectError("line-too-long")
        try ann.client.send("SAY \u{202E}evil\u{200B}text\u{2066}")
        try ann.client.expect("OK SAY")
        try bob.client.expect("SAID id=1 player=\(ann.name) - eviltext")
        try Self.nothingFor(bob.client)
        for line in bob.client.received {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
        }
        // One connection floods its opponent with the same line: it is slowed, then dropped; bob is served throughout.
        let flood = Array(String(repeating: "SAY spam spam spam\r\n", count: 2_000).utf8)
        _ = ann.client.trySendRaw(flood)
        for _ in 0..<20 {
            try bob.client.send("PING")
            _ = try bob.client.readUntil(prefix: "OK PING")
        }
        #expect(try ann.client.readUntil(prefix: "BYE ", timeout: 60).line == "BYE flood over 50 command units a second for 10 s; slow down")
        try ann.client.expectClosed(timeout: 10)
    }
}
