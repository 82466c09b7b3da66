import Foundation
import Testing
import GhostAuth
@testable import GhostServer
import GhostStore
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The request line the command and the daemon share, and the command
/// line's combinations, in this process.
@Suite("Operator: requests and the command line", .ownThread)
struct OperatorRequestTests {
    @Test("Each action's request line reads back as the same action")
    func roundTrip() {
        let actions: [OperatorAction] = [
            .mute(name: "ann", until: 1_796_000_000), .mute(name: "Bob_2", until: nil),
            .ban(name: "ann", until: nil), .ban(name: "x-y", until: 1),
            .unban(name: "ann"),
            .banNetwork(address: "203.0.113.7", until: 1_796_000_000), .banNetwork(address: "2001:db8::1", until: nil),
            .unbanNetwork(address: "::1"),
        ]
        for a in actions {
            #expect(OperatorRequest.parse(OperatorRequest.line(a) + "\n") == .success(a), "\(a)")
        }
        #expect(OperatorRequest.line(.ban(name: "ann", until: 1_796_000_000)) == "ban ann until=1796000000")
    }

    @Test("A malformed request is refused with a reason, never applied")
    func malformed() {
        for line in ["", "\n", "ban", "ban ann", "ban ann until=soon", "ban ann until=-5", "ban ann until=0", "ban ann until=forever extra",
                     "ban a.b until=forever", "ban  ann until=forever", "mute ann", "unban", "unban ann bob", "ban-network ann until=forever",
                     "ban-network 300.1.1.1 until=forever", "unban-network", "delete ann", "ban ann until=forever\nban bob until=forever",
                     "ban ann\tuntil=forever", "ban \u{1B}[2J until=forever", String(repeating: "x", count: 2000)] {
            guard case .failure = OperatorRequest.parse(line) else {
                Issue.record("accepted \(line.debugDescription)")
                continue
            }
        }
    }

    @Test("An id names no folder and no hidden file")
    func ids() {
        for good in ["1234-ab12cd", "a", String(repeating: "0", count: 64)] { #expect(OperatorRequest.isValidID(Substring(good)), "\(good)") }
        for bad in ["", "-x", "../x", "a/b", ".x", "A", "a b", String(repeating: "0", count: 65)] {
            #expect(!OperatorRequest.isValidID(Substring(bad)), "\(bad)")
        }
        #expect(OperatorRequest.isValidID(Substring(OperatorRequest.newID())))
    }

    @Test("COMMAND, NAME, --days and --network go together as the commands say; bad usage is exit status 2")
    func usage() {
        let cases: [([String], String)] = [
            (["mute"], "missing NAME; allowed: the name after mute"),
            (["ban"], "missing NAME; allowed: the name after ban, or --network ADDRESS"),
            (["unban"], "missing NAME; allowed: the name after unban, or --network ADDRESS"),
            (["ban", "ann", "--network", "1.2.3.4"], "unexpected argument ann; allowed: a NAME or --network, not both"),
            (["unban", "ann", "--days", "3"], "unexpected argument --days; allowed: --days is for mute and ban"),
            (["list", "--days", "3"], "unexpected argument --days; allowed: --days is for mute and ban"),
            (["mute", "--network", "1.2.3.4"], "unexpected argument --network; allowed: --network is for ban and unban"),
            (["ban", "--network", "nowhere"], "--network: nowhere is not valid; allowed: an IPv4 or IPv6 address"),
            (["ban", "ann", "--days", "0"], "--days: 0 is out of range; allowed: a whole number from 1 to 36500"),
        ]
        for (args, line) in cases {
            var err: [String] = []
            let console = AccountsCommand.Console(out: { _ in }, err: { err.append($0) }) { _ in .failure(.noInput) }
            #expect(AccountsCommand.main(args, console: console) == 2, "\(args)")
            #expect(err == ["ghostd accounts: \(line) (see ghostd accounts --help)"], "\(args)")
        }
        let now = 1_000_000
        func settings(_ args: [String]) -> AccountsCommand.Settings? {
            if case .success(.run(let s)) = AccountsCommand.parse(args) { return s }
            return nil
        }
        #expect(settings(["ban", "ann", "--days", "2"]).flatMap { AccountsCommand.action($0, now: now) } == .ban(name: "ann", until: now + 2 * 86_400))
        #expect(settings(["ban", "--network", "::1"]).flatMap { AccountsCommand.action($0, now: now) } == .banNetwork(address: "::1", until: nil))
        #expect(settings(["unban", "--network", "10.0.0.1"]).flatMap { AccountsCommand.action($0, now: now) } == .unbanNetwork(address: "10.0.0.1"))
        #expect(settings(["mute", "Ann"]).flatMap { AccountsCommand.action($0, now: now) } == .mute(name: "Ann", until: nil))
    }
}

/// The lobby's side: a request applied as one unit of the store and the outbox.
@Suite("Operator: the lobby applies a request as a command", .ownThread)
struct LobbyOperatorTests {
    @Test("A ban whose write fails is undone whole: no BYE, nothing stored, a reason for the operator; once the store takes it, the connection is closed")
    func failedWriteIsUndone() throws {
        let h = try Harness()
        h.named(1, "ann")
        let raw = try SQLiteDatabase(path: h.store.path)
        defer { raw.close() }
        try raw.execute("CREATE TRIGGER full BEFORE INSERT ON sanctions BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END")
        switch h.lobby.applyOperatorRequest(.ban(name: "ann", until: nil)) {
        case .success(let text): Issue.record("applied: \(text)")
        case .failure(let why):
            #expect(why.description.hasPrefix("the daemon could not store it (") && why.description.hasSuffix("injected: disk full); nothing changed"),
                    "\(why)")
        }
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.outbox.closed.isEmpty)
        try raw.execute("DROP TRIGGER full")
        #expect(h.lobby.applyOperatorRequest(.ban(name: "ann", until: nil)) == .success("ann: banned until lifted"))
        h.tick()
        #expect(h.drain() == [1: ["BYE banned the server's operator banned ann"]])
        #expect(try raw.query("SELECT target FROM sanctions WHERE kind = 'ban'") { $0.text(0) } == ["ann"])
    }
}

/// `ghostd accounts mute|ban|unban|list` and `ghostd reports`, the real
/// binary, offline and against a running daemon.
@Suite("EndToEnd: the operator's commands", .ownThread, .hangLimit)
struct OperatorCommandTests {
    /// `ghostd <arguments>`: status, stdout, stderr.
    /// Under `GHOSTD_TEST_STORE=postgresql`, `--store` names the daemon's database, as an operator would.
    static func ghostd(_ arguments: [String]) throws -> (status: ExitStatus, stdout: String, stderr: String) {
        let store = try DaemonProcess.dataArgument(arguments).flatMap { try DaemonProcess.storeURL(forData: $0) }
        return try DaemonProcess.runToCompletion(arguments + (store.map { ["--store", $0] } ?? []), timeout: 60)
    }

    /// Waits for a file to appear (the daemon's reply), up to `timeout` s.
    static func waitForFile(_ path: String, timeout: Double = 10) -> Bool {
        let deadline = monotonicNow() + timeout
        while access(path, F_OK) != 0 {
            if monotonicNow() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    @Test("Offline: mute, ban, network ban, list, unban, reports; the store holds them and list shows them after the registrations")
    func offline() throws {
        let data = try DataDirectory()
        do {
            let store = try openTestStore(data.path)
            defer { store.close() }
            #expect(try store.createAccount("ann", hash: try #require(PasswordHash.make("anns password")), now: 1_764_125_614))
            try store.socialStore.addReport(reporter: "ann", reported: "bob", at: 1_764_125_700, game: 7, reason: "rude words",
                                            chat: ["hi", "you \u{1B}[31mlose"])
            try store.socialStore.addReport(reporter: "carol", reported: "bob", at: 1_764_125_800, game: nil, reason: "again", chat: [])
            try store.commit()
        }
        let d = ["--data", data.path]
        let mute = try Self.ghostd(["accounts", "mute", "ann", "--days", "2"] + d)
        #expect(mute.status == .exited(0) && mute.stderr == "", "\(mute)")
        #expect(mute.stdout.hasPrefix("ann: muted until 20") && mute.stdout.hasSuffix(" UTC\n"), "\(mute.stdout)")
        let ban = try Self.ghostd(["accounts", "ban", "bob"] + d)
        #expect(ban.status == .exited(0) && ban.stdout == "bob: banned until lifted\n", "\(ban)")
        let net = try Self.ghostd(["accounts", "ban", "--network", "203.0.113.7", "--days", "1"] + d)
        #expect(net.status == .exited(0) && net.stdout.hasPrefix("network 203.0.113.7 (from 203.0.113.7): banned until 20"), "\(net)")

        let list = try Self.ghostd(["accounts", "list"] + d)
        #expect(list.status == .exited(0) && list.stderr == "")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        if lines.count == 4 {
            #expect(lines[0] == "ann created=2025-11-26T02:53:34Z changed=2025-11-26T02:53:34Z")
            #expect(lines[1].hasPrefix("network:203.0.113.7 ban until=20") && lines[1].hasSuffix("Z"))
            #expect(lines[2].hasPrefix("ann mute until=20") && lines[2].hasSuffix("Z"))
            #expect(lines[3] == "bob ban until=forever")
        }
        do {
            let store = try openTestStore(data.path)
            defer { store.close() }
            let now = Int(time(nil))
            #expect(try store.socialStore.sanction(.ban, on: "BOB", now: now)?.until == nil)
            #expect(try store.socialStore.sanction(.mute, on: "ann", now: now) != nil)
            #expect(try store.socialStore.sanction(.banNetwork, on: "203.0.113.7", now: now) != nil)
        }

        let unban = try Self.ghostd(["accounts", "unban", "ann"] + d)
        #expect(unban.status == .exited(0) && unban.stdout == "ann: mute and ban lifted\n", "\(unban)")
        let again = try Self.ghostd(["accounts", "unban", "ann"] + d)
        #expect(again.status == .exited(0) && again.stdout == "ann: no mute or ban to lift\n", "\(again)")
        let unnet = try Self.ghostd(["accounts", "unban", "--network", "203.0.113.7"] + d)
        #expect(unnet.status == .exited(0) && unnet.stdout == "network 203.0.113.7: ban lifted\n", "\(unnet)")
        let after = try Self.ghostd(["accounts", "list"] + d)
        #expect(after.stdout == "ann created=2025-11-26T02:53:34Z changed=2025-11-26T02:53:34Z\nbob ban until=forever\n")

        let reports = try Self.ghostd(["reports"] + d)
        #expect(reports.status == .exited(0) && reports.stderr == "", "\(reports)")
        #expect(reports.stdout == """
            report 2 at=2025-11-26T02:56:40Z reporter=carol reported=bob game=none
              reason: again

            report 1 at=2025-11-26T02:55:00Z reporter=ann reported=bob game=7
              reason: rude words
              bob: hi
              bob: you \u{FFFD}[31mlose

            """)
        let one = try Self.ghostd(["reports", "--limit", "1"] + d)
        #expect(one.stdout == "report 2 at=2025-11-26T02:56:40Z reporter=carol reported=bob game=none\n  reason: again\n")
        if !DaemonProcess.onPostgres {   // with --store, the folder holds no database to miss
            let missing = try Self.ghostd(["reports", "--data", data.path + "/nope"])
            #expect(missing.status == .exited(1) && missing.stderr == "ghostd reports: there is no database at \(data.path)/nope/\(Store.fileName) (is --data the daemon's data folder?)\n")
        }
        let bad = try Self.ghostd(["reports", "--limit", "0"] + d)
        #expect(bad.status == .exited(2))
    }

    @Test("A running daemon bans at once: ann's connection gets BYE banned, NAME ann gets ERR banned; unban lets ann back")
    func banRunning() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let d = ["--data", daemon.dataPath]
        let ann = try LineClient(port: daemon.port, label: "ann")
        try ann.login("ann")
        let ban = try Self.ghostd(["accounts", "ban", "ann"] + d)
        #expect(ban.status == .exited(0) && ban.stdout == "ann: banned until lifted\n" && ban.stderr == "", "\(ban)")
        #expect(try ann.readLine() == "BYE banned the server's operator banned ann")
        try ann.expectClosed()

        let again = try LineClient(port: daemon.port, label: "ann again")
        try again.send("NAME ann")
        let refusal = try again.expectError("banned")
        #expect(refusal == "ERR banned the server's operator banned ann")
        let list = try Self.ghostd(["accounts", "list"] + d)
        #expect(list.status == .exited(0) && list.stdout == "ann ban until=forever\n", "\(list)")

        let unban = try Self.ghostd(["accounts", "unban", "ANN"] + d)
        #expect(unban.status == .exited(0) && unban.stdout == "ANN: mute and ban lifted\n", "\(unban)")
        try again.login("ann")
        // The mailbox is left with the daemon's PID alone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.dataPath + "/operator") == ["ready"])
        #expect(try String(contentsOfFile: daemon.dataPath + "/operator/ready", encoding: .utf8) == "\(daemon.pid)\n")
    }

    @Test("A network ban closes its connections and refuses new ones with BYE banned; unban --network lets them in")
    func networkBan() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let d = ["--data", daemon.dataPath]
        let carl = try LineClient(port: daemon.port, label: "carl")
        try carl.login("carl")
        let ban = try Self.ghostd(["accounts", "ban", "--network", "127.0.0.1", "--days", "1"] + d)
        #expect(ban.status == .exited(0), "\(ban)")
        #expect(ban.stdout.hasPrefix("network 127.0.0.1 (from 127.0.0.1): banned until 20") && ban.stdout.hasSuffix(" UTC; 1 connection(s) closed\n"), "\(ban.stdout)")
        #expect(try carl.readLine() == "BYE banned the server's operator banned your network")
        try carl.expectClosed()
        let newcomer = try LineClient(port: daemon.port, label: "newcomer", readHello: false)
        #expect(try newcomer.readLine() == "BYE banned the server's operator banned your network")
        try newcomer.expectClosed()

        let unban = try Self.ghostd(["accounts", "unban", "--network", "127.0.0.1"] + d)
        #expect(unban.status == .exited(0) && unban.stdout == "network 127.0.0.1: ban lifted\n", "\(unban)")
        try LineClient(port: daemon.port, label: "welcome").ping()
    }

    @Test("A mute makes SAY answer ERR muted at once, in a game against the computer; unban lifts it")
    func mute() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let d = ["--data", daemon.dataPath]
        let ann = try LineClient(port: daemon.port, label: "ann")
        try ann.login("ann")
        try ann.send("NEW bot=easy")
        try ann.readUntil(prefix: "OK NEW")
        try ann.send("SAY hello computer")
        try ann.readUntil(prefix: "OK SAY")
        let mute = try Self.ghostd(["accounts", "mute", "ann", "--days", "3"] + d)
        #expect(mute.status == .exited(0) && mute.stdout.hasPrefix("ann: muted until 20"), "\(mute)")
        try ann.send("SAY hello again")
        let refused = try ann.readUntil(prefix: "ERR ").line
        #expect(refused.hasPrefix("ERR muted the server's operator muted you until 20") && refused.hasSuffix(" UTC"), "\(refused)")
        let unban = try Self.ghostd(["accounts", "unban", "ann"] + d)
        #expect(unban.stdout == "ann: mute and ban lifted\n", "\(unban)")
        try ann.send("SAY free to talk")
        try ann.readUntil(prefix: "OK SAY")
    }

    @Test("A malformed, oversized or linked request file gets an error reply and is removed; the daemon keeps serving")
    func malformedRequests() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let folder = daemon.dataPath + "/operator"
        let bystander = try LineClient(port: daemon.port, label: "bystander")
        try bystander.login("bystander")
        try "ban bystander until=soon\n".write(toFile: folder + "/bad.request", atomically: false, encoding: .utf8)
        try String(repeating: "x", count: 2000).write(toFile: folder + "/big.request", atomically: false, encoding: .utf8)
        try "unban ann\n".write(toFile: daemon.dataPath + "/elsewhere", atomically: false, encoding: .utf8)
        #expect(symlink(daemon.dataPath + "/elsewhere", folder + "/link.request") == 0)
        try "ban bystander until=forever\n".write(toFile: folder + "/.hidden.request", atomically: false, encoding: .utf8)
        // A well-formed request its command left long ago (killed while it waited): dated 2001, so
        // that it is old by any clock (under `faketime`, this process's clock and the daemon's differ).
        try "ban bystander until=forever\n".write(toFile: folder + "/old.request", atomically: false, encoding: .utf8)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder + "/old.request", &times, 0) == 0)
        daemon.signal(SIGUSR1)
        for id in ["bad", "big", "link", "old"] {
            #expect(Self.waitForFile(folder + "/\(id).reply"), "\(id)")
            #expect(access(folder + "/\(id).request", F_OK) != 0, "\(id)")
        }
        let bad = try String(contentsOfFile: folder + "/bad.reply", encoding: .utf8)
        #expect(bad == "error: request bad refused: ban: until= takes unix seconds or forever\n")
        #expect(try String(contentsOfFile: folder + "/big.reply", encoding: .utf8) == "error: request big refused: it is longer than 1024 bytes\n")
        #expect(try String(contentsOfFile: folder + "/link.reply", encoding: .utf8).hasPrefix("error: request link refused: cannot open it: "))
        #expect(try String(contentsOfFile: folder + "/old.reply", encoding: .utf8) == "error: request old refused: it is older than 60 s, and its command gave up\n")
        // Nothing was applied: a hidden name is no request, and the bystander is still served.
        #expect(access(folder + "/.hidden.request", F_OK) == 0)
        try bystander.ping()
        try LineClient(port: daemon.port, label: "another").login("another")
        let list = try Self.ghostd(["accounts", "list", "--data", daemon.dataPath])
        #expect(list.status == .exited(0) && list.stdout == "", "\(list)")
    }

    @Test("A ban the store cannot take (--max-db-pages) is answered with an error, nothing changed, and the daemon goes on", sqliteFilesOnly)
    func storeFailure() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--max-db-pages", "1", "--max-commands-per-second", "0"])
        defer { daemon.kill() }
        let d = ["--data", daemon.dataPath]
        var refused: (name: String, stderr: String)?
        for i in 0..<300 {
            let r = try Self.ghostd(["accounts", "ban", "filler-name-\(i)"] + d)
            if r.status == .exited(1) {
                refused = ("filler-name-\(i)", r.stderr)
                break
            }
            #expect(r.status == .exited(0) && r.stdout == "filler-name-\(i): banned until lifted\n", "\(r)")
        }
        let (name, stderr) = try #require(refused, "300 bans and the database is not full")
        #expect(stderr.hasPrefix("ghostd accounts: the daemon could not store it (") && stderr.hasSuffix("full); nothing changed\n"), "\(stderr)")
        try LineClient(port: daemon.port, label: "still serving").ping()
        let list = try Self.ghostd(["accounts", "list"] + d)
        #expect(list.status == .exited(0) && list.stdout.contains("filler-name-0 ban until=forever\n") && !list.stdout.contains(name + " "), "\(list)")
    }

    @Test("ghostd reports beside a running daemon lists a REPORT made over the wire, with what the reported name said")
    func reportOverTheWire() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        let ann = try LineClient(port: daemon.port, label: "ann")
        let bob = try LineClient(port: daemon.port, label: "bob")
        try ann.login("ann")
        try bob.login("bob")
        try ann.send("SEEK")
        try ann.readUntil(prefix: "OK SEEK")
        try bob.send("SEEK")
        let game = try bob.readUntil(prefix: "GAME ").line
        try ann.readUntil(prefix: "GAME ")
        let id = try #require(game.split(separator: " ").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) })
        try bob.send("SAY you will lose")
        try bob.readUntil(prefix: "OK SAY")
        let said = try ann.readUntil(prefix: "SAID ").line
        #expect(said.contains("player=bob") && said.hasSuffix("you will lose"), "\(said)")
        try ann.send("REPORT bob rude words")
        try ann.readUntil(prefix: "OK REPORT")

        let reports = try Self.ghostd(["reports", "--data", daemon.dataPath])
        #expect(reports.status == .exited(0) && reports.stderr == "", "\(reports)")
        let lines = reports.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4, "\(lines)")
        if lines.count == 4 {
            #expect(lines[0].hasPrefix("report 1 at=20") && lines[0].hasSuffix("Z reporter=ann reported=bob game=\(id)"), "\(lines[0])")
            #expect(lines[1] == "  reason: rude words")
            #expect(lines[2] == "  bob: you will lose")
            #expect(lines[3] == "")
        }
    }

    @Test("A command that holds the folder is no daemon: refused at once; made to look like one, it is not harmed by SIGUSR1 and the request is withdrawn after 10 s; exit status 1")
    func noAnswer() throws {
        let data = try DataDirectory()
        do {
            let store = try Store(directory: data.path)
            #expect(try store.createAccount("ann", hash: try #require(PasswordHash.make("anns password")), now: 1))
            try store.commit()
            store.close()
        }
        // A reset-password waiting for its password holds the folder's lock.
        let holder = try EndToEndAccountsCommandTests.Command(["reset-password", "ann", "--data", data.path])
        let deadline = monotonicNow() + 30
        while (try? String(contentsOfFile: data.path + "/ghostd.pid", encoding: .utf8)) != "\(holder.pid)\n" {
            guard monotonicNow() < deadline, holder.process.isRunning else {
                _ = try? holder.finish()
                throw DaemonError("ghostd accounts did not take the lock")
            }
            usleep(10_000)
        }
        let refused = try Self.ghostd(["accounts", "ban", "ann", "--data", data.path])
        #expect(refused.status == .exited(1) && refused.stdout == "")
        #expect(refused.stderr == "ghostd accounts: the data folder is in use by pid \(holder.pid), which does not take requests (another ghostd accounts or journal command, a ghostd still starting, or an older ghostd): try again, or restart ghostd; nothing changed\n")
        #expect(access(data.path + "/operator", F_OK) != 0)
        // As if it had said it takes requests: it is signalled, and never answers.
        #expect(mkdir(data.path + "/operator", 0o700) == 0)
        try "\(holder.pid)\n".write(toFile: data.path + "/operator/ready", atomically: false, encoding: .utf8)
        let ban = try Self.ghostd(["accounts", "ban", "ann", "--data", data.path])
        #expect(ban.status == .exited(1) && ban.stdout == "")
        #expect(ban.stderr == "ghostd accounts: the daemon (pid \(holder.pid)) did not answer within 10 s; the request was withdrawn, nothing changed\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path + "/operator") == ["ready"])
        // SIGUSR1 did not end the holder: it finishes its work.
        holder.send("a new password\n")
        let r = try holder.finish()
        #expect(r.status == 0 && r.stdout == "ann: password changed\n", "\(r)")
        let list = try Self.ghostd(["accounts", "list", "--data", data.path])
        #expect(!list.stdout.contains(" ban "))
    }
}
