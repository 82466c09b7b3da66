#if canImport(Glibc)
import Glibc
#endif
import GhostProtocol
import GhostStore

/// The operator's requests to a running ghostd (`ghostd accounts
/// mute|ban|unban` while a daemon holds the data folder): the folder
/// `<data>/operator/` (0700) is the mailbox, SIGUSR1 the doorbell.
///
/// - The command writes its request, one line (`ban ann until=1796000000`),
///   to `.<id>.tmp` and renames it to `<id>.request`, so that the daemon
///   never reads half a file; then it sends SIGUSR1 to the PID in the
///   folder's pidfile (`DataFolderLock`) if the daemon wrote that PID in
///   `ready` (it takes requests), and waits for `<id>.reply`.
/// - The daemon (OperatorInbox.swift), at SIGUSR1, takes each request by
///   renaming it to `.<id>.taken` (so that a command that gave up and
///   removes its request knows whether it was taken), reads it as the
///   untrusted input it is, applies it (`Lobby.apply`), and writes
///   `<id>.reply` (`ok: …` or `error: …`, tmp and rename again) only once
///   the turn that stored it is committed, and synced with `--durability
///   full`.
///
/// Why files and a signal rather than a socket: nothing new listens, the
/// folder's permissions (the daemon's user's, 0700) say who may ask, and
/// the signal reaches the loop through the signalfd it already reads.
enum OperatorRequest {
    /// The mailbox's name in the data folder.
    static let folderName = "operator"
    /// A request is one short line: anything longer is refused unread.
    static let maxBytes = 1024
    /// Requests taken at one SIGUSR1; the rest wait for the next one.
    static let maxPerSignal = 100
    /// The file in which a daemon that takes requests writes its PID.
    static let readyName = "ready"
    /// How long the command waits for the daemon's reply.
    static let replyTimeout = 10.0
    /// A request older than this (seconds) is refused unread: its command
    /// waited `replyTimeout` at most, and gave up (it was killed, say).
    static let maxAge = 60

    static func folder(in data: String) -> String {
        let d = data.isEmpty ? "." : data
        return (d.hasSuffix("/") ? d : d + "/") + folderName
    }

    /// An id is what the command chose: 1 to 64 of `a-z 0-9 -` (nothing
    /// that could name another folder or a hidden file).
    static func isValidID(_ id: Substring) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.first != UInt8(ascii: "-")
            && id.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// A fresh id: the command's PID and 64 random bits.
    static func newID() -> String {
        "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    // MARK: The request line

    /// The line a request file holds.
    static func line(_ action: OperatorAction) -> String {
        func until(_ u: Int?) -> String { "until=" + (u.map(String.init) ?? "forever") }
        switch action {
        case let .mute(name, u): return "mute \(name) \(until(u))"
        case let .ban(name, u): return "ban \(name) \(until(u))"
        case let .unban(name): return "unban \(name)"
        case let .banNetwork(address, u): return "ban-network \(address) \(until(u))"
        case let .unbanNetwork(address): return "unban-network \(address)"
        }
    }

    /// Reads a request line; the error says what is wrong with it.
    static func parse(_ text: String) -> Result<OperatorAction, OperatorRefusal> {
        var line = Substring(text)
        if line.hasSuffix("\n") { line = line.dropLast() }
        guard !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure("the request is not one line of text")
        }
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let verb = words.first else { return .failure("empty request") }
        func name(_ i: Int) -> String? {
            guard words.count > i, CommandParser.isValidName(words[i]) else { return nil }
            return String(words[i])
        }
        func address(_ i: Int) -> String? {
            guard words.count > i, NetworkKey.isAddress(String(words[i])) else { return nil }
            return String(words[i])
        }
        /// `until=SECONDS|forever` as word `i`: .some(nil) for forever.
        func until(_ i: Int) -> Int?? {
            guard words.count > i, words[i].hasPrefix("until=") else { return nil }
            let value = words[i].dropFirst("until=".count)
            if value == "forever" { return .some(nil) }
            guard value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(value), n > 0 else { return nil }
            return .some(n)
        }
        switch verb {
        case "mute", "ban":
            guard words.count == 3, let n = name(1) else { return .failure("\(verb) takes a name and until=") }
            guard let u = until(2) else { return .failure("\(verb): until= takes unix seconds or forever") }
            return .success(verb == "mute" ? .mute(name: n, until: u) : .ban(name: n, until: u))
        case "unban":
            guard words.count == 2, let n = name(1) else { return .failure("unban takes a name") }
            return .success(.unban(name: n))
        case "ban-network":
            guard words.count == 3, let a = address(1) else { return .failure("ban-network takes an IPv4 or IPv6 address and until=") }
            guard let u = until(2) else { return .failure("ban-network: until= takes unix seconds or forever") }
            return .success(.banNetwork(address: a, until: u))
        case "unban-network":
            guard words.count == 2, let a = address(1) else { return .failure("unban-network takes an IPv4 or IPv6 address") }
            return .success(.unbanNetwork(address: a))
        default:
            return .failure("unknown request \(String(verb.prefix(20)).debugDescription)")
        }
    }

    // MARK: Files

    /// Writes `text` to `folder/<final>` by way of `folder/<temporary>`
    /// (created anew, 0600, never through a link), so that a reader sees
    /// the whole file or none. `owner`: give the file to that user and group
    /// first (root writing into a daemon's folder). nil, or why it failed.
    static func writeAtomically(_ text: String, folder: String, temporary: String, final: String,
                                owner: (uid: uid_t, gid: gid_t)? = nil) -> String? {
        let tmp = folder + "/" + temporary
        var fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0, errno == EEXIST {
            unlink(tmp)   // a leftover of a writer that stopped halfway
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return "cannot create \(tmp): \(String(cString: strerror(errno)))" }
        let bytes = Array(text.utf8)
        var done = 0
        var failure: String?
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + done }, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                failure = "cannot write \(tmp): \(String(cString: strerror(errno)))"
                break
            }
            done += n
        }
        if failure == nil, let owner, fchown(fd, owner.uid, owner.gid) != 0 {
            failure = "cannot give \(tmp) to the daemon's user: \(String(cString: strerror(errno)))"
        }
        close(fd)
        if failure == nil, rename(tmp, folder + "/" + final) != 0 {
            failure = "cannot rename \(tmp): \(String(cString: strerror(errno)))"
        }
        if failure != nil { unlink(tmp) }
        return failure
    }

    /// A small regular file's text, read without following a link or
    /// blocking on a FIFO; at most `limit` bytes (a longer one fails).
    static func readSmallFile(_ path: String, limit: Int) -> Result<String, OperatorRefusal> {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure("cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure("cannot stat it: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure("it is not a regular file") }
        guard info.st_size <= limit else { return .failure("it is longer than \(limit) bytes") }
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, limit + 1 - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return .failure("cannot read it: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return .failure("it is longer than \(limit) bytes") }
        guard let text = String(validating: buffer[0..<count], as: UTF8.self) else { return .failure("it is not UTF-8 text") }
        return .success(text)
    }
}

/// Why a request was not done, in words for the operator.
struct OperatorRefusal: Error, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    let description: String
    init(stringLiteral value: String) { description = value }
    init(_ text: String) { description = text }
}

extension OperatorAction {
    /// The action done by the command itself, with no daemon running (it
    /// holds the folder's lock): only the store changes. The caller commits.
    /// Says what was done, as a running daemon does (`Moderation.apply`).
    func applyOffline(to social: SocialStore, now: Int) throws -> String {
        if let (kind, target, until) = sanction {
            try social.setSanction(SocialStore.Sanction(kind: kind, target: target, until: until, at: now))
            let time = until.map { "until \(Moderation.shown($0))" } ?? "until lifted"
            switch self {
            case .ban(let name, _): return "\(name): banned \(time)"
            case .banNetwork(let address, _): return "network \(target) (from \(address)): banned \(time)"
            default: return "\(target): muted \(time)"
            }
        }
        switch self {
        case .unban(let name):
            let n = try social.liftSanctions([.mute, .ban], on: name)
            return n == 0 ? "\(name): no mute or ban to lift" : "\(name): mute and ban lifted"
        case .unbanNetwork(let address):
            let key = NetworkKey.of(address)
            let n = try social.liftSanctions([.banNetwork], on: key)
            return n == 0 ? "network \(key): no ban to lift" : "network \(key): ban lifted"
        default:
            return ""
        }
    }
}
