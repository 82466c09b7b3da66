import GhostProtocol

/// The link to the server: a connection that drops (what the server forgot
/// with it, and the reconnection after a backoff) and the greeting (HELLO:
/// what this client had is restored: its language, its game, its name).
enum LinkFeature {
    static func disconnected(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.link = .offline
        st.sent = []
        st.named = false
        st.account.disconnected()
        st.namePicker.incomingNames = []
        st.namePicker.namesAsked = []
        st.highScores.incomingScores = []
        SocialFeature.disconnected(&st)
        if st.watchingAGame || st.screen == .watchList {
            // The server forgot what this connection watched: the list, asked again once greeted.
            WatchFeature.stopWatching(&st)
            st.watch.left = nil
            if st.screen != .watchList { st.go(.watchList) }
            st.watch.games = nil
        }
        if st.screen == .waiting {
            st.lobby = nil
            st.go(.main)
            st.show(.seekCancelled)
        }
        guard !st.quitting else { return }
        st.attempts += 1
        fx.append(.reconnect(after: ClientState.backoff(attempt: st.attempts)))
    }

    /// The greeting: the connection is usable. Restore what this client had:
    /// its language, its game (RESUME), or its name.
    static func hello(_ st: inout ClientState, languages: [String], _ fx: inout [ClientEffect]) {
        st.link = .online
        st.everOnline = true
        st.attempts = 0
        // The address a server answered at is the one to remember, with
        // how it was reached (tls=, tls-ca=): written now, never for an
        // address where no server was reached.
        var reached = st.config
        reached.server = st.serverAddress
        if let c = st.connectionTLS {
            reached.tls = c.tls
            reached.tlsCA = c.caFile
        }
        if reached != st.config {
            st.config = reached
            fx.append(.saveConfig)
        }
        st.sent = []
        st.namePicker.namesAsked = []
        st.namePicker.namesSearchRefused = false
        // The kinds are asked again of this server once named (Games/Generic).
        st.kindsAsked = false
        st.incomingKinds = []
        st.lastSentAt = st.now
        let list = languages.filter { !$0.isEmpty && $0.utf8.count <= 16 }
        if !list.isEmpty { st.serverLanguages = list }
        if let lang = st.config.language, st.serverLanguages.contains(lang) {
            st.send(.lang(lang), &fx)
        }
        if let token = st.config.token, !st.seatTaken {
            if st.screen != .game && st.screen != .language && st.screen != .tutorial { st.go(.resuming) }
            st.send(.resume(token), &fx)
        } else if st.seatTaken {
            // The game goes on in the other window; this one starts afresh.
            st.game = nil
            NamePickerFeature.goToNameScreen(&st, &fx)
            st.show(.seatTaken)
        } else if st.signedOut {
            // The name is in use in the other window: pick it again by hand.
            st.signedOut = false
            st.myName = nil
            NamePickerFeature.goToNameScreen(&st, &fx)
            st.show(.signedOut)
        } else if let name = st.myName {
            // Back after a drop in the lobby: take the name again (a
            // registered one with the password kept in memory, if any).
            AccountFeature.sendName(&st, name, &fx)
            if st.screen == .resuming { st.goToMain() }
        } else if st.screen == .name, let chosen = st.namePicker.chosenBeforeGreeting {
            // Enter was pressed before the greeting: the name goes now.
            st.namePicker.chosenBeforeGreeting = nil
            AccountFeature.sendName(&st, chosen, &fx)
        } else if st.screen == .name {
            NamePickerFeature.askNames(&st, fresh: true, &fx)
            // `--game hangman`: straight into play under the last name.
            if st.hangman.playAtOnce, let name = st.config.lastName { AccountFeature.sendName(&st, name, &fx) }
        } else if st.screen == .resuming {
            NamePickerFeature.goToNameScreen(&st, &fx)
        }
        if st.screen == .scores && st.highScores.scores == nil { ScoresFeature.loadScores(&st, &fx) }
        if st.screen == .watchList && st.watch.games == nil, st.named || st.myName != nil { WatchFeature.openWatchList(&st, &fx) }
        RecordFeature.recordReconnected(&st, &fx)
        // A password queued during a wait that ended while the link was down.
        AccountFeature.passwordWaitTick(&st, &fx)
    }

    /// HELLO and BYE (`LineOwner.link`).
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .hello(_, _, languages):
            LinkFeature.hello(&st, languages: languages, &fx)
        case .bye(let code, _):
            // The server closes this connection next. `replaced`: another
            // connection (a second client on the same settings file) resumed
            // this seat; do not take it back on reconnecting, or the two
            // would take it from each other forever.
            if code == .replaced { st.seatTaken = true }
            // The server closes only a connection without a name for want of
            // one: a name it held was taken from it by the same name logged in
            // on another connection (its INFO is free text, never read).
            if code == .nameTimeout, st.named {
                st.signedOut = true
                st.show(.signedOut)
            }
        default:
            break
        }
    }
}
