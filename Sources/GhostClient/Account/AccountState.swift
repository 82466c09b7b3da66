import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Registered names: a name registered on the server needs its
/// password. The client asks for it when the server says
/// `ERR password-required`, offers to register the name in use, and to
/// change the password of the name logged in to.
///
/// Where a password lives: only in memory. It is typed into
/// `AccountClient.field` (drawn as •, never as itself), goes out in one
/// `ClientEffect.sendAccount`, and the password of the name logged in to is
/// kept (`remembered`) for the life of the process, so that a dropped
/// connection logs in again by itself. It is never in the settings file,
/// never in a log, never on disk; a new process asks again.

/// The screens that ask for a password.
public enum AccountScreen: Equatable, Sendable {
    /// The name chosen is registered: its password, to log in.
    case login
    /// Register the name in use: a new password, typed twice.
    case register
    /// Change the password of the name logged in to: a new one, typed twice.
    case change
}

/// How the connection would carry a password, which decides whether one may
/// be sent at all: over TLS, or to this computer (loopback), or in clear
/// because `--insecure` said so; `.clear` refuses, as browsers do.
public enum PasswordTransport: Equatable, Sendable {
    case tls, loopback, insecure, clear

    public var allowsPasswords: Bool { self != .clear }
}

/// A command that carries a password. The typed protocol (GhostProtocol's
/// `Command`) has no place for one; this one writes itself as the line the
/// server reads (Protocol.md: the password is the rest of the line, after a
/// single space, spaces and all).
public enum AccountCommand: Equatable, Sendable {
    /// `NAME <name> <password>`
    case login(name: String, password: String)
    /// `REGISTER <password>`
    case register(password: String)
    /// `PASSWORD <new password>`
    case changePassword(String)

    /// The line, as sent (without its line end).
    public var line: String {
        switch self {
        case let .login(name, password): "NAME \(name) \(password)"
        case .register(let password): "REGISTER \(password)"
        case .changePassword(let password): "PASSWORD \(password)"
        }
    }

    /// Whether a line (as a person types it in line mode) carries a
    /// password: `REGISTER …`, `PASSWORD …`, or `NAME` with more than a name.
    public static func carriesPassword(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let verb = words.first?.uppercased() else { return false }
        switch verb {
        case "REGISTER", "PASSWORD": return words.count > 1
        case "NAME": return words.count > 2
        default: return false
        }
    }

    var password: String {
        switch self {
        case .login(_, let p), .register(let p), .changePassword(let p): p
        }
    }
}

/// A line sent and not yet answered: a typed command, or one with a password.
public enum SentLine: Equatable, Sendable {
    case command(Command)
    case account(AccountCommand)

    /// The verb its OK or ERR answers, as the typed protocol knows it
    /// (REGISTER and PASSWORD are not among its verbs: nil).
    public var verb: Verb? {
        switch self {
        case .command(let c): c.verb
        case .account(.login): .name
        case .account: nil
        }
    }

    /// The kind's verb of a move sent (`LETTER`, `SOLVE`, `WORD`): every
    /// move's `verb` is `kindMove`.
    public var move: String? {
        if case .command(.kindMove(let verb, _)) = self { return verb }
        return nil
    }
}

/// What the status line says about passwords.
public enum AccountNotice: Equatable, Sendable {
    /// A password would cross the network unencrypted (no `--tls`, not this computer, no `--insecure`).
    case passwordInClear
    case typeAPassword
    /// A new password must have 8 to 200 characters.
    case passwordForm
    /// The second typing of a new password was not the first.
    case passwordsDiffer
    /// Now type it again.
    case typeItAgain
    case badPassword
    /// Too many wrong passwords: try again in this many seconds.
    case tooManyAttempts(Int)
    /// Enter during that wait: the password typed goes by itself in this many seconds.
    case sendingIn(Int)
    case registered(String)
    case passwordChanged
    /// The server is busy checking passwords.
    case serverBusy
}

/// The error codes of registered names. Spelled here, under
/// the client's own names, so the client does not depend on the names the
/// protocol library gives them.
enum AccountCodes {
    static let passwordRequired = ErrorCode(rawValue: "password-required")
    static let badPassword = ErrorCode(rawValue: "bad-password")
    static let badPasswordForm = ErrorCode(rawValue: "bad-password-form")
    static let nameRegistered = ErrorCode(rawValue: "name-registered")
    static let notRegistered = ErrorCode(rawValue: "not-registered")
    static let tooManyAttempts = ErrorCode(rawValue: "too-many-attempts")
    static let serverBusy = ErrorCode(rawValue: "server-busy")
}

/// The name and password of a successful login, kept for the process's life.
public struct Login: Equatable, Sendable {
    public var name: String
    var password: String
}

/// Everything the client keeps about registered names.
public struct AccountClient: Equatable, Sendable {
    /// A new password's length, in Unicode scalars (as the server counts).
    public static let passwordLength = 8...200

    /// Whether a password may be sent on this connection (set at start).
    public var transport: PasswordTransport = .loopback
    /// The name whose password the login screen asks for.
    public var loginName: String?
    /// The password being typed: drawn as •, never saved.
    var field = ""
    /// Registering or changing: the first typing, while the second is asked.
    var first: String?
    /// The registered name this connection is logged in to, if any.
    public var loggedIn: String?
    /// The last successful login (or registration), in memory only: a
    /// dropped connection logs in again with it.
    public var remembered: Login?
    /// After `ERR too-many-attempts`: when the server takes another try (monotonic seconds).
    public var retryAt: Double?
    /// Enter was pressed during that wait: `field` goes by itself once it
    /// ends. Typing on, or Esc, takes the password back.
    public var sendAtRetry = false

    public init() {}

    /// How many characters are typed (what the screen shows, as •).
    public var typedCount: Int { field.unicodeScalars.count }
    /// Registering or changing: the second typing is asked.
    public var confirming: Bool { first != nil }

    /// Logged in to `name`'s registration on this connection.
    public func isLoggedIn(as name: String?) -> Bool {
        guard let name, let loggedIn else { return false }
        return name.lowercased() == loggedIn.lowercased()
    }

    /// The password kept for `name`, if this process logged in to it.
    func password(for name: String) -> String? {
        guard let remembered, remembered.name.lowercased() == name.lowercased() else { return nil }
        return remembered.password
    }

    mutating func clearTyping() {
        field = ""
        first = nil
        sendAtRetry = false
    }

    /// The whole seconds left of the wait, as shown (0: none).
    func secondsToRetry(at now: Double) -> Int {
        guard let retryAt, retryAt > now else { return 0 }
        return Int((retryAt - now).rounded(.up))
    }

    /// The connection dropped: nobody is logged in on it any more.
    mutating func disconnected() {
        loggedIn = nil
    }

    /// `OK NAME` for a NAME without a password: a guest's name.
    mutating func namedAsGuest(_ name: String) {
        loggedIn = nil
    }

    /// The seconds in `ERR too-many-attempts try again in <n> s`, if it says.
    static func waitSeconds(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard let i = words.firstIndex(of: "in"), words.indices.contains(i + 1) else { return nil }
        return Int(words[i + 1]).map { max(0, $0) }
    }
}

extension ServerAddress {
    /// This computer: `localhost`, 127.0.0.0/8, ::1 (or ::ffff:127.x.y.z).
    /// A password sent there crosses no network.
    public var isLoopback: Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "localhost." || h.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        // IPv4-mapped: ::ffff:127.x.y.z
        return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }
}
