import Foundation
import Testing
import TestSupport

/// Registered names over real sockets: the two name attacks of
/// the issue, each now refused; the lines after a password wait for its
/// answer; and no password or hash ever reaches a reply or the log.
@Suite("End to end: registered names", .ownThread)
struct EndToEndAccountsTests {
    static let password = "champ's long password"

    /// `base`'s unique name, registered with `password` on a new connection.
    func registered(_ daemon: DaemonProcess, _ base: String) throws -> Player {
        let p = try E2E.player(daemon, base)
        try p.send("REGISTER \(Self.password)")
        try p.expect("OK REGISTER name=\(p.name)")
        return p
    }

    @Test("Spoiling a record: while champ is offline, NAME champ is password-required, a guess bad-password, and nothing can be played under it")
    func spoilingARecord() throws {
        // No backoff, so that the owner may log in right after the attacker's wrong guess.
        try E2E.withDaemon(extraArguments: ["--login-backoff-max", "0"]) { daemon in
            let champ = try registered(daemon, "champ")
            champ.client.close()
            #expect(daemon.waitUntilClosed(champ.client))
            let attacker = try LineClient(port: daemon.port, label: "attacker")
            try attacker.send("NAME \(champ.name)")
            try attacker.expect("ERR password-required \(champ.name) is registered: NAME \(champ.name) <password>")
            try attacker.send("NAME \(champ.name) a guessed password")
            try attacker.expect("ERR bad-password wrong password")
            try attacker.send("NEW bot=easy")
            try attacker.expect("ERR no-name send NAME <name> first")
            // The owner logs in with the password and plays.
            let back = try LineClient(port: daemon.port, label: "champ again")
            try back.send("NAME \(champ.name) \(Self.password)")
            try back.expect("OK NAME name=\(champ.name) lang=en registered=yes")
            try back.send("NEW bot=easy")
            try back.expect("OK NEW bot=easy lang=en")
        }
    }

    @Test("Forfeit by blocking resume: while ann is away, NAME ann is name-taken, so the impostor cannot start a game; ann's RESUME wins her seat back")
    func forfeitByBlockingResume() throws {
        try E2E.withDaemon { daemon in
            var game = try Game.privateGame(host: try E2E.player(daemon, "ann"), guest: try E2E.player(daemon, "bob"))
            try game.play("d")
            let ann = game.players[0]
            ann.client.close()
            try game.expectAdjourned(absent: 0)
            #expect(daemon.waitUntilClosed(ann.client))
            let impostor = try LineClient(port: daemon.port, label: "impostor")
            try impostor.send("NAME \(ann.name)")
            try impostor.expect("ERR name-taken \(ann.name) has a game waiting for its player, who comes back with RESUME")
            try impostor.send("NEW bot=easy")
            try impostor.expect("ERR no-name send NAME <name> first")
            game.players[0] = try E2E.resume(daemon, game, seat: 0)
            try game.players[1].send("CLAIM")
            try game.players[1].expectError("not-claimable")
            try impostor.expectNothing(within: 0.2)
        }
    }

    @Test("The lines after REGISTER wait for its answer: sent in one write, PING is answered after OK REGISTER")
    func linesWaitForThePassword() throws {
        try E2E.withDaemon { daemon in
            let p = try E2E.player(daemon, "waiter")
            try p.client.sendRaw(Array("REGISTER \(Self.password)\nPING\nNAME \(p.name)\nPASSWORD another password\nPING\n".utf8))
            try p.expect(lines: ["OK REGISTER name=\(p.name)", "OK PING", "OK NAME name=\(p.name) lang=en registered=yes",
                                 "OK PASSWORD", "OK PING"])
        }
    }

    @Test("No reply and no log line holds a password or a $y$ hash; a failed login is logged by name and address only")
    func nothingSecretShown() throws {
        try E2E.withDaemon(isolated: true) { daemon in
            let secrets = ["first secret words", "second secret words", "wrong secret words"]
            var seen: [String] = []
            func read(_ client: LineClient, _ count: Int) throws {
                for _ in 0..<count { seen.append(try client.readLine()) }
            }
            let a = try LineClient(port: daemon.port, label: "a")
            try a.send("NAME keeper")
            try a.send("REGISTER \(secrets[0])")
            try a.send("PASSWORD \(secrets[1])")
            try a.send("REGISTER \(secrets[1])")
            try read(a, 4)
            let b = try LineClient(port: daemon.port, label: "b")
            try b.send("NAME keeper \(secrets[2])")
            try b.send("NAME keeper \(secrets[0])")
            try b.send("NAME nobody \(secrets[0])")
            try b.send("REGISTER \(secrets[0]) \u{1}")
            try read(b, 4)
            try b.send("PING")
            try b.expect("OK PING")
            #expect(seen.contains("OK PASSWORD"))
            #expect(seen.contains("ERR bad-password wrong password"))
            #expect(daemon.waitForStderrLine { $0.hasSuffix("login failed for keeper from 127.0.0.1") } != nil)
            daemon.terminate()
            let log = daemon.stderrLines
            for line in seen + log {
                #expect(!secrets.contains { line.contains($0) } && !line.contains("secret") && !line.contains("$y$"), "\(line)")
            }
        }
    }
}
