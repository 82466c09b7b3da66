import GhostAuth
import GhostProtocol
import GhostStore
import OptionKit
#if canImport(Glibc)
import Glibc
#endif

/// `ghostd accounts list|reset-password NAME|delete NAME [--data DIR]`: the
/// operator's offline account commands. Each takes the data folder's lock
/// (the daemon's, `DataFolderLock`) for as long as it works, so it refuses
/// while a ghostd serves the folder and a ghostd started meanwhile refuses
/// too, and opens the database with the daemon's startup checks. Nothing
/// here prints a password or a hash.
public enum AccountsCommand {
    public enum Action: String, CaseIterable, Equatable, Sendable {
        case list
        case resetPassword = "reset-password"
        case delete
    }

    public struct Settings: Equatable, Sendable {
        public var data = ServerConfig.defaultDataDirectory()
        public var action: Action = .list
        public var name: String?
        public init() {}
    }

    /// What the command line asks for.
    public enum Invocation: Equatable, Sendable {
        case help
        case run(Settings)
    }

    /// Why a command did nothing (exit status 1).
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDatabase(String)
        case notRegistered(String)
        case badPasswordForm
        case hashFailed
        case password(PasswordInput.Failure)

        public var description: String {
            switch self {
            case .noDatabase(let path):
                return "there is no database at \(path) (is --data the daemon's data folder?)"
            case .notRegistered(let name):
                return "\(name) is not a registered name; nothing changed"
            case .badPasswordForm:
                return "password: \(AccountsCommand.passwordRule); nothing changed"
            case .hashFailed:
                return "the password could not be hashed (libxcrypt failed); nothing changed"
            case .password(let why):
                return "\(why); nothing changed"
            }
        }
    }

    // MARK: The command line

    static var table: OptionTable<Settings> { OptionTable([
        .value("--data", "DIR", "the data folder of the ghostd whose accounts these are", .text("a folder"), \.data),
        .help,
    ], positionals: [
        .value("COMMAND", "list, reset-password or delete (see Commands)",
               Value<Action>.choice, required: true) { $0.action = $1 },
        .value("NAME", "the registered name (any case), for reset-password and delete",
               Value<String>(allowed: "1 to \(CommandParser.maxNameLength) letters, digits, - or _", show: { $0 }) {
                   $0.isEmpty ? .failure(.empty) : CommandParser.isValidName($0) ? .success($0) : .failure(.invalid)
               }) { $0.name = $1 },
    ]) }

    public static var usage: String {
        table.help(usage: "ghostd accounts list|reset-password NAME|delete NAME [--data DIR]", about: [
            "Manage registered names offline. Refused (exit status 1) while a ghostd",
            "holds the data folder; a ghostd started meanwhile is refused in turn.",
        ], sections: [(title: "Commands:", lines: commands.flatMap { HelpText.entry($0.head, $0.text) })],
        footer: [
            "Exit status: 0 done, 1 refused or failed (nothing changed), 2 bad usage.",
        ], defaults: Settings())
    }

    /// The commands, for help and the manual page.
    static var commands: [(head: String, text: String)] { [
        ("list", "every registered name with the dates (UTC, ISO 8601) it was registered and its password last changed, alphabetically, one a line: `NAME created=… changed=…`; never a hash"),
        ("reset-password NAME", "set a new password, read from standard input: a terminal is asked twice with echo off; otherwise the first line is read (`printf '%s\\n' \"$pw\" | ghostd accounts reset-password ann`). \(passwordRule.prefix(1).uppercased() + passwordRule.dropFirst()), as REGISTER takes"),
        ("delete NAME", "remove the registration: the name is a guest's again; its games and scores stay"),
    ] }

    /// The form a password must have (the server's rule, Protocol.md).
    static let passwordRule = "8 to 200 characters, no control characters"

    /// Parses arguments (after `ghostd accounts`).
    public static func parse(_ arguments: [String]) -> Result<Invocation, OptionError> {
        switch table.parse(arguments, into: Settings()) {
        case .failure(let e): return .failure(e)
        case .success(.help), .success(.version): return .success(.help)
        case .success(.run(let s)):
            switch (s.action, s.name) {
            case (.list, let name?):
                return .failure(OptionError(.unexpectedArgument, subject: name, allowed: "list takes no NAME"))
            case (.resetPassword, nil), (.delete, nil):
                return .failure(OptionError(.missingArgument, subject: "NAME", allowed: "the registered name after \(s.action.rawValue)"))
            default:
                return .success(.run(s))
            }
        }
    }

    // MARK: Running

    /// Where output goes and where a new password comes from.
    public struct Console {
        /// A line of output (without its newline).
        public var out: (String) -> Void
        /// A line for stderr (without its newline).
        public var err: (String) -> Void
        /// The new password for the named account (as stored).
        public var password: (String) -> Result<String, PasswordInput.Failure>

        public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void,
                    password: @escaping (String) -> Result<String, PasswordInput.Failure>) {
            self.out = out
            self.err = err
            self.password = password
        }

        /// stdout, stderr, and the password from standard input.
        public static var standard: Console {
            Console(out: { print($0) }, err: { writeToStderr(Array(($0 + "\n").utf8)) }) { name in
                PasswordInput.read(fd: 0, prompt: "New password for \(name): ") { writeToStderr(Array($0.utf8)) }
            }
        }
    }

    /// `ghostd accounts …`: returns the exit status.
    public static func main(_ arguments: [String], console: Console = .standard) -> Int32 {
        switch parse(arguments) {
        case .success(.help):
            console.out(usage)
            return 0
        case .failure(let e):
            console.err("ghostd accounts: \(e) (see ghostd accounts --help)")
            return 2
        case .success(.run(let settings)):
            do {
                try run(settings, console: console, now: Int(time(nil)))
                return 0
            } catch {
                console.err("ghostd accounts: \(error)")
                return 1
            }
        }
    }

    /// Does what `settings` ask, holding the data folder's lock throughout.
    static func run(_ settings: Settings, console: Console, now: Int) throws {
        let folder = settings.data.isEmpty ? "." : settings.data
        let file = (folder.hasSuffix("/") ? folder : folder + "/") + Store.fileName
        // A mistyped --data must not make a new, empty folder and database.
        guard access(file, F_OK) == 0 else { throw Failure.noDatabase(file) }
        let lock = try DataFolderLock(directory: folder)
        defer { lock.unlock() }
        let store = try Store(directory: folder)   // the daemon's checks: DatabaseFile.swift
        defer { store.close() }
        switch settings.action {
        case .list:
            var after: String?
            while true {
                let page = try store.accounts(after: after, limit: 500)
                for a in page {
                    console.out("\(a.name) created=\(iso8601(a.created)) changed=\(iso8601(a.changed))")
                }
                guard page.count == 500, let last = page.last else { break }
                after = last.name
            }
        case .resetPassword:
            let name = settings.name ?? ""
            guard let account = try store.account(name) else { throw Failure.notRegistered(name) }
            let password: String
            switch console.password(account.name) {
            case .success(let p): password = p
            case .failure(let why): throw Failure.password(why)
            }
            guard isValidPassword(password) else { throw Failure.badPasswordForm }
            guard let hash = PasswordHash.make(password) else { throw Failure.hashFailed }
            guard try store.setPasswordHash(account.name, hash: hash, now: now) else { throw Failure.notRegistered(name) }
            try store.commit()
            console.out("\(account.name): password changed")
        case .delete:
            let name = settings.name ?? ""
            guard let account = try store.account(name) else { throw Failure.notRegistered(name) }
            guard try store.deleteAccount(account.name) else { throw Failure.notRegistered(name) }
            try store.commit()
            console.out("\(account.name): registration deleted; the name is a guest's again, its games and scores stay")
        }
    }

    /// The server's rule for a password: 8 to 200 Unicode scalars, none of
    /// them a control character.
    static func isValidPassword(_ password: String) -> Bool {
        let scalars = password.unicodeScalars
        return (8...200).contains(scalars.count) && !scalars.contains { $0.properties.generalCategory == .control }
    }

    /// `2026-11-26T02:53:34Z`.
    static func iso8601(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return String(seconds) }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
