import GhostWire
import GhostProtocol

/// Server lines, decoded: replies (OK/ERR, matched to the oldest command
/// awaiting one), data lines (NAME, SCORE) and events. Lines the client does
/// not know never arrive here (`ServerLine(decoding:)` returns nil for
/// them); game lines whose fields the client cannot read are ignored, never
/// trusted. Control characters are gone and lengths capped by the decoder.
extension ClientState {
    mutating func server(_ line: ServerLine, _ fx: inout [ClientEffect]) {
        // Whether a game that starts is rated is the server's word (GAME's
        // `ratings=`), whichever kind's reducer takes the GAME line.
        defer {
            if case let .game(id, _, _, _, _, _, _, _, _, _, _, ratings) = line, game?.id == id { game?.ratings = ratings }
        }
        // Each line goes to the one feature that owns it, decided by what it is (LineRoute.swift).
        let owner = LineOwner.of(line, in: self)
        // A rated game's end: the record keeps its ratings, whichever feature shows the end.
        RecordFeature.noteRatings(&self, line)
        // Any game that starts here (a resumed Ghost game too) is the one to
        // play: Hangman's flipside does not start another.
        if case .game = line, owner != .watch { hangman.playAtOnce = false }
        // A game that starts ends the wait for an invitation's answer (Social/).
        if case .game = line, owner != .watch { social.invited = nil }
        switch owner {
        case .record: RecordFeature.line(&self, line)
        case .watch: WatchFeature.line(&self, line, &fx)
        case .hangman: HangmanFeature.line(&self, line, &fx)
        case .generic: _ = GenericFeature.line(&self, line, &fx)
        case .ghost: GhostFeature.line(&self, line, &fx)
        case .table: TableFeature.line(&self, line, &fx)
        case .link: LinkFeature.line(&self, line, &fx)
        case .namePicker: NamePickerFeature.line(&self, line)
        case .scores: ScoresFeature.line(&self, line)
        case .lobby: LobbyFeature.line(&self, line)
        case .social: SocialFeature.line(&self, line, &fx)
        case .client, .account: clientLine(line, &fx)
        }
    }

    /// OK and ERR, each routed on its own (`ok`, `error`).
    mutating func clientLine(_ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case .ok(let reply): ok(reply, &fx)
        case let .error(code, text): error(code, text, &fx)
        default:
            break  // the client never asks for STATS
        }
    }

    /// The game an event is about, if it is the one on screen.
    func currentGame(_ id: Int) -> GameInfo? {
        guard let g = game, g.id == id else { return nil }
        return g
    }

    // MARK: Replies

    mutating func ok(_ reply: Reply, _ fx: inout [ClientEffect]) {
        if case .help = reply { GenericFeature.dropAnsweredHelp(&self, unless: true) } else { GenericFeature.dropAnsweredHelp(&self, unless: false) }
        let first = sent.isEmpty ? nil : sent.removeFirst()
        let owner = LineOwner.of(reply: reply, to: first, in: self)
        let verb = first?.verb
        // A login's OK: the account keeps the name and password, and the name taken is the client's.
        if case .account(.login(let name, let password))? = first {
            AccountFeature.accountReply(&self, reply, to: .login(name: name, password: password), &fx)
        }
        // The answer to SETTINGS: the connection has a name, so the generic
        // kinds ask which kinds the server plays (`GenericFeature.reply` asks, and
        // leaves the reply to its owner).
        if verb == .settings, owner != .watch { _ = GenericFeature.reply(&self, reply, to: first, &fx) }
        switch owner {
        case .account:
            if case .account(let command)? = first { AccountFeature.accountReply(&self, reply, to: command, &fx) }
        case .watch: WatchFeature.watchReply(&self, reply, to: verb, &fx)
        case .record: RecordFeature.recordReply(&self, reply, to: verb, &fx)
        case .generic: _ = GenericFeature.reply(&self, reply, to: first, &fx)
        case .hangman: HangmanFeature.hangmanReply(&self, reply, to: verb, &fx)
        case .ghost: GhostFeature.ghostReply(&self, reply)
        case .namePicker: NamePickerFeature.reply(&self, reply, &fx)
        case .scores: ScoresFeature.reply(&self)
        case .lobby: LobbyFeature.reply(&self, reply)
        case .table: TableFeature.reply(&self, reply, &fx)
        case .social: SocialFeature.reply(&self, reply, to: first, &fx)
        case .client, .link: AccountFeature.clientReply(&self, reply, to: first, &fx)
        }
    }

    mutating func error(_ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        GenericFeature.dropAnsweredHelp(&self, unless: false)
        let first = sent.isEmpty ? nil : sent.removeFirst()
        let owner = LineOwner.of(refusal: code, to: first, in: self)
        let verb = first?.verb
        switch owner {
        case .account: AccountFeature.accountError(&self, code, text, to: first, &fx)
        case .hangman: HangmanFeature.hangmanError(&self, verb, move: first?.move, code, text, &fx)
        case .watch: WatchFeature.watchError(&self, verb, code, text, &fx)
        case .record: RecordFeature.recordError(&self, verb, code, text, &fx)
        case .generic: _ = GenericFeature.error(&self, verb, code, text, &fx)
        case .namePicker: NamePickerFeature.refused(&self, code, text)
        case .scores: ScoresFeature.refused(&self, code, text)
        case .table: TableFeature.refused(&self, verb, move: first?.move, code, text, &fx)
        case .social: SocialFeature.refused(&self, code, text, to: first, &fx)
        case .ghost, .client, .link, .lobby:
            // A feature's request refused for want of a name: the feature
            // forgets it (a setting on its way, a WATCH or UNWATCH asked),
            // and the client asks for a name.
            if verb == .set { HangmanFeature.hangmanError(&self, verb, move: first?.move, code, text, &fx) }
            if verb == .watch || verb == .unwatch { WatchFeature.watchError(&self, verb, code, text, &fx) }
            AccountFeature.clientRefusal(&self, verb, code, text, &fx)
        }
    }
}
