import GhostProtocol
import GhostStore

/// Registered names (a part of the lobby of its own):
/// `REGISTER <password>`, `NAME <name> <password>`, `PASSWORD <new>`, and
/// the rules for guests. A password is hashed or checked off the event loop
/// (`PasswordChecker`); while a connection waits for the answer its later
/// lines wait too (`Lobby.received` defers them, and the loop does not
/// serve them), and the others are served. A password or a hash is never
/// logged or sent. It owns the passwords being checked, the failed logins
/// and the checker.
final class AccountDesk: LobbyPart {
    let context: LobbyContext
    /// The parts it uses, below it: a password's answer runs as a command
    /// (RecoveryDesk.swift); a login takes its name from another connection,
    /// which stops waiting (Waiting.swift), and sets it (NameDesk.swift).
    let recovery: RecoveryDesk
    let waiting: Waiting
    let names: NameDesk
    /// Where passwords go to be hashed or checked, off the loop:
    /// the server sets its pool of hashing threads (`Lobby.passwordChecker`).
    var passwordChecker: any PasswordChecker = DeferredPasswordChecker()
    /// The passwords being checked, and the failed logins.
    var accounts: Accounts

    init(context: LobbyContext, recovery: RecoveryDesk, waiting: Waiting, names: NameDesk) {
        self.context = context
        self.recovery = recovery
        self.waiting = waiting
        self.names = names
        let settings = context.settings
        accounts = Accounts(backoff: LoginBackoff(maxWait: settings.loginBackoffMax, memory: settings.loginFailureMemory,
                                                  capacity: settings.maxLoginFailureEntries),
                            hashes: TokenBuckets(perSecond: settings.hashesPerMinute / 60, burst: settings.hashBurst))
    }

    /// What the lobby keeps for the passwords being checked, and the failed logins.
    struct Accounts {
        /// The next job's ticket.
        var nextTicket = 1
        /// The jobs a connection waits for, by ticket. A connection that goes
        /// away leaves its job here; its outcome is dropped.
        var pending: [Int: PendingPassword] = [:]
        var backoff: LoginBackoff
        /// Names (lowercased) with a login being checked: one at a time
        /// each, so that parallel guesses wait for the backoff too.
        var checking: Set<String> = []
        /// Logins being checked per network: at most `loginsInFlightPerNetwork`.
        var checkingNetworks: [String: Int] = [:]
        /// Passwords hashed or checked per network (`Settings.hashesPerMinute`), right or wrong.
        var hashes: TokenBuckets
    }

    struct PendingPassword {
        enum What {
            case register(name: String)
            case login(name: String, network: String)
            case change(name: String)
        }
        let conn: ConnectionID
        let what: What
    }

    /// Logins one network may have being checked at once: a network's
    /// parallel guesses at several names are answered (and its backoff
    /// counted) a few at a time.
    static let loginsInFlightPerNetwork = 4

    /// The games in progress of a name looked at to decide whether one of
    /// its seats waits for its player (at most this many per seat).
    static let seatScanLimit = 64

    /// Passwords being hashed or checked now (STATS `passwords_pending`).
    var pendingCount: Int { accounts.pending.count }

    // MARK: Commands

    /// REGISTER <password>: the connection's name, registered by nobody, becomes its account.
    /// (Its row `needsName`: before NAME it is answered `ERR no-name`.)
    func register(_ password: Password, _ id: ConnectionID, _ session: Session) {
        guard let name = session.name else { return }
        guard let registered = persist({ try store.isRegistered(name) }) else { return failed(id) }
        if registered { return reply(id, .error(.nameRegistered, "\(name) is registered already")) }
        submitPassword(.make(password), from: id, .register(name: name))
    }

    /// NAME <name> <password>: log in to a registered name.
    func login(_ name: String, _ password: Password, _ id: ConnectionID, _ session: Session) {
        let key = name.lowercased()
        if key.hasPrefix(GamePlay.botPrefix) {
            return reply(id, .error(.badName, "names starting with \(GamePlay.botPrefix) are kept for the computer"))
        }
        guard session.state == .idle else {
            return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
        }
        guard let account = persist({ try store.account(name) }) else { return failed(id) }
        guard let account else {
            return reply(id, .error(.notRegistered, "\(name) is not registered; a guest's name takes no password"))
        }
        let network = session.network
        let now = clock.monotonic
        if let wait = accounts.backoff.wait(name: key, network: network, at: now) {
            return reply(id, .error(.tooManyAttempts, "try again in \(Int(wait.rounded(.up))) s"))
        }
        if accounts.checking.contains(key)
            || (!network.isEmpty && accounts.checkingNetworks[network, default: 0] >= AccountDesk.loginsInFlightPerNetwork) {
            return reply(id, .error(.tooManyAttempts, "try again in 1 s"))
        }
        if submitPassword(.verify(password, hash: account.hash), from: id, .login(name: name, network: network)) {
            accounts.checking.insert(key)
            if !network.isEmpty { accounts.checkingNetworks[network, default: 0] += 1 }
        }
    }

    /// PASSWORD <new>: only logged in to a registered name.
    func changePassword(_ password: Password, _ id: ConnectionID, _ session: Session) {
        guard let name = session.name, session.loggedIn?.lowercased() == name.lowercased() else {
            return reply(id, .error(.notRegistered, "log in to a registered name first: NAME <name> <password>"))
        }
        submitPassword(.make(password), from: id, .change(name: name))
    }

    @discardableResult
    private func submitPassword(_ work: PasswordJob.Work, from id: ConnectionID, _ what: PendingPassword.What) -> Bool {
        // Every hash costs the network (a connection without one, in tests, costs nothing).
        if let network = sessions[id]?.network, !network.isEmpty,
           let wait = accounts.hashes.take(network, at: clock.monotonic) {
            figures.hashesRefused += 1
            reply(id, .error(.tooManyAttempts, "too many passwords from your network; try again in \(Int(wait.rounded(.up))) s"))
            return false
        }
        let ticket = accounts.nextTicket
        accounts.nextTicket += 1
        guard passwordChecker.submit(PasswordJob(ticket: ticket, work: work)) else {
            figures.hashesRefused += 1
            reply(id, .error(.serverBusy, "too many passwords being checked; try again"))
            return false
        }
        accounts.pending[ticket] = PendingPassword(conn: id, what: what)
        sessions.update(id) { $0.awaitingPassword = ticket }
        return true
    }

    // MARK: Answers

    /// Takes the checker's finished outcomes and answers each, then serves
    /// the lines that waited behind it, through `serve` (the lobby's
    /// `received`, given for the call: the lobby is above this part). The
    /// loop calls it when the hashing pool wakes it (and tests when they
    /// like); like a command, each answer's writes are committed before its
    /// reply is sent.
    func passwordsChecked(serve: (LineFramer.Frame, ConnectionID) -> Void) {
        for outcome in passwordChecker.takeFinished() { answer(outcome, serve: serve) }
    }

    private func answer(_ outcome: PasswordOutcome, serve: (LineFramer.Frame, ConnectionID) -> Void) {
        guard let pending = accounts.pending.removeValue(forKey: outcome.ticket) else { return }
        if case let .login(name, network) = pending.what {
            accounts.checking.remove(name.lowercased())
            if let n = accounts.checkingNetworks[network] { accounts.checkingNetworks[network] = n > 1 ? n - 1 : nil }
        }
        let id = pending.conn
        // A connection that went away: its answer is dropped.
        guard let session = sessions[id], session.awaitingPassword == outcome.ticket, recovery.storeError == nil else { return }
        sessions.update(id) { $0.awaitingPassword = nil }
        recovery.runCommand(from: id, identity: session) {
            guard let session = self.sessions[id] else { return }
            switch pending.what {
            case .register(let name): self.registered(name, outcome, id, session)
            case let .login(name, network): self.loggedIn(name, network: network, outcome, id, session)
            case .change(let name): self.changed(name, outcome, id, session)
            }
        }
        // The lines that waited for this answer, in order (until one waits again).
        while let s = sessions[id], s.awaitingPassword == nil, let frame = s.deferred.first {
            sessions.byID[IDKey(id)]?.deferred.removeFirst()
            serve(frame, id)
        }
    }

    private func registered(_ name: String, _ outcome: PasswordOutcome, _ id: ConnectionID, _ session: Session) {
        guard let hash = outcome.hash else { return hashFailed(id) }
        guard session.name?.lowercased() == name.lowercased() else {
            return reply(id, .error(.noName, "you no longer use \(name); send NAME <name> first"))
        }
        guard let created = persist({ try store.createAccount(name, hash: hash, now: clock.wall) }) else { return failed(id) }
        guard created else { return reply(id, .error(.nameRegistered, "\(name) is registered already")) }
        sessions.update(id) { $0.loggedIn = name }
        figures.registrations += 1
        log("name \(name) registered from \(AccountDesk.shown(session.address))")
        reply(id, .ok(.registered(name: name)))
    }

    private func loggedIn(_ name: String, network: String, _ outcome: PasswordOutcome, _ id: ConnectionID, _ session: Session) {
        let key = name.lowercased()
        guard outcome.matches else {
            accounts.backoff.failed(name: key, network: network, at: clock.monotonic)
            figures.loginsFailed += 1
            log("login failed for \(name) from \(AccountDesk.shown(session.address))")
            return reply(id, .error(.badPassword, "wrong password"))
        }
        accounts.backoff.succeeded(name: key)
        figures.logins += 1
        guard session.state == .idle else {
            return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
        }
        // The owner takes the name from another connection, unless that one plays with it.
        if let holder = sessions.names[key], holder != id, let other = sessions[holder] {
            if case .playing = other.state {
                return reply(id, .error(.nameTaken, "\(name) is playing a game on another connection"))
            }
            waiting.stopWaiting(holder, other)
            forgetLastGame(holder)
            sessions.update(holder) { $0.name = nil }
            sessions.update(holder) { $0.loggedIn = nil }
            sessions.names[key] = nil
            outbox.send(.info("\(name) logged in on another connection; send NAME to pick a name."), to: holder)
        }
        names.setName(name, id, session, loggedIn: true)
    }

    private func changed(_ name: String, _ outcome: PasswordOutcome, _ id: ConnectionID, _ session: Session) {
        guard let hash = outcome.hash else { return hashFailed(id) }
        guard session.loggedIn?.lowercased() == name.lowercased(),
              let stored = persist({ try store.setPasswordHash(name, hash: hash, now: clock.wall) }) else {
            return session.loggedIn == nil ? reply(id, .error(.notRegistered, "log in to a registered name first")) : failed(id)
        }
        guard stored else { return reply(id, .error(.notRegistered, "\(name) is not registered any more")) }
        log("password changed for \(name)")
        figures.passwordsChanged += 1
        reply(id, .ok(.passwordChanged))
    }

    private func hashFailed(_ id: ConnectionID) {
        log("a password could not be hashed (libxcrypt failed)")
        reply(id, .error(.serverBusy, "the password could not be hashed; try again"))
    }

    /// An address for the log ("" in tests: "?").
    static func shown(_ address: String) -> String { address.isEmpty ? "?" : address }
}
