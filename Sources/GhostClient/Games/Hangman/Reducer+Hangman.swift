import GhostWire
import GhostProtocol
import HangmanWire

/// Hangman in the client's core: its server lines, its replies and refusals,
/// and its keys. The generic core calls in here at one point each
/// (`hangmanLine`, `hangmanReply`, `hangmanError`, `hangmanKey`,
/// `hangmanMainChoice`); TURN and MOVE are the generic core's
/// (Reducer+Board.swift), which scopes them into Hangman's board
/// (`HangmanBoard.reduce`, HangmanBoard+Reduce.swift); everything else about
/// Hangman lives in this folder.
extension ClientState {
    /// The lists a player can see, in the order ←/→ visit them.
    static let hangmanLists = ["evil", "fair", "phrase", "duel"]
    /// The modes the flipside offers (a duel is not a saved mode).
    static let hangmanModes = ["evil", "fair", "phrase"]
    /// How many rows of a best-games list to ask for.
    static let hangmanScoresLimit = 100

    // MARK: Server lines

    /// Takes the lines that belong to Hangman; returns false for the others.
    mutating func hangmanLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .game(id, kind, lang, players, token, round, bot, fields, record, clock, audience, _):
            // Any game that starts (a resumed Ghost game too) is the one to play.
            hangman.playAtOnce = false
            guard kind == .hangman else { return false }
            if let board = HangmanLines.game(fields) {
                hangmanStarted(id: id, lang: lang, players: players, token: token, round: round, bot: bot, board: board,
                               record: record, clock: clock, audience: audience, &fx)
            }
            return true
        case let .over(id, winner, loser, reason, fields, _):
            guard let g = currentGame(id), let b = g.hangman else { return false }
            hangmanOver(g, b, winner: winner, loser: loser, reason: reason, fields: fields, &fx)
            return true
        case .info(let text):
            // The INFO right after OVER says the same in the server's words.
            guard game == nil, hangmanScreen == .play || hangmanScreen == .settings, var end = hangman.ended,
                  end.info == nil else { return false }
            end.info = text
            hangman.ended = end
            return true
        case let .bestRank(board, rank, _):
            guard game == nil, var end = hangman.ended else { return true }
            end.rankBoard = board
            end.rank = rank
            hangman.ended = end
            return true
        case let .bestScore(rank, name, fields, _):
            if hangman.incomingScores.count < 1_000, let row = HangmanLines.score(rank: rank, name: name, fields) {
                hangman.incomingScores.append(row)
            }
            return true
        case let .setting(key, value, _):
            // A change still on its way stays on screen until its reply.
            let settled = !hangman.setKeys.contains(key)
            hangman.update(key) { s in
                s.saved = value
                if settled {
                    s.shown = nil
                    s.refusal = nil
                    s.refused = nil
                }
            }
            return true
        case let .rematch(id, player):
            guard result == nil, hangman.ended?.id == id else { return false }
            hangman.ended?.rematchOfferedBy = player
            return true
        case let .cancelled(id, _, kind):
            guard kind == .rematch, result == nil, hangman.ended?.id == id else { return false }
            hangman.ended?.rematchOfferedBy = nil
            hangman.ended?.rematchAsked = false
            return true
        default:
            return false
        }
    }

    mutating func hangmanStarted(id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
                                 board: HangmanBoard, record: HeadToHead?, clock: Int? = nil, audience: Audience? = nil,
                                 _ fx: inout [ClientEffect]) {
        let old = game
        gameStarted(id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                    board: .hangman(board), record: record, clock: clock, audience: audience, &fx)
        guard var g = game, g.id == id else { return }
        var b = board
        if let o = old, o.id == id, o.round == round, let ob = o.hangman {
            // The same game again (a RESUME): keep what the screen showed until TURN.
            b.resume(from: ob)
        }
        g.hangman = b
        game = g
        hangman.ended = nil
        hangman.answer = nil
        hangman.confirmNew = false
        if old?.id != id { hangman.wordField = "" }
        if screen != .hangman(.play) && screen != .hangman(.settings) { go(.hangman(.play)) }
    }

    mutating func hangmanOver(_ g: GameInfo, _ b: HangmanBoard, winner: String, loser: String, reason: OverReason,
                              fields: [Field], _ fx: inout [ClientEffect]) {
        let over = HangmanLines.over(fields)
        var board = b
        if let p = over.pattern { board.pattern = p }
        hangman.ended = HangmanEnd(id: g.id, board: board, players: g.players, winner: winner, loser: loser, reason: reason,
                                   word: over.word ?? board.word ?? "", mistakes: over.mistakes ?? board.mistakes)
        if g.watching {
            // A watched game: its end stays on screen until a key goes back to the list (no token, no lists).
            game = nil
            watchedGameEnded(nil)
            if screen != .hangman(.play) { go(.hangman(.play)) }
            return
        }
        game = nil
        setToken(nil, &fx)
        hangman.answer = nil
        hangman.confirmNew = false
        gameMenuOpen = false
        confirmLeave = false
        if screen != .hangman(.settings) { go(.hangman(.play)) }
        // The game's list, at once: it highlights this game if it made it.
        hangman.scoresMode = board.mode
        loadHangmanScores(&fx)
    }

    mutating func loadHangmanScores(_ fx: inout [ClientEffect]) {
        hangman.scores = nil
        hangman.scoresOffset = 0
        hangman.incomingScores = []
        send(.bestGames(ClientState.hangmanScoresLimit, game: .hangman, mode: hangman.scoresMode), &fx)
    }

    // MARK: Replies

    /// Takes the replies that belong to Hangman; `verb` is the command they answer.
    mutating func hangmanReply(_ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) -> Bool {
        switch reply {
        case let .set(key, value):
            if !hangman.setKeys.isEmpty { hangman.setKeys.removeFirst() }
            // A later change of the same setting still on its way decides what is shown.
            let latest = !hangman.setKeys.contains(key)
            hangman.update(key) { s in
                s.saved = value
                if latest {
                    s.shown = nil
                    s.refusal = nil
                    s.refused = nil
                }
            }
            show(.hangman(.saved))
            return true
        case .settings:
            return true
        case .bestGames:
            hangman.scores = hangman.incomingScores
            hangman.incomingScores = []
            return true
        case let .other(text, fields):
            switch Verb(spelled: text) {
            case .new?:
                guard fields["game"] == HangmanWire.kind else { return false }
                // A duel with a person waits for them; the computer's games start at once.
                if let code = fields["code"], game == nil {
                    lobby = .hosting(code: code, lang: fields["lang"] ?? "", match: false, game: .hangman)
                    go(.waiting)
                }
                return true
            case .word?:
                if var g = game, var b = g.hangman {
                    b.word = hangman.wordSent
                    b.apply(HangmanLines.position(fields))
                    g.hangman = b
                    game = g
                }
                hangman.wordField = ""
                // A word refused before is no news once one is set.
                if case .hangman(.notAWord)? = alert?.notice { alert = nil }
                return true
            case .solve?:
                return true
            default:
                return false
            }
        case .rematch(let status):
            guard result == nil, hangman.ended != nil else { return false }
            if status == .asked { hangman.ended?.rematchAsked = true }
            return true
        default:
            return false
        }
    }

    /// Takes the refusals that belong to Hangman.
    mutating func hangmanError(_ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) -> Bool {
        switch verb {
        case .set?:
            let key = hangman.setKeys.isEmpty ? nil : hangman.setKeys.removeFirst()
            guard code != .noName else { return false }
            // The row goes back to the saved value (never past the limit on
            // screen); the refusal below it names the value refused.
            if let key, !hangman.setKeys.contains(key) {
                hangman.update(key) { s in
                    s.refusal = Refusal(code: code, text: text)
                    s.refused = s.shown
                    s.shown = nil
                }
            }
            show(.serverError(code: code, text: text))
            return true
        case .word?:
            guard code == .notAWord, let g = game, let b = g.hangman else { return false }
            show(.hangman(.notAWord(word: hangman.wordSent ?? "", lang: g.lang, length: b.length)))
            return true
        case .letter?, .solve?:
            if code == .alreadyGuessed {
                show(.hangman(.alreadyGuessed(hangman.guessSent ?? "")))
                return true
            }
            return false
        case .new?:
            if code == .noPhrases {
                show(.hangman(.noPhrases))
                return true
            }
            // A Hangman game refused: the server's text says which value and why.
            if code == .badValue, config.game == .hangman || hangmanScreen != nil {
                show(.hangman(.newRefused(text)))
                return true
            }
            return false
        case .scores? where hangmanScreen != nil:
            hangman.scores = []
            hangman.incomingScores = []
            show(.serverError(code: code, text: text))
            return true
        default:
            return false
        }
    }

    /// The Hangman screen shown, if any.
    var hangmanScreen: HangmanScreen? {
        if case .hangman(let h) = screen { return h }
        return nil
    }

    // MARK: Starting

    /// Once named: with `--game hangman`, play at once.
    mutating func hangmanNamed(_ fx: inout [ClientEffect]) {
        // The main screen shows the name's saved Hangman mode: its settings,
        // asked at once rather than when the settings screen opens.
        if link == .online { send(.settings, &fx) }
        guard hangman.playAtOnce, game == nil else { return }
        hangman.playAtOnce = false
        startHangman(&fx)
    }

    /// A new game against the computer with the saved settings (or the kind last started here).
    mutating func startHangman(_ fx: inout [ClientEffect]) {
        var command = hangman.lastNew ?? Command.new(GameOptions(game: .hangman, clock: config.clock))
        // The saved length is for words: a phrase game against the computer
        // asks for any length rather than take it.
        if case .new(var options) = command, options.settings["mode"] == nil, options.settings["length"] == nil,
           hangman.setting(.mode).value == "phrase" {
            options.settings["length"] = HangmanWire.anyLength
            command = .new(options)
        }
        send(command, &fx)
    }

    /// The main screen's entries that Hangman takes when Hangman is chosen.
    mutating func hangmanMainChoice(_ item: MainMenuItem, _ fx: inout [ClientEffect]) -> Bool {
        guard config.game == .hangman else { return false }
        switch item {
        case .quickMatch:
            send(.seek(GameOptions(game: .hangman, clock: config.clock)), &fx)
        case .computer:
            go(.hangman(.computer))
        case .rules:
            go(.hangman(.rules))
        case .newPrivate:
            send(.new(GameOptions(game: .hangman, settings: ["mode": "duel"], clock: config.clock)), &fx)
        case .scores:
            hangman.returnTo = .main
            hangman.scoresMode = hangman.setting(.mode).value ?? "evil"
            go(.hangman(.scores))
            loadHangmanScores(&fx)
        default:
            return false
        }
        return true
    }

    mutating func openHangmanSettings(_ fx: inout [ClientEffect]) {
        hangman.returnTo = screen
        gameMenuOpen = false
        confirmLeave = false
        hangman.answer = nil
        hangman.confirmNew = false
        go(.hangman(.settings))
        menuIndex = hangman.settingsRow
        if link == .online { send(.settings, &fx) }
    }

    // MARK: Keys

    mutating func hangmanKey(_ sub: HangmanScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch sub {
        case .play: hangmanPlayKey(key, &fx)
        case .settings: hangmanSettingsKey(key, &fx)
        case .computer: hangmanComputerKey(key, &fx)
        case .scores: hangmanScoresKey(key, &fx)
        case .rules:
            if key == .escape || key == .enter || key == .backspace || key == .char("q") || key == .char(" ") { goToMain() }
        }
    }

    /// Whether I am the setter who still has to choose the word.
    var mustSetWord: Bool {
        guard let g = game, let b = g.hangman, b.pattern.isEmpty, let setter = g.players.first else { return false }
        return isMe(setter) && (g.toMove == nil || isMe(g.toMove))
    }

    mutating func hangmanPlayKey(_ key: Key, _ fx: inout [ClientEffect]) {
        // Tab flips to the settings whatever is open, during the game and after it.
        if key == .tab { return openHangmanSettings(&fx) }
        if let answer = hangman.answer {
            return answerKey(answer, key, &fx)
        }
        if hangman.confirmNew {
            // The same answers as Ghost's questions: Enter or y/j yes, Esc or n no.
            switch key {
            case .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
                hangman.confirmNew = false
                if game != nil { send(.leave, &fx) }
                startHangman(&fx)
            case .escape, .backspace, .char("n"), .char("N"):
                hangman.confirmNew = false
            default: break
            }
            return
        }
        guard game != nil else { return endedKey(key, &fx) }
        if !gameMenuOpen && !confirmLeave {
            // The opponent's offer takes Enter and Backspace (Reducer+Offer.swift).
            if answerOfferKey(key, &fx) { return }
            switch key {
            case .enter:
                if mustSetWord { return sendWord(&fx) }
                hangman.confirmNew = true
                return
            default: break
            }
            if mustSetWord { return wordKey(key, &fx) }
            if key == .char("=") {
                // Only the guesser answers: the setter's own word needs no answer field.
                if let setter = game?.players.first, isMe(setter) { return show(.lettersOnly) }
                hangman.answer = ""
                return
            }
            if let c = key.letter { hangman.guessSent = String(c) }
        }
        gameKey(key, &fx)
    }

    /// The whole answer being typed: letters, `'` and `-`; a space is a gap between words.
    mutating func answerKey(_ answer: String, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard answer.count < 64, let a = c.asciiValue else { return }
            if c == " " || c == "/" {
                if !answer.isEmpty, answer.last != "/" { hangman.answer = answer + "/" }
            } else if Key.char(c).letter != nil || a == 0x27 || a == 0x2D {
                hangman.answer = answer + c.lowercased()
            }
        case .backspace:
            hangman.answer = String(answer.dropLast())
        case .enter:
            var text = answer
            while text.last == "/" { text.removeLast() }
            guard !text.isEmpty else { return show(.hangman(.typeSomething)) }
            hangman.answer = nil
            hangman.guessSent = text
            send(.solve(text), &fx)
        case .escape:
            hangman.answer = nil
        case .tab:
            hangman.answer = nil
            openHangmanSettings(&fx)
        default:
            break
        }
    }

    /// The duel's word, typed by the setter: shown as `*`.
    mutating func wordKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard hangman.wordField.count < 64, let a = c.asciiValue,
                  Key.char(c).letter != nil || a == 0x27 || a == 0x2D else {
                if case .char = key { show(.lettersOnly) }
                return
            }
            hangman.wordField.append(Character(c.lowercased()))
        case .backspace:
            if !hangman.wordField.isEmpty { hangman.wordField.removeLast() }
        default:
            gameKey(key, &fx)
        }
    }

    mutating func sendWord(_ fx: inout [ClientEffect]) {
        guard !hangman.wordField.isEmpty else { return show(.hangman(.typeSomething)) }
        hangman.wordSent = hangman.wordField
        send(.word(hangman.wordField), &fx)
    }

    /// After the end: Enter or r plays again (a rematch after a duel with a
    /// person), Tab flips, Esc or m goes home: r and m as on Ghost's
    /// game-over menu; other letters do nothing.
    mutating func endedKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .tab: openHangmanSettings(&fx)
        case .char("m"), .char("M"): goToMain()
        case .char("h"), .char("H"):
            // The game just finished, replayed with its review, as on Ghost's game-over menu.
            guard let end = hangman.ended else { return }
            let opponent = end.players.first { !isMe($0) } ?? (isMe(end.winner) ? end.loser : end.winner)
            openEndedReplay(id: end.id, game: .hangman, variant: end.board.mode, opponent: opponent, won: isMe(end.winner),
                            from: .hangman(.play), &fx)
        case .enter, .char("r"), .char("R"):
            if rematchEnds { send(.rematch, &fx) } else { startHangman(&fx) }
        case .escape: goToMain()
        case .up: hangman.scoresOffset = max(0, hangman.scoresOffset - 1)
        case .down: hangman.scoresOffset = min(hangman.scoresOffset + 1, max(0, (hangman.scores?.count ?? 0) - 1))
        // The notice says what Enter does here, as the key help does.
        default: show(.hangman(rematchEnds ? .duelOver : .gameOver))
        }
    }

    /// The game that ended was a duel with a person: Enter and r ask for a rematch.
    var rematchEnds: Bool {
        guard let end = hangman.ended else { return false }
        return end.board.isDuel && !end.players.contains { $0.hasPrefix("bot-") }
    }

    mutating func hangmanSettingsKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let rows = HangmanSettingRow.allCases
        switch key {
        case .up: hangman.settingsRow = (hangman.settingsRow + rows.count - 1) % rows.count
        case .down: hangman.settingsRow = (hangman.settingsRow + 1) % rows.count
        case .left, .right:
            guard let row = HangmanSettingRow(rawValue: hangman.settingsRow) else { return }
            let value = hangman.setting(row).value
            guard let next = ClientState.nextValue(row, value, up: key == .right), next != value,
                  send(.set(key: row.key, value: next), &fx) else { return }
            // Shown at once; the reply says whether it was saved.
            hangman.setKeys.append(row.key)
            hangman.update(row.key) { s in
                s.shown = next
                s.refusal = nil
                s.refused = nil
            }
        case .enter:
            let back = hangman.returnTo
            // Enter starts the game the settings show (their mode against the
            // computer), not the last kind played (a duel, the computer guessing).
            hangman.lastNew = .new(GameOptions(game: .hangman, clock: config.clock))
            if game != nil {
                go(.hangman(.play))
                hangman.confirmNew = true
            } else {
                go(back == .hangman(.settings) ? .main : back)
                startHangman(&fx)
            }
        case .tab, .escape, .backspace, .char("q"):
            go(hangman.returnTo == .hangman(.settings) ? .main : hangman.returnTo)
        default:
            if let d = key.digit, (1...rows.count).contains(d) { hangman.settingsRow = d - 1 }
        }
        menuIndex = hangman.settingsRow
    }

    /// The value ←/→ leads to. The server judges it: a length past the
    /// language's longest word, or misses outside its range, come back refused.
    static func nextValue(_ row: HangmanSettingRow, _ value: String?, up: Bool) -> String? {
        switch row {
        case .length:
            guard let n = value.flatMap({ Int($0) }) else { return up ? "1" : "any" }
            return n <= 1 && !up ? "any" : String(n + (up ? 1 : -1))
        case .misses:
            let n = value.flatMap { Int($0) } ?? 8
            return String(max(0, n + (up ? 1 : -1)))
        case .mode:
            let modes = hangmanModes
            let i = modes.firstIndex(of: value ?? "evil") ?? 0
            return modes[(i + (up ? 1 : modes.count - 1)) % modes.count]
        }
    }

    mutating func hangmanComputerKey(_ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape || key == .backspace { return goToMain() }
        let items = HangmanComputerItem.allCases
        guard let i = menuChoice(key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .youGuess:
            hangman.lastNew = .new(GameOptions(game: .hangman, clock: config.clock))
            startHangman(&fx)
        case .computerGuesses:
            hangman.lastNew = .new(GameOptions(game: .hangman, settings: ["mode": "duel", "bot": "guesser"], clock: config.clock))
            startHangman(&fx)
        case .settings:
            openHangmanSettings(&fx)
        case .back:
            goToMain()
        }
    }

    mutating func hangmanScoresKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let count = hangman.scores?.count ?? 0
        switch key {
        case .down: hangman.scoresOffset = min(hangman.scoresOffset + 1, max(0, count - 1))
        case .up: hangman.scoresOffset = max(0, hangman.scoresOffset - 1)
        case .left, .right:
            let lists = ClientState.hangmanLists
            let i = lists.firstIndex(of: hangman.scoresMode) ?? 0
            hangman.scoresMode = lists[(i + (key == .right ? 1 : lists.count - 1)) % lists.count]
            loadHangmanScores(&fx)
        case .escape, .enter, .backspace, .char("q"):
            go(hangman.returnTo == .hangman(.scores) ? .main : hangman.returnTo)
        default: break
        }
    }
}
