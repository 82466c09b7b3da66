import GhostProtocol

/// Registered names, in the core: sending NAME with the password kept in
/// memory, the password screens' keys, the answers to NAME-with-password,
/// REGISTER and PASSWORD (see AccountState.swift), and the name every
/// screen shares: taken (OK NAME) or refused, or wanted (`no-name`).
enum AccountFeature {
    /// Takes `name`: with its password when this process logged in to it
    /// (and a password may be sent), else plainly (a guest's name, or the
    /// server answers `ERR password-required` and the login screen asks).
    static func sendName(_ st: inout ClientState, _ name: String, _ fx: inout [ClientEffect]) {
        if st.account.transport.allowsPasswords, let password = st.account.password(for: name) {
            sendAccount(&st, .login(name: name, password: password), &fx)
        } else {
            st.send(.name(name), &fx)
        }
    }

    /// Sends a command that carries a password, if the server can hear it.
    @discardableResult
    static func sendAccount(_ st: inout ClientState, _ command: AccountCommand, _ fx: inout [ClientEffect]) -> Bool {
        guard st.link == .online else {
            st.show(.notConnected)
            return false
        }
        guard st.account.transport.allowsPasswords else {
            st.show(.account(.passwordInClear))
            return false
        }
        st.sent.append(.account(command))
        st.lastSentAt = st.now
        fx.append(.sendAccount(command))
        return true
    }

    /// The main screen's entry: register the name in use, or change the
    /// password of the one logged in to.
    static func openAccountScreen(_ st: inout ClientState) {
        st.account.clearTyping()
        st.go(.account(st.account.isLoggedIn(as: st.myName) ? .change : .register))
    }

    /// The login screen, for `name` (the server said `ERR password-required`).
    static func askPassword(_ st: inout ClientState, for name: String) {
        st.account.loginName = name
        st.account.clearTyping()
        if st.screen != .account(.login) { st.go(.account(.login)) }
    }

    /// The connection cannot be made safely: said on the status line, not retried.
    static func refused(_ st: inout ClientState, _ why: String) {
        st.link = .refused(why)
        st.sent = []
        st.named = false
        st.account.disconnected()
    }

    // MARK: Keys

    /// Typing a password: any printable character (spaces too), Backspace
    /// erases, Enter confirms, Esc goes back.
    static func accountKey(_ st: inout ClientState, _ sub: AccountScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard st.account.field.unicodeScalars.count + c.unicodeScalars.count <= AccountClient.passwordLength.upperBound else { return }
            st.account.field.append(c)
            keepTypingDuringWait(&st)
        case .backspace:
            if !st.account.field.isEmpty { st.account.field.removeLast() }
            keepTypingDuringWait(&st)
        case .escape:
            st.account.clearTyping()
            if sub == .login || !st.named { NamePickerFeature.goToNameScreen(&st, &fx) } else { st.goToMain() }
        case .enter:
            accountEnter(&st, sub, &fx)
        default:
            break
        }
    }

    static func accountEnter(_ st: inout ClientState, _ sub: AccountScreen, _ fx: inout [ClientEffect]) {
        guard st.account.transport.allowsPasswords else { return st.show(.account(.passwordInClear)) }
        let typed = st.account.field
        switch sub {
        case .login:
            guard let name = st.account.loginName else { return NamePickerFeature.goToNameScreen(&st, &fx) }
            guard !typed.isEmpty else { return st.show(.account(.typeAPassword)) }
            if let at = st.account.retryAt, at > st.now {
                // Kept, and sent by itself once the wait is over: never dropped.
                st.account.sendAtRetry = true
                return showWait(&st)
            }
            if sendAccount(&st, .login(name: name, password: typed), &fx) { st.account.clearTyping() }
        case .register, .change:
            guard let first = st.account.first else {
                guard AccountClient.passwordLength.contains(typed.unicodeScalars.count) else {
                    return st.show(.account(.passwordForm))
                }
                st.account.first = typed
                st.account.field = ""
                return st.show(.account(.typeItAgain))
            }
            guard typed == first else {
                st.account.clearTyping()
                return st.show(.account(.passwordsDiffer))
            }
            let command: AccountCommand = sub == .register ? .register(password: typed) : .changePassword(typed)
            if sendAccount(&st, command, &fx) { st.account.clearTyping() }
        }
    }

    // MARK: The wait after too many wrong passwords

    /// The status line during the wait: how long it still lasts, or, with a
    /// password waiting to go, when it goes. It stays for the whole wait,
    /// and `passwordWaitTick` counts it down.
    static func showWait(_ st: inout ClientState) {
        guard let at = st.account.retryAt, at > st.now else { return }
        let left = st.account.secondsToRetry(at: st.now)
        st.alert = Alert(notice: .account(st.account.sendAtRetry ? .sendingIn(left) : .tooManyAttempts(left)), until: at)
    }

    /// Typing during the wait after Enter: the password queued is no longer
    /// the one confirmed, so it waits for Enter again (still on screen).
    static func keepTypingDuringWait(_ st: inout ClientState) {
        guard st.account.sendAtRetry else { return }
        st.account.sendAtRetry = false
        if case .account? = st.alert?.notice { showWait(&st) }
    }

    /// Each tick: during the wait the status line counts down; once it is
    /// over, a password queued by Enter is sent by itself (when the server
    /// can hear it; else at the greeting, `hello`).
    static func passwordWaitTick(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard let at = st.account.retryAt else { return }
        if at > st.now {
            if case .account(.tooManyAttempts)? = st.alert?.notice { showWait(&st) }
            if case .account(.sendingIn)? = st.alert?.notice { showWait(&st) }
            return
        }
        guard st.account.sendAtRetry, st.screen == .account(.login), st.link == .online else { return }
        st.account.sendAtRetry = false
        if case .account(.sendingIn)? = st.alert?.notice { st.alert = nil }
        accountEnter(&st, .login, &fx)
    }

    // MARK: Replies

    /// The OK of a command that carried a password. True when that is all
    /// there is to do; false for a login, whose `OK NAME` then goes on as
    /// any NAME's does (the main screen).
    static func accountReply(_ st: inout ClientState, _ reply: Reply, to command: AccountCommand, _ fx: inout [ClientEffect]) {
        st.account.retryAt = nil
        switch command {
        case let .login(name, password):
            var taken = name
            if case .name(let n, _) = reply { taken = n }
            st.account.loggedIn = taken
            st.account.remembered = Login(name: taken, password: password)
        case .register(let password):
            let name = reply.fields["name"] ?? st.myName ?? ""
            st.account.loggedIn = name
            st.account.remembered = Login(name: name, password: password)
            if case .account = st.screen { st.goToMain() }
            st.show(.account(.registered(name)))
        case .changePassword(let password):
            if let name = st.account.loggedIn ?? st.myName { st.account.remembered = Login(name: name, password: password) }
            if case .account = st.screen { st.goToMain() }
            st.show(.account(.passwordChanged))
            return
        }
    }

    /// An ERR about passwords: to a command that carried one, or
    /// `ERR password-required` to a plain NAME. True if taken.
    static func accountError(_ st: inout ClientState, _ code: ErrorCode, _ text: String, to sent: SentLine?, _ fx: inout [ClientEffect]) {
        if code == AccountCodes.passwordRequired, case .command(.name(let name))? = sent {
            askPassword(&st, for: name)
            return
        }
        guard case .account(let command)? = sent else { return }
        switch (command, code) {
        case (.login(let name, _), AccountCodes.badPassword):
            // Also a password kept from before that was changed meanwhile.
            if st.account.remembered?.name.lowercased() == name.lowercased() { st.account.remembered = nil }
            askPassword(&st, for: name)
            st.show(.account(.badPassword))
        case (_, AccountCodes.tooManyAttempts):
            let wait = AccountClient.waitSeconds(text) ?? 1
            st.account.retryAt = st.now + Double(wait)
            if case .login(let name, _) = command { askPassword(&st, for: name) }
            if wait > 0 { showWait(&st) } else { st.show(.account(.tooManyAttempts(wait))) }
        case (_, AccountCodes.serverBusy):
            if case .login(let name, _) = command { askPassword(&st, for: name) }
            st.show(.account(.serverBusy))
        case (.login, _):
            // Not registered after all, taken, or another refusal: choose again.
            nameRefused(&st, code, text, &fx)
        case (_, AccountCodes.badPasswordForm):
            st.account.clearTyping()
            st.show(.account(.passwordForm))
        case (_, .noName):
            nameLost(&st, code, text, &fx)
        default:
            if case .account = st.screen { st.goToMain() }
            st.show(.serverError(code: code, text: text))
        }
    }

    // MARK: The name

    /// The replies that are the client's own (`LineOwner.client`): the name taken.
    static func clientReply(_ st: inout ClientState, _ reply: Reply, to first: SentLine?, _ fx: inout [ClientEffect]) {
        switch reply {
        case .name(let name, _):
            st.myName = name
            st.named = true
            // The picker lists it first from now on.
            if st.config.remember(name) { fx.append(.saveConfig) }
            if case .command? = first { st.account.namedAsGuest(name) }
            if st.screen == .name || st.screen == .account(.login) {
                if st.resultAfterLogin && st.result != nil { st.go(.over) } else { st.goToMain() }
            }
            st.resultAfterLogin = false
            // The game went on in another window (same settings file) and this
            // window was sent to the name screen: choosing a name here takes
            // the game back, rather than leaving it
            // adjourned for a new game to overwrite its token.
            if st.seatTaken, let token = st.config.token, st.game == nil {
                st.seatTaken = false
                st.go(.resuming)
                st.send(.resume(token), &fx)
                return
            }
            HangmanFeature.hangmanNamed(&st, &fx)
        default:
            break
        }
    }

    /// The refusals that are the client's own (`LineOwner.client`): a
    /// name refused, a command refused for want of one, the rest as the server says.
    static func clientRefusal(_ st: inout ClientState, _ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        switch (verb, code) {
        case (.name?, _): nameRefused(&st, code, text, &fx)
        case (_, .noName): nameLost(&st, code, text, &fx)
        default: st.show(.serverError(code: code, text: text))
        }
    }

    /// A name refused: choose again on the name screen, the server's words shown.
    private static func nameRefused(_ st: inout ClientState, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        if st.screen != .name { NamePickerFeature.goToNameScreen(&st, &fx) }
        st.show(.serverError(code: code, text: text))
    }

    /// A command refused for want of a name: the name this client held is
    /// gone (and any login with it), so to the name screen, the server's words shown.
    private static func nameLost(_ st: inout ClientState, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        st.named = false
        st.account.loggedIn = nil
        NamePickerFeature.goToNameScreen(&st, &fx)
        st.show(.serverError(code: code, text: text))
    }
}
