import Foundation
import GhostBench
import TestSupport
import Testing

/// Issue #47 under attack, a short version of `scripts/bench-social.sh`
/// (`ghost-bench attack`'s code): 2,000 registered names of which 2 are
/// followed by all the others (`Fixture.buildSocial`, through `Store`'s
/// API), then for 3 s, from 8 source addresses:
/// - 8 chatters in 4 games (NEW / JOIN) writing SAY lines flat out (the
///   same text again, format characters, 200 and 201 characters);
/// - 6 connections looping INVITE <victim> / LEAVE at one connected name,
///   which DECLINEs what reaches it;
/// - the 2 followed names logging in, FOLLOWing name after name, asking
///   FOLLOWING, and logging out and in again every 10 commands, while 40 of
///   their followers are logged in and hear ONLINE and OFFLINE
///   (`--presence-interval 0`: every change is told);
/// and a probe from 127.0.0.2 that PINGs every 25 ms.
///
/// No timing is asserted (the script measures): everyone is served. The
/// probe gets an exact `OK PING` for every PING; each class got replies of
/// its own kinds and the events it causes (SAID, INVITE, ONLINE/OFFLINE);
/// no line anyone got holds a control or format character; no attacker
/// went unanswered; the daemon still serves a newcomer.
@Suite("EndToEnd: between people under attack", .hangLimit)
struct EndToEndSocialAttackTests {
    @Test("chat floods, an invitation flood at one name, names with 1,998 followers coming and going: every PING answered, everyone served")
    func everyoneServed() async throws {
        try await TestSupport.onOwnThread { try Self.attack() }
    }

    static func attack() throws {
        let data = try DataDirectory()
        let social = try Fixture.buildSocial(directory: data.path, names: 2_000, stars: 2)
        #expect(social.follows == 2 * 1_998)
        try moveFixtureToTestStore(data.path)
        // Logins are the point here, not password hashing: no limit on hashes
        // (the fixture's hashes are MD5-crypt, checked in microseconds).
        let daemon = try DaemonProcess.start(extraArguments: ["--data", data.path, "--max-hashes-per-minute-per-ip", "0",
                                                              "--presence-interval", "0"], timeout: 60)
        defer { daemon.kill() }

        var settings = AttackBench.Settings()
        settings.port = daemon.port
        settings.seconds = 3
        settings.lookups = 0
        settings.floods = 0
        settings.chatters = 8
        settings.inviters = 6
        settings.stars = 2
        settings.fans = 40
        settings.socialNames = 2_000
        settings.starSession = 10
        settings.addresses = 8
        settings.drain = 30
        let phase = try AttackBench(settings: settings).phase(attack: true)
        let report = AttackBench.describe(phase)
        print("between people under attack: " + report)

        let probe = phase.probe
        #expect(probe.sent > 0 && probe.pongs == probe.sent && probe.rtts.count == probe.sent, "\(report)")
        #expect(probe.unexpectedCount == 0 && probe.ends.isEmpty && probe.connectFailures == 0, "\(report)")

        let chatters = phase.social["chatters"] ?? .init()
        #expect((chatters.replies["OK SAY"] ?? 0) > 0 && (chatters.lines["SAID"] ?? 0) > 0, "\(report)")
        #expect(Set(chatters.ends.keys).isSubset(of: ["open", "BYE flood"]), "\(report)")

        let inviters = phase.social["inviters"] ?? .init(), victim = phase.social["victim"] ?? .init()
        #expect((inviters.replies["OK INVITE"] ?? 0) > 0 && (victim.lines["INVITE"] ?? 0) > 0, "\(report)")
        #expect(Set(inviters.replies.keys).isSubset(of: ["OK NAME", "OK INVITE", "OK LEAVE", "ERR too-many-invites", "ERR unavailable",
                                                         "ERR not-in-game", "ERR no-game"]), "\(report)")
        #expect(Set(inviters.ends.keys).isSubset(of: ["open"]) && Set(victim.ends.keys).isSubset(of: ["open"]), "\(report)")

        let stars = phase.social["stars"] ?? .init(), fans = phase.social["fans"] ?? .init()
        #expect((stars.replies["OK FOLLOW"] ?? 0) > 0 && (stars.replies["OK FOLLOWING"] ?? 0) > 0, "\(report)")
        #expect((fans.replies["OK NAME"] ?? 0) == settings.fans, "\(report)")
        #expect((fans.lines["ONLINE"] ?? 0) + (fans.lines["OFFLINE"] ?? 0) > 0, "\(report)")

        for (label, c) in phase.social {
            #expect(c.silent == 0 && c.connectFailures == 0, "\(label): \(report)")
            #expect(c.tainted == 0, "\(label): \(report)")
        }

        #expect(daemon.isRunning)
        let fresh = try LineClient(port: daemon.port, label: "fresh", timeout: 30, source: "127.0.0.3")
        try fresh.send("PING")
        try fresh.expect("OK PING", timeout: 30)
    }
}
