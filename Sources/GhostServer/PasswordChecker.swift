import GhostAuth
import GhostProtocol

/// A password to hash or check, off the event loop. It prints
/// as its ticket only: neither the password nor the hash ever reaches a log.
public struct PasswordJob: Sendable, CustomStringConvertible, CustomReflectable {
    public enum Work: Sendable {
        /// A new salted hash of the password (REGISTER, PASSWORD).
        case make(Password)
        /// Whether the password is the one `hash` was made from (NAME <name> <password>).
        case verify(Password, hash: String)
    }

    public let ticket: Int
    public let work: Work

    public init(ticket: Int, work: Work) {
        self.ticket = ticket
        self.work = work
    }

    public var description: String { "password job \(ticket)" }
    public var customMirror: Mirror { Mirror(self, children: ["ticket": ticket]) }

    /// Does the work (slow on purpose: tens of milliseconds).
    public func run() -> PasswordOutcome {
        switch work {
        case .make(let password):
            PasswordOutcome(ticket: ticket, hash: PasswordHash.make(password.text), matches: false)
        case .verify(let password, let hash):
            PasswordOutcome(ticket: ticket, hash: nil, matches: PasswordHash.verify(password.text, against: hash))
        }
    }
}

/// What a `PasswordJob` found.
public struct PasswordOutcome: Sendable, CustomStringConvertible, CustomReflectable {
    public let ticket: Int
    /// `make`: the new hash, nil if libxcrypt failed. `verify`: nil.
    public let hash: String?
    /// `verify`: whether the password was right.
    public let matches: Bool

    public init(ticket: Int, hash: String?, matches: Bool) {
        self.ticket = ticket
        self.hash = hash
        self.matches = matches
    }

    public var description: String { "password outcome \(ticket)" }
    public var customMirror: Mirror { Mirror(self, children: ["ticket": ticket, "matches": matches]) }
}

/// Where the lobby sends passwords to hash or check: the server's pool of
/// hashing threads (Net/HashPool.swift), or, in tests, a checker that does
/// the work when asked for the outcomes. The lobby asks for the outcomes
/// with `Lobby.passwordsChecked()`: the loop when the pool wakes it.
public protocol PasswordChecker: AnyObject {
    /// Queues a job; false, queuing nothing, when the queue is full.
    func submit(_ job: PasswordJob) -> Bool
    /// The outcomes of the jobs finished since the last call.
    func takeFinished() -> [PasswordOutcome]
}

/// A checker that does its jobs on the caller's thread when asked for the
/// outcomes, in the order they came: a lobby without a pool, and tests,
/// which stay deterministic. At most `capacity` jobs wait.
public final class DeferredPasswordChecker: PasswordChecker {
    public let capacity: Int
    private var queued: [PasswordJob] = []

    public init(capacity: Int = 32) {
        self.capacity = capacity
    }

    /// Jobs waiting.
    public var count: Int { queued.count }

    public func submit(_ job: PasswordJob) -> Bool {
        guard queued.count < capacity else { return false }
        queued.append(job)
        return true
    }

    public func takeFinished() -> [PasswordOutcome] {
        guard !queued.isEmpty else { return [] }
        let jobs = queued
        queued.removeAll()
        return jobs.map { $0.run() }
    }
}
