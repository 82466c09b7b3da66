import GhostProtocol

/// Registered names, in the core: sending NAME with the password kept in
/// memory, the password screens' keys, and the answers to NAME-with-password,
/// REGISTER and PASSWORD (see AccountState.swift).
extension ClientState {
    /// Takes `name`: with its password when this process logged in to it
    /// (and a password may be sent), else plainly (a guest's name, or the
    /// server answers `ERR password-required` and the login screen asks).
    mutating func sendName(_ name: String, _ fx: inout [ClientEffect]) {
        if account.transport.allowsPasswords, let password = account.password(for: name) {
            sendAccount(.login(name: name, password: password), &fx)
        } else {
            send(.name(name), &fx)
        }
    }

    /// Sends a command that carries a password, if the server can hear it.
    @discardableResult
    mutating func sendAccount(_ command: AccountCommand, _ fx: inout [ClientEffect]) -> Bool {
        guard link == .online else {
            show(.notConnected)
            return false
        }
        guard account.transport.allowsPasswords else {
            show(.account(.passwordInClear))
            return false
        }
        sent.append(.account(command))
        lastSentAt = now
        fx.append(.sendAccount(command))
        return true
    }

    /// The main screen's entry: register the name in use, or change the
    /// password of the one logged in to.
    mutating func openAccountScreen() {
        account.clearTyping()
        go(.account(account.isLoggedIn(as: myName) ? .change : .register))
    }

    /// The login screen, for `name` (the server said `ERR password-required`).
    mutating func askPassword(for name: String) {
        account.loginName = name
        account.clearTyping()
        if screen != .account(.login) { go(.account(.login)) }
    }

    /// The connection cannot be made safely: said on the status line, not retried.
    mutating func refused(_ why: String) {
        link = .refused(why)
        sent = []
        named = false
        account.disconnected()
    }

    // MARK: Keys

    /// Typing a password: any printable character (spaces too), Backspace
    /// erases, Enter confirms, Esc goes back.
    mutating func accountKey(_ sub: AccountScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard account.field.unicodeScalars.count + c.unicodeScalars.count <= AccountClient.passwordLength.upperBound else { return }
            account.field.append(c)
            keepTypingDuringWait()
        case .backspace:
            if !account.field.isEmpty { account.field.removeLast() }
            keepTypingDuringWait()
        case .escape:
            account.clearTyping()
            if sub == .login || !named { goToNameScreen(&fx) } else { goToMain() }
        case .enter:
            accountEnter(sub, &fx)
        default:
            break
        }
    }

    mutating func accountEnter(_ sub: AccountScreen, _ fx: inout [ClientEffect]) {
        guard account.transport.allowsPasswords else { return show(.account(.passwordInClear)) }
        let typed = account.field
        switch sub {
        case .login:
            guard let name = account.loginName else { return goToNameScreen(&fx) }
            guard !typed.isEmpty else { return show(.account(.typeAPassword)) }
            if let at = account.retryAt, at > now {
                // Kept, and sent by itself once the wait is over: never dropped.
                account.sendAtRetry = true
                return showWait()
            }
            if sendAccount(.login(name: name, password: typed), &fx) { account.clearTyping() }
        case .register, .change:
            guard let first = account.first else {
                guard AccountClient.passwordLength.contains(typed.unicodeScalars.count) else {
                    return show(.account(.passwordForm))
                }
                account.first = typed
                account.field = ""
                return show(.account(.typeItAgain))
            }
            guard typed == first else {
                account.clearTyping()
                return show(.account(.passwordsDiffer))
            }
            let command: AccountCommand = sub == .register ? .register(password: typed) : .changePassword(typed)
            if sendAccount(command, &fx) { account.clearTyping() }
        }
    }

    // MARK: The wait after too many wrong passwords

    /// The status line during the wait: how long it still lasts, or, with a
    /// password waiting to go, when it goes. It stays for the whole wait,
    /// and `passwordWaitTick` counts it down.
    mutating func showWait() {
        guard let at = account.retryAt, at > now else { return }
        let left = account.secondsToRetry(at: now)
        alert = Alert(notice: .account(account.sendAtRetry ? .sendingIn(left) : .tooManyAttempts(left)), until: at)
    }

    /// Typing during the wait after Enter: the password queued is no longer
    /// the one confirmed, so it waits for Enter again (still on screen).
    mutating func keepTypingDuringWait() {
        guard account.sendAtRetry else { return }
        account.sendAtRetry = false
        if case .account? = alert?.notice { showWait() }
    }

    /// Each tick: during the wait the status line counts down; once it is
    /// over, a password queued by Enter is sent by itself (when the server
    /// can hear it; else at the greeting, `hello`).
    mutating func passwordWaitTick(_ fx: inout [ClientEffect]) {
        guard let at = account.retryAt else { return }
        if at > now {
            if case .account(.tooManyAttempts)? = alert?.notice { showWait() }
            if case .account(.sendingIn)? = alert?.notice { showWait() }
            return
        }
        guard account.sendAtRetry, screen == .account(.login), link == .online else { return }
        account.sendAtRetry = false
        if case .account(.sendingIn)? = alert?.notice { alert = nil }
        accountEnter(.login, &fx)
    }

    // MARK: Replies

    /// The OK of a command that carried a password. True when that is all
    /// there is to do; false for a login, whose `OK NAME` then goes on as
    /// any NAME's does (the main screen).
    mutating func accountReply(_ reply: Reply, to command: AccountCommand, _ fx: inout [ClientEffect]) -> Bool {
        account.retryAt = nil
        switch command {
        case let .login(name, password):
            var taken = name
            if case .name(let n, _) = reply { taken = n }
            account.loggedIn = taken
            account.remembered = Login(name: taken, password: password)
            return false
        case .register(let password):
            let name = reply.fields["name"] ?? myName ?? ""
            account.loggedIn = name
            account.remembered = Login(name: name, password: password)
            if case .account = screen { goToMain() }
            show(.account(.registered(name)))
            return true
        case .changePassword(let password):
            if let name = account.loggedIn ?? myName { account.remembered = Login(name: name, password: password) }
            if case .account = screen { goToMain() }
            show(.account(.passwordChanged))
            return true
        }
    }

    /// An ERR about passwords: to a command that carried one, or
    /// `ERR password-required` to a plain NAME. True if taken.
    mutating func accountError(_ code: ErrorCode, _ text: String, to sent: SentLine?, _ fx: inout [ClientEffect]) -> Bool {
        if code == AccountCodes.passwordRequired, case .command(.name(let name))? = sent {
            askPassword(for: name)
            return true
        }
        guard case .account(let command)? = sent else { return false }
        switch (command, code) {
        case (.login(let name, _), AccountCodes.badPassword):
            // Also a password kept from before that was changed meanwhile.
            if account.remembered?.name.lowercased() == name.lowercased() { account.remembered = nil }
            askPassword(for: name)
            show(.account(.badPassword))
        case (_, AccountCodes.tooManyAttempts):
            let wait = AccountClient.waitSeconds(text) ?? 1
            account.retryAt = now + Double(wait)
            if case .login(let name, _) = command { askPassword(for: name) }
            if wait > 0 { showWait() } else { show(.account(.tooManyAttempts(wait))) }
        case (_, AccountCodes.serverBusy):
            if case .login(let name, _) = command { askPassword(for: name) }
            show(.account(.serverBusy))
        case (.login, _):
            // Not registered after all, taken, or another refusal: choose again.
            if screen != .name { goToNameScreen(&fx) }
            show(.serverError(code: code, text: text))
        case (_, AccountCodes.badPasswordForm):
            account.clearTyping()
            show(.account(.passwordForm))
        case (_, .noName):
            named = false
            account.loggedIn = nil
            goToNameScreen(&fx)
            show(.serverError(code: code, text: text))
        default:
            if case .account = screen { goToMain() }
            show(.serverError(code: code, text: text))
        }
        return true
    }
}
