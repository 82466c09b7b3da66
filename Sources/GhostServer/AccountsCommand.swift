import GhostAuth
import GhostProtocol
import GhostStore
import OptionKit
#if canImport(Glibc)
import Glibc
#endif

/// `ghostd accounts list|reset-password NAME|delete NAME|mute NAME|ban
/// NAME|unban NAME …`: the operator's account commands. Each takes the data
/// folder's lock (the daemon's, `DataFolderLock`) for as long as it works,
/// so that a ghostd started meanwhile refuses, and opens the database with
/// the daemon's startup checks. While a ghostd serves the folder,
/// reset-password and delete refuse; list reads beside it (OperatorLists.swift);
/// mute, ban and unban ask it (OperatorRequests.swift), and it acts at
/// once. Nothing here prints a password or a hash.
public enum AccountsCommand {
    public enum Action: String, CaseIterable, Equatable, Sendable {
        case list
        case resetPassword = "reset-password"
        case delete
        case mute
        case ban
        case unban

        /// Done by a running daemon when one holds the folder.
        var isModeration: Bool { self == .mute || self == .ban || self == .unban }
    }

    public struct Settings: Equatable, Sendable {
        public var data = ServerConfig.defaultDataDirectory()
        /// The daemon's `--store`: its state in PostgreSQL, not in `data`.
        public var store: String?
        public var action: Action = .list
        public var name: String?
        /// How long a mute or ban lasts (nil: until lifted).
        public var days: Int?
        /// A network's address, for ban and unban.
        public var network: String?
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
        .value("--store", "URL", "that ghostd's --store: its state in PostgreSQL", .text("a PostgreSQL URL"), \.store, defaultText: "SQLite in --data"),
        .value("--days", "N", "mute or ban for N days (without it: until unban)", .integer(1...36_500), \.days, defaultText: nil),
        .value("--network", "ADDRESS", "ban or unban the network of this IPv4 or IPv6 address (an IPv6 address's /64) instead of a name",
               Value<String>(allowed: "an IPv4 or IPv6 address", show: { $0 }) {
                   $0.isEmpty ? .failure(.empty) : NetworkKey.isAddress($0) ? .success($0) : .failure(.invalid)
               }, \.network, defaultText: nil),
        .help,
    ], positionals: [
        .value("COMMAND", "list, reset-password, delete, mute, ban or unban (see Commands)",
               Value<Action>.choice, required: true) { $0.action = $1 },
        .value("NAME", "the name (any case): registered for reset-password and delete, any for mute, ban and unban",
               Value<String>(allowed: "1 to \(CommandParser.maxNameLength) letters, digits, - or _", show: { $0 }) {
                   $0.isEmpty ? .failure(.empty) : CommandParser.isValidName($0) ? .success($0) : .failure(.invalid)
               }) { $0.name = $1 },
    ]) }

    public static var usage: String {
        table.help(usage: usageLine, about: [
            "Manage registered names, mute and ban. While a ghostd serves the data",
            "folder, it does mute, ban and unban at once, list reads beside it, and",
            "reset-password and delete are refused (exit status 1); a ghostd started",
            "while a command works is refused in turn. With --store, mute, ban and",
            "unban go to the node that leads the cluster, from any machine and data",
            "folder (docs/cluster.md); with none running, to the store alone.",
        ], sections: [(title: "Commands:", lines: commands.flatMap { HelpText.entry($0.head, $0.text) })],
        footer: [
            "Exit status: 0 done, 1 refused or failed (nothing changed), 2 bad usage.",
        ], defaults: Settings())
    }

    static let usageLine = "ghostd accounts list|reset-password NAME|delete NAME|mute NAME|ban NAME|unban NAME [--days N] [--network ADDRESS] [--data DIR]"

    /// The commands, for help and the manual page.
    static var commands: [(head: String, text: String)] { [
        ("list", "every registered name with the dates (UTC, ISO 8601) it was registered and its password last changed, alphabetically, one a line: `NAME created=… changed=…`; never a hash. Then the mutes and bans in force: `NAME mute until=…`, `NAME ban until=…`, `network:ADDRESS ban until=…` (`until=forever`: until unban)"),
        ("reset-password NAME", "set a new password, read from standard input: a terminal is asked twice with echo off; otherwise the first line is read (`printf '%s\\n' \"$pw\" | ghostd accounts reset-password ann`). \(passwordRule.prefix(1).uppercased() + passwordRule.dropFirst()), as REGISTER takes"),
        ("delete NAME", "remove the registration: the name is a guest's again; its games and scores stay"),
        ("mute NAME [--days N]", "the name may not chat (SAY answers `ERR muted`) for N days, or until unban; registered or not"),
        ("ban NAME [--days N]", "the name may not be used: its connection is closed with `BYE banned` and NAME or RESUME of it answer `ERR banned`, for N days or until unban"),
        ("ban --network ADDRESS [--days N]", "nobody may connect from the network of ADDRESS (an IPv4 address, an IPv6 address's /64): its connections are closed and new ones get `BYE banned`"),
        ("unban NAME, unban --network ADDRESS", "lift the name's mute and ban, or the network's ban"),
    ] }

    /// The form a password must have (the server's rule, Protocol.md).
    static let passwordRule = "8 to 200 characters, no control characters"

    /// Parses arguments (after `ghostd accounts`).
    public static func parse(_ arguments: [String]) -> Result<Invocation, OptionError> {
        switch table.parse(arguments, into: Settings()) {
        case .failure(let e): return .failure(e)
        case .success(.help), .success(.version): return .success(.help)
        case .success(.run(let s)):
            if let problem = problem(s) { return .failure(problem) }
            return .success(.run(s))
        }
    }

    /// What is wrong with the combination of COMMAND, NAME, --days and --network.
    static func problem(_ s: Settings) -> OptionError? {
        let verb = s.action.rawValue
        if s.days != nil, s.action != .mute, s.action != .ban {
            return OptionError(.unexpectedArgument, subject: "--days", allowed: "--days is for mute and ban")
        }
        if s.network != nil, s.action != .ban, s.action != .unban {
            return OptionError(.unexpectedArgument, subject: "--network", allowed: "--network is for ban and unban")
        }
        switch (s.action, s.name, s.network) {
        case (.list, let name?, _):
            return OptionError(.unexpectedArgument, subject: name, allowed: "list takes no NAME")
        case (_, let name?, _?):
            return OptionError(.unexpectedArgument, subject: name, allowed: "a NAME or --network, not both")
        case (.resetPassword, nil, _), (.delete, nil, _), (.mute, nil, _):
            return OptionError(.missingArgument, subject: "NAME", allowed: "the \(s.action.isModeration ? "" : "registered ")name after \(verb)")
        case (.ban, nil, nil), (.unban, nil, nil):
            return OptionError(.missingArgument, subject: "NAME", allowed: "the name after \(verb), or --network ADDRESS")
        default:
            return nil
        }
    }

    /// The operator's action `settings` ask for (mute, ban, unban).
    static func action(_ s: Settings, now: Int) -> OperatorAction? {
        let until = s.days.map { now + $0 * 86_400 }
        switch (s.action, s.name, s.network) {
        case (.mute, let name?, _): return .mute(name: name, until: until)
        case (.ban, let name?, _): return .ban(name: name, until: until)
        case (.ban, nil, let address?): return .banNetwork(address: address, until: until)
        case (.unban, let name?, _): return .unban(name: name)
        case (.unban, nil, let address?): return .unbanNetwork(address: address)
        default: return nil
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
        guard settings.store != nil || access(file, F_OK) == 0 else { throw Failure.noDatabase(file) }
        if settings.action == .list {
            return try OperatorLists.withLists(folder: folder, store: settings.store) { try $0.listAccounts(now: now, out: console.out) }
        }
        // With the state in PostgreSQL, the node that leads does it, from any
        // machine (OperatorRelay.swift), unless the folder's own ghostd takes
        // requests (below, as on SQLite); with no live lease, it is written
        // below, alone (and said so, if a node led once).
        var noLeader = false
        if settings.action.isModeration, let url = settings.store, let action = action(settings, now: now),
           OperatorClient.daemonTakingRequests(data: folder) == nil {
            switch try OperatorRelay.send(action, store: url) {
            case .done(let text): return console.out(text)
            case .noLeader(let lapsed): noLeader = lapsed
            }
        }
        let lock: DataFolderLock
        do {
            lock = try DataFolderLock(directory: folder)
        } catch DataFolderLock.Failure.inUse(_, let pid?) where settings.action.isModeration {
            // A running daemon does it, at once (OperatorRequests.swift).
            guard let action = action(settings, now: now) else { return }
            return console.out(try OperatorClient.send(action, data: folder, pid: pid))
        }
        defer { lock.unlock() }
        let store = try OperatorLists.openStore(folder: folder, store: settings.store)
        defer { store.close() }
        switch settings.action {
        case .list:
            try OperatorLists(store: store).listAccounts(now: now, out: console.out)
        case .mute, .ban, .unban:
            guard let action = action(settings, now: now) else { return }
            let text = try action.applyOffline(to: store.socialStore, now: now)
            try store.commit()
            console.out(text)
            if noLeader { console.out(noLeaderNote) }
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

    /// Said after a change written to the store alone because no node leads the cluster.
    static let noLeaderNote = "no ghostd node leads the cluster now (no live lease): written to the store alone; the next node to lead applies it as it starts"

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
