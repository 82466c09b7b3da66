import Foundation
import Testing
import GhostAuth
import GhostStore
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The real `ghostd accounts …` binary, with the password piped on stdin:
/// exit statuses, exact output, the password never in it, and the data
/// folder's lock against a running daemon, both ways.
@Suite("EndToEnd: ghostd accounts", .ownThread, .hangLimit)
struct EndToEndAccountsCommandTests {
    /// A running `ghostd accounts …` whose stdin is a pipe the test writes.
    final class Command {
        let process = Process()
        private let input = Pipe(), output = Pipe(), errors = Pipe()

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
            process.arguments = ["accounts"] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }

        /// Writes `text` to its stdin and closes it.
        func send(_ text: String) {
            // It may have ended without reading (a refusal): EPIPE, not a trap.
            try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }

        /// Waits for it to end (killing it after `timeout` s): status, stdout, stderr.
        func finish(timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
            try? input.fileHandleForWriting.close()
            let deadline = monotonicNow() + timeout
            while process.isRunning {
                if monotonicNow() > deadline {
                    Glibc.kill(pid, SIGKILL)
                    _ = process.waitForExit()
                    throw DaemonError("ghostd \(process.arguments ?? []) did not finish within \(timeout) s")
                }
                usleep(5_000)
            }
            // The output is a few lines: the pipes' buffers hold it whole.
            let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, out, err)
        }
    }

    /// Runs `ghostd accounts <arguments>` with `stdin` piped in.
    static func run(_ arguments: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
        let command = try Command(arguments)
        command.send(stdin)
        return try command.finish()
    }

    /// A data folder with ann and Bob registered (their passwords known).
    static func folder() throws -> DataDirectory {
        let data = try DataDirectory()
        let store = try Store(directory: data.path)
        defer { store.close() }
        #expect(try store.createAccount("ann", hash: try #require(PasswordHash.make("anns first password")), now: 1_764_125_614))
        #expect(try store.createAccount("Bob", hash: try #require(PasswordHash.make("bobs password")), now: 1_700_000_000))
        try store.commit()
        return data
    }

    static func hash(_ data: DataDirectory, _ name: String) throws -> String? {
        let store = try Store(directory: data.path)
        defer { store.close() }
        return try store.account(name)?.hash
    }

    @Test("list, reset-password with the password piped in, delete: exact output, exit statuses, the password nowhere in it")
    func commands() throws {
        let data = try Self.folder()
        let list = try Self.run(["list", "--data", data.path])
        #expect(list.status == 0)
        #expect(list.stdout == "ann created=2025-11-26T02:53:34Z changed=2025-11-26T02:53:34Z\nBob created=2023-11-14T22:13:20Z changed=2023-11-14T22:13:20Z\n")
        #expect(list.stderr == "")
        #expect(!list.stdout.contains("$y$"))

        let password = "a new pass phrase with spaces"
        let reset = try Self.run(["reset-password", "ANN", "--data", data.path], stdin: password + "\nnot this line\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout == "ann: password changed\n")
        #expect(reset.stderr == "")
        let hash = try #require(try Self.hash(data, "ann"))
        #expect(PasswordHash.verify(password, against: hash))
        #expect(!PasswordHash.verify("anns first password", against: hash))

        let short = try Self.run(["reset-password", "bob", "--data", data.path], stdin: "short\n")
        #expect(short.status == 1)
        #expect(short.stdout == "")
        #expect(short.stderr == "ghostd accounts: password: 8 to 200 characters, no control characters; nothing changed\n")
        let empty = try Self.run(["reset-password", "bob", "--data", data.path], stdin: "")
        #expect(empty.status == 1 && empty.stderr == "ghostd accounts: no password on standard input; nothing changed\n")
        #expect(PasswordHash.verify("bobs password", against: try #require(try Self.hash(data, "bob"))))

        let unknown = try Self.run(["reset-password", "carol", "--data", data.path], stdin: password + "\n")
        #expect(unknown.status == 1 && unknown.stdout == "")
        #expect(unknown.stderr == "ghostd accounts: carol is not a registered name; nothing changed\n")

        let delete = try Self.run(["delete", "bob", "--data", data.path])
        #expect(delete.status == 0)
        #expect(delete.stdout == "Bob: registration deleted; the name is a guest's again, its games and scores stay\n")
        #expect(delete.stderr == "")
        let after = try Self.run(["list", "--data", data.path])
        #expect(after.status == 0 && after.stdout.hasPrefix("ann created=2025-11-26T02:53:34Z changed=") && !after.stdout.contains("Bob"))

        let usage = try Self.run(["delete", "--data", data.path])
        #expect(usage.status == 2 && usage.stdout == "")
        #expect(usage.stderr == "ghostd accounts: missing NAME; allowed: the registered name after delete (see ghostd accounts --help)\n")

        for r in [list, reset, short, empty, unknown, delete, after, usage] {
            #expect(!(r.stdout + r.stderr).contains(password) && !(r.stdout + r.stderr).contains("short\n"))
        }
    }

    @Test("reset-password and delete are refused while a daemon serves the folder, naming its PID, and done once it has stopped; list reads beside it")
    func refusedWhileADaemonRuns() throws {
        let data = try Self.folder()
        let daemon = try DaemonProcess.start(extraArguments: ["--data", data.path])
        defer { daemon.kill() }
        let beside = try Self.run(["list", "--data", data.path])
        #expect(beside.status == 0 && beside.stderr == "" && beside.stdout.hasPrefix("ann created="), "\(beside)")
        for (args, stdin) in [(["reset-password", "ann"], "another password\n"), (["delete", "ann"], "")] {
            let r = try Self.run(args + ["--data", data.path], stdin: stdin)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout == "")
            #expect(r.stderr == "ghostd accounts: the data folder \(data.path) is in use by another ghostd (pid \(daemon.pid)); stop it first\n")
        }
        try LineClient(port: daemon.port, label: "still serving").ping()
        #expect(daemon.terminate() == .exited(0))
        #expect(PasswordHash.verify("anns first password", against: try #require(try Self.hash(data, "ann"))))
        let list = try Self.run(["list", "--data", data.path])
        #expect(list.status == 0 && list.stdout.hasPrefix("ann created="))
    }

    @Test("A daemon started while the command works (waiting for the password) is refused; the command then finishes")
    func daemonStartedMeanwhileIsRefused() throws {
        let data = try Self.folder()
        let command = try Command(["reset-password", "ann", "--data", data.path])
        // It holds the lock once its PID is in the pidfile (then it reads stdin).
        let deadline = monotonicNow() + 30
        while (try? String(contentsOfFile: data.path + "/ghostd.pid", encoding: .utf8)) != "\(command.pid)\n" {
            guard monotonicNow() < deadline, command.process.isRunning else {
                _ = try? command.finish()
                throw DaemonError("ghostd accounts did not take the lock")
            }
            usleep(10_000)
        }
        let daemon = try DaemonProcess.runToCompletion(["--port", "0", "--dictionaries", DaemonProcess.dictionariesFolder, "--data", data.path])
        #expect(daemon.status == .exited(1))
        #expect(daemon.stderr == "ghostd: the data folder \(data.path) is in use by another ghostd (pid \(command.pid)); stop it first\n")
        command.send("the password after all\n")
        let r = try command.finish()
        #expect(r.status == 0 && r.stdout == "ann: password changed\n" && r.stderr == "", "\(r.stderr)")
        #expect(PasswordHash.verify("the password after all", against: try #require(try Self.hash(data, "ann"))))
    }
}
