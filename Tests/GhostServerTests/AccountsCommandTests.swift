import Foundation
import Testing
import GhostAuth
@testable import GhostServer
import GhostStore
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `ghostd accounts …` run in this process (AccountsCommand.main) on a
/// temporary data folder whose accounts are made through the store. The
/// binary's own tests are in EndToEndAccountsCommandTests.
@Suite("ghostd accounts: list, reset-password, delete, refusals", .ownThread)
struct AccountsCommandTests {
    /// What one run printed, and its exit status.
    final class Captured: @unchecked Sendable {
        var out: [String] = []
        var err: [String] = []
        var asked: [String] = []
    }

    /// Runs `ghostd accounts <arguments>`; `password` answers the prompt for a name.
    static func run(_ arguments: [String], password: Result<String, PasswordInput.Failure> = .failure(.noInput))
        -> (status: Int32, out: [String], err: [String], asked: [String]) {
        let c = Captured()
        let console = AccountsCommand.Console(out: { c.out.append($0) }, err: { c.err.append($0) }) { name in
            c.asked.append(name)
            return password
        }
        let status = AccountsCommand.main(arguments, console: console)
        return (status, c.out, c.err, c.asked)
    }

    /// A data folder with a database holding `accounts` (name, password, created, changed).
    static func folder(_ accounts: [(String, String, Int, Int)]) throws -> DataDirectory {
        let data = try DataDirectory()
        let store = try Store(directory: data.path)
        defer { store.close() }
        for (name, password, created, changed) in accounts {
            let hash = try #require(PasswordHash.make(password))
            #expect(try store.createAccount(name, hash: hash, now: created))
            if changed != created { #expect(try store.setPasswordHash(name, hash: hash, now: changed)) }
        }
        try store.registerName("guest", now: 1_700_000_000)   // a name that is not registered
        try store.commit()
        return data
    }

    static func account(_ data: DataDirectory, _ name: String) throws -> Store.Account? {
        let store = try Store(directory: data.path)
        defer { store.close() }
        return try store.account(name)
    }

    @Test("list: every registered name, alphabetically in any case, with its dates in UTC ISO 8601; no hash, no guest")
    func list() throws {
        let data = try Self.folder([("carol", "carols-secret", 1_700_000_000, 1_700_000_000),
                                    ("Bob", "bobs password", 1_600_000_000, 1_764_125_614),
                                    ("ann", "anns-password", 0, 86_399)])
        let r = Self.run(["list", "--data", data.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == [
            "ann created=1970-01-01T00:00:00Z changed=1970-01-01T23:59:59Z",
            "Bob created=2020-09-13T12:26:40Z changed=2025-11-26T02:53:34Z",
            "carol created=2023-11-14T22:13:20Z changed=2023-11-14T22:13:20Z",
        ])
        #expect(r.err.isEmpty)
        #expect(!r.out.joined().contains("$y$"))
        // The options may come first, and --data=DIR works.
        #expect(Self.run(["--data=" + data.path, "list"]).out == r.out)
    }

    @Test("list pages through the store: 1,001 accounts (pages of 500) come out whole and in order")
    func listPages() throws {
        let data = try DataDirectory()
        do {
            let store = try Store(directory: data.path)
            defer { store.close() }
            for i in 0..<1001 { #expect(try store.createAccount(String(format: "p%04d", i), hash: "$y$x", now: i)) }
            try store.commit()
        }
        let r = Self.run(["list", "--data", data.path])
        #expect(r.status == 0)
        #expect(r.out.count == 1001)
        #expect(r.out.map { String($0.prefix(5)) } == (0..<1001).map { String(format: "p%04d", $0) })
        // An empty list is empty.
        let empty = try Self.folder([])
        let none = Self.run(["list", "--data", empty.path])
        #expect(none.status == 0 && none.out.isEmpty && none.err.isEmpty)
    }

    @Test("reset-password: the new password verifies, the old one no longer does; its change date moves; nothing printed of either")
    func resetPassword() throws {
        let data = try Self.folder([("Ann", "old password", 1_700_000_000, 1_700_000_000)])
        let before = Int(time(nil))
        let r = Self.run(["reset-password", "ANN", "--data", data.path], password: .success("  new password  "))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == ["Ann: password changed"])
        #expect(r.err.isEmpty)
        #expect(r.asked == ["Ann"])
        let account = try #require(try Self.account(data, "ann"))
        #expect(PasswordHash.verify("  new password  ", against: account.hash))
        #expect(!PasswordHash.verify("old password", against: account.hash))
        #expect(!PasswordHash.verify("new password", against: account.hash))   // spaces at the ends count
        #expect(account.created == 1_700_000_000 && account.changed >= before)
        #expect(!(r.out + r.err).joined().contains("password  "))
    }

    @Test("reset-password refuses a password out of form (the server's rule) and changes nothing")
    func resetPasswordForm() throws {
        let data = try Self.folder([("ann", "old password", 1, 1)])
        let hash = try #require(try Self.account(data, "ann")).hash
        for bad in ["short", "", "tab\there!", String(repeating: "é", count: 201), "nul\u{0}inside"] {
            let r = Self.run(["reset-password", "ann", "--data", data.path], password: .success(bad))
            #expect(r.status == 1)
            #expect(r.out.isEmpty)
            #expect(r.err == ["ghostd accounts: password: 8 to 200 characters, no control characters; nothing changed"])
        }
        for why: PasswordInput.Failure in [.noInput, .differ, .tooLong] {
            let r = Self.run(["reset-password", "ann", "--data", data.path], password: .failure(why))
            #expect(r.status == 1 && r.err == ["ghostd accounts: \(why); nothing changed"])
        }
        #expect(try Self.account(data, "ann")?.hash == hash)
        #expect(AccountsCommand.isValidPassword(String(repeating: "é", count: 200)))
        #expect(AccountsCommand.isValidPassword("eight ch"))
        #expect(!AccountsCommand.isValidPassword("seven c"))
    }

    @Test("An unknown or guest's name: exit status 1, one clear line, no password asked, nothing changed")
    func unknownName() throws {
        let data = try Self.folder([("ann", "old password", 1, 1)])
        for command in ["reset-password", "delete"] {
            for name in ["nobody", "guest"] {
                let r = Self.run([command, name, "--data", data.path], password: .success("a good password"))
                #expect(r.status == 1)
                #expect(r.out.isEmpty && r.asked.isEmpty)
                #expect(r.err == ["ghostd accounts: \(name) is not a registered name; nothing changed"])
            }
        }
        #expect(try Self.account(data, "ann") != nil)
    }

    @Test("delete: the registration goes, the name stays a known (guest's) name, the others stay registered")
    func delete() throws {
        let data = try Self.folder([("ann", "anns password", 1, 1), ("bob", "bobs password", 2, 2)])
        let r = Self.run(["delete", "Ann", "--data", data.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == ["ann: registration deleted; the name is a guest's again, its games and scores stay"])
        let store = try Store(directory: data.path)
        defer { store.close() }
        #expect(try !store.isRegistered("ann"))
        #expect(try store.isKnownName("ann"))
        #expect(try store.isRegistered("bob"))
        #expect(Self.run(["delete", "ann", "--data", data.path]).status == 1)
    }

    @Test("Refused while another holds the data folder's lock (here: this process, as a daemon would); nothing changed, and the lock is free again after a run; list reads beside it")
    func refusedWhileLocked() throws {
        let data = try Self.folder([("ann", "anns password", 1, 1)])
        do {
            let lock = try DataFolderLock(directory: data.path)
            defer { lock.unlock() }
            let list = Self.run(["list", "--data", data.path])
            #expect(list.status == 0 && list.err.isEmpty && list.out == ["ann created=1970-01-01T00:00:01Z changed=1970-01-01T00:00:01Z"], "\(list)")
            for args in [["delete", "ann"], ["reset-password", "ann"], ["ban", "ann"]] {
                let r = Self.run(args + ["--data", data.path], password: .success("a new password"))
                #expect(r.status == 1)
                #expect(r.out.isEmpty && r.asked.isEmpty)
                #expect(r.err == ["ghostd accounts: the data folder \(data.path) is in use by another ghostd (pid \(getpid())); stop it first"])
            }
        }
        #expect(try Self.account(data, "ann") != nil)
        #expect(Self.run(["list", "--data", data.path]).status == 0)
        // The command gave the lock back: a daemon could start now.
        let lock = try DataFolderLock(directory: data.path)
        lock.unlock()
    }

    @Test("The daemon's startup checks: a newer schema is refused untouched; a folder without a database is not made")
    func startupChecks() throws {
        let data = try Self.folder([("ann", "anns password", 1, 1)])
        do {
            let db = try SQLiteDatabase(path: data.path + "/" + Store.fileName, create: false)
            try db.execute("PRAGMA user_version = 99")
            db.close()
        }
        let r = Self.run(["list", "--data", data.path])
        #expect(r.status == 1 && r.out.isEmpty)
        #expect(r.err == ["ghostd accounts: the database \(data.path)/\(Store.fileName) has schema 99, written by a newer ghostd; this ghostd knows schemas up to \(Store.schemaVersion): run a newer ghostd on it"])

        let missing = data.path + "/not-here"
        let none = Self.run(["list", "--data", missing])
        #expect(none.status == 1)
        #expect(none.err == ["ghostd accounts: there is no database at \(missing)/\(Store.fileName) (is --data the daemon's data folder?)"])
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("Bad usage: exit status 2 and one line pointing to ghostd accounts --help; --help prints the help")
    func usage() throws {
        let cases: [([String], String)] = [
            ([], "missing COMMAND; allowed: list, reset-password, delete, mute, ban or unban"),
            (["fly"], "COMMAND: fly is not one of the choices; allowed: list, reset-password, delete, mute, ban or unban"),
            (["list", "ann"], "unexpected argument ann; allowed: list takes no NAME"),
            (["delete"], "missing NAME; allowed: the registered name after delete"),
            (["reset-password"], "missing NAME; allowed: the registered name after reset-password"),
            (["delete", "a b"], "NAME: \"a b\" is not valid; allowed: 1 to 16 letters, digits, - or _"),
            (["delete", "ann", "bob"], "unexpected argument bob; allowed: options and COMMAND and NAME, once each"),
            (["list", "--data"], "--data needs a value; allowed: a folder"),
            (["list", "--port", "1"], "unknown option --port; allowed: --data, --store, --days, --network or --help"),
        ]
        for (args, line) in cases {
            let r = Self.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.out.isEmpty)
            #expect(r.err == ["ghostd accounts: \(line) (see ghostd accounts --help)"], "\(args)")
        }
        for args in [["--help"], ["list", "-h"], ["delete", "--help"]] {
            let r = Self.run(args)
            #expect(r.status == 0 && r.err.isEmpty)
            #expect(r.out.first?.hasPrefix("Usage: \(AccountsCommand.usageLine)\n") == true)
        }
        #expect(DaemonOptions.usage.contains("ghostd accounts list|reset-password NAME|delete NAME [--data DIR]"))
    }
}

/// How the new password is read: the first line of a pipe or file; on a
/// terminal, twice with echo off.
@Suite("ghostd accounts: reading the password", .ownThread)
struct PasswordInputTests {
    /// `bytes` through a pipe, read by `firstLine`.
    static func firstLine(_ bytes: [UInt8]) throws -> Result<String, PasswordInput.Failure> {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DaemonError("pipe failed") }
        defer { close(fds[0]) }
        let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        #expect(written == bytes.count)
        return PasswordInput.firstLine(fd: fds[0])
    }

    @Test("A pipe gives its first line, spaces kept, CR LF or LF or the end ending it")
    func fromAPipe() throws {
        #expect(try Self.firstLine(Array(" two words \r\nsecond line\n".utf8)) == .success(" two words "))
        #expect(try Self.firstLine(Array("no newline".utf8)) == .success("no newline"))
        #expect(try Self.firstLine(Array("\n".utf8)) == .success(""))
        #expect(try Self.firstLine([]) == .failure(.noInput))
        #expect(try Self.firstLine([0x61, 0xFF, 0x62, 0x0A]) == .failure(.notUTF8))
        #expect(try Self.firstLine(Array(repeating: 0x61, count: 1024) + [0x0A]) == .success(String(repeating: "a", count: 1024)))
        #expect(try Self.firstLine(Array(repeating: 0x61, count: 1025) + [0x0A]) == .failure(.tooLong))
    }

    /// A pseudo-terminal: the master (what the terminal shows, where typing goes) and the slave (stdin).
    static func pty() throws -> (master: Int32, slave: Int32) {
        // posix_openpt and friends are not in Swift's Glibc: /dev/ptmx with
        // unlockpt's and ptsname's ioctls (TIOCSPTLCK, TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: Int32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0,
              ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            throw DaemonError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw DaemonError("open /dev/pts/\(number) failed") }
        return (master, slave)
    }

    /// Everything the terminal shows now.
    static func shown(_ master: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 0) == 1 else { break }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("A terminal is asked twice with echo off: the password is never shown, two different answers are refused, and echo is back on afterwards")
    func terminal() throws {
        let (master, slave) = try Self.pty()
        defer { close(master); close(slave) }
        for (answers, expected) in [(["correct horse", "correct horse"], Result<String, PasswordInput.Failure>.success("correct horse")),
                                    (["correct horse", "battery staple"], .failure(.differ))] {
            var prompts: [String] = []
            let got = PasswordInput.read(fd: slave, prompt: "New password for ann: ") { prompt in
                prompts.append(prompt)
                // Typed while the prompt shows (echo is off by then).
                let line = Array((answers[prompts.count - 1] + "\n").utf8)
                _ = line.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            }
            #expect(got == expected)
            #expect(prompts == ["New password for ann: ", "The same again: "])
            let screen = Self.shown(master)
            #expect(!screen.contains("horse") && !screen.contains("staple"), "\(screen.debugDescription)")
            #expect(screen.contains("\n"))   // the newline still echoes
            var settings = termios()
            #expect(tcgetattr(slave, &settings) == 0)
            #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
        }
    }
}
