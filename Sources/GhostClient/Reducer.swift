import GhostProtocol

/// The client's core: one event in, the new state and the effects out. Pure:
/// no I/O, no clock, no randomness, so every path is tested without a terminal
/// or a socket. It renders what the server says and lets the server judge; the
/// only local check on a move is "is this key a letter a–z".
public func reduce(_ state: ClientState, _ event: ClientEvent) -> (ClientState, [ClientEffect]) {
    var s = state
    var effects: [ClientEffect] = []
    s.apply(event, &effects)
    return (s, effects)
}

extension ClientState {
    /// How long alerts stay on the status line, and a played key flashes.
    static let alertSeconds = 4.0
    static let flashSeconds = 0.6
    /// Reconnection backoff: 0.25 s, doubling, at most 5 s.
    static let firstBackoff = 0.25
    static let maxBackoff = 5.0
    /// After this long without sending anything, send PING: ghostd closes
    /// connections that stay silent (`--idle-timeout`), which would cancel a
    /// seek or a private game that is waiting for an opponent.
    static let keepaliveSeconds = 60.0
    /// How long the greeting may take after connecting.
    static let helloSeconds = 10.0
    /// How many high-score rows to ask for.
    static let scoresLimit = 100

    public static func backoff(attempt: Int) -> Double {
        var d = firstBackoff
        for _ in 1..<max(1, attempt) where d < maxBackoff { d *= 2 }
        return min(d, maxBackoff)
    }

    mutating func apply(_ event: ClientEvent, _ fx: inout [ClientEffect]) {
        switch event {
        case .server(let line): server(line, &fx)
        case .key(let key): self.key(key, &fx)
        case .paste(let keys):
            // In a game a move is one letter: a pasted word plays nothing.
            // But a challenged player's word field takes a paste of letters, as typed.
            if social.chat != nil || social.addField != nil || (keys.first == ChatFeature.openKey && ChatFeature.available(self)) {
                // The chat line and the name to follow take a paste as typed
                // (`:` and what follows it in one read open the line and fill it).
                for k in keys { self.key(k, &fx) }
            } else if screen == .game, answeringChallenge || GenericFeature.typing(self), keys.allSatisfy({ $0.letter != nil }) {
                for k in keys { self.key(k, &fx) }
            } else if screen == .game, !gameMenuOpen, !confirmLeave, keys.count > 1, !watchingAGame {
                show(.pastedSeveral)
            } else {
                for k in keys { self.key(k, &fx) }
            }
        case .connected:
            link = .connected
            connectedAt = now
        case .disconnected:
            LinkFeature.disconnected(&self, &fx)
        case .refused(let why):
            AccountFeature.refused(&self, why)
        case .tick(let t):
            now = t
            if let a = alert, a.until <= t { alert = nil }
            if let g = game, g.flash != nil, g.flashUntil <= t { game?.flash = nil }
            AccountFeature.passwordWaitTick(&self, &fx)
            WatchFeature.watchListTick(&self, &fx)
            // A server that accepts but never greets is treated as down.
            if link == .connected, t >= connectedAt + ClientState.helloSeconds { LinkFeature.disconnected(&self, &fx) }
            if link == .online, t >= lastSentAt + ClientState.keepaliveSeconds { send(.ping, &fx) }
            RecordFeature.retryReview(&self, &fx)
        case .resize(let w, let h):
            width = max(1, w)
            height = max(1, h)
        case .configSaveFailed(let why):
            show(.configSaveFailed(why))
        }
    }

    // MARK: Helpers

    mutating func show(_ notice: Notice) {
        alert = Alert(notice: notice, until: now + ClientState.alertSeconds)
    }

    /// Sends a command if the server can hear it; otherwise says so.
    @discardableResult
    mutating func send(_ command: Command, _ fx: inout [ClientEffect]) -> Bool {
        guard link == .online else {
            show(.notConnected)
            return false
        }
        var command = command
        // The saved choice to keep watchers out applies to every game opened here.
        if config.privateGames, case .new(var options) = command {
            options.watch = false
            command = .new(options)
        }
        sent.append(.command(command))
        if case .seek(let options) = command { seekGame = options.game ?? .ghost }
        lastSentAt = now
        fx.append(.send(command))
        return true
    }

    /// A status line belongs to the screen that caused it: a new screen starts clean.
    mutating func go(_ screen: Screen) {
        if screen != self.screen { alert = nil }
        self.screen = screen
        menuIndex = 0
        gameMenuOpen = false
        confirmLeave = false
    }

    mutating func goToMain() {
        go(.main)
        lobby = nil
    }

    /// The page a first start shows first: the chosen game's.
    var firstTutorialPage: TutorialPage { config.game == .hangman ? .hangman : .ghost }

    /// Where to go when there is nothing else to do: the main screen when named.
    mutating func goHome(_ fx: inout [ClientEffect]) {
        if named { goToMain() } else { NamePickerFeature.goToNameScreen(&self, &fx) }
    }

    mutating func setToken(_ token: String?, _ fx: inout [ClientEffect]) {
        guard config.token != token else { return }
        config.token = token
        fx.append(.saveConfig)
    }
}
