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
        switch owner {
        case .record: RecordFeature.line(&self, line)
        case .watch: WatchFeature.line(&self, line, &fx)
        case .hangman: HangmanFeature.line(&self, line, &fx)
        case .generic: _ = genericLine(line, &fx)
        case .ghost: GhostFeature.line(&self, line, &fx)
        case .table: TableFeature.line(&self, line, &fx)
        case .client, .account: clientLine(line, &fx)
        }
    }

    /// The greeting, BYE, replies, the name picker's and the high scores'
    /// data lines, and the other seek queues (`LineOwner.client`).
    mutating func clientLine(_ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .hello(_, _, languages): hello(languages: languages, &fx)
        case .ok(let reply): ok(reply, &fx)
        case let .error(code, text): error(code, text, &fx)
        case .nameEntry(let name):
            if !name.isEmpty, namePicker.incomingNames.count < 10_000 { namePicker.incomingNames.append(name) }
        case let .score(rank, name, wins, played, _):
            if highScores.incomingScores.count < 1_000 { highScores.incomingScores.append(ScoreEntry(rank: rank, name: name, wins: wins, played: played)) }
        case let .waiting(kind, lang, rounds, count, clock, variant):
            // Only the games this client plays (as for GAME). A later WAITING
            // for the same queue replaces the earlier one; count=0: it emptied.
            guard ClientGames.plays(kind) || announced(GameKind(rawValue: kind)) != nil, case .seeking = lobby else { return }
            let queue = OtherSeekers(lang: lang, match: rounds == .ghost, count: count, game: GameKind(rawValue: kind), clock: clock,
                                     variant: variant)
            if let i = otherSeekers.firstIndex(where: { $0.lang == lang && $0.match == queue.match && $0.game == queue.game && $0.clock == clock
                                                        && $0.variant == variant }) {
                if count > 0 { otherSeekers[i] = queue } else { otherSeekers.remove(at: i) }
            } else if count > 0, otherSeekers.count < 20 {
                otherSeekers.append(queue)
            }
        case .bye(let code, _):
            // The server closes this connection next. `replaced`: another
            // connection (a second client on the same settings file) resumed
            // this seat; do not take it back on reconnecting, or the two
            // would take it from each other forever.
            if code == .replaced { seatTaken = true }
            // The server closes only a connection without a name for want of
            // one: a name it held was taken from it by the same name logged in
            // on another connection (its INFO is free text, never read).
            if code == .nameTimeout, named {
                signedOut = true
                show(.signedOut)
            }
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
        if case .help = reply { dropAnsweredHelp(unless: true) } else { dropAnsweredHelp(unless: false) }
        let first = sent.isEmpty ? nil : sent.removeFirst()
        let owner = LineOwner.of(reply: reply, to: first, in: self)
        let verb = first?.verb
        // A login's OK: the account keeps the name and password, and the name taken is the client's.
        if case .account(.login(let name, let password))? = first {
            _ = AccountFeature.accountReply(&self, reply, to: .login(name: name, password: password), &fx)
        }
        // The answer to SETTINGS: the connection has a name, so the generic
        // kinds ask which kinds the server plays (`genericReply` asks, and
        // leaves the reply to its owner).
        if verb == .settings, owner != .watch { _ = genericReply(reply, to: first, &fx) }
        switch owner {
        case .account:
            if case .account(let command)? = first { _ = AccountFeature.accountReply(&self, reply, to: command, &fx) }
        case .watch: _ = WatchFeature.watchReply(&self, reply, to: verb, &fx)
        case .record: _ = RecordFeature.recordReply(&self, reply, to: verb, &fx)
        case .generic: _ = genericReply(reply, to: first, &fx)
        case .hangman: _ = HangmanFeature.hangmanReply(&self, reply, to: verb, &fx)
        case .ghost: _ = GhostFeature.ghostReply(&self, reply)
        case .client, .table: clientReply(reply, to: first, &fx)
        }
    }

    /// The replies that are the client's own (`LineOwner.client`).
    mutating func clientReply(_ reply: Reply, to first: SentLine?, _ fx: inout [ClientEffect]) {
        switch reply {
        case .name(let name, _):
            myName = name
            named = true
            // The picker lists it first from now on.
            if config.remember(name) { fx.append(.saveConfig) }
            if case .command? = first { account.namedAsGuest(name) }
            if screen == .name || screen == .account(.login) {
                if resultAfterLogin && result != nil { go(.over) } else { goToMain() }
            }
            resultAfterLogin = false
            // The game went on in another window (same settings file) and this
            // window was sent to the name screen: choosing a name here takes
            // the game back, rather than leaving it
            // adjourned for a new game to overwrite its token.
            if seatTaken, let token = config.token, game == nil {
                seatTaken = false
                go(.resuming)
                send(.resume(token), &fx)
                return
            }
            HangmanFeature.hangmanNamed(&self, &fx)
        case .names(_, let more):
            let asked = namePicker.namesAsked.isEmpty ? nil : namePicker.namesAsked.removeFirst()
            let answer = namePicker.incomingNames
            namePicker.incomingNames = []
            // Only the answer for what is typed now counts (a stale one
            // would put back names the typing has since ruled out).
            if let asked, asked == (namePicker.namesSearchRefused ? "" : namePicker.namesQuery) {
                let picked = namePicker.nameCursor.flatMap { filteredNames.indices.contains($0) ? filteredNames[$0] : nil }
                namePicker.knownNames = answer
                namePicker.knownNamesPrefix = asked
                namePicker.knownNamesMore = more
                // The cursor stays on the name it was on, if still listed.
                namePicker.nameCursor = picked.flatMap { filteredNames.firstIndex(of: $0) }
                NamePickerFeature.preselectLastName(&self)
            }
            // Typed on while this was asked: ask for what is typed now.
            if screen == .name { NamePickerFeature.askNames(&self, &fx) }
        case .scores:
            highScores.scores = highScores.incomingScores
            highScores.incomingScores = []
        case let .seek(lang, rounds, _):
            if game == nil {
                lobby = .seeking(lang: lang, match: rounds == .ghost, game: seekGame)
                otherSeekers = []
                go(.waiting)
            }
        case let .new(code, _, lang, rounds, _):
            // Against the computer there is no code: the GAME follows at once.
            if let code, game == nil {
                lobby = .hosting(code: code, lang: lang, match: rounds == .ghost)
                go(.waiting)
            }
        case .join:
            codeField = ""
        case .leave:
            if screen == .waiting { goToMain() }
            lobby = nil
        case .rematch(let status):
            if status == .asked {
                result?.rematchAsked = true
                result?.rematchLapsed = false
            }
        case .restart(let status), .lang(_, let status?):
            if status == .offered { show(.offerSent) }
        case .resume(_, over: true):
            // The game ended while this player was away: its OVER follows (the
            // game-over screen); the token is spent, and the name taken back.
            setToken(nil, &fx)
            game = nil
            if !named, let name = myName ?? config.lastName {
                myName = name
                resultAfterLogin = true
                AccountFeature.sendName(&self, name, &fx)
            }
        default:
            break
        }
    }

    mutating func error(_ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        dropAnsweredHelp(unless: false)
        let first = sent.isEmpty ? nil : sent.removeFirst()
        let owner = LineOwner.of(refusal: code, to: first, in: self)
        let verb = first?.verb
        switch owner {
        case .account: _ = AccountFeature.accountError(&self, code, text, to: first, &fx)
        case .hangman: _ = HangmanFeature.hangmanError(&self, verb, code, text, &fx)
        case .watch: _ = WatchFeature.watchError(&self, verb, code, text, &fx)
        case .record: _ = RecordFeature.recordError(&self, verb, code, text, &fx)
        case .generic: _ = genericError(verb, code, text, &fx)
        case .ghost, .client, .table:
            // A feature's request refused for want of a name: the feature
            // forgets it (a setting on its way, a WATCH or UNWATCH asked),
            // and the client asks for a name.
            if verb == .set { _ = HangmanFeature.hangmanError(&self, verb, code, text, &fx) }
            if verb == .watch || verb == .unwatch { _ = WatchFeature.watchError(&self, verb, code, text, &fx) }
            clientRefusal(verb, code, text, &fx)
        }
    }

    /// The refusals that are the client's own (`LineOwner.client`).
    mutating func clientRefusal(_ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        switch (verb, code) {
        case (.resume?, _):
            if code == .badToken { setToken(nil, &fx) }
            defer { show(code == .badToken ? .gameEnded : .serverError(code: code, text: text)) }
            if screen == .resuming || screen == .game {
                game = nil
                if !named, let name = myName ?? config.lastName {
                    // Take the name back and carry on from the main screen.
                    myName = name
                    AccountFeature.sendName(&self, name, &fx)
                    goToMain()
                } else {
                    goHome(&fx)
                }
            }
        case (.name?, _):
            if screen != .name { NamePickerFeature.goToNameScreen(&self, &fx) }
            show(.serverError(code: code, text: text))
        case (.letter?, .notYourTurn):
            show(.notYourTurn)
        case (.letter?, .notALetter):
            show(.lettersOnly)
        case (_, .noName):
            named = false
            account.loggedIn = nil
            NamePickerFeature.goToNameScreen(&self, &fx)
            show(.serverError(code: code, text: text))
        case (.scores?, _):
            highScores.scores = []
            show(.serverError(code: code, text: text))
        case (.names?, _):
            namePicker.incomingNames = []
            let asked = namePicker.namesAsked.isEmpty ? "" : namePicker.namesAsked.removeFirst()
            if asked.isEmpty {
                show(.serverError(code: code, text: text))
            } else if code == .badArguments || code == .unknownCommand {
                // A server that does not search: filter the list it gave.
                namePicker.namesSearchRefused = true
            }
            // Not asked again here: the next keypress asks (a server that
            // refuses every NAMES is not asked in a loop).
        default:
            show(.serverError(code: code, text: text))
        }
    }
}
